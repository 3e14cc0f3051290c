/* context.c - the context: backend choice, hull registration, threads and
 * stats, and the batch and pair calls, which check their arguments and
 * hand the work to the narrowphase. gjkb_destroy frees every buffer
 * through the file that owns it. */
#include "internal.h"
#include "kernel/packed.h"
#include "broadphase.h"
#include "dispatch.h"
#include "frame.h"
#include "narrowphase.h"
#include "pipeline.h"
#include "query.h"
#include "shape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static gjkb_error ok(gjkb_context *ctx)
{
    if (ctx)
        ctx->message[0] = '\0';
    return GJKB_OK;
}

/* Hull support in the wide kernels (a tuning knob, results identical):
 * GJKB_HULL_SUPPORT=gather|within, else by hull size as measured. */
static int hull_strategy(void)
{
    const char *env = getenv("GJKB_HULL_SUPPORT");
    if (env && strcmp(env, "gather") == 0)
        return INT32_MAX;
    if (env && strcmp(env, "within") == 0)
        return 0;
    return GJKB_HULL_WITHIN_FROM;
}

gjkb_error gjkb_create(const gjkb_config *cfg, gjkb_context **out)
{
    if (!out)
        return GJKB_ERR_NULL;
    *out = NULL;
    gjkb_backend want = cfg ? cfg->backend : GJKB_BACKEND_AUTO;
    if ((unsigned)want >= GJKB_BACKEND_COUNT)
        return GJKB_ERR_KIND;
    if (want == GJKB_BACKEND_AUTO) {
        const char *env = getenv("GJKB_BACKEND");
        if (env && *env && gjkb_backend_parse(env, &want) != GJKB_OK)
            return GJKB_ERR_KIND;
    }
    if (want == GJKB_BACKEND_AUTO)
        want = gjkb__backend_auto();
    if (!gjkb_backend_available(want))
        return GJKB_ERR_UNSUPPORTED;

    gjkb_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return GJKB_ERR_MEMORY;
    ctx->backend = want;
    ctx->hull_within_from = hull_strategy();
    if (cfg && cfg->reserve_pairs && gjkb__scratch_reserve(ctx, cfg->reserve_pairs) != GJKB_OK) {
        gjkb_destroy(ctx);
        return GJKB_ERR_MEMORY;
    }
    *out = ctx;
    return GJKB_OK;
}

void gjkb_destroy(gjkb_context *ctx)
{
    if (!ctx)
        return;
    for (uint32_t i = 0; i < ctx->hull_count; i++) /* bound: hull_count */
        gjkb__hull_topology_free(&ctx->hulls[i].topo);
    free(ctx->hulls);
    free(ctx->hx);
    free(ctx->hy);
    free(ctx->hz);
    free(ctx->hull_first);
    free(ctx->hull_n);
    free(ctx->hull_radius);
    free(ctx->hull_inner);
    free(ctx->face_first);
    free(ctx->face_n);
    free(ctx->face);
    free(ctx->face_vertex);
    free(ctx->point_ring);
    free(ctx->point_ring_n);
    free(ctx->ring_face);
    gjkb__scratch_free(ctx);
    gjkb__broad_free(ctx);
    gjkb__frame_free(ctx);
    free(ctx);
}

gjkb_backend gjkb_context_backend(const gjkb_context *ctx)
{
    return ctx ? ctx->backend : GJKB_BACKEND_AUTO;
}

gjkb_error gjkb_stats_get(const gjkb_context *ctx, gjkb_stats *out)
{
    if (!ctx || !out)
        return GJKB_ERR_NULL;
    *out = ctx->stats;
    const gjkb__kernel *k = gjkb__kernel_for(ctx->backend);
    out->width = k ? (uint32_t)k->width : 0;
    return GJKB_OK;
}

void gjkb_stats_reset(gjkb_context *ctx)
{
    if (ctx)
        memset(&ctx->stats, 0, sizeof ctx->stats);
}

/* ---- threads ----------------------------------------------------------- */

