/* scatter.h - a chunk's lane answers back to their pairs (the body:
 * kernel/scatter.inl, compiled per backend; gjkb__kernel.scatter). */
#ifndef GJKB_SCATTER_H
#define GJKB_SCATTER_H

#include "internal.h"
#include "kernel/packed.h"

/* Lanes per call at most: the pipeline's chunk. */
#define GJKB_SCATTER_LANES 256

/* Whether this target has the non-temporal stores `stream` asks for. */
#if defined(__SSE2__)
#define GJKB_SCATTER_STREAMS 1
#else
#define GJKB_SCATTER_STREAMS 0
#endif

/* gjkb__kernel.scatter: lanes [0, lanes) of l to pairs idx[0 .. lanes) of out: status,
 * iterations, distance, witnesses and axis (NaN in hit mode), and in
 * contact mode the manifolds; only the arrays out gives. Lanes the kernel
 * left to the reference are written too, and overwritten after. With
 * `stream`, a run's double arrays are written past the caches (for calls
 * whose answers far outgrow them: GJKB_STREAM_BYTES). */
#endif
