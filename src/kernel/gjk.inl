/* gjk.inl - the one body of the wide GJK kernel, hit-only and distance.
 *
 * Included by one tiny translation unit per instruction set, after its
 * wide_<isa>.h and with GJKB_FN(name) adding the width suffix to the one
 * exported symbol. Everything else here is static, so each unit gets its own
 * copy compiled for its own flags.
 *
 * Each lane is one pair, in A's local frame scaled to order one (packed.h).
 * All lanes run in lockstep; a lane that has its answer is frozen: every
 * state update below is a select on the lane's `active` mask, so a lane's
 * result never depends on its neighbours or on the width. Blocks that no
 * active lane needs (a simplex size, cones, hulls) are skipped bundle-wide,
 * which changes time, never bits.
 *
 * GJK runs on the cores (margins zero); margins are applied to the answer.
 * The simplex keeps at most three points, newest first; each step adds the
 * support point and keeps the feature through it nearest the origin (a
 * cascade: tetrahedron, triangle, segment).
 *
 * Two loops run that cascade. The light loop (light_bundle) goes first in
 * both modes: its next direction is the kept feature's normal toward the
 * origin (triple products), with no closest point, weights or divisions.
 * Hit mode stops it on a proof only: a support plane beyond the touching
 * band, an enclosing tetrahedron, or a kept feature within the band.
 * Distance mode stops it where the kept feature's duality gap has closed
 * and forms that feature's closest point once. The closest-point loop
 * (gjk_bundle, closest_step) computes the kept feature's closest point at
 * every step, with the no-progress, tie and refine guards; it takes the
 * lanes the light loop hands over (out of budget: near-touching or slow
 * curved pairs). A chunk runs in passes of a few steps (run_passes): every
 * bundle once, then the lanes left over, packed densely with their loop
 * state, so that slow lanes do not hold up whole bundles. */

#include "gjkbatch.h"
#include "kernel/packed.h"

#include <math.h>
#include <string.h>

/* The solver's helpers pass wide structs by value: they must inline. */
#if defined(__GNUC__)
#define GJKB_INLINE inline __attribute__((always_inline))
#else
#define GJKB_INLINE inline
#endif

/* a + b * s */
static inline v3w v3_madd(v3w a, v3w b, fw s)
{
    return v3_add(a, v3_scale(b, s));
}

/* Relative duality gap at which a distance has converged, and the same as an
 * absolute floor (scaled units squared) for nearly touching cores. */
#define GJKB_K_EPS_REL 1e-6f
#define GJKB_K_EPS_ABS 1e-11f
/* Steps in a row whose |v|^2 only ties the previous one, before a lane stops. */
#define GJKB_K_TIES 6.0f
#define GJKB_K_TIE_SLACK 1e-6f
/* A lane that stopped without converging (no progress in float, or the
 * iteration bound) while its duality gap is still above this fraction of
 * |v|^2 is handed to the double-precision reference: curved shapes near
 * touching can stall float GJK well before the tolerance. Rare, and the
 * decision is per lane, so results stay bit-identical across widths. */
#define GJKB_K_REFINE 1e-4f
/* Steps per pass (run_passes), hit and distance mode: most hit lanes are
 * done in 4 (a tetrahedron), most distance lanes in 6. Changes time only;
 * build-time overridable for tuning. */
#ifndef GJKB_K_HIT_CAP
#define GJKB_K_HIT_CAP 4u
#endif
#ifndef GJKB_K_DIST_CAP
#define GJKB_K_DIST_CAP 6u
#endif
_Static_assert(GJKB_K_HIT_CAP > 0 && GJKB_K_DIST_CAP > 0, "a pass takes at least one step");
/* |v|^2 below this (scaled units) means the cores overlap, unless the
 * pair's touching band is narrower still (zero-size shapes: their band is
 * zero, and any real gap separates them, as in the reference). */
#define GJKB_K_TINY 1e-12f
/* Distance mode: a pair whose offset exceeds this many times its extent is
 * answered by the double-precision reference. Float GJK's distance error
 * grows with the offset (about 2^-24 of it), so beyond 2^8 extents it could
 * leave the documented tolerance; a broadphase never hands over such pairs,
 * so the cost is only theirs. */
#define GJKB_K_FAR 0x1p8f

/* Lane verdicts; K_REFINE asks the pipeline to answer the pair with the
 * double-precision reference (see GJKB_K_REFINE); K_RETRY, inside the
 * kernel only, asks for a second pass (run_passes). */
enum { K_SEPARATED = 0, K_OVERLAP = 1, K_LIMIT = 2, K_INVALID = 3, K_REFINE = GJKB_K_STATUS_REFINE, K_RETRY };

/* One side's core, W lanes, in the pair's scaled frame. Every analytic core
 * is box half extents h plus a disk of radius rd in local xy (sphere: a
 * point, capsule: a segment, cylinder: segment + disk); a cone picks between
 * its apex (0,0,h.z) and its base rim (the disk at z = -h.z). A hull has
 * points [hf, hf + last] of the hull table, unscaled. */
typedef struct shape_w {
    v3w h;
    fw rd;
    fw margin;        /* total rounding radius (sphere/capsule radius included) */
    mw cone, hull;
    iw hf, last;
    int any_round, any_cone, max_points;
} shape_w;

/* 0 <= x <= GJKB_MAX_COORD, false for NaN. */
static inline mw in_range(fw x)
{
    return mw_and(fw_ge(x, fw_zero()), fw_le(x, fw_splat((float)GJKB_MAX_COORD)));
}

/* |x| <= GJKB_MAX_COORD, false for NaN. */
static inline mw finite_coord(fw x)
{
    return fw_le(fw_abs(x), fw_splat((float)GJKB_MAX_COORD));
}

/* Largest power of two <= x, for positive normal x (0 for 0). */
static inline fw pow2_floor(fw x)
{
    return fw_from_bits(iw_and(fw_bits(x), iw_splat(0x7F800000)));
}

/* One side's core from the caller's bodies: sizes by kind, validity, and
 * its extent (bounding radius about its origin, margin included), unscaled. */
/* A side's inputs: from the bodies' records where the pipeline made them
 * (one load per body, transposed), else gathered value by value. The hull
 * fields come only from records; without them shape_of gathers those
 * itself, and only for a bundle with hull lanes. */
typedef struct body_w {
    fw q[4];          /* gathered: the quaternion */
    fw r[9];          /* from a record: the rotation matrix, NaN R0 if invalid */
    fw s[3], m;
    fw hull_radius;
    iw hull_first, hull_n;
} body_w;

static GJKB_INLINE body_w load_body(const gjkb__world *w, iw body)
{
    body_w b;
    if (w->records) {
        fw rec[GJKB_RECORD];
        fw_load_records(w->records, body, rec);
        for (int k = 0; k < 9; k++)
            b.r[k] = rec[GJKB_REC_R0 + k];
        for (int k = 0; k < 3; k++)
            b.s[k] = rec[GJKB_REC_SX + k];
        b.m = rec[GJKB_REC_MARGIN];
        b.hull_first = fw_bits(rec[GJKB_REC_HULL_FIRST]);
        b.hull_n = fw_bits(rec[GJKB_REC_HULL_N]);
        b.hull_radius = rec[GJKB_REC_HULL_RADIUS];
        return b;
    }
    b.q[0] = fw_gather(w->qw, body);
    b.q[1] = fw_gather(w->qx, body);
    b.q[2] = fw_gather(w->qy, body);
    b.q[3] = fw_gather(w->qz, body);
    b.s[0] = fw_gather(w->sx, body);
    b.s[1] = fw_gather(w->sy, body);
    b.s[2] = fw_gather(w->sz, body);
    b.m = w->margin ? fw_gather(w->margin, body) : fw_zero();
    b.hull_radius = fw_zero();
    b.hull_first = b.hull_n = iw_zero();
    return b;
}

static GJKB_INLINE shape_w shape_of(const gjkb__world *w, const body_w *b, iw body, iw kind, mw *valid, fw *extent)
{
    const fw zero = fw_zero();
    fw s0 = b->s[0], s1 = b->s[1], s2 = b->s[2], m = b->m;
    *valid = mw_and(*valid, mw_and(mw_and(in_range(s0), in_range(s1)), mw_and(in_range(s2), in_range(m))));
    mw sphere = iw_eq(kind, iw_splat(GJKB_SPHERE)), capsule = iw_eq(kind, iw_splat(GJKB_CAPSULE));
    mw box = iw_eq(kind, iw_splat(GJKB_BOX)), cylinder = iw_eq(kind, iw_splat(GJKB_CYLINDER));
    mw cone = iw_eq(kind, iw_splat(GJKB_CONE)), hull = iw_eq(kind, iw_splat(GJKB_HULL));
    mw round = mw_or(cylinder, cone);
    shape_w r;
    r.h = v3_make(fw_sel(box, s0, zero), fw_sel(box, s1, zero),
                  fw_sel(mw_or(mw_or(box, capsule), round), s2, zero));
    r.rd = fw_sel(round, s0, zero);
    r.margin = fw_add(m, fw_sel(mw_or(sphere, capsule), s0, zero));
    r.cone = cone;
    r.hull = hull;
    r.hf = r.last = iw_zero();
    fw hull_extent = zero;
    if (w->hull && mw_any(hull)) {
        fw radius = b->hull_radius;
        iw first = b->hull_first, n = b->hull_n;
        if (!w->records) {
            /* Only hull lanes' ids are known to be registered. */
            iw id = iw_sel(hull, iw_gather(w->hull, body), iw_zero());
            radius = fw_gather(w->hull_radius, id);
            first = iw_gather(w->hull_first, id);
            n = iw_gather(w->hull_n, id);
        }
        *valid = mw_and(*valid, mw_or(mw_not(hull), fw_isfinite(radius)));
        r.hf = iw_sel(hull, first, iw_zero());
        r.last = iw_sel(hull, iw_sub(n, iw_splat(1)), iw_zero());
        hull_extent = fw_sel(hull, radius, zero);
    }
    fw core2 = fw_add(v3_dot(r.h, r.h), fw_mul(r.rd, r.rd));
    *extent = fw_add(fw_add(fw_sqrt(core2), hull_extent), r.margin);
    return r;
}

/* Scales a side into the pair's frame and settles its bundle-wide flags. */
static inline void scale_shape(shape_w *s, fw inv, mw valid)
{
    s->h = v3_scale(s->h, inv);
    s->rd = fw_mul(s->rd, inv);
    s->margin = fw_mul(s->margin, inv);
    s->hull = mw_and(s->hull, valid);
    s->cone = mw_and(s->cone, valid);
    s->any_round = mw_any(mw_and(valid, fw_gt(s->rd, fw_zero())));
    s->any_cone = mw_any(s->cone);
    /* The bundle's longest hull bounds the gather loop: the largest last
     * index of its hull lanes, as a minimum of negatives (reduced in
     * registers; a branch per lane mispredicted). */
    s->max_points = 0;
    if (mw_any(s->hull))
        s->max_points = 1 - iw_reduce_min(iw_sub(iw_zero(), iw_sel(s->hull, s->last, iw_splat(-1))));
}

