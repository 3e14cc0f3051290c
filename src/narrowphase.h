/* narrowphase.h - the one entry to the narrowphase (narrowphase.c). */
#ifndef GJKB_NARROWPHASE_H
#define GJKB_NARROWPHASE_H

#include "internal.h"

/* Every pair of a checked batch on the context's backend: the reference,
 * one pair at a time in double, or the wide pipeline. warm: the query when
 * it carries warm-start arrays, else NULL. info: NULL, or gjkb_step's
 * per-pair bucket keys and kinds (gjkb__pair_info; the wide path buckets by
 * them, the reference needs none). */
gjkb_error gjkb__narrowphase(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_pairs *pairs,
                             const gjkb__params *p, const gjkb_query *warm, const uint32_t *info,
                             gjkb_results *results);

/* One pair through the reference, validity included. */
gjkb_result gjkb__reference_pair(const gjkb_context *ctx, const gjkb_shape *a, const gjkb_shape *b,
                                 const gjkb__params *p, const double *warm);

#endif
