/* pipeline.c - the batch path of the wide kernels: validate each pair,
 * bucket pairs so bundles hold alike work, pack chunks of bundles into A's
 * scaled local frame, run the kernel, scatter results back in pair order.
 *
 * Everything here is width-agnostic and compiled once for the baseline
 * target, so every backend sees exactly the same packed numbers. */
#include "dispatch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Lanes packed per chunk: small enough that the chunk's arrays stay in L2. */
#define CHUNK 512

/* ---- scratch ------------------------------------------------------------ */

typedef struct scratch {
    gjkb__packed pk;
    double *scale;         /* per chunk lane: the power of two used */
    uint32_t *order;       /* pair index for each bucketed position */
    uint32_t order_cap;
    void *arrays;          /* one aligned block behind pk's arrays */
} scratch;

/* Float/int32 arrays of gjkb__packed, in declaration order. */
static void **packed_array(gjkb__packed *pk, int i)
{
    void **fields[] = {
        (void **)&pk->a.hx, (void **)&pk->a.hy, (void **)&pk->a.hz, (void **)&pk->a.rd, (void **)&pk->a.cone,
        (void **)&pk->a.margin, (void **)&pk->a.hf, (void **)&pk->a.hn,
        (void **)&pk->b.hx, (void **)&pk->b.hy, (void **)&pk->b.hz, (void **)&pk->b.rd, (void **)&pk->b.cone,
        (void **)&pk->b.margin, (void **)&pk->b.hf, (void **)&pk->b.hn,
        (void **)&pk->r[0], (void **)&pk->r[1], (void **)&pk->r[2], (void **)&pk->r[3], (void **)&pk->r[4],
        (void **)&pk->r[5], (void **)&pk->r[6], (void **)&pk->r[7], (void **)&pk->r[8],
        (void **)&pk->tx, (void **)&pk->ty, (void **)&pk->tz, (void **)&pk->dx, (void **)&pk->dy,
        (void **)&pk->dz, (void **)&pk->inv_scale, (void **)&pk->tol, (void **)&pk->max_dist,
        (void **)&pk->valid, (void **)&pk->status, (void **)&pk->iterations, (void **)&pk->dist,
        (void **)&pk->pax, (void **)&pk->pay, (void **)&pk->paz, (void **)&pk->pbx, (void **)&pk->pby,
        (void **)&pk->pbz, (void **)&pk->nx, (void **)&pk->ny, (void **)&pk->nz,
    };
    return i < (int)(sizeof fields / sizeof fields[0]) ? fields[i] : NULL;
}

static scratch *scratch_get(gjkb_context *ctx)
{
    if (ctx->scratch)
        return ctx->scratch;
    scratch *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    int n = 0;
    while (packed_array(&s->pk, n))
        n++;
    size_t bytes = (size_t)CHUNK * sizeof(float);   /* a multiple of 64 */
    s->arrays = aligned_alloc(64, bytes * (size_t)n);
    s->scale = malloc(sizeof(double) * CHUNK);
    if (!s->arrays || !s->scale) {
        free(s->arrays);
        free(s->scale);
        free(s);
        return NULL;
    }
    memset(s->arrays, 0, bytes * (size_t)n);
    for (int i = 0; i < n; i++)
        *packed_array(&s->pk, i) = (char *)s->arrays + bytes * (size_t)i;
    s->pk.capacity = CHUNK;
    ctx->scratch = s;
    ctx->scratch_bytes = bytes * (size_t)n + sizeof(double) * CHUNK;
    return s;
}

gjkb_error gjkb__scratch_reserve(gjkb_context *ctx, uint32_t pairs)
{
    scratch *s = scratch_get(ctx);
    if (!s)
        return GJKB_ERR_MEMORY;
    if (pairs > s->order_cap) {
        uint32_t *o = realloc(s->order, sizeof(uint32_t) * pairs);
        if (!o)
            return GJKB_ERR_MEMORY;
        s->order = o;
        s->order_cap = pairs;
        ctx->scratch_bytes += sizeof(uint32_t) * pairs;
    }
    return GJKB_OK;
}

