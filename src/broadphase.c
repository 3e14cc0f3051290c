/* broadphase.c - the width-agnostic half of the broadphase: argument
 * checks, the choice of sweep axis, the radix sort, the sorted copy with its
 * sentinels, the context's output buffers and threads. The wide halves are
 * src/kernel/bounds.inl and sweep.inl; gjkb_step is src/frame.c.
 *
 * Everything that decides which pairs come out and in what order happens
 * here, once, in a fixed order: the kernels only test boxes, so every
 * backend and thread count gives the same pair list. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "broadphase.h"
#include "dispatch.h"
#include "pairkey.h"
#include "shape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 32-bit keys in three passes of 11, 11 and 10 bits. */
#define RADIX_BITS 11
#define RADIX (1u << RADIX_BITS)
/* Below this many boxes or bodies per thread a call uses fewer threads:
 * a thread's share must outlast waking it and the barrier after. */
#define MIN_PER_THREAD 1024u
/* Sweep ranges per thread, for balance (each has its own pair buffer):
 * ranges differ in their pairs, and several per thread even that out. */
#define PARTS_PER_THREAD 4
/* Bands of the sweep across axis 1 (see plan_sweep): at most this many
 * (a box's band range is a byte per end, and the sort keeps a count per
 * band and part), each about BAND_SPAN mean box sizes wide (narrower bands
 * repeat more boxes in two bands, wider ones sweep longer strips) and with
 * MIN_BAND_BOXES boxes on average at least (fewer would cost more in
 * sentinels and set-up than the band saves). */
#define MAX_BANDS 64
#ifndef BAND_SPAN
#define BAND_SPAN 4.0
#endif
#define MIN_BAND_BOXES 256u

/* One part of a threaded sweep: sorted boxes [first, end) of a band, where
 * its pairs go in the output, and the thread that swept it. */
struct sweep_part {
    uint32_t band, first, end, at, thread;
};

struct gjkb__broad {
    /* the sort: key << 32 | box index, twice for the radix passes */
    uint64_t *item[2];
    uint16_t *range;   /* per box: its first band | last band << 8, or GJKB_EMPTY_BOX */
    uint32_t sort_cap;
    /* the sort's counts, one set per part (sort_run) */
    struct sort_part *sort_part;
    int sort_parts;
    /* the sorted boxes in blocks (gjkb__sorted) with their sentinels */
    float *sorted;
    uint32_t *sorted_id;
    uint32_t sorted_cap;   /* boxes, a multiple of GJKB_PACK_ALIGN */
    /* the bands, each a sorted set of its own in the blocks above */
    gjkb__sorted band[MAX_BANDS];
    int bands;
    /* pairs: the output, and one buffer per part of a threaded sweep;
     * whether the output's info is the last gjkb_step's */
    gjkb__pairbuf pairs;
    bool pairs_info;
    gjkb__pairbuf grouped;   /* gjkb_step: the pairs grouped by key, swapped with pairs */
    gjkb__pairbuf *part;
    bool *part_ok;
    struct sweep_part *part_range;
    int parts;
};

/* ---- buffers -------------------------------------------------------------- */

static struct gjkb__broad *broad_get(gjkb_context *ctx)
{
    if (!ctx->broad)
        ctx->broad = calloc(1, sizeof *ctx->broad);
    return ctx->broad;
}

void gjkb__broad_free(gjkb_context *ctx)
{
    struct gjkb__broad *st = ctx->broad;
    if (!st)
        return;
    free(st->sorted);
    free(st->item[0]);
    free(st->item[1]);
    free(st->range);
    free(st->sort_part);
    free(st->sorted_id);
    gjkb__pairbuf_free(&st->pairs);
    gjkb__pairbuf_free(&st->grouped);
    for (int t = 0; t < st->parts; t++)
        gjkb__pairbuf_free(&st->part[t]);
    free(st->part);
    free(st->part_ok);
    free(st->part_range);
    free(st);
    ctx->broad = NULL;
}

static bool sort_reserve(struct gjkb__broad *st, uint32_t n)
{
    void **arrays[3] = { (void **)&st->item[0], (void **)&st->item[1], (void **)&st->range };
    size_t elem[3] = { sizeof(uint64_t), sizeof(uint64_t), sizeof(uint16_t) };
    return gjkb__grow_arrays(arrays, elem, 3, &st->sort_cap, n);
}

/* The sorted blocks hold nothing worth keeping between calls: replaced. */
static bool sorted_reserve(struct gjkb__broad *st, uint32_t n)
{
    if (n <= st->sorted_cap)
        return true;
    uint32_t cap = gjkb__grown(st->sorted_cap, n);
    cap = (cap + 15u) & ~15u;
    float *box = aligned_alloc(64, (size_t)cap * GJKB_SORTED_FIELDS * sizeof(float));
    uint32_t *id = aligned_alloc(64, (size_t)cap * sizeof(uint32_t));
    if (!box || !id) {
        free(box);
        free(id);
        return false;
    }
    free(st->sorted);
    free(st->sorted_id);
    st->sorted = box;
    st->sorted_id = id;
    st->sorted_cap = cap;
    return true;
}

