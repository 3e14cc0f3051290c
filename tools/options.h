/* options.h - the command line of gjkbatch: the usage text, the exit
 * statuses, and the options every command parses from one table
 * (docs/cli.md documents them all). */
#ifndef GJKB_TOOLS_OPTIONS_H
#define GJKB_TOOLS_OPTIONS_H

#include "gjkbatch.h"

#include <stdint.h>
#include <stdio.h>

/* Exit statuses (documented in docs/cli.md). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Which options a command accepts, one bit each. */
enum {
    OPT_MODE = 1 << 0, OPT_BACKEND = 1 << 1, OPT_ITER = 1 << 2, OPT_PAIRS = 1 << 3, OPT_SEED = 1 << 4,
    OPT_REPEAT = 1 << 5, OPT_SAVE = 1 << 6, OPT_BODIES = 1 << 7, OPT_FRAMES = 1 << 8, OPT_THREADS = 1 << 9,
    OPT_VERIFY = 1 << 10, OPT_SNAPSHOT = 1 << 11, OPT_SNAPSHOT_FRAME = 1 << 12, OPT_QUIET = 1 << 13,
    OPT_MAX_DISTANCE = 1 << 14, OPT_COLD = 1 << 15, OPT_COMPARE = 1 << 16
};

/* Every command's options; a command fills in its defaults first. */
typedef struct options {
    gjkb_mode mode;
    gjkb_backend backend;
    uint32_t max_iterations;
    uint64_t seed;
    /* query */
    double max_distance;
    int max_distance_set;
    /* batch */
    uint32_t pairs;
    uint32_t repeat;
    const char *save;
    /* run */
    uint32_t bodies, frames, threads;
    int verify, quiet;
    int cold;                  /* no pair cache: every pair starts cold */
    const char *compare;       /* "bullet", or NULL */
    const char *snapshot;
    uint32_t snapshot_frame;   /* 0: the last */
    const char *positional[2];
    int npositional;
} options;

/* The usage text (help prints it to stdout, usage errors to stderr). */
void usage_print(FILE *f);

/* Prints "gjkbatch: " fmt (its one %s: arg) and the usage text to stderr;
 * returns EXIT_USAGE. */
int usage_error(const char *fmt, const char *arg);

/* Parses argv[first..] into o, accepting the options in `allowed` as
 * "--name value" or "--name=value" (flags take no value) and up to
 * max_positional other arguments. Returns -1 after printing usage. */
int parse_options(int argc, char **argv, int first, unsigned allowed, int max_positional, options *o);

/* "hit", "distance" or "contact". */
const char *mode_name(gjkb_mode mode);

#endif