/* gjkb_set_threads accepts at most this many: a bound on the per-thread
 * scratch a context keeps, far above any machine this runs on. */
#define MAX_THREADS 1024

gjkb_error gjkb_set_threads(gjkb_context *ctx, int threads)
{
    if (!ctx)
        return GJKB_ERR_NULL;
    if (threads < 0 || threads > MAX_THREADS)
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "gjkb_set_threads: %d threads is not in [0, %d]", threads,
                          MAX_THREADS);
#ifndef _OPENMP
    if (threads > 1)
        return gjkb__fail(ctx, GJKB_ERR_UNSUPPORTED, "gjkb_set_threads: this build has no OpenMP");
#endif
    ctx->threads = threads;
    ctx->message[0] = '\0';
    return GJKB_OK;
}

int gjkb_get_threads(const gjkb_context *ctx)
{
    return ctx ? gjkb__threads(ctx) : 0;
}

/* ---- hulls ------------------------------------------------------------- */

/* Grows *p (elements of size sz) to hold at least need; doubling keeps
 * registration linear overall. */
static bool grow(void **p, uint32_t *cap, uint32_t need, size_t sz)
{
    if (need <= *cap)
        return true;
    uint64_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    if (c > UINT32_MAX)
        c = UINT32_MAX;
    void *q = realloc(*p, (size_t)c * sz);
    if (!q)
        return false;
    *p = q;
    *cap = (uint32_t)c;
    return true;
}

/* Grows a 64-byte aligned float array to hold at least need floats. */
static bool grow_aligned(float **p, uint32_t used, uint32_t *cap, uint32_t need)
{
    if (need <= *cap)
        return true;
    uint64_t c = *cap ? *cap : 256;
    while (c < need)
        c *= 2;
    float *q = aligned_alloc(64, (size_t)c * sizeof(float));
    if (!q)
        return false;
    if (used)
        memcpy(q, *p, (size_t)used * sizeof(float));
    free(*p);
    *p = q;
    *cap = (uint32_t)c;
    return true;
}

/* Whether every input point is a valid coordinate, and their largest
 * distance from the local origin. */
static bool hull_scan(const float *xyz, uint32_t n, double *radius)
{
    bool valid = n > 0;
    *radius = 0.0;
    for (uint32_t i = 0; i < n; i++) { /* bound: n */
        double x = xyz[3 * (size_t)i], y = xyz[3 * (size_t)i + 1], z = xyz[3 * (size_t)i + 2];
        if (!gjkb__coord_ok(x) || !gjkb__coord_ok(y) || !gjkb__coord_ok(z))
            valid = false;
        *radius = fmax(*radius, sqrt(x * x + y * y + z * z));
    }
    if (!valid)
        *radius = 0.0;
    return valid;
}

/* Room for one more hull of `slots` stored points. */
static bool hull_reserve(gjkb_context *ctx, uint32_t slots)
{
    uint32_t need = ctx->point_count + slots;
    uint32_t cap = ctx->point_cap, cap2 = cap, cap3 = cap, rcap = ctx->point_ring_cap;
    uint32_t hcap = ctx->hull_cap, hcap2 = hcap, hcap3 = hcap, hcap4 = hcap, hcap5 = hcap, hcap6 = hcap, hcap7 = hcap;
    if (!grow_aligned(&ctx->hx, ctx->point_count, &cap, need) ||
        !grow_aligned(&ctx->hy, ctx->point_count, &cap2, need) ||
        !grow_aligned(&ctx->hz, ctx->point_count, &cap3, need) ||
        !grow((void **)&ctx->point_ring_n, &rcap, need, sizeof(int32_t)) ||
        !grow((void **)&ctx->point_ring, &ctx->point_ring_cap, need, sizeof(int32_t)) ||
        !grow((void **)&ctx->hulls, &hcap, ctx->hull_count + 1, sizeof(gjkb__hull)) ||
        !grow((void **)&ctx->hull_first, &hcap2, ctx->hull_count + 1, sizeof(int32_t)) ||
        !grow((void **)&ctx->hull_n, &hcap3, ctx->hull_count + 1, sizeof(int32_t)) ||
        !grow((void **)&ctx->hull_radius, &hcap4, ctx->hull_count + 1, sizeof(float)) ||
        !grow((void **)&ctx->hull_inner, &hcap7, ctx->hull_count + 1, sizeof(float)) ||
        !grow((void **)&ctx->face_first, &hcap5, ctx->hull_count + 1, sizeof(int32_t)) ||
        !grow((void **)&ctx->face_n, &hcap6, ctx->hull_count + 1, sizeof(int32_t)))
        return false;
    ctx->hull_cap = hcap;
    ctx->point_cap = cap;
    return true;
}

