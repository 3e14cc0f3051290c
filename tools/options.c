/* options.c - the usage text and the option table every command parses
 * (options.h). */
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: gjkbatch query [--mode hit|distance|contact] [--max-distance D] [--backend NAME]\n"
    "                    [--max-iterations N] INPUT OUTPUT\n"
    "       gjkbatch run [--bodies N] [--frames N] [--seed S] [--backend NAME] [--threads N]\n"
    "                    [--mode hit|distance|contact] [--max-iterations N] [--verify]\n"
    "                    [--snapshot FILE.svg] [--snapshot-frame K] [--quiet]\n"
    "                    [--cold] [--compare bullet]\n"
    "       gjkbatch batch [--backend NAME] [--pairs N] [--seed S] [--mode hit|distance|contact]\n"
    "                    [--max-iterations N] [--repeat N] [--save FILE]\n"
    "       gjkbatch help | --help | --version\n"
    "\n"
    "query  answers every pair of a pair file (format: docs/file-format.md) and\n"
    "       writes one CSV row per pair; INPUT and OUTPUT may be - (stdin, stdout)\n"
    "run    steps a world of moving mixed bodies through gjkb_step (bounds,\n"
    "       sweep-and-prune, narrowphase) and prints per-stage times (default\n"
    "       20000 bodies, 300 frames, seed 1, hit mode)\n"
    "batch  times one batch of a generated mixed pair scene (default 100000\n"
    "       pairs, seed 1, best of 5 runs) and checks every pair against the\n"
    "       reference backend; exits 1 on a mismatch\n"
    "\n"
    "  --mode MODE           hit, distance or contact (default: distance; run: hit)\n"
    "  --max-distance D      query, distance and contact modes: pairs farther apart\n"
    "                        may stop early; contact mode gives separated pairs\n"
    "                        within D speculative contacts (default 0: no limit)\n"
    "  --backend NAME        auto, reference, scalar, sse4, avx2, avx512, neon\n"
    "                        (default auto: GJKB_BACKEND, else the widest available)\n"
    "  --max-iterations N    iteration bound per pair (0: library default)\n"
    "  --seed S              run, batch: scene seed\n"
    "  --bodies N            run: number of bodies\n"
    "  --frames N            run: number of frames\n"
    "  --threads N           run: threads of the library (gjkb_set_threads)\n"
    "  --verify              run: check every candidate pair of every frame\n"
    "                        against the reference backend; exits 1 on a mismatch\n"
    "  --snapshot FILE.svg   run: draw one frame (x-y view, overlaps in red;\n"
    "                        contact mode: contact points and normals)\n"
    "  --snapshot-frame K    run: the frame to draw, 1 to --frames (default the last)\n"
    "  --quiet               run: no progress bar\n"
    "  --cold                run: no pair cache; every pair starts GJK cold\n"
    "                        (default: warm from last frame's axis)\n"
    "  --compare bullet      run: Bullet's btCollisionWorld on the same scene,\n"
    "                        frame by frame (builds with Bullet only)\n"
    "  --pairs N             batch: number of pairs\n"
    "  --repeat N            batch: timed repetitions, the best is reported\n"
    "  --save FILE           batch: also write the scene as a pair file (replay\n"
    "                        a pair with query; the pair numbers match)\n"
    "\n"
    "exit status: 0 success, 1 failure (I/O, library error, verification\n"
    "mismatch), 2 bad usage or a pair file that does not parse\n";

void usage_print(FILE *f)
{
    fputs(usage_text, f);
}

int usage_error(const char *fmt, const char *arg)
{
    fputs("gjkbatch: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n", stderr);
    fputs(usage_text, stderr);
    return EXIT_USAGE;
}

const char *mode_name(gjkb_mode mode)
{
    return mode == GJKB_HIT ? "hit" : mode == GJKB_DISTANCE ? "distance" : "contact";
}

/* ---- values ------------------------------------------------------------- */

/* Limits of the run options: a body count whose arrays still fit easily,
 * the library's thread limit. */
#define MAX_BODIES 100000000u
#define MAX_FRAMES 10000000u
#define MAX_THREADS 1024u

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* An integer in [lo, hi], the whole of val, into *out; else the usage
 * error `bad` (its %s: val) and -1. */
static int parse_u32(const char *val, uint32_t lo, uint32_t hi, const char *bad, uint32_t *out)
{
    uint64_t u;
    if (parse_u64(val, hi, &u) || u < lo)
        return usage_error(bad, val), -1;
    *out = (uint32_t)u;
    return 0;
}

/* A count in [lo, hi], its usage error naming `what` and the range. */
static int parse_count(const char *val, uint32_t lo, uint32_t hi, const char *what, uint32_t *out)
{
    char bad[96];
    snprintf(bad, sizeof bad, "bad %s '%%s' (%llu to %llu)", what, (unsigned long long)lo, (unsigned long long)hi);
    return parse_u32(val, lo, hi, bad, out);
}

/* A distance: a finite number >= 0, the whole of s (strtod; the tool never
 * sets a locale, so the decimal point is '.'). */
static int parse_distance(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v) || !(v >= 0.0))
        return -1;
    *out = v;
    return 0;
}

static int parse_mode(const char *s, gjkb_mode *out)
{
    for (int m = GJKB_HIT; m <= GJKB_CONTACT; m++)
        if (strcmp(s, mode_name((gjkb_mode)m)) == 0) {
            *out = (gjkb_mode)m;
            return 0;
        }
    return -1;
}

/* ---- the option table ----------------------------------------------------- */

/* Each option's setter: stores val in o, or returns -1 after printing
 * usage. A flag's setter gets no value. */
typedef int (*option_setter)(options *o, const char *val);

