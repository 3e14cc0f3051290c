/* gjkbatch.c - the command-line tool: `query` answers a pair file
 * (docs/file-format.md) as CSV, `run` steps a moving world frame by frame
 * through the whole pipeline (bounds, sweep-and-prune, narrowphase) and
 * reports per-stage times, `batch` times one generated pair batch; both
 * check their answers against the reference backend. Usage is in
 * docs/cli.md and in usage_text below. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, isatty */

#include "gjkbatch.h"
#include "outfile.h"
#include "pairfile.h"
#include "scene.h"
#include "snapshot.h"
#include "verify_contact.h"
#include "world.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Exit statuses (documented in docs/cli.md). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Verification: relative distance tolerance, and the band around
 * touching inside which a separated/overlap disagreement is expected of
 * float kernels and counted but not failed. Both relative to the pair's
 * scale (sum of bounding radii). */
#define VERIFY_DISTANCE_TOL 1e-4
#define VERIFY_TOUCH_BAND 1e-4
#define VERIFY_SHOW 10

static const char usage_text[] =
    "usage: gjkbatch query [--mode hit|distance|contact] [--max-distance D] [--backend NAME]\n"
    "                    [--max-iterations N] INPUT OUTPUT\n"
    "       gjkbatch run [--bodies N] [--frames N] [--seed S] [--backend NAME] [--threads N]\n"
    "                    [--mode hit|distance|contact] [--max-iterations N] [--verify]\n"
    "                    [--snapshot FILE.svg] [--snapshot-frame K] [--quiet]\n"
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
    "  --pairs N             batch: number of pairs\n"
    "  --repeat N            batch: timed repetitions, the best is reported\n"
    "  --save FILE           batch: also write the scene as a pair file (replay\n"
    "                        a pair with query; the pair numbers match)\n"
    "\n"
    "exit status: 0 success, 1 failure (I/O, library error, verification\n"
    "mismatch), 2 bad usage or a pair file that does not parse\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("gjkbatch: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n", stderr);
    fputs(usage_text, stderr);
    return EXIT_USAGE;
}

/* ---- options ----------------------------------------------------------- */

enum {
    OPT_MODE = 1 << 0, OPT_BACKEND = 1 << 1, OPT_ITER = 1 << 2, OPT_PAIRS = 1 << 3, OPT_SEED = 1 << 4,
    OPT_REPEAT = 1 << 5, OPT_SAVE = 1 << 6, OPT_BODIES = 1 << 7, OPT_FRAMES = 1 << 8, OPT_THREADS = 1 << 9,
    OPT_VERIFY = 1 << 10, OPT_SNAPSHOT = 1 << 11, OPT_SNAPSHOT_FRAME = 1 << 12, OPT_QUIET = 1 << 13,
    OPT_MAX_DISTANCE = 1 << 14
};

/* Limits of the run options: a body count whose arrays still fit easily,
 * the library's thread limit. */
#define MAX_BODIES 100000000u
#define MAX_FRAMES 10000000u
#define MAX_THREADS 1024u

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
    const char *snapshot;
    uint32_t snapshot_frame;   /* 0: the last */
    const char *positional[2];
    int npositional;
} options;

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

static const char *mode_name(gjkb_mode mode)
{
    return mode == GJKB_HIT ? "hit" : mode == GJKB_DISTANCE ? "distance" : "contact";
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

/* A count option in [lo, hi] into *out; -1 after printing usage. */
static int parse_count(const char *val, uint64_t lo, uint64_t hi, const char *what, uint32_t *out)
{
    uint64_t u;
    if (parse_u64(val, hi, &u) || u < lo) {
        char msg[96];
        snprintf(msg, sizeof msg, "bad %s '%%s' (%llu to %llu)", what, (unsigned long long)lo,
                 (unsigned long long)hi);
        return usage_error(msg, val), -1;
    }
    *out = (uint32_t)u;
    return 0;
}

/* Parses argv[first..] into o, accepting the options in `allowed` as
 * "--name value" or "--name=value" (flags take no value). Returns -1 after
 * printing usage. */
static int parse_options(int argc, char **argv, int first, unsigned allowed, int max_positional, options *o)
{
    static const struct { const char *name; unsigned bit; int flag; } names[] = {
        { "--mode", OPT_MODE, 0 }, { "--backend", OPT_BACKEND, 0 }, { "--max-iterations", OPT_ITER, 0 },
        { "--pairs", OPT_PAIRS, 0 }, { "--seed", OPT_SEED, 0 }, { "--repeat", OPT_REPEAT, 0 },
        { "--save", OPT_SAVE, 0 }, { "--bodies", OPT_BODIES, 0 }, { "--frames", OPT_FRAMES, 0 },
        { "--threads", OPT_THREADS, 0 }, { "--verify", OPT_VERIFY, 1 }, { "--snapshot", OPT_SNAPSHOT, 0 },
        { "--snapshot-frame", OPT_SNAPSHOT_FRAME, 0 }, { "--quiet", OPT_QUIET, 1 },
        { "--max-distance", OPT_MAX_DISTANCE, 0 },
    };
    int only_positional = 0;
    for (int i = first; i < argc; i++) {
        const char *arg = argv[i];
        if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (o->npositional == max_positional)
                return usage_error("unexpected argument '%s'", arg), -1;
            o->positional[o->npositional++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_positional = 1;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        unsigned bit = 0;
        int flag = 0;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strlen(names[k].name) == len && strncmp(arg, names[k].name, len) == 0) {
                bit = names[k].bit;
                flag = names[k].flag;
            }
        if (!(bit & allowed))
            return usage_error("unknown option '%s'", arg), -1;
        if (flag) {
            if (eq)
                return usage_error("option '%s' takes no value", arg), -1;
            if (bit == OPT_VERIFY)
                o->verify = 1;
            else
                o->quiet = 1;
            continue;
        }
        const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!val)
            return usage_error("option '%s' needs a value", arg), -1;
        uint64_t u;
        switch (bit) {
        case OPT_MODE:
            if (parse_mode(val, &o->mode))
                return usage_error("unknown mode '%s' (hit, distance or contact)", val), -1;
            break;
        case OPT_MAX_DISTANCE:
            if (parse_distance(val, &o->max_distance))
                return usage_error("bad distance '%s' (a finite number, 0 or more)", val), -1;
            o->max_distance_set = 1;
            break;
        case OPT_BACKEND:
            if (gjkb_backend_parse(val, &o->backend) != GJKB_OK)
                return usage_error("unknown backend '%s'", val), -1;
            break;
        case OPT_ITER:
            if (parse_u64(val, UINT32_MAX, &u))
                return usage_error("bad iteration count '%s'", val), -1;
            o->max_iterations = (uint32_t)u;
            break;
        case OPT_PAIRS:
            if (parse_u64(val, UINT32_MAX / 2, &u))
                return usage_error("bad pair count '%s'", val), -1;
            o->pairs = (uint32_t)u;
            break;
        case OPT_SEED:
            if (parse_u64(val, UINT64_MAX, &u))
                return usage_error("bad seed '%s'", val), -1;
            o->seed = u;
            break;
        case OPT_SAVE:
            o->save = val;
            break;
        case OPT_REPEAT:
            if (parse_u64(val, 1000000, &u) || u == 0)
                return usage_error("bad repeat count '%s' (1 or more)", val), -1;
            o->repeat = (uint32_t)u;
            break;
        case OPT_BODIES:
            if (parse_count(val, 1, MAX_BODIES, "body count", &o->bodies))
                return -1;
            break;
        case OPT_FRAMES:
            if (parse_count(val, 1, MAX_FRAMES, "frame count", &o->frames))
                return -1;
            break;
        case OPT_THREADS:
            if (parse_count(val, 1, MAX_THREADS, "thread count", &o->threads))
                return -1;
            break;
        case OPT_SNAPSHOT:
            o->snapshot = val;
            break;
        default: /* OPT_SNAPSHOT_FRAME */
            if (parse_count(val, 1, MAX_FRAMES, "snapshot frame", &o->snapshot_frame))
                return -1;
            break;
        }
    }
    return 0;
}

