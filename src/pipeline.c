/* pipeline.c - the batch path of the wide kernels: bucket pairs so that
 * bundles hold alike work, run the kernel on chunks of that order (it
 * gathers, validates, transforms and runs GJK in its lanes), and scatter
 * results back in pair order (the kernel's scatter: scatter.h).
 *
 * Everything here is width-agnostic and compiled once for the baseline
 * target, so every backend sees exactly the same inputs. */
#include "pipeline.h"
#include "dispatch.h"
#include "query.h"
#include "scatter.h"
#include "scalar/reference.h"
#include "shape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Lanes per chunk: small enough that the chunk's arrays stay in L1/L2. */
#define CHUNK 256
_Static_assert(CHUNK <= GJKB_SCATTER_LANES, "a kernel's scatter takes a chunk");
/* A thread takes at least this many chunks, so that the chunks left at
 * the end (the dynamic schedule's tail) are few against its share. */
#define MIN_CHUNKS_PER_THREAD 4

/* ---- scratch ------------------------------------------------------------ */

typedef struct scratch {
    gjkb__lanes lanes;
    void *block;           /* one aligned block behind the lane arrays */
    uint32_t *order;       /* pair indices, bucketed */
    uint8_t *keys;         /* their bucket keys */
    int32_t *kind_a, *kind_b;   /* per pair: the checked kinds */
    /* Per position of the order, what the kernels load (gjkb__world's
     * lane_* arrays, LANE_INPUTS of them), in one aligned block. */
    void *lane_block;
    int32_t *la, *lb, *lka, *lkb;
    float *ldx, *ldy, *ldz;
    float *lwx, *lwy, *lwz;    /* written only when the batch has warm axes */
    uint32_t order_cap;
    /* per body: its record (gjkb__world.records), when the batch uses them */
    float *records;
    uint32_t records_cap;
    /* Lanes of threads 1, 2, ... of a threaded batch (thread 0 has lanes):
     * every thread packs and runs its own chunks. */
    gjkb__lanes *more;
    void **more_block;
    int more_count;
} scratch;

/* The lane inputs of each position of the order: la, lb, lka, lkb (int32)
 * and ldx, ldy, ldz, lwx, lwy, lwz (float). */
enum { LANE_INTS = 4, LANE_FLOATS = 6, LANE_INPUTS = LANE_INTS + LANE_FLOATS };
_Static_assert(sizeof(int32_t) == sizeof(float), "the lane inputs are slices of one block");
/* Scratch bytes per pair: its order, kind_a and kind_b entries, its lane
 * inputs, and its key byte. */
#define PAIR_SCRATCH_BYTES ((3 + LANE_INPUTS) * sizeof(uint32_t) + sizeof(uint8_t))

/* The lane arrays of gjkb__lanes, all 4-byte elements, in one list: the
 * answer's, then the manifold's count, points and keys, then the final
 * simplex the contact loops hand to the depth solver. */
static void **lane_array(gjkb__lanes *l, int i)
{
    void **fields[] = {
        (void **)&l->status, (void **)&l->iterations, (void **)&l->dist,
        (void **)&l->ax, (void **)&l->ay, (void **)&l->az, (void **)&l->bx, (void **)&l->by, (void **)&l->bz,
        (void **)&l->nx, (void **)&l->ny, (void **)&l->nz, (void **)&l->mcount,
    };
    enum { ANSWER = sizeof fields / sizeof fields[0], POINTS = GJKB_MAX_CONTACTS * GJKB_K_POINT_FIELDS };
    if (i < ANSWER)
        return fields[i];
    i -= ANSWER;
    if (i < POINTS)
        return (void **)&l->mpt[i / GJKB_K_POINT_FIELDS][i % GJKB_K_POINT_FIELDS];
    i -= POINTS;
    if (i < GJKB_MAX_CONTACTS)
        return (void **)&l->mkey[i];
    i -= GJKB_MAX_CONTACTS;
    return i < GJKB_K_FINAL_FIELDS ? (void **)&l->fin[i] : NULL;
}

/* One aligned block behind a chunk's lane arrays, with the thread's step
 * counts on a cache line of their own at its end; returns its size, 0 when
 * out of memory. */
static size_t lanes_alloc(gjkb__lanes *l, void **block)
{
    int n = 0;
    while (lane_array(l, n))
        n++;
    size_t bytes = (size_t)CHUNK * 4;   /* a multiple of 64 */
    size_t total = bytes * (size_t)n + 64;
    *block = aligned_alloc(64, total);
    if (!*block)
        return 0;
    memset(*block, 0, total);
    for (int i = 0; i < n; i++)
        *lane_array(l, i) = (char *)*block + bytes * (size_t)i;
    l->counts = (gjkb__counts *)(void *)((char *)*block + bytes * (size_t)n);
    return total;
}

