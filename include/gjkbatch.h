/* gjkbatch.h - batch GJK for convex shape pairs: the whole public API.
 *
 * gjkbatch answers "do these two convex shapes touch, and how far apart are
 * they" for thousands of pairs per call, running several pairs per SIMD
 * instruction. Inputs and outputs are caller-owned structure-of-arrays (SoA);
 * the library never copies or keeps user arrays beyond a call.
 *
 *   gjkb_context *ctx;
 *   gjkb_create(NULL, &ctx);                       // widest backend this CPU has
 *   gjkb_bodies bodies = { .count = n, .kind = kind, .px = px, ... };
 *   gjkb_pairs  pairs  = { .count = m, .a = ia, .b = ib };
 *   gjkb_query  q      = { .mode = GJKB_DISTANCE };
 *   gjkb_results out   = { .status = status, .distance = dist };
 *   if (gjkb_query_batch(ctx, &bodies, &pairs, &q, &out) != GJKB_OK)
 *       fprintf(stderr, "%s\n", gjkb_last_error(ctx));
 *   gjkb_destroy(ctx);
 *
 * Conventions
 * - Units are the caller's. Positions and every output are double so that a
 *   scene far from the origin keeps its precision; shape sizes, margins and
 *   rotations are float, as engines store them.
 * - Each pair is computed in a pair-local frame from B's offset from A,
 *   subtracted in double. Moving both shapes by the same offset changes the
 *   answer only through that subtraction's rounding (at most 2^-53 of the
 *   positions' magnitude): not at all where it is exact, and within the
 *   accuracy below while positions stay under about 1e11 times the scale.
 * - Tolerances are relative to the pair's scale: the sum of the two shapes'
 *   bounding radii (margins included). Distances, witnesses and the
 *   touching decision are accurate to 1e-4 of the scale at any gap: a float
 *   lane's error grows with the gap (about 2^-24 of it), so in distance
 *   mode the wide backends answer pairs more than 256 extents apart with
 *   the double-precision reference. Zero-size shapes (scale 0) touch only
 *   when they meet: any real gap separates them.
 *   Shapes below float's normal range (scales under about 1e-37) are
 *   answered by the wide backends to a few of float's subnormal steps
 *   (2^-149, about 1.4e-45) instead: their lanes hold offsets from A's
 *   position as floats.
 * - A context is used by one thread at a time. Create one per thread.
 */
#ifndef GJKBATCH_H
#define GJKBATCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GJKB_BUILDING) && defined(__GNUC__)
#define GJKB_API __attribute__((visibility("default")))
#else
#define GJKB_API
#endif

#define GJKB_VERSION_MAJOR 0
#define GJKB_VERSION_MINOR 1
#define GJKB_VERSION_PATCH 0

/* Iteration bound used when gjkb_query.max_iterations is 0. */
#define GJKB_DEFAULT_MAX_ITERATIONS 64u
/* The same for pairs the double-precision reference answers (the reference
 * backend, gjkb_query_pair, and the rare pairs a wide backend hands to it).
 * GJK converges only linearly where two curved rims (cylinder or cone) face
 * each other: such pairs need up to about 90 iterations to the reference's
 * accuracy, whatever the gap, so 64 would leave some of them at
 * GJKB_LIMIT. Converging pairs stop long before either bound. */
#define GJKB_REFERENCE_MAX_ITERATIONS 256u
/* Relative touching tolerance used when gjkb_query.tolerance is 0: a pair
 * whose gap is at most tolerance * scale counts as overlapping. */
#define GJKB_DEFAULT_TOLERANCE 1e-6
/* A size, margin, quaternion component or offset between a pair's positions
 * of larger magnitude makes the pair invalid: beyond it float lanes cannot
 * hold the products GJK forms. */
#define GJKB_MAX_COORD 1e15

/* ---- shapes ------------------------------------------------------------
 * Every shape is a core plus an optional margin (rounding radius) that
 * inflates it uniformly. Axes of capsule, cylinder and cone are local z.
 * The three size values (size x, y, z) mean, per kind:
 *   sphere    radius = x                         (y, z ignored)
 *   capsule   radius = x, half length of the core segment = z
 *   box       half extents x, y, z
 *   cylinder  radius = x, half height = z
 *   cone      base radius = x, half height = z; base disk at z = -h, apex at z = +h
 *   hull      sizes ignored; the points of the registered hull (gjkb_hull_add)
 * Zero sizes are valid (a box of zero extent is a point, a cylinder of zero
 * height a disk); negative or non-finite sizes make a pair invalid. */
