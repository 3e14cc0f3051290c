/* frame.c - gjkb_step: one frame of bounds, sweep-and-prune and the
 * narrowphase on every candidate pair, with the buffers that live from one
 * frame to the next (the boxes, the bodies' classes, the results). On a
 * wide backend the bounds kernel makes each body's class with its box and
 * the sweep makes each pair's bucket key from them, so the narrowphase
 * buckets the pairs without reading any body. With the pair cache on
 * (paircache.h), last frame's axes warm-start the pairs found again. */
#include "frame.h"
#include "broadphase.h"
#include "buffer.h"
#include "narrowphase.h"
#include "paircache.h"
#include "query.h"

#include <stdlib.h>

/* The double arrays of gjkb_results, in its field order. */
enum { RES_DISTANCE, RES_AX, RES_AY, RES_AZ, RES_BX, RES_BY, RES_BZ, RES_NX, RES_NY, RES_NZ, RES_ARRAYS };
/* The double arrays of gjkb_manifolds, in its field order. */
enum { MAN_AX, MAN_AY, MAN_AZ, MAN_BX, MAN_BY, MAN_BZ, MAN_SEPARATION, MAN_ARRAYS };

struct gjkb__frame {
    /* the boxes, SoA (min x, y, z, max x, y, z), and on a wide backend each
     * body's class (gjkb__body_class), for the pairs' info */
    float *box[6];
    uint32_t *cls;
    uint32_t box_cap;
    /* the results */
    uint8_t *status;
    uint32_t *iterations;
    double *res[RES_ARRAYS];
    uint32_t res_cap;
    /* contact mode's manifolds: count, then GJKB_MAX_CONTACTS slots per
     * pair of the gjkb_manifolds arrays (a, b, separation; feature) */
    uint8_t *m_count;
    double *m_res[MAN_ARRAYS];
    uint32_t *m_feature;
    uint32_t m_cap;
    /* the pair cache (gjkb_set_pair_cache), off until asked for */
    bool cache_on;
    gjkb__paircache cache;
};

void gjkb__frame_free(gjkb_context *ctx)
{
    struct gjkb__frame *fr = ctx->frame;
    if (!fr)
        return;
    for (int k = 0; k < 6; k++)
        free(fr->box[k]);
    free(fr->cls);
    free(fr->status);
    free(fr->iterations);
    for (int k = 0; k < RES_ARRAYS; k++)
        free(fr->res[k]);
    free(fr->m_count);
    for (int k = 0; k < MAN_ARRAYS; k++)
        free(fr->m_res[k]);
    free(fr->m_feature);
    gjkb__paircache_free(&fr->cache);
    free(fr);
    ctx->frame = NULL;
}

static bool boxes_reserve(struct gjkb__frame *fr, uint32_t n)
{
    void **arrays[7];
    size_t elem[7];
    for (int k = 0; k < 6; k++) {
        arrays[k] = (void **)&fr->box[k];
        elem[k] = sizeof(float);
    }
    arrays[6] = (void **)&fr->cls;
    elem[6] = sizeof(uint32_t);
    return gjkb__grow_arrays(arrays, elem, 7, &fr->box_cap, n);
}

static bool results_reserve(struct gjkb__frame *fr, uint32_t n)
{
    void **arrays[2 + RES_ARRAYS] = { (void **)&fr->status, (void **)&fr->iterations };
    size_t elem[2 + RES_ARRAYS] = { 1, sizeof(uint32_t) };
    for (int k = 0; k < RES_ARRAYS; k++) {
        arrays[2 + k] = (void **)&fr->res[k];
        elem[2 + k] = sizeof(double);
    }
    return gjkb__grow_arrays(arrays, elem, 2 + RES_ARRAYS, &fr->res_cap, n);
}

/* Contact mode: the manifold arrays for n pairs. */
static bool manifolds_reserve(struct gjkb__frame *fr, uint32_t n)
{
    void **arrays[2 + MAN_ARRAYS] = { (void **)&fr->m_count, (void **)&fr->m_feature };
    size_t elem[2 + MAN_ARRAYS] = { 1, GJKB_MAX_CONTACTS * sizeof(uint32_t) };
    for (int k = 0; k < MAN_ARRAYS; k++) {
        arrays[2 + k] = (void **)&fr->m_res[k];
        elem[2 + k] = GJKB_MAX_CONTACTS * sizeof(double);
    }
    return gjkb__grow_arrays(arrays, elem, 2 + MAN_ARRAYS, &fr->m_cap, n);
}

