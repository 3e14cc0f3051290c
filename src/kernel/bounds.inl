/* bounds.inl - the one body of the wide bounds kernel: every body's world
 * axis-aligned box, margins included.
 *
 * Included by one tiny translation unit per instruction set, after its
 * wide_<isa>.h and with GJKB_FN(name) adding the width suffix to the
 * exported symbol.
 *
 * Bodies are taken W at a time in order, straight from the caller's SoA
 * arrays (unaligned loads; a short tail goes through a padded copy), so
 * nothing is gathered but a hull's table entry. Per lane, in float:
 * validity, the rotation R and the core's extent about the body's position
 * along each world axis, all from the shape core (shape.inl); a hull's
 * extent is exact: the min and max of (R p)_i over its points, one hull at
 * a time, W points per step.
 *
 * Float rounding is covered outward: each bound moves out by 2^-20 of itself
 * plus 2^-18 of the core's size (an L1 bound on its points: the sum of a
 * box's half extents, 1.5 times a disk radius, 1.75 times a hull's radius).
 * A float rotation is off by tens of ulps per entry at most, and sums of
 * three products add a few more, which both terms exceed with room to spare.
 * Last, per lane in double, the position is added and rounded outward to
 * float, the double sum's own rounding error included (two-sum), so a box
 * always contains its shape; an ISA that takes the rounding direction in the
 * instruction (GJKB_WIDE_ROUNDED_ADD) gives the same floats directly. */

#include "gjkbatch.h"
#include "dispatch.h"
#include "kernel/shape.inl"
#include "kernel/pairkey.inl"

#include <math.h>
#include <string.h>

#define BD_REL 0x1p-20f
#define BD_ABS 0x1p-18f

/* W consecutive bodies: the caller's arrays at an offset, or a padded copy. */
typedef struct bd_view {
    const uint8_t *kind;
    const double *px, *py, *pz;
    const float *qw, *qx, *qy, *qz;
    const float *sx, *sy, *sz;
    const float *margin;     /* NULL: no margins */
    const uint32_t *hull;    /* NULL: no hull bodies */
} bd_view;

/* p + d rounded to a float <= the exact sum (round_up: >=). The nearest
 * float f to the double sum s is the answer unless it lies past s, or is s
 * while the sum's own error e (two-sum, exact without contraction) points
 * past it; then the next float outward is, stepped by its bits. Whether a
 * step is needed is a coin toss, so everything is masks, no branches (and
 * the compiler may vectorize the loop over lanes). */
