/* narrowphase.c - the one entry to the narrowphase, for gjkb_query_batch
 * and gjkb_step alike: checked arguments in, the context's backend picked
 * here. The reference backend answers one pair at a time in double; every
 * other backend runs the wide pipeline, in every mode (the pairs the wide
 * kernels cannot settle come back to the reference per pair there). */
#include "narrowphase.h"
#include "pipeline.h"
#include "query.h"
#include "scalar/reference.h"
#include "shape.h"

gjkb_result gjkb__reference_pair(const gjkb_context *ctx, const gjkb_shape *a, const gjkb_shape *b,
                                 const gjkb__params *p, const double *warm)
{
    if (!gjkb__shape_valid(ctx, a) || !gjkb__shape_valid(ctx, b) || !gjkb__offset_valid(a->pos, b->pos))
        return gjkb__invalid_result();
    return gjkb__ref_query(ctx, a, b, p, warm);
}

/* Pair i through the reference, into the results. */
static void reference_one(const gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_pairs *pairs,
                          const gjkb__params *p, const gjkb_query *warm, gjkb_results *results, uint32_t i)
{
    gjkb_shape a = gjkb__body_shape(bodies, pairs->a[i]);
    gjkb_shape b = gjkb__body_shape(bodies, pairs->b[i]);
    double axis[3];
    gjkb_result res = gjkb__reference_pair(ctx, &a, &b, p, gjkb__warm_axis(warm, i, axis));
    gjkb__store_result(results, i, &res);
    if (p->mode == GJKB_CONTACT)
        gjkb__store_manifold(results, i, &res);
}

/* The reference's loop over the batch. */
static gjkb_error reference_batch(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_pairs *pairs,
                                  const gjkb__params *p, const gjkb_query *warm, gjkb_results *results)
{
    gjkb_error e = gjkb__check_pairs(ctx, bodies, pairs);
    if (e != GJKB_OK)
        return e;
    for (uint32_t i = 0; i < pairs->count; i++)
        reference_one(ctx, bodies, pairs, p, warm, results, i);
    ctx->message[0] = '\0';
    return GJKB_OK;
}

gjkb_error gjkb__narrowphase(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_pairs *pairs,
                             const gjkb__params *p, const gjkb_query *warm, const uint32_t *info,
                             gjkb_results *results)
{
    if (pairs->count == 0) {
        ctx->message[0] = '\0';
        return GJKB_OK;
    }
    if (ctx->backend == GJKB_BACKEND_REFERENCE)
        return reference_batch(ctx, bodies, pairs, p, warm, results);
    return gjkb__pipeline(ctx, bodies, pairs, p, warm, info, results);
}