static scratch *scratch_get(gjkb_context *ctx)
{
    if (ctx->scratch)
        return ctx->scratch;
    scratch *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t bytes = lanes_alloc(&s->lanes, &s->block);
    if (!bytes) {
        free(s);
        return NULL;
    }
    ctx->scratch = s;
    ctx->scratch_bytes = bytes;
    return s;
}

/* Lanes for `threads` threads in all. */
static bool scratch_threads(gjkb_context *ctx, scratch *s, int threads)
{
    int need = threads - 1;
    if (need <= s->more_count)
        return true;
    gjkb__lanes *more = realloc(s->more, sizeof *more * (size_t)need);
    if (!more)
        return false;
    s->more = more;
    void **blocks = realloc(s->more_block, sizeof *blocks * (size_t)need);
    if (!blocks)
        return false;
    s->more_block = blocks;
    while (s->more_count < need) {
        size_t bytes = lanes_alloc(&s->more[s->more_count], &s->more_block[s->more_count]);
        if (!bytes)
            return false;
        ctx->scratch_bytes += bytes;
        s->more_count++;
    }
    return true;
}

gjkb_error gjkb__scratch_reserve(gjkb_context *ctx, uint32_t pairs)
{
    scratch *s = scratch_get(ctx);
    if (!s)
        return GJKB_ERR_MEMORY;
    if (pairs > s->order_cap) {
        /* Aligned for the kernels' loads, and padded to a whole bundle. */
        size_t n = ((size_t)pairs + GJKB_PACK_ALIGN - 1) / GJKB_PACK_ALIGN * GJKB_PACK_ALIGN;
        uint32_t *o = aligned_alloc(64, n * sizeof(uint32_t));
        uint8_t *k = malloc(n);
        int32_t *ka = malloc(n * sizeof(int32_t)), *kb = malloc(n * sizeof(int32_t));
        /* n is a multiple of 16: slices stay 64-byte aligned */
        char *lanes = aligned_alloc(64, LANE_INPUTS * n * sizeof(int32_t));
        if (!o || !k || !ka || !kb || !lanes) {
            free(o);
            free(k);
            free(ka);
            free(kb);
            free(lanes);
            return GJKB_ERR_MEMORY;
        }
        ctx->scratch_bytes += PAIR_SCRATCH_BYTES * (n - s->order_cap);
        free(s->order);
        free(s->keys);
        free(s->kind_a);
        free(s->kind_b);
        free(s->lane_block);
        s->order = o;
        s->keys = k;
        s->kind_a = ka;
        s->kind_b = kb;
        s->lane_block = lanes;
        int32_t **ints[LANE_INTS] = { &s->la, &s->lb, &s->lka, &s->lkb };
        float **floats[LANE_FLOATS] = { &s->ldx, &s->ldy, &s->ldz, &s->lwx, &s->lwy, &s->lwz };
        const size_t slice = n * sizeof(int32_t);
        for (int i = 0; i < LANE_INTS; i++)
            *ints[i] = (int32_t *)(void *)(lanes + (size_t)i * slice);
        for (int i = 0; i < LANE_FLOATS; i++)
            *floats[i] = (float *)(void *)(lanes + (size_t)(LANE_INTS + i) * slice);
        s->order_cap = (uint32_t)n;
    }
    return GJKB_OK;
}

void gjkb__scratch_free(gjkb_context *ctx)
{
    scratch *s = ctx->scratch;
    if (!s)
        return;
    free(s->block);
    free(s->order);
    free(s->keys);
    free(s->kind_a);
    free(s->kind_b);
    free(s->lane_block);
    free(s->records);
    for (int t = 0; t < s->more_count; t++)
        free(s->more_block[t]);
    free(s->more);
    free(s->more_block);
    free(s);
    ctx->scratch = NULL;
}

/* ---- bucketing ---------------------------------------------------------- */

/* Sort keys: see src/pairkey.h. */
#define KEYS GJKB_KEYS

/* The pairs in parts, one per thread: each part's keys, its counts per key
 * and then its place in the order are its own, and the parts join in pair
 * order, so any split gives the same order, the same bundles and so the
 * same step counts. */
#define MAX_PARTS 16
/* Below this many pairs per part, fewer parts: a part's key pass should
 * outlast the barrier that joins the parts (8192 pairs is 32 chunks; the
 * value is a round guess, not a measured optimum). MAX_PARTS bounds the
 * join's work (GJKB_KEYS counts per part) and the parts' stack array. */
#define MIN_PART_PAIRS 8192u

typedef struct key_part {
    uint32_t first, end;
    /* keys and kinds are stored for the part's first pair and from here
     * on; the pairs between, placed while the keys came sorted, have them
     * made again should the parts need sorting after all */
    uint32_t stored_from;
    int key0, key_end;       /* the part's first and last keys (-1: no pairs) */
    bool ok, sorted;         /* every pair valid; no key below the one before */
    uint32_t at[KEYS];       /* counts, then where the part's pairs of each key go */
} key_part;