/* Rotation matrix (row major) of the quaternion (w, x, y, z) with s = 2/|q|^2:
 * normalizes on the way, with one division and no square root. */
static inline void quat_matrix(fw w, fw x, fw y, fw z, fw s, fw m[9])
{
    const fw one = fw_splat(1.0f);
    fw xx = fw_mul(x, x), yy = fw_mul(y, y), zz = fw_mul(z, z);
    fw xy = fw_mul(x, y), xz = fw_mul(x, z), yz = fw_mul(y, z);
    fw wx = fw_mul(w, x), wy = fw_mul(w, y), wz = fw_mul(w, z);
    m[0] = fw_sub(one, fw_mul(s, fw_add(yy, zz)));
    m[1] = fw_mul(s, fw_sub(xy, wz));
    m[2] = fw_mul(s, fw_add(xz, wy));
    m[3] = fw_mul(s, fw_add(xy, wz));
    m[4] = fw_sub(one, fw_mul(s, fw_add(xx, zz)));
    m[5] = fw_mul(s, fw_sub(yz, wx));
    m[6] = fw_mul(s, fw_sub(xz, wy));
    m[7] = fw_mul(s, fw_add(yz, wx));
    m[8] = fw_sub(one, fw_mul(s, fw_add(xx, yy)));
}

/* The rotation of quaternions (w, x, y, z), normalized; ok: valid lanes
 * (finite, not oversized, not zero: the float rule of gjkb__shape_valid). */
static inline mw quat_rotation(fw qw, fw qx, fw qy, fw qz, fw m[9])
{
    fw qq = fw_add(fw_add(fw_add(fw_mul(qw, qw), fw_mul(qx, qx)), fw_mul(qy, qy)), fw_mul(qz, qz));
    mw ok = mw_and(mw_and(finite_coord(qw), finite_coord(qx)), mw_and(finite_coord(qy), finite_coord(qz)));
    ok = mw_and(ok, fw_ge(qq, fw_splat(1e-30f)));
    quat_matrix(qw, qx, qy, qz, fw_div(fw_splat(2.0f), fw_sel(ok, qq, fw_splat(1.0f))), m);
    return ok;
}

/* A body's rotation; invalid lanes are cleared from valid. A record holds
 * the matrix quat_rotation made, NaN in R0 where it was invalid. */
static GJKB_INLINE void rotation_of(const gjkb__world *w, const body_w *b, mw *valid, fw m[9])
{
    if (w->records) {
        for (int k = 0; k < 9; k++)
            m[k] = b->r[k];
        *valid = mw_and(*valid, fw_isfinite(m[0]));
        return;
    }
    *valid = mw_and(*valid, quat_rotation(b->q[0], b->q[1], b->q[2], b->q[3], m));
}

/* r^T v and r v for a row-major 3x3 */
static inline v3w mat_mul_t(const fw r[9], v3w v)
{
    return v3_make(fw_add(fw_add(fw_mul(r[0], v.x), fw_mul(r[3], v.y)), fw_mul(r[6], v.z)),
                   fw_add(fw_add(fw_mul(r[1], v.x), fw_mul(r[4], v.y)), fw_mul(r[7], v.z)),
                   fw_add(fw_add(fw_mul(r[2], v.x), fw_mul(r[5], v.y)), fw_mul(r[8], v.z)));
}
static inline v3w mat_mul(const fw r[9], v3w v)
{
    return v3_make(fw_add(fw_add(fw_mul(r[0], v.x), fw_mul(r[1], v.y)), fw_mul(r[2], v.z)),
                   fw_add(fw_add(fw_mul(r[3], v.x), fw_mul(r[4], v.y)), fw_mul(r[5], v.z)),
                   fw_add(fw_add(fw_mul(r[6], v.x), fw_mul(r[7], v.y)), fw_mul(r[8], v.z)));
}

/* Hull support, two ways; both return the first point of largest d.p in
 * the hull's order (ties under ==), so they give the same bits and the
 * choice between them is only about speed (gjkb__world.within_from). */

/* Gather across lanes: point k of every lane's hull per step; lanes with
 * fewer points repeat their last one, which never wins. */
static GJKB_INLINE v3w hull_gather(const shape_w *s, v3w d, const gjkb__world *w)
{
    fw best = fw_splat(-INFINITY);
    v3w bp = v3_zero();
    for (int k = 0; k < s->max_points; k++) {
        iw idx = iw_add(s->hf, iw_min(iw_splat(k), s->last));
        v3w q = v3_make(fw_gather(w->hx, idx), fw_gather(w->hy, idx), fw_gather(w->hz, idx));
        fw dot = v3_dot(q, d);
        mw better = fw_gt(dot, best);
        best = fw_sel(better, dot, best);
        bp = v3_sel(better, q, bp);
    }
    return bp;
}

/* Within a hull: one lane's hull at a time, W points per step with aligned
 * loads (hulls are stored padded, see gjkb_hull_add), then the first index
 * of the largest dot across the W running maxima, reduced in registers.
 * Lanes that are not active (or not hulls) get the origin. */
static inline v3w hull_within(const shape_w *s, v3w d, const gjkb__world *w, mw active)
{
    _Alignas(64) float dx[GJKB_W], dy[GJKB_W], dz[GJKB_W];
    _Alignas(64) int32_t first[GJKB_W], last[GJKB_W];
    _Alignas(64) float ox[GJKB_W], oy[GJKB_W], oz[GJKB_W];
    fw_store(dx, d.x);
    fw_store(dy, d.y);
    fw_store(dz, d.z);
    iw_store(first, s->hf);
    iw_store(last, s->last);
    v3_store(ox, oy, oz, v3_zero());
    /* Finished lanes' answers are not used: their hulls are not scanned.
     * The active hull lanes in turn, by their bits (no branch per lane). */
    for (unsigned bits = mw_bits(mw_and(s->hull, active)); bits; bits &= bits - 1u) {
        const int i = __builtin_ctz(bits);
        const float *px = w->hx + first[i], *py = w->hy + first[i], *pz = w->hz + first[i];
        v3w di = v3_splat(dx[i], dy[i], dz[i]);
        /* Above -inf only: a NaN dot never wins, as in every later step. */
        fw best = fw_splat(-INFINITY), dot = v3_dot(v3_load(px, py, pz), di);
        best = fw_sel(fw_gt(dot, best), dot, best);
        int32_t pick;
        if (last[i] < GJKB_W) {
            /* One step: the index is the lane. */
            pick = __builtin_ctz(mw_bits(fw_eq(best, fw_splat(fw_reduce_max(best)))) | (1u << (GJKB_W - 1)));
        } else {
            iw index = iw_lane_index(), k = iw_add(index, iw_splat(GJKB_W));
            for (int32_t j = GJKB_W; j <= last[i]; j += GJKB_W) {
                dot = v3_dot(v3_load(px + j, py + j, pz + j), di);
                mw better = fw_gt(dot, best);
                best = fw_sel(better, dot, best);
                index = iw_sel(better, k, index);
                k = iw_add(k, iw_splat(GJKB_W));
            }
            /* The first point of the largest dot: a lane's index where it
             * alone holds the maximum (nearly always), else the least
             * index among the lanes that tie. */
            unsigned top = mw_bits(fw_eq(best, fw_splat(fw_reduce_max(best))));
            if ((top & (top - 1u)) == 0) {
                _Alignas(64) int32_t at[GJKB_W];
                iw_store(at, index);
                pick = at[__builtin_ctz(top | (1u << (GJKB_W - 1)))];
            } else {
                pick = iw_reduce_min(iw_sel(mw_from_bits(top), index, iw_splat(INT32_MAX)));
            }
        }
        /* The point itself, while the lane's hull is at hand (cheaper than
         * three gathers after the loop). */
        ox[i] = px[pick];
        oy[i] = py[pick];
        oz[i] = pz[pick];
    }
    return v3_load(ox, oy, oz);
}

/* Support point of a core in local direction d (scaled local frame). */
static GJKB_INLINE v3w support_local(const shape_w *s, v3w d, const gjkb__world *w, fw inv_scale, mw active)
{
    const fw zero = fw_zero();
    v3w p = v3_make(fw_copysign(s->h.x, d.x), fw_copysign(s->h.y, d.y), fw_copysign(s->h.z, d.z));
    /* Both blocks are per lane, and each is skipped only where no lane of
     * the bundle needs it: a cone without a disk (radius 0) still takes the
     * cone's tie rule, whatever its neighbours are. */
    if (s->any_round || s->any_cone) {
        fw len = fw_sqrt(fw_add(fw_mul(d.x, d.x), fw_mul(d.y, d.y)));
        if (s->any_round) {
            /* Disk in local xy: radius times the unit radial direction (none
             * when d is along z). */
            mw radial = fw_gt(len, zero);
            fw k = fw_sel(radial, fw_div(s->rd, fw_sel(radial, len, fw_splat(1.0f))), zero);
            /* Lanes without a disk keep p as is: adding a zero could turn a
             * -0 into +0, and then the bits would depend on the neighbours. */
            mw disk = fw_gt(s->rd, zero);
            p.x = fw_sel(disk, fw_add(p.x, fw_mul(k, d.x)), p.x);
            p.y = fw_sel(disk, fw_add(p.y, fw_mul(k, d.y)), p.y);
        }
        if (s->any_cone) {
            /* Cone: apex (0,0,h) against the base rim (q, -h); ties go to the rim. */
            fw hdz = fw_mul(s->h.z, d.z);
            mw apex = mw_and(s->cone, fw_gt(hdz, fw_sub(fw_mul(s->rd, len), hdz)));
            mw rim = mw_andnot(s->cone, apex);
            p.x = fw_sel(apex, zero, p.x);
            p.y = fw_sel(apex, zero, p.y);
            p.z = fw_sel(apex, s->h.z, fw_sel(rim, fw_neg(s->h.z), p.z));
        }
    }
    if (s->max_points > 0) {
        v3w hp = s->max_points >= w->within_from ? hull_within(s, d, w, active) : hull_gather(s, d, w);
        p = v3_sel(s->hull, v3_scale(hp, inv_scale), p);
    }
    return p;
}

/* A bundle step over `active`, for gjkb_stats. */
static inline void count_step(gjkb__counts *c, mw active)
{
    c->bundle_steps++;
    c->lane_steps += (uint64_t)__builtin_popcount(mw_bits(active));
}

/* B's pose in A's frame: p_A = R p_B + t. */
typedef struct pose_w {
    fw r[9];
    v3w t;
} pose_w;

