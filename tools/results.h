/* results.h - the result arrays the commands hand to gjkb_query_batch, in
 * one block per batch. */
#ifndef GJKB_TOOLS_RESULTS_H
#define GJKB_TOOLS_RESULTS_H

#include "gjkbatch.h"

#include <stdint.h>

/* Result arrays for n pairs: a/b/n in distance and contact modes (hit
 * mode leaves them undefined, and NULL columns print as nan), the manifold
 * in contact mode. One block. */
typedef struct result_buf {
    gjkb_results r;
    void *block;
} result_buf;

/* Allocates rb's arrays for n pairs in the given mode: 0, or -1 when out
 * of memory. free(rb->block) releases them. */
int results_alloc(result_buf *rb, uint32_t n, gjkb_mode mode);

/* Contact mode: the points of every manifold of a batch. */
uint64_t manifold_points(const gjkb_results *r, uint32_t count);

#endif