typedef enum gjkb_kind {
    GJKB_SPHERE = 0,
    GJKB_CAPSULE = 1,
    GJKB_BOX = 2,
    GJKB_CYLINDER = 3,
    GJKB_CONE = 4,
    GJKB_HULL = 5,
    GJKB_KIND_COUNT = 6
} gjkb_kind;

/* Bodies, SoA. Body i is kind[i] at position (px,py,pz)[i] rotated by the
 * quaternion (qw,qx,qy,qz)[i]. Positions may be any finite doubles: a pair
 * is invalid when B's offset from A (subtracted in double, rounded to float)
 * is not finite or exceeds GJKB_MAX_COORD in a component. Quaternions are
 * normalized internally; a
 * non-finite one, or one whose squared length (summed in float) is below
 * 1e-30 (|q| < 1e-15: zero for every practical purpose), makes every pair
 * using the body invalid. margin and hull may be NULL (no margins; no hull
 * bodies). At most INT32_MAX bodies per call. */
typedef struct gjkb_bodies {
    uint32_t count;
    const uint8_t *kind;              /* gjkb_kind */
    const double *px, *py, *pz;       /* world position */
    const float *qw, *qx, *qy, *qz;   /* rotation, local to world */
    const float *sx, *sy, *sz;        /* sizes, see gjkb_kind */
    const float *margin;              /* rounding radius >= 0, or NULL */
    const uint32_t *hull;             /* hull id for GJKB_HULL bodies, or NULL */
} gjkb_bodies;

/* Pairs: pair i is body a[i] (shape A) against body b[i] (shape B). */
typedef struct gjkb_pairs {
    uint32_t count;
    const uint32_t *a, *b;
} gjkb_pairs;

/* ---- queries ------------------------------------------------------------ */
typedef enum gjkb_mode {
    GJKB_HIT = 0,       /* overlap or not, exiting as early as possible */
    GJKB_DISTANCE = 1,  /* distance, witness points and axis */
    GJKB_CONTACT = 2    /* signed distance (minus the penetration depth when
                           overlapping), normal, witnesses and a contact
                           manifold of up to GJKB_MAX_CONTACTS points */
} gjkb_mode;

typedef struct gjkb_query {
    gjkb_mode mode;
    uint32_t max_iterations;   /* per pair; 0: GJKB_DEFAULT_MAX_ITERATIONS (pairs the
                                  reference answers: GJKB_REFERENCE_MAX_ITERATIONS) */
    double tolerance;          /* relative touching tolerance; 0: GJKB_DEFAULT_TOLERANCE */
    double max_distance;       /* distance and contact modes: a pair proven farther
                                  apart than this may stop early (see gjkb_results);
                                  0: no limit. Contact mode: separated pairs within
                                  it get a speculative manifold (every separated pair
                                  with +INFINITY; none with 0) */
    /* Optional warm start: one axis per pair (world, from A to B, any
     * length), typically last frame's gjkb_results n. NULL: start from the
     * centre offset. A zero or non-finite axis falls back to the offset. */
    const double *warm_x, *warm_y, *warm_z;
} gjkb_query;

/* Per-pair verdict. */
typedef enum gjkb_status {
    GJKB_SEPARATED = 0,  /* gap larger than the touching tolerance */
    GJKB_OVERLAP = 1,    /* touching within tolerance, or interpenetrating */
    GJKB_LIMIT = 2,      /* iteration bound reached before a verdict */
    GJKB_INVALID = 3     /* bad geometry: NaN/Inf, negative size, zero quaternion,
                            empty or non-finite hull, magnitude > GJKB_MAX_COORD */
} gjkb_status;

/* Points per contact manifold at most. */
#define GJKB_MAX_CONTACTS 4
/* Vertices of the polygon inscribed in a cylinder's cap or a cone's base
 * that stands for the disk in manifolds (feature keys below). */
#define GJKB_CONTACT_RIM 8

