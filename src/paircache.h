/* paircache.h - gjkb_step's pair cache (paircache.c): last frame's pairs,
 * each with the axis it ended on and its manifold's feature keys, found
 * again by the body pair in the next frame.
 *
 * Layout: the entries in last frame's pair order, and an index of them
 * grouped by the pair's first body a (a stable counting sort): entries
 * index[first[a] .. first[a + 1]) are a's pairs. The sweep emits pairs in
 * nearly the same order every frame, so a lookup first tries the entry
 * after the last one found (a sequential read) and only then a's few
 * entries through the index (random reads). Memory: 40 bytes per kept
 * pair (the entry: a, b, the axis as three floats, GJKB_MAX_CONTACTS keys;
 * its index slot) and 4 per body, plus 40 bytes per pair of the frame for
 * the warm axes (double, as gjkb_query takes them) and the last keys
 * handed out. */
#ifndef GJKB_PAIRCACHE_H
#define GJKB_PAIRCACHE_H

#include "gjkbatch.h"

#include <stdbool.h>
#include <stdint.h>

/* One kept pair, its fields together: one line per lookup (separate
 * arrays cost a miss each). */
typedef struct gjkb__cached_pair {
    uint32_t a, b;             /* the pair's bodies */
    float axis[3];             /* the axis it ended on (NaN: none) */
    uint32_t feature[GJKB_MAX_CONTACTS];
} gjkb__cached_pair;

typedef struct gjkb__paircache {
    uint32_t bodies;           /* body count the entries belong to; 0: none */
    uint32_t count;            /* entries */
    uint32_t *first;           /* bodies + 1 offsets by the pair's body a */
    uint32_t first_cap;
    gjkb__cached_pair *entry;  /* in last frame's pair order */
    uint32_t *index;           /* entry numbers grouped by a (first) */
    uint32_t cap;
    /* this frame's, per pair: the warm axes and last frame's keys */
    double *warm[3];
    uint32_t *last_feature;
    uint32_t warm_cap;
} gjkb__paircache;

void gjkb__paircache_free(gjkb__paircache *c);

/* Forgets every pair: the next frame starts cold. */
void gjkb__paircache_clear(gjkb__paircache *c);

/* The frame's pairs looked up: c->warm (NaN for pairs that start cold)
 * and c->last_feature (0 for those) filled for every pair, *warm the
 * pairs with a usable axis. A body count other than the cached one finds
 * nothing. false when out of memory (the cache is then empty). */
bool gjkb__paircache_lookup(gjkb__paircache *c, uint32_t bodies, const gjkb_pairs *pairs, int threads,
                            uint32_t *warm);

/* Keeps the frame's pairs with their results' axes (r->nx: NULL keeps
 * none) and manifold keys (r->manifold.feature, or 0), replacing every
 * entry. false when out of memory (the cache is then empty). */
bool gjkb__paircache_store(gjkb__paircache *c, uint32_t bodies, const gjkb_pairs *pairs, const gjkb_results *r);

#endif