static bool parts_reserve(struct gjkb__broad *st, int parts)
{
    if (parts <= st->parts)
        return true;
    if (!gjkb__resize((void **)&st->part, sizeof *st->part * (size_t)parts) ||
        !gjkb__resize((void **)&st->part_ok, sizeof *st->part_ok * (size_t)parts) ||
        !gjkb__resize((void **)&st->part_range, sizeof *st->part_range * (size_t)parts))
        return false;
    memset(st->part + st->parts, 0, sizeof *st->part * (size_t)(parts - st->parts));
    st->parts = parts;
    return true;
}

/* ---- argument checks -------------------------------------------------------- */

gjkb_error gjkb__check_bodies(gjkb_context *ctx, const gjkb_bodies *bd, const char *call)
{
    /* The wide kernels index bodies with int32 lanes. */
    if (bd->count > INT32_MAX)
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "%s: %u bodies: at most %d per call", call, bd->count, INT32_MAX);
    if (bd->count == 0)
        return GJKB_OK;
    if (!bd->kind || !bd->px || !bd->py || !bd->pz || !bd->qw || !bd->qx || !bd->qy || !bd->qz || !bd->sx ||
        !bd->sy || !bd->sz)
        return gjkb__fail(ctx, GJKB_ERR_NULL, "%s: a required body array is NULL", call);
    /* Every frame: one pass without branches (the kinds are mixed), and the
     * loop below only to name the first bad body. */
    uint32_t bad = 0;
    if (bd->hull) {
        for (uint32_t i = 0; i < bd->count; i++)
            bad |= (uint32_t)(bd->kind[i] >= GJKB_KIND_COUNT) |
                   ((uint32_t)(bd->kind[i] == GJKB_HULL) & (uint32_t)(bd->hull[i] >= ctx->hull_count));
    } else {
        for (uint32_t i = 0; i < bd->count; i++)
            bad |= (uint32_t)(bd->kind[i] >= GJKB_KIND_COUNT) | (uint32_t)(bd->kind[i] == GJKB_HULL);
    }
    if (!bad)
        return GJKB_OK;
    char what[64];
    snprintf(what, sizeof what, "%s: body", call);
    for (uint32_t i = 0; i < bd->count; i++) {
        gjkb_error e = gjkb__check_kind(ctx, bd->kind[i], bd->hull ? &bd->hull[i] : NULL, i, what);
        if (e != GJKB_OK)
            return e;
    }
    return GJKB_OK;
}

static const gjkb__broad_kernel *kernel_of(gjkb_context *ctx, gjkb_error *e)
{
    const gjkb__broad_kernel *k = gjkb__broad_for(ctx->backend);
    *e = k ? GJKB_OK
           : gjkb__fail(ctx, GJKB_ERR_UNSUPPORTED, "backend %s is not available", gjkb_backend_name(ctx->backend));
    return k;
}

double gjkb__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Threads for n items of work: one per MIN_PER_THREAD items at most. */
static int threads_for(const gjkb_context *ctx, uint32_t n)
{
    uint32_t most = n / MIN_PER_THREAD;
    int t = gjkb__threads(ctx);
    return (uint32_t)t > most ? (most > 1 ? (int)most : 1) : t;
}

/* Start of part p of n items in `parts` equal ranges. */
static uint32_t split(uint32_t n, int p, int parts)
{
    return (uint32_t)((uint64_t)n * (uint64_t)p / (uint64_t)parts);
}

/* ---- bounds ------------------------------------------------------------------ */

/* Every body's box (and class, unless cls is NULL) through the kernel, in
 * ranges of whole bundles when threaded (each body's box is its own, so any
 * split gives the same bits). */
static void run_bounds(const gjkb_context *ctx, const gjkb__broad_kernel *k, const gjkb_bodies *bodies,
                       const gjkb_aabbs *out, uint32_t *cls)
{
    uint32_t n = bodies->count;
    int threads = threads_for(ctx, n);
    if (threads == 1) {
        k->bounds(ctx, bodies, 0, n, out, cls);
        return;
    }
    GJKB_OMP(omp parallel for num_threads(threads) schedule(static, 1))
    for (int t = 0; t < threads; t++) {
        uint32_t first = split(n, t, threads) & ~(uint32_t)(GJKB_PACK_ALIGN - 1);
        uint32_t end = t + 1 == threads ? n : split(n, t + 1, threads) & ~(uint32_t)(GJKB_PACK_ALIGN - 1);
        k->bounds(ctx, bodies, first, end, out, cls);
    }
}

gjkb_error gjkb__boxes(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_aabbs *out, uint32_t *cls)
{
    gjkb_error e;
    const gjkb__broad_kernel *k = kernel_of(ctx, &e);
    if (k)
        run_bounds(ctx, k, bodies, out, cls);
    return e;
}

