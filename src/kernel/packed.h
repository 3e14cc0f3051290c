/* packed.h - what the width-agnostic pipeline hands a wide kernel.
 *
 * The pipeline buckets the pairs, then per chunk of lanes writes the few
 * per-pair values that need scalar work (body indices and kinds, and B's
 * offset from A taken in double), and the kernel does the rest in its lanes:
 * it gathers rotations and sizes from the caller's SoA bodies, validates,
 * builds A's scaled local frame, runs GJK and writes per-lane results.
 * Chunk arrays are 64-byte aligned and padded to GJKB_PACK_ALIGN lanes, so
 * bundle b of a width-W kernel is the aligned slice [b*W, b*W + W). */
#ifndef GJKB_PACKED_H
#define GJKB_PACKED_H

#include <stdint.h>

#define GJKB_PACK_ALIGN 16   /* lanes: the widest kernel */

/* Per-lane arrays of one chunk. */
typedef struct gjkb__lanes {
    /* in */
    int32_t *ia, *ib;           /* body indices of A and B */
    int32_t *ka, *kb;           /* their kinds */
    float *rx, *ry, *rz;        /* B's position minus A's, world; NaN for an invalid position */
    float *wx, *wy, *wz;        /* warm-start axis, world (read only with a warm start) */
    /* out */
    int32_t *status, *iterations;
    float *dist;
    float *ax, *ay, *az;        /* witness on A minus A's position, world */
    float *bx, *by, *bz;        /* witness on B minus A's position, world */
    float *nx, *ny, *nz;        /* unit axis from A to B, world */
} gjkb__lanes;

/* Read-only inputs of the whole batch. */
typedef struct gjkb__world {
    const float *qw, *qx, *qy, *qz;
    const float *sx, *sy, *sz;
    const float *margin;        /* NULL: no margins */
    const int32_t *hull;        /* NULL: no hull bodies */
    const int32_t *hull_first, *hull_n;
    const float *hull_radius;   /* NaN for an invalid hull */
    const float *px, *py, *pz;  /* all hull points (at least one) */
    float tolerance, max_distance;
    int distance_mode, warm;
    uint32_t max_iterations;
    int within_from;            /* hull support: within-hull vectorized for bundles whose
                                   longest hull has at least this many points, else
                                   gathered across lanes (same results either way) */
} gjkb__world;

/* A kernel runs bundles [0, bundles) of a chunk. */
typedef struct gjkb__kernel {
    const char *name;
    int width;
    void (*run)(const gjkb__world *w, const gjkb__lanes *l, uint32_t bundles);
} gjkb__kernel;

#endif