/* ---- shared helpers ---------------------------------------------------- */

/* gjkb_create fails without a context, so no message says which backend
 * it tried: for auto that is the one GJKB_BACKEND names, if set (the
 * library reads it the same way), and the messages name that one. */
static gjkb_context *create_context(gjkb_backend backend)
{
    gjkb_config cfg = { backend, 0 };
    gjkb_context *ctx = NULL;
    gjkb_error e = gjkb_create(&cfg, &ctx);
    const char *env = getenv("GJKB_BACKEND");
    int from_env = backend == GJKB_BACKEND_AUTO && env && *env;
    if (e == GJKB_ERR_UNSUPPORTED && from_env)
        fprintf(stderr,
                "gjkbatch: backend '%.40s' (from the GJKB_BACKEND environment variable) is not available in "
                "this build or on this CPU\n",
                env);
    else if (e == GJKB_ERR_UNSUPPORTED)
        fprintf(stderr, "gjkbatch: backend '%s' is not available in this build or on this CPU\n",
                gjkb_backend_name(backend));
    else if (e == GJKB_ERR_KIND && from_env)
        fprintf(stderr, "gjkbatch: the GJKB_BACKEND environment variable names no backend: '%.40s'\n", env);
    else if (e != GJKB_OK)
        fprintf(stderr, "gjkbatch: cannot create a context: %s\n", gjkb_error_string(e));
    return e == GJKB_OK ? ctx : NULL;
}

/* Result arrays for n pairs: a/b/n in distance and contact modes (hit
 * mode leaves them undefined, and NULL columns print as nan), the manifold
 * in contact mode. One block. */
typedef struct result_buf {
    gjkb_results r;
    void *block;
} result_buf;

/* The manifold's double columns from d on (slots each); returns the end. */
static double *manifold_columns(gjkb_manifolds *m, double *d, size_t slots)
{
    double **cols[7] = { &m->ax, &m->ay, &m->az, &m->bx, &m->by, &m->bz, &m->separation };
    for (int k = 0; k < 7; k++, d += slots)
        *cols[k] = d;
    return d;
}

static int results_alloc(result_buf *rb, uint32_t n, gjkb_mode mode)
{
    size_t m = n ? n : 1, slots = m * GJKB_MAX_CONTACTS;
    int points = mode != GJKB_HIT, contact = mode == GJKB_CONTACT;
    memset(rb, 0, sizeof *rb);
    if (m > SIZE_MAX / 512) /* more than the at most 330 bytes per pair */
        return -1;
    size_t doubles = m * (points ? 10 : 1) + (contact ? 7 * slots : 0);
    size_t words = m + (contact ? slots : 0), bytes = m * (contact ? 2 : 1);
    rb->block = malloc(doubles * sizeof(double) + words * sizeof(uint32_t) + bytes);
    if (!rb->block)
        return -1;
    /* doubles first, then the 4-byte and 1-byte columns: all aligned */
    double *d = rb->block;
    rb->r.distance = d;
    d += m;
    if (points) {
        double **cols[9] = { &rb->r.ax, &rb->r.ay, &rb->r.az, &rb->r.bx, &rb->r.by,
                             &rb->r.bz, &rb->r.nx, &rb->r.ny, &rb->r.nz };
        for (int k = 0; k < 9; k++, d += m)
            *cols[k] = d;
    }
    if (contact)
        d = manifold_columns(&rb->r.manifold, d, slots);
    uint32_t *w = rb->r.iterations = (uint32_t *)d;
    w += m;
    if (contact) {
        rb->r.manifold.feature = w;
        w += slots;
    }
    rb->r.status = (uint8_t *)w;
    if (contact)
        rb->r.manifold.count = rb->r.status + m;
    return 0;
}