/* ---- the simplex and one sub-distance step ---------------------------- */

/* x has the sign of the volume: positive where pos, negative where neg. */
static inline mw same_sign(fw x, mw pos, mw neg)
{
    return mw_or(mw_and(pos, fw_gt(x, fw_zero())), mw_and(neg, fw_lt(x, fw_zero())));
}

/* Up to three kept points of A - B, newest first, their A support points
 * (distance mode: for the witnesses) and the weights of the current
 * closest point; unused slots weigh 0. */
typedef struct simplex_w {
    v3w q[3], qa[3];
    fw l[3];
    fw n;
} simplex_w;

/* A step's answer: the new simplex, its closest point, and whether the new
 * tetrahedron encloses the origin. */
typedef struct step_w {
    simplex_w s;
    v3w v;
    fw vv;
    mw enclosed;
} step_w;

/* The tetrahedron (a, q0, q1, q2) of lanes s3: whether it encloses the
 * origin (all four barycentric numerators of the volume's sign), else the
 * face through a with the origin farthest outside its plane, by squared
 * plane distances n^2/|x|^2 compared cross-multiplied (no divisions; faces
 * with the origin inside, or of zero area, never win). The kept triangle is
 * (a, b, c) with b = b_is_c ? q1 : q0 and c = c_is_e ? q2 : q1. */
typedef struct tetra_w {
    mw enclosed, b_is_c, c_is_e;
} tetra_w;

static GJKB_INLINE tetra_w tetra_face(const v3w q[3], v3w a, mw s3)
{
    const fw zero = fw_zero();
    v3w ab = v3_sub(q[0], a), ac = v3_sub(q[1], a), ae = v3_sub(q[2], a), ao = v3_neg(a);
    v3w x1 = v3_cross(ac, ae), x2 = v3_cross(ae, ab), x3 = v3_cross(ab, ac);
    fw vol = v3_dot(ab, x1);
    fw nb = v3_dot(ao, x1), nc = v3_dot(ao, x2), ne = v3_dot(ao, x3);
    fw na = fw_sub(fw_sub(fw_sub(vol, nb), nc), ne);
    mw pos = fw_gt(vol, zero), neg = fw_lt(vol, zero);
    mw in_b = same_sign(nb, pos, neg), in_c = same_sign(nc, pos, neg), in_e = same_sign(ne, pos, neg);
    tetra_w r;
    r.enclosed = mw_and(s3, mw_and(mw_and(same_sign(na, pos, neg), in_b), mw_and(in_c, in_e)));
    fw m1 = v3_dot(x1, x1), m2 = v3_dot(x2, x2), m3 = v3_dot(x3, x3);
    fw s1 = fw_mul(nb, nb), s2 = fw_mul(nc, nc), s3d = fw_mul(ne, ne);
    mw out_b = mw_andnot(fw_gt(m1, zero), in_b), out_c = mw_andnot(fw_gt(m2, zero), in_c);
    mw out_e = mw_andnot(fw_gt(m3, zero), in_e);
    /* d3 >= d2 and d3 >= d1 (abc), else d2 >= d1 (abe), else ace. */
    mw abc = mw_and(out_e, mw_and(mw_or(mw_not(out_c), fw_ge(fw_mul(s3d, m2), fw_mul(s2, m3))),
                                  mw_or(mw_not(out_b), fw_ge(fw_mul(s3d, m1), fw_mul(s1, m3)))));
    mw abe = mw_andnot(mw_and(out_c, mw_or(mw_not(out_b), fw_ge(fw_mul(s2, m1), fw_mul(s1, m2)))), abc);
    r.b_is_c = mw_and(s3, mw_not(mw_or(abc, abe)));
    r.c_is_e = mw_andnot(s3, abc);
    return r;
}

/* The triangle (a, b, c) of lanes tri: its normal, the signed areas of
 * the origin's projection (the weights of a, b and c, times |nrm|^2), and
 * whether that projection is inside (face); else the edge through a to go
 * on with: a-c where the origin is beyond that edge and ahead of a along it
 * (to_c), else a-b. */
typedef struct tri_w {
    v3w ab, ac, nrm;
    fw wa, wb, wc;
    mw face, to_c;
} tri_w;

static GJKB_INLINE tri_w tri_region(v3w a, v3w b, v3w c, mw tri)
{
    const fw zero = fw_zero();
    tri_w r;
    r.ab = v3_sub(b, a);
    r.ac = v3_sub(c, a);
    r.nrm = v3_cross(r.ab, r.ac);
    r.wa = v3_dot(r.nrm, v3_cross(b, c));
    r.wb = v3_dot(r.nrm, v3_cross(c, a));
    r.wc = v3_dot(r.nrm, v3_cross(a, b));
    mw out_c = fw_lt(r.wb, zero), out_b = fw_lt(r.wc, zero);
    r.to_c = mw_and(out_c, fw_lt(v3_dot(r.ac, a), zero));
    r.face = mw_andnot(tri, mw_or(mw_or(out_c, out_b), mw_not(mw_and(fw_ge(r.wa, zero),
                                                                      fw_gt(v3_dot(r.nrm, r.nrm), zero)))));
    return r;
}

/* The sub-distance step with the new point a (A part aa), as a cascade
 * (after triple-product GJK): a tetrahedron that does not enclose the
 * origin passes on its face through a with the origin farthest outside, a
 * triangle its edge through a or the face, a segment its vertex a or
 * itself; only features through a are considered (in exact arithmetic the
 * closest one always is). Only the kept feature's closest point is
 * computed: by signed areas for a face (no differences of products of dot
 * products, which cancel on slivers), clamped for an edge. A case that no
 * active lane has is skipped. */
static GJKB_INLINE step_w closest_step(const simplex_w *s, v3w a, v3w aa, mw active, const int witnesses)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f), two = fw_splat(2.0f), three = fw_splat(3.0f);
    step_w r;
    r.enclosed = mw_false();
    mw tri = mw_and(active, fw_eq(s->n, two));
    mw line = mw_and(active, fw_eq(s->n, one));
    v3w tb = s->q[0], tc = s->q[1], tba = s->qa[0], tca = s->qa[1];
    mw s3 = mw_and(active, fw_eq(s->n, three));
    if (mw_any(s3)) {
        tetra_w t = tetra_face(s->q, a, s3);
        r.enclosed = t.enclosed;
        tb = v3_sel(t.b_is_c, s->q[1], tb);
        tc = v3_sel(t.c_is_e, s->q[2], tc);
        if (witnesses) {
            tba = v3_sel(t.b_is_c, s->qa[1], tba);
            tca = v3_sel(t.c_is_e, s->qa[2], tca);
        }
        tri = mw_or(tri, mw_andnot(s3, r.enclosed));
    }

    v3w lb = s->q[0], lba = s->qa[0];
    mw face = mw_false();
    v3w vf = a;
    fw fl[3] = { one, zero, zero };
    if (mw_any(tri)) {
        tri_w f = tri_region(a, tb, tc, tri);
        face = f.face;
        fw inv = fw_div(one, fw_sel(face, fw_add(fw_add(f.wa, f.wb), f.wc), one));
        fl[0] = fw_mul(f.wa, inv);
        fl[1] = fw_mul(f.wb, inv);
        fl[2] = fw_mul(f.wc, inv);
        vf = v3_add(v3_add(v3_scale(a, fl[0]), v3_scale(tb, fl[1])), v3_scale(tc, fl[2]));
        mw down = mw_andnot(tri, face), down_c = mw_and(down, f.to_c);
        lb = v3_sel(down_c, tc, v3_sel(down, tb, lb));
        if (witnesses)
            lba = v3_sel(down_c, tca, v3_sel(down, tba, lba));
        line = mw_or(line, down);
    }

    mw edge = mw_false();
    v3w ve = a;
    fw t = zero;
    if (mw_any(line)) {
        /* Segment (a, lb), clamped: the edge while the origin is ahead of a. */
        v3w e = v3_sub(lb, a);
        fw num = fw_neg(v3_dot(e, a)), ee = v3_dot(e, e);
        edge = mw_and(line, mw_and(fw_gt(num, zero), fw_gt(ee, zero)));
        t = fw_sel(edge, fw_min(fw_div(num, fw_sel(edge, ee, one)), one), zero);
        ve = v3_add(a, v3_scale(e, t));
    }

    /* The kept feature, newest point first. */
    r.v = v3_sel(face, vf, v3_sel(edge, ve, a));
    r.vv = v3_dot(r.v, r.v);
    r.s.q[0] = a;
    r.s.q[1] = v3_sel(face, tb, lb);
    r.s.q[2] = tc;
    r.s.qa[0] = aa;
    r.s.qa[1] = witnesses ? v3_sel(face, tba, lba) : aa;
    r.s.qa[2] = witnesses ? tca : aa;
    r.s.l[0] = fw_sel(face, fl[0], fw_sub(one, t));
    r.s.l[1] = fw_sel(face, fl[1], t);
    r.s.l[2] = fw_sel(face, fl[2], zero);
    r.s.n = fw_sel(face, three, fw_sel(edge, two, one));
    return r;
}

/* Keeps b where m, else a's slots. */
static GJKB_INLINE simplex_w simplex_sel(mw m, const simplex_w *b, const simplex_w *a, const int witnesses)
{
    simplex_w r;
    for (int i = 0; i < 3; i++) {
        r.q[i] = v3_sel(m, b->q[i], a->q[i]);
        r.qa[i] = witnesses ? v3_sel(m, b->qa[i], a->qa[i]) : a->qa[i];
        r.l[i] = fw_sel(m, b->l[i], a->l[i]);
    }
    r.n = fw_sel(m, b->n, a->n);
    return r;
}

/* Witness points on A's and B's cores from the simplex weights. */
static GJKB_INLINE void simplex_witness(const simplex_w *s, v3w v, v3w *wa, v3w *wb)
{
    v3w a = v3_scale(s->qa[0], s->l[0]);
    for (int i = 1; i < 3; i++)
        a = v3_madd(a, s->qa[i], s->l[i]);
    *wa = a;
    *wb = v3_sub(a, v);
}

/* ---- pack: a bundle's pairs in their lanes ---------------------------- */

/* What every GJK loop starts from. Margins, tolerance and limits are in the
 * pair's scaled frame. */
typedef struct pack_w {
    shape_w sa, sb;
    pose_w pose;        /* B in A's frame */
    fw ra[9];           /* A's rotation, for answers back in world axes */
    fw scale, inv_scale;
    fw ma, mb, m;       /* margins and their sum */
    fw tol;             /* touching tolerance */
    fw lim2;            /* a support plane farther than sqrt(lim2) decides */
    fw touch2;          /* within sqrt(touch2) counts as touching */
    v3w dir;            /* first search direction */
    mw valid;
    mw apart;           /* hit mode: bounding spheres apart beyond the band */
    mw far;             /* distance mode: too far apart for float (GJKB_K_FAR) */
    fw core2;           /* |v|^2 at or below this: the cores overlap */
} pack_w;

