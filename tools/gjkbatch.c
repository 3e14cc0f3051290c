/* gjkbatch.c - the command-line tool: `query` answers a pair file
 * (docs/file-format.md) as CSV, `run` times the library on a generated
 * mixed batch and checks it against the reference backend. Usage is in
 * docs/cli.md and in usage() below. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "gjkbatch.h"
#include "pairfile.h"
#include "scene.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Exit statuses (documented in docs/cli.md). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* `run` verification: relative distance tolerance, and the band around
 * touching inside which a separated/overlap disagreement is expected of
 * float kernels and counted but not failed. Both relative to the pair's
 * scale (sum of bounding radii). */
#define VERIFY_DISTANCE_TOL 1e-4
#define VERIFY_TOUCH_BAND 1e-4
#define VERIFY_SHOW 10

static const char usage_text[] =
    "usage: gjkbatch query [--mode hit|distance] [--backend NAME] [--max-iterations N] INPUT OUTPUT\n"
    "       gjkbatch run [--backend NAME] [--pairs N] [--seed S] [--mode hit|distance]\n"
    "                    [--max-iterations N] [--repeat N] [--save FILE]\n"
    "       gjkbatch help | --help | --version\n"
    "\n"
    "query  answers every pair of a pair file (format: docs/file-format.md) and\n"
    "       writes one CSV row per pair; INPUT and OUTPUT may be - (stdin, stdout)\n"
    "run    times one batch of a generated mixed scene (default 100000 pairs,\n"
    "       seed 1, best of 5 runs) and checks every pair against the reference\n"
    "       backend; exits 1 on a mismatch\n"
    "\n"
    "  --mode hit|distance   query mode (default distance)\n"
    "  --backend NAME        auto, reference, scalar, sse4, avx2, avx512, neon\n"
    "                        (default auto: GJKB_BACKEND, else the widest available)\n"
    "  --max-iterations N    iteration bound per pair (0: library default)\n"
    "  --pairs N             run: number of pairs\n"
    "  --seed S              run: scene seed\n"
    "  --repeat N            run: timed repetitions, the best is reported\n"
    "  --save FILE           run: also write the scene as a pair file (replay\n"
    "                        a pair with query; the pair numbers match)\n"
    "\n"
    "exit status: 0 success, 1 failure (I/O, library error, run mismatch),\n"
    "2 bad usage or a pair file that does not parse\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("gjkbatch: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n", stderr);
    fputs(usage_text, stderr);
    return EXIT_USAGE;
}

/* ---- options ----------------------------------------------------------- */

enum { OPT_MODE = 1, OPT_BACKEND = 2, OPT_ITER = 4, OPT_PAIRS = 8, OPT_SEED = 16, OPT_REPEAT = 32, OPT_SAVE = 64 };

typedef struct options {
    gjkb_mode mode;
    gjkb_backend backend;
    uint32_t max_iterations;
    uint32_t pairs;
    uint64_t seed;
    uint32_t repeat;
    const char *save;
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

/* Parses argv[first..] into o, accepting the options in `allowed` as
 * "--name value" or "--name=value". Returns -1 after printing usage. */
static int parse_options(int argc, char **argv, int first, unsigned allowed, int max_positional, options *o)
{
    static const struct { const char *name; unsigned bit; } names[] = {
        { "--mode", OPT_MODE }, { "--backend", OPT_BACKEND }, { "--max-iterations", OPT_ITER },
        { "--pairs", OPT_PAIRS }, { "--seed", OPT_SEED }, { "--repeat", OPT_REPEAT }, { "--save", OPT_SAVE },
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
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strlen(names[k].name) == len && strncmp(arg, names[k].name, len) == 0)
                bit = names[k].bit;
        if (!(bit & allowed))
            return usage_error("unknown option '%s'", arg), -1;
        const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!val)
            return usage_error("option '%s' needs a value", arg), -1;
        uint64_t u;
        switch (bit) {
        case OPT_MODE:
            if (strcmp(val, "hit") == 0)
                o->mode = GJKB_HIT;
            else if (strcmp(val, "distance") == 0)
                o->mode = GJKB_DISTANCE;
            else
                return usage_error("unknown mode '%s' (hit or distance)", val), -1;
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
        default: /* OPT_REPEAT */
            if (parse_u64(val, 1000000, &u) || u == 0)
                return usage_error("bad repeat count '%s' (1 or more)", val), -1;
            o->repeat = (uint32_t)u;
            break;
        }
    }
    return 0;
}

/* ---- shared helpers ---------------------------------------------------- */

static gjkb_context *create_context(gjkb_backend backend)
{
    gjkb_config cfg = { backend, 0 };
    gjkb_context *ctx = NULL;
    gjkb_error e = gjkb_create(&cfg, &ctx);
    if (e == GJKB_ERR_UNSUPPORTED)
        fprintf(stderr, "gjkbatch: backend '%s' is not available in this build or on this CPU\n",
                gjkb_backend_name(backend));
    else if (e == GJKB_ERR_KIND && backend == GJKB_BACKEND_AUTO)
        fprintf(stderr, "gjkbatch: the GJKB_BACKEND environment variable names no backend\n");
    else if (e != GJKB_OK)
        fprintf(stderr, "gjkbatch: cannot create a context: %s\n", gjkb_error_string(e));
    return e == GJKB_OK ? ctx : NULL;
}