gjkb_error gjkb_bounds(gjkb_context *ctx, const gjkb_bodies *bodies, gjkb_aabbs *out)
{
    if (!ctx)
        return GJKB_ERR_NULL;
    if (!bodies || !out)
        return gjkb__fail(ctx, GJKB_ERR_NULL, "gjkb_bounds: NULL %s", !bodies ? "bodies" : "out");
    if (out->count != bodies->count)
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "gjkb_bounds: %u boxes for %u bodies", out->count, bodies->count);
    gjkb_error e = gjkb__check_bodies(ctx, bodies, "gjkb_bounds");
    if (e != GJKB_OK)
        return e;
    if (out->count > 0 && (!out->min_x || !out->min_y || !out->min_z || !out->max_x || !out->max_y || !out->max_z))
        return gjkb__fail(ctx, GJKB_ERR_NULL, "gjkb_bounds: a box array is NULL");
    e = gjkb__boxes(ctx, bodies, out, NULL);
    if (e == GJKB_OK)
        ctx->message[0] = '\0';
    return e;
}

/* ---- the sort ------------------------------------------------------------------ */

/* A box overlaps anything only when min <= max on every axis (NaN fails). */
static inline bool box_empty(const float *const b[6], uint32_t i)
{
    return !(b[0][i] <= b[3][i]) || !(b[1][i] <= b[4][i]) || !(b[2][i] <= b[5][i]);
}

/* How to sweep: the axes, and bands across axis 1.
 *
 * Axis 0, swept, is the one along which the centres of the non-empty
 * boxes with a finite centre spread most (largest variance, summed in
 * double in box order about the first such centre; ties to the lower
 * axis); axis 1 spreads second most. A single sweep tests each box against
 * every box whose interval on axis 0 it meets, wherever they are on the
 * other axes: on a wide flat scene that is a whole strip of it. So the
 * scene is cut across axis 1 into bands about BAND_SPAN mean box sizes
 * wide, each box is swept in every band it touches, and a pair is reported
 * in the band where the larger of its two mins on axis 1 falls (see
 * gjkb__sorted.band_lo): exactly once. Beyond AXIS_SAMPLES boxes, every
 * (n / AXIS_SAMPLES)-th box stands for the rest: a thousand centres tell
 * the spread well enough (the plan steers speed and the order of the
 * pairs, never which pairs come out). */
#define AXIS_SAMPLES 1024u
typedef struct sweep_plan {
    int axis[3];
    int bands;
    /* band k starts at edge[k]; edge[0] = -inf, edge[bands] = NaN (no
     * x is past it, so walks up the edges stop there) */
    float edge[MAX_BANDS + 1];
    double lo, width;        /* edge[k] is lo + width * k, rounded */
    double inv_width;        /* 1 / width, for the key pass's guess */
} sweep_plan;

static void plan_sweep(const float *const b[6], uint32_t n, sweep_plan *plan)
{
    double base[3] = { 0, 0, 0 }, sum[3] = { 0, 0, 0 }, sq[3] = { 0, 0, 0 }, size[3] = { 0, 0, 0 };
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    uint32_t used = 0, step = n > AXIS_SAMPLES ? n / AXIS_SAMPLES : 1;
    for (uint32_t i = 0; i < n; i += step) {
        if (box_empty(b, i))
            continue;
        double c[3], e[3];
        for (int a = 0; a < 3; a++) {
            c[a] = 0.5 * ((double)b[a][i] + (double)b[3 + a][i]);
            e[a] = (double)b[3 + a][i] - (double)b[a][i];
        }
        if (!isfinite(c[0]) || !isfinite(c[1]) || !isfinite(c[2]) || !isfinite(e[0] + e[1] + e[2]))
            continue;
        if (used++ == 0)
            memcpy(base, c, sizeof base);
        for (int a = 0; a < 3; a++) {
            double d = c[a] - base[a];
            sum[a] += d;
            sq[a] += d * d;
            size[a] += e[a];
            lo[a] = c[a] < lo[a] ? c[a] : lo[a];
            hi[a] = c[a] > hi[a] ? c[a] : hi[a];
        }
    }
    double var[3];
    for (int a = 0; a < 3; a++)
        var[a] = used ? sq[a] - sum[a] * sum[a] / (double)used : 0.0;
    /* Axes by variance, largest first; ties keep the lower axis first. */
    int *ax = plan->axis;
    ax[0] = 0, ax[1] = 1, ax[2] = 2;
    for (int i = 1; i < 3; i++)
        for (int j = i; j > 0 && var[ax[j]] > var[ax[j - 1]]; j--) {
            int t = ax[j];
            ax[j] = ax[j - 1];
            ax[j - 1] = t;
        }

    int a1 = ax[1];
    double span = used ? BAND_SPAN * size[a1] / (double)used : 0.0;
    double bands = span > 0.0 ? floor((hi[a1] - lo[a1]) / span) : 1.0;
    double most = (double)(n / MIN_BAND_BOXES);
    if (bands > most)
        bands = most;
    if (bands > MAX_BANDS)
        bands = MAX_BANDS;
    plan->bands = bands >= 2.0 ? (int)bands : 1;
    plan->edge[0] = -INFINITY;
    plan->lo = lo[a1];
    plan->width = (hi[a1] - lo[a1]) / plan->bands;
    plan->inv_width = 1.0 / plan->width;
    for (int k = 1; k < plan->bands; k++)
        plan->edge[k] = (float)(plan->lo + plan->width * k);
    plan->edge[plan->bands] = NAN;
}

