/* peers.h - other GJK implementations answering a bench_set's pairs:
 * libccd (peers_ccd.c), Bullet (peers_bullet.cpp) and, for box-box
 * manifolds, ODE (peers_ode.c). Each prepares its own shape objects once,
 * outside any timed loop, from the set's float-rounded geometry; each
 * intersection run writes a 0/1 overlap verdict per pair and returns the
 * number of overlaps. Bullet's broadphases on a broad_harness scene's boxes
 * are at the end (peers_bullet_broad.cpp).
 *
 * Penetration runs (contact mode's peers) answer the set's first n pairs:
 * depth[i] gets the peer's penetration depth (>= 0) and count[i] its
 * contact points (the EPA and MPR solvers give one point: 1 when they
 * report penetration, else 0); they return the penetrating pairs. */
#ifndef GJKB_BENCH_PEERS_H
#define GJKB_BENCH_PEERS_H

#include "broad_harness.h"
#include "harness.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_ccd bench_ccd;

/* NULL when out of memory. The set must outlive the result. */
bench_ccd *bench_ccd_prepare(const bench_set *s);
void bench_ccd_free(bench_ccd *p);
/* ccdGJKIntersect / ccdMPRIntersect on every pair. bench_ccd_gjk keeps
 * libccd's default first direction (1,0,0); bench_ccd_gjk_centre starts
 * from the centre difference (B's centre minus A's). MPR always starts from
 * the centres (center1/center2; it ignores first_dir). */
uint32_t bench_ccd_gjk(const bench_ccd *p, uint8_t *hit);
uint32_t bench_ccd_gjk_centre(const bench_ccd *p, uint8_t *hit);
uint32_t bench_ccd_mpr(const bench_ccd *p, uint8_t *hit);
/* ccdGJKPenetration (GJK then EPA) / ccdMPRPenetration. */
uint32_t bench_ccd_gjk_pen(const bench_ccd *p, uint32_t n, double *depth, uint8_t *count);
uint32_t bench_ccd_mpr_pen(const bench_ccd *p, uint32_t n, double *depth, uint8_t *count);

typedef struct bench_bullet bench_bullet;

bench_bullet *bench_bullet_prepare(const bench_set *s);
void bench_bullet_free(bench_bullet *p);
/* btGjkPairDetector (Voronoi simplex solver, no penetration solver) on
 * every pair. dist may be NULL; else it gets Bullet's distance for separated
 * pairs and 0 for overlapping ones. */
uint32_t bench_bullet_gjk(const bench_bullet *p, uint8_t *hit, double *dist);
/* The same with btGjkEpaPenetrationDepthSolver attached to the pair
 * detector, as Bullet's convex-convex algorithm runs it: overlapping pairs
 * also get EPA's depth (dist 0 all the same). */
uint32_t bench_bullet_gjk_epa(const bench_bullet *p, uint8_t *hit, double *dist);
/* btGjkEpaSolver2::Penetration on every pair. */
uint32_t bench_bullet_epa(const bench_bullet *p, uint32_t n, double *depth, uint8_t *count);
/* btBoxBoxDetector (up to 4 points) on box-box pairs; other pairs get
 * count 0. */
uint32_t bench_bullet_boxbox(const bench_bullet *p, uint32_t n, double *depth, uint8_t *count);

/* ODE's dCollide on box-box pairs (up to 4 points; other pairs count 0). */
typedef struct bench_ode bench_ode;

bench_ode *bench_ode_prepare(const bench_set *s);
void bench_ode_free(bench_ode *p);
uint32_t bench_ode_boxbox(const bench_ode *p, uint32_t n, double *depth, uint8_t *count);

/* ---- broadphases ---- */
typedef struct bench_bullet_broad bench_bullet_broad;

enum bench_bullet_broad_kind { BENCH_BT_DBVT, BENCH_BT_SWEEP3 };
/* btAxisSweep3's edges are 16-bit: at most this many boxes. */
#define BENCH_BT_SWEEP3_16BIT_MAX 16383u

/* An empty broadphase for up to n boxes: btDbvtBroadphase, or the sweep
 * and prune (btAxisSweep3 up to BENCH_BT_SWEEP3_16BIT_MAX boxes, else
 * bt32BitAxisSweep3) quantizing within the world bounds. NULL when out of
 * memory. */
bench_bullet_broad *bench_bullet_broad_new(int kind, uint32_t n, const float world_min[3],
                                           const float world_max[3]);
/* Frees the proxies, the pairs and the broadphase; NULL is fine. */
void bench_bullet_broad_free(bench_bullet_broad *p);
/* Bullet's class name of the broadphase. */
const char *bench_bullet_broad_impl(const bench_bullet_broad *p);
/* Creates one proxy per box (box i is proxy i) and finds the pairs: a
 * build from scratch. Once per broadphase. 0, or -1 when out of memory. */
int bench_bullet_broad_add(bench_bullet_broad *p, const bench_boxes *b);
/* One frame: every proxy gets box i of b (same count), then
 * calculateOverlappingPairs. */
void bench_bullet_broad_update(bench_bullet_broad *p, const bench_boxes *b);
/* Pairs in the pair cache, and those of them whose boxes in b overlap. */
uint32_t bench_bullet_broad_pairs(const bench_bullet_broad *p);
uint32_t bench_bullet_broad_exact(const bench_bullet_broad *p, const bench_boxes *b);

#ifdef __cplusplus
}
#endif
#endif
