/* shape.inl - the shape core of the wide kernels, W bodies at a time: what
 * a kind and its sizes mean, the validity rule, the rotation, the analytic
 * support point and the bounding extent. The GJK kernel (gjk.inl) and the
 * bounds kernel (bounds.inl) both build on it, so a new analytic kind is
 * taught to the kernels here alone (see docs/extending.md).
 *
 * Every analytic core is box half extents h plus a disk of radius rd in
 * local xy (sphere: a point, capsule: a segment, cylinder: segment + disk);
 * a cone picks between its apex (0,0,h.z) and its base rim (the disk at
 * z = -h.z). Sphere and capsule radii are rounding, added to the margin.
 * A hull's points live in the hull table (hull support: support.inl). */

#include "gjkbatch.h"

#include <math.h>

/* One side's analytic core and rounding, W lanes. */
typedef struct core_w {
    v3w h;
    fw rd;
    fw margin;        /* total rounding radius (sphere/capsule radius included) */
    mw cone, hull;
} core_w;

/* The rules: a size or margin x is valid where 0 <= x <= GJKB_MAX_COORD,
 * a quaternion component or an offset where |x| <= GJKB_MAX_COORD; NaN
 * never is. */

/* The coordinate rule for three or four values at once, where `sum` (a sum
 * of their squares) is NaN if one of them is: the largest magnitude against
 * the bound (max may drop a NaN, the sum keeps it). */
static GJKB_INLINE mw sh_coords_ok(fw a, fw b, fw c, fw d, fw sum)
{
    fw big = fw_max(fw_max(fw_abs(a), fw_abs(b)), fw_max(fw_abs(c), fw_abs(d)));
    return mw_and(fw_le(big, fw_splat((float)GJKB_MAX_COORD)), fw_eq(sum, sum));
}

/* The core of kind `kind` with sizes s and margin m, and in *valid the
 * lanes whose sizes and margin are in range. */
static GJKB_INLINE core_w sh_core(iw kind, const fw s[3], fw m, mw *valid)
{
    const fw zero = fw_zero();
    /* the size rule for all four: the least and the largest in range, and
     * no NaN (min and max may drop one, the sum keeps it) */
    fw lo = fw_min(fw_min(s[0], s[1]), fw_min(s[2], m)), hi = fw_max(fw_max(s[0], s[1]), fw_max(s[2], m));
    fw sum = fw_add(fw_add(s[0], s[1]), fw_add(s[2], m));
    *valid = mw_and(*valid, mw_and(mw_and(fw_ge(lo, zero), fw_le(hi, fw_splat((float)GJKB_MAX_COORD))), fw_eq(sum, sum)));
    mw sphere = iw_eq(kind, iw_splat(GJKB_SPHERE)), capsule = iw_eq(kind, iw_splat(GJKB_CAPSULE));
    mw box = iw_eq(kind, iw_splat(GJKB_BOX)), cylinder = iw_eq(kind, iw_splat(GJKB_CYLINDER));
    mw cone = iw_eq(kind, iw_splat(GJKB_CONE));
    mw round = mw_or(cylinder, cone);
    core_w c;
    c.h = v3_make(fw_sel(box, s[0], zero), fw_sel(box, s[1], zero),
                  fw_sel(mw_or(mw_or(box, capsule), round), s[2], zero));
    c.rd = fw_sel(round, s[0], zero);
    c.margin = fw_add(m, fw_sel(mw_or(sphere, capsule), s[0], zero));
    c.cone = cone;
    c.hull = iw_eq(kind, iw_splat(GJKB_HULL));
    return c;
}

/* Rotation matrix (row major) of the quaternion (w, x, y, z) with
 * s = 2/|q|^2; for a unit quaternion s = 2. */
static GJKB_INLINE void sh_quat_matrix(fw w, fw x, fw y, fw z, fw s, fw m[9])
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

/* Valid quaternions (finite, not oversized, not zero: the float rule of
 * the host's validity check), and their squared length in *qq. */
static GJKB_INLINE mw sh_quat_ok(fw qw, fw qx, fw qy, fw qz, fw *qq)
{
    *qq = fw_add(fw_add(fw_add(fw_mul(qw, qw), fw_mul(qx, qx)), fw_mul(qy, qy)), fw_mul(qz, qz));
    mw ok = sh_coords_ok(qw, qx, qy, qz, *qq);
    return mw_and(ok, fw_ge(*qq, fw_splat(1e-30f)));
}

/* The GJK kernel's rotation of quaternions (w, x, y, z), normalized on the
 * way by s = 2/|q|^2 (one division, no square root); ok lanes returned.
 * The bounds kernel normalizes q first instead (bounds.inl): either matrix
 * is a rotation within a few ulps, and each kernel keeps its own bits. */
static GJKB_INLINE mw sh_quat_rotation(fw qw, fw qx, fw qy, fw qz, fw m[9])
{
    fw qq;
    mw ok = sh_quat_ok(qw, qx, qy, qz, &qq);
    sh_quat_matrix(qw, qx, qy, qz, fw_div(fw_splat(2.0f), fw_sel(ok, qq, fw_splat(1.0f))), m);
    return ok;
}