/* Where put_lane writes: the scratch's lane arrays, copied to locals so
 * that the key pass's byte stores (which may alias anything) do not make
 * every lane store reload its array. */
typedef struct lane_out {
    uint32_t *order;
    int32_t *a, *b, *ka, *kb;
    float *dx, *dy, *dz, *wx, *wy, *wz;
} lane_out;

static inline lane_out lane_out_of(const scratch *s)
{
    return (lane_out){ s->order, s->la, s->lb, s->lka, s->lkb, s->ldx, s->ldy, s->ldz, s->lwx, s->lwy, s->lwz };
}

/* Pair i (bodies a, b) at position `at` of the order, with what the
 * kernels load there: its bodies, kinds, B's offset from A and its warm
 * axis, if any (in double, rounded once here, so every backend reads the
 * same floats; read here in pair order, where the kernels would read them
 * at random). */
static inline void put_lane(lane_out o, uint32_t at, uint32_t i, uint32_t a, uint32_t b, const gjkb_bodies *bd,
                            const gjkb_query *warm, int32_t ka, int32_t kb)
{
    o.order[at] = i;
    o.a[at] = (int32_t)a;
    o.b[at] = (int32_t)b;
    o.ka[at] = ka;
    o.kb[at] = kb;
    o.dx[at] = (float)(bd->px[b] - bd->px[a]);
    o.dy[at] = (float)(bd->py[b] - bd->py[a]);
    o.dz[at] = (float)(bd->pz[b] - bd->pz[a]);
    if (warm) {
        o.wx[at] = (float)warm->warm_x[i];
        o.wy[at] = (float)warm->warm_y[i];
        o.wz[at] = (float)warm->warm_z[i];
    }
}

/* A part's key pass done: its counts (from four interleaved counters: runs
 * of one key would otherwise chain every increment through memory), its
 * first and last keys and whether they came sorted. */
static void part_counts(key_part *part, uint32_t count[4][KEYS], int first, int last, bool sorted)
{
    for (int k = 0; k < KEYS; k++)
        part->at[k] = count[0][k] + count[1][k] + count[2][k] + count[3][k];
    part->key0 = first;
    part->key_end = last;
    part->sorted = sorted;
    part->ok = true;
}

/* What the key pass reads, in locals: the byte stores to keys may alias
 * anything, and would make every read of a field through a pointer a
 * reload. */
typedef struct key_env {
    uint32_t bodies, hulls;
    const uint32_t *hull;
    const uint8_t *kind;
    const int32_t *hull_n;
} key_env;

static key_env key_env_of(const gjkb_context *ctx, const gjkb_bodies *bd)
{
    static const int32_t no_hulls = 0;
    return (key_env){ bd->count, ctx->hull_count, bd->hull, bd->kind, ctx->hull_count ? ctx->hull_n : &no_hulls };
}

/* The key of the pair of bodies ia, ib and their kinds, checking the pair
 * on the way (gjkb__check_pairs' rule, so that bodies are read once): -1
 * where it fails. A batch without hulls skips their lookups (the one
 * branch on the kinds, always the same way there; the hull's kinds are
 * looked at again in it, so that the key of the others needs no more than
 * that branch; without it, slower). */
static inline int key_of(key_env e, uint32_t ia, uint32_t ib, unsigned *ka, unsigned *kb)
{
    if (ia >= e.bodies || ib >= e.bodies)
        return -1;
    *ka = e.kind[ia], *kb = e.kind[ib];
    if (*ka >= GJKB_KIND_COUNT || *kb >= GJKB_KIND_COUNT)
        return -1;
    if (!gjkb__any_hull(*ka, *kb))
        return (int)gjkb__analytic_key(*ka, *kb);
    bool ha = *ka == GJKB_HULL, hb = *kb == GJKB_HULL;
    uint32_t ida = e.hull ? e.hull[ia] : 0, idb = e.hull ? e.hull[ib] : 0;
    if ((ha & (!e.hull | (ida >= e.hulls))) | (hb & (!e.hull | (idb >= e.hulls))))
        return -1;
    int32_t na = e.hull_n[ha ? ida : 0], nb = e.hull_n[hb ? idb : 0];
    return (int)gjkb__hull_key(ha ? gjkb__hull_class(na) : 0, hb ? gjkb__hull_class(nb) : 0);
}

/* The keys and kinds of the part's pairs and its counts per key: not ok at
 * the first pair that fails. While the keys come sorted each pair goes to
 * its lane at once, where the order will be the identity (bucket_join): a
 * one-kind batch, or one the caller sorted, reads its pairs once; the
 * rest of an unsorted part runs the plain loop. */
