/* cli_harness.h - running the gjkbatch binary from a cmocka test: its path
 * and any emulator come from the environment CTest sets (GJKBATCH_CLI,
 * GJKBATCH_EMULATOR), its stdout and stderr go to files in a temporary
 * folder. posix_spawn rather than fork: fork hangs under qemu-user, where
 * the cross-built tests run. For one test program each (static state);
 * include after cmocka.h with _POSIX_C_SOURCE 200809L defined. */
#ifndef GJKB_CLI_HARNESS_H
#define GJKB_CLI_HARNESS_H

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *cli;          /* GJKBATCH_CLI */
static const char *emulator;     /* GJKBATCH_EMULATOR: command that runs a cross-built binary */
/* Words run_tool puts before the emulator and the tool, NULL-terminated
 * (e.g. setpriv dropping root); NULL: none. */
static const char *const *tool_prefix;
static char tmp_dir[64];

/* Reads the environment and makes the temporary folder: 0, or -1. */
static int harness_setup(void)
{
    cli = getenv("GJKBATCH_CLI");
    emulator = getenv("GJKBATCH_EMULATOR");
    snprintf(tmp_dir, sizeof tmp_dir, "/tmp/gjkb_test_XXXXXX");
    return mkdtemp(tmp_dir) ? 0 : -1;
}

static void tmp_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", tmp_dir, name);
}

/* The whole content of f (from the start), NUL-terminated. */
static inline char *slurp(FILE *f)
{
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    return s;
}

/* The whole content of the file at path, NUL-terminated; NULL when it
 * cannot be opened. */
static char *slurp_path(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = slurp(f);
    fclose(f);
    return s;
}

/* Runs the tool with args (NULL-terminated); stdin from in_path (or
 * /dev/null), stdout and stderr into the files "stdout" and "stderr" of the
 * temporary folder (so stderr is no terminal), opened before any
 * tool_prefix runs. Returns the exit status. */
static int run_tool(const char *in_path, const char *const *args)
{
    char out_path[128], err_path[128], emu[256];
    tmp_path(out_path, sizeof out_path, "stdout");
    tmp_path(err_path, sizeof err_path, "stderr");
    char *argv[40];
    int n = 0;
    for (int i = 0; tool_prefix && tool_prefix[i]; i++) {
        assert_true(n < 8);
        argv[n++] = (char *)tool_prefix[i];
    }
    /* the emulator command comes as space-separated words */
    snprintf(emu, sizeof emu, "%s", emulator ? emulator : "");
    for (char *w = strtok(emu, " "); w; w = strtok(NULL, " ")) {
        assert_true(n < 16);
        argv[n++] = w;
    }
    argv[n++] = (char *)cli;
    for (int i = 0; args[i]; i++) {
        assert_true(n < 39);
        argv[n++] = (char *)args[i];
    }
    argv[n] = NULL;

    posix_spawn_file_actions_t fa;
    assert_int_equal(posix_spawn_file_actions_init(&fa), 0);
    assert_int_equal(posix_spawn_file_actions_addopen(&fa, 0, in_path ? in_path : "/dev/null", O_RDONLY, 0), 0);
    assert_int_equal(posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644), 0);
    assert_int_equal(posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644), 0);
    fflush(NULL);
    pid_t pid;
    int e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0)
        fail_msg("cannot start %s: %s", argv[0], strerror(e));
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* The tool's "stdout" or "stderr" from the last run. */
static char *tool_output(const char *name)
{
    char p[128];
    tmp_path(p, sizeof p, name);
    char *s = slurp_path(p);
    assert_non_null(s);
    return s;
}

/* Skips the test when CTest gave no binary. */
#define NEED_CLI()                                                  \
    do {                                                            \
        if (!cli || !*cli) {                                        \
            print_message("GJKBATCH_CLI not set: skipping\n");      \
            skip();                                                 \
        }                                                           \
    } while (0)

/* How many times `what` occurs in text. */
static long count_of(const char *text, const char *what)
{
    long n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* Every backend this build and CPU run, reference first; returns the count. */
static int available_backends(gjkb_backend out[GJKB_BACKEND_COUNT])
{
    int n = 0;
    for (int b = GJKB_BACKEND_REFERENCE; b < GJKB_BACKEND_COUNT; b++)
        if (gjkb_backend_available((gjkb_backend)b))
            out[n++] = (gjkb_backend)b;
    return n;
}

#endif
