/* harness.h - turns a workloads.h pair set into gjkbatch's SoA inputs and
 * runs one batch call over it. The C++ driver and the peer adapters all read
 * the same bench_set, so every implementation answers the same float-rounded
 * geometry. */
#ifndef GJKB_BENCH_HARNESS_H
#define GJKB_BENCH_HARNESS_H

#include "gjkbatch.h"
#include "workloads.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pairs per benchmark batch, as the issues' targets are stated. */
#define BENCH_PAIRS 65536u

/* One workload as gjkbatch sees it. Body 2i is pair i's shape A, body 2i+1
 * its shape B. Hull h of the set is registered as gjkbatch hull h. */
typedef struct bench_set {
    int workload;                 /* enum wl_workload, or -1 for a hand-made set */
    uint32_t pair_count, body_count;
    uint8_t *kind;
    double *px, *py, *pz;
    float *qw, *qx, *qy, *qz;
    float *sx, *sy, *sz;
    uint32_t *hull;
    uint32_t *pa, *pb;
    uint32_t hull_count;
    uint32_t hull_n[WL_HULLS];    /* points per hull */
    float *hull_xyz[WL_HULLS];    /* interleaved x,y,z, float as registered */
    gjkb_bodies bodies;           /* views of the arrays above */
    gjkb_pairs pairs;
} bench_set;

/* Output arrays for one batch, every field gjkb_results offers. */
typedef struct bench_out {
    uint32_t count;
    uint8_t *status;
    double *distance;
    double *ax, *ay, *az, *bx, *by, *bz, *nx, *ny, *nz;
    uint32_t *iterations;
} bench_out;

/* Builds a set from workloads.h: wl_make(workload, pairs, seed) converted.
 * Returns 0, or -1 when out of memory (s is then empty). */
int bench_set_make(bench_set *s, int workload, uint32_t pairs, uint64_t seed);
/* Converts an existing wl_set (hand-made sets use this). 0 or -1. */
int bench_set_from_wl(bench_set *s, const wl_set *wl, int workload);
void bench_set_free(bench_set *s);

/* Workload name ("box-box"), or "?" out of range. */
const char *bench_workload_name(int workload);

/* A context running backend with the set's hulls registered as ids
 * 0..hull_count-1 and scratch reserved for the whole batch. */
gjkb_error bench_context_create(const bench_set *s, gjkb_backend backend, gjkb_context **out);

int bench_out_alloc(bench_out *o, uint32_t count);
void bench_out_free(bench_out *o);

/* One gjkb_query_batch over every pair of s. Hit mode asks for status and
 * iterations; distance mode also for distance, witness points and axis, as
 * a caller that wants contacts would. */
gjkb_error bench_run(gjkb_context *ctx, const bench_set *s, gjkb_mode mode, bench_out *o);

/* Per-pair verdicts as 0/1 bytes (1: GJKB_OVERLAP); returns the hit count. */
uint32_t bench_verdicts(const bench_out *o, uint8_t *hit);
/* Pairs whose status is limit or invalid. */
uint32_t bench_unresolved(const bench_out *o);
double bench_mean_iterations(const bench_out *o);
/* Pairs where two 0/1 verdict arrays differ. */
uint32_t bench_mismatches(const uint8_t *a, const uint8_t *b, uint32_t n);

/* Hand-made pairs with known answers for the peers' startup check: spheres,
 * boxes, capsules, cylinders and a cube hull just apart and just touching.
 * expect_hit[i] is the verdict, expect_dist[i] the exact distance (0 when
 * overlapping); both arrays are malloc'd (free them). 0 or -1. */
int bench_known_make(bench_set *s, uint8_t **expect_hit, double **expect_dist);

#ifdef __cplusplus
}
#endif
#endif