/* Pack: the lanes' bodies, kinds and B's offset from A (laid out by the
 * pipeline), both rotations and cores, B's pose in A's frame, the pair's
 * scale (a power of two, so scaling is exact) and tolerances. Lanes past
 * the chunk's count read a real pair but stay invalid. */
static GJKB_INLINE void pack_bundle(const gjkb__world *world, const uint32_t *order, uint32_t count, size_t o,
                                    const int distance_mode, pack_w *k)
{
    const fw zero = fw_zero();
    iw ia = iw_load(world->lane_a + o), ib = iw_load(world->lane_b + o);
    v3w r = v3_load(world->lane_dx + o, world->lane_dy + o, world->lane_dz + o);
    mw valid = mw_first_n((int)(count - (uint32_t)o));
    valid = mw_and(valid, mw_and(mw_and(finite_coord(r.x), finite_coord(r.y)), finite_coord(r.z)));
    fw rb[9];
    body_w ba = load_body(world, ia), bb = load_body(world, ib);
    rotation_of(world, &ba, &valid, k->ra);
    rotation_of(world, &bb, &valid, rb);
    fw ext_a, ext_b;
    k->sa = shape_of(world, &ba, ia, iw_load(world->lane_ka + o), &valid, &ext_a);
    k->sb = shape_of(world, &bb, ib, iw_load(world->lane_kb + o), &valid, &ext_b);
    const fw *ra = k->ra;
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++)
            k->pose.r[3 * row + col] = fw_add(fw_add(fw_mul(ra[row], rb[col]), fw_mul(ra[3 + row], rb[3 + col])),
                                              fw_mul(ra[6 + row], rb[6 + col]));
    v3w t = mat_mul_t(ra, r);
    fw tl = fw_sqrt(v3_dot(t, t));
    /* Scale: the shapes' extent (the offset for two points), kept within
     * 2^40 of the offset so squares and volumes of far-apart tiny shapes
     * stay finite, and above 2^-60. */
    fw extent = fw_add(ext_a, ext_b);
    fw scale = pow2_floor(fw_sel(fw_gt(extent, zero), extent, tl));
    scale = fw_max(scale, fw_mul(pow2_floor(tl), fw_splat(0x1p-40f)));
    scale = fw_max(scale, fw_splat(0x1p-60f));
    /* 1/scale, exact: the exponent mirrored about the bias. */
    fw inv_scale = fw_from_bits(iw_sub(iw_splat(0x7F000000), fw_bits(scale)));
    scale_shape(&k->sa, inv_scale, valid);
    scale_shape(&k->sb, inv_scale, valid);
    k->pose.t = v3_scale(t, inv_scale);
    k->scale = scale;
    k->inv_scale = inv_scale;
    k->ma = k->sa.margin;
    k->mb = k->sb.margin;
    k->m = fw_add(k->ma, k->mb);
    k->tol = fw_mul(fw_mul(fw_splat(world->tolerance), extent), inv_scale);
    /* Hit mode: where the bounding spheres are apart by more than the
     * touching band, the gap (at least |t| - extent) decides before any
     * support. The extra 2^-10 of the extent covers the float rounding of
     * both sides many times over. */
    k->apart = distance_mode ? mw_false()
                             : mw_and(valid, fw_gt(tl, fw_mul(extent, fw_splat(1.0f + 0x1p-10f + world->tolerance))));
    /* A support plane proves the cores apart by more than `lim`: hit mode
     * stops at the touching band, distance mode at the early-stop distance. */
    fw lim = distance_mode ? fw_add(fw_mul(fw_splat(world->max_distance), inv_scale), k->m) : fw_add(k->m, k->tol);
    k->lim2 = fw_mul(lim, lim);
    fw touch = fw_add(k->m, k->tol);
    k->touch2 = fw_mul(touch, touch);
    k->core2 = fw_min(fw_splat(GJKB_K_TINY), k->touch2);
    k->far = distance_mode ? mw_and(valid, fw_gt(tl, fw_mul(extent, fw_splat(GJKB_K_FAR)))) : mw_false();
    /* Search direction: the warm axis where usable, else the centre offset,
     * else any axis. */
    v3w dir = v3_sel(fw_gt(tl, zero), t, v3_splat(1.0f, 0.0f, 0.0f));
    if (world->wx) {
        iw pair = iw_load((const int32_t *)(const void *)(order + o));
        v3w warm = v3_make(fw_gather_f64(world->wx, pair), fw_gather_f64(world->wy, pair),
                           fw_gather_f64(world->wz, pair));
        v3w wl = mat_mul_t(ra, warm);
        fw wl2 = v3_dot(wl, wl);
        dir = v3_sel(mw_and(fw_gt(wl2, zero), fw_isfinite(wl2)), wl, dir);
    }
    k->dir = dir;
    k->valid = valid;
}

/* Support point of the cores' difference A - B in direction d (A's scaled
 * frame); *pa and *pb get its two parts. */
static GJKB_INLINE v3w support_pair(const pack_w *k, v3w d, const gjkb__world *w, mw active, v3w *pa, v3w *pb)
{
    *pa = support_local(&k->sa, d, w, k->inv_scale, active);
    *pb = v3_add(mat_mul(k->pose.r,
                         support_local(&k->sb, mat_mul_t(k->pose.r, v3_neg(d)), w, k->inv_scale, active)),
                 k->pose.t);
    return v3_sub(*pa, *pb);
}

/* A bundle's answers in distance mode: distances (the support plane's
 * lower bound where one stopped the lane, the upper bound at the iteration
 * bound) and the witnesses, on the cores and then out along the axis by
 * each margin (stopped by a support plane: its support points, on the cores
 * and at least the reported distance apart; else the simplex's), back in
 * world scale and orientation (offsets from A's position). NaN lanes get
 * one fixed NaN, so bits never depend on which NaN an operation kept. */
static GJKB_INLINE void store_distance(const gjkb__lanes *ln, size_t o, const pack_w *pk, iw status,
                                       const simplex_w *sx, v3w v, fw vv, mw done_sep, mw done_core, fw lower,
                                       v3w plane_a, v3w plane_b, mw limit)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f), nan = fw_splat(NAN);
    mw sepd = iw_eq(status, iw_splat(K_SEPARATED)), ovl = iw_eq(status, iw_splat(K_OVERLAP));
    fw dcore = fw_sqrt(vv), gap = fw_sub(dcore, pk->m);
    fw dist = fw_sel(done_sep, lower, gap);
    dist = fw_sel(sepd, dist, fw_sel(ovl, zero, nan));
    dist = fw_sel(limit, gap, dist);
    dist = fw_mul(dist, pk->scale);
    fw_store(ln->dist + o, fw_sel(fw_eq(dist, dist), dist, nan));

    v3w wa, wb;
    simplex_witness(sx, v, &wa, &wb);
    wa = v3_sel(done_sep, plane_a, wa);
    wb = v3_sel(done_sep, plane_b, wb);
    mw has = mw_and(pk->valid, mw_and(mw_not(done_core), fw_gt(vv, zero)));
    fw inv_len = fw_div(one, fw_sel(has, dcore, one));
    v3w n = v3_scale(v3_neg(v), inv_len);
    wa = v3_scale(mat_mul(pk->ra, v3_madd(wa, n, pk->ma)), pk->scale);
    wb = v3_scale(mat_mul(pk->ra, v3_madd(wb, n, fw_neg(pk->mb))), pk->scale);
    n = mat_mul(pk->ra, n);
    has = mw_and(has, mw_and(mw_and(fw_isfinite(v3_dot(wa, wa)), fw_isfinite(v3_dot(wb, wb))),
                             fw_isfinite(v3_dot(n, n))));
    v3w nanv = v3_make(nan, nan, nan);
    v3_store(ln->ax + o, ln->ay + o, ln->az + o, v3_sel(has, wa, nanv));
    v3_store(ln->bx + o, ln->by + o, ln->bz + o, v3_sel(has, wb, nanv));
    v3_store(ln->nx + o, ln->ny + o, ln->nz + o, v3_sel(has, n, nanv));
}

/* ---- the loop state a lane carries between passes ---------------------- */

/* One row of floats per field; hit mode needs the first set only. Restored
 * into a lane whose pair is packed again, this state continues the lane
 * bit for bit as if it had never stopped (run_passes). */
#define LOOP_ROWS_HIT(X)                                                                                \
    X(sx.q[0].x) X(sx.q[0].y) X(sx.q[0].z) X(sx.q[1].x) X(sx.q[1].y) X(sx.q[1].z) X(sx.q[2].x)         \
    X(sx.q[2].y) X(sx.q[2].z) X(sx.n) X(v.x) X(v.y) X(v.z) X(vv) X(best_vv) X(ties) X(last_vw)
#define LOOP_ROWS_WITNESS(X)                                                                            \
    X(sx.qa[0].x) X(sx.qa[0].y) X(sx.qa[0].z) X(sx.qa[1].x) X(sx.qa[1].y) X(sx.qa[1].z) X(sx.qa[2].x)  \
    X(sx.qa[2].y) X(sx.qa[2].z) X(sx.l[0]) X(sx.l[1]) X(sx.l[2])
#define ROW_COUNT(f) +1
/* A field's row: read from `resume` (rows `stride` floats apart), written
 * to `rows_out` (rows GJKB_W apart). */
#define LOAD_ROW(f)      \
    f = fw_load(resume); \
    resume += stride;
#define SAVE_ROW(f)            \
    fw_store(rows_out, f);     \
    rows_out += GJKB_W;
enum { ROWS_HIT = 0 LOOP_ROWS_HIT(ROW_COUNT), ROWS = ROWS_HIT LOOP_ROWS_WITNESS(ROW_COUNT) };

/* ---- the GJK loop, hit and distance mode -------------------------------- */

/* Runs steps [start, start + cap) of the bundle's lanes, within the
 * iteration bound less the `base` steps the lanes spent before this loop
 * (hit mode's light loop, which also counts in the iterations): from the
 * start (start 0) or from the loop state in resume (rows `stride` floats
 * apart, at the bundle's first lane). Lanes still going after the last
 * step, short of the bound, get K_RETRY and their loop state in spill (rows
 * GJKB_W apart); returns their bits. */
