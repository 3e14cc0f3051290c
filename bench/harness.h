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

/* Output arrays for one batch, every field gjkb_results offers. The
 * manifold arrays (contact mode) have GJKB_MAX_CONTACTS slots per pair. */
typedef struct bench_out {
    uint32_t count;
    uint8_t *status;
    double *distance;
    double *ax, *ay, *az, *bx, *by, *bz, *nx, *ny, *nz;
    uint32_t *iterations;
    uint8_t *contacts;
    double *cax, *cay, *caz, *cbx, *cby, *cbz, *csep;
    uint32_t *cfeature;
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
 * a caller that wants contacts would; contact mode for all of that and
 * every manifold array, as a physics engine's narrowphase would. */
gjkb_error bench_run(gjkb_context *ctx, const bench_set *s, gjkb_mode mode, bench_out *o);
/* The same over the set's first `pairs` pairs only (at most pair_count). */
gjkb_error bench_run_first(gjkb_context *ctx, const bench_set *s, gjkb_mode mode, uint32_t pairs,
                           bench_out *o);

/* Per-pair verdicts as 0/1 bytes (1: GJKB_OVERLAP); returns the hit count. */
uint32_t bench_verdicts(const bench_out *o, uint8_t *hit);
/* Pairs whose status is limit or invalid. */
uint32_t bench_unresolved(const bench_out *o);
double bench_mean_iterations(const bench_out *o);
/* The same over the first n pairs (a contact row may run fewer). */
double bench_mean_iterations_first(const bench_out *o, uint32_t n);
/* Pairs where two 0/1 verdict arrays differ. */
uint32_t bench_mismatches(const uint8_t *a, const uint8_t *b, uint32_t n);

/* ---- contact mode: agreement with the reference --------------------------
 * A pair's scale is the sum of its shapes' bounding radii (gjkbatch.h's
 * tolerances are relative to it); its touching band is distances within
 * GJKB_DEFAULT_TOLERANCE * scale of 0, where either verdict is right and
 * depths are not compared. */
void bench_pair_scales(const bench_set *s, double *scale);

/* Disagreements of one contact-mode row (or a peer) with the reference's
 * contact-mode answers on the same pairs. */
typedef struct bench_contact_check {
    uint32_t compared;     /* pairs compared */
    uint32_t depth_bad;    /* outside the band: |distance - reference| > tol * scale */
    uint32_t count_bad;    /* contact counts differing from the reference's */
    uint32_t nan_normal;   /* overlap status with a non-finite or non-unit normal */
    uint32_t dropped;      /* overlapping by the reference (peers: outside the band) and
                              answered without overlap status, a finite depth and a contact */
    uint32_t extra;        /* separated by the reference, outside the band, with contacts */
    uint32_t limit;        /* status limit (gjkbatch rows) */
    uint64_t points;       /* contact points in all */
} bench_contact_check;

/* A gjkbatch contact-mode output o against the reference's ref, first n
 * pairs. Depth tolerance: tol * scale. */
void bench_contact_compare(const bench_out *o, const bench_out *ref, const double *scale, uint32_t n,
                           double tol, bench_contact_check *c);

/* A peer's answers: depth[i] its penetration depth (>= 0; ignored where
 * count[i] is 0), count[i] its contact points (the EPA and MPR solvers: 1
 * when penetrating). Contact counts are compared (count_bad) only when
 * manifold is set, on pairs outside the band; nan_normal and limit stay 0. */
void bench_peer_compare(const bench_out *ref, const double *scale, uint32_t n, const double *depth,
                        const uint8_t *count, int manifold, double tol, bench_contact_check *c);

/* Hand-made pairs with known answers for the peers' startup check: spheres,
 * boxes, capsules, cylinders and a cube hull just apart and just touching.
 * expect_hit[i] is the verdict, expect_dist[i] the exact distance (0 when
 * overlapping); both arrays are malloc'd (free them). 0 or -1. */
int bench_known_make(bench_set *s, uint8_t **expect_hit, double **expect_dist);

#ifdef __cplusplus
}
#endif
#endif