/* ---- query ------------------------------------------------------------- */

/* The CSV in the mode's layout (docs/file-format.md). */
static int write_answers(FILE *f, uint32_t count, gjkb_mode mode, const gjkb_results *r)
{
    return mode == GJKB_CONTACT ? pairfile_write_contact_csv(f, count, r) : pairfile_write_csv(f, count, r);
}

static int cmd_query(int argc, char **argv)
{
    options o = { .mode = GJKB_DISTANCE, .backend = GJKB_BACKEND_AUTO };
    if (parse_options(argc, argv, 2, OPT_MODE | OPT_BACKEND | OPT_ITER | OPT_MAX_DISTANCE, 2, &o))
        return EXIT_USAGE;
    if (o.npositional != 2)
        return usage_error("%s", "query needs INPUT and OUTPUT (- for stdin, stdout)");
    if (o.max_distance_set && o.mode == GJKB_HIT)
        return usage_error("%s", "--max-distance needs --mode distance or contact");
    const char *in_path = o.positional[0], *out_path = o.positional[1];
    int in_std = strcmp(in_path, "-") == 0, out_std = strcmp(out_path, "-") == 0;
    const char *in_name = in_std ? "<stdin>" : in_path;

    FILE *in = in_std ? stdin : fopen(in_path, "r");
    if (!in) {
        fprintf(stderr, "gjkbatch: %s: %s\n", in_path, strerror(errno));
        return EXIT_FAIL;
    }
    pairfile pf;
    pairfile_error perr;
    pairfile_status ps = pairfile_read(in, &pf, &perr);
    if (!in_std)
        fclose(in);
    if (ps == PAIRFILE_SYNTAX) {
        fprintf(stderr, "%s:%lu: %s\n", in_name, perr.line, perr.message);
        return EXIT_USAGE;
    }
    if (ps != PAIRFILE_OK) {
        fprintf(stderr, "gjkbatch: %s: %s\n", in_name, perr.message);
        return EXIT_FAIL;
    }

    int status = EXIT_FAIL;
    result_buf rb = { { 0 }, NULL };
    gjkb_context *ctx = create_context(o.backend);
    if (!ctx)
        goto done;
    if (pairfile_register_hulls(&pf, ctx) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: registering hulls: %s\n", gjkb_last_error(ctx));
        goto done;
    }
    if (results_alloc(&rb, pf.pair_count, o.mode)) {
        fprintf(stderr, "gjkbatch: out of memory\n");
        goto done;
    }
    gjkb_bodies bodies = pairfile_bodies(&pf);
    gjkb_pairs pairs = pairfile_pairs(&pf);
    gjkb_query q = { o.mode, o.max_iterations, 0.0, o.max_distance, NULL, NULL, NULL };
    if (gjkb_query_batch(ctx, &bodies, &pairs, &q, &rb.r) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: %s: %s\n", in_name, gjkb_last_error(ctx));
        goto done;
    }

    /* Only now, with every answer in hand, is the output opened. */
    outfile out;
    int werr = 0;
    if (out_std)
        outfile_stdout(&out);
    else
        werr = outfile_open(&out, out_path);
    if (!werr)
        werr = write_answers(out.f, pf.pair_count, o.mode, &rb.r) ? outfile_abort(&out, errno) : outfile_commit(&out);
    if (werr) {
        fprintf(stderr, "gjkbatch: %s\n", out.message);
        goto done;
    }
    status = EXIT_OK;
done:
    free(rb.block);
    gjkb_destroy(ctx);
    pairfile_free(&pf);
    return status;
}

/* ---- verification against the reference backend --------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Set while run's progress bar occupies the terminal line, so that a
 * message first clears it. */
static int progress_on_line;

static void progress_clear(void)
{
    if (progress_on_line)
        fprintf(stderr, "\r%*s\r", 79, "");
    progress_on_line = 0;
}

/* Pairs to verify: the bodies, the pair list, and every body's bounding
 * radius, margin included (a pair's scale is the sum of its two). */
typedef struct pair_set {
    gjkb_bodies bodies;
    gjkb_pairs pairs;
    const double *radius;
} pair_set;

static double pair_scale(const pair_set *ps, uint32_t i)
{
    return ps->radius[ps->pairs.a[i]] + ps->radius[ps->pairs.b[i]];
}

/* One pair on ctx in the given mode: its status, and its distance (NaN in
 * hit mode). */
static int pair_query(gjkb_context *ctx, const pair_set *ps, uint32_t i, gjkb_mode mode, uint32_t max_iterations,
                      double *distance)
{
    gjkb_pairs one = { 1, &ps->pairs.a[i], &ps->pairs.b[i] };
    gjkb_query q = { mode, max_iterations, 0.0, 0.0, NULL, NULL, NULL };
    uint8_t st = GJKB_INVALID;
    gjkb_results r;
    memset(&r, 0, sizeof r);
    r.status = &st;
    r.distance = distance;
    *distance = NAN;
    if (gjkb_query_batch(ctx, &ps->bodies, &one, &q, &r) != GJKB_OK)
        return GJKB_INVALID;
    return st;
}

/* Distance of one pair in distance mode on ctx (for classifying hit-mode
 * disagreements, which carry no distance). */
static double pair_distance(gjkb_context *ctx, const pair_set *ps, uint32_t i, uint32_t max_iterations)
{
    double d;
    return pair_query(ctx, ps, i, GJKB_DISTANCE, max_iterations, &d) == GJKB_SEPARATED ? d : NAN;
}