/* Sentinel-padded size of a band of c boxes: at least one sentinel, up to
 * a multiple of GJKB_PACK_ALIGN (which every width divides). */
static inline uint32_t band_padded(uint32_t c)
{
    return (c + GJKB_PACK_ALIGN) & ~(uint32_t)(GJKB_PACK_ALIGN - 1);
}

/* The sort runs in at most this many parts: each part of the deal merges
 * the sorted runs of all of them, a compare per run per box. */
#define MAX_SORT_PARTS 16

/* One part of the sort: a range of the boxes, keyed and sorted on its own
 * (a run), then a range of the merged order dealt into the bands. */
struct sort_part {
    /* digit counts of this part's items, one row per radix pass (the top
     * digit has RADIX / 2 values) */
    uint32_t count[3][RADIX];
    /* the top digit's counts in four interleaved copies: boxes of one scene
     * share a few top digits, and one counter would chain every increment */
    uint32_t top[4][RADIX / 2];
    /* boxes per band, +1 where a box's bands start and -1 past where they
     * end: of the part's boxes, then of its range of the merged order */
    int32_t band[MAX_BANDS + 1];
    /* the part's items (key << 32 | box index), m of them: at item[0] +
     * first after the key pass, sorted at run */
    uint32_t first, m;
    const uint64_t *run;
};

/* Scratch for `parts` parts (nothing in it is kept between calls). */
static bool sort_parts_reserve(struct gjkb__broad *st, int parts)
{
    if (parts <= st->sort_parts)
        return true;
    size_t bytes = (sizeof(struct sort_part) * (size_t)parts + 63u) & ~(size_t)63u;
    struct sort_part *sp = aligned_alloc(64, bytes);
    if (!sp)
        return false;
    free(st->sort_part);
    st->sort_part = sp;
    st->sort_parts = parts;
    return true;
}

/* What the threads of one sort share: read-only but for the fields the
 * join (sort_join, on one thread between barriers) fills in. */
typedef struct sort_job {
    struct gjkb__broad *st;
    const gjkb__broad_kernel *k;
    const float *b[6];
    const uint8_t *flags;            /* NULL: no static bits on the ids */
    sweep_plan plan;
    uint32_t n, width;
    /* from the join */
    uint32_t m;                      /* boxes kept */
    bool ok;                         /* the sorted blocks have room */
    uint32_t count[MAX_BANDS];       /* boxes per band */
    uint32_t start[MAX_BANDS + 1];   /* where each band starts */
} sort_job;

/* The key pass over boxes [first, end) into part sp: the kernel's keys and
 * band ranges (into the part's place in item[1], free until the radix
 * sort), then each box's range into st->range and, for the boxes kept, in
 * box order, an item and its digit and band counts. */
static void key_part(const sort_job *job, struct sort_part *sp, uint32_t first, uint32_t end)
{
    struct gjkb__broad *st = job->st;
    const sweep_plan *plan = &job->plan;
    const gjkb__keyplan kp = { .box = { job->b[0], job->b[1], job->b[2], job->b[3], job->b[4], job->b[5] },
                               .axis0 = plan->axis[0], .axis1 = plan->axis[1], .bands = plan->bands,
                               .edge = plan->edge, .guess_lo = (float)plan->lo,
                               .guess_scale = (float)plan->inv_width };
    uint32_t n = end - first;
    uint32_t *keys = (uint32_t *)(void *)(st->item[1] + first), *ranges = keys + n;
    job->k->keys(&kp, first, end, keys, ranges);
    uint64_t *item = st->item[0] + first;
    uint16_t *range = st->range + first;
    memset(sp->count[0], 0, sizeof sp->count[0]);
    memset(sp->count[1], 0, sizeof sp->count[1]);
    memset(sp->top, 0, sizeof sp->top);
    memset(sp->band, 0, sizeof sp->band);
    uint32_t m = 0;
    for (uint32_t q = 0; q < n; q++) {
        uint32_t r = ranges[q];
        range[q] = (uint16_t)r;
        if (r == GJKB_EMPTY_BOX)
            continue;
        sp->band[r & 0xFFu]++;
        sp->band[(r >> 8) + 1]--;
        uint32_t key = keys[q];
        sp->count[0][key & (RADIX - 1)]++;
        sp->count[1][(key >> RADIX_BITS) & (RADIX - 1)]++;
        sp->top[m & 3][key >> (2 * RADIX_BITS)]++;
        item[m++] = (uint64_t)key << 32 | (first + q);
    }
    for (uint32_t d = 0; d < RADIX / 2; d++)
        sp->count[2][d] = sp->top[0][d] + sp->top[1][d] + sp->top[2][d] + sp->top[3][d];
    sp->first = first;
    sp->m = m;
}

