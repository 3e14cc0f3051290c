/* dispatch.h - backends behind the batch call: the kernel table, CPU
 * feature checks, scratch management and the pipeline. */
#ifndef GJKB_DISPATCH_H
#define GJKB_DISPATCH_H

#include "internal.h"
#include "kernel/packed.h"

/* The kernel compiled for a backend (natively or through SIMDe emulation),
 * or NULL when this build has none. */
const gjkb__kernel *gjkb__kernel_for(gjkb_backend backend);
/* Whether the backend runs natively on this CPU (auto picks only these). */
int gjkb__kernel_native(gjkb_backend backend);

gjkb_error gjkb__scratch_reserve(gjkb_context *ctx, uint32_t pairs);
void gjkb__scratch_free(gjkb_context *ctx);

/* Validate, pack, run the context's kernel, scatter. Arguments are already
 * checked; warm is the query when it carries warm-start arrays, else NULL. */
gjkb_error gjkb__pipeline_run(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_pairs *pairs,
                              const gjkb__params *p, const gjkb_query *warm, gjkb_results *results);

void gjkb__store_result(const gjkb_results *r, uint32_t i, const gjkb_result *res);
gjkb_result gjkb__invalid_result(void);

#endif
