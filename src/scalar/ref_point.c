/* ref_point.c - the exact depth of a point core (a sphere's) inside a
 * cylinder's or a cone's core.
 *
 * EPA bounds the depth from below by an inscribed polytope. Near the axis
 * of a cylinder or a cone the nearest boundary is a whole ring of nearly
 * equally near directions, which a polytope resolves only with thousands
 * of faces, and the local search after it crawls along the ring's valley
 * (docs/contacts.md). A point's depth in these solids is a closed form:
 * the least distance to the boundary surfaces that bound it (side or cap;
 * slant or base), each a plane through the point's meridian. */
#include "scalar/ref_geom.h"

/* The outward unit direction from the axis towards p, (1, 0, 0) on it. */
static ref_vec radial(ref_vec p)
{
    double rho = gjkb__ref_hypot(p.x, p.y);
    return rho > 0.0 ? vec(p.x / rho, p.y / rho, 0.0) : vec(1.0, 0.0, 0.0);
}

/* Depth of p inside the core c (its frame) and the boundary's outward
 * normal m there; false for kinds without a closed form here. */
static bool depth_in(const ref_core *c, ref_vec p, double *depth, ref_vec *m)
{
    ref_vec r = radial(p);
    double rho = gjkb__ref_hypot(p.x, p.y);
    if (c->kind == GJKB_CYLINDER) {
        double side = c->sx - rho, cap = c->sz - fabs(p.z);
        *depth = side <= cap ? side : cap;
        *m = side <= cap ? r : vec(0.0, 0.0, p.z >= 0.0 ? 1.0 : -1.0);
        return true;
    }
    if (c->kind == GJKB_CONE) {
        /* the slant line through (sx, -sz) and (0, sz) in the meridian
         * plane (rho, z): 2 sz rho + sx z = sx sz */
        double len = sqrt(4.0 * c->sz * c->sz + c->sx * c->sx);
        double slant = (c->sx * c->sz - 2.0 * c->sz * rho - c->sx * p.z) / len, base = p.z + c->sz;
        *depth = slant <= base ? slant : base;
        *m = slant <= base ? add(scale(r, 2.0 * c->sz / len), vec(0.0, 0.0, c->sx / len)) : vec(0.0, 0.0, -1.0);
        return true;
    }
    return false;
}

bool gjkb__ref_point_depth(const ref_pair *pr, ref_depth *d)
{
    double depth;
    ref_vec m;
    if (pr->b.kind == GJKB_SPHERE && depth_in(&pr->a, pr->off, &depth, &m)) {
        /* B's point at off inside A: B leaves along A's outward normal */
        d->n = m;
        d->pb = pr->off;
        d->pa = madd(pr->off, m, depth);
    } else if (pr->a.kind == GJKB_SPHERE) {
        /* A's point (A's origin) inside B, in B's frame */
        ref_vec p = neg(mul_t(&pr->rot, pr->off));
        if (!depth_in(&pr->b, p, &depth, &m))
            return false;
        d->n = neg(mul(&pr->rot, m));
        d->pa = vec(0.0, 0.0, 0.0);
        d->pb = madd(d->pa, d->n, -depth);
    } else {
        return false;
    }
    d->depth = depth;
    d->gap = 0.0;
    d->settled = true;
    d->searched = false;
    d->flat = false;
    return true;
}