static inline float bd_round_down(double p, float d)
{
    double s = p + d, dd = s - p, e = (p - (s - dd)) + (d - dd);
    float f = (float)s;
    bool past = ((double)f > s) | (((double)f == s) & (e < 0.0));
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint32_t v = u | (uint32_t)(u == 0) << 31;   /* +0 steps as -0 does */
    uint32_t next = v - 1u + 2u * (v >> 31), mask = 0u - (uint32_t)past;
    u = (next & mask) | (u & ~mask);
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline float bd_round_up(double p, float d)
{
    double s = p + d, dd = s - p, e = (p - (s - dd)) + (d - dd);
    float f = (float)s;
    bool past = ((double)f < s) | (((double)f == s) & (e > 0.0));
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint32_t v = u & ~((uint32_t)(u == 0x80000000u) << 31);   /* -0 steps as +0 does */
    uint32_t next = v + 1u - 2u * (v >> 31), mask = 0u - (uint32_t)past;
    u = (next & mask) | (u & ~mask);
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Exact extent of the hull lanes' points under R, one hull at a time, W of
 * its points per step: hulls are stored 64-byte aligned and padded with
 * copies of their last point to a multiple of GJKB_HULL_PAD, so whole steps
 * never leave the hull's storage nor change its extent. Adding +0 turns -0
 * into +0, so the min and max come out the same whatever the order the
 * points are visited in, that is on every width. Only the lanes in `has`
 * (n > 0) are visited, walking their bits; the others keep +inf and -inf. */
static inline void bd_hull_extent(const gjkb_context *ctx, mw has, iw first, iw n, const fw r[9], fw lo[3],
                                  fw hi[3])
{
    _Alignas(64) float rl[9][GJKB_W];
    _Alignas(64) int32_t fl[GJKB_W], nl[GJKB_W];
    for (int k = 0; k < 9; k++)
        fw_store(rl[k], r[k]);
    for (int a = 0; a < 3; a++) {
        lo[a] = fw_splat(INFINITY);
        hi[a] = fw_splat(-INFINITY);
    }
    iw_store(fl, first);
    iw_store(nl, n);
    const fw zero = fw_zero();
    for (unsigned bits = mw_bits(has); bits; bits &= bits - 1u) {
        int l = __builtin_ctz(bits);
        fw m[9], mn[3], mx[3];
        for (int k = 0; k < 9; k++)
            m[k] = fw_splat(rl[k][l]);
        for (int a = 0; a < 3; a++) {
            mn[a] = fw_splat(INFINITY);
            mx[a] = fw_splat(-INFINITY);
        }
        const float *hx = ctx->hx + fl[l], *hy = ctx->hy + fl[l], *hz = ctx->hz + fl[l];
        for (int32_t k = 0; k < nl[l]; k += GJKB_W) {
            fw x = fw_load(hx + k), y = fw_load(hy + k), z = fw_load(hz + k);
            for (int a = 0; a < 3; a++) {
                fw v = fw_add(fw_add(fw_add(fw_mul(m[3 * a], x), fw_mul(m[3 * a + 1], y)), fw_mul(m[3 * a + 2], z)),
                              zero);
                mn[a] = fw_min(mn[a], v);
                mx[a] = fw_max(mx[a], v);
            }
        }
        /* Reduced in registers; + 0 makes a zero +0 whatever order the
         * reduction took, so every width gives the same bits. Put into lane
         * l by a blend: scalar stores then a wide load would stall. */
        mw at = mw_from_bits(1u << l);
        for (int a = 0; a < 3; a++) {
            lo[a] = fw_sel(at, fw_splat(-fw_reduce_max(fw_neg(mn[a])) + 0.0f), lo[a]);
            hi[a] = fw_sel(at, fw_splat(fw_reduce_max(mx[a]) + 0.0f), hi[a]);
        }
    }
}

/* gjkb__body_class of hull lanes with n points (n >= 0). */
static inline iw bd_hull_class(iw n)
{
    return ky_body_class(iw_splat(GJKB_HULL), ky_hull_class(n));
}

/* The first `lanes` of c to cls. */
static inline void bd_store_cls(uint32_t *cls, uint32_t lanes, iw c)
{
    if (lanes == GJKB_W) {
        iw_storeu((int32_t *)(void *)cls, c);
    } else {
        _Alignas(64) int32_t l[GJKB_W];
        iw_store(l, c);
        memcpy(cls, l, sizeof(uint32_t) * lanes);
    }
}

/* The hull lanes' extents, validity and classes: their ids gathered (only
 * hull lanes' ids are known to be registered), their points' exact extent
 * under r into lo/hi, their L1 size into *size. */
static GJKB_INLINE void bd_hulls(const gjkb_context *ctx, const bd_view *v, uint32_t lanes, iw kind, mw hull,
                                 const fw r[9], mw *valid, fw lo[3], fw hi[3], fw *size, uint32_t *cls)
{
    iw id = iw_sel(hull, iw_loadu((const int32_t *)v->hull), iw_zero());
    fw radius = fw_gather(ctx->hull_radius, id);
    mw hull_ok = mw_and(hull, fw_isfinite(radius));
    *valid = mw_and(*valid, mw_or(mw_not(hull), hull_ok));
    iw all_n = iw_gather(ctx->hull_n, id);
    iw n = iw_sel(hull_ok, all_n, iw_zero());
    if (cls)
        bd_store_cls(cls, lanes, iw_sel(hull, bd_hull_class(all_n), kind));
    iw first = iw_sel(hull_ok, iw_gather(ctx->hull_first, id), iw_zero());
    fw hlo[3], hhi[3];
    bd_hull_extent(ctx, iw_lt(iw_zero(), n), first, n, r, hlo, hhi);
    for (int a = 0; a < 3; a++) {
        lo[a] = fw_sel(hull, hlo[a], lo[a]);
        hi[a] = fw_sel(hull, hhi[a], hi[a]);
    }
    *size = fw_sel(hull, fw_mul(radius, fw_splat(1.75f)), *size);
}

/* The boxes' corners about the positions to out, rounded outward in
 * double; invalid bodies (or positions out of range) get empty boxes. */
static GJKB_INLINE void bd_place(const bd_view *v, uint32_t lanes, mw valid, const fw lo[3], const fw hi[3],
                                 float *const out[6])
{
    const double *const pos[3] = { v->px, v->py, v->pz };
#ifdef GJKB_WIDE_ROUNDED_ADD
    if (lanes == GJKB_W) {
        mw ok = mw_and(valid, mw_and(mw_f64_abs_le(v->px, GJKB_MAX_COORD),
                                     mw_and(mw_f64_abs_le(v->py, GJKB_MAX_COORD), mw_f64_abs_le(v->pz, GJKB_MAX_COORD))));
        for (int a = 0; a < 3; a++) {
            fw_storeu(out[a], fw_sel(ok, fw_add_f64_down(pos[a], lo[a]), fw_splat(INFINITY)));
            fw_storeu(out[3 + a], fw_sel(ok, fw_add_f64_up(pos[a], hi[a]), fw_splat(-INFINITY)));
        }
        return;
    }
#endif
    _Alignas(64) float lo_l[3][GJKB_W], hi_l[3][GJKB_W];
    for (int a = 0; a < 3; a++) {
        fw_store(lo_l[a], lo[a]);
        fw_store(hi_l[a], hi[a]);
    }
    /* Elsewhere: straight loops the compiler may vectorize. */
    for (int a = 0; a < 3; a++)
        for (uint32_t l = 0; l < lanes; l++) {
            out[a][l] = bd_round_down(pos[a][l], lo_l[a][l]);
            out[3 + a][l] = bd_round_up(pos[a][l], hi_l[a][l]);
        }
    unsigned ok = mw_bits(valid);
    for (uint32_t l = 0; l < lanes; l++) {
        if (((ok >> l) & 1u) && gjkb__coord_ok(v->px[l]) && gjkb__coord_ok(v->py[l]) && gjkb__coord_ok(v->pz[l]))
            continue;
        for (int a = 0; a < 3; a++) {
            out[a][l] = INFINITY;
            out[3 + a][l] = -INFINITY;
        }
    }
}

/* Boxes of the W bodies of v; the first `lanes` are written to out[0..5]
 * (min x, y, z, max x, y, z) at the same offset, and unless cls is NULL
 * their classes to cls[0..]: the kind is at hand, and a hull's size is
 * gathered here anyway. */
static void bd_bundle(const gjkb_context *ctx, const bd_view *v, uint32_t lanes, float *const out[6], uint32_t *cls)
{
    _Alignas(64) int32_t kinds[GJKB_W];
    for (int l = 0; l < GJKB_W; l++)
        kinds[l] = v->kind[l];
    iw kind = iw_load(kinds);
    /* stored now, not kept: a hull lane's is stored over below */
    if (cls)
        bd_store_cls(cls, lanes, kind);

    /* Rotation: the shape core's validity rule, then q normalized first
     * (a square root: the bounds kernel's own bits, see sh_quat_rotation). */
    fw qw = fw_loadu(v->qw), qx = fw_loadu(v->qx), qy = fw_loadu(v->qy), qz = fw_loadu(v->qz), qq;
    mw valid = sh_quat_ok(qw, qx, qy, qz, &qq);
    fw inv = fw_div(fw_splat(1.0f), fw_sqrt(fw_sel(valid, qq, fw_splat(1.0f))));
    fw r[9];
    sh_quat_matrix(fw_mul(qw, inv), fw_mul(qx, inv), fw_mul(qy, inv), fw_mul(qz, inv), fw_splat(2.0f), r);

    const fw s[3] = { fw_loadu(v->sx), fw_loadu(v->sy), fw_loadu(v->sz) };
    core_w c = sh_core(kind, s, v->margin ? fw_loadu(v->margin) : fw_zero(), &valid);
    fw size = sh_l1_size(&c);
    fw lo[3], hi[3];
    sh_extent(&c, r, lo, hi);
    if (mw_any(c.hull))
        bd_hulls(ctx, v, lanes, kind, c.hull, r, &valid, lo, hi, &size, cls);

    /* Margin, then the outward float slack. */
    fw pad = fw_mul(size, fw_splat(BD_ABS));
    for (int a = 0; a < 3; a++) {
        fw l = fw_sub(lo[a], c.margin), h = fw_add(hi[a], c.margin);
        lo[a] = fw_sub(l, fw_add(fw_mul(fw_abs(l), fw_splat(BD_REL)), pad));
        hi[a] = fw_add(h, fw_add(fw_mul(fw_abs(h), fw_splat(BD_REL)), pad));
    }
    bd_place(v, lanes, valid, lo, hi, out);
}

void GJKB_FN(gjkb__bounds_run)(const gjkb_context *ctx, const gjkb_bodies *bodies, uint32_t first, uint32_t end,
                               const gjkb_aabbs *out, uint32_t *cls);
void GJKB_FN(gjkb__bounds_run)(const gjkb_context *ctx, const gjkb_bodies *bodies, uint32_t first, uint32_t end,
                               const gjkb_aabbs *out, uint32_t *cls)
{
    const gjkb_bodies *b = bodies;
    uint32_t i = first;
    for (; i < end && end - i >= GJKB_W; i += GJKB_W) {
        bd_view v = { b->kind + i, b->px + i, b->py + i, b->pz + i, b->qw + i, b->qx + i, b->qy + i, b->qz + i,
                      b->sx + i, b->sy + i, b->sz + i, b->margin ? b->margin + i : NULL,
                      b->hull ? b->hull + i : NULL };
        float *const o[6] = { out->min_x + i, out->min_y + i, out->min_z + i,
                              out->max_x + i, out->max_y + i, out->max_z + i };
        bd_bundle(ctx, &v, GJKB_W, o, cls ? cls + i : NULL);
    }
    if (i >= end)
        return;
    /* The tail, padded with unit spheres at the origin (never written). */
    uint32_t lanes = end - i;
    uint8_t kind[GJKB_W];
    double px[GJKB_W], py[GJKB_W], pz[GJKB_W];
    float qw[GJKB_W], qx[GJKB_W], qy[GJKB_W], qz[GJKB_W], sx[GJKB_W], sy[GJKB_W], sz[GJKB_W], mg[GJKB_W];
    uint32_t hull[GJKB_W];
    for (uint32_t l = 0; l < GJKB_W; l++) {
        bool in = l < lanes;
        uint32_t k = i + (in ? l : 0);
        kind[l] = in ? b->kind[k] : (uint8_t)GJKB_SPHERE;
        px[l] = in ? b->px[k] : 0.0;
        py[l] = in ? b->py[k] : 0.0;
        pz[l] = in ? b->pz[k] : 0.0;
        qw[l] = in ? b->qw[k] : 1.0f;
        qx[l] = in ? b->qx[k] : 0.0f;
        qy[l] = in ? b->qy[k] : 0.0f;
        qz[l] = in ? b->qz[k] : 0.0f;
        sx[l] = in ? b->sx[k] : 1.0f;
        sy[l] = in ? b->sy[k] : 1.0f;
        sz[l] = in ? b->sz[k] : 1.0f;
        mg[l] = in && b->margin ? b->margin[k] : 0.0f;
        hull[l] = in && b->hull ? b->hull[k] : 0u;
    }
    bd_view v = { kind, px, py, pz, qw, qx, qy, qz, sx, sy, sz, b->margin ? mg : NULL, b->hull ? hull : NULL };
    float *const o[6] = { out->min_x + i, out->min_y + i, out->min_z + i,
                          out->max_x + i, out->max_y + i, out->max_z + i };
    bd_bundle(ctx, &v, lanes, o, cls ? cls + i : NULL);
}