/* Result arrays for n pairs; a/b/n only in distance mode (hit mode leaves
 * them undefined, and NULL columns print as nan). */
typedef struct result_buf {
    gjkb_results r;
    void *block;
} result_buf;

static int results_alloc(result_buf *rb, uint32_t n, gjkb_mode mode)
{
    size_t m = n ? n : 1;
    int points = mode == GJKB_DISTANCE;
    size_t per = sizeof(double) * (1 + (points ? 9 : 0)) + sizeof(uint32_t) + 1;
    memset(rb, 0, sizeof *rb);
    if (m > SIZE_MAX / per)
        return -1;
    rb->block = malloc(m * per);
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
    rb->r.iterations = (uint32_t *)d;
    rb->r.status = (uint8_t *)(rb->r.iterations + m);
    return 0;
}

/* ---- query ------------------------------------------------------------- */

static int cmd_query(int argc, char **argv)
{
    options o = { GJKB_DISTANCE, GJKB_BACKEND_AUTO, 0, 0, 0, 0, NULL, { NULL, NULL }, 0 };
    if (parse_options(argc, argv, 2, OPT_MODE | OPT_BACKEND | OPT_ITER, 2, &o))
        return EXIT_USAGE;
    if (o.npositional != 2)
        return usage_error("%s", "query needs INPUT and OUTPUT (- for stdin, stdout)");
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
    gjkb_query q = { o.mode, o.max_iterations, 0.0, 0.0, NULL, NULL, NULL };
    if (gjkb_query_batch(ctx, &bodies, &pairs, &q, &rb.r) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: %s: %s\n", in_name, gjkb_last_error(ctx));
        goto done;
    }

    /* Only now, with every answer in hand, is the output created. */
    FILE *out = out_std ? stdout : fopen(out_path, "w");
    if (!out) {
        fprintf(stderr, "gjkbatch: %s: %s\n", out_path, strerror(errno));
        goto done;
    }
    int werr = pairfile_write_csv(out, pf.pair_count, &rb.r);
    int saved = errno;
    if (!out_std && fclose(out) != 0 && !werr) {
        werr = -1;
        saved = errno;
    }
    if (werr) {
        fprintf(stderr, "gjkbatch: writing %s: %s\n", out_std ? "<stdout>" : out_path, strerror(saved));
        if (!out_std)
            remove(out_path);   /* no truncated answers left behind */
        goto done;
    }
    status = EXIT_OK;
done:
    free(rb.block);
    gjkb_destroy(ctx);
    pairfile_free(&pf);
    return status;
}

/* ---- run --------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Distance of one pair in distance mode on ctx (for classifying hit-mode
 * disagreements, which carry no distance). */
static double pair_distance(gjkb_context *ctx, const gjkb_bodies *bodies, const scene *s, uint32_t i,
                            uint32_t max_iterations)
{
    gjkb_pairs one = { 1, &s->pa[i], &s->pb[i] };
    gjkb_query q = { GJKB_DISTANCE, max_iterations, 0.0, 0.0, NULL, NULL, NULL };
    uint8_t st;
    double d = NAN;
    gjkb_results r;
    memset(&r, 0, sizeof r);
    r.status = &st;
    r.distance = &d;
    if (gjkb_query_batch(ctx, bodies, &one, &q, &r) != GJKB_OK || st != GJKB_SEPARATED)
        return NAN;
    return d;
}

static const char *const kind_names[GJKB_KIND_COUNT] = { "sphere", "capsule", "box", "cylinder", "cone", "hull" };

typedef struct verify_counts {
    uint32_t status_mismatch, distance_mismatch, near_touching, shown;
} verify_counts;

static void show_mismatch(verify_counts *vc, const scene *s, uint32_t i, const char *what, int st, int rst,
                          double d, double rd)
{
    if (vc->shown++ >= VERIFY_SHOW)
        return;
    fprintf(stderr, "  mismatch pair %lu (%s-%s, scale %.6g): %s: %s %.9g, reference %s %.9g\n",
            (unsigned long)i, kind_names[s->kind[s->pa[i]]], kind_names[s->kind[s->pb[i]]],
            scene_pair_scale(s, i), what, gjkb_status_name((gjkb_status)st), d,
            gjkb_status_name((gjkb_status)rst), rd);
}

