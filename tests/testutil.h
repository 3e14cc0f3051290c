/* testutil.h - helpers shared by the test programs: a deterministic RNG,
 * random rotations and shapes, closed-form geometry oracles written in
 * double independently of the library, and a small SoA batch builder that
 * runs pairs through gjkb_query_batch on any backend.
 *
 * Header-only (static inline) so each test program takes what it needs
 * without unused-function warnings. Nothing here depends on cmocka.
 *
 * Oracle conventions: a shape is described by a tu_geom built from a
 * gjkb_shape (float sizes and rotation widened to double, the quaternion
 * normalized in double as the library does). Signed distances are negative
 * inside. Sphere and capsule radii are part of the shape; the margin is added
 * on top of every kind.
 *
 * Typical use, e.g. a backend against the reference:
 *   tu_rng r = tu_rng_make(1);
 *   gjkb_shape a = tu_random_shape(&r, GJKB_BOX, 0.3, 0), b = ...;
 *   tu_geom ga = tu_geom_of(&a, NULL), gb = tu_geom_of(&b, NULL);
 *   tu_place_near(&r, &a, &b, tu_pair_scale(&ga, &gb), 1.2);
 *   tu_batch t = {0}; tu_batch_add(&t, &a, &b); ...
 *   tu_batch_run(ctx, &t, &query); gjkb_result x = tu_batch_get(&t, 0);
 *   tu_pair_sdist(&ga, &gb, &gap) gives the exact signed gap where a closed
 *   form exists (sphere-anything, capsule-capsule, box-box). */
#ifndef GJKB_TESTUTIL_H
#define GJKB_TESTUTIL_H

#include "gjkbatch.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TU_PI 3.14159265358979323846

/* ---- RNG: splitmix64, fixed seeds keep every run identical -------------- */
typedef struct tu_rng {
    uint64_t s;
} tu_rng;

static inline tu_rng tu_rng_make(uint64_t seed)
{
    tu_rng r = {seed};
    return r;
}