/* The result arrays as gjkb_results: hit mode has no points or axis, so
 * those stay NULL; only contact mode has manifolds. */
static gjkb_results results_of(const struct gjkb__frame *fr, gjkb_mode mode)
{
    gjkb_results r = { .status = fr->status, .distance = fr->res[RES_DISTANCE], .iterations = fr->iterations };
    if (mode != GJKB_HIT) {
        double *const *d = fr->res;
        r.ax = d[RES_AX], r.ay = d[RES_AY], r.az = d[RES_AZ];
        r.bx = d[RES_BX], r.by = d[RES_BY], r.bz = d[RES_BZ];
        r.nx = d[RES_NX], r.ny = d[RES_NY], r.nz = d[RES_NZ];
    }
    if (mode == GJKB_CONTACT) {
        double *const *m = fr->m_res;
        r.manifold = (gjkb_manifolds){ .count = fr->m_count, .ax = m[MAN_AX], .ay = m[MAN_AY], .az = m[MAN_AZ],
                                       .bx = m[MAN_BX], .by = m[MAN_BY], .bz = m[MAN_BZ],
                                       .separation = m[MAN_SEPARATION], .feature = fr->m_feature };
    }
    return r;
}

static struct gjkb__frame *frame_get(gjkb_context *ctx)
{
    if (!ctx->frame)
        ctx->frame = calloc(1, sizeof *ctx->frame);
    return ctx->frame;
}

/* The arguments of gjkb_step, and its parameters into p. */
static gjkb_error check_step(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_query *query,
                             gjkb__params *p)
{
    gjkb_error e = gjkb__params_resolve(ctx, query, p);
    if (e != GJKB_OK)
        return e;
    if (query && query->warm_x)
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT,
                          "gjkb_step: warm-start arrays are per pair, and the pairs are not known before the call");
    return gjkb__check_bodies(ctx, bodies, "gjkb_step");
}

/* The cache's part before the narrowphase: the frame's warm axes, into
 * *warm_q when any pair has one (else *warm_q stays NULL and every pair
 * starts cold). Hit mode keeps no axis (the kernel reports none there), so
 * it forgets the cache instead of leaving stale axes for a later frame. */
static gjkb_error cache_lookup(gjkb_context *ctx, struct gjkb__frame *fr, const gjkb_bodies *bodies,
                               const gjkb_pairs *pairs, const gjkb__params *p, gjkb_query *wq,
                               const gjkb_query **warm_q, uint32_t *warm)
{
    *warm_q = NULL;
    *warm = 0;
    if (!fr->cache_on || p->mode == GJKB_HIT) {
        gjkb__paircache_clear(&fr->cache);
        return GJKB_OK;
    }
    if (!gjkb__paircache_lookup(&fr->cache, bodies->count, pairs, gjkb__threads(ctx), warm))
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "gjkb_step: out of memory for the pair cache");
    if (*warm) {
        *wq = (gjkb_query){ .warm_x = fr->cache.warm[0], .warm_y = fr->cache.warm[1], .warm_z = fr->cache.warm[2] };
        *warm_q = wq;
    }
    return GJKB_OK;
}

/* The cache's part after the narrowphase: this frame's pairs kept. */
static gjkb_error cache_store(gjkb_context *ctx, struct gjkb__frame *fr, const gjkb_bodies *bodies,
                              const gjkb_pairs *pairs, const gjkb__params *p, const gjkb_results *r)
{
    if (!fr->cache_on || p->mode == GJKB_HIT)
        return GJKB_OK;
    if (!gjkb__paircache_store(&fr->cache, bodies->count, pairs, r))
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "gjkb_step: out of memory for the pair cache");
    return GJKB_OK;
}

