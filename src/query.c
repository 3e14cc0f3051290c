/* query.c - a query's arguments and answers (query.h): parameters with
 * their defaults, the checks the batch and pair calls share, and one
 * pair's answer written to the caller's arrays. */
#include "query.h"
#include "scalar/ref_geom.h"
#include "shape.h"

#include <math.h>

gjkb_error gjkb__params_resolve(gjkb_context *ctx, const gjkb_query *q, gjkb__params *out)
{
    out->mode = q ? q->mode : GJKB_DISTANCE;
    if (out->mode != GJKB_HIT && out->mode != GJKB_DISTANCE && out->mode != GJKB_CONTACT)
        return gjkb__fail(ctx, GJKB_ERR_KIND, "unknown query mode %d", (int)out->mode);
    out->max_iterations = q && q->max_iterations ? q->max_iterations : GJKB_DEFAULT_MAX_ITERATIONS;
    out->ref_max_iterations = q && q->max_iterations ? q->max_iterations : GJKB_REFERENCE_MAX_ITERATIONS;
    out->tolerance = q && q->tolerance != 0.0 ? q->tolerance : GJKB_DEFAULT_TOLERANCE;
    if (!(out->tolerance > 0.0 && out->tolerance < 1.0))
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "tolerance %g is not in (0, 1)", out->tolerance);
    out->max_distance = q && q->max_distance != 0.0 ? q->max_distance : INFINITY;
    if (!(out->max_distance > 0.0))
        return gjkb__fail(ctx, GJKB_ERR_ARGUMENT, "max_distance %g is not positive", out->max_distance);
    out->speculative = out->mode == GJKB_CONTACT && q && q->max_distance != 0.0;
    if (q && (!q->warm_x != !q->warm_y || !q->warm_x != !q->warm_z))
        return gjkb__fail(ctx, GJKB_ERR_NULL, "warm_x, warm_y and warm_z must all be set or all NULL");
    return GJKB_OK;
}

gjkb_error gjkb__check_results(gjkb_context *ctx, const gjkb_results *r)
{
    if (!r->status)
        return gjkb__fail(ctx, GJKB_ERR_NULL, "results->status is NULL");
    if (!r->ax != !r->ay || !r->ax != !r->az || !r->bx != !r->by || !r->bx != !r->bz ||
        !r->nx != !r->ny || !r->nx != !r->nz)
        return gjkb__fail(ctx, GJKB_ERR_NULL, "result points come as x, y, z together: all set or all NULL");
    const gjkb_manifolds *m = &r->manifold;
    if (!m->ax != !m->ay || !m->ax != !m->az || !m->bx != !m->by || !m->bx != !m->bz)
        return gjkb__fail(ctx, GJKB_ERR_NULL,
                          "manifold points come as x, y, z together: all set or all NULL");
    if (!m->count && (m->ax || m->bx || m->separation || m->feature))
        return gjkb__fail(ctx, GJKB_ERR_NULL,
                          "results->manifold.count is NULL while other manifold arrays are set: "
                          "count is required with any of them");
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

const double *gjkb__warm_axis(const gjkb_query *warm, uint32_t i, double axis[3])
{
    if (!warm)
        return NULL;
    axis[0] = warm->warm_x[i];
    axis[1] = warm->warm_y[i];
    axis[2] = warm->warm_z[i];
    return axis;
}

void gjkb__store_manifold(const gjkb_results *r, uint32_t i, const gjkb_result *res)
{
    const gjkb_manifolds *m = &r->manifold;
    if (!m->count)
        return;
    m->count[i] = (uint8_t)res->contact_count;
    for (uint32_t k = 0; k < GJKB_MAX_CONTACTS; k++) {
        size_t at = (size_t)i * GJKB_MAX_CONTACTS + k;
        bool used = k < res->contact_count;
        const gjkb_contact *c = &res->contacts[k];
        if (m->ax) {
            m->ax[at] = used ? c->a[0] : NAN;
            m->ay[at] = used ? c->a[1] : NAN;
            m->az[at] = used ? c->a[2] : NAN;
        }
        if (m->bx) {
            m->bx[at] = used ? c->b[0] : NAN;
            m->by[at] = used ? c->b[1] : NAN;
            m->bz[at] = used ? c->b[2] : NAN;
        }
        if (m->separation)
            m->separation[at] = used ? c->separation : NAN;
        if (m->feature)
            m->feature[at] = used ? c->feature : 0u;
    }
}

gjkb_result gjkb__invalid_result(void)
{
    return gjkb__ref_nan_result(GJKB_INVALID, 0, NAN);
}