/* Support point of the analytic cores in local direction d; any_round and
 * any_cone: some lane of the bundle has a disk or is a cone (blocks no lane
 * needs are skipped, which changes time, never bits). */
static GJKB_INLINE v3w sh_support(const core_w *c, v3w d, int any_round, int any_cone)
{
    const fw zero = fw_zero();
    v3w p = v3_make(fw_copysign(c->h.x, d.x), fw_copysign(c->h.y, d.y), fw_copysign(c->h.z, d.z));
    /* Each block is per lane: a cone without a disk (radius 0) still takes
     * the cone's tie rule, whatever its neighbours are. */
    if (any_round || any_cone) {
        fw len = fw_sqrt(fw_add(fw_mul(d.x, d.x), fw_mul(d.y, d.y)));
        if (any_round) {
            /* Disk in local xy: radius times the unit radial direction (none
             * when d is along z). */
            mw radial = fw_gt(len, zero);
            fw k = fw_sel(radial, fw_div(c->rd, fw_sel(radial, len, fw_splat(1.0f))), zero);
            /* Lanes without a disk keep p as is: adding a zero could turn a
             * -0 into +0, and then the bits would depend on the neighbours. */
            mw disk = fw_gt(c->rd, zero);
            p.x = fw_sel(disk, fw_add(p.x, fw_mul(k, d.x)), p.x);
            p.y = fw_sel(disk, fw_add(p.y, fw_mul(k, d.y)), p.y);
        }
        if (any_cone) {
            /* Cone: apex (0,0,h) against the base rim (q, -h); ties go to the rim. */
            fw hdz = fw_mul(c->h.z, d.z);
            mw apex = mw_and(c->cone, fw_gt(hdz, fw_sub(fw_mul(c->rd, len), hdz)));
            mw rim = mw_andnot(c->cone, apex);
            p.x = fw_sel(apex, zero, p.x);
            p.y = fw_sel(apex, zero, p.y);
            p.z = fw_sel(apex, c->h.z, fw_sel(rim, fw_neg(c->h.z), p.z));
        }
    }
    return p;
}

/* The analytic core's extent about its origin along each world axis a,
 * rotated by r (lo[a] <= x_a <= hi[a] for every core point x):
 *   box       +-sum_j |R_aj| h_j
 *   capsule   +-|R_a2| h (a segment)
 *   cylinder  +-(|R_a2| h + r sqrt(R_a0^2 + R_a1^2)): segment plus a disk
 *   cone      apex at h R_a2, base disk around -h R_a2: the min and max of
 *             h R_a2 and -h R_a2 -+ r sqrt(R_a0^2 + R_a1^2)
 * A disk of radius r with unit axis u reaches r sqrt(1 - u_a^2) along axis
 * a; sqrt(R_a0^2 + R_a1^2) is that for an exact rotation and, unlike
 * 1 - u_a^2, keeps its relative accuracy when u is nearly along axis a.
 * Margins are not included. */
static GJKB_INLINE void sh_extent(const core_w *c, const fw r[9], fw lo[3], fw hi[3])
{
    for (int a = 0; a < 3; a++) {
        fw rx = r[3 * a], ry = r[3 * a + 1];
        fw tip = fw_mul(r[3 * a + 2], c->h.z);   /* the axis end at +h */
        fw e = fw_add(fw_add(fw_mul(fw_abs(rx), c->h.x), fw_mul(fw_abs(ry), c->h.y)), fw_abs(tip));
        fw d = fw_mul(c->rd, fw_sqrt(fw_add(fw_mul(rx, rx), fw_mul(ry, ry))));
        fw ed = fw_add(e, d);
        lo[a] = fw_sel(c->cone, fw_min(tip, fw_neg(fw_add(tip, d))), fw_neg(ed));
        hi[a] = fw_sel(c->cone, fw_max(tip, fw_sub(d, tip)), ed);
    }
}

/* A bound on the analytic core's distance from its origin (margin not
 * included): the pair's scale and tolerances are made of it (pack.inl). */
static GJKB_INLINE fw sh_radius(const core_w *c)
{
    return fw_sqrt(fw_add(v3_dot(c->h, c->h), fw_mul(c->rd, c->rd)));
}

/* The radius of a ball about the analytic core's origin inside the core
 * (margin not included): a box's least half extent, a cylinder's least of
 * radius and half height; 0 for points, segments, cones and hulls. */
static GJKB_INLINE fw sh_inner(const core_w *c)
{
    fw r = fw_min(fw_min(fw_add(c->h.x, c->rd), fw_add(c->h.y, c->rd)), c->h.z);
    return fw_sel(c->cone, fw_zero(), r);
}

/* An L1 bound on the analytic core's points (bounds.inl's rounding slack):
 * the box's half extents plus 1.5 times the disk radius. */
static GJKB_INLINE fw sh_l1_size(const core_w *c)
{
    return fw_add(fw_add(fw_add(c->h.x, c->h.y), c->h.z), fw_mul(c->rd, fw_splat(1.5f)));
}