/* Contact mode adds: the pairs and points checked by contact_verify, and
 * its mismatches by check (contact[k] counts the check of bit 1 << k). */
enum { CONTACT_CHECKS = 4 };
typedef struct verify_counts {
    uint64_t checked, status_mismatch, distance_mismatch, near_touching, shown, reference_limits;
    uint64_t contact_pairs, contact_points, contact[CONTACT_CHECKS];
} verify_counts;

static int verify_failed(const verify_counts *vc)
{
    uint64_t contact = 0;
    for (int k = 0; k < CONTACT_CHECKS; k++)
        contact += vc->contact[k];
    return vc->status_mismatch || vc->distance_mismatch || contact;
}

/* Iteration bound of the reference when it reached the run's own bound on a
 * pair the tested backend answered: the oracle settles it with more
 * (curved shapes near contact converge slowly, in double too). Rare since
 * the reference's own default bound is GJKB_REFERENCE_MAX_ITERATIONS. */
#define VERIFY_REFERENCE_ITERATIONS 4096u

/* Prints one of the first VERIFY_SHOW mismatches; frame 0 means a batch. */
/* The start of a mismatch line, up to "what: "; 0 when enough were shown. */
static int mismatch_prefix(verify_counts *vc, const pair_set *ps, uint32_t frame, uint32_t i, const char *what)
{
    if (vc->shown++ >= VERIFY_SHOW)
        return 0;
    progress_clear();
    uint32_t a = ps->pairs.a[i], b = ps->pairs.b[i];
    if (frame)
        fprintf(stderr, "  mismatch frame %lu pair %lu (bodies %lu and %lu, ", (unsigned long)frame,
                (unsigned long)i, (unsigned long)a, (unsigned long)b);
    else
        fprintf(stderr, "  mismatch pair %lu (", (unsigned long)i);
    fprintf(stderr, "%s-%s, scale %.6g): %s: ", gjkb_kind_name((gjkb_kind)ps->bodies.kind[a]),
            gjkb_kind_name((gjkb_kind)ps->bodies.kind[b]), pair_scale(ps, i), what);
    return 1;
}

static void show_mismatch(verify_counts *vc, const pair_set *ps, uint32_t frame, uint32_t i, const char *what,
                          int st, int rst, double d, double rd)
{
    if (mismatch_prefix(vc, ps, frame, i, what))
        fprintf(stderr, "%s %.9g, reference %s %.9g\n", gjkb_status_name((gjkb_status)st), d,
                gjkb_status_name((gjkb_status)rst), rd);
}

/* Contact mode, pair i whose statuses agree: its contacts against the
 * reference's (asked again with more iterations where the batch's
 * reference stopped at its bound). */
static void verify_contacts(const pair_set *ps, uint32_t i, const gjkb_results *r, const gjkb_results *ref,
                            gjkb_context *ref_ctx, uint32_t frame, verify_counts *vc)
{
    gjkb_shape a, b;
    gjkb_result got, want;
    contact_shape_get(&ps->bodies, ps->pairs.a[i], &a);
    contact_shape_get(&ps->bodies, ps->pairs.b[i], &b);
    contact_result_get(r, i, &got);
    contact_result_get(ref, i, &want);
    if (want.status == GJKB_LIMIT) {
        gjkb_query q = { GJKB_CONTACT, VERIFY_REFERENCE_ITERATIONS, 0.0, 0.0, NULL, NULL, NULL };
        if (gjkb_query_pair(ref_ctx, &a, &b, &q, &want) != GJKB_OK)
            want.status = GJKB_INVALID;
    }
    contact_report rep;
    unsigned failed = contact_verify(ref_ctx, &a, &b, pair_scale(ps, i), &got, &want, &rep);
    vc->contact_pairs += got.status == GJKB_OVERLAP || got.contact_count > 0;
    vc->contact_points += got.contact_count;
    for (int k = 0; k < CONTACT_CHECKS; k++)
        vc->contact[k] += (failed >> k) & 1u;
    if (failed && mismatch_prefix(vc, ps, frame, i, contact_check_name(rep.check)))
        fprintf(stderr, "%.9g, want %.9g (%s, reference %s)\n", rep.got, rep.want, gjkb_status_name(got.status),
                gjkb_status_name(want.status));
}

/* Whether statuses st (tested) and rst (reference) disagree beyond the
 * touching band; a disagreement within it is counted in vc. */
static int status_differs(const pair_set *ps, uint32_t i, gjkb_mode mode, uint32_t max_iterations, int st, int rst,
                          double d, double rd, gjkb_context *ctx, gjkb_context *ref_ctx, verify_counts *vc)
{
    int touch = (st == GJKB_SEPARATED && rst == GJKB_OVERLAP) || (st == GJKB_OVERLAP && rst == GJKB_SEPARATED);
    if (!touch)
        return 1;
    /* The separated side's distance says how close to touching the pair
     * is (hit mode has none: the pair is asked again in distance mode). */
    double gap = st == GJKB_SEPARATED ? d : rd;
    if (mode == GJKB_HIT)
        gap = pair_distance(st == GJKB_SEPARATED ? ctx : ref_ctx, ps, i, max_iterations);
    if (gap <= VERIFY_TOUCH_BAND * pair_scale(ps, i)) {
        vc->near_touching++;
        return 0;
    }
    return 1;
}