static void pair_keys(const gjkb_context *ctx, const gjkb_bodies *bd, const gjkb_pairs *pr, const gjkb_query *warm,
                      const scratch *s, key_part *part)
{
    const key_env e = key_env_of(ctx, bd);
    const lane_out lo = lane_out_of(s);
    uint8_t *const keys = s->keys;
    int32_t *const kind_a = s->kind_a, *const kind_b = s->kind_b;
    const uint32_t *const a = pr->a, *const b = pr->b, start = part->first, end = part->end;
    /* four interleaved counters: runs of one key would otherwise chain
     * every increment through memory */
    uint32_t count[4][KEYS] = { { 0 } };
    int first = -1, last = -1;
    bool sorted = true;
    unsigned ka, kb;
    part->ok = false;
    uint32_t i = start;
    for (; i < end && sorted; i++) {
        int key = key_of(e, a[i], b[i], &ka, &kb);
        if (key < 0)
            return;
        count[i & 3][key]++;
        first = i == start ? key : first;
        sorted = key >= last;
        last = key;
        if (sorted)
            put_lane(lo, i, i, a[i], b[i], bd, warm, (int32_t)ka, (int32_t)kb);
        if (!sorted || i == start) {
            kind_a[i] = (int32_t)ka;
            kind_b[i] = (int32_t)kb;
            keys[i] = (uint8_t)key;
        }
    }
    part->stored_from = sorted ? end : i - 1;
    for (; i < end; i++) {
        int key = key_of(e, a[i], b[i], &ka, &kb);
        if (key < 0)
            return;
        kind_a[i] = (int32_t)ka;
        kind_b[i] = (int32_t)kb;
        keys[i] = (uint8_t)key;
        count[i & 3][key]++;
        last = key;
    }
    part_counts(part, count, first, last, sorted);
}

/* Where part p of n items in `parts` parts starts. */
static inline uint32_t split(uint32_t n, int p, int parts)
{
    return (uint32_t)((uint64_t)n * (uint64_t)p / (uint64_t)parts);
}

/* gjkb_step's key pass: the keys come with the pairs (gjkb__pair_info,
 * made in the sweep), so only the counts are left, and the lanes while
 * the keys come sorted (as gjkb_step groups them). */
static void info_keys(const uint32_t *info, const gjkb_pairs *pr, const gjkb_bodies *bd, const gjkb_query *warm,
                      const scratch *s, key_part *part)
{
    part->stored_from = part->first;
    const lane_out lo = lane_out_of(s);
    uint32_t count[4][KEYS] = { { 0 } };
    int first = -1, last = -1;
    bool sorted = true;
    for (uint32_t i = part->first, end = part->end; i < end; i++) {
        uint32_t x = info[i];
        int key = (int)gjkb__info_key(x);
        count[i & 3][key]++;
        first = first < 0 ? key : first;
        sorted = sorted && key >= last;
        last = key;
        if (sorted)
            put_lane(lo, i, i, pr->a[i], pr->b[i], bd, warm, gjkb__info_kind_a(x), gjkb__info_kind_b(x));
    }
    part_counts(part, count, first, last, sorted);
}

/* The parts of n pairs for `threads` threads. */
static int bucket_parts(uint32_t n, int threads, key_part part[MAX_PARTS])
{
    int parts = threads < MAX_PARTS ? threads : MAX_PARTS;
    if ((uint32_t)parts > n / MIN_PART_PAIRS)
        parts = n / MIN_PART_PAIRS > 1 ? (int)(n / MIN_PART_PAIRS) : 1;
    for (int p = 0; p < parts; p++) {
        part[p].first = split(n, p, parts);
        part[p].end = split(n, p + 1, parts);
    }
    return parts;
}

/* Pair i's kinds: from its info where the sweep made it, else from the
 * key pass. */
static inline int32_t kind_a_of(const scratch *s, const uint32_t *info, uint32_t i)
{
    return info ? gjkb__info_kind_a(info[i]) : s->kind_a[i];
}
static inline int32_t kind_b_of(const scratch *s, const uint32_t *info, uint32_t i)
{
    return info ? gjkb__info_kind_b(info[i]) : s->kind_b[i];
}

/* How the pairs go into the order, decided between the key pass and the
 * placing. */
typedef enum bucket_plan {
    BUCKET_INVALID,    /* a pair is invalid: no order (the error is worded after) */
    BUCKET_IDENTITY,   /* the keys come sorted: the order is the identity, every lane placed */
    BUCKET_BY_KEY      /* the parts' counts became where their pairs go, key by key, part by part */
} bucket_plan;

/* Whether the parts' keys come sorted from the first pair to the last:
 * then the stable counting sort leaves every pair where it is, and the
 * key passes have placed every lane already. */
static bool parts_sorted(const key_part part[], int parts)
{
    int last = -1;
    for (int p = 0; p < parts; p++) {
        if (!part[p].sorted || (part[p].key0 >= 0 && part[p].key0 < last))
            return false;
        last = part[p].key_end >= 0 ? part[p].key_end : last;
    }
    return true;
}