/* Stable LSD radix sort of a part's items on their upper 32 bits (the key;
 * the box index below it rides along, one 8-byte move per item and pass),
 * with the digit counts of the key pass, between item[0] and item[1] at the
 * part's own place. A pass whose digit is the same for every item is
 * skipped. */
static void radix_part(struct gjkb__broad *st, struct sort_part *sp)
{
    uint64_t *from = st->item[0] + sp->first, *to = st->item[1] + sp->first;
    uint32_t m = sp->m;
    for (int pass = 0; pass < 3; pass++) {
        const uint32_t *h = sp->count[pass];
        int shift = 32 + pass * RADIX_BITS;
        if (m == 0 || h[(from[0] >> shift) & (RADIX - 1)] == m)
            continue;
        uint32_t at[RADIX], sum = 0, digits = pass == 2 ? RADIX / 2 : RADIX;
        for (uint32_t d = 0; d < digits; d++) {
            at[d] = sum;
            sum += h[d];
        }
        for (uint32_t i = 0; i < m; i++) {
            uint64_t x = from[i];
            to[at[(x >> shift) & (RADIX - 1)]++] = x;
        }
        uint64_t *t = from;
        from = to;
        to = t;
    }
    sp->run = from;
}

/* Between the key pass and the deal, on one thread: the boxes kept, the
 * band sizes and starts (sentinel-padded) and room for the sorted blocks. */
static void sort_join(sort_job *job, int parts)
{
    const struct sort_part *sp = job->st->sort_part;
    uint32_t m = 0;
    for (int u = 0; u < parts; u++)
        m += sp[u].m;
    job->m = m;
    int32_t in_band = 0;
    uint64_t total = 0;
    for (int k = 0; k < job->plan.bands; k++) {
        for (int u = 0; u < parts; u++)
            in_band += sp[u].band[k];
        job->count[k] = (uint32_t)in_band;
        job->start[k] = (uint32_t)total;
        total += band_padded((uint32_t)in_band);
    }
    job->ok = total <= UINT32_MAX && sorted_reserve(job->st, (uint32_t)total);
    job->start[job->plan.bands] = (uint32_t)total;
}

/* Items of a sorted run <= v, looked for in [lo, hi) (known to hold the
 * answer): a binary search. */
static uint32_t count_le(const uint64_t *run, uint32_t lo, uint32_t hi, uint64_t v)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (run[mid] <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How many of each run's items are among the r smallest of all the runs.
 * The items are all different (each has its box index), so that is the
 * count of each run's items <= the r-th smallest, v: found by bisecting
 * the 64-bit values, at most 64 steps, each run's bounds narrowing with
 * them. */
static void co_rank(const struct sort_part *sp, int parts, uint32_t r, uint32_t take[])
{
    uint32_t lo_at[MAX_SORT_PARTS], hi_at[MAX_SORT_PARTS];
    for (int u = 0; u < parts; u++) {
        lo_at[u] = 0;
        hi_at[u] = sp[u].m;
    }
    if (r > 0) {
        /* v in [lo, hi]; lo_at: each run's items < lo, hi_at: <= hi */
        uint64_t lo = 0, hi = UINT64_MAX;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            uint32_t at[MAX_SORT_PARTS], below = 0;
            for (int u = 0; u < parts; u++)
                below += at[u] = count_le(sp[u].run, lo_at[u], hi_at[u], mid);
            if (below >= r) {
                hi = mid;
                memcpy(hi_at, at, sizeof(uint32_t) * (size_t)parts);
            } else {
                lo = mid + 1;
                memcpy(lo_at, at, sizeof(uint32_t) * (size_t)parts);
            }
        }
    }
    for (int u = 0; u < parts; u++)
        take[u] = r > 0 ? hi_at[u] : 0;
}

/* Where the deal puts box indices: the sorted ids, per band the next
 * slot (the fill gathers the fields after). */
typedef struct dealer {
    uint32_t *sorted_id;
    const uint16_t *range;   /* NULL for one band */
    const uint8_t *flags;    /* NULL: no static bits */
    uint32_t fill[MAX_BANDS];
} dealer;

/* Box i's id (its index, with the static bit) into the next slot of each
 * band it touches. The first and last band are stored to without a branch
 * on whether they differ (for a box near an edge that is a coin toss):
 * when they are one band, the second store rewrites the first's slot. */
static inline void deal_box(dealer *d, uint32_t i)
{
    uint32_t id = i | (d->flags && (d->flags[i] & GJKB_BODY_STATIC) ? GJKB_SORTED_STATIC : 0u);
    if (!d->range) {
        d->sorted_id[d->fill[0]++] = id;
        return;
    }
    uint32_t range = d->range[i], k = range & 0xFFu, last = range >> 8;
    d->sorted_id[d->fill[k]++] = id;
    uint32_t at = d->fill[last] - (uint32_t)(last == k);
    d->sorted_id[at] = id;
    d->fill[last] = at + 1;
    for (k++; k < last; k++)
        d->sorted_id[d->fill[k]++] = id;
}

/* Part t's range of the merged order, [first[u], end[u]) of each run u,
 * dealt into the bands after the boxes of the parts before it; then, once
 * every part has dealt, part t fills its equal share of the sorted blocks
 * (fields and sentinels) through the kernel. */