static inline uint64_t tu_next(tu_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double tu_unit(tu_rng *r) { return (double)(tu_next(r) >> 11) * 0x1.0p-53; }

static inline double tu_range(tu_rng *r, double lo, double hi) { return lo + (hi - lo) * tu_unit(r); }

/* Uniform integer in [0, n). */
static inline uint32_t tu_below(tu_rng *r, uint32_t n)
{
    return (uint32_t)(((tu_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Rounds a double to float through a volatile. GCC 12.2 at -O3 was seen to
 * fold a float store and its later widening load back into the unrounded
 * double after inlining and SLP vectorization (a random quaternion in
 * test_sweeps): the oracle then saw values the library never got. Every
 * double-to-float conversion in the tests goes through here. */
static inline float tu_f32(double v)
{
    volatile float f = (float)v;
    return f;
}

/* realloc or abort: a test cannot go on without its arrays. */
static inline void *tu_realloc(void *p, size_t bytes)
{
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q) {
        fprintf(stderr, "testutil: out of memory\n");
        abort();
    }
    return q;
}

/* ---- small vector algebra ------------------------------------------------ */
typedef struct tu_v3 {
    double x, y, z;
} tu_v3;

static inline tu_v3 tu_v(double x, double y, double z)
{
    tu_v3 r = {x, y, z};
    return r;
}
static inline tu_v3 tu_add(tu_v3 a, tu_v3 b) { return tu_v(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline tu_v3 tu_sub(tu_v3 a, tu_v3 b) { return tu_v(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline tu_v3 tu_scale(tu_v3 a, double s) { return tu_v(a.x * s, a.y * s, a.z * s); }
static inline double tu_dot(tu_v3 a, tu_v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline double tu_len(tu_v3 a) { return sqrt(tu_dot(a, a)); }
static inline tu_v3 tu_cross(tu_v3 a, tu_v3 b)
{
    return tu_v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double tu_dist(tu_v3 a, tu_v3 b) { return tu_len(tu_sub(a, b)); }
static inline double tu_clamp(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* ---- rotations ------------------------------------------------------------ */
/* Uniformly random rotation (Shoemake's subgroup algorithm), as floats. */
static inline void tu_random_quat(tu_rng *r, float q[4])
{
    double u1 = tu_unit(r), u2 = tu_unit(r), u3 = tu_unit(r);
    double s1 = sqrt(1.0 - u1), s2 = sqrt(u1);
    q[0] = tu_f32(s1 * sin(2.0 * TU_PI * u2));
    q[1] = tu_f32(s1 * cos(2.0 * TU_PI * u2));
    q[2] = tu_f32(s2 * sin(2.0 * TU_PI * u3));
    q[3] = tu_f32(s2 * cos(2.0 * TU_PI * u3));
}

/* Rotation by angle (radians) about the unit axis (x, y, z). */
static inline void tu_quat_axis_angle(float q[4], double x, double y, double z, double angle)
{
    double s = sin(0.5 * angle);
    q[0] = tu_f32(cos(0.5 * angle));
    q[1] = tu_f32(x * s);
    q[2] = tu_f32(y * s);
    q[3] = tu_f32(z * s);
}

/* Rotation matrix of a float quaternion normalized in double; column j is
 * the shape's local axis j in world coordinates. */
static inline void tu_quat_matrix(const float qf[4], double R[3][3])
{
    double w = qf[0], x = qf[1], y = qf[2], z = qf[3];
    double len = sqrt(w * w + x * x + y * y + z * z);
    w /= len, x /= len, y /= len, z /= len;
    R[0][0] = 1 - 2 * (y * y + z * z), R[0][1] = 2 * (x * y - w * z), R[0][2] = 2 * (x * z + w * y);
    R[1][0] = 2 * (x * y + w * z), R[1][1] = 1 - 2 * (x * x + z * z), R[1][2] = 2 * (y * z - w * x);
    R[2][0] = 2 * (x * z - w * y), R[2][1] = 2 * (y * z + w * x), R[2][2] = 1 - 2 * (x * x + y * y);
}

/* ---- shape builders (gjkb_shape at the origin, identity rotation) -------- */
static inline gjkb_shape tu_shape(gjkb_kind kind, double s0, double s1, double s2)
{
    gjkb_shape s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.size[0] = tu_f32(s0), s.size[1] = tu_f32(s1), s.size[2] = tu_f32(s2);
    s.rot[0] = 1.0f;
    return s;
}
static inline gjkb_shape tu_sphere(double r) { return tu_shape(GJKB_SPHERE, r, 0, 0); }
static inline gjkb_shape tu_capsule(double r, double half_len) { return tu_shape(GJKB_CAPSULE, r, 0, half_len); }
static inline gjkb_shape tu_box(double hx, double hy, double hz) { return tu_shape(GJKB_BOX, hx, hy, hz); }
static inline gjkb_shape tu_cylinder(double r, double half_h) { return tu_shape(GJKB_CYLINDER, r, 0, half_h); }
static inline gjkb_shape tu_cone(double r, double half_h) { return tu_shape(GJKB_CONE, r, 0, half_h); }
static inline gjkb_shape tu_hull_shape(uint32_t id)
{
    gjkb_shape s = tu_shape(GJKB_HULL, 0, 0, 0);
    s.hull = id;
    return s;
}

/* Moves / rotates a shape; return the modified copy for chaining. */
static inline gjkb_shape tu_at(gjkb_shape s, double x, double y, double z)
{
    s.pos[0] = x, s.pos[1] = y, s.pos[2] = z;
    return s;
}
static inline gjkb_shape tu_rot(gjkb_shape s, const float q[4])
{
    memcpy(s.rot, q, sizeof s.rot);
    return s;
}
static inline gjkb_shape tu_rounded(gjkb_shape s, double margin)
{
    s.margin = tu_f32(margin);
    return s;
}

/* ---- hull oracle data ----------------------------------------------------- */
/* The hull's points in double and, when the points span a solid, its
 * surface triangles and face planes found by brute force over point triples
 * (O(n^4): meant for n <= ~32). */
typedef struct tu_hull {
    uint32_t n;
    tu_v3 *p;
    double radius;        /* max |p| */
    uint32_t nf;          /* triangles; 0 if the points do not span a solid */
    uint32_t (*tri)[3];
    tu_v3 *fn;            /* outward unit normal of triangle f */
    double *fd;           /* plane offset: fn . x <= fd inside */
} tu_hull;

static inline void tu_hull_free(tu_hull *h)
{
    free(h->p);
    free(h->tri);
    free(h->fn);
    free(h->fd);
    memset(h, 0, sizeof *h);
}

/* Builds the oracle data for n points (xyz interleaved floats). Returns
 * whether the hull is solid (has faces usable for point queries). */
static inline bool tu_hull_build(tu_hull *h, const float *xyz, uint32_t n)
{
    memset(h, 0, sizeof *h);
    h->n = n;
    h->p = (tu_v3 *)tu_realloc(NULL, n * sizeof *h->p);
    for (uint32_t i = 0; i < n; i++) {
        h->p[i] = tu_v(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
        double l = tu_len(h->p[i]);
        if (l > h->radius) h->radius = l;
    }
    size_t cap = 16;
    h->tri = tu_realloc(NULL, cap * sizeof *h->tri);
    h->fn = tu_realloc(NULL, cap * sizeof *h->fn);
    h->fd = tu_realloc(NULL, cap * sizeof *h->fd);
    double ext = h->radius > 0 ? h->radius : 1.0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            for (uint32_t k = j + 1; k < n; k++) {
                tu_v3 nrm = tu_cross(tu_sub(h->p[j], h->p[i]), tu_sub(h->p[k], h->p[i]));
                double nl = tu_len(nrm);
                if (!(nl > 1e-12 * ext * ext)) continue; /* degenerate triple */
                nrm = tu_scale(nrm, 1.0 / nl);
                double d = tu_dot(nrm, h->p[i]);
                bool below = true, above = true;
                for (uint32_t m = 0; m < n; m++) {
                    double side = tu_dot(nrm, h->p[m]) - d;
                    if (side > 1e-12 * ext) below = false;
                    if (side < -1e-12 * ext) above = false;
                }
                if (below == above) continue; /* interior plane, or all coplanar */
                if (h->nf == cap) {
                    cap *= 2;
                    h->tri = tu_realloc(h->tri, cap * sizeof *h->tri);
                    h->fn = tu_realloc(h->fn, cap * sizeof *h->fn);
                    h->fd = tu_realloc(h->fd, cap * sizeof *h->fd);
                }
                if (above) nrm = tu_scale(nrm, -1.0), d = -d;
                h->tri[h->nf][0] = i, h->tri[h->nf][1] = j, h->tri[h->nf][2] = k;
                h->fn[h->nf] = nrm;
                h->fd[h->nf] = d;
                h->nf++;
            }
    if (h->nf < 4) h->nf = 0;
    return h->nf > 0;
}

/* Random hull: n points uniform in an axis-aligned box of half extents
 * U[0.3, 1] (so hulls vary in aspect), as interleaved floats. */
static inline void tu_random_hull_points(tu_rng *r, float *xyz, uint32_t n)
{
    double e[3] = {tu_range(r, 0.3, 1.0), tu_range(r, 0.3, 1.0), tu_range(r, 0.3, 1.0)};
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) xyz[3 * i + k] = tu_f32(tu_range(r, -e[k], e[k]));
}

/* ---- closed-form primitives ------------------------------------------------ */
static inline double tu_point_segment(tu_v3 p, tu_v3 a, tu_v3 b)
{
    tu_v3 d = tu_sub(b, a);
    double dd = tu_dot(d, d);
    double t = dd > 0 ? tu_clamp(tu_dot(tu_sub(p, a), d) / dd, 0.0, 1.0) : 0.0;
    return tu_dist(p, tu_add(a, tu_scale(d, t)));
}

/* Segment-segment distance. The distance is a convex function on the unit
 * square of parameters, so its minimum is either the interior stationary
 * point or on an edge of the square, and each edge is an endpoint against
 * the other segment. Parallel segments have no isolated stationary point but
 * always reach their minimum on an edge, so skipping the interior is exact. */
static inline double tu_segment_segment(tu_v3 p0, tu_v3 p1, tu_v3 q0, tu_v3 q1)
{
    double best = tu_point_segment(p0, q0, q1);
    double v = tu_point_segment(p1, q0, q1);
    if (v < best) best = v;
    v = tu_point_segment(q0, p0, p1);
    if (v < best) best = v;
    v = tu_point_segment(q1, p0, p1);
    if (v < best) best = v;
    tu_v3 d1 = tu_sub(p1, p0), d2 = tu_sub(q1, q0), r = tu_sub(p0, q0);
    double a = tu_dot(d1, d1), e = tu_dot(d2, d2), b = tu_dot(d1, d2);
    double c = tu_dot(d1, r), f = tu_dot(d2, r);
    double den = a * e - b * b;
    if (den > 1e-14 * a * e) {
        double s = (b * f - c * e) / den, t = (a * f - b * c) / den;
        if (s > 0 && s < 1 && t > 0 && t < 1) {
            /* Polish once by alternating exact projections, then measure a
             * real pair of points (never an underestimate). */
            t = tu_clamp(tu_dot(tu_sub(tu_add(p0, tu_scale(d1, s)), q0), d2) / e, 0.0, 1.0);
            s = tu_clamp(tu_dot(tu_sub(tu_add(q0, tu_scale(d2, t)), p0), d1) / a, 0.0, 1.0);
            v = tu_dist(tu_add(p0, tu_scale(d1, s)), tu_add(q0, tu_scale(d2, t)));
            if (v < best) best = v;
        }
    }
    return best;
}

/* Point-triangle distance: the projection if it falls inside, else the
 * nearest edge. Degenerate triangles reduce to their edges. */
static inline double tu_point_triangle(tu_v3 p, tu_v3 a, tu_v3 b, tu_v3 c)
{
    tu_v3 n = tu_cross(tu_sub(b, a), tu_sub(c, a));
    double nn = tu_dot(n, n);
    if (nn > 0) {
        double h = tu_dot(tu_sub(p, a), n) / nn;
        tu_v3 q = tu_sub(p, tu_scale(n, h));
        if (tu_dot(tu_cross(tu_sub(b, a), tu_sub(q, a)), n) >= 0 &&
            tu_dot(tu_cross(tu_sub(c, b), tu_sub(q, b)), n) >= 0 &&
            tu_dot(tu_cross(tu_sub(a, c), tu_sub(q, c)), n) >= 0)
            return fabs(h) * sqrt(nn);
    }
    double best = tu_point_segment(p, a, b), v = tu_point_segment(p, b, c);
    if (v < best) best = v;
    v = tu_point_segment(p, c, a);
    return v < best ? v : best;
}

/* 2D helpers for solids of revolution, in (radial, axial) coordinates. */
static inline double tu_point_segment_2d(double px, double py, double ax, double ay, double bx, double by)
{
    return tu_point_segment(tu_v(px, py, 0), tu_v(ax, ay, 0), tu_v(bx, by, 0));
}

/* Signed distance to an axis-aligned box of half extents h, centred at 0. */
static inline double tu_box_sdist_local(tu_v3 p, const double h[3])
{
    double qx = fabs(p.x) - h[0], qy = fabs(p.y) - h[1], qz = fabs(p.z) - h[2];
    double out = tu_len(tu_v(fmax(qx, 0), fmax(qy, 0), fmax(qz, 0)));
    double in = fmin(fmax(qx, fmax(qy, qz)), 0.0);
    return out + in;
}

/* ---- oracle shapes ---------------------------------------------------------- */
typedef struct tu_geom {
    gjkb_kind kind;
    tu_v3 c;          /* world position */
    double R[3][3];   /* local to world */
    double s[3];      /* sizes as double */
    double margin;
    const tu_hull *hull;
} tu_geom;

/* hulls: oracle data indexed by hull id (may be NULL without hull shapes). */
static inline tu_geom tu_geom_of(const gjkb_shape *s, const tu_hull *hulls)
{
    tu_geom g;
    memset(&g, 0, sizeof g);
    g.kind = s->kind;
    g.c = tu_v(s->pos[0], s->pos[1], s->pos[2]);
    tu_quat_matrix(s->rot, g.R);
    for (int k = 0; k < 3; k++) g.s[k] = s->size[k];
    g.margin = s->margin;
    g.hull = (s->kind == GJKB_HULL && hulls) ? &hulls[s->hull] : NULL;
    return g;
}

static inline tu_v3 tu_to_local(const tu_geom *g, tu_v3 p)
{
    tu_v3 d = tu_sub(p, g->c);
    return tu_v(g->R[0][0] * d.x + g->R[1][0] * d.y + g->R[2][0] * d.z,
                g->R[0][1] * d.x + g->R[1][1] * d.y + g->R[2][1] * d.z,
                g->R[0][2] * d.x + g->R[1][2] * d.y + g->R[2][2] * d.z);
}
static inline tu_v3 tu_dir_to_local(const tu_geom *g, tu_v3 d)
{
    return tu_v(g->R[0][0] * d.x + g->R[1][0] * d.y + g->R[2][0] * d.z,
                g->R[0][1] * d.x + g->R[1][1] * d.y + g->R[2][1] * d.z,
                g->R[0][2] * d.x + g->R[1][2] * d.y + g->R[2][2] * d.z);
}
static inline tu_v3 tu_to_world(const tu_geom *g, tu_v3 p)
{
    return tu_add(g->c, tu_v(g->R[0][0] * p.x + g->R[0][1] * p.y + g->R[0][2] * p.z,
                             g->R[1][0] * p.x + g->R[1][1] * p.y + g->R[1][2] * p.z,
                             g->R[2][0] * p.x + g->R[2][1] * p.y + g->R[2][2] * p.z));
}
static inline tu_v3 tu_axis(const tu_geom *g, int j) { return tu_v(g->R[0][j], g->R[1][j], g->R[2][j]); }

/* Bounding radius about the local origin, margin included: the library's
 * pair scale is the sum of the two shapes' values. */
static inline double tu_bound_radius(const tu_geom *g)
{
    double r = 0;
    switch (g->kind) {
    case GJKB_SPHERE: r = g->s[0]; break;
    case GJKB_CAPSULE: r = g->s[0] + g->s[2]; break;
    case GJKB_BOX: r = sqrt(g->s[0] * g->s[0] + g->s[1] * g->s[1] + g->s[2] * g->s[2]); break;
    case GJKB_CYLINDER:
    case GJKB_CONE: r = sqrt(g->s[0] * g->s[0] + g->s[2] * g->s[2]); break;
    case GJKB_HULL: r = g->hull ? g->hull->radius : NAN; break;
    default: r = NAN; break;
    }
    return r + g->margin;
}

static inline double tu_pair_scale(const tu_geom *a, const tu_geom *b)
{
    return tu_bound_radius(a) + tu_bound_radius(b);
}

/* Signed distance from a local point to the hull's surface, NAN when the
 * hull is not solid. */
static inline double tu_hull_sdist_local(const tu_hull *h, tu_v3 p)
{
    if (!h || h->nf == 0) return NAN;
    double worst = -INFINITY;
    for (uint32_t f = 0; f < h->nf; f++) {
        double side = tu_dot(h->fn[f], p) - h->fd[f];
        if (side > worst) worst = side;
    }
    if (worst <= 0) return worst;
    double best = INFINITY;
    for (uint32_t f = 0; f < h->nf; f++) {
        double v = tu_point_triangle(p, h->p[h->tri[f][0]], h->p[h->tri[f][1]], h->p[h->tri[f][2]]);
        if (v < best) best = v;
    }
    return best;
}

/* Signed distance from a world point to the shape's surface (margin
 * included), exact for every kind; NAN for a hull that is not solid. */
static inline double tu_point_sdist(const tu_geom *g, tu_v3 pw)
{
    tu_v3 p = tu_to_local(g, pw);
    double d = NAN;
    switch (g->kind) {
    case GJKB_SPHERE: d = tu_len(p) - g->s[0]; break;
    case GJKB_CAPSULE:
        d = tu_point_segment(p, tu_v(0, 0, -g->s[2]), tu_v(0, 0, g->s[2])) - g->s[0];
        break;
    case GJKB_BOX: d = tu_box_sdist_local(p, g->s); break;
    case GJKB_CYLINDER: {
        /* the meridian section is a rectangle; the third axis is unbounded */
        double h2[3] = {g->s[0], g->s[2], INFINITY};
        d = tu_box_sdist_local(tu_v(hypot(p.x, p.y), p.z, 0), h2);
        break;
    }
    case GJKB_CONE: {
        /* The meridian section: triangle (-r,-h), (r,-h), (0,h). */
        double r = g->s[0], h = g->s[2], u = hypot(p.x, p.y), z = p.z;
        double e1 = tu_point_segment_2d(u, z, -r, -h, r, -h);
        double e2 = tu_point_segment_2d(u, z, r, -h, 0, h);
        double e3 = tu_point_segment_2d(u, z, 0, h, -r, -h);
        double m = fmin(e1, fmin(e2, e3));
        /* inside: above the base and below the slanted side (area > 0) */
        bool inside = r > 0 && h > 0 && z > -h && (u * 2 * h + (z - h) * r) < 0;
        d = inside ? -m : m;
        break;
    }
    case GJKB_HULL: d = tu_hull_sdist_local(g->hull, p); break;
    default: break;
    }
    return d - g->margin;
}

/* Support point (farthest point of the shape, margin included) along the
 * world direction dir (need not be unit). */
static inline tu_v3 tu_support(const tu_geom *g, tu_v3 dir)
{
    tu_v3 d = tu_dir_to_local(g, dir);
    double dl = tu_len(d);
    tu_v3 u = dl > 0 ? tu_scale(d, 1.0 / dl) : tu_v(0, 0, 0);
    tu_v3 p = tu_v(0, 0, 0);
    double round = g->margin;
    double rxy = hypot(d.x, d.y);
    switch (g->kind) {
    case GJKB_SPHERE: round += g->s[0]; break;
    case GJKB_CAPSULE:
        p.z = d.z >= 0 ? g->s[2] : -g->s[2];
        round += g->s[0];
        break;
    case GJKB_BOX:
        p = tu_v(d.x >= 0 ? g->s[0] : -g->s[0], d.y >= 0 ? g->s[1] : -g->s[1], d.z >= 0 ? g->s[2] : -g->s[2]);
        break;
    case GJKB_CYLINDER:
        if (rxy > 0) p.x = g->s[0] * d.x / rxy, p.y = g->s[0] * d.y / rxy;
        p.z = d.z >= 0 ? g->s[2] : -g->s[2];
        break;
    case GJKB_CONE: {
        tu_v3 rim = tu_v(rxy > 0 ? g->s[0] * d.x / rxy : 0, rxy > 0 ? g->s[0] * d.y / rxy : 0, -g->s[2]);
        tu_v3 apex = tu_v(0, 0, g->s[2]);
        p = tu_dot(apex, d) >= tu_dot(rim, d) ? apex : rim;
        break;
    }
    case GJKB_HULL: {
        double best = -INFINITY;
        for (uint32_t i = 0; g->hull && i < g->hull->n; i++) {
            double v = tu_dot(g->hull->p[i], d);
            if (v > best) best = v, p = g->hull->p[i];
        }
        break;
    }
    default: break;
    }
    return tu_to_world(g, tu_add(p, tu_scale(u, round)));
}

/* Separation of the two shapes along a world axis n (unit): how far B's
 * nearest extent lies beyond A's farthest. Never exceeds the distance. */
static inline double tu_axis_gap(const tu_geom *a, const tu_geom *b, tu_v3 n)
{
    return tu_dot(tu_support(b, tu_scale(n, -1.0)), n) - tu_dot(tu_support(a, n), n);
}

/* Box-box signed distance of the cores (margins excluded). Overlap: minus
 * the penetration depth, the smallest overlap over the 15 separating-axis
 * candidates (exact for boxes). Separation: the minimum over vertex-box and
 * edge-edge feature pairs, which always contains a closest pair. */
static inline double tu_box_box_core(const tu_geom *a, const tu_geom *b)
{
    tu_v3 ax[15];
    int na = 0;
    for (int i = 0; i < 3; i++) ax[na++] = tu_axis(a, i);
    for (int i = 0; i < 3; i++) ax[na++] = tu_axis(b, i);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            tu_v3 c = tu_cross(tu_axis(a, i), tu_axis(b, j));
            double l = tu_len(c);
            if (l > 1e-9) ax[na++] = tu_scale(c, 1.0 / l); /* parallel edges: face axes cover them */
        }
    tu_v3 d = tu_sub(b->c, a->c);
    double sat = -INFINITY;
    for (int k = 0; k < na; k++) {
        double ra = 0, rb = 0;
        for (int i = 0; i < 3; i++) {
            ra += a->s[i] * fabs(tu_dot(ax[k], tu_axis(a, i)));
            rb += b->s[i] * fabs(tu_dot(ax[k], tu_axis(b, i)));
        }
        double sep = fabs(tu_dot(ax[k], d)) - ra - rb;
        if (sep > sat) sat = sep;
    }
    if (sat <= 0) return sat;
    double best = INFINITY;
    const tu_geom *g[2] = {a, b};
    tu_v3 vert[2][8];
    for (int s = 0; s < 2; s++)
        for (int v = 0; v < 8; v++)
            vert[s][v] = tu_to_world(g[s], tu_v((v & 1) ? g[s]->s[0] : -g[s]->s[0],
                                                 (v & 2) ? g[s]->s[1] : -g[s]->s[1],
                                                 (v & 4) ? g[s]->s[2] : -g[s]->s[2]));
    for (int s = 0; s < 2; s++)
        for (int v = 0; v < 8; v++) {
            double dv = tu_box_sdist_local(tu_to_local(g[1 - s], vert[s][v]), g[1 - s]->s);
            if (dv < best) best = dv;
        }
    /* Edges: vertex pairs differing in one bit. */
    for (int va = 0; va < 8; va++)
        for (int ba = 1; ba < 8; ba <<= 1) {
            if (va & ba) continue;
            for (int vb = 0; vb < 8; vb++)
                for (int bb = 1; bb < 8; bb <<= 1) {
                    if (vb & bb) continue;
                    double de = tu_segment_segment(vert[0][va], vert[0][va | ba], vert[1][vb], vert[1][vb | bb]);
                    if (de < best) best = de;
                }
        }
    return best;
}

/* Signed distance between two shapes where a closed form exists: a sphere
 * against anything (its centre against the other shape), capsule-capsule,
 * box-box. Returns false for other kind pairs or non-solid hulls. */
static inline bool tu_pair_sdist(const tu_geom *a, const tu_geom *b, double *out)
{
    double d = NAN;
    if (a->kind == GJKB_SPHERE) {
        d = tu_point_sdist(b, a->c) - a->s[0] - a->margin;
    } else if (b->kind == GJKB_SPHERE) {
        d = tu_point_sdist(a, b->c) - b->s[0] - b->margin;
    } else if (a->kind == GJKB_CAPSULE && b->kind == GJKB_CAPSULE) {
        tu_v3 a0 = tu_to_world(a, tu_v(0, 0, -a->s[2])), a1 = tu_to_world(a, tu_v(0, 0, a->s[2]));
        tu_v3 b0 = tu_to_world(b, tu_v(0, 0, -b->s[2])), b1 = tu_to_world(b, tu_v(0, 0, b->s[2]));
        d = tu_segment_segment(a0, a1, b0, b1) - a->s[0] - b->s[0] - a->margin - b->margin;
    } else if (a->kind == GJKB_BOX && b->kind == GJKB_BOX) {
        d = tu_box_box_core(a, b) - a->margin - b->margin;
    }
    *out = d;
    return !isnan(d);
}

/* ---- random shapes ------------------------------------------------------------ */
/* Sizes U[0.25, 1] as in the shared workloads; with probability
 * margin_prob a margin U[0, 0.25]; random orientation and a position in
 * [-10, 10]^3. Hull shapes pick an id below hull_count. */
static inline gjkb_shape tu_random_shape(tu_rng *r, gjkb_kind kind, double margin_prob, uint32_t hull_count)
{
    gjkb_shape s = tu_shape(kind, tu_range(r, 0.25, 1), tu_range(r, 0.25, 1), tu_range(r, 0.25, 1));
    if (kind == GJKB_HULL) s.hull = tu_below(r, hull_count);
    if (tu_unit(r) < margin_prob) s.margin = tu_f32(tu_range(r, 0, 0.25));
    for (int k = 0; k < 3; k++) s.pos[k] = tu_range(r, -10, 10);
    tu_random_quat(r, s.rot);
    return s;
}

/* Puts b at a's position plus a random direction times t * scale,
 * t ~ U[0, tmax]: tmax sets the overlap rate. */
static inline void tu_place_near(tu_rng *r, const gjkb_shape *a, gjkb_shape *b, double scale, double tmax)
{
    double z = tu_range(r, -1, 1), phi = tu_range(r, 0, 2 * TU_PI), t = tu_range(r, 0, tmax);
    double rho = sqrt(1 - z * z);
    b->pos[0] = a->pos[0] + t * scale * rho * cos(phi);
    b->pos[1] = a->pos[1] + t * scale * rho * sin(phi);
    b->pos[2] = a->pos[2] + t * scale * z;
}

/* ---- results --------------------------------------------------------------------- */
static inline bool tu_same_double(double x, double y) { return memcmp(&x, &y, sizeof x) == 0; }

/* Bit-identical results (NaN payloads included). */
static inline bool tu_result_same(const gjkb_result *x, const gjkb_result *y)
{
    if (x->status != y->status || x->iterations != y->iterations) return false;
    if (!tu_same_double(x->distance, y->distance)) return false;
    for (int k = 0; k < 3; k++)
        if (!tu_same_double(x->a[k], y->a[k]) || !tu_same_double(x->b[k], y->b[k]) ||
            !tu_same_double(x->n[k], y->n[k]))
            return false;
    return true;
}

static inline void tu_result_print(FILE *f, const char *label, const gjkb_result *r)
{
    fprintf(f, "%s: status %d iter %u dist %.17g a (%.17g %.17g %.17g) b (%.17g %.17g %.17g) n (%.17g %.17g %.17g)\n",
            label, (int)r->status, r->iterations, r->distance, r->a[0], r->a[1], r->a[2], r->b[0], r->b[1],
            r->b[2], r->n[0], r->n[1], r->n[2]);
}

static inline void tu_shape_print(FILE *f, const char *label, const gjkb_shape *s)
{
    fprintf(f, "%s: %s size (%.9g %.9g %.9g) margin %.9g hull %u pos (%.17g %.17g %.17g) rot (%.9g %.9g %.9g %.9g)\n",
            label, gjkb_kind_name(s->kind), s->size[0], s->size[1], s->size[2], s->margin, s->hull, s->pos[0], s->pos[1],
            s->pos[2], s->rot[0], s->rot[1], s->rot[2], s->rot[3]);
}

/* ---- batches: pairs of gjkb_shape as caller-owned SoA ------------------------------ */
/* Every pair gets its own two bodies (a at 2i, b at 2i + 1), which is what
 * a caller with arbitrary pairs does; tu_batch_share lets tests reuse
 * bodies across pairs. Results are filled with a sentinel before each run so
 * that unwritten entries show. */
#define TU_SENTINEL_STATUS 0xEEu
#define TU_SENTINEL_ITER 0xDEADBEEFu
#define TU_SENTINEL (-12345.678)

typedef struct tu_batch {
    uint32_t nb, np, cap_b, cap_p;
    uint8_t *kind;
    double *px, *py, *pz;
    float *qw, *qx, *qy, *qz, *sx, *sy, *sz, *margin;
    uint32_t *hull;
    uint32_t *ia, *ib;
    uint8_t *status;
    double *distance, *ax, *ay, *az, *bx, *by, *bz, *nx, *ny, *nz;
    uint32_t *iterations;
} tu_batch;

static inline void tu_batch_free(tu_batch *t)
{
    void *arrays[] = {t->kind, t->px, t->py, t->pz, t->qw, t->qx, t->qy, t->qz, t->sx, t->sy, t->sz,
                      t->margin, t->hull, t->ia, t->ib, t->status, t->distance, t->ax, t->ay, t->az,
                      t->bx, t->by, t->bz, t->nx, t->ny, t->nz, t->iterations};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
    memset(t, 0, sizeof *t);
}

#define TU_GROW(ptr, n) ((ptr) = tu_realloc((ptr), (size_t)(n) * sizeof *(ptr)))

/* Adds a body, returning its index. */
static inline uint32_t tu_batch_body(tu_batch *t, const gjkb_shape *s)
{
    if (t->nb == t->cap_b) {
        t->cap_b = t->cap_b ? 2 * t->cap_b : 64;
        TU_GROW(t->kind, t->cap_b), TU_GROW(t->px, t->cap_b), TU_GROW(t->py, t->cap_b);
        TU_GROW(t->pz, t->cap_b), TU_GROW(t->qw, t->cap_b), TU_GROW(t->qx, t->cap_b);
        TU_GROW(t->qy, t->cap_b), TU_GROW(t->qz, t->cap_b), TU_GROW(t->sx, t->cap_b);
        TU_GROW(t->sy, t->cap_b), TU_GROW(t->sz, t->cap_b), TU_GROW(t->margin, t->cap_b);
        TU_GROW(t->hull, t->cap_b);
    }
    uint32_t i = t->nb++;
    t->kind[i] = (uint8_t)s->kind;
    t->px[i] = s->pos[0], t->py[i] = s->pos[1], t->pz[i] = s->pos[2];
    t->qw[i] = s->rot[0], t->qx[i] = s->rot[1], t->qy[i] = s->rot[2], t->qz[i] = s->rot[3];
    t->sx[i] = s->size[0], t->sy[i] = s->size[1], t->sz[i] = s->size[2];
    t->margin[i] = s->margin;
    t->hull[i] = s->hull;
    return i;
}

/* Body i as a gjkb_shape. */
static inline gjkb_shape tu_batch_shape(const tu_batch *t, uint32_t i)
{
    gjkb_shape s;
    memset(&s, 0, sizeof s);
    s.kind = (gjkb_kind)t->kind[i];
    s.pos[0] = t->px[i], s.pos[1] = t->py[i], s.pos[2] = t->pz[i];
    s.rot[0] = t->qw[i], s.rot[1] = t->qx[i], s.rot[2] = t->qy[i], s.rot[3] = t->qz[i];
    s.size[0] = t->sx[i], s.size[1] = t->sy[i], s.size[2] = t->sz[i];
    s.margin = t->margin[i];
    s.hull = t->hull[i];
    return s;
}

/* Adds a pair of existing bodies, returning the pair index. */
static inline uint32_t tu_batch_link(tu_batch *t, uint32_t a, uint32_t b)
{
    if (t->np == t->cap_p) {
        t->cap_p = t->cap_p ? 2 * t->cap_p : 64;
        TU_GROW(t->ia, t->cap_p), TU_GROW(t->ib, t->cap_p), TU_GROW(t->status, t->cap_p);
        TU_GROW(t->distance, t->cap_p), TU_GROW(t->ax, t->cap_p), TU_GROW(t->ay, t->cap_p);
        TU_GROW(t->az, t->cap_p), TU_GROW(t->bx, t->cap_p), TU_GROW(t->by, t->cap_p);
        TU_GROW(t->bz, t->cap_p), TU_GROW(t->nx, t->cap_p), TU_GROW(t->ny, t->cap_p);
        TU_GROW(t->nz, t->cap_p), TU_GROW(t->iterations, t->cap_p);
    }
    uint32_t i = t->np++;
    t->ia[i] = a, t->ib[i] = b;
    return i;
}

static inline uint32_t tu_batch_add(tu_batch *t, const gjkb_shape *a, const gjkb_shape *b)
{
    uint32_t ia = tu_batch_body(t, a);
    uint32_t ib = tu_batch_body(t, b);
    return tu_batch_link(t, ia, ib);
}

static inline gjkb_bodies tu_batch_bodies(const tu_batch *t)
{
    gjkb_bodies b = {t->nb, t->kind, t->px, t->py, t->pz, t->qw, t->qx, t->qy, t->qz,
                     t->sx, t->sy, t->sz, t->margin, t->hull};
    return b;
}

static inline gjkb_pairs tu_batch_pairs(const tu_batch *t)
{
    gjkb_pairs p = {t->np, t->ia, t->ib};
    return p;
}

/* Every output array requested. */
static inline gjkb_results tu_batch_results(const tu_batch *t)
{
    gjkb_results r = {.status = t->status, .distance = t->distance,
                      .ax = t->ax, .ay = t->ay, .az = t->az, .bx = t->bx, .by = t->by, .bz = t->bz,
                      .nx = t->nx, .ny = t->ny, .nz = t->nz, .iterations = t->iterations};
    return r;
}

static inline void tu_batch_fill_sentinel(tu_batch *t)
{
    double *d[] = {t->distance, t->ax, t->ay, t->az, t->bx, t->by, t->bz, t->nx, t->ny, t->nz};
    for (uint32_t i = 0; i < t->np; i++) {
        t->status[i] = TU_SENTINEL_STATUS;
        t->iterations[i] = TU_SENTINEL_ITER;
        for (size_t k = 0; k < sizeof d / sizeof d[0]; k++) d[k][i] = TU_SENTINEL;
    }
}

/* Runs every pair through gjkb_query_batch on ctx's backend. */
static inline gjkb_error tu_batch_run(gjkb_context *ctx, tu_batch *t, const gjkb_query *q)
{
    gjkb_bodies bodies = tu_batch_bodies(t);
    gjkb_pairs pairs = tu_batch_pairs(t);
    gjkb_results res = tu_batch_results(t);
    tu_batch_fill_sentinel(t);
    return gjkb_query_batch(ctx, &bodies, &pairs, q, &res);
}

static inline gjkb_result tu_batch_get(const tu_batch *t, uint32_t i)
{
    gjkb_result r;
    r.status = (gjkb_status)t->status[i];
    r.iterations = t->iterations[i];
    r.distance = t->distance[i];
    r.a[0] = t->ax[i], r.a[1] = t->ay[i], r.a[2] = t->az[i];
    r.b[0] = t->bx[i], r.b[1] = t->by[i], r.b[2] = t->bz[i];
    r.n[0] = t->nx[i], r.n[1] = t->ny[i], r.n[2] = t->nz[i];
    return r;
}

/* One pair through the batch API on ctx's backend (for comparing any
 * backend with gjkb_query_pair). */
static inline gjkb_error tu_query_batch1(gjkb_context *ctx, const gjkb_shape *a, const gjkb_shape *b,
                                         const gjkb_query *q, gjkb_result *out)
{
    tu_batch t;
    memset(&t, 0, sizeof t);
    tu_batch_add(&t, a, b);
    gjkb_query dq;
    memset(&dq, 0, sizeof dq);
    dq.mode = GJKB_DISTANCE;
    gjkb_error e = tu_batch_run(ctx, &t, q ? q : &dq);
    *out = tu_batch_get(&t, 0);
    tu_batch_free(&t);
    return e;
}

/* A context on one backend, or NULL when it cannot be created. */
static inline gjkb_context *tu_context(gjkb_backend backend)
{
    gjkb_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.backend = backend;
    gjkb_context *ctx = NULL;
    if (gjkb_create(&cfg, &ctx) != GJKB_OK) return NULL;
    return ctx;
}

#endif /* GJKB_TESTUTIL_H */
