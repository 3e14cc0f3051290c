/* ref_result.c - the reference's answers as results: one with every point
 * NaN, and a pair whose cores are apart (its margin-surface witnesses and
 * axis back in world coordinates). Below both reference.c (GJK) and
 * ref_contact.c (contact mode), which build their answers with these. */
#include "scalar/ref_geom.h"

#include <math.h>

gjkb_result gjkb__ref_nan_result(gjkb_status status, uint32_t iterations, double distance)
{
    gjkb_result r;
    r.status = status;
    r.iterations = iterations;
    r.distance = distance;
    for (int k = 0; k < 3; k++)
        r.a[k] = r.b[k] = r.n[k] = NAN;
    r.contact_count = 0;
    for (int i = 0; i < GJKB_MAX_CONTACTS; i++) {
        gjkb_contact *c = &r.contacts[i];
        for (int k = 0; k < 3; k++)
            c->a[k] = c->b[k] = NAN;
        c->separation = NAN;
        c->feature = 0;
    }
    return r;
}

/* Distance mode (and contact mode for pairs whose cores are apart): the
 * margin-surface points and the axis, back to world coordinates. */
gjkb_result gjkb__ref_separated(const ref_setup *su, const ref_gjk *g, gjkb_status status, double dist,
                                ref_vec ca, ref_vec cb)
{
    double core_dist = sqrt(dot(g->v, g->v));
    ref_vec n = scale(g->v, -1.0 / core_dist);
    ref_vec pa = add(ca, scale(n, su->margin_a));
    ref_vec pb = sub(cb, scale(n, su->margin_b));
    ref_vec wa = ref_world_point(su, pa);
    ref_vec wb = ref_world_point(su, pb);
    ref_vec wn = mul(&su->rot_a, n);
    gjkb_result r = gjkb__ref_nan_result(status, g->iterations, dist * su->unit);
    r.a[0] = wa.x, r.a[1] = wa.y, r.a[2] = wa.z;
    r.b[0] = wb.x, r.b[1] = wb.y, r.b[2] = wb.z;
    r.n[0] = wn.x, r.n[1] = wn.y, r.n[2] = wn.z;
    return r;
}
