/* bits_hash.c - one hash per (mode, workload, backend) over every output
 * array of gjkb_query_batch, so that runs on different backends and
 * architectures can be compared (scripts/compare_bits.sh; scripts/test.sh
 * runs it natively and under qemu-aarch64). No expected values live here:
 * the kernel changes, the promise is only that every wide backend, on x86
 * and on ARM, gives the same bits.
 *
 *   bits_hash [--pairs N] [--seed S] [--backends NAME,NAME,...] [--workload NAME] [--dump]
 *
 * Output, one line each (# lines are comments):
 *   input WORKLOAD - HASH          the inputs as the library sees them
 *   MODE WORKLOAD BACKEND HASH     MODE: hit, distance, contact, contact-md
 * contact-md is contact mode with max_distance > 0 (speculative points).
 * Every output array is asked for in every mode, each filled with a fixed
 * pattern first, so an array a mode leaves alone hashes the same too.
 * --dump prints every pair's answer instead of the hashes (hex floats, one
 * line per pair and mode), to find the pairs behind a differing hash:
 *   bits_hash --workload mixed --backends scalar --dump > x86.txt; diff ... */
#include "harness.h"

#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- inputs -------------------------------------------------------------- */

/* Rounds to a multiple of 2^-20 (about float's step at the workloads'
 * positions, |p| < 16). workloads.h draws its sets with libm's sin and
 * cos, whose last bit may differ between the x86 and aarch64 libraries; on
 * the grid a one-ulp difference moves a value only when it lies within an
 * ulp of a grid midpoint (odds about 2^-29 per value), and the input hash
 * says so should it happen. Sizes, rotations and hull points are float
 * already; they get the same grid. */
static double snap(double v)
{
    return ldexp(nearbyint(ldexp(v, 20)), -20);
}

static float snapf(float v)
{
    return (float)ldexp(nearbyint(ldexp((double)v, 20)), -20);
}

static void snap_set(bench_set *s)
{
    for (uint32_t i = 0; i < s->body_count; i++) {
        s->px[i] = snap(s->px[i]), s->py[i] = snap(s->py[i]), s->pz[i] = snap(s->pz[i]);
        s->qw[i] = snapf(s->qw[i]), s->qx[i] = snapf(s->qx[i]);
        s->qy[i] = snapf(s->qy[i]), s->qz[i] = snapf(s->qz[i]);
        s->sx[i] = snapf(s->sx[i]), s->sy[i] = snapf(s->sy[i]), s->sz[i] = snapf(s->sz[i]);
    }
    for (uint32_t h = 0; h < s->hull_count; h++)
        for (uint32_t k = 0; k < 3 * s->hull_n[h]; k++)
            s->hull_xyz[h][k] = snapf(s->hull_xyz[h][k]);
}

/* ---- hashing --------------------------------------------------------------- */

/* FNV-1a, 64 bits: byte order is the same on both targets (little endian). */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

#define FNV_START 0xcbf29ce484222325ull

static uint64_t hash_inputs(const bench_set *s)
{
    size_t nb = s->body_count, nd = nb * sizeof(double), nf = nb * sizeof(float);
    uint64_t h = fnv(FNV_START, s->kind, nb);
    const double *d[] = { s->px, s->py, s->pz };
    const float *f[] = { s->qw, s->qx, s->qy, s->qz, s->sx, s->sy, s->sz };
    for (int k = 0; k < 3; k++)
        h = fnv(h, d[k], nd);
    for (int k = 0; k < 7; k++)
        h = fnv(h, f[k], nf);
    h = fnv(h, s->hull, nb * sizeof(uint32_t));
    h = fnv(h, s->pa, s->pair_count * sizeof(uint32_t));
    h = fnv(h, s->pb, s->pair_count * sizeof(uint32_t));
    for (uint32_t k = 0; k < s->hull_count; k++)
        h = fnv(h, s->hull_xyz[k], 3 * s->hull_n[k] * sizeof(float));
    return h;
}

/* The pattern every array holds before a call. */
#define PATTERN 0x5a

static void out_fill(bench_out *o)
{
    size_t n = o->count, nd = n * sizeof(double), md = nd * GJKB_MAX_CONTACTS;
    double *d[] = { o->distance, o->ax, o->ay, o->az, o->bx, o->by, o->bz, o->nx, o->ny, o->nz };
    double *m[] = { o->cax, o->cay, o->caz, o->cbx, o->cby, o->cbz, o->csep };
    memset(o->status, PATTERN, n);
    memset(o->iterations, PATTERN, n * sizeof(uint32_t));
    memset(o->contacts, PATTERN, n);
    memset(o->cfeature, PATTERN, n * GJKB_MAX_CONTACTS * sizeof(uint32_t));
    for (int k = 0; k < 10; k++)
        memset(d[k], PATTERN, nd);
    for (int k = 0; k < 7; k++)
        memset(m[k], PATTERN, md);
}