static GJKB_INLINE unsigned gjk_bundle(const gjkb__world *world, const uint32_t *order, uint32_t count,
                                       const gjkb__lanes *ln, size_t o, const int distance_mode, uint32_t start,
                                       uint32_t cap, uint32_t base, const float *resume, size_t stride,
                                       float *spill)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f), nan = fw_splat(NAN);
    const fw eps_rel = fw_splat(GJKB_K_EPS_REL), eps_abs = fw_splat(GJKB_K_EPS_ABS);
    pack_w pk;
    pack_bundle(world, order, count, o, distance_mode, &pk);
    const mw valid = pk.valid;
    const fw m = pk.m, tol = pk.tol, lim2 = pk.lim2, touch2 = pk.touch2, tiny = pk.core2;
    const v3w dir = pk.dir;

    /* v: current closest point of A - B (at first only a direction: the
     * centre of A - B is -t, so search toward +t). */
    v3w v = v3_neg(dir);
    fw vv = v3_dot(v, v);
    simplex_w sx;
    for (int i = 0; i < 3; i++) {
        sx.q[i] = sx.qa[i] = v3_zero();
        sx.l[i] = zero;
    }
    sx.n = zero;

    mw active = valid;
    mw done_sep = mw_false();     /* stopped by a support plane */
    mw done_core = mw_false();    /* cores overlap: no witnesses */
    fw lower = nan;               /* the plane's lower bound (distance early stop) */
    v3w plane_a = v3_make(nan, nan, nan), plane_b = plane_a;   /* its support points */
    iw iters = iw_zero();
    fw ties = zero;               /* steps since |v|^2 last reached a new low */
    fw best_vv = fw_splat(INFINITY);
    fw last_vw = fw_splat(-INFINITY);   /* v.w of the lane's last step */
    mw stalled = mw_false();      /* stopped by the no-progress test */
    if (resume) {
        LOOP_ROWS_HIT(LOAD_ROW)
        if (distance_mode) {
            LOOP_ROWS_WITNESS(LOAD_ROW)
        }
    }

    const uint32_t bound = world->max_iterations - base;
    const uint32_t end = cap < bound - start ? start + cap : bound;
    gjkb__counts counts = { 0, 0 };
    for (uint32_t it = start; it < end && mw_any(active); it++) {
        count_step(&counts, active);
        v3w pa, pb;
        v3w w = support_pair(&pk, v3_neg(v), world, active, &pa, &pb);
        fw vw = v3_dot(v, w);
        iters = iw_sel(active, iw_splat((int32_t)(base + it) + 1), iters);
        last_vw = fw_sel(active, vw, last_vw);

        /* Support plane test: v.w / |v| is a lower bound on the core distance. */
        mw sep = mw_and(active, mw_and(fw_gt(vw, zero), fw_gt(fw_mul(vw, vw), fw_mul(lim2, vv))));
        done_sep = mw_or(done_sep, sep);
        lower = fw_sel(sep, fw_sub(fw_div(vw, fw_sqrt(fw_sel(sep, vv, one))), m), lower);
        plane_a = v3_sel(sep, pa, plane_a);
        plane_b = v3_sel(sep, pb, plane_b);
        active = mw_andnot(active, sep);
        /* Duality gap: v is the closest point to within the tolerance. On the
         * first step v is only a direction, so this test waits. */
        if (it > 0) {
            fw gap = fw_sub(vv, vw);
            mw conv = mw_and(active, fw_le(gap, fw_add(fw_mul(eps_rel, vv), eps_abs)));
            active = mw_andnot(active, conv);
        }
        if (!mw_any(active))
            break;

        /* The simplex with w, and its closest point. */
        step_w c = closest_step(&sx, w, pa, active, distance_mode);
        mw enclosed = c.enclosed;

        /* Cores overlap: the origin is enclosed or v vanished. */
        mw core = mw_and(active, mw_or(enclosed, fw_le(c.vv, tiny)));
        /* No progress (NaN-safe): keep the previous, consistent state. A
         * step that only ties the best |v|^2 within float noise may still be
         * real progress on a sliver simplex (curved shapes converge slowly),
         * so a few such steps since the last new low are taken. */
        mw stall = mw_andnot(active, core);
        if (it > 0) {
            mw progress = fw_lt(c.vv, best_vv);
            mw tie = mw_andnot(mw_and(fw_le(c.vv, fw_mul(best_vv, fw_splat(1.0f + GJKB_K_TIE_SLACK))),
                                      fw_lt(ties, fw_splat(GJKB_K_TIES))),
                               progress);
            stall = mw_and(stall, mw_not(mw_or(progress, tie)));
            ties = fw_sel(active, fw_sel(tie, fw_add(ties, one), zero), ties);
        } else {
            stall = mw_and(stall, mw_not(fw_isfinite(c.vv)));
        }
        mw commit = mw_andnot(mw_andnot(active, core), stall);

        sx = simplex_sel(commit, &c.s, &sx, distance_mode);
        v = v3_sel(commit, c.v, v);
        vv = fw_sel(commit, c.vv, vv);
        best_vv = fw_min(best_vv, fw_sel(commit, vv, best_vv));

        done_core = mw_or(done_core, core);
        stalled = mw_or(stalled, stall);
        active = mw_andnot(active, mw_or(core, stall));
        /* Hit mode: inside the touching band is a verdict. */
        if (!distance_mode)
            active = mw_andnot(active, fw_le(vv, touch2));
    }

    /* Verdicts. Lanes still active hit the iteration bound; if even their
     * upper bound is within the touching band they overlap all the same. */
    fw dcore = fw_sqrt(vv);
    fw gap = fw_sub(dcore, m);
    mw touching = mw_or(done_core, fw_le(gap, tol));
    mw limit = mw_andnot(active, touching);
    iw status = iw_splat(K_SEPARATED);
    status = iw_sel(touching, iw_splat(K_OVERLAP), status);
    status = iw_sel(mw_andnot(done_sep, done_core), iw_splat(K_SEPARATED), status);
    status = iw_sel(limit, iw_splat(K_LIMIT), status);
    /* Unsure: stopped without converging, with a real gap left, and not
     * already proven touching by the upper bound (an overlap's verdict is
     * settled whatever the remaining gap). */
    mw unsure = mw_andnot(mw_or(stalled, active), mw_or(touching, done_sep));
    unsure = mw_and(unsure, fw_gt(fw_sub(vv, last_vw), fw_add(fw_mul(fw_splat(GJKB_K_REFINE), vv), eps_abs)));
    /* Also unsure: settled (by the gap's absolute floor, near contact)
     * with the upper bound outside the touching band but the lower bound
     * v.w/|v| within it, so neither verdict is proven. */
    mw straddle = mw_andnot(valid, mw_or(mw_or(touching, done_sep), done_core));
    straddle = mw_and(straddle, mw_or(fw_le(last_vw, zero), fw_le(fw_mul(last_vw, last_vw), fw_mul(touch2, vv))));
    unsure = mw_or(unsure, straddle);
    status = iw_sel(unsure, iw_splat(K_REFINE), status);
    mw retry = end < bound ? mw_and(active, valid) : mw_false();
    status = iw_sel(retry, iw_splat(K_RETRY), status);
    status = iw_sel(valid, status, iw_splat(K_INVALID));
    iw_store(ln->status + o, status);
    iw_store(ln->iterations + o, iters);
    ln->counts->bundle_steps += counts.bundle_steps;
    ln->counts->lane_steps += counts.lane_steps;

    unsigned bits = mw_bits(retry);
    if (bits) {
        float *rows_out = spill;
        LOOP_ROWS_HIT(SAVE_ROW)
        if (distance_mode) {
            LOOP_ROWS_WITNESS(SAVE_ROW)
        }
    }
    if (!distance_mode) {
        fw_store(ln->dist + o, fw_sel(iw_eq(status, iw_splat(K_OVERLAP)), zero, nan));
        return bits;
    }
    store_distance(ln, o, &pk, status, &sx, v, vv, done_sep, done_core, lower, plane_a, plane_b, limit);
    return bits;
}

/* ---- the light loop: hit mode's proofs, distance mode's first steps ---- */

/* The light loop keeps the same simplex as the closest-point loop (the
 * cascade of tetra_face and tri_region) but never forms the closest point
 * while it runs: the next direction is the kept feature's normal toward the
 * origin (triple products), with no weights and no divisions. Hit mode
 * stops it only on a proof: a support plane beyond the touching band (as
 * in the closest-point loop), an enclosing tetrahedron, or a kept feature
 * within the band (its plane or line distance, where the origin projects
 * inside it). A lane with no proof after GJKB_K_PROOF_STEPS (near-touching
 * or slow curved pairs) goes on to the closest-point loop from the start,
 * those steps counted in its iterations and its bound. Distance mode's
 * lanes that have not converged after GJKB_K_LIGHT_STEPS (curved pairs
 * converge slowly to the relative gap) go on in the closest-point loop
 * from the simplex they reached. */
#ifndef GJKB_K_PROOF_STEPS
#define GJKB_K_PROOF_STEPS 16u
#endif
#ifndef GJKB_K_LIGHT_STEPS
#define GJKB_K_LIGHT_STEPS 32u
#endif
_Static_assert(GJKB_K_PROOF_STEPS > 0 && GJKB_K_LIGHT_STEPS > 0, "a light loop takes at least one step");
/* A face within the band proves only if its normal is well formed:
 * |ab x ac|^2 above this fraction of |ab|^2 |ac|^2 (an angle of about 1e-3
 * rad), so that a sliver's rounded plane cannot fake a contact. */
#define GJKB_K_SLIVER 1e-6f
/* A first-pass bundle of the light loop pauses when no more than 1/this
 * of its lanes are left (changes time only; 2, 4 and 8 measured within
 * noise of each other, 4 kept; build-time overridable). */
#ifndef GJKB_K_PAUSE
#define GJKB_K_PAUSE 4
#endif

/* The light loop's simplex: up to three kept points newest first, their
 * count, and the next search direction. */
typedef struct light_w {
    v3w q[3], qa[3];    /* qa: A parts (distance mode: for the witnesses) */
    fw n;
    v3w d;
} light_w;

/* One light step with the new point a (A part aa, kept where witnesses):
 * the cascade and the next direction; *hit gets the lanes whose kept
 * feature is proven within the band sqrt(touch2) of the origin (the origin
 * enclosed counts). */