/* A face of valid hull h through its vertex v (the face left of its
 * first directed edge), or -1. */
static int32_t point_face(const gjkb__hull *h, uint32_t v)
{
    const gjkb__hull_topology *t = &h->topo;
    if (!h->valid || v >= t->vertex_count || t->face_count == 0 || t->adj_first[v] == t->adj_first[v + 1])
        return -1;
    return (int32_t)t->adj_face[t->adj_first[v]];
}

/* The face whose loop runs b -> a: across the edge a -> b. */
static int32_t face_across(const gjkb__hull_topology *t, uint32_t a, uint32_t b)
{
    for (uint32_t k = t->adj_first[b]; k < t->adj_first[b + 1]; k++) /* bound: degree */
        if (t->adj[k] == a)
            return (int32_t)t->adj_face[k];
    return -1;
}

/* The faces around vertex v of hull h in turn, appended to the context's
 * rings: from point_face's, across the edge leaving v in each face's loop
 * to the next. Their count; 0 where v has no face, the walk does not
 * close (a closed walk meets distinct faces, one entry of each loop) or
 * meets a face not exact (the manifold leaves those to the reference). */
static int32_t vertex_ring(gjkb_context *ctx, const gjkb__hull *h, uint32_t v)
{
    const gjkb__hull_topology *t = &h->topo;
    const int32_t f0 = point_face(h, v);
    if (f0 < 0 || !ctx->ring_face) /* no face yet: maybe no rings either */
        return 0;
    int32_t *ring = ctx->ring_face + ctx->ring_count;
    uint32_t n = 0;
    for (int32_t f = f0; f >= 0 && n < t->face_count && ctx->ring_count + n < ctx->ring_cap;) { /* bound: faces */
        const gjkb__hull_face *hf = &t->face[f];
        uint32_t e = 0;
        while (e < hf->count && t->face_vertex[hf->first + e] != v) /* bound: loop length */
            e++;
        if (e == hf->count || !ctx->face[ctx->face_first[ctx->hull_count] + f].exact)
            return 0;
        ring[n++] = f;
        f = face_across(t, v, t->face_vertex[hf->first + (e + 1) % hf->count]);
        if (f == f0) {
            ctx->ring_count += n;
            return (int32_t)n;
        }
    }
    return 0;
}

/* Stores the hull's m points (input indices src, or 0..m-1 when src is
 * NULL) in `slots` SoA slots: each hull starts on a 64-byte boundary and
 * is padded with copies of its last point to a multiple of GJKB_HULL_PAD,
 * so a wide kernel can load any hull W points at a time and the padding
 * never wins a max. */
static void hull_store(gjkb_context *ctx, gjkb__hull *h, const float *xyz, const uint32_t *src,
                       uint32_t slots)
{
    h->first = ctx->point_count;
    for (uint32_t i = 0; i < slots; i++) { /* bound: slots */
        uint32_t k = i < h->n ? i : (h->n ? h->n - 1 : 0);
        size_t p = h->n ? 3 * (size_t)(src ? src[k] : k) : 0;
        ctx->hx[h->first + i] = h->n ? xyz[p] : 0.0f;
        ctx->hy[h->first + i] = h->n ? xyz[p + 1] : 0.0f;
        ctx->hz[h->first + i] = h->n ? xyz[p + 2] : 0.0f;
        if (i < h->n || i == 0) {
            ctx->point_ring[h->first + i] = (int32_t)ctx->ring_count;
            ctx->point_ring_n[h->first + i] = h->valid ? vertex_ring(ctx, h, k) : 0;
        } else { /* padding: the last point's ring */
            ctx->point_ring[h->first + i] = ctx->point_ring[h->first + i - 1];
            ctx->point_ring_n[h->first + i] = ctx->point_ring_n[h->first + i - 1];
        }
    }
    ctx->point_count += slots;
}

