/* gjkbatch.c - the command-line tool: `query` answers a pair file
 * (docs/file-format.md) as CSV, `run` steps a moving world frame by frame
 * through the whole pipeline (bounds, sweep-and-prune, narrowphase) and
 * reports per-stage times, `batch` times one generated pair batch; both
 * check their answers against the reference backend. Usage is in
 * docs/cli.md and in options.c; each command has its own file
 * (commands.h). */
#include "commands.h"
#include "gjkbatch.h"
#include "options.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("%s", "missing command");
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage_print(stdout);
        return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("gjkbatch %d.%d.%d\n", GJKB_VERSION_MAJOR, GJKB_VERSION_MINOR, GJKB_VERSION_PATCH);
        return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
    }
    if (strcmp(cmd, "query") == 0)
        return cmd_query(argc, argv);
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc, argv);
    if (strcmp(cmd, "batch") == 0)
        return cmd_batch(argc, argv);
    return usage_error(cmd[0] == '-' ? "unknown option '%s'" : "unknown command '%s'", cmd);
}
