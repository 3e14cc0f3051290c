/* context.c - the public entry points: context and backend choice, hull
 * registration, argument checking, and the batch call
 * (which hands valid work to the chosen backend). */
#include "internal.h"
#include "dispatch.h"
#include "shape.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------ */

gjkb_error gjkb__fail(gjkb_context *ctx, gjkb_error err, const char *fmt, ...)
{
    if (ctx) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->message, sizeof ctx->message, fmt, ap);
        va_end(ap);
    }
    return err;
}

static gjkb_error ok(gjkb_context *ctx)
{
    if (ctx)
        ctx->message[0] = '\0';
    return GJKB_OK;
}

const char *gjkb_last_error(const gjkb_context *ctx)
{
    return ctx ? ctx->message : "no context";
}

const char *gjkb_error_string(gjkb_error err)
{
    switch (err) {
    case GJKB_OK: return "ok";
    case GJKB_ERR_NULL: return "a required pointer is NULL";
    case GJKB_ERR_RANGE: return "an index is out of range";
    case GJKB_ERR_KIND: return "unknown shape kind, mode or backend";
    case GJKB_ERR_ARGUMENT: return "bad argument";
    case GJKB_ERR_MEMORY: return "out of memory";
    case GJKB_ERR_UNSUPPORTED: return "backend not available on this build or CPU";
    }
    return "unknown error";
}

const char *gjkb_status_name(gjkb_status status)
{
    switch (status) {
    case GJKB_SEPARATED: return "separated";
    case GJKB_OVERLAP: return "overlap";
    case GJKB_LIMIT: return "limit";
    case GJKB_INVALID: return "invalid";
    }
    return "?";
}

/* ---- backends ---------------------------------------------------------- */

static const char *const backend_names[GJKB_BACKEND_COUNT] = {
    "auto", "reference", "scalar", "sse4", "avx2", "avx512", "neon"
};

const char *gjkb_backend_name(gjkb_backend backend)
{
    return (unsigned)backend < GJKB_BACKEND_COUNT ? backend_names[backend] : "?";
}

gjkb_error gjkb_backend_parse(const char *name, gjkb_backend *out)
{
    if (!name || !out)
        return GJKB_ERR_NULL;
    for (int i = 0; i < GJKB_BACKEND_COUNT; i++) {
        if (strcmp(name, backend_names[i]) == 0) {
            *out = (gjkb_backend)i;
            return GJKB_OK;
        }
    }
    return GJKB_ERR_KIND;
}

int gjkb_backend_available(gjkb_backend backend)
{
    if (backend == GJKB_BACKEND_AUTO || backend == GJKB_BACKEND_REFERENCE)
        return 1;
    return (unsigned)backend < GJKB_BACKEND_COUNT && gjkb__kernel_for(backend) != NULL;
}