/* The reference finds a hull face from the points: every point within
 * 1e-11 (solver units, at least half the pair's scale, which is at least
 * the hull's radius) of a support plane. A topology face is that face when
 * its loop lies on its plane far inside that (FACE_ON of the radius) and
 * every other vertex far below it (FACE_BELOW: a pair scale up to 1e4
 * radii still resolves it); the highest vertex off a face is a neighbour
 * of it (a linear function on a convex polytope climbs along edges), so
 * the loop's neighbours are the only ones checked. At most 32 points (the
 * reference's feature limit). */
#define FACE_ON 1e-13
#define FACE_BELOW 1e-7
#define FACE_MAX_LOOP 32

static bool face_exact(const gjkb__hull_topology *t, const float *xyz, const gjkb__hull_face *f, double radius)
{
    if (f->count > FACE_MAX_LOOP)
        return false;
    const uint32_t *loop = t->face_vertex + f->first;
    for (uint32_t i = 0; i < f->count; i++) { /* bound: count */
        const float *p = xyz + 3 * (size_t)t->source[loop[i]];
        double h = f->n[0] * p[0] + f->n[1] * p[1] + f->n[2] * p[2] - f->d;
        if (!(fabs(h) <= FACE_ON * radius))
            return false;
        for (uint32_t k = t->adj_first[loop[i]]; k < t->adj_first[loop[i] + 1]; k++) { /* bound: degree */
            uint32_t v = t->adj[k];
            bool on = false;
            for (uint32_t j = 0; j < f->count; j++) /* bound: count */
                on = on || loop[j] == v;
            const float *q = xyz + 3 * (size_t)t->source[v];
            double hq = f->n[0] * q[0] + f->n[1] * q[1] + f->n[2] * q[2] - f->d;
            if (!on && !(hq < -FACE_BELOW * radius))
                return false;
        }
    }
    return true;
}

/* The radius of a ball about the hull's origin inside it (hit mode's
 * early verdicts, pack.inl): the least offset of its face planes, less
 * their merge tolerance; -inf (no ball, not even the origin) without a
 * solid's faces or with the origin not well inside. */
static float hull_inner(const gjkb__hull_topology *t, double radius)
{
    double inner = t->face_count >= 4 ? INFINITY : -INFINITY;
    for (uint32_t f = 0; f < t->face_count; f++) { /* bound: face count */
        const gjkb__hull_face *hf = &t->face[f];
        double len = sqrt(hf->n[0] * hf->n[0] + hf->n[1] * hf->n[1] + hf->n[2] * hf->n[2]);
        inner = fmin(inner, len > 0.0 ? hf->d / len : 0.0);
    }
    inner -= 16.0 * GJKB__HULL_MERGE_REL * radius;
    return inner > 0.0 ? (float)(inner * (1.0 - 0x1p-20)) : -INFINITY;
}

/* The faces of hull h (its topology built from xyz) for the wide
 * kernels' manifold, appended to the context's face tables. */