/* Contact manifolds (contact mode), SoA with GJKB_MAX_CONTACTS slots per
 * pair: point k of pair i is entry i * GJKB_MAX_CONTACTS + k. Only count is
 * required when any array is given; the others may be NULL (x, y, z as a
 * group). Slots from count[i] on are NaN (feature 0).
 *   count       points in the manifold, 0..GJKB_MAX_CONTACTS. 0 for a
 *               separated pair unless max_distance > 0 and the gap is
 *               within it (a speculative manifold), and for limit and
 *               invalid pairs.
 *   a, b        the point on A's surface and the point on B's, world
 *               coordinates; b - a is parallel to the pair's normal n.
 *   separation  (b - a) . n: negative where the shapes interpenetrate. The
 *               first point is the deepest: its separation equals distance.
 *   feature     the pair of features (face, edge, vertex of each core) the
 *               point comes from, packed; the same from frame to frame
 *               while the same features touch, for a solver's warm start.
 *               (featureA << 16) | featureB, each 16 bits a 2-bit type
 *               (0 vertex, 1 edge, 2 face) << 14 | a 14-bit index. Indices:
 *               box vertex: bit k set where coordinate k is positive; box
 *               edge: 4 * axis + the other two coordinates' bits; box face:
 *               2 * axis + (positive side); capsule: vertex 0 (-z) and 1,
 *               edge 0; cylinder cap k (0 bottom, 1 top) as face k with
 *               GJKB_CONTACT_RIM vertices k * RIM + i on its rim (i counter-
 *               clockwise from +x) and edges alike (edge i from vertex i
 *               to the next), its side line as edge 2 * RIM (ends 2 * RIM
 *               at the bottom, 2 * RIM + 1), a lone rim point as vertex
 *               2 * RIM + cap; cone base face 0, rim vertices and edges
 *               0..RIM-1, apex vertex RIM, slant line edge RIM, a lone rim
 *               point vertex RIM + 1; sphere vertex 0;
 *               hull vertex: the point's index among the hull's vertices
 *               (mod 2^14; the points registration kept, in input order);
 *               hull edges and faces: a 14-bit hash of those indices
 *               (docs/contacts.md, "Feature keys": edge mix(lo, hi, 0),
 *               face mix of its three lowest; equal keys for different
 *               features are possible, rarely). A point
 *               where an edge of one feature crosses an edge of the other
 *               carries both edges; a vertex over a face carries both. */
typedef struct gjkb_manifolds {
    uint8_t *count;
    double *ax, *ay, *az;
    double *bx, *by, *bz;
    double *separation;
    uint32_t *feature;
} gjkb_manifolds;

/* Results, SoA, one entry per pair in pair order. Only status is required;
 * every other array may be NULL when not wanted (x, y and z of a point come
 * as a group: all three or none).
 *   distance  overlap (either mode): 0. Separated, distance mode: the
 *             Euclidean distance between the shapes, margins included; when
 *             stopped early beyond max_distance, a lower bound that exceeds
 *             max_distance. Separated in hit mode, and invalid: NaN. Limit:
 *             NaN in hit mode, the best upper bound found in distance mode.
 *   a, b      witness points on A and B, world coordinates (distance mode;
 *             for overlap only when the cores are apart and the margins touch
 *             or overlap, else NaN). |b - a| = distance for separated pairs;
 *             when stopped early beyond max_distance, the support points of
 *             the plane that proves the bound, at least that far apart.
 *   n         unit axis from A to B (distance mode; NaN where undefined).
 *   iterations  support evaluations of the Minkowski difference used; 0
 *             where the pair was decided before any: in hit mode from balls
 *             about the bodies' origins (bounding spheres apart beyond the
 *             touching band, or balls inside both shapes overlapping) or a
 *             box pair's separating axes; in distance mode where balls
 *             inside both cores overlap or a box pair's axes show the
 *             cores overlapping (distance 0, no witnesses).
 * Contact mode differs from distance mode for overlapping pairs only:
 *   distance  minus the penetration depth: the length of the shortest
 *             translation of B that leaves the shapes only touching (0 to
 *             -tolerance * scale for pairs within the touching band).
 *   n         unit direction of that translation, from A to B: moving B by
 *             depth along n makes the shapes touch. Never NaN for a valid
 *             overlapping pair; where it is not unique (coincident spheres)
 *             a deterministic choice.
 *   a, b      a is A's point farthest along n, b is B's point farthest
 *             along -n: b - a = distance * n.
 *   status    limit when the depth did not converge within the bound
 *             (curved cores): distance, a, b and n then hold the best
 *             bound found (B moved by -distance along n is clear of A).
 *   manifold  see gjkb_manifolds (all NULL: none written; only count,
 *             when any other manifold array is given, is required). In
 *             hit and distance modes the manifold arrays are not touched.
 * Every backend answers contact mode in float across lanes; the pairs float
 * cannot settle go to the double-precision reference, pair by pair, and
 * gjkb_stats.refined counts them (docs/contacts.md). */
