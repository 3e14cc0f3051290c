/* packed.h - what the width-agnostic pipeline hands a wide kernel.
 *
 * The pipeline buckets the pairs into an order and lays out, at each
 * position of that order, the pair's body indices, kinds, B's offset from
 * A (subtracted in double, rounded to float) and its warm-start axis
 * (rounded to float); the kernel takes a chunk of that order, loads those,
 * gathers rotations and sizes from the caller's SoA arrays, validates,
 * builds A's scaled local frame, runs GJK and writes per-lane results that
 * the pipeline scatters back. Everything per pair is a load at the lane's
 * position, never a read by pair number: the bucketed order makes those
 * random. Lane arrays are 64-byte aligned and padded to GJKB_PACK_ALIGN
 * lanes, so bundle b of a width-W kernel is the aligned slice
 * [b*W, b*W + W). */
#ifndef GJKB_PACKED_H
#define GJKB_PACKED_H

#include "gjkbatch.h"

#include <stdbool.h>
#include <stdint.h>

#define GJKB_PACK_ALIGN 16   /* lanes: the widest kernel */

/* A lane status beyond gjkb_status: the pipeline answers the pair with the
 * double-precision reference (the kernel could not settle it in float). */
#define GJKB_K_STATUS_REFINE 4

/* What a kernel counts as it goes: bundle steps and the active lanes in
 * them (gjkb_stats). */
typedef struct gjkb__counts {
    uint64_t bundle_steps, lane_steps;
    uint64_t refined;       /* lanes answered by the reference (counted by the pipeline) */
} gjkb__counts;

/* A contact point's float fields in the lane arrays: a, b, separation. */
enum { GJKB_K_POINT_FIELDS = 7 };
/* The final simplex a contact-mode loop hands to the depth solver: four
 * points of A - B, then their four A parts (xyz each, A's scaled frame),
 * then the point count (4 where the origin was enclosed, else 0). */
enum { GJKB_K_FINAL_FIELDS = 4 * 3 * 2 + 1, GJKB_K_FINAL_COUNT = GJKB_K_FINAL_FIELDS - 1 };

/* Per-lane output arrays of one chunk, and its thread's step counts. */
typedef struct gjkb__lanes {
    int32_t *status, *iterations;
    float *dist;
    float *ax, *ay, *az;        /* witness on A minus A's position, world */
    float *bx, *by, *bz;        /* witness on B minus A's position, world */
    float *nx, *ny, *nz;        /* unit axis from A to B, world */
    /* Contact mode: the manifold's point count, and per slot k A's point and
     * B's point (minus A's position, world), their separation, and the
     * feature key (gjkb_manifolds). */
    int32_t *mcount;
    float *mpt[GJKB_MAX_CONTACTS][GJKB_K_POINT_FIELDS];
    int32_t *mkey[GJKB_MAX_CONTACTS];
    /* Contact mode: the final simplex per lane (GJKB_K_FINAL_FIELDS). */
    float *fin[GJKB_K_FINAL_FIELDS];
    gjkb__counts *counts;
} gjkb__lanes;

/* A hull face for the contact manifold (manifold.inl), from the hull's
 * topology: its outward unit normal in the hull's frame (float), its loop
 * face_vertex[first .. first + count) of vertex indices into the hull's
 * points (hull_first + index), and whether the reference finds the same
 * face from the points (exact: every loop vertex on the plane within 1e-13
 * of the hull's radius, every other vertex below it by more than 1e-7 of
 * it, at most 32 vertices; see context.c). */
typedef struct gjkb__face {
    float nx, ny, nz;
    int32_t first, count, exact;
} gjkb__face;

/* Read-only inputs of the whole batch: the caller's arrays and the hulls. */
typedef struct gjkb__world {
    /* per lane of the chunk (at the order's positions): body indices, their
     * kinds (checked), B's position minus A's (double, rounded to float) */
    const int32_t *lane_a, *lane_b, *lane_ka, *lane_kb;
    const float *lane_dx, *lane_dy, *lane_dz;
    /* per lane: the warm-start axis, world (the query's double rounded to
     * float, NaN where the pair has none), or NULL: no warm start */
    const float *lane_wx, *lane_wy, *lane_wz;
    const float *qw, *qx, *qy, *qz;
    const float *sx, *sy, *sz;
    const float *margin;        /* NULL: no margins */
    const int32_t *hull;        /* NULL: no hull bodies */
    const int32_t *hull_first, *hull_n;
    const float *hull_radius;   /* NaN for an invalid hull */
    const float *hull_inner;    /* radius of a ball about the origin inside the hull; -inf: none */
    const float *hx, *hy, *hz;  /* all hull points (at least GJKB_PACK_ALIGN, padded) */
    /* per hull id: its faces face[face_first .. face_first + face_n) (none
     * for a hull without faces: a point, a segment, an invalid hull) */
    const int32_t *face_first, *face_n;
    const gjkb__face *face;
    const int32_t *face_vertex;
    /* per hull point (as hx): the faces around it in turn (indices among
     * its hull's faces), ring_face[point_ring .. + point_ring_n) */
    const int32_t *point_ring, *point_ring_n, *ring_face;
    float tolerance, max_distance;
    int distance_mode;          /* distance or contact mode: witnesses and axis */
    int contact;                /* contact mode */
    int speculative;            /* contact mode with max_distance given: points for
                                   separated pairs within it (any, when +inf) */
    uint32_t max_iterations;
    int within_from;            /* hull support: within-hull vectorized for bundles whose
                                   longest hull has at least this many points, else
                                   gathered across lanes (same results either way) */
    /* Per body, 64-byte aligned, GJKB_BODY_RECORD floats each (the same
     * values as the arrays above: one load per body instead of a gather per
     * value), or NULL: gather from the arrays. */
    const float *records;
} gjkb__world;

/* A body record's fields, in floats (int fields as their bits): the
 * rotation matrix (row major) as pack makes it from the quaternion, or NaN
 * in R0 where the quaternion is invalid; sizes; margin (0 without
 * margins); and for a hull body with a registered id its hull's first
 * point, point count and radius (0 otherwise). */
enum { GJKB_REC_R0, GJKB_REC_SX = 9, GJKB_REC_SY, GJKB_REC_SZ, GJKB_REC_MARGIN, GJKB_REC_HULL_FIRST,
       GJKB_REC_HULL_N, GJKB_REC_HULL_RADIUS, GJKB_BODY_RECORD };
_Static_assert(GJKB_BODY_RECORD == 16, "a record is one 64-byte line");

/* A kernel runs the lanes [0, count) of a chunk (w's lane arrays, readable
 * up to the next multiple of GJKB_PACK_ALIGN) in bundles of its width,
 * writing lane j's results at index j of the lane arrays. */
typedef struct gjkb__kernel {
    const char *name;
    int width;
    void (*run)(const gjkb__world *w, uint32_t count, const gjkb__lanes *l);
    /* The records (gjkb__world.records) of bodies [first, end), from w's
     * arrays, kind (per body) and the number of registered hulls. */
    void (*records)(const gjkb__world *w, const uint8_t *kind, uint32_t hulls, uint32_t first, uint32_t end,
                    float *out);
    /* The lanes' answers back to their pairs, at the kernel's instruction
     * set (scatter.h says what it writes). */
    void (*scatter)(const gjkb__lanes *l, const uint32_t *idx, uint32_t lanes, const gjkb_bodies *bd,
                    const gjkb_pairs *pr, gjkb_mode mode, gjkb_results *out, bool stream);
} gjkb__kernel;

#endif
