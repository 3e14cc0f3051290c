/* plain_gjk.h - the scalar float GJK a user writes in an afternoon and
 * compares gjkbatch against: one pair at a time, no SIMD, no batching.
 *
 * Two queries on a bench_set's pairs:
 *   hit       boolean GJK with triple products (the classic line, triangle
 *             and tetrahedron case analysis), on the rounded shapes (a
 *             sphere is a point plus its radius: both radii go into the
 *             Minkowski difference's support in one step). A pair still
 *             undecided after 16 supports switches to a closest-feature
 *             tetrahedron case (the classic one can cycle).
 *   distance  GJK with the signed-volume sub-algorithm on the cores, the
 *             radii (sphere, capsule, margins) subtracted afterwards; 0 when
 *             overlapping.
 * Every kind gjkbatch has: sphere, capsule, box, cylinder, cone, hull
 * (linear scan over its points). At most PLAIN_GJK_MAX_ITER support
 * evaluations per pair; a pair still undecided then counts as overlapping
 * (the conservative answer, as a broadphase would take it).
 *
 * The prepare step (untimed) builds per pair the pair-local transform, B
 * in A's frame, as float rotation matrix and offset (the offset subtracted
 * in double, as gjkbatch does), and the pair's scale for the tolerances. */
#ifndef GJKB_BENCH_PLAIN_GJK_H
#define GJKB_BENCH_PLAIN_GJK_H

#include "harness.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PLAIN_GJK_MAX_ITER 64

typedef struct plain_gjk plain_gjk;

/* NULL when out of memory. The set must outlive the result (hull points are
 * read from it). */
plain_gjk *plain_gjk_prepare(const bench_set *s);
void plain_gjk_free(plain_gjk *p);

/* Boolean GJK on every pair: hit[i] 0/1. Returns the overlaps; *limited
 * (may be NULL) gets the pairs that used every iteration. */
uint32_t plain_gjk_hit(const plain_gjk *p, uint8_t *hit, uint32_t *limited);
/* The hit query with box pairs by the 15 separating axes (Gottschalk's
 * OBB test with margins: GJK where the rounding decides) and every other
 * pair by plain_gjk_hit's GJK: what a user compares gjkbatch's box pairs
 * with, since gjkbatch decides them by their axes too (sat.inl). */
uint32_t plain_sat_hit(const plain_gjk *p, uint8_t *hit, uint32_t *limited);
/* Distance GJK on every pair: dist[i] the distance (0 when overlapping: a
 * gap within 1e-6 of the pair's scale, gjkbatch's touching band), hit[i]
 * the verdict. Returns the overlaps. */
uint32_t plain_gjk_distance(const plain_gjk *p, uint8_t *hit, double *dist, uint32_t *limited);
/* The distance query with box pairs whose cores the separating axes show
 * overlapping answered 0 there (plain_sat_hit's test) and every other pair
 * by plain_gjk_distance's GJK: what a user compares gjkbatch's distance
 * mode with, since gjkbatch answers those box pairs by their axes too. */
uint32_t plain_sat_distance(const plain_gjk *p, uint8_t *hit, double *dist, uint32_t *limited);

/* Both queries again with the prepare step's per-pair set-up (rotation
 * matrices from the quaternions, B's frame in A's, shape decode) inside
 * the loop, from the set's bodies as gjkb_query_batch gets them: the
 * plain loop's cost for the same input as one whole gjkbatch call. */
uint32_t plain_gjk_hit_whole(const bench_set *s, uint8_t *hit);
uint32_t plain_gjk_distance_whole(const bench_set *s, uint8_t *hit, double *dist);

#ifdef __cplusplus
}
#endif
#endif
