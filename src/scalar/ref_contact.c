/* ref_contact.c - the reference's contact-mode answer from GJK's outcome.
 *
 * Three cases, by what GJK found about the cores (margins apart):
 * - cores apart by more than AXIS_MIN: GJK's axis is the normal; the
 *   signed distance is the core distance minus the margins (separated:
 *   exactly distance mode's numbers; shallow: the margins overlap);
 * - cores overlapping, or touching within AXIS_MIN: EPA's depth of the
 *   cores plus both margins, along EPA's normal;
 * - anything GJK could not settle: as distance mode.
 * The manifold follows from the normal (ref_manifold.c). */
#include "scalar/ref_geom.h"

#include <float.h>

/* Below this core distance (solver units, relative to the pair's scale)
 * GJK's axis is too short to trust as a direction: EPA decides. */
#define AXIS_MIN 1e-9

static void set3(double out[3], ref_vec v)
{
    out[0] = v.x, out[1] = v.y, out[2] = v.z;
}

/* The manifold, to world coordinates, into r. */
static void put_manifold(const ref_setup *su, gjkb_result *r, ref_vec n, double dist, ref_vec a, ref_vec b)
{
    double keep = su->tol;
    if (su->speculative)
        keep = fmax(keep, su->max_dist);
    ref_contact_point pts[GJKB_MAX_CONTACTS];
    int count = gjkb__ref_manifold(su, n, dist, a, b, keep, pts);
    r->contact_count = (uint32_t)count;
    for (int i = 0; i < count; i++) {
        gjkb_contact *c = &r->contacts[i];
        set3(c->a, ref_world_point(su, pts[i].a));
        set3(c->b, ref_world_point(su, pts[i].b));
        c->separation = pts[i].sep * su->unit;
        c->feature = pts[i].feature;
    }
}

/* A deterministic unit normal for D without extent in some direction:
 * the span's normal (or any axis for a point), pointing from A's centre
 * toward B's where that decides. */
static ref_vec flat_normal(ref_vec flat, ref_vec off)
{
    if (!(dot(flat, flat) > 0.0)) {
        double len = length(off);
        return len > 0.0 ? scale(off, 1.0 / len) : vec(1.0, 0.0, 0.0);
    }
    double s = dot(flat, off);
    if (s < 0.0 || (s == 0.0 && (flat.x < 0.0 || (flat.x == 0.0 && (flat.y < 0.0 || (flat.y == 0.0 && flat.z < 0.0))))))
        flat = neg(flat);
    return flat;
}

/* Cores overlapping (or touching within rounding): EPA. */
static gjkb_result penetration(const ref_setup *su, const gjkb__params *p, const ref_gjk *g)
{
    ref_depth d = gjkb__ref_epa(&su->pr, &g->simplex, 2 * p->ref_max_iterations);
    uint32_t it = g->iterations + d.iterations;
    if (!d.settled || d.searched)
        gjkb__ref_point_depth(&su->pr, &d);
    if (d.flat)
        d.n = flat_normal(d.n, su->pr.off);
    if (d.searched)
        gjkb__ref_witness(&su->pr, d.n, &d.pa, &d.pb);
    double dist = -(d.depth + su->margin_a + su->margin_b);
    gjkb_status status = !d.settled ? GJKB_LIMIT : dist <= su->tol ? GJKB_OVERLAP : GJKB_SEPARATED;
    if (!isfinite(dist) || !(fabs(length(d.n) - 1.0) < 1e-6))
        return gjkb__ref_nan_result(GJKB_LIMIT, it, NAN);
    ref_vec a = madd(d.pa, d.n, su->margin_a);
    ref_vec b = madd(a, d.n, dist);
    gjkb_result r = gjkb__ref_nan_result(status, it, dist * su->unit);
    set3(r.a, ref_world_point(su, a));
    set3(r.b, ref_world_point(su, b));
    set3(r.n, mul(&su->rot_a, d.n));
    if (status == GJKB_OVERLAP || (status == GJKB_SEPARATED && su->speculative && dist <= su->max_dist))
        put_manifold(su, &r, d.n, dist, a, b);
    return r;
}

gjkb_result gjkb__ref_contact(const ref_setup *su, const gjkb__params *p, const ref_gjk *g)
{
    double core_dist = sqrt(dot(g->v, g->v));
    bool apart = g->stop != STOP_ENCLOSED && g->have_v && core_dist > AXIS_MIN;
    if (g->stop == STOP_BEYOND || (!apart && g->stop != STOP_ENCLOSED && !g->have_v)) {
        /* Proven beyond max_distance, or no estimate at all: distance mode's
         * answer, no contact points. */
        if (g->stop == STOP_BEYOND)
            return gjkb__ref_separated(su, g, GJKB_SEPARATED, g->lower - su->margin_a - su->margin_b,
                                       g->have_v ? g->ca : g->w.pa, g->have_v ? g->cb : g->w.pb);
        return gjkb__ref_nan_result(GJKB_LIMIT, g->iterations, NAN);
    }
    if (!apart)
        return penetration(su, p, g);
    double dist = core_dist - su->margin_a - su->margin_b;
    /* At the iteration bound v is not the closest point: an upper bound
     * within the band proves contact, but neither the depth nor the normal
     * is known, so the answer is the bound (limit), without points. */
    gjkb_status status = g->stop == STOP_LIMIT ? GJKB_LIMIT : dist <= su->tol ? GJKB_OVERLAP : GJKB_SEPARATED;
    gjkb_result r = gjkb__ref_separated(su, g, status, dist, g->ca, g->cb);
    ref_vec n = scale(g->v, -1.0 / core_dist);
    ref_vec a = madd(g->ca, n, su->margin_a);
    ref_vec b = madd(a, n, dist);
    if (status == GJKB_OVERLAP || (status == GJKB_SEPARATED && su->speculative && dist <= su->max_dist))
        put_manifold(su, &r, n, dist, a, b);
    return r;
}