static GJKB_INLINE light_w light_step(const light_w *s, v3w a, v3w aa, mw active, fw touch2, mw *hit,
                                      const int witnesses)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f), two = fw_splat(2.0f), three = fw_splat(3.0f);
    mw tri = mw_and(active, fw_eq(s->n, two));
    mw line = mw_and(active, fw_eq(s->n, one));
    v3w tb = s->q[0], tc = s->q[1], tba = s->qa[0], tca = s->qa[1];
    mw s3 = mw_and(active, fw_eq(s->n, three));
    /* The new point itself within the band. */
    mw in_band = fw_le(v3_len2(a), touch2);
    if (mw_any(s3)) {
        tetra_w t = tetra_face(s->q, a, s3);
        in_band = mw_or(in_band, t.enclosed);
        tb = v3_sel(t.b_is_c, s->q[1], tb);
        tc = v3_sel(t.c_is_e, s->q[2], tc);
        if (witnesses) {
            tba = v3_sel(t.b_is_c, s->qa[1], tba);
            tca = v3_sel(t.c_is_e, s->qa[2], tca);
        }
        tri = mw_or(tri, mw_andnot(s3, t.enclosed));
    }

    v3w lb = s->q[0], lba = s->qa[0];
    mw face = mw_false();
    v3w d_face = a;
    if (mw_any(tri)) {
        tri_w f = tri_region(a, tb, tc, tri);
        face = f.face;
        /* nrm.a is the plane's offset times |nrm|: the origin is on the
         * side of -nrm.a. */
        fw pn = v3_dot(f.nrm, a), nn = v3_dot(f.nrm, f.nrm);
        d_face = v3_sel(fw_gt(pn, zero), v3_neg(f.nrm), f.nrm);
        mw formed = fw_gt(nn, fw_mul(fw_splat(GJKB_K_SLIVER), fw_mul(v3_len2(f.ab), v3_len2(f.ac))));
        in_band = mw_or(in_band, mw_and(mw_and(face, formed), fw_le(fw_mul(pn, pn), fw_mul(touch2, nn))));
        mw down = mw_andnot(tri, face), down_c = mw_and(down, f.to_c);
        lb = v3_sel(down_c, tc, v3_sel(down, tb, lb));
        if (witnesses)
            lba = v3_sel(down_c, tca, v3_sel(down, tba, lba));
        line = mw_or(line, down);
    }

    mw edge = mw_false();
    v3w d_edge = a;
    if (mw_any(line)) {
        /* Segment (a, lb): the edge while the origin is ahead of a; its
         * line distance is |e x a| / |e|, a proof where the origin also
         * projects short of lb. */
        v3w e = v3_sub(lb, a), c = v3_cross(e, a);
        fw num = fw_neg(v3_dot(e, a)), ee = v3_len2(e);
        edge = mw_and(line, mw_and(fw_gt(num, zero), fw_gt(ee, zero)));
        d_edge = v3_cross(e, c);
        in_band = mw_or(in_band, mw_and(mw_and(edge, fw_lt(num, ee)), fw_le(v3_len2(c), fw_mul(touch2, ee))));
    }

    *hit = mw_and(active, in_band);
    light_w r;
    r.q[0] = a;
    r.q[1] = v3_sel(face, tb, lb);
    r.q[2] = tc;
    r.qa[0] = aa;
    r.qa[1] = witnesses ? v3_sel(face, tba, lba) : aa;
    r.qa[2] = witnesses ? tca : aa;
    r.n = fw_sel(face, three, fw_sel(edge, two, one));
    r.d = v3_sel(face, d_face, v3_sel(edge, d_edge, v3_neg(a)));
    return r;
}

/* The closest point of the light loop's kept feature (a point, a segment or
 * a triangle, newest first) and its weights, as closest_step forms them:
 * the segment clamped, the triangle by signed areas. */
static GJKB_INLINE simplex_w feature_closest(const light_w *s, v3w *v)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f), two = fw_splat(2.0f), three = fw_splat(3.0f);
    mw face = fw_eq(s->n, three), seg = fw_eq(s->n, two);
    simplex_w r;
    for (int i = 0; i < 3; i++) {
        r.q[i] = s->q[i];
        r.qa[i] = s->qa[i];
    }
    r.n = s->n;
    v3w a = s->q[0];
    fw t = zero;
    if (mw_any(seg)) {
        v3w e = v3_sub(s->q[1], a);
        fw num = fw_neg(v3_dot(e, a)), ee = v3_len2(e);
        mw in = mw_and(seg, mw_and(fw_gt(num, zero), fw_gt(ee, zero)));
        t = fw_sel(in, fw_min(fw_div(num, fw_sel(in, ee, one)), one), zero);
    }
    r.l[0] = fw_sub(one, t);
    r.l[1] = t;
    r.l[2] = zero;
    if (mw_any(face)) {
        tri_w f = tri_region(a, s->q[1], s->q[2], face);
        fw sum = fw_add(fw_add(f.wa, f.wb), f.wc);
        mw ok = mw_and(face, fw_gt(sum, zero));
        fw inv = fw_div(one, fw_sel(ok, sum, one));
        r.l[0] = fw_sel(ok, fw_mul(f.wa, inv), r.l[0]);
        r.l[1] = fw_sel(ok, fw_mul(f.wb, inv), r.l[1]);
        r.l[2] = fw_sel(ok, fw_mul(f.wc, inv), r.l[2]);
    }
    *v = v3_add(v3_add(v3_scale(a, r.l[0]), v3_scale(s->q[1], r.l[1])), v3_scale(s->q[2], r.l[2]));
    return r;
}

/* The light loops' state between passes: the simplex (distance mode: with
 * its A parts) and each lane's own step count (as float bits), so that
 * lanes paused after different numbers of steps can share a bundle when
 * they resume. */
#define LOOP_ROWS_LIGHT(X)                                                                             \
    X(s.q[0].x) X(s.q[0].y) X(s.q[0].z) X(s.q[1].x) X(s.q[1].y) X(s.q[1].z) X(s.q[2].x) X(s.q[2].y)   \
    X(s.q[2].z) X(s.n) X(s.d.x) X(s.d.y) X(s.d.z) X(steps_row)
#define LOOP_ROWS_LIGHT_WITNESS(X)                                                                      \
    X(s.qa[0].x) X(s.qa[0].y) X(s.qa[0].z) X(s.qa[1].x) X(s.qa[1].y) X(s.qa[1].z) X(s.qa[2].x)        \
    X(s.qa[2].y) X(s.qa[2].z)
enum {
    ROWS_LIGHT_HIT = 0 LOOP_ROWS_LIGHT(ROW_COUNT),
    ROWS_LIGHT_DIST = ROWS_LIGHT_HIT LOOP_ROWS_LIGHT_WITNESS(ROW_COUNT)
};
_Static_assert((int)ROWS_LIGHT_DIST <= (int)ROWS, "the queue holds every loop's state");

/* Runs at most cap light steps of the bundle's lanes (hit mode: the proof
 * loop; distance mode: the same steps with the A parts, stopping where the
 * duality gap of the kept feature has closed, in the closest-point loop's
 * terms, then forming that feature's closest point once), each lane within
 * its own budget of `budget` steps, from the start or from the state in
 * resume (as in gjk_bundle). On a first pass (not resume), a bundle whose
 * active lanes fall to a quarter of its width (GJKB_K_PAUSE) pauses early: its few lanes
 * wait for a dense bundle instead of holding this one (a lane's answer does
 * not depend on where it pauses). Lanes still going get K_RETRY and their
 * state in spill (returned bits); lanes that spent the budget get K_LIMIT
 * where it is the iteration bound, else K_RETRY too and go on to the
 * closest-point loop (*handover; distance mode: with that loop's state in
 * hand_spill). */