/* Between the key pass and the placing, on one thread: the plan, the
 * parts' counts turned into places for BUCKET_BY_KEY. The tail up to a
 * whole bundle repeats pair 0, which the kernels read but never answer. */
static bucket_plan bucket_join(const scratch *s, key_part part[], int parts, uint32_t n, const gjkb_pairs *pr,
                               const gjkb_bodies *bd, const gjkb_query *warm, const uint32_t *info)
{
    for (int p = 0; p < parts; p++)
        if (!part[p].ok)
            return BUCKET_INVALID;
    for (uint32_t i = n; i % GJKB_PACK_ALIGN; i++)
        put_lane(lane_out_of(s), i, 0, pr->a[0], pr->b[0], bd, warm, kind_a_of(s, info, 0), kind_b_of(s, info, 0));
    if (parts_sorted(part, parts))
        return BUCKET_IDENTITY;
    uint32_t sum = 0;
    for (int k = 0; k < KEYS; k++)
        for (int p = 0; p < parts; p++) {
            uint32_t c = part[p].at[k];
            part[p].at[k] = sum;
            sum += c;
        }
    return BUCKET_BY_KEY;
}

/* The part's pairs into the order by key (counting sort: stable, so
 * deterministic); the identity needs nothing more (the key pass placed
 * them). */
static void part_place(const gjkb_context *ctx, const scratch *s, key_part *part, bucket_plan plan,
                       const gjkb_pairs *pr, const gjkb_bodies *bd, const gjkb_query *warm, const uint32_t *info)
{
    const uint8_t *const keys = s->keys;
    const lane_out lo = lane_out_of(s);
    if (plan == BUCKET_IDENTITY)
        return;
    /* The next positions in a local array: the lane stores could alias
     * part->at, and its every increment would go through memory again. */
    uint32_t at[KEYS];
    memcpy(at, part->at, sizeof at);
    if (info) {
        for (uint32_t i = part->first; i < part->end; i++) {
            uint32_t x = info[i];
            put_lane(lo, at[gjkb__info_key(x)]++, i, pr->a[i], pr->b[i], bd, warm, gjkb__info_kind_a(x),
                     gjkb__info_kind_b(x));
        }
        return;
    }
    const key_env e = key_env_of(ctx, bd);
    for (uint32_t i = part->first; i < part->end; i++) {
        unsigned ka = 0, kb = 0;
        int key;
        if (i > part->first && i < part->stored_from)
            key = key_of(e, pr->a[i], pr->b[i], &ka, &kb);   /* valid: the key pass saw it */
        else
            key = keys[i], ka = (unsigned)s->kind_a[i], kb = (unsigned)s->kind_b[i];
        put_lane(lo, at[key]++, i, pr->a[i], pr->b[i], bd, warm, (int32_t)ka, (int32_t)kb);
    }
}

/* ---- body records -------------------------------------------------------- */

/* Records pay when bodies recur: below this many pairs per body, or at
 * width 1 (where a gather is a load), the kernels read the caller's arrays
 * instead (measurements: docs/performance.md, "Constants in the code"). */
#define RECORDS_FROM 1.0
/* Threads build the records each for itself while all the copies take at
 * most this many bytes: the kernels read records at random, and a record
 * written on another core is a cache line to fetch from there (measured:
 * docs/performance.md). Past it, one shared copy bounds the memory. */
#define RECORD_COPIES_BYTES (32u << 20)

/* ---- answers past the caches -------------------------------------------- */

/* From this many bytes of answers a call writes its runs of doubles with
 * non-temporal stores: answers that outgrow the caches cost a read of
 * every line they fill, unless the stores skip it (measured:
 * docs/performance.md, "Constants in the code"). */
#ifndef GJKB_STREAM_BYTES
#define GJKB_STREAM_BYTES (4u << 20)
#endif

/* The bytes a pair's answers take in the arrays r gives. */
static uint64_t answer_bytes(const gjkb_results *r, gjkb_mode mode)
{
    const void *const d8[] = { r->distance, r->ax, r->ay, r->az, r->bx, r->by, r->bz, r->nx, r->ny, r->nz };
    uint64_t n = 1 + (r->iterations ? 4 : 0);
    for (size_t i = 0; i < sizeof d8 / sizeof d8[0]; i++)
        n += d8[i] ? 8 : 0;
    const gjkb_manifolds *m = &r->manifold;
    if (mode != GJKB_CONTACT || !m->count)
        return n;
    const void *const pt[] = { m->ax, m->ay, m->az, m->bx, m->by, m->bz, m->separation };
    for (size_t i = 0; i < sizeof pt / sizeof pt[0]; i++)
        n += pt[i] ? 8 * GJKB_MAX_CONTACTS : 0;
    return n + 1 + (m->feature ? 4 * GJKB_MAX_CONTACTS : 0);
}