static void deal_part(const sort_job *job, int t, int parts, const uint32_t first[], const uint32_t end[])
{
    struct gjkb__broad *st = job->st;
    const struct sort_part *sp = st->sort_part;
    const int bands = job->plan.bands;
    const int *ax = job->plan.axis;
    dealer d = { .sorted_id = st->sorted_id, .range = bands == 1 ? NULL : st->range, .flags = job->flags };
    for (int k = 0; k < bands; k++)
        d.fill[k] = job->start[k];
    for (int u = 0; u < t; u++) {
        int32_t in_band = 0;
        for (int k = 0; k < bands; k++)
            d.fill[k] += (uint32_t)(in_band += sp[u].band[k]);
    }
    if (parts == 1) {
        const uint64_t *run = sp[0].run;
        for (uint32_t r = 0; r < sp[0].m; r++)
            deal_box(&d, (uint32_t)run[r]);
    } else if (parts == 2) {
        /* Two runs: the lesser head each time without a branch, then the
         * rest of the one left. */
        const uint64_t *run0 = sp[0].run, *run1 = sp[1].run;
        uint32_t a = first[0], a_end = end[0], b = first[1], b_end = end[1];
        while (a < a_end && b < b_end) {
            uint64_t x = run0[a], y = run1[b];
            bool second = y < x;
            deal_box(&d, (uint32_t)(second ? y : x));
            a += !second;
            b += second;
        }
        for (; a < a_end; a++)
            deal_box(&d, (uint32_t)run0[a]);
        for (; b < b_end; b++)
            deal_box(&d, (uint32_t)run1[b]);
    } else {
        /* The least head each time (past a run's end: all ones, above
         * every item, as a box index is below 2^31). */
        uint64_t head[MAX_SORT_PARTS];
        uint32_t at[MAX_SORT_PARTS], left = 0;
        for (int u = 0; u < parts; u++) {
            at[u] = first[u];
            head[u] = at[u] < end[u] ? sp[u].run[at[u]] : UINT64_MAX;
            left += end[u] - first[u];
        }
        for (; left > 0; left--) {
            int u = 0;
            for (int v = 1; v < parts; v++)
                u = head[v] < head[u] ? v : u;
            deal_box(&d, (uint32_t)head[u]);
            uint32_t next = ++at[u];
            head[u] = next < end[u] ? sp[u].run[next] : UINT64_MAX;
        }
    }
    if (parts > 1) {
        GJKB_OMP(omp barrier)
    }
    const float *const src[GJKB_SORTED_FIELDS] = { job->b[ax[0]], job->b[3 + ax[0]], job->b[ax[1]],
                                                   job->b[3 + ax[1]], job->b[ax[2]], job->b[3 + ax[2]] };
    uint32_t blocks = job->start[bands] / job->width;
    uint32_t lo = split(blocks, t, parts) * job->width, hi = split(blocks, t + 1, parts) * job->width;
    for (int k = 0; k < bands; k++) {
        uint32_t a = job->start[k] > lo ? job->start[k] : lo, b = job->start[k + 1] < hi ? job->start[k + 1] : hi;
        uint32_t live = job->start[k] + job->count[k];
        live = live < a ? a : live > b ? b : live;
        if (a < b)
            job->k->fill(src, st->sorted, st->sorted_id, a, live, b);
    }
}

/* Part t of `parts` of the sort, on its own thread (every part reaches
 * the same barriers): the key pass over a range of the boxes and the radix
 * sort of its items, a run; the join; then the runs merged, each part
 * taking an equal range of the merged order (found in the runs by co_rank)
 * and dealing it after the boxes of the parts before it, which it knows
 * from their counts per band. Every item is (key, box index), all
 * different, so the merged order is the one order of the keys with ties in
 * box order, whatever the parts: the bands are the same for any split. */
static void sort_run(sort_job *job, int t, int parts)
{
    struct gjkb__broad *st = job->st;
    struct sort_part *sp = &st->sort_part[t];
    key_part(job, sp, split(job->n, t, parts), split(job->n, t + 1, parts));
    radix_part(st, sp);
    GJKB_OMP(omp barrier)
    GJKB_OMP(omp single)
    sort_join(job, parts);
    if (!job->ok)
        return;
    uint32_t first[MAX_SORT_PARTS], end[MAX_SORT_PARTS];
    if (parts > 1) {
        co_rank(st->sort_part, parts, split(job->m, t, parts), first);
        co_rank(st->sort_part, parts, split(job->m, t + 1, parts), end);
        /* the bands of this range, for the parts after it */
        memset(sp->band, 0, sizeof sp->band);
        if (job->plan.bands == 1) {
            for (int u = 0; u < parts; u++)
                sp->band[0] += (int32_t)(end[u] - first[u]);
        } else {
            for (int u = 0; u < parts; u++)
                for (uint32_t r = first[u]; r < end[u]; r++) {
                    uint32_t range = st->range[(uint32_t)st->sort_part[u].run[r]];
                    sp->band[range & 0xFFu]++;
                    sp->band[(range >> 8) + 1]--;
                }
        }
        GJKB_OMP(omp barrier)
    }
    deal_part(job, t, parts, first, end);
}