/* Compares the answers r against the reference answers ref, adding to vc. */
static void verify(const pair_set *ps, gjkb_mode mode, uint32_t max_iterations, const gjkb_results *r,
                   const gjkb_results *ref, gjkb_context *ctx, gjkb_context *ref_ctx, uint32_t frame,
                   verify_counts *vc)
{
    vc->checked += ps->pairs.count;
    for (uint32_t i = 0; i < ps->pairs.count; i++) {
        int st = r->status[i], rst = ref->status[i];
        double d = r->distance[i], rd = ref->distance[i];
        if (rst == GJKB_LIMIT && (st == GJKB_SEPARATED || st == GJKB_OVERLAP)) {
            vc->reference_limits++;
            rst = pair_query(ref_ctx, ps, i, mode, VERIFY_REFERENCE_ITERATIONS, &rd);
        }
        if (st != rst) {
            if (status_differs(ps, i, mode, max_iterations, st, rst, d, rd, ctx, ref_ctx, vc)) {
                vc->status_mismatch++;
                show_mismatch(vc, ps, frame, i, "status", st, rst, d, rd);
            }
            continue;
        }
        if (mode != GJKB_HIT && st == GJKB_SEPARATED && !(fabs(d - rd) <= VERIFY_DISTANCE_TOL * pair_scale(ps, i))) {
            vc->distance_mismatch++;
            show_mismatch(vc, ps, frame, i, "distance", st, rst, d, rd);
        }
        if (mode == GJKB_CONTACT && (st == GJKB_SEPARATED || st == GJKB_OVERLAP))
            verify_contacts(ps, i, r, ref, ref_ctx, frame, vc);
    }
}

/* The contact-mode lines of the verification summary. */
static void print_contact_counts(const verify_counts *vc, int width)
{
    static const char *const label[CONTACT_CHECKS] = { "count mismatches:", "depth mismatches:",
                                                        "normal mismatches:", "point mismatches:" };
    static const char *const meaning[CONTACT_CHECKS] = {
        "contact counts differ from the reference, or an overlap has none",
        "both overlap, depths differ by >",
        "n not unit, or B moved back by the distance along n not touching A within",
        "a contact point off its surface or its normal line by >",
    };
    printf("%-*s %llu pairs, %llu points (overlapping or with contact points)\n", width, "contacts checked:",
           (unsigned long long)vc->contact_pairs, (unsigned long long)vc->contact_points);
    for (int k = 0; k < CONTACT_CHECKS; k++)
        printf(k ? "%-*s %llu (%s %g x scale)\n" : "%-*s %llu (%s)\n", width, label[k],
               (unsigned long long)vc->contact[k], meaning[k], VERIFY_CONTACT_TOL);
}

/* show_distance: print the distance line (hit mode compares no
 * distances); contact mode adds its own checks. */
static void print_verify_counts(const verify_counts *vc, int show_distance, gjkb_mode mode, int width)
{
    printf("%-*s %llu (status differs from the reference backend)\n", width, "status mismatches:",
           (unsigned long long)vc->status_mismatch);
    if (show_distance)
        printf("%-*s %llu (both separated, distances differ by > %g x scale)\n", width, "distance mismatches:",
               (unsigned long long)vc->distance_mismatch, VERIFY_DISTANCE_TOL);
    if (mode == GJKB_CONTACT)
        print_contact_counts(vc, width);
    printf("%-*s %llu (separated vs overlap within %g x scale of contact; allowed)\n", width, "near touching:",
           (unsigned long long)vc->near_touching, VERIFY_TOUCH_BAND);
    /* Always shown: a re-ask means the oracle's own bound was too small. */
    printf("%-*s %llu (the reference reached its iteration bound; asked again with %u)\n", width,
           "reference re-asks:", (unsigned long long)vc->reference_limits, VERIFY_REFERENCE_ITERATIONS);
}

/* ---- batch ----------------------------------------------------------------- */

/* --save: the scene as a pair file, for replaying pairs with `query`. */
static int save_scene(const scene *s, const char *path)
{
    outfile out;
    int err = outfile_open(&out, path);
    if (!err) {
        errno = 0;  /* a failed write sets it; a stale value would be misleading */
        err = scene_write_pairs(s, out.f) ? outfile_abort(&out, errno ? errno : EIO) : outfile_commit(&out);
    }
    if (err)
        fprintf(stderr, "gjkbatch: %s\n", out.message);
    return err;
}

/* How busy the wide kernel's lanes were over the context's calls. */
static void print_lane_use(const gjkb_context *ctx, int width)
{
    gjkb_stats st;
    if (gjkb_stats_get(ctx, &st) != GJKB_OK || st.width == 0 || st.bundle_steps == 0)
        return;
    printf("%-*s %.1f%% (%.2f steps per pair, %u lanes per bundle)\n", width, "lane utilization:",
           100.0 * (double)st.lane_steps / ((double)st.bundle_steps * st.width),
           (double)st.lane_steps / (double)st.pairs, st.width);
}

/* Contact mode: the points of every manifold of a batch. */
static uint64_t manifold_points(const gjkb_results *r, uint32_t count)
{
    uint64_t n = 0;
    for (uint32_t i = 0; r->manifold.count && i < count; i++)
        n += r->manifold.count[i];
    return n;
}