typedef struct gjkb_results {
    uint8_t *status;                  /* gjkb_status */
    double *distance;
    double *ax, *ay, *az;
    double *bx, *by, *bz;
    double *nx, *ny, *nz;
    uint32_t *iterations;
    gjkb_manifolds manifold;          /* contact mode only */
} gjkb_results;

/* ---- context ----------------------------------------------------------- */
typedef enum gjkb_backend {
    GJKB_BACKEND_AUTO = 0,       /* widest this CPU runs, or GJKB_BACKEND env var */
    GJKB_BACKEND_REFERENCE = 1,  /* independent double-precision scalar GJK */
    GJKB_BACKEND_SCALAR = 2,     /* the wide kernel at width 1 */
    GJKB_BACKEND_SSE4 = 3,       /* 4 lanes, SSE4.1 */
    GJKB_BACKEND_AVX2 = 4,       /* 8 lanes */
    GJKB_BACKEND_AVX512 = 5,     /* 16 lanes */
    GJKB_BACKEND_NEON = 6,       /* 4 lanes, aarch64 */
    GJKB_BACKEND_COUNT = 7
} gjkb_backend;

typedef struct gjkb_config {
    gjkb_backend backend;   /* AUTO: the environment variable GJKB_BACKEND
                               (reference|scalar|sse4|avx2|avx512|neon|auto)
                               if set, else the widest supported */
    uint32_t reserve_pairs; /* size scratch for batches this large up front;
                               0: grow on demand at the first larger batch */
} gjkb_config;

typedef enum gjkb_error {
    GJKB_OK = 0,
    GJKB_ERR_NULL = 1,        /* a required pointer is NULL */
    GJKB_ERR_RANGE = 2,       /* a body or hull index is out of range */
    GJKB_ERR_KIND = 3,        /* unknown shape kind, mode or backend name */
    GJKB_ERR_ARGUMENT = 4,    /* any other bad argument */
    GJKB_ERR_MEMORY = 5,      /* allocation failed */
    GJKB_ERR_UNSUPPORTED = 6  /* backend not compiled in or not run by this CPU */
} gjkb_error;

typedef struct gjkb_context gjkb_context;

/* Creates a context. cfg may be NULL (all defaults). On failure *out is NULL
 * and gjkb_error_string() describes the code. */
GJKB_API gjkb_error gjkb_create(const gjkb_config *cfg, gjkb_context **out);
GJKB_API void gjkb_destroy(gjkb_context *ctx);

/* The backend the context runs, and the name of any backend
 * ("reference", "scalar", "sse4", "avx2", "avx512", "neon", "auto"). */
GJKB_API gjkb_backend gjkb_context_backend(const gjkb_context *ctx);
GJKB_API const char *gjkb_backend_name(gjkb_backend backend);
/* Parses a backend name; GJKB_ERR_KIND when unknown. */
GJKB_API gjkb_error gjkb_backend_parse(const char *name, gjkb_backend *out);
/* Whether this build and CPU can run the backend. */
GJKB_API int gjkb_backend_available(gjkb_backend backend);