static bool hull_faces(gjkb_context *ctx, const gjkb__hull *h, const float *xyz)
{
    const gjkb__hull_topology *t = &h->topo;
    uint32_t nf = h->valid ? t->face_count : 0, nv = 0;
    for (uint32_t f = 0; f < nf; f++) /* bound: face count */
        nv += t->face[f].count;
    /* the vertices' rings (hull_store) hold one entry of each loop */
    if (nf > (uint32_t)INT32_MAX - ctx->face_count || nv > (uint32_t)INT32_MAX - ctx->face_vertex_count ||
        nv > (uint32_t)INT32_MAX - ctx->ring_count ||
        !grow((void **)&ctx->face, &ctx->face_cap, ctx->face_count + nf, sizeof(gjkb__face)) ||
        !grow((void **)&ctx->ring_face, &ctx->ring_cap, ctx->ring_count + nv, sizeof(int32_t)) ||
        !grow((void **)&ctx->face_vertex, &ctx->face_vertex_cap, ctx->face_vertex_count + nv, sizeof(int32_t)))
        return false;
    ctx->face_first[ctx->hull_count] = (int32_t)ctx->face_count;
    ctx->face_n[ctx->hull_count] = (int32_t)nf;
    for (uint32_t f = 0; f < nf; f++) { /* bound: face count */
        const gjkb__hull_face *hf = &t->face[f];
        gjkb__face *o = &ctx->face[ctx->face_count++];
        o->nx = (float)hf->n[0];
        o->ny = (float)hf->n[1];
        o->nz = (float)hf->n[2];
        o->first = (int32_t)ctx->face_vertex_count;
        o->count = (int32_t)hf->count;
        o->exact = face_exact(t, xyz, hf, h->radius);
        for (uint32_t i = 0; i < hf->count; i++) { /* bound: loop length */
            ctx->face_vertex[ctx->face_vertex_count++] = (int32_t)t->face_vertex[hf->first + i];
        }
    }
    return true;
}

gjkb_error gjkb_hull_add(gjkb_context *ctx, const float *xyz, uint32_t n, uint32_t *id)
{
    if (!ctx || !id || (n > 0 && !xyz))
        return gjkb__fail(ctx, GJKB_ERR_NULL, "gjkb_hull_add: NULL %s",
                          !ctx ? "context" : !id ? "id" : "points");
    /* The wide kernels index hulls and points with int32 lanes. */
    if (ctx->hull_count >= INT32_MAX || n > (uint32_t)INT32_MAX - GJKB_HULL_PAD)
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "gjkb_hull_add: too many hulls or points");
    gjkb__hull h = { .input_n = n };
    h.valid = hull_scan(xyz, n, &h.radius);
    gjkb_error e = h.valid ? gjkb__hull_build(xyz, n, &h.topo) : GJKB_OK;
    if (e != GJKB_OK) /* memory, or a guard that exact predicates never trip */
        return gjkb__fail(ctx, e, "gjkb_hull_add: %s", e == GJKB_ERR_MEMORY ? "out of memory building the hull"
                                                                           : "inconsistent hull topology");
    /* valid: the vertices only; invalid: the input as given */
    h.n = h.valid ? h.topo.vertex_count : n;
    uint32_t slots = (h.n + GJKB_HULL_PAD - 1) / GJKB_HULL_PAD * GJKB_HULL_PAD;
    if (slots == 0)
        slots = GJKB_HULL_PAD;
    const char *why = slots > (uint32_t)INT32_MAX - ctx->point_count ? "too many hulls or points"
                      : !hull_reserve(ctx, slots) || !hull_faces(ctx, &h, xyz) ? "out of memory"
                                                                                 : NULL;
    if (why) {
        gjkb__hull_topology_free(&h.topo);
        return gjkb__fail(ctx, why[0] == 'o' ? GJKB_ERR_MEMORY : GJKB_ERR_ARGUMENT, "gjkb_hull_add: %s", why);
    }
    hull_store(ctx, &h, xyz, h.valid ? h.topo.source : NULL, slots);
    *id = ctx->hull_count;
    ctx->hull_first[ctx->hull_count] = (int32_t)h.first;
    ctx->hull_n[ctx->hull_count] = (int32_t)h.n;
    ctx->hull_radius[ctx->hull_count] = h.valid ? (float)h.radius : NAN;
    ctx->hull_inner[ctx->hull_count] = h.valid ? hull_inner(&h.topo, h.radius) : -INFINITY;
    ctx->hulls[ctx->hull_count++] = h;
    return ok(ctx);
}

const gjkb__hull_topology *gjkb__hull_topo(const gjkb_context *ctx, uint32_t id)
{
    return &ctx->hulls[id].topo;
}