static int set_mode(options *o, const char *val)
{
    if (parse_mode(val, &o->mode))
        return usage_error("unknown mode '%s' (hit, distance or contact)", val), -1;
    return 0;
}

static int set_max_distance(options *o, const char *val)
{
    if (parse_distance(val, &o->max_distance))
        return usage_error("bad distance '%s' (a finite number, 0 or more)", val), -1;
    o->max_distance_set = 1;
    return 0;
}

static int set_backend(options *o, const char *val)
{
    if (gjkb_backend_parse(val, &o->backend) != GJKB_OK)
        return usage_error("unknown backend '%s'", val), -1;
    return 0;
}

static int set_seed(options *o, const char *val)
{
    if (parse_u64(val, UINT64_MAX, &o->seed))
        return usage_error("bad seed '%s'", val), -1;
    return 0;
}

static int set_iterations(options *o, const char *val)
{
    return parse_u32(val, 0, UINT32_MAX, "bad iteration count '%s'", &o->max_iterations);
}

static int set_pairs(options *o, const char *val)
{
    return parse_u32(val, 0, UINT32_MAX / 2, "bad pair count '%s'", &o->pairs);
}

static int set_repeat(options *o, const char *val)
{
    return parse_u32(val, 1, 1000000, "bad repeat count '%s' (1 or more)", &o->repeat);
}

static int set_bodies(options *o, const char *val)
{
    return parse_count(val, 1, MAX_BODIES, "body count", &o->bodies);
}

static int set_frames(options *o, const char *val)
{
    return parse_count(val, 1, MAX_FRAMES, "frame count", &o->frames);
}

static int set_threads(options *o, const char *val)
{
    return parse_count(val, 1, MAX_THREADS, "thread count", &o->threads);
}

static int set_snapshot_frame(options *o, const char *val)
{
    return parse_count(val, 1, MAX_FRAMES, "snapshot frame", &o->snapshot_frame);
}

/* The paths are taken as given: opening them reports any problem. */
static int set_save(options *o, const char *val)
{
    o->save = val;
    return 0;
}

static int set_snapshot(options *o, const char *val)
{
    o->snapshot = val;
    return 0;
}

static int set_verify(options *o, const char *val)
{
    (void)val;
    o->verify = 1;
    return 0;
}

static int set_quiet(options *o, const char *val)
{
    (void)val;
    o->quiet = 1;
    return 0;
}

static int set_cold(options *o, const char *val)
{
    (void)val;
    o->cold = 1;
    return 0;
}

static int set_compare(options *o, const char *val)
{
    if (strcmp(val, "bullet") != 0)
        return usage_error("unknown peer '%s' (bullet)", val), -1;
    o->compare = val;
    return 0;
}

static const struct option_spec {
    const char *name;
    unsigned bit;
    int flag;          /* takes no value */
    option_setter set;
} option_table[] = {
    { "--mode", OPT_MODE, 0, set_mode },
    { "--backend", OPT_BACKEND, 0, set_backend },
    { "--max-iterations", OPT_ITER, 0, set_iterations },
    { "--pairs", OPT_PAIRS, 0, set_pairs },
    { "--seed", OPT_SEED, 0, set_seed },
    { "--repeat", OPT_REPEAT, 0, set_repeat },
    { "--save", OPT_SAVE, 0, set_save },
    { "--bodies", OPT_BODIES, 0, set_bodies },
    { "--frames", OPT_FRAMES, 0, set_frames },
    { "--threads", OPT_THREADS, 0, set_threads },
    { "--verify", OPT_VERIFY, 1, set_verify },
    { "--snapshot", OPT_SNAPSHOT, 0, set_snapshot },
    { "--snapshot-frame", OPT_SNAPSHOT_FRAME, 0, set_snapshot_frame },
    { "--quiet", OPT_QUIET, 1, set_quiet },
    { "--max-distance", OPT_MAX_DISTANCE, 0, set_max_distance },
    { "--cold", OPT_COLD, 1, set_cold },
    { "--compare", OPT_COMPARE, 0, set_compare },
};

/* The table's entry for the first len characters of arg; NULL if none. */
static const struct option_spec *find_option(const char *arg, size_t len)
{
    for (size_t k = 0; k < sizeof option_table / sizeof option_table[0]; k++)
        if (strlen(option_table[k].name) == len && strncmp(arg, option_table[k].name, len) == 0)
            return &option_table[k];
    return NULL;
}

/* ---- parsing ---------------------------------------------------------------- */

/* The option argv[*i] ("--name" or "--name=value"), taking its value from
 * the next argument when it has no '=' (and advancing *i past it). */
static int parse_option(int argc, char **argv, int *i, unsigned allowed, options *o)
{
    const char *arg = argv[*i];
    const char *eq = strchr(arg, '=');
    const struct option_spec *spec = find_option(arg, eq ? (size_t)(eq - arg) : strlen(arg));
    if (!spec || !(spec->bit & allowed))
        return usage_error("unknown option '%s'", arg), -1;
    if (spec->flag) {
        if (eq)
            return usage_error("option '%s' takes no value", arg), -1;
        return spec->set(o, NULL);
    }
    const char *val = eq ? eq + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
    if (!val)
        return usage_error("option '%s' needs a value", arg), -1;
    return spec->set(o, val);
}

int parse_options(int argc, char **argv, int first, unsigned allowed, int max_positional, options *o)
{
    int only_positional = 0;
    for (int i = first; i < argc; i++) {
        const char *arg = argv[i];
        if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (o->npositional == max_positional)
                return usage_error("unexpected argument '%s'", arg), -1;
            o->positional[o->npositional++] = arg;
        } else if (strcmp(arg, "--") == 0) {
            only_positional = 1;
        } else if (parse_option(argc, argv, &i, allowed, o)) {
            return -1;
        }
    }
    return 0;
}