static bool records_reserve(gjkb_context *ctx, scratch *s, uint32_t n)
{
    if (n <= s->records_cap)
        return true;
    float *r = aligned_alloc(64, (size_t)n * GJKB_BODY_RECORD * sizeof(float));
    if (!r)
        return false;
    free(s->records);
    s->records = r;
    ctx->scratch_bytes += (size_t)(n - s->records_cap) * GJKB_BODY_RECORD * sizeof(float);
    s->records_cap = n;
    return true;
}

/* ---- per chunk ---------------------------------------------------------- */

/* A lane the kernel could not settle in float: the pair's answer comes
 * from the double-precision reference instead. */
static void scatter_refined(const gjkb_context *ctx, const gjkb_bodies *bd, const gjkb_pairs *pr, uint32_t i,
                            const gjkb__params *p, const gjkb_query *warm, gjkb_results *out)
{
    gjkb_shape a = gjkb__body_shape(bd, pr->a[i]), b = gjkb__body_shape(bd, pr->b[i]);
    double axis[3];
    gjkb_result r = gjkb__ref_query(ctx, &a, &b, p, gjkb__warm_axis(warm, i, axis));
    if (p->mode == GJKB_HIT)
        for (int k = 0; k < 3; k++)
            r.a[k] = r.b[k] = r.n[k] = NAN;
    gjkb__store_result(out, i, &r);
    if (p->mode == GJKB_CONTACT)
        gjkb__store_manifold(out, i, &r);
}

/* ---- the batch ---------------------------------------------------------- */

/* One batch on its way through the pipeline: its arguments and plan. */
typedef struct batch {
    gjkb_context *ctx;
    const gjkb__kernel *k;
    const gjkb_bodies *bodies;
    const gjkb_pairs *pairs;
    const gjkb__params *p;
    const gjkb_query *warm;  /* the query, when it carries warm axes */
    const uint32_t *info;
    gjkb_results *results;
    scratch *s;
    gjkb__world w;
    bool records;            /* the kernels read body records */
    bool stream;             /* the answers go past the caches (scatter.h) */
    int copies;              /* copies of the records: one per thread, or 1 */
    int parts, team;         /* key parts; threads */
    uint32_t chunks;
    key_part part[MAX_PARTS];
} batch;

/* The pairs at positions [first, first + lanes) of the order (lanes <=
 * CHUNK) through one chunk of lane arrays l, with the batch's world w (a
 * thread's records): the kernel packs and answers them, then the results
 * go back in pair order. */
static void run_chunk(const batch *b, const gjkb__world *w, gjkb__lanes *l, uint32_t first, uint32_t lanes)
{
    const scratch *s = b->s;
    const uint32_t *idx = s->order + first;
    gjkb__world cw = *w;
    cw.lane_a = s->la + first;
    cw.lane_b = s->lb + first;
    cw.lane_ka = s->lka + first;
    cw.lane_kb = s->lkb + first;
    cw.lane_dx = s->ldx + first;
    cw.lane_dy = s->ldy + first;
    cw.lane_dz = s->ldz + first;
    cw.lane_wx = b->warm ? s->lwx + first : NULL;
    cw.lane_wy = b->warm ? s->lwy + first : NULL;
    cw.lane_wz = b->warm ? s->lwz + first : NULL;
    b->k->run(&cw, lanes, l);
    b->k->scatter(l, idx, lanes, b->bodies, b->pairs, b->p->mode, b->results, b->stream);
    for (uint32_t j = 0; j < lanes; j++)
        if (l->status[j] == GJKB_K_STATUS_REFINE) {
            scatter_refined(b->ctx, b->bodies, b->pairs, idx[j], b->p, b->warm, b->results);
            l->counts->refined++;
        }
}

/* The key pass of part q: the batch's, or from the sweep's info. */
static void keys_of(const gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_pairs *pairs,
                    const gjkb_query *warm, const scratch *s, key_part *part, const uint32_t *info)
{
    if (info)
        info_keys(info, pairs, bodies, warm, s, part);
    else
        pair_keys(ctx, bodies, pairs, warm, s, part);
}

/* What the kernels read of the whole batch (the lane arrays are set per
 * chunk, in run_chunk). The hull table is never empty: lanes without hulls
 * read entry 0. */