/* Threads in the current team (1 outside a parallel region). */
static int team_size(void)
{
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

/* The non-empty boxes sorted by min along the sweep axis (equal keys in box
 * order), then dealt into the bands they touch in that order, each band
 * copied into blocks of `width` boxes with NaN sentinels (st->band), the
 * ids of static bodies marked when flags are given, the classes (cls, by
 * box) handed on to the sweep; in parts across the threads (sort_run),
 * which gives the same bits. */
static gjkb_error sort_boxes(gjkb_context *ctx, struct gjkb__broad *st, const gjkb__broad_kernel *k,
                             const gjkb_aabbs *boxes, const uint8_t *flags, const uint32_t *cls)
{
    static const char *const oom = "gjkb_find_pairs: out of memory for %u boxes";
    uint32_t n = boxes->count;
    sort_job job = { .st = st,
                     .k = k,
                     .b = { boxes->min_x, boxes->min_y, boxes->min_z, boxes->max_x, boxes->max_y, boxes->max_z },
                     .flags = flags,
                     .n = n,
                     .width = (uint32_t)k->width };
    int threads = threads_for(ctx, n);
    threads = threads < MAX_SORT_PARTS ? threads : MAX_SORT_PARTS;
    if (!sort_reserve(st, n) || !sort_parts_reserve(st, threads))
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, oom, n);
    plan_sweep(job.b, n, &job.plan);
    if (threads == 1) {
        sort_run(&job, 0, 1);
    } else {
        /* The team may be smaller than asked for: its size is the parts. */
        GJKB_OMP(omp parallel num_threads(threads))
        sort_run(&job, gjkb__thread_id(), team_size());
    }
    if (!job.ok)
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, oom, n);
    for (int b = 0; b < job.plan.bands; b++) {
        gjkb__sorted *band = &st->band[b];
        band->count = job.count[b];
        band->box = st->sorted + (size_t)job.start[b] * GJKB_SORTED_FIELDS;
        band->id = st->sorted_id + job.start[b];
        band->cls = cls;
        band->band_lo = job.plan.edge[b];
    }
    st->bands = job.plan.bands;
    return GJKB_OK;
}

/* ---- the sweep -------------------------------------------------------------- */

/* The sweep into st->pairs, band by band: on the calling thread, or in
 * parts (ranges of a band's sorted boxes, each into its own buffer) joined
 * in part order, which is the order one thread produces. The join is
 * threaded too: each thread copies the parts it swept, which it still
 * has in its cache. */
static gjkb_error sweep(gjkb_context *ctx, struct gjkb__broad *st, const gjkb__broad_kernel *k)
{
    static const char *const oom = "gjkb_find_pairs: out of memory for the pairs (or more than 2^32 - 1)";
    st->pairs.count = 0;
    const bool info = st->bands > 0 && st->band[0].cls;
    uint32_t boxes = 0;
    for (int b = 0; b < st->bands; b++)
        boxes += st->band[b].count;
    int threads = threads_for(ctx, boxes);
    if (threads == 1) {
        for (int b = 0; b < st->bands; b++)
            if (!k->sweep(&st->band[b], 0, st->band[b].count, &st->pairs))
                return gjkb__fail(ctx, GJKB_ERR_MEMORY, "%s", oom);
        return GJKB_OK;
    }

    /* Parts of about equal size; every band at least one. */
    int want = threads * PARTS_PER_THREAD;
    if (!parts_reserve(st, want + st->bands))
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "%s", oom);
    int parts = 0;
    for (int b = 0; b < st->bands; b++) {
        uint32_t c = st->band[b].count;
        int pieces = (int)((uint64_t)c * (uint64_t)want / boxes);
        pieces = pieces < 1 ? 1 : pieces;
        for (int q = 0; q < pieces; q++, parts++)
            st->part_range[parts] = (struct sweep_part){ .band = (uint32_t)b, .first = split(c, q, pieces),
                                                         .end = split(c, q + 1, pieces) };
    }
    bool ok = true;
    GJKB_OMP(omp parallel num_threads(threads))
    {
        uint32_t t = (uint32_t)gjkb__thread_id();
        GJKB_OMP(omp for schedule(dynamic, 1))
        for (int p = 0; p < parts; p++) {
            struct sweep_part *r = &st->part_range[p];
            st->part[p].count = 0;
            st->part_ok[p] = k->sweep(&st->band[r->band], r->first, r->end, &st->part[p]);
            r->thread = t;
        }
        GJKB_OMP(omp single)
        {
            uint64_t total = 0;
            for (int p = 0; p < parts; p++) {
                ok = ok && st->part_ok[p];
                st->part_range[p].at = (uint32_t)total;
                total += st->part[p].count;
            }
            ok = ok && total <= UINT32_MAX && gjkb__pairbuf_reserve(&st->pairs, (uint32_t)total);
            st->pairs.count = ok ? (uint32_t)total : 0;
        }
        for (int p = 0; ok && p < parts; p++) {
            const struct sweep_part *r = &st->part_range[p];
            const gjkb__pairbuf *q = &st->part[p];
            if (r->thread != t || q->count == 0)
                continue;
            memcpy(st->pairs.a + r->at, q->a, sizeof(uint32_t) * q->count);
            memcpy(st->pairs.b + r->at, q->b, sizeof(uint32_t) * q->count);
            if (info)
                memcpy(st->pairs.info + r->at, q->info, sizeof(uint32_t) * q->count);
        }
    }
    if (!ok)
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "%s", oom);
    return GJKB_OK;
}