/* Registers a convex hull given by n points (x,y,z interleaved, copied).
 * The hull is the convex hull of the points: duplicates, interior,
 * collinear or coplanar points are fine, and one or two points make a point
 * or a segment. n == 0 (xyz may then be NULL) or a non-finite point registers
 * a hull that answers GJKB_INVALID for every pair using it. Ids count from 0
 * in registration order.
 *
 * Topology: registration builds the hull once (deterministic: the same
 * points give the same hull bit for bit on every platform). It keeps only
 * the vertices (interior points, points on a face or an edge, and
 * duplicates are dropped; of points within about 1e-6 of the cloud's
 * largest extent of each other the first in input order is kept, and the
 * vertices keep their input order), its faces (convex polygons, triangles
 * coplanar within 2e-6 of the extent merged, outward unit normals), its
 * edges and each vertex's neighbours. A cloud thinner than 2e-6 of its
 * extent is flat (its polygon, as two faces with opposite normals), one
 * that narrow in two directions a segment (its two end points), one point
 * repeated a point. The queries then scan the vertices only; gjkb_hull_info_get
 * gives the counts. Cost: one quickhull at registration, typically
 * O(n log n) for n points. */
GJKB_API gjkb_error gjkb_hull_add(gjkb_context *ctx, const float *xyz, uint32_t n, uint32_t *id);
GJKB_API uint32_t gjkb_hull_count(const gjkb_context *ctx);

/* What registration made of a hull: its input point count, and the
 * vertices, faces and edges of its convex hull (a segment: 2, 0, 1; a
 * point: 1, 0, 0; flat: V, 2, V; an invalid hull: 0, 0, 0 and valid 0). */
typedef struct gjkb_hull_info {
    uint32_t points, vertices, faces, edges;
    int valid;
} gjkb_hull_info;

/* GJKB_ERR_NULL for a NULL argument, GJKB_ERR_RANGE for an id that is not
 * registered; out is then untouched. */
GJKB_API gjkb_error gjkb_hull_info_get(const gjkb_context *ctx, uint32_t id, gjkb_hull_info *out);

/* Runs the query on every pair. Returns GJKB_OK, or an error (with
 * gjkb_last_error) for bad arguments: NULL context, arrays or results, a
 * pair index >= bodies->count, a kind >= GJKB_KIND_COUNT, a hull id that is
 * not registered, an unknown mode. On error no result is written. A zero
 * pair count is valid and writes nothing. Geometric problems never fail the
 * call: they give the pair GJKB_INVALID and leave every other pair as it
 * would be alone. */
GJKB_API gjkb_error gjkb_query_batch(gjkb_context *ctx, const gjkb_bodies *bodies,
                            const gjkb_pairs *pairs, const gjkb_query *query,
                            gjkb_results *results);

/* How busy the wide kernel's lanes were, summed over the context's batch
 * calls (gjkb_query_batch and gjkb_step) since it was created or last
 * reset. A bundle step is one GJK step of W lanes in lockstep; a lane step
 * is one of those lanes doing a pair's step (the sum of the pairs'
 * iterations, counted where the kernel ran them). Lane utilization is
 * lane_steps / (bundle_steps * width); the reference backend counts
 * nothing. Contact mode counts its GJK and depth steps. The counts are the
 * same for every thread count. */
typedef struct gjkb_stats {
    uint32_t width;          /* lanes per bundle of the context's backend (0: reference) */
    uint64_t pairs;          /* pairs given to the wide kernel */
    uint64_t bundle_steps;
    uint64_t lane_steps;
    uint64_t refined;        /* of those, pairs float could not settle: answered by the
                                double-precision reference inside the call */
} gjkb_stats;

GJKB_API gjkb_error gjkb_stats_get(const gjkb_context *ctx, gjkb_stats *out);
GJKB_API void gjkb_stats_reset(gjkb_context *ctx);

/* ---- one pair, reference path ------------------------------------------ */
typedef struct gjkb_shape {
    gjkb_kind kind;
    float size[3];       /* as gjkb_bodies sx, sy, sz */
    float margin;
    uint32_t hull;       /* hull id for GJKB_HULL */
    double pos[3];
    float rot[4];        /* quaternion w, x, y, z */
} gjkb_shape;

/* One point of a contact manifold (see gjkb_manifolds). */
typedef struct gjkb_contact {
    double a[3], b[3];
    double separation;
    uint32_t feature;
} gjkb_contact;

typedef struct gjkb_result {
    gjkb_status status;
    uint32_t iterations;
    double distance;
    double a[3], b[3], n[3];
    uint32_t contact_count;           /* contact mode: 0..GJKB_MAX_CONTACTS */
    gjkb_contact contacts[GJKB_MAX_CONTACTS];
} gjkb_result;