gjkb_error gjkb_hull_info_get(const gjkb_context *ctx, uint32_t id, gjkb_hull_info *out)
{
    if (!ctx || !out)
        return GJKB_ERR_NULL;
    if (id >= ctx->hull_count)
        return GJKB_ERR_RANGE;
    const gjkb__hull *h = &ctx->hulls[id];
    *out = (gjkb_hull_info){ .points = h->input_n, .vertices = h->topo.vertex_count,
                             .faces = h->topo.face_count, .edges = h->topo.edge_count,
                             .valid = h->valid };
    return GJKB_OK;
}

uint32_t gjkb_hull_count(const gjkb_context *ctx)
{
    return ctx ? ctx->hull_count : 0;
}

/* ---- query parameters and argument checks ----------------------------- */

/* The batch's arrays and counts; the pairs themselves: gjkb__check_pairs. */
static gjkb_error check_batch(gjkb_context *ctx, const gjkb_bodies *bd, const gjkb_pairs *pr)
{
    /* The wide kernels index bodies with int32 lanes. */
    if (bd->count > INT32_MAX)
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "%u bodies: at most %d per call", bd->count, INT32_MAX);
    if (pr->count > 0 && (!pr->a || !pr->b))
        return gjkb__fail(ctx, GJKB_ERR_NULL, "pairs->a or pairs->b is NULL");
    if (pr->count > 0 && (!bd->kind || !bd->px || !bd->py || !bd->pz || !bd->qw || !bd->qx || !bd->qy ||
                          !bd->qz || !bd->sx || !bd->sy || !bd->sz))
        return gjkb__fail(ctx, GJKB_ERR_NULL, "a required body array is NULL");
    return GJKB_OK;
}

/* ---- the calls ---------------------------------------------------------- */

gjkb_error gjkb_query_batch(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_pairs *pairs,
                            const gjkb_query *query, gjkb_results *results)
{
    if (!ctx)
        return GJKB_ERR_NULL;
    if (!bodies || !pairs || !results)
        return gjkb__fail(ctx, GJKB_ERR_NULL, "gjkb_query_batch: NULL %s",
                          !bodies ? "bodies" : !pairs ? "pairs" : "results");
    gjkb__params p;
    gjkb_error e = gjkb__params_resolve(ctx, query, &p);
    if (e == GJKB_OK)
        e = gjkb__check_results(ctx, results);
    if (e == GJKB_OK)
        e = check_batch(ctx, bodies, pairs);
    if (e != GJKB_OK)
        return e;
    const gjkb_query *warm = query && query->warm_x ? query : NULL;
    return gjkb__narrowphase(ctx, bodies, pairs, &p, warm, NULL, results);
}

gjkb_error gjkb_query_pair(gjkb_context *ctx, const gjkb_shape *a, const gjkb_shape *b,
                           const gjkb_query *query, gjkb_result *out)
{
    if (!ctx)
        return GJKB_ERR_NULL;
    if (!a || !b || !out)
        return gjkb__fail(ctx, GJKB_ERR_NULL, "gjkb_query_pair: NULL %s", !a ? "a" : !b ? "b" : "out");
    gjkb__params p;
    gjkb_error e = gjkb__params_resolve(ctx, query, &p);
    if (e == GJKB_OK) {
        uint8_t ka = (uint8_t)((unsigned)a->kind > 255 ? 255 : a->kind);
        uint8_t kb = (uint8_t)((unsigned)b->kind > 255 ? 255 : b->kind);
        e = gjkb__check_kind(ctx, ka, &a->hull, 0, "shape a");
        if (e == GJKB_OK)
            e = gjkb__check_kind(ctx, kb, &b->hull, 1, "shape b");
    }
    if (e != GJKB_OK)
        return e;
    double warm[3];
    bool has_warm = query && query->warm_x;
    if (has_warm) {
        warm[0] = query->warm_x[0];
        warm[1] = query->warm_y[0];
        warm[2] = query->warm_z[0];
    }
    *out = gjkb__reference_pair(ctx, a, b, &p, has_warm ? warm : NULL);
    return ok(ctx);
}