static uint64_t hash_out(const bench_out *o)
{
    size_t n = o->count, nd = n * sizeof(double), md = nd * GJKB_MAX_CONTACTS;
    const double *d[] = { o->distance, o->ax, o->ay, o->az, o->bx, o->by, o->bz, o->nx, o->ny, o->nz };
    const double *m[] = { o->cax, o->cay, o->caz, o->cbx, o->cby, o->cbz, o->csep };
    uint64_t h = fnv(FNV_START, o->status, n);
    h = fnv(h, o->iterations, n * sizeof(uint32_t));
    for (int k = 0; k < 10; k++)
        h = fnv(h, d[k], nd);
    h = fnv(h, o->contacts, n);
    for (int k = 0; k < 7; k++)
        h = fnv(h, m[k], md);
    return fnv(h, o->cfeature, n * GJKB_MAX_CONTACTS * sizeof(uint32_t));
}

/* ---- queries ----------------------------------------------------------------- */

typedef struct mode_row {
    const char *name;
    gjkb_mode mode;
    double max_distance;   /* 0: none; sizes are 0.25 to 1, so 0.25 gives
                              speculative points to the nearer separated pairs */
} mode_row;

static const mode_row modes[] = {
    { "hit", GJKB_HIT, 0.0 },
    { "distance", GJKB_DISTANCE, 0.0 },
    { "contact", GJKB_CONTACT, 0.0 },
    { "contact-md", GJKB_CONTACT, 0.25 },
};
#define MODE_COUNT (sizeof modes / sizeof modes[0])

/* Every array of o, whatever the mode. */
static gjkb_results results_all(bench_out *o)
{
    gjkb_results r = { o->status, o->distance, o->ax, o->ay, o->az, o->bx, o->by, o->bz,
                       o->nx, o->ny, o->nz, o->iterations,
                       { o->contacts, o->cax, o->cay, o->caz, o->cbx, o->cby, o->cbz, o->csep, o->cfeature } };
    return r;
}

static bool dump_wanted;
static const bench_set *dump_set;   /* the set being run, for its kinds */

/* One line per pair: every output, floats in hex. */
static void dump_out(const char *mode, const char *backend, const bench_out *o)
{
    for (uint32_t i = 0; i < o->count; i++) {
        printf("%s %s %" PRIu32 " %s-%s st %u it %" PRIu32 " d %a a %a %a %a b %a %a %a n %a %a %a c %u", mode, backend, i,
               gjkb_kind_name((gjkb_kind)dump_set->kind[dump_set->pa[i]]),
               gjkb_kind_name((gjkb_kind)dump_set->kind[dump_set->pb[i]]), o->status[i], o->iterations[i], o->distance[i], o->ax[i], o->ay[i], o->az[i], o->bx[i], o->by[i],
               o->bz[i], o->nx[i], o->ny[i], o->nz[i], o->contacts[i]);
        for (size_t k = i * (size_t)GJKB_MAX_CONTACTS; k < (i + 1) * (size_t)GJKB_MAX_CONTACTS; k++)
            printf(" | %a %a %a %a %a %a %a %#" PRIx32, o->cax[k], o->cay[k], o->caz[k], o->cbx[k], o->cby[k],
                   o->cbz[k], o->csep[k], o->cfeature[k]);
        putchar('\n');
    }
}

static int run_mode(gjkb_context *ctx, const bench_set *s, const mode_row *m, bench_out *o, uint64_t *hash)
{
    gjkb_query q = { .mode = m->mode, .max_distance = m->max_distance };
    gjkb_results r = results_all(o);
    out_fill(o);
    if (gjkb_query_batch(ctx, &s->bodies, &s->pairs, &q, &r) != GJKB_OK) {
        fprintf(stderr, "bits_hash: %s: %s\n", m->name, gjkb_last_error(ctx));
        return -1;
    }
    *hash = hash_out(o);
    if (dump_wanted)
        dump_out(m->name, gjkb_backend_name(gjkb_context_backend(ctx)), o);
    return 0;
}