static gjkb__world world_of(const gjkb_context *ctx, const gjkb_bodies *bd, const gjkb__params *p,
                            const float *records)
{
    static const int32_t zero_i = 0;
    static const float zero_f = 0.0f;
    static const gjkb__face zero_face;
    const bool hulls = ctx->hull_count > 0, points = ctx->point_count > 0;
    /* flat hulls alone have no faces: an empty array, never NULL (the
     * manifold offsets it by a hull's first face, 0) */
    const bool faces = ctx->face != NULL;
    gjkb__world w = {
        .qw = bd->qw, .qx = bd->qx, .qy = bd->qy, .qz = bd->qz,
        .sx = bd->sx, .sy = bd->sy, .sz = bd->sz, .margin = bd->margin,
        .hull = hulls ? (const int32_t *)bd->hull : NULL,
        .hull_first = hulls ? ctx->hull_first : &zero_i,
        .hull_n = hulls ? ctx->hull_n : &zero_i,
        .hull_radius = hulls ? ctx->hull_radius : &zero_f,
        .hull_inner = hulls ? ctx->hull_inner : &zero_f,
        .hx = points ? ctx->hx : &zero_f, .hy = points ? ctx->hy : &zero_f, .hz = points ? ctx->hz : &zero_f,
        .face_first = hulls ? ctx->face_first : &zero_i, .face_n = hulls ? ctx->face_n : &zero_i,
        .face = faces ? ctx->face : &zero_face, .face_vertex = faces ? ctx->face_vertex : &zero_i,
        .point_ring = points ? ctx->point_ring : &zero_i,
        .point_ring_n = points ? ctx->point_ring_n : &zero_i,
        .ring_face = faces ? ctx->ring_face : &zero_i,
        .tolerance = (float)p->tolerance,
        .max_distance = (float)p->max_distance,
        .distance_mode = p->mode != GJKB_HIT,
        .contact = p->mode == GJKB_CONTACT,
        .speculative = p->speculative,
        .max_iterations = p->max_iterations,
        .within_from = ctx->hull_within_from,
        .records = records,
    };
    return w;
}

/* Thread t's lane arrays (thread 0 has the scratch's own). */
static gjkb__lanes *lanes_of(scratch *s, int t)
{
    return t == 0 ? &s->lanes : &s->more[t - 1];
}

/* The threads of n pairs in `parts` key parts: a few chunks per thread at
 * least (MIN_CHUNKS_PER_THREAD), or one thread does them all; and every
 * part its own thread. */
static int team_for(uint32_t n, int threads, int parts)
{
    uint32_t chunks = (n + CHUNK - 1) / CHUNK;
    int team = threads;
    if ((uint32_t)team > chunks / MIN_CHUNKS_PER_THREAD)
        team = chunks / MIN_CHUNKS_PER_THREAD > 1 ? (int)(chunks / MIN_CHUNKS_PER_THREAD) : 1;
    return team > parts ? team : parts;
}

/* Threads build the records each for itself where that stays small (see
 * RECORD_COPIES_BYTES), else one copy is shared. */
static int record_copies(const batch *b)
{
    uint64_t bytes = (uint64_t)b->bodies->count * (uint64_t)b->team * GJKB_BODY_RECORD * sizeof(float);
    return b->records && b->team > 1 && bytes <= RECORD_COPIES_BYTES ? b->team : 1;
}

/* The scratch, lanes and records the batch needs, its plan filled in. */
static gjkb_error batch_plan(batch *b)
{
    gjkb_context *ctx = b->ctx;
    const uint32_t n = b->pairs->count, nb = b->bodies->count;
    if (gjkb__scratch_reserve(ctx, n) != GJKB_OK)
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "out of memory for %u pairs of scratch", n);
    b->s = ctx->scratch;
    b->records = b->k->width > 1 && (double)n >= RECORDS_FROM * (double)nb;
    b->stream = GJKB_SCATTER_STREAMS && (uint64_t)n * answer_bytes(b->results, b->p->mode) >= GJKB_STREAM_BYTES;
    b->parts = bucket_parts(n, gjkb__threads(ctx), b->part);
    b->team = team_for(n, gjkb__threads(ctx), b->parts);
    b->chunks = (n + CHUNK - 1) / CHUNK;
    if (b->team > 1 && !scratch_threads(ctx, b->s, b->team))
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "out of memory for the scratch of %d threads", b->team);
    b->copies = record_copies(b);
    if (b->records && !records_reserve(ctx, b->s, nb * (uint32_t)b->copies))
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "out of memory for %u body records", nb);
    /* After records_reserve, which may move the records. */
    b->w = world_of(ctx, b->bodies, b->p, b->records ? b->s->records : NULL);
    for (int t = 0; t < b->team; t++)
        *lanes_of(b->s, t)->counts = (gjkb__counts){ .bundle_steps = 0, .lane_steps = 0, .refined = 0 };
    return GJKB_OK;
}

/* Chunk c's positions of the order: [*first, *first + return value). */
static uint32_t chunk_range(const batch *b, uint32_t c, uint32_t *first)
{
    uint32_t n = b->pairs->count;
    *first = c * CHUNK;
    return n - *first < CHUNK ? n - *first : CHUNK;
}