/* Compares the batch answers r against the reference answers ref. */
static verify_counts verify(const scene *s, const options *o, const gjkb_results *r, const gjkb_results *ref,
                            gjkb_context *ctx, gjkb_context *ref_ctx)
{
    verify_counts vc = { 0, 0, 0, 0 };
    gjkb_bodies bodies = scene_bodies(s);
    for (uint32_t i = 0; i < s->pair_count; i++) {
        int st = r->status[i], rst = ref->status[i];
        double scale = scene_pair_scale(s, i);
        double d = r->distance[i], rd = ref->distance[i];
        if (st != rst) {
            int touch = (st == GJKB_SEPARATED && rst == GJKB_OVERLAP) ||
                        (st == GJKB_OVERLAP && rst == GJKB_SEPARATED);
            if (touch) {
                /* The separated side's distance says how close to
                 * touching the pair is. */
                double gap = st == GJKB_SEPARATED ? d : rd;
                if (o->mode == GJKB_HIT)
                    gap = pair_distance(st == GJKB_SEPARATED ? ctx : ref_ctx, &bodies, s, i, o->max_iterations);
                if (gap <= VERIFY_TOUCH_BAND * scale) {
                    vc.near_touching++;
                    continue;
                }
            }
            vc.status_mismatch++;
            show_mismatch(&vc, s, i, "status", st, rst, d, rd);
        } else if (o->mode == GJKB_DISTANCE && st == GJKB_SEPARATED &&
                   !(fabs(d - rd) <= VERIFY_DISTANCE_TOL * scale)) {
            vc.distance_mismatch++;
            show_mismatch(&vc, s, i, "distance", st, rst, d, rd);
        }
    }
    return vc;
}

/* --save: the scene as a pair file, for replaying pairs with `query`. */
static int save_scene(const scene *s, const char *path)
{
    FILE *out = fopen(path, "w");
    int err = !out || scene_write_pairs(s, out);
    if (out && fclose(out) != 0)
        err = 1;
    if (err)
        fprintf(stderr, "gjkbatch: writing %s: %s\n", path, strerror(errno));
    return err;
}

static int cmd_run(int argc, char **argv)
{
    options o = { GJKB_DISTANCE, GJKB_BACKEND_AUTO, 0, 100000, 1, 5, NULL, { NULL, NULL }, 0 };
    if (parse_options(argc, argv, 2, OPT_MODE | OPT_BACKEND | OPT_ITER | OPT_PAIRS | OPT_SEED | OPT_REPEAT | OPT_SAVE,
                      0,
                      &o))
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

    gjkb_bodies bodies = scene_bodies(&s);
    gjkb_pairs pairs = scene_pairs(&s);
    gjkb_query q = { o.mode, o.max_iterations, 0.0, 0.0, NULL, NULL, NULL };
    /* One untimed call sizes the context's scratch and warms the caches;
     * the best of the timed calls is the least disturbed one. */
    double best = INFINITY;
    for (uint32_t rep = 0; rep <= o.repeat; rep++) {
        double t0 = now_seconds();
        if (gjkb_query_batch(ctx, &bodies, &pairs, &q, &rb.r) != GJKB_OK) {
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

    if (gjkb_query_batch(ref_ctx, &bodies, &pairs, &q, &ref_rb.r) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: reference: %s\n", gjkb_last_error(ref_ctx));
        goto done;
    }
    verify_counts vc = verify(&s, &o, &rb.r, &ref_rb.r, ctx, ref_ctx);

    status = vc.status_mismatch || vc.distance_mismatch ? EXIT_FAIL : EXIT_OK;
    printf("%-21s %s\n", "backend:", gjkb_backend_name(gjkb_context_backend(ctx)));
    printf("%-21s %s\n", "mode:", o.mode == GJKB_HIT ? "hit" : "distance");
    printf("%-21s %llu\n", "seed:", (unsigned long long)o.seed);
    printf("%-21s %lu\n", "pairs:", (unsigned long)s.pair_count);
    printf("%-21s %lu\n", "hits (overlap):", (unsigned long)count[GJKB_OVERLAP]);
    printf("%-21s %lu\n", "separated:", (unsigned long)count[GJKB_SEPARATED]);
    printf("%-21s %lu\n", "limit:", (unsigned long)count[GJKB_LIMIT]);
    printf("%-21s %lu\n", "invalid:", (unsigned long)count[GJKB_INVALID]);
    printf("%-21s %.3f ms (best of %lu)\n", "time:", best * 1e3, (unsigned long)o.repeat);
    printf("%-21s %.0f\n", "pairs/s:", best > 0.0 ? s.pair_count / best : 0.0);
    printf("%-21s %lu (status differs from the reference backend)\n", "status mismatches:",
           (unsigned long)vc.status_mismatch);
    printf("%-21s %lu (both separated, distances differ by > %g x scale)\n", "distance mismatches:",
           (unsigned long)vc.distance_mismatch, VERIFY_DISTANCE_TOL);
    printf("%-21s %lu (separated vs overlap within %g x scale of contact; allowed)\n", "near touching:",
           (unsigned long)vc.near_touching, VERIFY_TOUCH_BAND);
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
    return usage_error(cmd[0] == '-' ? "unknown option '%s'" : "unknown command '%s'", cmd);
}
