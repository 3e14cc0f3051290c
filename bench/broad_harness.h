/* broad_harness.h - broadphase scenes: random axis-aligned boxes given
 * directly as gjkb_aabbs, the same boxes for gjkb_find_pairs and for
 * Bullet's broadphases, and two independent pair counters to check them.
 *
 * Scene "10k" is Pierre Terdiman's box-pruning test (RunPerformanceTest in
 * Shared/Main.cpp of his BoxPruning repository): 10,000 boxes, centres
 * uniform in [-2048, 2048)^3, half extents uniform in [0, 128) per axis. He
 * draws both as integers from rand() after srand(42); with MSVC's rand
 * that gives 11,811 pairs with closed intervals, 275 of them merely
 * touching. Here they are continuous (splitmix64, float-rounded), so exact
 * touching is vanishingly rare and closed and open interval tests agree:
 * 11,462 pairs with seed 1.
 * Scene "100k" is 100,000 boxes of the same sizes in a cube sized so that
 * each box has as many expected overlaps as in "10k" (side 2.18 times as
 * long, a little over cbrt(10) = 2.15: see half_side_for in the .c):
 * about 116,000 pairs.
 *
 * Every scene also has two moved copies: each box translated by its own
 * offset uniform in [-BROAD_JITTER, BROAD_JITTER]^3 from the base, a
 * different offset per copy. Alternating between them makes a frame where
 * every box moves, for the incremental broadphases. */
#ifndef GJKB_BENCH_BROAD_HARNESS_H
#define GJKB_BENCH_BROAD_HARNESS_H

#include "gjkbatch.h"

#ifdef __cplusplus
extern "C" {
#endif

enum bench_broad_scene_id { BROAD_10K, BROAD_100K, BROAD_SCENES };

/* Terdiman's distribution: centres in [-BROAD_HALF_SIDE, BROAD_HALF_SIDE)
 * (times the scene's scale), half extents in [0, BROAD_MAX_HALF). */
#define BROAD_HALF_SIDE 2048.0
#define BROAD_MAX_HALF 128.0
/* Largest move of a box between the base and a moved copy, per axis: about
 * 1.5% of a mean half extent, a frame of a brisk simulation. */
#define BROAD_JITTER 1.0

/* Boxes, SoA, 64-byte aligned; aabbs views them. */
typedef struct bench_boxes {
    uint32_t count;
    float *min_x, *min_y, *min_z, *max_x, *max_y, *max_z;
    gjkb_aabbs aabbs;
} bench_boxes;

typedef struct bench_broad_scene {
    int scene;                 /* enum bench_broad_scene_id */
    bench_boxes base;
    bench_boxes moved[2];
    float world_min[3], world_max[3];   /* encloses every box of all three */
} bench_broad_scene;

/* "10k", "100k", or "?". */
const char *bench_broad_scene_name(int scene);
uint32_t bench_broad_scene_size(int scene);

/* Builds a scene, deterministic from seed. 0, or -1 when out of memory (s
 * is then empty). */
int bench_broad_make(bench_broad_scene *s, int scene, uint64_t seed);
void bench_broad_free(bench_broad_scene *s);

/* Pairs i < j whose closed boxes overlap on all three axes, by testing
 * every pair (O(n^2)). */
uint64_t bench_broad_brute_count(const bench_boxes *b);
/* The same count by an independent sort and sweep (qsort on min x, then a
 * scan of each box's later neighbours): O(n log n + overlaps along x).
 * -1 when out of memory. */
int64_t bench_broad_sorted_count(const bench_boxes *b);

/* Of n pairs (a[k], b[k]), those whose closed boxes overlap. */
uint32_t bench_broad_overlapping(const bench_boxes *b, const uint32_t *a, const uint32_t *bb, uint32_t n);

#ifdef __cplusplus
}
#endif
#endif
