/* ref_geom.c - the reference's shape geometry: rotations and the cores'
 * support functions, in double (shared by GJK, EPA and the manifolds;
 * nothing here is shared with the wide kernels). */
#include "scalar/ref_geom.h"

/* hypot's kernel for ax >= ay >= 0: ax^2 + ay^2 rounded once by fma, in
 * the form that is exact when ay > ax / 2 ((2 ay) ax + (ax - ay)^2), then
 * sqrt (Borges, "An improved algorithm for hypot(a, b)", 2019: glibc's
 * kernel where FMA is native). */
static double hypot_kernel(double ax, double ay)
{
    double t1 = ay + ay, t2 = ax - ay;
    if (t1 >= ax)
        return sqrt(fma(t1, ax, t2 * t2));
    return sqrt(fma(ax, ax, ay * ay));
}

/* Not libm's hypot: glibc builds it with FMA on aarch64 and without on
 * x86-64, and the two differ in the last bit for about one argument pair in
 * eight (2.36: hypot(0x1.adf094a5117ap-1, 0x1.9667bbaff3228p-3) is
 * 0x1.b9c81a665e1c3p-1 on x86-64, ...c2p-1 on aarch64), which broke the
 * reference's same bits on both (cylinder supports, manifold clipping;
 * tests/bits_hash found it). This is aarch64's computation with fma(),
 * which is correctly rounded everywhere (an instruction on aarch64 and on
 * x86-64 CPUs with FMA, glibc's exact emulation elsewhere). aarch64's, not
 * x86-64's: rim-against-edge pairs of test_reference that x86-64's rounding
 * leaves 1e-3 of the gap off (GJK stalls) pass on both with it. The
 * reference's arguments are solver units or float-sized: no scaling
 * against overflow or underflow is needed. */
double gjkb__ref_hypot(double x, double y)
{
    if (isinf(x) || isinf(y))
        return INFINITY;
    x = fabs(x), y = fabs(y);
    double ax = x < y ? y : x, ay = x < y ? x : y;
    if (ay <= ax * 0x1p-54)   /* also both zero; NaN goes on to the kernel */
        return ax + ay;
    return hypot_kernel(ax, ay);
}

/* Rotation matrix of a quaternion (w, x, y, z), normalized here in double. */
ref_mat gjkb__ref_rotation(const float q[4])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double len = sqrt(w * w + x * x + y * y + z * z);
    w /= len, x /= len, y /= len, z /= len;
    ref_mat r = { {
        { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y) },
        { 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x) },
        { 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) },
    } };
    return r;
}

/* A point of the core that is furthest along u (u non-zero, core frame). */
ref_vec gjkb__ref_core_support(const ref_core *c, ref_vec u)
{
    switch (c->kind) {
    case GJKB_SPHERE:
        return vec(0.0, 0.0, 0.0);
    case GJKB_CAPSULE:
        return vec(0.0, 0.0, u.z >= 0.0 ? c->sz : -c->sz);
    case GJKB_BOX:
        return vec(u.x >= 0.0 ? c->sx : -c->sx, u.y >= 0.0 ? c->sy : -c->sy, u.z >= 0.0 ? c->sz : -c->sz);
    case GJKB_CYLINDER: {
        ref_vec p = disk_support(c->sx, u);
        p.z = u.z >= 0.0 ? c->sz : -c->sz;
        return p;
    }
    case GJKB_CONE: {
        ref_vec apex = vec(0.0, 0.0, c->sz);
        ref_vec rim = disk_support(c->sx, u);
        rim.z = -c->sz;
        return dot(apex, u) >= dot(rim, u) ? apex : rim;
    }
    case GJKB_HULL: {
        /* First point of largest projection wins, so ties are deterministic. */
        ref_vec best = vec(c->hx[0], c->hy[0], c->hz[0]);
        double best_dot = dot(best, u);
        for (uint32_t i = 1; i < c->count; i++) {
            ref_vec p = vec(c->hx[i], c->hy[i], c->hz[i]);
            double d = dot(p, u);
            if (d > best_dot) {
                best = p;
                best_dot = d;
            }
        }
        return scale(best, c->hull_scale);
    }
    default:
        return vec(0.0, 0.0, 0.0);
    }
}