static int cmd_batch(int argc, char **argv)
{
    options o = { .mode = GJKB_DISTANCE, .backend = GJKB_BACKEND_AUTO, .pairs = 100000, .seed = 1, .repeat = 5 };
    if (parse_options(argc, argv, 2, OPT_MODE | OPT_BACKEND | OPT_ITER | OPT_PAIRS | OPT_SEED | OPT_REPEAT | OPT_SAVE,
                      0, &o))
        return EXIT_USAGE;

    int status = EXIT_FAIL;
    scene s;
    result_buf rb = { { 0 }, NULL }, ref_rb = { { 0 }, NULL };
    gjkb_context *ctx = NULL, *ref_ctx = NULL;
    if (scene_generate(&s, o.pairs, o.seed)) {
        fprintf(stderr, "gjkbatch: out of memory for %lu pairs\n", (unsigned long)o.pairs);
        return EXIT_FAIL;
    }
    if (o.save && save_scene(&s, o.save))
        goto done;
    if (!(ctx = create_context(o.backend)) || !(ref_ctx = create_context(GJKB_BACKEND_REFERENCE)))
        goto done;
    gjkb_error e = scene_register_hulls(&s, ctx);
    if (e == GJKB_OK)
        e = scene_register_hulls(&s, ref_ctx);
    if (e != GJKB_OK) {
        fprintf(stderr, "gjkbatch: registering hulls: %s\n", gjkb_error_string(e));
        goto done;
    }
    if (results_alloc(&rb, s.pair_count, o.mode) || results_alloc(&ref_rb, s.pair_count, o.mode)) {
        fprintf(stderr, "gjkbatch: out of memory\n");
        goto done;
    }

    pair_set ps = { scene_bodies(&s), scene_pairs(&s), s.radius };
    gjkb_query q = { o.mode, o.max_iterations, 0.0, 0.0, NULL, NULL, NULL };
    /* One untimed call sizes the context's scratch and warms the caches;
     * the best of the timed calls is the least disturbed one. */
    double best = INFINITY;
    for (uint32_t rep = 0; rep <= o.repeat; rep++) {
        double t0 = now_seconds();
        if (gjkb_query_batch(ctx, &ps.bodies, &ps.pairs, &q, &rb.r) != GJKB_OK) {
            fprintf(stderr, "gjkbatch: %s\n", gjkb_last_error(ctx));
            goto done;
        }
        double t = now_seconds() - t0;
        if (rep > 0 && t < best)
            best = t;
    }
    uint32_t count[4] = { 0, 0, 0, 0 };
    for (uint32_t i = 0; i < s.pair_count; i++)
        count[rb.r.status[i] & 3]++;

    if (gjkb_query_batch(ref_ctx, &ps.bodies, &ps.pairs, &q, &ref_rb.r) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: reference: %s\n", gjkb_last_error(ref_ctx));
        goto done;
    }
    verify_counts vc = { 0 };
    verify(&ps, o.mode, o.max_iterations, &rb.r, &ref_rb.r, ctx, ref_ctx, 0, &vc);

    status = verify_failed(&vc) ? EXIT_FAIL : EXIT_OK;
    printf("%-21s %s\n", "backend:", gjkb_backend_name(gjkb_context_backend(ctx)));
    printf("%-21s %s\n", "mode:", mode_name(o.mode));
    printf("%-21s %llu\n", "seed:", (unsigned long long)o.seed);
    printf("%-21s %lu\n", "pairs:", (unsigned long)s.pair_count);
    printf("%-21s %lu\n", "hits (overlap):", (unsigned long)count[GJKB_OVERLAP]);
    printf("%-21s %lu\n", "separated:", (unsigned long)count[GJKB_SEPARATED]);
    printf("%-21s %lu\n", "limit:", (unsigned long)count[GJKB_LIMIT]);
    printf("%-21s %lu\n", "invalid:", (unsigned long)count[GJKB_INVALID]);
    if (o.mode == GJKB_CONTACT)
        printf("%-21s %llu\n", "contact points:", (unsigned long long)manifold_points(&rb.r, s.pair_count));
    printf("%-21s %.3f ms (best of %lu)\n", "time:", best * 1e3, (unsigned long)o.repeat);
    printf("%-21s %.0f\n", "pairs/s:", best > 0.0 ? s.pair_count / best : 0.0);
    print_lane_use(ctx, 21);
    print_verify_counts(&vc, 1, o.mode, 21);
    printf("%-21s %s\n", "verification:", status == EXIT_OK ? "ok" : "FAILED");
    if (fflush(stdout) != 0)
        status = EXIT_FAIL;
done:
    free(rb.block);
    free(ref_rb.block);
    gjkb_destroy(ctx);
    gjkb_destroy(ref_ctx);
    scene_free(&s);
    return status;
}

/* ---- run ------------------------------------------------------------------- */

/* Stages of gjkb_frame.seconds, then the wall time of the whole call. */
enum { STAGE_BOUNDS, STAGE_SORT, STAGE_SWEEP, STAGE_NARROW, STAGE_FRAME, STAGES };
static const char *const stage_names[STAGES] = { "bounds", "sort", "sweep", "narrowphase", "frame (gjkb_step)" };

/* A context for run: backend, threads, the world's hulls. */
static gjkb_context *run_context(gjkb_backend backend, uint32_t threads, const world *w)
{
    gjkb_context *ctx = create_context(backend);
    if (!ctx)
        return NULL;
    if (gjkb_set_threads(ctx, (int)threads) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: --threads %lu: %s\n", (unsigned long)threads, gjkb_last_error(ctx));
    } else {
        gjkb_error e = world_register_hulls(w, ctx);
        if (e == GJKB_OK)
            return ctx;
        fprintf(stderr, "gjkbatch: registering hulls: %s\n", gjkb_error_string(e));
    }
    gjkb_destroy(ctx);
    return NULL;
}

/* Redraws the progress bar on stderr, at most 20 times a second (always
 * for the last frame). */
static void progress_draw(uint32_t done, uint32_t total, double frame_seconds, double *last_draw)
{
    double t = now_seconds();
    if (done < total && t - *last_draw < 0.05)
        return;
    *last_draw = t;
    enum { WIDTH = 32 };
    char bar[WIDTH + 1];
    uint32_t filled = (uint32_t)((uint64_t)WIDTH * done / total);
    for (uint32_t k = 0; k < WIDTH; k++)
        bar[k] = k < filled ? '#' : '.';
    bar[WIDTH] = '\0';
    fprintf(stderr, "\r[%s] frame %lu/%lu  %.2f ms/frame ", bar, (unsigned long)done, (unsigned long)total,
            frame_seconds * 1e3);
    progress_on_line = 1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) (n >= 1); reorders v. */