void gjkb__scratch_free(gjkb_context *ctx)
{
    scratch *s = ctx->scratch;
    if (!s)
        return;
    free(s->arrays);
    free(s->scale);
    free(s->order);
    free(s);
    ctx->scratch = NULL;
}

/* ---- per-pair geometry in double --------------------------------------- */

typedef struct mat3 {
    double m[9];   /* row major */
} mat3;

/* Rotation matrix of a quaternion (w, x, y, z), normalized here. */
static mat3 quat_matrix(const float q[4])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double inv = 1.0 / sqrt(w * w + x * x + y * y + z * z);
    w *= inv, x *= inv, y *= inv, z *= inv;
    mat3 r = { {
        1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
        2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
        2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
    } };
    return r;
}

/* R^T v */
static void mul_t(const mat3 *r, const double v[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = r->m[i] * v[0] + r->m[3 + i] * v[1] + r->m[6 + i] * v[2];
}

/* R v */
static void mul(const mat3 *r, const double v[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = r->m[3 * i] * v[0] + r->m[3 * i + 1] * v[1] + r->m[3 * i + 2] * v[2];
}

/* Largest power of two <= x (x > 0), or 1. */
static double pow2_floor(double x)
{
    int e;
    if (!(x > 0.0) || !isfinite(x))
        return 1.0;
    frexp(x, &e);
    return ldexp(1.0, e - 1);
}

/* Writes one side's core parameters (scaled) into lane j. */
static void pack_shape(const gjkb_context *ctx, const gjkb__pshape *ps, uint32_t j, const gjkb_shape *s,
                       double inv)
{
    double hx = 0, hy = 0, hz = 0, rd = 0, margin = s->margin, cone = 0;
    int32_t hf = 0, hn = 0;
    switch (s->kind) {
    case GJKB_SPHERE: margin += s->size[0]; break;
    case GJKB_CAPSULE: margin += s->size[0]; hz = s->size[2]; break;
    case GJKB_BOX: hx = s->size[0], hy = s->size[1], hz = s->size[2]; break;
    case GJKB_CONE: cone = 1; /* fall through */
    case GJKB_CYLINDER: rd = s->size[0], hz = s->size[2]; break;
    case GJKB_HULL:
        hf = (int32_t)ctx->hulls[s->hull].first;
        hn = (int32_t)ctx->hulls[s->hull].n;
        break;
    default: break;
    }
    ps->hx[j] = (float)(hx * inv);
    ps->hy[j] = (float)(hy * inv);
    ps->hz[j] = (float)(hz * inv);
    ps->rd[j] = (float)(rd * inv);
    ps->cone[j] = (float)cone;
    ps->margin[j] = (float)(margin * inv);
    ps->hf[j] = hf;
    ps->hn[j] = hn;
}

/* Packs pair i into lane j; false when the pair is geometrically invalid. */
static bool pack_pair(const gjkb_context *ctx, scratch *s, uint32_t j, const gjkb_bodies *bd,
                      const gjkb_pairs *pr, uint32_t i, const gjkb__params *p, const gjkb_query *warm)
{
    gjkb__packed *pk = &s->pk;
    gjkb_shape a = gjkb__body_shape(bd, pr->a[i]);
    gjkb_shape b = gjkb__body_shape(bd, pr->b[i]);
    if (!gjkb__shape_valid(ctx, &a) || !gjkb__shape_valid(ctx, &b))
        return false;

    mat3 ra = quat_matrix(a.rot), rb = quat_matrix(b.rot);
    double d[3] = { b.pos[0] - a.pos[0], b.pos[1] - a.pos[1], b.pos[2] - a.pos[2] }, t[3];
    mul_t(&ra, d, t);
    double tl = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);

    /* Scale: the shapes' bounding radii, kept within 2^40 of the offset so
     * squares and volumes of far-apart tiny shapes stay finite in float. */
    double extent = gjkb__core_radius(ctx, &a) + gjkb__core_radius(ctx, &b) + a.margin + b.margin;
    if (a.kind == GJKB_SPHERE || a.kind == GJKB_CAPSULE)
        extent += a.size[0];
    if (b.kind == GJKB_SPHERE || b.kind == GJKB_CAPSULE)
        extent += b.size[0];
    double sc = pow2_floor(extent > 0 ? extent : tl);
    double far = pow2_floor(tl) * 0x1p-40;
    if (sc < far)
        sc = far;
    double inv = 1.0 / sc;
    s->scale[j] = sc;

    pack_shape(ctx, &pk->a, j, &a, inv);
    pack_shape(ctx, &pk->b, j, &b, inv);
    /* B's rotation in A's frame: Ra^T Rb. */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            pk->r[3 * r + c][j] = (float)(ra.m[r] * rb.m[c] + ra.m[3 + r] * rb.m[3 + c] + ra.m[6 + r] * rb.m[6 + c]);
    pk->tx[j] = (float)(t[0] * inv);
    pk->ty[j] = (float)(t[1] * inv);
    pk->tz[j] = (float)(t[2] * inv);

    /* Search direction: the warm axis if usable, else the centre offset. */
    double dir[3] = { 1, 0, 0 }, dl = 1;
    if (tl > 0)
        dir[0] = t[0], dir[1] = t[1], dir[2] = t[2], dl = tl;
    if (warm) {
        double w[3] = { warm->warm_x[i], warm->warm_y[i], warm->warm_z[i] }, wl[3];
        mul_t(&ra, w, wl);
        double len = sqrt(wl[0] * wl[0] + wl[1] * wl[1] + wl[2] * wl[2]);
        if (isfinite(len) && len > 0)
            dir[0] = wl[0], dir[1] = wl[1], dir[2] = wl[2], dl = len;
    }
    pk->dx[j] = (float)(dir[0] / dl);
    pk->dy[j] = (float)(dir[1] / dl);
    pk->dz[j] = (float)(dir[2] / dl);

    pk->inv_scale[j] = (float)inv;
    pk->tol[j] = (float)(p->tolerance * extent * inv);
    pk->max_dist[j] = (float)(p->max_distance * inv);
    pk->valid[j] = 1;
    return true;
}

/* Lanes past the chunk's pairs: inert, valid = 0. */
static void pack_padding(scratch *s, uint32_t from, uint32_t to)
{
    for (int f = 0; packed_array(&s->pk, f); f++) {
        char *base = *packed_array(&s->pk, f);
        memset(base + (size_t)from * 4, 0, (size_t)(to - from) * 4);
    }
}

static void scatter_lane(const gjkb_bodies *bd, const gjkb_pairs *pr, const scratch *s, uint32_t j,
                         uint32_t i, gjkb_mode mode, gjkb_results *out)
{
    const gjkb__packed *pk = &s->pk;
    double sc = s->scale[j];
    gjkb_result r;
    r.status = (gjkb_status)pk->status[j];
    r.iterations = (uint32_t)pk->iterations[j];
    r.distance = (double)pk->dist[j] * sc;
    for (int k = 0; k < 3; k++)
        r.a[k] = r.b[k] = r.n[k] = NAN;
    if (mode == GJKB_DISTANCE && (out->ax || out->bx || out->nx) && !isnan(pk->nx[j])) {
        uint32_t ia = pr->a[i];
        const float q[4] = { bd->qw[ia], bd->qx[ia], bd->qy[ia], bd->qz[ia] };
        const double pos[3] = { bd->px[ia], bd->py[ia], bd->pz[ia] };
        mat3 ra = quat_matrix(q);
        double la[3] = { pk->pax[j] * sc, pk->pay[j] * sc, pk->paz[j] * sc };
        double lb[3] = { pk->pbx[j] * sc, pk->pby[j] * sc, pk->pbz[j] * sc };
        double ln[3] = { pk->nx[j], pk->ny[j], pk->nz[j] };
        mul(&ra, la, r.a);
        mul(&ra, lb, r.b);
        mul(&ra, ln, r.n);
        for (int k = 0; k < 3; k++) {
            r.a[k] += pos[k];
            r.b[k] += pos[k];
        }
    }
    gjkb__store_result(out, i, &r);
}

/* ---- bucketing ---------------------------------------------------------- */

/* Sort key: analytic pairs first, then pairs with hulls by their larger
 * hull's size in steps of 8 points, so a bundle's hull loop is as long as
 * its lanes need. Invalid pairs sort nowhere: they are answered directly. */
#define KEYS 66

static int pair_key(const gjkb_context *ctx, const gjkb_bodies *bd, uint32_t ia, uint32_t ib)
{
    uint32_t n = 0;
    if (bd->kind[ia] == GJKB_HULL)
        n = ctx->hulls[bd->hull[ia]].n;
    if (bd->kind[ib] == GJKB_HULL && ctx->hulls[bd->hull[ib]].n > n)
        n = ctx->hulls[bd->hull[ib]].n;
    if (n == 0)
        return 0;
    uint32_t k = 1 + (n + 7) / 8;
    return k < KEYS ? (int)k : KEYS - 1;
}

/* Counting sort of the pair indices by key: stable, so deterministic. */
static void bucket(const gjkb_context *ctx, const gjkb_bodies *bd, const gjkb_pairs *pr, uint32_t *order)
{
    uint32_t start[KEYS + 1] = { 0 };
    for (uint32_t i = 0; i < pr->count; i++)
        start[pair_key(ctx, bd, pr->a[i], pr->b[i]) + 1]++;
    for (int k = 0; k < KEYS; k++)
        start[k + 1] += start[k];
    for (uint32_t i = 0; i < pr->count; i++)
        order[start[pair_key(ctx, bd, pr->a[i], pr->b[i])]++] = i;
}

/* ---- the batch ---------------------------------------------------------- */

gjkb_error gjkb__pipeline_run(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_pairs *pairs,
                              const gjkb__params *p, const gjkb_query *warm, gjkb_results *results)
{
    const gjkb__kernel *k = gjkb__kernel_for(ctx->backend);
    if (!k)
        return gjkb__fail(ctx, GJKB_ERR_UNSUPPORTED, "backend %s is not available",
                          gjkb_backend_name(ctx->backend));
    if (gjkb__scratch_reserve(ctx, pairs->count) != GJKB_OK)
        return gjkb__fail(ctx, GJKB_ERR_MEMORY, "out of memory for %u pairs of scratch", pairs->count);
    scratch *s = ctx->scratch;
    static const float dummy = 0.0f;
    gjkb__hullpts pts = { &dummy, &dummy, &dummy };
    if (ctx->point_count > 0)
        pts.x = ctx->hx, pts.y = ctx->hy, pts.z = ctx->hz;

    bucket(ctx, bodies, pairs, s->order);
    const gjkb_result invalid = gjkb__invalid_result();
    uint32_t next = 0;
    while (next < pairs->count) {
        /* Fill a chunk with valid pairs; invalid ones are answered here. */
        uint32_t lane = 0;
        uint32_t chunk_pairs[CHUNK];
        while (lane < CHUNK && next < pairs->count) {
            uint32_t i = s->order[next++];
            if (pack_pair(ctx, s, lane, bodies, pairs, i, p, warm))
                chunk_pairs[lane++] = i;
            else
                gjkb__store_result(results, i, &invalid);
        }
        if (lane == 0)
            break;
        uint32_t padded = (lane + GJKB_PACK_ALIGN - 1) / GJKB_PACK_ALIGN * GJKB_PACK_ALIGN;
        pack_padding(s, lane, padded);
        s->pk.count = lane;
        uint32_t w = (uint32_t)k->width;
        k->run(&s->pk, pts, (int)p->mode, p->max_iterations, 0, (lane + w - 1) / w);
        for (uint32_t j = 0; j < lane; j++)
            scatter_lane(bodies, pairs, s, j, chunk_pairs[j], p->mode, results);
    }
    ctx->message[0] = '\0';
    return GJKB_OK;
}