/* One pair through the independent double-precision reference GJK, with
 * the same semantics as gjkb_query_batch (query may be NULL: distance mode,
 * defaults). Errors as for the batch call. */
GJKB_API gjkb_error gjkb_query_pair(gjkb_context *ctx, const gjkb_shape *a, const gjkb_shape *b,
                           const gjkb_query *query, gjkb_result *out);

/* ---- broadphase and the per-frame pipeline ----------------------------- */

/* World-space axis-aligned boxes, SoA, caller-owned. float, rounded outward
 * from the double computation so a box never shrinks. */
typedef struct gjkb_aabbs {
    uint32_t count;
    float *min_x, *min_y, *min_z;
    float *max_x, *max_y, *max_z;
} gjkb_aabbs;

/* Computes every body's box, margins included (out->count must equal
 * bodies->count). A geometrically invalid body gets an empty box
 * (min = +inf, max = -inf), which overlaps nothing. */
GJKB_API gjkb_error gjkb_bounds(gjkb_context *ctx, const gjkb_bodies *bodies, gjkb_aabbs *out);

/* Per-body flags for the broadphase. */
#define GJKB_BODY_STATIC 1u   /* pairs of two static bodies are never reported */

/* Optional per-pair filter: return 0 to drop the pair (a < b). It is called
 * on the calling thread, in the sweep's order (gjkb_find_pairs' output
 * order), once for each pair the flags keep. */
typedef int (*gjkb_pair_filter)(void *user, uint32_t a, uint32_t b);

typedef struct gjkb_broadphase_options {
    const uint8_t *flags;     /* GJKB_BODY_* per body, or NULL */
    gjkb_pair_filter filter;  /* or NULL */
    void *user;               /* passed to filter */
} gjkb_broadphase_options;

/* Candidate pairs: every pair of distinct bodies a < b whose closed boxes
 * overlap on all three axes (touching boxes count), minus those the options
 * drop. The arrays are owned by the context and stay valid until the next
 * gjkb_find_pairs or gjkb_step on it. The order is the sweep's (not sorted
 * by a, b) and deterministic: the same for every backend and thread count.
 * opt may be NULL. */
GJKB_API gjkb_error gjkb_find_pairs(gjkb_context *ctx, const gjkb_aabbs *boxes,
                                    const gjkb_broadphase_options *opt, gjkb_pairs *out);

/* One frame: bounds, sweep-and-prune, then the query on every candidate
 * pair. The frame's pairs are gjkb_find_pairs' grouped by the kinds of
 * their two shapes (a hull's by its size class), each group in the sweep's
 * order: deterministic, the same for every backend and thread count, so
 * the results go out in runs. Everything in *out is owned by the context
 * and valid until the next call that produces pairs. In hit mode only
 * status, distance and iterations are filled (the point arrays are NULL).
 * Every mode is accepted, contact included. The query may not carry
 * warm-start arrays (the pairs are not known before the call):
 * GJKB_ERR_ARGUMENT; the pair cache (gjkb_set_pair_cache) warm-starts the
 * pairs instead. */
typedef struct gjkb_frame {
    gjkb_pairs pairs;         /* candidate pairs */
    gjkb_results results;     /* one entry per candidate pair (distance and
                                 contact modes fill distance, points and
                                 axis; contact mode also every manifold
                                 array, GJKB_MAX_CONTACTS slots per pair,
                                 owned by the context like the rest) */
    uint32_t hits;            /* pairs with status GJKB_OVERLAP */
    double seconds[4];        /* wall time of bounds, sort, sweep, narrowphase */
    /* The pair cache's part (all 0 / NULL while it is off): */
    uint32_t warm;            /* pairs that started from last frame's axis */
    const uint32_t *last_feature; /* contact mode: per pair, GJKB_MAX_CONTACTS
                                 feature keys of the pair's manifold last
                                 frame, as results.manifold.feature had them
                                 (0 for a new pair); NULL otherwise */
    double cache_seconds;     /* wall time of the cache's lookup and update */
    /* Distance and contact modes: the axis each pair started from (NaN:
     * cold), NULL otherwise. gjkb_query_batch on the frame's pairs with
     * these as warm_x/y/z gives the frame's answers bit for bit (the
     * reference backend, fed them, checks a frame; see gjkbatch run
     * --verify). */
    const double *warm_x, *warm_y, *warm_z;
} gjkb_frame;