gjkb_error gjkb_step(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_broadphase_options *opt,
                     const gjkb_query *query, gjkb_frame *out)
{
    if (!ctx)
        return GJKB_ERR_NULL;
    if (!bodies || !out)
        return gjkb__fail(ctx, GJKB_ERR_NULL, "gjkb_step: NULL %s", !bodies ? "bodies" : "out");
    gjkb__params p;
    gjkb_error e = check_step(ctx, bodies, query, &p);
    if (e != GJKB_OK)
        return e;
    struct gjkb__frame *fr = frame_get(ctx);
    if (!fr || !boxes_reserve(fr, bodies->count))
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "gjkb_step: out of memory for %u boxes", bodies->count);

    /* Every backend groups the pairs by key (one order everywhere); the
     * reference backend's narrowphase has no buckets and takes no info. */
    uint32_t *cls = fr->cls;
    double t0 = gjkb__now();
    gjkb_aabbs boxes = { .count = bodies->count,
                         .min_x = fr->box[0], .min_y = fr->box[1], .min_z = fr->box[2],
                         .max_x = fr->box[3], .max_y = fr->box[4], .max_z = fr->box[5] };
    if ((e = gjkb__boxes(ctx, bodies, &boxes, cls)) != GJKB_OK)
        return e;
    double t1 = gjkb__now();
    gjkb_pairs pairs;
    const uint32_t *info = NULL;
    double phases[2] = { 0.0, 0.0 };   /* set on success; GCC cannot see that on aarch64 */
    if ((e = gjkb__find_pairs(ctx, &boxes, opt, cls, &pairs, &info, phases)) != GJKB_OK)
        return e;
    if (ctx->backend == GJKB_BACKEND_REFERENCE)
        info = NULL;
    /* At least one entry: the batch call wants a status array even for no pairs. */
    if (!results_reserve(fr, pairs.count ? pairs.count : 1) ||
        (p.mode == GJKB_CONTACT && !manifolds_reserve(fr, pairs.count ? pairs.count : 1)))
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "gjkb_step: out of memory for %u results", pairs.count);

    double t2 = gjkb__now();
    gjkb_query wq;
    const gjkb_query *warm_q;
    uint32_t warm;
    if ((e = cache_lookup(ctx, fr, bodies, &pairs, &p, &wq, &warm_q, &warm)) != GJKB_OK)
        return e;
    double t3 = gjkb__now();
    gjkb_results r = results_of(fr, p.mode);
    if ((e = gjkb__narrowphase(ctx, bodies, &pairs, &p, warm_q, info, &r)) != GJKB_OK)
        return e;
    uint32_t hits = 0;
    for (uint32_t i = 0; i < pairs.count; i++)
        hits += r.status[i] == GJKB_OVERLAP;
    double t4 = gjkb__now();
    if ((e = cache_store(ctx, fr, bodies, &pairs, &p, &r)) != GJKB_OK)
        return e;
    double t5 = gjkb__now();

    const bool axes = fr->cache_on && p.mode != GJKB_HIT, keys = axes && p.mode == GJKB_CONTACT;
    double *const *w = fr->cache.warm;
    *out = (gjkb_frame){ .pairs = pairs, .results = r, .hits = hits,
                         .seconds = { t1 - t0, phases[0], phases[1], t4 - t3 },
                         .warm = warm, .last_feature = keys ? fr->cache.last_feature : NULL,
                         .cache_seconds = fr->cache_on ? (t3 - t2) + (t5 - t4) : 0.0,
                         .warm_x = axes ? w[0] : NULL, .warm_y = axes ? w[1] : NULL, .warm_z = axes ? w[2] : NULL };
    ctx->message[0] = '\0';
    return GJKB_OK;
}

gjkb_error gjkb_set_pair_cache(gjkb_context *ctx, int on)
{
    if (!ctx)
        return GJKB_ERR_NULL;
    struct gjkb__frame *fr = frame_get(ctx);
    if (!fr)
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "gjkb_set_pair_cache: out of memory");
    fr->cache_on = on != 0;
    gjkb__paircache_clear(&fr->cache);
    ctx->message[0] = '\0';
    return GJKB_OK;
}

int gjkb_get_pair_cache(const gjkb_context *ctx)
{
    return ctx && ctx->frame && ctx->frame->cache_on;
}

void gjkb_pair_cache_reset(gjkb_context *ctx)
{
    if (ctx && ctx->frame)
        gjkb__paircache_clear(&ctx->frame->cache);
}
