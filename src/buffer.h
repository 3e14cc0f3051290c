/* buffer.h - growable arrays for the broadphase and gjkb_step: capacities
 * that double, arrays that share one capacity, and the pair buffer the
 * sweep kernels append to. At the bottom of the library: it calls nothing
 * else of it. */
#ifndef GJKB_BUFFER_H
#define GJKB_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Capacity for need elements: doubling from cap (64 when 0), at most
 * UINT32_MAX. */
uint32_t gjkb__grown(uint32_t cap, uint32_t need);

/* realloc to bytes (at least 1) that leaves *p alone on failure. */
bool gjkb__resize(void **p, size_t bytes);

/* n arrays (*arrays[k], elements of elem[k] bytes) that share one
 * capacity: all grow to hold need, or none does and false comes back. */
bool gjkb__grow_arrays(void **arrays[], const size_t elem[], int n, uint32_t *cap, uint32_t need);

/* A growable list of pairs (a < b), with room for each one's info
 * (gjkb__pair_info), written only by a sweep whose boxes carry classes. */
typedef struct gjkb__pairbuf {
    uint32_t *a, *b, *info;
    uint32_t count, cap;
} gjkb__pairbuf;

/* Makes room for at least `more` pairs past count; false when out of
 * memory or past UINT32_MAX pairs (the buffer is then unchanged). */
bool gjkb__pairbuf_reserve(gjkb__pairbuf *buf, uint32_t more);
void gjkb__pairbuf_free(gjkb__pairbuf *buf);

#endif