static double median(double *v, uint32_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* --snapshot: the current frame as an SVG file. */
static int write_snapshot(const char *path, const world *w, const gjkb_frame *fr, uint32_t frame,
                          uint32_t frames, gjkb_backend backend)
{
    snapshot_label label = { frame, frames, gjkb_backend_name(backend), fr->results.manifold.count != NULL };
    outfile out;
    int err = outfile_open(&out, path);
    if (!err) {
        errno = 0;  /* set again by a failed write, or by calloc when memory ran out */
        err = snapshot_write(out.f, w, &fr->pairs, &fr->results, &label)
                  ? outfile_abort(&out, errno ? errno : ENOMEM)
                  : outfile_commit(&out);
    }
    if (err) {
        progress_clear();
        fprintf(stderr, "gjkbatch: %s\n", out.message);
    }
    return err;
}

/* Frame f's pairs through the reference, and the answers compared;
 * nonzero when the reference could not run. */
static int verify_frame(const options *o, const world *w, const gjkb_bodies *bodies, const gjkb_query *q,
                        const gjkb_frame *fr, gjkb_context *ctx, gjkb_context *ref_ctx, uint32_t f,
                        result_buf *ref_rb, uint32_t *ref_cap, verify_counts *vc)
{
    if (!ref_rb->block || fr->pairs.count > *ref_cap) {
        free(ref_rb->block);
        ref_rb->block = NULL;
        /* headroom: the pair count wanders from frame to frame */
        uint64_t cap = (uint64_t)fr->pairs.count + fr->pairs.count / 2;
        *ref_cap = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
        if (results_alloc(ref_rb, *ref_cap, o->mode)) {
            progress_clear();
            fprintf(stderr, "gjkbatch: out of memory\n");
            return -1;
        }
    }
    if (gjkb_query_batch(ref_ctx, bodies, &fr->pairs, q, &ref_rb->r) != GJKB_OK) {
        progress_clear();
        fprintf(stderr, "gjkbatch: reference: %s\n", gjkb_last_error(ref_ctx));
        return -1;
    }
    pair_set ps = { *bodies, fr->pairs, w->radius };
    verify(&ps, o->mode, o->max_iterations, &fr->results, &ref_rb->r, ctx, ref_ctx, f, vc);
    return 0;
}

/* Contact mode: a frame's contact points, and the depths of its
 * overlapping pairs summed (the mean depth is over the overlapping pairs). */
static void frame_contacts(const gjkb_frame *fr, uint64_t *points, double *depth_sum)
{
    const gjkb_results *r = &fr->results;
    *points += manifold_points(r, fr->pairs.count);
    for (uint32_t i = 0; r->distance && i < fr->pairs.count; i++)
        if (r->status[i] == GJKB_OVERLAP)
            *depth_sum -= r->distance[i];
}

static int cmd_run(int argc, char **argv)
{
    options o = { .mode = GJKB_HIT, .backend = GJKB_BACKEND_AUTO, .seed = 1, .bodies = 20000, .frames = 300,
                  .threads = 1 };
    if (parse_options(argc, argv, 2,
                      OPT_MODE | OPT_BACKEND | OPT_ITER | OPT_SEED | OPT_BODIES | OPT_FRAMES | OPT_THREADS |
                          OPT_VERIFY | OPT_SNAPSHOT | OPT_SNAPSHOT_FRAME | OPT_QUIET,
                      0, &o))
        return EXIT_USAGE;
    if (o.snapshot_frame && !o.snapshot)
        return usage_error("%s", "--snapshot-frame needs --snapshot FILE.svg");
    if (o.snapshot_frame > o.frames) {
        char frames[16];
        snprintf(frames, sizeof frames, "%lu", (unsigned long)o.frames);
        return usage_error("--snapshot-frame is after the last frame (%s)", frames);
    }
    uint32_t snapshot_frame = o.snapshot_frame ? o.snapshot_frame : o.frames;

    int status = EXIT_FAIL;
    world w;
    gjkb_context *ctx = NULL, *ref_ctx = NULL;
    result_buf ref_rb = { { 0 }, NULL };
    uint32_t ref_cap = 0;
    double *seconds = NULL;   /* STAGES x frames */
    uint64_t pair_total = 0, hit_total = 0, contact_total = 0;
    double depth_total = 0.0;
    verify_counts vc = { 0 };
    if (world_create(&w, o.bodies, o.seed)) {
        fprintf(stderr, "gjkbatch: out of memory for %lu bodies\n", (unsigned long)o.bodies);
        return EXIT_FAIL;
    }
    seconds = malloc(sizeof *seconds * STAGES * o.frames);
    if (!seconds) {
        fprintf(stderr, "gjkbatch: out of memory\n");
        goto done;
    }
    if (!(ctx = run_context(o.backend, o.threads, &w)))
        goto done;
    if (o.verify && !(ref_ctx = run_context(GJKB_BACKEND_REFERENCE, o.threads, &w)))
        goto done;

    gjkb_bodies bodies = world_bodies(&w);
    gjkb_broadphase_options bo = { w.flags, NULL, NULL };
    gjkb_query q = { o.mode, o.max_iterations, 0.0, 0.0, NULL, NULL, NULL };
    gjkb_frame fr;
    /* One untimed step sizes the context's buffers for this scene. */
    if (gjkb_step(ctx, &bodies, &bo, &q, &fr) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: %s\n", gjkb_last_error(ctx));
        goto done;
    }

    int progress = !o.quiet && isatty(2);
    double last_draw = -INFINITY;
    /* With --verify, two passes over the same frames (the world is
     * deterministic from the seed): the first timed as a plain run, the
     * second checking every pair against the reference, whose work
     * between frames would otherwise leave the caches cold for the timed
     * steps (measured: docs/performance.md). */
    const int passes = o.verify ? 2 : 1;
    for (int pass = 0; pass < passes; pass++) {
        const int timed = pass == 0, checked = o.verify && pass == passes - 1;
        if (pass > 0) {
            world_free(&w);
            if (world_create(&w, o.bodies, o.seed)) {
                progress_clear();
                fprintf(stderr, "gjkbatch: out of memory for %lu bodies\n", (unsigned long)o.bodies);
                goto done;
            }
            bodies = world_bodies(&w);
            bo.flags = w.flags;
        }
        for (uint32_t f = 1; f <= o.frames; f++) {
            if (f > 1)
                world_advance(&w);
            double t0 = now_seconds();
            if (gjkb_step(ctx, &bodies, &bo, &q, &fr) != GJKB_OK) {
                progress_clear();
                fprintf(stderr, "gjkbatch: frame %lu: %s\n", (unsigned long)f, gjkb_last_error(ctx));
                goto done;
            }
            double t = now_seconds() - t0;
            if (timed) {
                for (int k = 0; k < 4; k++)
                    seconds[(size_t)k * o.frames + (f - 1)] = fr.seconds[k];
                seconds[(size_t)STAGE_FRAME * o.frames + (f - 1)] = t;
                pair_total += fr.pairs.count;
                hit_total += fr.hits;
                if (o.mode == GJKB_CONTACT)
                    frame_contacts(&fr, &contact_total, &depth_total);
                if (o.snapshot && f == snapshot_frame &&
                    write_snapshot(o.snapshot, &w, &fr, f, o.frames, gjkb_context_backend(ctx)))
                    goto done;
            }
            if (checked && verify_frame(&o, &w, &bodies, &q, &fr, ctx, ref_ctx, f, &ref_rb, &ref_cap, &vc))
                goto done;
            if (progress)
                progress_draw((uint32_t)pass * o.frames + f, (uint32_t)passes * o.frames, t, &last_draw);
        }
    }
    progress_clear();

    int failed = verify_failed(&vc);
    status = failed ? EXIT_FAIL : EXIT_OK;
    const int W = 24;
    double pairs_per_frame = (double)pair_total / o.frames, narrow = 0.0;
    for (uint32_t f = 0; f < o.frames; f++)
        narrow += seconds[(size_t)STAGE_NARROW * o.frames + f];
    /* the world draws every kind */
    printf("%-*s %lu (%lu static), ", W, "bodies:", (unsigned long)w.count, (unsigned long)w.static_count);
    for (int k = 0; k < GJKB_KIND_COUNT; k++)
        printf("%s%s", k ? ", " : "", gjkb_kind_name((gjkb_kind)k));
    putchar('\n');
    printf("%-*s %.1f x %.1f x %.1f (centres), %.1f bodies per unit area\n", W, "world:", 2.0 * w.half[0],
           2.0 * w.half[1], 2.0 * w.half[2], w.count / (4.0 * w.half[0] * w.half[1]));
    printf("%-*s %lu (1/60 s each)\n", W, "frames:", (unsigned long)o.frames);
    printf("%-*s %llu\n", W, "seed:", (unsigned long long)o.seed);
    printf("%-*s %s\n", W, "backend:", gjkb_backend_name(gjkb_context_backend(ctx)));
    printf("%-*s %d\n", W, "threads:", gjkb_get_threads(ctx));
    printf("%-*s %s\n", W, "mode:", mode_name(o.mode));
    printf("\n%-*s %10s %10s\n", W, "time per frame (ms)", "mean", "median");
    for (int k = 0; k < STAGES; k++) {
        double *col = seconds + (size_t)k * o.frames, sum = 0.0;
        for (uint32_t f = 0; f < o.frames; f++)
            sum += col[f];
        double mean = sum / o.frames;
        printf("  %-*s %10.3f %10.3f\n", W - 2, stage_names[k], mean * 1e3, median(col, o.frames) * 1e3);
    }
    printf("\n%-*s %.1f\n", W, "candidate pairs/frame:", pairs_per_frame);
    printf("%-*s %.3f\n", W, "pairs per body:", pairs_per_frame / w.count);
    printf("%-*s %.1f (%.1f%% of the candidates)\n", W, "hits per frame:", (double)hit_total / o.frames,
           pair_total ? 100.0 * (double)hit_total / (double)pair_total : 0.0);
    if (o.mode == GJKB_CONTACT) {
        printf("%-*s %.1f\n", W, "contact points/frame:", (double)contact_total / o.frames);
        printf("%-*s %.6g (over the overlapping pairs)\n", W, "mean depth:",
               hit_total ? depth_total / (double)hit_total : 0.0);
    }
    printf("%-*s %.0f\n", W, "narrowphase pairs/s:", narrow > 0.0 ? (double)pair_total / narrow : 0.0);
    print_lane_use(ctx, W);
    if (o.verify) {
        printf("%-*s %llu (every candidate pair of every frame)\n", W, "pairs verified:",
               (unsigned long long)vc.checked);
        print_verify_counts(&vc, o.mode != GJKB_HIT, o.mode, W);
        printf("%-*s %s\n", W, "verification:", failed ? "FAILED" : "ok");
    } else {
        printf("%-*s off (--verify checks every pair against the reference backend)\n", W, "verification:");
    }
    if (o.snapshot)
        printf("%-*s %s (frame %lu)\n", W, "snapshot:", o.snapshot, (unsigned long)snapshot_frame);
    if (fflush(stdout) != 0)
        status = EXIT_FAIL;
done:
    progress_clear();
    free(seconds);
    free(ref_rb.block);
    gjkb_destroy(ctx);
    gjkb_destroy(ref_ctx);
    world_free(&w);
    return status;
}

/* ---- main -------------------------------------------------------------- */

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("%s", "missing command");
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        fputs(usage_text, stdout);
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
