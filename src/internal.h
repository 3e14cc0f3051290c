/* internal.h - what the library's translation units share and users never
 * see: the context, registered hulls and resolved query parameters (one
 * shape's validity rule: shape.h). */
#ifndef GJKB_INTERNAL_H
#define GJKB_INTERNAL_H

#include "gjkbatch.h"
#include "hull.h"
#include <math.h>
#include <stdbool.h>

/* Hulls of at least this many points use the within-hull support in the
 * wide kernels, smaller ones the gather across lanes. Within-hull won at
 * every width and hull size measured (docs/performance.md, "Constants in
 * the code"), so every size uses it; GJKB_HULL_SUPPORT=gather forces the
 * gather. */
#define GJKB_HULL_WITHIN_FROM 1

/* Hull storage granule, in points: the widest kernel's lane count, so any
 * kernel loads a hull's points whole vectors at a time. */
#define GJKB_HULL_PAD 16

/* A registered hull: points [first, first + n) of the context's SoA point
 * arrays: the hull's vertices in topo's order (topo.source), or for an
 * invalid hull its input points. valid is false for an empty hull or one
 * with a non-finite or oversized point. radius is the largest distance of
 * an input point from the local origin (a bound for the pair's scale).
 * topo (hull.h; empty when invalid) is owned here, freed in gjkb_destroy;
 * read it through gjkb__hull_topo. */
typedef struct gjkb__hull {
    uint32_t first, n;
    uint32_t input_n;
    bool valid;
    double radius;
    gjkb__hull_topology topo;
} gjkb__hull;

struct gjkb_context {
    gjkb_backend backend;
    char message[256];
    /* hulls */
    gjkb__hull *hulls;
    uint32_t hull_count, hull_cap;
    float *hx, *hy, *hz;             /* all hull points, SoA, 64-byte aligned, each
                                        hull padded to GJKB_HULL_PAD (see gjkb_hull_add) */
    /* the same hulls as the wide kernels gather them */
    int32_t *hull_first, *hull_n;
    float *hull_radius;              /* NaN for an invalid hull */
    float *hull_inner;               /* a ball about the origin inside the hull; -inf: none */
    uint32_t point_count, point_cap;
    /* their faces for the contact manifold (gjkb__face, packed.h): per
     * hull the first face and the count, then the faces and their loops */
    int32_t *face_first, *face_n;
    struct gjkb__face *face;
    int32_t *face_vertex;
    /* per hull point slot: the faces around it in turn, ring_face[point_ring
     * .. + point_ring_n) (indices among its hull's faces; none where it has
     * no face, the walk does not close or meets a face not exact) */
    int32_t *point_ring, *point_ring_n, *ring_face;
    uint32_t point_ring_cap;
    uint32_t face_count, face_cap, face_vertex_count, face_vertex_cap, ring_count, ring_cap;
    /* hull support strategy of the wide kernels: within-hull from this many
     * points up, gathered across lanes below (GJKB_HULL_SUPPORT overrides) */
    int hull_within_from;
    /* Buffers, each owned (and freed in gjkb_destroy) by one file, grown
     * geometrically and never shrunk. scratch: the batch's (pipeline.c,
     * gjkb__scratch_free). broad: the sort scratch, the sorted boxes and the
     * pair outputs (broadphase.c, gjkb__broad_free). frame: gjkb_step's
     * boxes, classes and results (frame.c, gjkb__frame_free). */
    void *scratch;
    size_t scratch_bytes;
    struct gjkb__broad *broad;
    struct gjkb__frame *frame;
    /* set by gjkb_set_threads, 0 or 1 meaning the calling thread only (read
     * it through gjkb__threads) */
    int threads;
    /* the wide kernel's step counts (gjkb_stats; width filled on read) */
    gjkb_stats stats;
};

/* Query settings with defaults filled in. */
typedef struct gjkb__params {
    gjkb_mode mode;
    uint32_t max_iterations;
    uint32_t ref_max_iterations; /* the reference's bound (its own default) */
    double tolerance;      /* relative */
    double max_distance;   /* +INFINITY when unlimited */
    int speculative;       /* contact mode with max_distance given (+INFINITY too):
                              separated pairs within it get points */
} gjkb__params;

/* Records a message on ctx (may be NULL) and returns err. */
gjkb_error gjkb__fail(gjkb_context *ctx, gjkb_error err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- threads -------------------------------------------------------------
 * OpenMP pragmas that vanish in a build without OpenMP (no unknown-pragma
 * warnings), and the thread count a call on ctx may use (at least 1). */
#ifdef _OPENMP
#include <omp.h>
#define GJKB_OMP(directive) _Pragma(#directive)
static inline int gjkb__thread_id(void) { return omp_get_thread_num(); }
#else
#define GJKB_OMP(directive)
static inline int gjkb__thread_id(void) { return 0; }
#endif
static inline int gjkb__threads(const gjkb_context *ctx)
{
    return ctx->threads > 1 ? ctx->threads : 1;
}

#endif
