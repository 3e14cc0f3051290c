/* pipeline.h - the wide backends' narrowphase (pipeline.c): bucket the
 * pairs, run the context's kernel on chunks of that order, scatter. */
#ifndef GJKB_PIPELINE_H
#define GJKB_PIPELINE_H

#include "internal.h"

/* Scratch for batches of `pairs` pairs; the batch's buffers only. */
gjkb_error gjkb__scratch_reserve(gjkb_context *ctx, uint32_t pairs);
void gjkb__scratch_free(gjkb_context *ctx);

/* The batch on the context's wide kernel. The arrays are checked; the
 * pairs are checked on the way (gjkb__check_pairs' rule, which words the
 * error). warm: the query when it carries warm-start arrays, else NULL.
 * info: NULL, or gjkb_step's per-pair gjkb__pair_info, made in the sweep,
 * so bucketing reads no body data (every pair is then of two bodies the
 * broadphase checked). */
gjkb_error gjkb__pipeline(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_pairs *pairs,
                          const gjkb__params *p, const gjkb_query *warm, const uint32_t *info,
                          gjkb_results *results);

#endif
