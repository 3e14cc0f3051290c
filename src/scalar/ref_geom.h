/* ref_geom.h - what the reference's files share (reference.c: GJK;
 * ref_epa.c: penetration; ref_feature.c and ref_manifold.c: contact
 * manifolds; ref_contact.c: the contact verdict): double-precision vector
 * algebra, the cores and their supports, the pair in A's frame and GJK's
 * final state. Nothing here is shared with the wide kernels. */
#ifndef GJKB_REF_GEOM_H
#define GJKB_REF_GEOM_H

#include "internal.h"

#include <math.h>
#include <stdbool.h>

/* ---- small vector algebra ---------------------------------------------- */

typedef struct ref_vec {
    double x, y, z;
} ref_vec;

static inline ref_vec vec(double x, double y, double z)
{
    ref_vec r = { x, y, z };
    return r;
}
static inline ref_vec add(ref_vec a, ref_vec b) { return vec(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline ref_vec sub(ref_vec a, ref_vec b) { return vec(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline ref_vec scale(ref_vec a, double s) { return vec(a.x * s, a.y * s, a.z * s); }
static inline ref_vec neg(ref_vec a) { return vec(-a.x, -a.y, -a.z); }
static inline double dot(ref_vec a, ref_vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline ref_vec cross(ref_vec a, ref_vec b)
{
    return vec(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline bool same(ref_vec a, ref_vec b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
static inline double length(ref_vec a) { return sqrt(dot(a, a)); }
/* a + s b */
static inline ref_vec madd(ref_vec a, ref_vec b, double s) { return add(a, scale(b, s)); }

typedef struct ref_mat {
    double m[3][3];
} ref_mat;

static inline ref_vec mul(const ref_mat *r, ref_vec v)
{
    return vec(r->m[0][0] * v.x + r->m[0][1] * v.y + r->m[0][2] * v.z,
               r->m[1][0] * v.x + r->m[1][1] * v.y + r->m[1][2] * v.z,
               r->m[2][0] * v.x + r->m[2][1] * v.y + r->m[2][2] * v.z);
}

/* r^T v: for a rotation, the inverse rotation. */
static inline ref_vec mul_t(const ref_mat *r, ref_vec v)
{
    return vec(r->m[0][0] * v.x + r->m[1][0] * v.y + r->m[2][0] * v.z,
               r->m[0][1] * v.x + r->m[1][1] * v.y + r->m[2][1] * v.z,
               r->m[0][2] * v.x + r->m[1][2] * v.y + r->m[2][2] * v.z);
}

/* ---- cores and their support functions --------------------------------- */

/* A core in solver units (see ref_setup.unit). */
typedef struct ref_core {
    gjkb_kind kind;
    double sx, sy, sz;        /* box half extents; radius sx and half height sz */
    const float *hx, *hy, *hz; /* hull points, in the shape's own units */
    uint32_t count;
    double hull_scale;        /* hull point to solver units */
} ref_core;

/* |(x, y)|, the same bits on every architecture (ref_geom.c). */
double gjkb__ref_hypot(double x, double y);

/* Point of the disk of radius r in the xy plane furthest along u. When u has
 * no xy component every point of the disk is furthest: take its centre. */
static inline ref_vec disk_support(double r, ref_vec u)
{
    double len = gjkb__ref_hypot(u.x, u.y);
    if (!(len > 0.0))
        return vec(0.0, 0.0, 0.0);
    return vec(r * (u.x / len), r * (u.y / len), 0.0);
}

/* Hull point i in solver units. */
static inline ref_vec hull_point(const ref_core *c, uint32_t i)
{
    return scale(vec(c->hx[i], c->hy[i], c->hz[i]), c->hull_scale);
}

/* A point of the core that is furthest along u (u non-zero, core frame). */
ref_vec gjkb__ref_core_support(const ref_core *c, ref_vec u);

/* Rotation matrix of a quaternion (w, x, y, z), normalized in double. */
ref_mat gjkb__ref_rotation(const float q[4]);

/* The pair in A's frame, lengths in solver units: a power of two near the
 * pair's scale, so that rescaling is exact and squared lengths can neither
 * underflow nor overflow. */
typedef struct ref_pair {
    ref_core a, b;
    ref_mat rot;   /* B's rotation in A's frame */
    ref_vec off;   /* B's origin in A's frame */
} ref_pair;

/* A vertex of D = coreA - coreB with the core points it came from:
 * y = pa - pb. */
typedef struct ref_vertex {
    ref_vec y, pa, pb;
} ref_vertex;

/* Support of D along u: A's furthest point along u minus B's furthest
 * point along -u. */
static inline ref_vertex pair_support(const ref_pair *pr, ref_vec u)
{
    ref_vertex w;
    w.pa = gjkb__ref_core_support(&pr->a, u);
    w.pb = add(mul(&pr->rot, gjkb__ref_core_support(&pr->b, mul_t(&pr->rot, neg(u)))), pr->off);
    w.y = sub(w.pa, w.pb);
    return w;
}

/* The simplex: up to 4 vertices of D. */
typedef struct ref_simplex {
    int n;
    ref_vertex v[4];
} ref_simplex;

/* ---- one query's setting and GJK's outcome ------------------------------ */

/* Everything about a pair that is fixed before GJK: the pair in solver
 * units, the way back to world coordinates, the margins and limits. */
typedef struct ref_setup {
    ref_pair pr;
    ref_mat rot_a;          /* A's rotation (A's frame to world) */
    ref_vec pos_a;          /* A's world position */
    double unit, inv_unit;  /* solver unit in world lengths, and its inverse */
    double margin_a, margin_b; /* whole margins in solver units (radii included) */
    double tol;             /* touching band in solver units */
    double max_dist;        /* max_distance in solver units (+inf: none) */
    bool speculative;       /* max_distance was given (contact mode) */
} ref_setup;

/* How the GJK loop ended. */
typedef enum ref_stop {
    STOP_LIMIT,      /* iteration bound reached */
    STOP_CONVERGED,  /* v is the closest point within the gap tolerance */
    STOP_ENCLOSED,   /* the origin is in D: the cores touch or overlap */
    STOP_APART,      /* hit mode: a support plane proves a gap above tolerance */
    STOP_TOUCHING,   /* hit mode: |v| proves a gap within tolerance */
    STOP_BEYOND      /* distance mode: proven farther than max_distance */
} ref_stop;

/* GJK's final state: v (closest point of the simplex) with its core points
 * ca, cb when have_v; the simplex (on STOP_ENCLOSED: every vertex, the
 * enclosing one included); the last support point and lower bound. */
typedef struct ref_gjk {
    ref_stop stop;
    bool have_v;
    ref_vec v, ca, cb;
    ref_simplex simplex;
    ref_vertex w;
    double lower;
    uint32_t iterations;
} ref_gjk;

/* ---- contact mode (ref_contact.c, ref_epa.c, ref_manifold.c) ----------- */

/* Penetration of the cores by EPA from GJK's final simplex (origin in or
 * within rounding of D). depth may be slightly negative when the cores are
 * apart by a rounding-level gap. n: unit, from A to B (B's way out). pa, pb:
 * core points with pa - pb = depth * n within the tolerance. */
typedef struct ref_depth {
    double gap;      /* EPA's upper minus lower bound of the depth at the end */
    bool settled;    /* the bounds met, or the local search converged */
    bool searched;   /* from the local search: pa, pb are mere supports */
    bool flat;       /* D has no extent along n: -n is as deep */
    double depth;
    ref_vec n, pa, pb;
    uint32_t iterations;
} ref_depth;

/* EPA out of its budget with the bounds still this far apart (solver
 * units, relative to the pair's scale) is a limit; closer, its answer
 * stands (the documented accuracy is 1e-4 of the scale). */
#define REF_EPA_ACCEPT 1e-7

ref_depth gjkb__ref_epa(const ref_pair *pr, const ref_simplex *s, uint32_t budget);

/* The depth of a sphere's point core inside a cylinder's or a cone's core,
 * exact (ref_point.c): taken wherever EPA's bounds do not meet (a ring of
 * nearly equally near directions), before the local search's answer,
 * which may stop a little off the ring's valley. False for other kind
 * pairs. */
bool gjkb__ref_point_depth(const ref_pair *pr, ref_depth *d);

/* The manifold of a pair whose normal n (A's frame, unit, A to B),
 * signed distance dist (margins included) and witnesses a, b (margin
 * surfaces, b - a = dist n) are known, in A's frame and solver units. keep:
 * points with separation up to it stay. Returns the count (0..4) and fills
 * pts (point on A, point on B, separation, feature key). */
typedef struct ref_contact_point {
    ref_vec a, b;
    double sep;
    uint32_t feature;
} ref_contact_point;

int gjkb__ref_manifold(const ref_setup *su, ref_vec n, double dist, ref_vec a, ref_vec b, double keep,
                       ref_contact_point pts[GJKB_MAX_CONTACTS]);

/* ---- supporting features (ref_feature.c) -------------------------------
 * The part of a core farthest along a direction, within an angular
 * tolerance: a point, a segment or a convex polygon, each point with a
 * vertex id of the shape; key is the feature's packed 16-bit id (type << 14
 * | index, type 0 vertex, 1 edge, 2 face: see gjkb_manifolds). */
#define REF_FEATURE_MAX 32
/* Vertices of the polygon inscribed in a cylinder's cap or a cone's base. */
#define REF_RIM_POINTS GJKB_CONTACT_RIM
/* Sine of the angle within which a face (or segment) still counts as
 * perpendicular to the normal: a face tilted by up to 1.5e-3 rad is still
 * the face. Not more: a rounded feature's points, moved by the margin
 * along n, leave the rounded surface by up to margin * angle^2 / 2. */
#define REF_FACE_SIN 1.5e-3
/* Cosine of the largest tilt between u and the normal of the face most
 * aligned with it that the manifold still takes (60 degrees): a box's best
 * face is always within it (cosine at least 1/sqrt 3), a flat hull seen
 * edge-on or a cone's base seen from the side is not. */
#define REF_ALIGN_COS 0.5
/* A rounded core's face or segment, its points moved by the margin along
 * a tilted n, leaves the rounded surface by margin (1 - cos tilt): allowed
 * up to this share of the touching band. */
#define REF_MARGIN_SHARE 0.1

enum { REF_VERTEX = 0, REF_EDGE = 1, REF_FACE = 2 };

static inline uint16_t ref_key(int type, unsigned index)
{
    return (uint16_t)((unsigned)type << 14 | (index & 0x3FFFu));
}

typedef struct ref_feature {
    int n;                          /* points: 1, 2 (segment), or more (polygon) */
    ref_vec p[REF_FEATURE_MAX];     /* core frame, solver units */
    uint16_t id[REF_FEATURE_MAX];   /* vertex ids */
    uint16_t key;                   /* the whole feature */
    bool aligned;                   /* chosen as the most aligned: any tilt up to the rule's */
} ref_feature;

/* Which features may be chosen. Strict (aligned false): only those within
 * REF_FACE_SIN of perpendicular to u, so every point is nearly as deep as
 * the support (witnesses). Aligned (the manifold): also the face or
 * segment most aligned with u when the cosine of its tilt is at least
 * min_cos (the separation filter then decides which points touch). */
typedef struct ref_feature_rule {
    bool aligned;
    double min_cos;
} ref_feature_rule;

/* The aligned rule for a core with this margin and touching band (solver
 * units): REF_ALIGN_COS, raised for a rounded core so that margin (1 -
 * cos) stays within REF_MARGIN_SHARE of the band. */
ref_feature_rule gjkb__ref_aligned_rule(double margin, double band);

ref_feature gjkb__ref_feature(const ref_core *c, ref_vec u, ref_feature_rule rule);
/* Key of the edge between vertices i and j of a core of this kind. */
uint16_t gjkb__ref_edge_key(gjkb_kind kind, uint16_t i, uint16_t j);
/* Key of a hull face from the ids of its points (order free). */
uint16_t gjkb__ref_hull_face_key(const uint16_t *id, int n);

/* Witnesses along n from the supporting features: core points pa of A and
 * pb of B over one point of the plane perpendicular to n (where the
 * features' projections meet), so pa - pb is along n. False when they do
 * not meet (the caller keeps what it has). */
bool gjkb__ref_witness(const ref_pair *pr, ref_vec n, ref_vec *pa, ref_vec *pb);

/* The contact-mode answer from GJK's outcome (ref_contact.c). */
gjkb_result gjkb__ref_contact(const ref_setup *su, const gjkb__params *p, const ref_gjk *g);

/* Back to world coordinates: a point of A's frame in solver units, and a
 * direction. */
static inline ref_vec ref_world_point(const ref_setup *su, ref_vec p)
{
    return add(su->pos_a, mul(&su->rot_a, scale(p, su->unit)));
}

/* The answer of a pair whose cores are apart (distance mode): the margin
 * surface points along GJK's axis from the core points ca, cb
 * (ref_result.c, as the next one). */
gjkb_result gjkb__ref_separated(const ref_setup *su, const ref_gjk *g, gjkb_status status, double dist,
                                ref_vec ca, ref_vec cb);

/* A result with every point and the manifold NaN. */
gjkb_result gjkb__ref_nan_result(gjkb_status status, uint32_t iterations, double distance);

#endif
