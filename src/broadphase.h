/* broadphase.h - bounds and sweep-and-prune for the frame (broadphase.c). */
#ifndef GJKB_BROADPHASE_H
#define GJKB_BROADPHASE_H

#include "internal.h"

/* Frees the broadphase's buffers (ctx->broad). */
void gjkb__broad_free(gjkb_context *ctx);

/* The bodies of a gjkb_bounds or gjkb_step call: count, arrays, kinds and
 * hull ids; `call` names the call in the message. */
gjkb_error gjkb__check_bodies(gjkb_context *ctx, const gjkb_bodies *bodies, const char *call);

/* Every checked body's box into out, and unless cls is NULL its
 * gjkb__body_class into cls (by body). */
gjkb_error gjkb__boxes(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_aabbs *out, uint32_t *cls);

/* gjkb_find_pairs with its two phases timed (sort, sweep). With cls (a
 * class per box: gjkb_step) each pair's gjkb__pair_info is made too and
 * the pairs are grouped by its key: *info points to it (else NULL), valid
 * as long as the pairs. */
gjkb_error gjkb__find_pairs(gjkb_context *ctx, const gjkb_aabbs *boxes, const gjkb_broadphase_options *opt,
                            const uint32_t *cls, gjkb_pairs *out, const uint32_t **info, double seconds[2]);

/* Seconds on a monotonic clock, for the phases' timings. */
double gjkb__now(void);

/* For the tests: the info of the pairs of the context's last gjkb_step
 * (in pair order), or NULL when a gjkb_find_pairs came after it. */
const uint32_t *gjkb__step_info(const gjkb_context *ctx);

#endif