static GJKB_INLINE unsigned light_bundle(const gjkb__world *world, const uint32_t *order, uint32_t count,
                                         const gjkb__lanes *ln, size_t o, uint32_t cap, uint32_t budget,
                                         const float *resume, size_t stride, float *spill, float *hand_spill,
                                         unsigned *handover, const int distance_mode)
{
    const fw zero = fw_zero(), nan = fw_splat(NAN);
    const fw eps_rel = fw_splat(GJKB_K_EPS_REL), eps_abs = fw_splat(GJKB_K_EPS_ABS);
    pack_w pk;
    pack_bundle(world, order, count, o, distance_mode, &pk);
    const fw lim2 = pk.lim2, touch2 = pk.touch2, m = pk.m;
    /* Hit mode settles within the touching band; distance mode only where
     * the cores meet (the closest-point loop's rule). */
    const fw band2 = distance_mode ? pk.core2 : touch2;
    light_w s;
    for (int i = 0; i < 3; i++)
        s.q[i] = s.qa[i] = v3_zero();
    s.n = zero;
    s.d = pk.dir;
    fw steps_row = zero;
    if (resume) {
        LOOP_ROWS_LIGHT(LOAD_ROW)
        if (distance_mode) {
            LOOP_ROWS_LIGHT_WITNESS(LOAD_ROW)
        }
    }
    iw steps = resume ? fw_bits(steps_row) : iw_zero();
    const iw one = iw_splat(1), last = iw_splat((int32_t)budget);
    mw active = mw_andnot(mw_andnot(pk.valid, pk.apart), pk.far), hit = mw_false(), spent = mw_false();
    /* distance mode: converged lanes and their last support plane; lanes a
     * support plane put beyond the early-stop distance */
    mw conv = mw_false(), done_sep = mw_false(), unsure = mw_false();
    fw last_da = zero, last_dd = zero, lower = nan;
    v3w plane_a = v3_make(nan, nan, nan), plane_b = plane_a;
    gjkb__counts counts = { 0, 0 };
    for (uint32_t n = 0; n < cap && mw_any(active); n++) {
        count_step(&counts, active);
        v3w pa, pb;
        v3w a = support_pair(&pk, s.d, world, active, &pa, &pb);
        steps = iw_sel(active, iw_add(steps, one), steps);
        /* Support plane: -d.a / |d| is a lower bound on the core distance. */
        fw da = v3_dot(s.d, a), dd = v3_len2(s.d);
        mw sep = mw_and(active, mw_and(fw_lt(da, zero), fw_gt(fw_mul(da, da), fw_mul(lim2, dd))));
        active = mw_andnot(active, sep);
        if (distance_mode) {
            done_sep = mw_or(done_sep, sep);
            lower = fw_sel(sep, fw_sub(fw_div(fw_neg(da), fw_sqrt(fw_sel(sep, dd, fw_splat(1.0f)))), m), lower);
            plane_a = v3_sel(sep, pa, plane_a);
            plane_b = v3_sel(sep, pb, plane_b);
            /* Duality gap of the kept feature (distance U = -d.q0 / |d|)
             * against the plane (L = -d.a / |d|), times |d|^2:
             * U (U - L) <= eps_rel U^2 + eps_abs. */
            fw dq = v3_dot(s.d, s.q[0]);
            mw c = mw_and(mw_and(active, fw_gt(s.n, zero)),
                          fw_le(fw_mul(fw_neg(dq), fw_sub(da, dq)),
                                fw_add(fw_mul(eps_rel, fw_mul(dq, dq)), fw_mul(eps_abs, dd))));
            last_da = fw_sel(c, da, last_da);
            last_dd = fw_sel(c, dd, last_dd);
            conv = mw_or(conv, c);
            active = mw_andnot(active, c);
        }
        if (!mw_any(active))
            break;
        mw h;
        light_w next = light_step(&s, a, pa, active, band2, &h, distance_mode);
        if (distance_mode) {
            /* The new feature must be nearer (U'^2 < U^2, cross-multiplied).
             * Where rounding picked one that is not, or the lane's budget
             * is spent, it stops on the feature it has: settled if its gap
             * is within the closest-point loop's refine threshold (as that
             * loop settles a stalled lane); else a stalled lane goes to the
             * reference and a lane out of budget on to the closest-point
             * loop (at the iteration bound: LIMIT). */
            fw dq = v3_dot(s.d, s.q[0]), nq = v3_dot(next.d, next.q[0]);
            mw going = mw_and(mw_andnot(active, h), fw_gt(s.n, zero));
            mw stall = mw_andnot(going, fw_lt(fw_mul(fw_mul(nq, nq), dd), fw_mul(fw_mul(dq, dq), v3_len2(next.d))));
            mw out = mw_andnot(mw_andnot(going, stall), iw_lt(steps, last));
            mw close = fw_le(fw_mul(fw_neg(dq), fw_sub(da, dq)),
                             fw_add(fw_mul(fw_splat(GJKB_K_REFINE), fw_mul(dq, dq)), fw_mul(eps_abs, dd)));
            mw settled = mw_and(mw_or(stall, out), close);
            last_da = fw_sel(settled, da, last_da);
            last_dd = fw_sel(settled, dd, last_dd);
            conv = mw_or(conv, settled);
            unsure = mw_or(unsure, mw_andnot(stall, close));
            spent = mw_or(spent, mw_andnot(out, close));
            active = mw_andnot(active, mw_or(stall, out));
        }
        for (int i = 0; i < 3; i++) {
            s.q[i] = v3_sel(active, next.q[i], s.q[i]);
            if (distance_mode)
                s.qa[i] = v3_sel(active, next.qa[i], s.qa[i]);
        }
        s.n = fw_sel(active, next.n, s.n);
        s.d = v3_sel(active, next.d, s.d);
        hit = mw_or(hit, h);
        active = mw_andnot(active, h);
        mw out = mw_andnot(active, iw_lt(steps, last));
        spent = mw_or(spent, out);
        active = mw_andnot(active, out);
        if (!resume && __builtin_popcount(mw_bits(active)) * GJKB_K_PAUSE <= GJKB_W)
            break;
    }
    const int bounded = budget >= world->max_iterations;
    mw left = mw_and(active, pk.valid);
    mw limit = bounded ? spent : mw_false();
    iw status;
    v3w v = v3_zero();
    fw vv = zero;
    simplex_w sx;
    if (!distance_mode) {
        status = iw_sel(hit, iw_splat(K_OVERLAP), iw_splat(K_SEPARATED));
        status = iw_sel(limit, iw_splat(K_LIMIT), status);
    } else {
        /* The kept feature's closest point; a lane stopped by a support
         * plane reports along its search direction. */
        sx = feature_closest(&s, &v);
        v = v3_sel(done_sep, v3_neg(s.d), v);
        vv = v3_len2(v);
        mw touching = mw_or(hit, fw_le(fw_sub(fw_sqrt(vv), m), pk.tol));
        limit = mw_andnot(limit, touching);
        status = iw_sel(touching, iw_splat(K_OVERLAP), iw_splat(K_SEPARATED));
        status = iw_sel(mw_andnot(done_sep, hit), iw_splat(K_SEPARATED), status);
        status = iw_sel(limit, iw_splat(K_LIMIT), status);
        /* Converged outside the touching band with the plane's lower bound
         * inside it: neither verdict is proven in float (the reference
         * answers, as in the closest-point loop). */
        mw straddle = mw_andnot(conv, touching);
        straddle = mw_and(straddle, mw_or(fw_ge(last_da, zero), fw_le(fw_mul(last_da, last_da),
                                                                       fw_mul(touch2, last_dd))));
        status = iw_sel(mw_or(mw_or(straddle, unsure), pk.far), iw_splat(K_REFINE), status);
    }
    status = iw_sel(left, iw_splat(K_RETRY), status);
    status = iw_sel(mw_andnot(spent, limit), bounded ? status : iw_splat(K_RETRY), status);
    status = iw_sel(pk.valid, status, iw_splat(K_INVALID));
    iw_store(ln->status + o, status);
    iw_store(ln->iterations + o, steps);
    ln->counts->bundle_steps += counts.bundle_steps;
    ln->counts->lane_steps += counts.lane_steps;
    if (distance_mode)
        store_distance(ln, o, &pk, status, &sx, v, vv, done_sep, hit, lower, plane_a, plane_b, limit);
    else
        fw_store(ln->dist + o, fw_sel(hit, zero, nan));
    *handover = bounded ? 0u : mw_bits(mw_and(spent, pk.valid));
    if (distance_mode && *handover) {
        /* The closest-point loop goes on from this simplex, as if it had
         * run these steps itself. */
        fw best_vv = vv, ties = zero, last_vw = fw_splat(-INFINITY);
        float *rows_out = hand_spill;
        LOOP_ROWS_HIT(SAVE_ROW)
        LOOP_ROWS_WITNESS(SAVE_ROW)
    }
    unsigned bits = mw_bits(left);
    if (bits) {
        steps_row = fw_from_bits(steps);
        float *rows_out = spill;
        LOOP_ROWS_LIGHT(SAVE_ROW)
        if (distance_mode) {
            LOOP_ROWS_LIGHT_WITNESS(SAVE_ROW)
        }
    }
    return bits;
}

/* ---- passes ------------------------------------------------------------- */

/* The loops a lane can be in: hit mode's proof loop and distance mode's
 * light loop first, then their closest-point loops for the lanes those
 * hand over. */
enum { LOOP_PROOF, LOOP_LIGHT, LOOP_HIT, LOOP_DISTANCE };

static GJKB_INLINE int loop_rows(const int loop)
{
    static const int rows[] = { ROWS_LIGHT_HIT, ROWS_LIGHT_DIST, ROWS_HIT, ROWS };
    return rows[loop];
}

static GJKB_INLINE int loop_witnesses(const int loop)
{
    return loop == LOOP_LIGHT || loop == LOOP_DISTANCE;
}

/* Steps a light loop may take (within the bound). */
static inline uint32_t light_budget(const gjkb__world *w, const int loop)
{
    uint32_t steps = loop == LOOP_LIGHT ? GJKB_K_LIGHT_STEPS : GJKB_K_PROOF_STEPS;
    return w->max_iterations < steps ? w->max_iterations : steps;
}

/* At most cap steps of a bundle in one of the loops: the closest-point
 * loops' steps [start, start + cap); the proof loop keeps each lane's count
 * itself and reports the lanes it hands over. */
static GJKB_INLINE unsigned loop_bundle(const int loop, const gjkb__world *w, const uint32_t *order, uint32_t count,
                                        const gjkb__lanes *l, size_t o, uint32_t start, uint32_t cap, uint32_t base,
                                        const float *resume, size_t stride, float *spill, float *hand_spill,
                                        unsigned *handover)
{
    *handover = 0;
    if (loop == LOOP_PROOF || loop == LOOP_LIGHT)
        return light_bundle(w, order, count, l, o, cap, light_budget(w, loop), resume, stride, spill, hand_spill,
                            handover, loop == LOOP_LIGHT);
    return gjk_bundle(w, order, count, l, o, loop == LOOP_DISTANCE, start, cap, base, resume, stride, spill);
}

/* Lanes that outlast a pass wait here, this many at a time, with their loop
 * state and their lane in the chunk. */
enum { QCAP = 4 * GJKB_PACK_ALIGN, QROW = QCAP + GJKB_W };
typedef struct lane_queue {
    /* W past the capacity: a push may store a whole bundle (compress) */
    _Alignas(64) float rows[ROWS][QROW];
    uint32_t lane[QROW];
    uint32_t n;
} lane_queue;

/* Appends the lanes `bits` of a bundle (loop state in spill, chunk lanes
 * from lane[0, W) or, without lane, from `first` on). */
static inline void queue_push(lane_queue *q, const float *spill, unsigned bits, const uint32_t *lane,
                              uint32_t first, int rows)
{
#ifdef GJKB_WIDE_COMPRESS
    /* Row by row, the lanes packed down and stored whole. */
    if (bits) {
        mw m = mw_from_bits(bits);
        for (int r = 0; r < rows; r++)
            iw_storeu((int32_t *)(void *)&q->rows[r][q->n], iw_compress(m, fw_bits(fw_load(spill + r * GJKB_W))));
        iw ids = lane ? iw_loadu((const int32_t *)(const void *)lane)
                      : iw_add(iw_splat((int32_t)first), iw_lane_index());
        iw_storeu((int32_t *)(void *)&q->lane[q->n], iw_compress(m, ids));
        q->n += (uint32_t)__builtin_popcount(bits);
    }
#else
    for (int i = 0; bits; i++, bits >>= 1) {
        if (!(bits & 1u))
            continue;
        for (int r = 0; r < rows; r++)
            q->rows[r][q->n] = spill[r * GJKB_W + i];
        q->lane[q->n++] = lane ? lane[i] : first + (uint32_t)i;
    }
#endif
}

/* One pass of `loop` over the queued lanes `in`: their pairs packed again
 * (through local pair arrays) and either their loop state restored (the
 * closest-point loops: all `start` steps in) or (fresh) started from the
 * beginning; at most `cap` more steps; lanes that finish go to their chunk
 * lanes, the rest to `out`, lanes the proof loop hands over to `handover`.
 * Lane by lane the same work whatever the width or the neighbours, so the
 * bits are too. */