GJKB_API gjkb_error gjkb_step(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_broadphase_options *opt,
                              const gjkb_query *query, gjkb_frame *out);

/* Pair cache of gjkb_step (off when a context is created). On, every
 * distance- or contact-mode frame keeps its candidate pairs, keyed by the
 * body pair (a, b), with the axis each ended on (results n) and, in
 * contact mode, its manifold's feature keys. Next frame a pair found again
 * starts GJK from that axis (the warm start of gjkb_query's warm_x/y/z) and
 * hands its keys out in gjkb_frame.last_feature; a new pair starts cold;
 * a pair no longer a candidate is dropped. A warm start changes where GJK
 * starts, not what it answers: verdicts, distances and depths agree with
 * a cold start within the tolerances above (pairs inside the touching
 * band may change side; contact manifolds of nearly tied features may
 * get another point count), and in fewer iterations only as far as last
 * frame's axis is closer than the centre offset (a few percent on gjkbatch
 * run's spinning world: docs/performance.md).
 * - Deterministic: the cache holds what the last frame answered, which is
 *   the same for every thread count and wide backend, so the same frames
 *   give the same bits for any of them.
 * - Hit mode keeps no axis (its kernel stops on a proof and reports none):
 *   a hit-mode frame starts every pair cold and empties the cache.
 * - Body indices name the pairs: between frames they may not be reordered
 *   (the answers stay right, but pairs start from other pairs' axes,
 *   slower and with other bits) unless the cache is reset. A different body
 *   count empties it by itself.
 * - Reset it (gjkb_pair_cache_reset) for a new scene, after teleporting
 *   bodies (a stale axis only costs iterations, never a wrong answer), or
 *   to reproduce a cold frame; turning it on or off resets it.
 * - Memory: 40 bytes per pair kept and 4 per body, plus 40 bytes per pair
 *   of the frame (its warm axes and last keys), grown like the other
 *   buffers and never shrunk.
 * gjkb_set_pair_cache: GJKB_ERR_NULL for a NULL ctx, GJKB_ERR_MEMORY.
 * gjkb_get_pair_cache: 1 when on, 0 when off (and for NULL). */
GJKB_API gjkb_error gjkb_set_pair_cache(gjkb_context *ctx, int on);
GJKB_API int gjkb_get_pair_cache(const gjkb_context *ctx);
GJKB_API void gjkb_pair_cache_reset(gjkb_context *ctx);

/* Threads the context uses for gjkb_step, gjkb_find_pairs and
 * gjkb_query_batch on the wide backends, contact mode included (OpenMP;
 * the reference backend's loop stays on one thread). 0 or 1: the calling thread only; at most 1024.
 * Results are bit-identical for every thread count. GJKB_ERR_UNSUPPORTED
 * above 1 when built without OpenMP. gjkb_get_threads returns at least 1
 * (0 for NULL). */
GJKB_API gjkb_error gjkb_set_threads(gjkb_context *ctx, int threads);
GJKB_API int gjkb_get_threads(const gjkb_context *ctx);

/* Message for the last failed call on ctx ("" after success). */
GJKB_API const char *gjkb_last_error(const gjkb_context *ctx);
/* Static description of an error code. */
GJKB_API const char *gjkb_error_string(gjkb_error err);
/* "separated", "overlap", "limit", "invalid" (or "?"). */
GJKB_API const char *gjkb_status_name(gjkb_status status);
/* The name of a shape kind: "sphere", "capsule", "box", "cylinder", "cone",
 * "hull" (or "?" for a value >= GJKB_KIND_COUNT). */
GJKB_API const char *gjkb_kind_name(gjkb_kind kind);
/* Parses a kind name (exact, lower case); GJKB_ERR_KIND when unknown and
 * GJKB_ERR_NULL for a NULL argument (*out is then untouched). */
GJKB_API gjkb_error gjkb_kind_parse(const char *name, gjkb_kind *out);

#ifdef __cplusplus
}
#endif
#endif /* GJKBATCH_H */