/* Every mode of one workload on one backend; hashes[mode]. */
static int run_backend(const bench_set *s, gjkb_backend b, bench_out *o, uint64_t *hashes)
{
    gjkb_context *ctx;
    if (bench_context_create(s, b, &ctx) != GJKB_OK) {
        fprintf(stderr, "bits_hash: cannot create a %s context\n", gjkb_backend_name(b));
        return -1;
    }
    int rc = 0;
    for (size_t m = 0; rc == 0 && m < MODE_COUNT; m++)
        rc = run_mode(ctx, s, &modes[m], o, &hashes[m]);
    gjkb_destroy(ctx);
    return rc;
}

/* ---- options ------------------------------------------------------------------ */

typedef struct options {
    uint32_t pairs;
    int workload;   /* -1: all */
    uint64_t seed;
    int use[GJKB_BACKEND_COUNT];
} options;

static int parse_backends(char *list, options *opt)
{
    memset(opt->use, 0, sizeof opt->use);
    for (char *name = strtok(list, ","); name; name = strtok(NULL, ",")) {
        gjkb_backend b;
        if (gjkb_backend_parse(name, &b) != GJKB_OK || b == GJKB_BACKEND_AUTO) {
            fprintf(stderr, "bits_hash: unknown backend '%s'\n", name);
            return -1;
        }
        opt->use[b] = 1;
    }
    return 0;
}

static int parse(int argc, char **argv, options *opt)
{
    opt->pairs = 4096;
    opt->seed = 1;
    opt->workload = -1;
    for (int b = GJKB_BACKEND_REFERENCE; b < GJKB_BACKEND_COUNT; b++)
        opt->use[b] = 1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "--dump")) {
            dump_wanted = true;
            continue;
        }
        if (!val)
            goto usage;
        if (!strcmp(arg, "--pairs"))
            opt->pairs = (uint32_t)strtoul(val, NULL, 10);
        else if (!strcmp(arg, "--seed"))
            opt->seed = strtoull(val, NULL, 10);
        else if (!strcmp(arg, "--workload")) {
            for (opt->workload = WL_COUNT - 1; opt->workload >= 0; opt->workload--)
                if (!strcmp(val, bench_workload_name(opt->workload)))
                    break;
            if (opt->workload < 0)
                goto usage;
        }
        else if (!strcmp(arg, "--backends")) {
            if (parse_backends(argv[i + 1], opt) != 0)
                return -1;
        } else
            goto usage;
        i++;
    }
    if (opt->pairs == 0 || opt->pairs > 10000000u)
        goto usage;
    return 0;
usage:
    fputs("usage: bits_hash [--pairs N] [--seed S] [--backends NAME,NAME,...] [--workload NAME] [--dump]\n",
          stderr);
    return -1;
}

/* ---- main ----------------------------------------------------------------------- */

static int run_workload(const options *opt, int w, bench_out *o)
{
    bench_set s;
    if (bench_set_make(&s, w, opt->pairs, opt->seed) != 0) {
        fputs("bits_hash: out of memory\n", stderr);
        return -1;
    }
    snap_set(&s);
    dump_set = &s;
    printf("input %s - %016" PRIx64 "\n", bench_workload_name(w), hash_inputs(&s));
    int rc = 0;
    for (int b = GJKB_BACKEND_REFERENCE; rc == 0 && b < GJKB_BACKEND_COUNT; b++) {
        uint64_t hashes[MODE_COUNT];
        if (!opt->use[b] || !gjkb_backend_available((gjkb_backend)b))
            continue;
        rc = run_backend(&s, (gjkb_backend)b, o, hashes);
        for (size_t m = 0; rc == 0 && !dump_wanted && m < MODE_COUNT; m++)
            printf("%s %s %s %016" PRIx64 "\n", modes[m].name, bench_workload_name(w),
                   gjkb_backend_name((gjkb_backend)b), hashes[m]);
        fflush(stdout);
    }
    bench_set_free(&s);
    return rc;
}

int main(int argc, char **argv)
{
    options opt;
    if (parse(argc, argv, &opt) != 0)
        return 2;
    bench_out o;
    if (bench_out_alloc(&o, opt.pairs) != 0) {
        fputs("bits_hash: out of memory\n", stderr);
        return 1;
    }
    printf("# bits_hash: %" PRIu32 " pairs per workload, seed %" PRIu64 "\n", opt.pairs, opt.seed);
    int rc = 0;
    for (int w = 0; rc == 0 && w < WL_COUNT; w++)
        if (opt.workload < 0 || opt.workload == w)
            rc = run_workload(&opt, w, &o);
    bench_out_free(&o);
    return rc == 0 ? 0 : 1;
}
