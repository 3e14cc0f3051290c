/* outfile.c - output files written through a temporary file and renamed
 * over their target; the rules are in outfile.h and docs/cli.md. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, readlink, lstat, fchmod, strdup */

#include "outfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* Links followed before giving up, as the kernel does. */
#define MAX_LINKS 40
/* Longest link target read (PATH_MAX on Linux). */
#define MAX_LINK_TARGET 4096
/* Bytes of the target's name kept in the temporary name, so that
 * ".NAME.XXXXXX" stays within the usual 255-byte limit of a name. */
#define MAX_TMP_BASE 200

static int fail(outfile *out, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int fail(outfile *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->message, sizeof out->message, fmt, ap);
    va_end(ap);
    return -1;
}

/* Length of the folder part of path, its last '/' included (0: none). */
static size_t folder_length(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) + 1 : 0;
}

/* Where the symbolic link at link points, as a path usable from here (a
 * relative target is relative to the link's folder). NULL with errno set. */
static char *link_target(const char *link)
{
    char buf[MAX_LINK_TARGET];
    ssize_t n = readlink(link, buf, sizeof buf);
    if (n < 0)
        return NULL;
    if ((size_t)n == sizeof buf) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    size_t folder = n > 0 && buf[0] == '/' ? 0 : folder_length(link);
    char *p = malloc(folder + (size_t)n + 1);
    if (!p)
        return NULL;
    memcpy(p, link, folder);
    memcpy(p + folder, buf, (size_t)n);
    p[folder + (size_t)n] = '\0';
    return p;
}

/* The end of path's chain of symbolic links: path itself when it is no
 * link, the missing file when the chain dangles (writing creates it, as
 * fopen through the link would). Malloc'd; NULL with errno set. */
static char *follow_links(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;     /* lstat's other errors: the open reports them */
        char *next = NULL;
        if (hops == MAX_LINKS)
            errno = ELOOP;
        else
            next = link_target(cur);
        int e = errno;      /* free may change it */
        free(cur);
        errno = e;
        cur = next;
    }
    return NULL;
}

/* The mode fopen gives a new file. Reading the umask means setting it: the
 * tool has no other thread creating files while it writes one. */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

static void release(outfile *out)
{
    free(out->tmp);
    free(out->target);
    out->tmp = out->target = NULL;
}

/* Gives the temporary file the old file's owner and mode (or a new file's
 * mode). Best effort: only root may give a file away, and file systems
 * without Unix modes refuse both; mkstemp's 0600 is the safe side. */
static void copy_mode(int fd, const struct stat *old)
{
    if (old && fchown(fd, old->st_uid, old->st_gid) != 0) {
        /* the file stays ours, as a copy made by hand would */
    }
    if (fchmod(fd, old ? old->st_mode & 07777 : new_file_mode()) != 0) {
        /* see above */
    }
}

/* A temporary ".NAME.XXXXXX" beside target (malloc'd, owned from here on),
 * which commit renames over it; old: the existing target's stat, or NULL. */
static int open_temp(outfile *out, char *target, const struct stat *old)
{
    out->target = target;
    /* Replacing would get around a file's own write protection. */
    if (old && access(target, W_OK) != 0) {
        int e = errno;
        release(out);
        return fail(out, "writing %s: %s", out->path, strerror(e));
    }
    size_t folder = folder_length(target), size = folder + MAX_TMP_BASE + 10;
    if (!(out->tmp = malloc(size))) {
        release(out);
        return fail(out, "writing %s: out of memory", out->path);
    }
    snprintf(out->tmp, size, "%.*s.%.*s.XXXXXX", (int)folder, target, MAX_TMP_BASE, target + folder);
    int fd = mkstemp(out->tmp);
    if (fd < 0) {
        int e = errno;
        /* the folder without its final '/', except for the root */
        int shown = folder > 1 ? (int)folder - 1 : (int)folder;
        fail(out, "writing %s: cannot create a temporary file in %.*s: %s", out->path, folder ? shown : 1,
             folder ? target : ".", strerror(e));
        release(out);
        return -1;
    }
    copy_mode(fd, old);
    if (!(out->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(out->tmp);
        release(out);
        return fail(out, "writing %s: %s", out->path, strerror(e));
    }
    return 0;
}

int outfile_open(outfile *out, const char *path)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    char *target = follow_links(path);
    if (!target)
        return fail(out, "writing %s: %s", path, strerror(errno));
    struct stat st;
    int exists = stat(target, &st) == 0;
    /* Regular files and new names are replaced; a name ending in '/' and
     * stat's other errors (EACCES, ENOTDIR) go to fopen, which reports them. */
    if (exists ? S_ISREG(st.st_mode) : errno == ENOENT && target[folder_length(target)] != '\0')
        return open_temp(out, target, exists ? &st : NULL);
    free(target);
    out->f = fopen(path, "w");
    return out->f ? 0 : fail(out, "writing %s: %s", path, strerror(errno));
}

void outfile_stdout(outfile *out)
{
    memset(out, 0, sizeof *out);
    out->path = "<stdout>";
    out->f = stdout;
    out->is_stdout = 1;
}

/* Flushes and closes (stdout is only flushed): 0, or the errno. */
static int close_file(outfile *out)
{
    errno = 0;
    int err = fflush(out->f) != 0 || ferror(out->f) ? (errno ? errno : EIO) : 0;
    if (!out->is_stdout && fclose(out->f) != 0 && !err)
        err = errno ? errno : EIO;
    out->f = NULL;
    return err;
}

int outfile_commit(outfile *out)
{
    int err = close_file(out);
    if (err)
        return outfile_abort(out, err);
    if (out->tmp && rename(out->tmp, out->target) != 0) {
        int e = errno;
        fail(out, "writing %s: cannot rename %s to %s: %s", out->path, out->tmp, out->target, strerror(e));
        unlink(out->tmp);
        release(out);
        return -1;
    }
    release(out);
    return 0;
}

int outfile_abort(outfile *out, int err)
{
    if (out->f && !out->is_stdout)
        fclose(out->f);
    out->f = NULL;
    if (out->tmp)
        unlink(out->tmp);   /* ours alone: the given path is never removed */
    release(out);
    return fail(out, "writing %s: %s", out->path, strerror(err));
}
