/* peers.h - other GJK implementations answering a bench_set's pairs:
 * libccd (peers_ccd.c) and Bullet (peers_bullet.cpp). Each prepares its own
 * shape objects once, outside any timed loop, from the set's float-rounded
 * geometry; each run writes a 0/1 overlap verdict per pair and returns the
 * number of overlaps. */
#ifndef GJKB_BENCH_PEERS_H
#define GJKB_BENCH_PEERS_H

#include "harness.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_ccd bench_ccd;

/* NULL when out of memory. The set must outlive the result. */
bench_ccd *bench_ccd_prepare(const bench_set *s);
void bench_ccd_free(bench_ccd *p);
/* ccdGJKIntersect / ccdMPRIntersect on every pair. */
uint32_t bench_ccd_gjk(const bench_ccd *p, uint8_t *hit);
uint32_t bench_ccd_mpr(const bench_ccd *p, uint8_t *hit);

typedef struct bench_bullet bench_bullet;

bench_bullet *bench_bullet_prepare(const bench_set *s);
void bench_bullet_free(bench_bullet *p);
/* btGjkPairDetector (Voronoi simplex solver, no penetration solver) on
 * every pair. dist may be NULL; else it gets Bullet's distance for separated
 * pairs and 0 for overlapping ones. */
uint32_t bench_bullet_gjk(const bench_bullet *p, uint8_t *hit, double *dist);

#ifdef __cplusplus
}
#endif
#endif