/* The batch on the calling thread. */
static bucket_plan run_single(batch *b)
{
    const gjkb_bodies *bd = b->bodies;
    if (b->records)
        b->k->records(&b->w, bd->kind, b->ctx->hull_count, 0, bd->count, b->s->records);
    keys_of(b->ctx, bd, b->pairs, b->warm, b->s, &b->part[0], b->info);
    bucket_plan plan = bucket_join(b->s, b->part, 1, b->pairs->count, b->pairs, bd, b->warm, b->info);
    if (plan == BUCKET_INVALID)
        return plan;
    part_place(b->ctx, b->s, &b->part[0], plan, b->pairs, bd, b->warm, b->info);
    for (uint32_t c = 0; c < b->chunks; c++) {
        uint32_t first, lanes = chunk_range(b, c, &first);
        run_chunk(b, &b->w, &b->s->lanes, first, lanes);
    }
    return plan;
}

/* Thread t's records: its own copy, or its share of the one copy (the
 * caller's loop). */
static const float *own_records(const batch *b, int t)
{
    const gjkb_bodies *bd = b->bodies;
    float *own = b->s->records + (size_t)t * bd->count * GJKB_BODY_RECORD;
    b->k->records(&b->w, bd->kind, b->ctx->hull_count, 0, bd->count, own);
    return own;
}

/* The batch across b->team threads: records, keys (pair_keys, bucket_join,
 * part_place) and then the chunks, in one parallel region, its barriers
 * cheaper than a region each. Threads take whole chunks, each with its own
 * lane arrays. A pair's result depends on nothing but the pair, so any
 * split and any order of the chunks give the same bits. */
static bucket_plan run_threaded(batch *b)
{
    const gjkb_bodies *bd = b->bodies;
    const uint32_t nb = bd->count;
    const int team = b->team;
    bucket_plan plan = BUCKET_INVALID;
    GJKB_OMP(omp parallel num_threads(team))
    {
        gjkb__world tw = b->w;
        if (b->records && b->copies > 1) {
            tw.records = own_records(b, gjkb__thread_id());
        } else if (b->records) {
            GJKB_OMP(omp for schedule(static))
            for (int t = 0; t < team; t++)
                b->k->records(&b->w, bd->kind, b->ctx->hull_count, split(nb, t, team), split(nb, t + 1, team),
                              b->s->records);
        }
        GJKB_OMP(omp for schedule(static, 1))
        for (int q = 0; q < b->parts; q++)
            keys_of(b->ctx, bd, b->pairs, b->warm, b->s, &b->part[q], b->info);
        GJKB_OMP(omp single)
        plan = bucket_join(b->s, b->part, b->parts, b->pairs->count, b->pairs, bd, b->warm, b->info);
        if (plan != BUCKET_INVALID) {
            GJKB_OMP(omp for schedule(static, 1))
            for (int q = 0; q < b->parts; q++)
                part_place(b->ctx, b->s, &b->part[q], plan, b->pairs, bd, b->warm, b->info);
            /* The last chunks (hull pairs, the largest hulls last) take
             * longest: they go first, and the cheap ones even out the
             * threads' ends. */
            GJKB_OMP(omp for schedule(dynamic, 1) nowait)
            for (uint32_t c = 0; c < b->chunks; c++) {
                uint32_t first, lanes = chunk_range(b, b->chunks - 1 - c, &first);
                run_chunk(b, &tw, lanes_of(b->s, gjkb__thread_id()), first, lanes);
            }
        }
    }
    return plan;
}

/* The threads' step counts into the context's stats, summed in thread
 * order: the same totals for any split. */
static void add_stats(gjkb_context *ctx, const batch *b)
{
    ctx->stats.pairs += b->pairs->count;
    for (int t = 0; t < b->team; t++) {
        const gjkb__counts *c = lanes_of(b->s, t)->counts;
        ctx->stats.bundle_steps += c->bundle_steps;
        ctx->stats.lane_steps += c->lane_steps;
        ctx->stats.refined += c->refined;
    }
}

gjkb_error gjkb__pipeline(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_pairs *pairs,
                          const gjkb__params *p, const gjkb_query *warm, const uint32_t *info,
                          gjkb_results *results)
{
    batch b = { .ctx = ctx, .k = gjkb__kernel_for(ctx->backend), .bodies = bodies, .pairs = pairs, .p = p,
                .warm = warm, .info = info, .results = results };
    if (!b.k)
        return gjkb__fail(ctx, GJKB_ERR_UNSUPPORTED, "backend %s is not available",
                          gjkb_backend_name(ctx->backend));
    /* At most INT32_MAX pairs per call, as for bodies. */
    if (pairs->count > INT32_MAX)
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "%u pairs: at most %d per call", pairs->count, INT32_MAX);
    gjkb_error e = batch_plan(&b);
    if (e != GJKB_OK)
        return e;
    bucket_plan plan = b.team == 1 ? run_single(&b) : run_threaded(&b);
    if (plan == BUCKET_INVALID)
        return gjkb__check_pairs(ctx, bodies, pairs);
    add_stats(ctx, &b);
    ctx->message[0] = '\0';
    return GJKB_OK;
}