static GJKB_INLINE void resume_pass(const gjkb__world *w, const uint32_t *order, const gjkb__lanes *l,
                                    const lane_queue *in, lane_queue *out, lane_queue *handover, uint32_t start,
                                    uint32_t cap, uint32_t base, int fresh, const int loop)
{
    _Alignas(64) uint32_t iota[QCAP];
    _Alignas(64) int32_t pa[QCAP], pb[QCAP], ka[QCAP], kb[QCAP], status[QCAP], iters[QCAP];
    _Alignas(64) float d[3][QCAP];
    _Alignas(64) float res[10][QCAP];
    _Alignas(64) float spill[ROWS * GJKB_W], hand_spill[ROWS * GJKB_W];
    _Alignas(64) double warm[3][QCAP];
    const uint32_t n = in->n;
    const int warm_start = fresh && w->wx;
    for (uint32_t i = 0; i < QCAP; i++) {
        uint32_t j = in->lane[i < n ? i : 0];
        iota[i] = i;
        pa[i] = w->lane_a[j];
        pb[i] = w->lane_b[j];
        ka[i] = w->lane_ka[j];
        kb[i] = w->lane_kb[j];
        d[0][i] = w->lane_dx[j];
        d[1][i] = w->lane_dy[j];
        d[2][i] = w->lane_dz[j];
        if (warm_start) {
            uint32_t pair = order[j];
            warm[0][i] = w->wx[pair];
            warm[1][i] = w->wy[pair];
            warm[2][i] = w->wz[pair];
        }
    }
    gjkb__world rw = *w;
    rw.lane_a = pa;
    rw.lane_b = pb;
    rw.lane_ka = ka;
    rw.lane_kb = kb;
    rw.lane_dx = d[0];
    rw.lane_dy = d[1];
    rw.lane_dz = d[2];
    /* A resumed lane's direction comes with its state. */
    rw.wx = warm_start ? warm[0] : NULL;
    rw.wy = warm_start ? warm[1] : NULL;
    rw.wz = warm_start ? warm[2] : NULL;
    gjkb__lanes rl = { status, iters, res[0], res[1], res[2], res[3], res[4],
                       res[5], res[6], res[7], res[8], res[9], l->counts };
    for (uint32_t o = 0; o < n; o += GJKB_W) {
        unsigned hand;
        unsigned bits = loop_bundle(loop, &rw, iota, n, &rl, o, start, cap, base, fresh ? NULL : &in->rows[0][o],
                                    QROW, spill, hand_spill, &hand);
        queue_push(out, spill, bits, in->lane + o, 0, loop_rows(loop));
        queue_push(handover, hand_spill, hand, in->lane + o, 0, loop == LOOP_LIGHT ? ROWS : 0);
    }
    float *const to[9] = { l->ax, l->ay, l->az, l->bx, l->by, l->bz, l->nx, l->ny, l->nz };
    for (uint32_t i = 0; i < n; i++) {
        if (status[i] == K_RETRY)
            continue;
        uint32_t j = in->lane[i];
        l->status[j] = status[i];
        l->iterations[j] = iters[i];
        l->dist[j] = res[0][i];
        if (loop_witnesses(loop))
            for (int k = 0; k < 9; k++)
                to[k][j] = res[1 + k][i];
    }
}

static inline uint32_t loop_cap(const int loop)
{
    return loop_witnesses(loop) ? GJKB_K_DIST_CAP : GJKB_K_HIT_CAP;
}

/* Pass after pass over the lanes queued in *a (all `start` steps into
 * `loop`, or fresh), b the other queue, until none is left; a pass's
 * leftovers are at most its lanes, so the other queue has room. */
static GJKB_INLINE void drain_loop(const gjkb__world *w, const uint32_t *order, const gjkb__lanes *l, lane_queue *a,
                                   lane_queue *b, lane_queue *hand, uint32_t start, uint32_t base, int fresh,
                                   const int loop)
{
    const uint32_t cap = loop_cap(loop);
    while (a->n > 0) {
        b->n = 0;
        resume_pass(w, order, l, a, b, hand, start, cap, base, fresh, loop);
        lane_queue *t = a;
        a = b;
        b = t;
        start += cap;
        fresh = 0;
    }
}

/* The queued lanes *a to the end; lanes the proof loop hands over (into
 * *hand) start over in the closest-point loop, their proof steps counted. */
static GJKB_INLINE void drain(const gjkb__world *w, const uint32_t *order, const gjkb__lanes *l, lane_queue *a,
                              lane_queue *b, lane_queue *hand, uint32_t start, const int loop)
{
    drain_loop(w, order, l, a, b, hand, start, 0, 0, loop);
    /* The closest-point loops hand nothing over: b stays empty. Hit mode's
     * starts over (base: the proof steps), distance mode's goes on from
     * the light loop's simplex. */
    if (loop == LOOP_PROOF && hand->n > 0)
        drain_loop(w, order, l, hand, a, b, 0, light_budget(w, loop), 1, LOOP_HIT);
    if (loop == LOOP_LIGHT && hand->n > 0)
        drain_loop(w, order, l, hand, a, b, light_budget(w, loop), 0, 0, LOOP_DISTANCE);
    hand->n = 0;
}

/* A chunk in passes: every bundle once, then the lanes left over, packed
 * densely into bundles of their own, pass after pass until none is left,
 * so that a few slow lanes do not hold up whole bundles. A lane's state
 * survives between passes, so its answer does not depend on the pass
 * length. Hit mode starts in the proof loop. */
static GJKB_INLINE void run_passes(const gjkb__world *w, const uint32_t *order, uint32_t count, const gjkb__lanes *l,
                                   const int loop)
{
    lane_queue q[3];
    _Alignas(64) float spill[ROWS * GJKB_W], hand_spill[ROWS * GJKB_W];
    const uint32_t cap = loop_cap(loop);
    q[0].n = q[2].n = 0;
    for (uint32_t o = 0; o < count; o += GJKB_W) {
        unsigned hand;
        unsigned bits = loop_bundle(loop, w, order, count, l, o, 0, cap, 0, NULL, 0, spill, hand_spill, &hand);
        queue_push(&q[0], spill, bits, NULL, (uint32_t)o, loop_rows(loop));
        queue_push(&q[2], hand_spill, hand, NULL, (uint32_t)o, loop == LOOP_LIGHT ? ROWS : 0);
        if ((q[0].n > 0 || q[2].n > 0) &&
            (q[0].n + q[2].n + GJKB_W > QCAP || o + GJKB_W >= count)) {
            drain(w, order, l, &q[0], &q[1], &q[2], cap, loop);
            q[0].n = q[2].n = 0;
        }
    }
}

/* One copy per mode, so hit mode's closest-point fallback carries no
 * witness state at all. */
static void gjk_bundles_hit(const gjkb__world *w, const uint32_t *order, uint32_t count, const gjkb__lanes *l)
{
    run_passes(w, order, count, l, LOOP_PROOF);
}

static void gjk_bundles_distance(const gjkb__world *w, const uint32_t *order, uint32_t count, const gjkb__lanes *l)
{
    run_passes(w, order, count, l, LOOP_LIGHT);
}

/* The record rows of W bodies whose arrays start at the given pointers:
 * the rotation as pack would make it, the sizes and margin as they are
 * (pack validates them), and for a hull body with a registered id its hull
 * table entry (0 otherwise). */
static inline void record_rows(const gjkb__world *w, const float *const q[4], const float *const sz[3],
                               const float *margin, const int32_t *kind, const int32_t *hull, uint32_t hulls,
                               fw rows[GJKB_RECORD])
{
    const fw zero = fw_zero();
    mw ok = quat_rotation(fw_loadu(q[0]), fw_loadu(q[1]), fw_loadu(q[2]), fw_loadu(q[3]), rows + GJKB_REC_R0);
    rows[GJKB_REC_R0] = fw_sel(ok, rows[GJKB_REC_R0], fw_splat(NAN));
    for (int k = 0; k < 3; k++)
        rows[GJKB_REC_SX + k] = fw_loadu(sz[k]);
    rows[GJKB_REC_MARGIN] = margin ? fw_loadu(margin) : zero;
    iw hf = iw_zero(), hn = iw_zero();
    fw hr = zero;
    if (hull) {
        /* registered: 0 <= id < hulls as int32 (ids past INT32_MAX are not) */
        iw id = iw_loadu(hull);
        mw reg = mw_and(iw_eq(iw_loadu(kind), iw_splat(GJKB_HULL)),
                        mw_andnot(iw_lt(id, iw_splat((int32_t)hulls)), iw_lt(id, iw_zero())));
        if (mw_any(reg)) {
            id = iw_sel(reg, id, iw_zero());
            hf = iw_sel(reg, iw_gather(w->hull_first, id), iw_zero());
            hn = iw_sel(reg, iw_gather(w->hull_n, id), iw_zero());
            hr = fw_sel(reg, fw_gather(w->hull_radius, id), zero);
        }
    }
    rows[GJKB_REC_HULL_FIRST] = fw_from_bits(hf);
    rows[GJKB_REC_HULL_N] = fw_from_bits(hn);
    rows[GJKB_REC_HULL_RADIUS] = hr;
}

/* Bodies' records, a bundle at a time, transposed into records in
 * registers; a short tail through a padded copy (its extra lanes are
 * made and dropped), so every record comes from the same code. */
void GJKB_FN(gjkb__records_run)(const gjkb__world *w, const uint8_t *kind, uint32_t hulls, uint32_t first,
                                uint32_t end, float *out);
void GJKB_FN(gjkb__records_run)(const gjkb__world *w, const uint8_t *kind, uint32_t hulls, uint32_t first,
                                uint32_t end, float *out)
{
    for (uint32_t i = first; i < end; i += GJKB_W) {
        const uint32_t n = end - i < GJKB_W ? end - i : GJKB_W;
        _Alignas(GJKB_ALIGN) float pad[8][GJKB_W];
        _Alignas(GJKB_ALIGN) int32_t k[GJKB_W], hid[GJKB_W];
        const float *q[4] = { w->qw + i, w->qx + i, w->qy + i, w->qz + i };
        const float *sz[3] = { w->sx + i, w->sy + i, w->sz + i };
        const float *margin = w->margin ? w->margin + i : NULL;
        const int32_t *hull = w->hull ? w->hull + i : NULL;
        for (uint32_t l = 0; l < GJKB_W; l++)
            k[l] = l < n ? kind[i + l] : 0;
        if (n < GJKB_W) {
            const float *src[8] = { q[0], q[1], q[2], q[3], sz[0], sz[1], sz[2], margin };
            for (int f = 0; f < 8; f++)
                for (uint32_t l = 0; l < GJKB_W; l++)
                    pad[f][l] = l < n && src[f] ? src[f][l] : 0.0f;
            for (int f = 0; f < 4; f++)
                q[f] = pad[f];
            for (int f = 0; f < 3; f++)
                sz[f] = pad[4 + f];
            margin = margin ? pad[7] : NULL;
            if (hull) {
                for (uint32_t l = 0; l < GJKB_W; l++)
                    hid[l] = l < n ? hull[l] : 0;
                hull = hid;
            }
        }
        fw rows[GJKB_RECORD];
        record_rows(w, q, sz, margin, k, hull, hulls, rows);
        if (n == GJKB_W) {
            fw_store_records(out + (size_t)i * GJKB_RECORD, rows);
        } else {
            _Alignas(64) float tail[GJKB_W * GJKB_RECORD];
            fw_store_records(tail, rows);
            memcpy(out + (size_t)i * GJKB_RECORD, tail, (size_t)n * GJKB_RECORD * sizeof(float));
        }
    }
}

/* The exported entry: the pairs order[0, count) of a chunk. */
void GJKB_FN(gjkb__gjk_run)(const gjkb__world *w, const uint32_t *order, uint32_t count, const gjkb__lanes *l);
void GJKB_FN(gjkb__gjk_run)(const gjkb__world *w, const uint32_t *order, uint32_t count, const gjkb__lanes *l)
{
    if (w->distance_mode)
        gjk_bundles_distance(w, order, count, l);
    else
        gjk_bundles_hit(w, order, count, l);
}