/* Widest backend this CPU runs natively; reference when no kernel exists. */
static gjkb_backend best_backend(void)
{
    static const gjkb_backend order[] = {
        GJKB_BACKEND_AVX512, GJKB_BACKEND_AVX2, GJKB_BACKEND_SSE4, GJKB_BACKEND_NEON, GJKB_BACKEND_SCALAR
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (gjkb__kernel_native(order[i]))
            return order[i];
    return GJKB_BACKEND_REFERENCE;
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
        want = best_backend();
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
    free(ctx->hulls);
    free(ctx->hx);
    free(ctx->hy);
    free(ctx->hz);
    free(ctx->hull_first);
    free(ctx->hull_n);
    free(ctx->hull_radius);
    gjkb__scratch_free(ctx);
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

gjkb_error gjkb_hull_add(gjkb_context *ctx, const float *xyz, uint32_t n, uint32_t *id)
{
    if (!ctx || !id || (n > 0 && !xyz))
        return gjkb__fail(ctx, GJKB_ERR_NULL, "gjkb_hull_add: NULL %s",
                          !ctx ? "context" : !id ? "id" : "points");
    /* Each hull starts on a 64-byte boundary and is padded with copies of
     * its last point to a multiple of GJKB_HULL_PAD, so a wide kernel can
     * load any hull W points at a time and the padding never wins a max.
     * The wide kernels index hulls and points with int32 lanes. */
    uint32_t slots = (n + GJKB_HULL_PAD - 1) / GJKB_HULL_PAD * GJKB_HULL_PAD;
    if (slots == 0)
        slots = GJKB_HULL_PAD;
    if (ctx->hull_count >= INT32_MAX || n > (uint32_t)INT32_MAX - GJKB_HULL_PAD ||
        slots > (uint32_t)INT32_MAX - ctx->point_count)
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "gjkb_hull_add: too many hulls or points");
    uint32_t need = ctx->point_count + slots;
    uint32_t cap = ctx->point_cap, cap2 = cap, cap3 = cap;
    uint32_t hcap = ctx->hull_cap, hcap2 = hcap, hcap3 = hcap, hcap4 = hcap;
    if (!grow_aligned(&ctx->hx, ctx->point_count, &cap, need) ||
        !grow_aligned(&ctx->hy, ctx->point_count, &cap2, need) ||
        !grow_aligned(&ctx->hz, ctx->point_count, &cap3, need) ||
        !grow((void **)&ctx->hulls, &hcap, ctx->hull_count + 1, sizeof(gjkb__hull)) ||
        !grow((void **)&ctx->hull_first, &hcap2, ctx->hull_count + 1, sizeof(int32_t)) ||
        !grow((void **)&ctx->hull_n, &hcap3, ctx->hull_count + 1, sizeof(int32_t)) ||
        !grow((void **)&ctx->hull_radius, &hcap4, ctx->hull_count + 1, sizeof(float)))
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "gjkb_hull_add: out of memory");
    ctx->hull_cap = hcap;
    ctx->point_cap = cap;

    gjkb__hull h = { ctx->point_count, n, n > 0, 0.0 };
    for (uint32_t i = 0; i < slots; i++) {
        uint32_t k = i < n ? i : (n ? n - 1 : 0);
        double x = n ? xyz[3 * k] : 0.0, y = n ? xyz[3 * k + 1] : 0.0, z = n ? xyz[3 * k + 2] : 0.0;
        if (!gjkb__coord_ok(x) || !gjkb__coord_ok(y) || !gjkb__coord_ok(z))
            h.valid = false;
        ctx->hx[h.first + i] = (float)x;
        ctx->hy[h.first + i] = (float)y;
        ctx->hz[h.first + i] = (float)z;
        double r = sqrt(x * x + y * y + z * z);
        if (r > h.radius)
            h.radius = r;
    }
    if (!h.valid)
        h.radius = 0.0;
    ctx->point_count = need;
    *id = ctx->hull_count;
    ctx->hull_first[ctx->hull_count] = (int32_t)h.first;
    ctx->hull_n[ctx->hull_count] = (int32_t)h.n;
    ctx->hull_radius[ctx->hull_count] = h.valid ? (float)h.radius : NAN;
    ctx->hulls[ctx->hull_count++] = h;
    return ok(ctx);
}

uint32_t gjkb_hull_count(const gjkb_context *ctx)
{
    return ctx ? ctx->hull_count : 0;
}

/* ---- query parameters and argument checks ----------------------------- */

gjkb_error gjkb__params_resolve(gjkb_context *ctx, const gjkb_query *q, gjkb__params *out)
{
    out->mode = q ? q->mode : GJKB_DISTANCE;
    if (out->mode != GJKB_HIT && out->mode != GJKB_DISTANCE)
        return gjkb__fail(ctx, GJKB_ERR_KIND, "unknown query mode %d", (int)out->mode);
    out->max_iterations = q && q->max_iterations ? q->max_iterations : GJKB_DEFAULT_MAX_ITERATIONS;
    out->tolerance = q && q->tolerance != 0.0 ? q->tolerance : GJKB_DEFAULT_TOLERANCE;
    if (!(out->tolerance > 0.0 && out->tolerance < 1.0))
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "tolerance %g is not in (0, 1)", out->tolerance);
    out->max_distance = q && q->max_distance != 0.0 ? q->max_distance : INFINITY;
    if (!(out->max_distance > 0.0))
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "max_distance %g is not positive", out->max_distance);
    if (q && (!q->warm_x != !q->warm_y || !q->warm_x != !q->warm_z))
        return gjkb__fail(ctx, GJKB_ERR_NULL, "warm_x, warm_y and warm_z must all be set or all NULL");
    return GJKB_OK;
}

