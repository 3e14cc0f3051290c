/* ref_geom.c - the reference's shape geometry: rotations and the cores'
 * support functions, in double (shared by GJK, EPA and the manifolds;
 * nothing here is shared with the wide kernels). */
#include "scalar/ref_geom.h"

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

