/* scatter.h - a chunk's lane answers back to their pairs (scatter.c). */
#ifndef GJKB_SCATTER_H
#define GJKB_SCATTER_H

#include "internal.h"
#include "kernel/packed.h"

/* Lanes per call at most: the pipeline's chunk. */
#define GJKB_SCATTER_LANES 256

/* Lanes [0, lanes) of l to pairs idx[0 .. lanes) of out: status,
 * iterations, distance, witnesses and axis (NaN in hit mode), and in
 * contact mode the manifolds; only the arrays out gives. Lanes the kernel
 * left to the reference are written too, and overwritten after. */
void gjkb__scatter(const gjkb__lanes *l, const uint32_t *idx, uint32_t lanes, const gjkb_bodies *bd,
                   const gjkb_pairs *pr, gjkb_mode mode, gjkb_results *out);

#endif