static gjkb_error check_results(gjkb_context *ctx, const gjkb_results *r)
{
    if (!r->status)
        return gjkb__fail(ctx, GJKB_ERR_NULL, "results->status is NULL");
    if (!r->ax != !r->ay || !r->ax != !r->az || !r->bx != !r->by || !r->bx != !r->bz ||
        !r->nx != !r->ny || !r->nx != !r->nz)
        return gjkb__fail(ctx, GJKB_ERR_NULL, "result points come as x, y, z together: all set or all NULL");
    return GJKB_OK;
}

/* The per-pair rule: bodies in range, known kinds, registered hulls. The
 * first offending pair gets the message. The wide pipeline checks the same
 * rule fused into its bucketing pass and calls this only to word an error. */
gjkb_error gjkb__check_pairs(gjkb_context *ctx, const gjkb_bodies *bd, const gjkb_pairs *pr)
{
    for (uint32_t i = 0; i < pr->count; i++) {
        uint32_t ia = pr->a[i], ib = pr->b[i];
        if (ia >= bd->count || ib >= bd->count)
            return gjkb__fail(ctx, GJKB_ERR_RANGE, "pair %u: body index %u is out of range (%u bodies)", i,
                              ia >= bd->count ? ia : ib, bd->count);
        gjkb_error e = gjkb__check_kind(ctx, bd->kind[ia], bd->hull ? &bd->hull[ia] : NULL, ia, "body");
        if (e == GJKB_OK)
            e = gjkb__check_kind(ctx, bd->kind[ib], bd->hull ? &bd->hull[ib] : NULL, ib, "body");
        if (e != GJKB_OK)
            return e;
    }
    return GJKB_OK;
}

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

/* ---- writing one pair's result ----------------------------------------- */

void gjkb__store_result(const gjkb_results *r, uint32_t i, const gjkb_result *res)
{
    r->status[i] = (uint8_t)res->status;
    if (r->distance)
        r->distance[i] = res->distance;
    if (r->ax) {
        r->ax[i] = res->a[0];
        r->ay[i] = res->a[1];
        r->az[i] = res->a[2];
    }
    if (r->bx) {
        r->bx[i] = res->b[0];
        r->by[i] = res->b[1];
        r->bz[i] = res->b[2];
    }
    if (r->nx) {
        r->nx[i] = res->n[0];
        r->ny[i] = res->n[1];
        r->nz[i] = res->n[2];
    }
    if (r->iterations)
        r->iterations[i] = res->iterations;
}

gjkb_result gjkb__invalid_result(void)
{
    gjkb_result r;
    r.status = GJKB_INVALID;
    r.iterations = 0;
    r.distance = NAN;
    for (int k = 0; k < 3; k++)
        r.a[k] = r.b[k] = r.n[k] = NAN;
    return r;
}

/* The reference answer for one pair, validity included. */
static gjkb_result reference_pair(const gjkb_context *ctx, const gjkb_shape *a, const gjkb_shape *b,
                                  const gjkb__params *p, const double *warm)
{
    if (!gjkb__shape_valid(ctx, a) || !gjkb__shape_valid(ctx, b) || !gjkb__offset_valid(a->pos, b->pos))
        return gjkb__invalid_result();
    return gjkb__ref_query(ctx, a, b, p, warm);
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
        e = check_results(ctx, results);
    if (e == GJKB_OK)
        e = check_batch(ctx, bodies, pairs);
    if (e != GJKB_OK)
        return e;
    if (pairs->count == 0)
        return ok(ctx);

    const double *wx = query ? query->warm_x : NULL;
    if (ctx->backend != GJKB_BACKEND_REFERENCE)
        return gjkb__pipeline_run(ctx, bodies, pairs, &p, wx ? query : NULL, results);
    if ((e = gjkb__check_pairs(ctx, bodies, pairs)) != GJKB_OK)
        return e;

    for (uint32_t i = 0; i < pairs->count; i++) {
        gjkb_shape a = gjkb__body_shape(bodies, pairs->a[i]);
        gjkb_shape b = gjkb__body_shape(bodies, pairs->b[i]);
        double warm[3];
        if (wx) {
            warm[0] = query->warm_x[i];
            warm[1] = query->warm_y[i];
            warm[2] = query->warm_z[i];
        }
        gjkb_result res = reference_pair(ctx, &a, &b, &p, wx ? warm : NULL);
        gjkb__store_result(results, i, &res);
    }
    return ok(ctx);
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
    *out = reference_pair(ctx, a, b, &p, has_warm ? warm : NULL);
    return ok(ctx);
}