/* gjkb_step's pairs grouped by their info's key, each group in the sweep's
 * order (a stable counting sort, on one thread: so the same order for
 * every thread count). The narrowphase buckets pairs by that key, so its
 * order then runs through the pairs in turn and the results go out in
 * whole runs; scattered back to the sweep's order, a contact manifold's
 * arrays cost a cache miss each per pair (docs/performance.md). */
static bool group_by_key(struct gjkb__broad *st)
{
    gjkb__pairbuf *in = &st->pairs, *out = &st->grouped;
    uint32_t n = in->count, at[GJKB_KEYS] = { 0 };
    out->count = 0;
    if (!gjkb__pairbuf_reserve(out, n))
        return false;
    for (uint32_t i = 0; i < n; i++)
        at[gjkb__info_key(in->info[i])]++;
    uint32_t sum = 0;
    for (int k = 0; k < GJKB_KEYS; k++) {
        uint32_t c = at[k];
        at[k] = sum;
        sum += c;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = in->info[i], j = at[gjkb__info_key(x)]++;
        out->a[j] = in->a[i];
        out->b[j] = in->b[i];
        out->info[j] = x;
    }
    out->count = n;
    gjkb__pairbuf t = *in;
    *in = *out;
    *out = t;
    return true;
}

/* The caller's filter, on the calling thread, in pair order (the info
 * kept with its pair when there is one). */
static void filter_pairs(gjkb__pairbuf *pairs, const gjkb_broadphase_options *opt, bool info)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < pairs->count; i++) {
        uint32_t a = pairs->a[i], b = pairs->b[i];
        if (opt->filter(opt->user, a, b)) {
            if (info)
                pairs->info[kept] = pairs->info[i];
            pairs->a[kept] = a;
            pairs->b[kept++] = b;
        }
    }
    pairs->count = kept;
}

gjkb_error gjkb__find_pairs(gjkb_context *ctx, const gjkb_aabbs *boxes, const gjkb_broadphase_options *opt,
                            const uint32_t *cls, gjkb_pairs *out, const uint32_t **info, double seconds[2])
{
    uint32_t n = boxes->count;
    if (n > INT32_MAX)
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "gjkb_find_pairs: %u boxes: at most %d per call", n, INT32_MAX);
    if (n > 0 && (!boxes->min_x || !boxes->min_y || !boxes->min_z || !boxes->max_x || !boxes->max_y ||
                  !boxes->max_z))
        return gjkb__fail(ctx, GJKB_ERR_NULL, "gjkb_find_pairs: a box array is NULL");
    gjkb_error e;
    const gjkb__broad_kernel *k = kernel_of(ctx, &e);
    if (!k)
        return e;
    struct gjkb__broad *st = broad_get(ctx);
    if (!st)
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "gjkb_find_pairs: out of memory");

    st->pairs_info = false;
    double t0 = gjkb__now();
    e = sort_boxes(ctx, st, k, boxes, opt ? opt->flags : NULL, cls);
    if (e != GJKB_OK)
        return e;
    double t1 = gjkb__now();
    e = sweep(ctx, st, k);
    if (e != GJKB_OK)
        return e;
    if (opt && opt->filter)
        filter_pairs(&st->pairs, opt, cls != NULL);
    if (cls && !group_by_key(st))
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "gjkb_step: out of memory for %u pairs", st->pairs.count);
    st->pairs_info = cls != NULL;
    double t2 = gjkb__now();

    out->count = st->pairs.count;
    out->a = st->pairs.a;
    out->b = st->pairs.b;
    *info = cls ? st->pairs.info : NULL;
    seconds[0] = t1 - t0;
    seconds[1] = t2 - t1;
    ctx->message[0] = '\0';
    return GJKB_OK;
}

gjkb_error gjkb_find_pairs(gjkb_context *ctx, const gjkb_aabbs *boxes, const gjkb_broadphase_options *opt,
                           gjkb_pairs *out)
{
    if (!ctx)
        return GJKB_ERR_NULL;
    if (!boxes || !out)
        return gjkb__fail(ctx, GJKB_ERR_NULL, "gjkb_find_pairs: NULL %s", !boxes ? "boxes" : "out");
    double seconds[2];
    const uint32_t *info;
    return gjkb__find_pairs(ctx, boxes, opt, NULL, out, &info, seconds);
}

const uint32_t *gjkb__step_info(const gjkb_context *ctx)
{
    return ctx->broad && ctx->broad->pairs_info ? ctx->broad->pairs.info : NULL;
}
