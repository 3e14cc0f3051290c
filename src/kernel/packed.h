/* packed.h - the bundle scratch layout shared by the width-agnostic pipeline
 * (which fills it) and every width of the kernel (which reads it).
 *
 * Every field is an array of floats or int32s over all packed pairs, padded
 * to a multiple of GJKB_PACK_ALIGN lanes and aligned to 64 bytes, so bundle b
 * of a width-W kernel is the aligned slice [b*W, b*W + W) of each array.
 * Geometry is in A's local frame, divided by a power of two near the pair's
 * scale (exact), so every kernel works on numbers of order one. */
#ifndef GJKB_PACKED_H
#define GJKB_PACKED_H

#include <stdint.h>

#define GJKB_PACK_ALIGN 16   /* lanes: the widest kernel */

/* One side's shape. Every analytic core is box half extents plus a disk of
 * radius rd in local xy (sphere: point; capsule: segment; cylinder: segment
 * + disk); a cone has cone = 1 and picks between its apex (0,0,hz) and its
 * base rim (disk at z = -hz). A hull has hn > 0 points starting at hf in the
 * context's point arrays, in unscaled local coordinates. */
typedef struct gjkb__pshape {
    float *hx, *hy, *hz, *rd, *cone;
    float *margin;          /* total rounding radius (sphere/capsule radius included) */
    int32_t *hf, *hn;
} gjkb__pshape;

typedef struct gjkb__packed {
    uint32_t count;         /* packed pairs (lanes past it are padding) */
    uint32_t capacity;      /* lanes allocated per array */
    gjkb__pshape a, b;
    float *r[9];            /* B's rotation into A's frame, row major */
    float *tx, *ty, *tz;    /* B's origin in A's frame (scaled) */
    float *dx, *dy, *dz;    /* initial search direction, A to B */
    float *inv_scale;       /* 1 / scale: hull points are stored unscaled */
    float *tol;             /* touching tolerance (scaled) */
    float *max_dist;        /* early-stop distance (scaled), +inf for none */
    int32_t *valid;         /* 0: invalid pair, skipped by the kernel */
    /* outputs, in the same scaled A frame */
    int32_t *status, *iterations;
    float *dist;
    float *pax, *pay, *paz; /* witness on A */
    float *pbx, *pby, *pbz; /* witness on B */
    float *nx, *ny, *nz;    /* unit axis A to B */
} gjkb__packed;

/* Hull points of the context (never NULL: at least one dummy point). */
typedef struct gjkb__hullpts {
    const float *x, *y, *z;
} gjkb__hullpts;

/* A kernel runs bundles [first, first + count) of width W. */
typedef struct gjkb__kernel {
    const char *name;
    int width;
    void (*run)(const gjkb__packed *pk, gjkb__hullpts pts, int mode, uint32_t max_iterations,
                uint32_t first_bundle, uint32_t bundles);
} gjkb__kernel;

#endif
