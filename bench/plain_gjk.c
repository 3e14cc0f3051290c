/* plain_gjk.c - a plain scalar float GJK (see plain_gjk.h). Written for the
 * benchmark as a competent user would write it: readable, one pair at a
 * time, float throughout, a precomputed pair-local transform, and the usual
 * care in the hot loop (branch-free support signs, one square root per
 * support, no division per iteration), but no SIMD and no batching: the
 * honest scalar baseline of issue 18. */
#include "plain_gjk.h"

#include <math.h>
#include <stdlib.h>

typedef struct pv { float x, y, z; } pv;

/* Cores: the shape without its rounding radius. */
enum pg_core { PG_POINT, PG_SEGMENT, PG_BOX, PG_CYLINDER, PG_CONE, PG_HULL };

typedef struct pg_shape {
    uint8_t core;
    float radius;        /* rounding: sphere or capsule radius plus the margin */
    float e[3];          /* box: half extents; cylinder, cone: e[0] radius; e[2] half height */
    const float *pts;    /* hull points, x,y,z interleaved */
    uint32_t n;
} pg_shape;

typedef struct pg_pair {
    pg_shape a, b;
    float r[3][3];       /* B's local frame to A's */
    pv t;                /* B's centre in A's frame */
    float radius;        /* a.radius + b.radius: the hit query rounds A - B once */
    float scale;         /* sum of the bounding radii */
} pg_pair;

struct plain_gjk {
    uint32_t count;
    pg_pair *pairs;
};

/* ---- vectors ------------------------------------------------------------ */

static inline pv v3(float x, float y, float z) { pv r = { x, y, z }; return r; }
static inline pv vadd(pv a, pv b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline pv vsub(pv a, pv b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline pv vneg(pv a) { return v3(-a.x, -a.y, -a.z); }
static inline pv vscale(pv a, float k) { return v3(a.x * k, a.y * k, a.z * k); }
static inline float vdot(pv a, pv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline pv vcross(pv a, pv b)
{
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* (a x b) x a: the part of b perpendicular to a, scaled by |a|^2 */
static inline pv vtriple(pv a, pv b) { return vcross(vcross(a, b), a); }
/* Component i, indexed rather than chosen by ?: (the axis is data, and
 * branches on it were mispredicted). */
static inline float vcomp(pv a, int i)
{
    const float c[3] = { a.x, a.y, a.z };
    return c[i];
}

/* ---- supports ------------------------------------------------------------ */

/* The hull's point furthest along d: a linear scan (hulls have points). */
static pv hull_support(const pg_shape *s, pv d)
{
    const float *p = s->pts, *best = p, *end = p + 3 * (size_t)s->n;
    float best_dot = p[0] * d.x + p[1] * d.y + p[2] * d.z;
    for (p += 3; p < end; p += 3) {
        float dot = p[0] * d.x + p[1] * d.y + p[2] * d.z;
        if (dot > best_dot) {
            best_dot = dot;
            best = p;
        }
    }
    return v3(best[0], best[1], best[2]);
}

/* A disk of radius r in the local XY plane, along d's XY part. */
static pv disk_support(float r, pv d)
{
    float len = sqrtf(d.x * d.x + d.y * d.y);
    float k = len > 0 ? r / len : 0;
    return v3(d.x * k, d.y * k, 0);
}

/* e with d's sign: copysignf compiles to bit operations, where a ?: on
 * d >= 0 became a branch taken at random (a box support's three signs). */
static inline float pick(float d, float e) { return copysignf(e, d); }

static inline pv core_support(const pg_shape *s, pv d)
{
    switch (s->core) {
    case PG_POINT:
        return v3(0, 0, 0);
    case PG_SEGMENT:
        return v3(0, 0, pick(d.z, s->e[2]));
    case PG_BOX:
        return v3(pick(d.x, s->e[0]), pick(d.y, s->e[1]), pick(d.z, s->e[2]));
    case PG_CYLINDER: {
        pv p = disk_support(s->e[0], d);
        p.z = pick(d.z, s->e[2]);
        return p;
    }
    case PG_CONE: {   /* the apex or a point of the base rim, whichever is further */
        pv rim = disk_support(s->e[0], d);
        rim.z = -s->e[2];
        return vdot(rim, d) > s->e[2] * d.z ? rim : v3(0, 0, s->e[2]);
    }
    default:
        return hull_support(s, d);
    }
}

/* B's core support along -d, in A's frame: the direction turned into B's
 * frame (-R^T d), the point turned back and offset. */
static inline pv b_support(const pg_pair *q, pv d)
{
    const float (*r)[3] = q->r;
    if (q->b.core == PG_POINT)   /* a sphere's centre: nothing to turn */
        return q->t;
    pv db = v3(-(r[0][0] * d.x + r[1][0] * d.y + r[2][0] * d.z),
               -(r[0][1] * d.x + r[1][1] * d.y + r[2][1] * d.z),
               -(r[0][2] * d.x + r[1][2] * d.y + r[2][2] * d.z));
    pv p = core_support(&q->b, db);
    return v3(q->t.x + r[0][0] * p.x + r[0][1] * p.y + r[0][2] * p.z,
              q->t.y + r[1][0] * p.x + r[1][1] * p.y + r[1][2] * p.z,
              q->t.z + r[2][0] * p.x + r[2][1] * p.y + r[2][2] * p.z);
}

/* The cores' Minkowski difference A - B along d (d != 0). */
static inline pv core_md_support(const pg_pair *q, pv d)
{
    return vsub(core_support(&q->a, d), b_support(q, d));
}

/* The rounded shapes' difference: both radii in one step along d, one
 * square root per support instead of one per rounded shape. */
static inline pv md_support(const pg_pair *q, pv d)
{
    pv w = core_md_support(q, d);
    if (q->radius > 0)
        w = vadd(w, vscale(d, q->radius / sqrtf(vdot(d, d))));
    return w;
}

/* ---- boolean GJK: triple products ---------------------------------------
 * s[0] is the newest point; each case keeps the feature whose Voronoi
 * region holds the origin and points d at it. */

static inline void bool_line(pv *s, int *n, pv *d)
{
    pv ab = vsub(s[1], s[0]), ao = vneg(s[0]);
    if (vdot(ab, ao) > 0) {
        *d = vtriple(ab, ao);
    } else {
        *n = 1;
        *d = ao;
    }
}

static inline void bool_triangle(pv *s, int *n, pv *d)
{
    pv a = s[0], b = s[1], c = s[2];
    pv ab = vsub(b, a), ac = vsub(c, a), ao = vneg(a), abc = vcross(ab, ac);
    if (vdot(vcross(abc, ac), ao) > 0) {   /* beyond edge ac */
        *n = 2;
        if (vdot(ac, ao) > 0) {
            s[1] = c;
            *d = vtriple(ac, ao);
        } else {
            bool_line(s, n, d);
        }
    } else if (vdot(vcross(ab, abc), ao) > 0) {   /* beyond edge ab */
        *n = 2;
        bool_line(s, n, d);
    } else if (vdot(abc, ao) > 0) {   /* above the face */
        *d = abc;
    } else {   /* below it: wound the other way so abc faces the origin */
        s[1] = c;
        s[2] = b;
        *d = vneg(abc);
    }
}

/* The outward normal of face (a, b, c) of a tetrahedron whose fourth
 * vertex is o: away from o, whatever the winding. */
static inline pv face_out(pv a, pv b, pv c, pv o)
{
    pv nrm = vcross(vsub(b, a), vsub(c, a));
    return vdot(nrm, vsub(o, a)) > 0 ? vneg(nrm) : nrm;
}

/* The squared distance from the origin to the feature a triangle case
 * kept: d is normal to it through the origin's projection, a on it. */
static float feature_d2(pv a, pv d)
{
    float k = vdot(a, d);
    return k * k / vdot(d, d);
}

/* The classic tetrahedron case: 1 when it holds the origin, else the
 * triangle case on the first face the origin is beyond (never bcd: the
 * last direction pointed from it towards the origin). */
static int bool_tetra_first(pv *s, int *n, pv *d)
{
    const pv a = s[0], b = s[1], c = s[2], e = s[3], ao = vneg(a);
    if (vdot(face_out(a, b, c, e), ao) > 0) {
        *n = 3;
    } else if (vdot(face_out(a, c, e, b), ao) > 0) {
        s[1] = c;
        s[2] = e;
        *n = 3;
    } else if (vdot(face_out(a, e, b, c), ao) > 0) {
        s[1] = e;
        s[2] = b;
        *n = 3;
    } else {
        return 1;
    }
    bool_triangle(s, n, d);
    return 0;
}

/* The robust tetrahedron case, for pairs the classic one did not settle:
 * the triangle case on every face the origin is beyond, the closest
 * feature kept. (The first face can cycle forever: seen on box-box and
 * hull64 pairs up to 3% of their scale apart.) */
static int bool_tetra_closest(pv *s, int *n, pv *d)
{
    const pv a = s[0], b = s[1], c = s[2], e = s[3], ao = vneg(a);
    const pv faces[3][3] = { { a, b, c }, { a, c, e }, { a, e, b } };
    const pv opposite[3] = { e, b, c };
    pv best[3], best_d = *d;
    float best_d2 = INFINITY;
    int best_n = 0;
    for (int f = 0; f < 3; f++) {
        if (vdot(face_out(faces[f][0], faces[f][1], faces[f][2], opposite[f]), ao) <= 0)
            continue;
        pv t[3] = { faces[f][0], faces[f][1], faces[f][2] }, td;
        int tn = 3;
        bool_triangle(t, &tn, &td);
        float d2 = feature_d2(a, td);
        if (best_n == 0 || d2 < best_d2) {
            for (int k = 0; k < tn; k++)
                best[k] = t[k];
            best_n = tn;
            best_d = td;
            best_d2 = d2;
        }
    }
    if (best_n == 0)
        return 1;
    for (int k = 0; k < best_n; k++)
        s[k] = best[k];
    *n = best_n;
    *d = best_d;
    return 0;
}

/* Support evaluations after which the classic tetrahedron case gives way
 * to the robust one (typical pairs need 2 to 6). */
#define PG_CLASSIC_ITER 16

/* 1: overlap (or touching, or undecided after the bound: *limit set). */
static int bool_gjk(const pg_pair *q, int *limit)
{
    /* the origin this close to the simplex's feature touches the shapes:
     * gjkbatch's touching band (without it an origin on a segment of the
     * simplex, as between two overlapping spheres, cycles forever);
     * squared and times |d|^2, so no division per iteration */
    const float tol2 = 1e-12f * q->scale * q->scale;
    pv s[4], d = q->t;   /* towards the origin from A - B's centre */
    int n = 1;
    if (vdot(d, d) == 0)
        d = v3(1, 0, 0);
    s[0] = md_support(q, d);
    d = vneg(s[0]);
    *limit = 0;
    for (int it = 1; it < PLAIN_GJK_MAX_ITER; it++) {
        float dd = vdot(d, d), k = vdot(s[0], d);
        if (dd == 0 || k * k <= tol2 * dd)
            return 1;
        pv w = md_support(q, d);
        if (vdot(w, d) < 0)
            return 0;   /* d separates */
        s[n] = s[n - 1];   /* w goes first, the rest move up one */
        if (n > 1)
            s[n - 1] = s[n - 2];
        if (n > 2)
            s[1] = s[0];
        s[0] = w;
        n++;
        if (n == 2)
            bool_line(s, &n, &d);
        else if (n == 3)
            bool_triangle(s, &n, &d);
        else if (it < PG_CLASSIC_ITER ? bool_tetra_first(s, &n, &d) : bool_tetra_closest(s, &n, &d))
            return 1;
    }
    *limit = 1;
    return 1;
}

/* ---- distance GJK: signed volumes ----------------------------------------
 * Each sub-algorithm gets the simplex's points and keeps the smallest
 * sub-simplex whose affine hull's closest point to the origin lies inside
 * it, and that point v. A face's v is the origin's projection along the
 * face normal, not the weighted sum of its vertices: when the origin is
 * close to the face, the sum's rounding (about 2^-24 of the vertices) turns
 * v's direction enough to pick the wrong corner of a nearly parallel face
 * (box-rest pairs then stalled 1e-5 short of the origin, "separated"). */

typedef struct pg_simplex {
    pv w[4];
    pv v;
    int n;
} pg_simplex;

static void sx_one(pg_simplex *out, pv a)
{
    out->w[0] = a;
    out->v = a;
    out->n = 1;
}

static int same_sign(float a, float b)
{
    return (a > 0 && b > 0) || (a < 0 && b < 0);
}

/* The largest component of a, by magnitude. */
static int major_axis(pv a)
{
    float x = fabsf(a.x), y = fabsf(a.y), z = fabsf(a.z);
    return x >= y && x >= z ? 0 : y >= z ? 1 : 2;
}

static void sv_segment(pv a, pv b, pg_simplex *out)
{
    pv t = vsub(b, a);
    float tt = vdot(t, t);
    if (tt == 0) {
        sx_one(out, a);
        return;
    }
    /* the origin's projection on the line, measured along t's major axis */
    pv p = vsub(a, vscale(t, vdot(a, t) / tt));
    int i = major_axis(t);
    float mu = vcomp(a, i) - vcomp(b, i);
    float ca = vcomp(p, i) - vcomp(b, i), cb = vcomp(a, i) - vcomp(p, i);
    if (same_sign(mu, ca) && same_sign(mu, cb)) {
        out->w[0] = a;
        out->w[1] = b;
        out->v = p;
        out->n = 2;
    } else {
        sx_one(out, same_sign(mu, ca) ? a : b);
    }
}

/* Keeps the closer of best and cand (best->n == 0: none yet). */
static void sx_keep_closer(pg_simplex *best, float *best_d2, const pg_simplex *cand)
{
    float d2 = vdot(cand->v, cand->v);
    if (best->n == 0 || d2 < *best_d2) {
        *best = *cand;
        *best_d2 = d2;
    }
}

/* Twice the signed area of (p, q, r) projected on the plane of axes i, j
 * (normal to axis k, i = k + 1 and j = k + 2 mod 3). */
static inline float area2(pv p, pv q, pv r, int i, int j)
{
    return (vcomp(q, i) - vcomp(p, i)) * (vcomp(r, j) - vcomp(p, j)) -
           (vcomp(q, j) - vcomp(p, j)) * (vcomp(r, i) - vcomp(p, i));
}

static void sv_triangle(pv a, pv b, pv c, pg_simplex *out)
{
    pv nrm = vcross(vsub(b, a), vsub(c, a));
    float nn = vdot(nrm, nrm);
    pv v[3] = { a, b, c };
    float cof[3] = { 0, 0, 0 }, mu = 0;
    if (nn > 0) {
        /* the origin's projection on the plane, and areas in the
         * coordinate plane where the triangle's shadow is largest */
        pv p = vscale(nrm, vdot(a, nrm) / nn);
        static const int next[3] = { 1, 2, 0 };
        int i = next[major_axis(nrm)], j = next[i];
        mu = area2(a, b, c, i, j);
        cof[0] = area2(p, b, c, i, j);
        cof[1] = area2(a, p, c, i, j);
        cof[2] = area2(a, b, p, i, j);
        if (same_sign(mu, cof[0]) && same_sign(mu, cof[1]) && same_sign(mu, cof[2])) {
            for (int m = 0; m < 3; m++)
                out->w[m] = v[m];
            out->v = p;
            out->n = 3;
            return;
        }
    }
    /* outside: the closest of the edges the origin is beyond (every edge
     * when the triangle is degenerate) */
    pg_simplex edge;
    float d2 = 0;
    out->n = 0;
    for (int j = 0; j < 3; j++) {
        if (nn > 0 && same_sign(mu, cof[j]))
            continue;
        sv_segment(v[(j + 1) % 3], v[(j + 2) % 3], &edge);
        sx_keep_closer(out, &d2, &edge);
    }
}

/* Six times the signed volume of (p, q, r, s). */
static float volume6(pv p, pv q, pv r, pv s)
{
    return vdot(vsub(q, p), vcross(vsub(r, p), vsub(s, p)));
}

/* 1 when the tetrahedron holds the origin. */
static int sv_tetra(const pv *w, pg_simplex *out)
{
    const pv o = v3(0, 0, 0);
    float mu = volume6(w[0], w[1], w[2], w[3]);
    float cof[4] = { volume6(o, w[1], w[2], w[3]), volume6(w[0], o, w[2], w[3]),
                     volume6(w[0], w[1], o, w[3]), volume6(w[0], w[1], w[2], o) };
    int beyond[4], inside = mu != 0;
    for (int j = 0; j < 4; j++) {   /* beyond face j: its weight is negative */
        beyond[j] = mu == 0 || (mu > 0 ? cof[j] < 0 : cof[j] > 0);
        inside = inside && !beyond[j];
    }
    if (inside)
        return 1;
    /* the closest of the faces the origin is beyond (every face of a flat
     * tetrahedron) */
    pg_simplex face;
    float d2 = 0;
    out->n = 0;
    for (int j = 0; j < 4; j++) {
        if (!beyond[j])
            continue;
        sv_triangle(w[(j + 1) % 4], w[(j + 2) % 4], w[(j + 3) % 4], &face);
        sx_keep_closer(out, &d2, &face);
    }
    return 0;
}

/* The new simplex after adding w to s. 1 when it holds the origin. */
static int sv_step(pg_simplex *s, pv w)
{
    pv pts[4];
    for (int i = 0; i < s->n; i++)
        pts[i] = s->w[i];
    pts[s->n] = w;
    switch (s->n + 1) {
    case 1: sx_one(s, w); return 0;
    case 2: sv_segment(pts[0], pts[1], s); return 0;
    case 3: sv_triangle(pts[0], pts[1], pts[2], s); return 0;
    default: return sv_tetra(pts, s);
    }
}

/* The distance between the cores (0: they overlap). */
static float core_distance(const pg_pair *q, int *limit)
{
    /* stop when the bounds on the distance are this close: well inside the
     * 1e-4 of the scale the answers are checked to */
    const float eps = 1e-5f * q->scale;
    pg_simplex s;
    pv d = vdot(q->t, q->t) > 0 ? q->t : v3(1, 0, 0);
    pv v = core_md_support(q, d);   /* the first vertex, furthest towards the origin */
    float vv = vdot(v, v);
    sx_one(&s, v);
    *limit = 0;
    if (vv == 0)
        return 0;
    for (int it = 1; it < PLAIN_GJK_MAX_ITER; it++) {
        pv w = core_md_support(q, vneg(v));
        /* |v| - (v.w)/|v| bounds the error of |v| as the distance */
        if (vv - vdot(v, w) <= eps * sqrtf(vv))
            return sqrtf(vv);
        if (sv_step(&s, w))
            return 0;
        pv nv = s.v;
        float nvv = vdot(nv, nv);
        if (nvv >= vv)   /* no progress: float's end */
            return sqrtf(vv);
        v = nv;
        vv = nvv;
        if (vv <= 1e-12f * q->scale * q->scale)
            return 0;
    }
    *limit = 1;
    return sqrtf(vv);
}

/* ---- prepare -------------------------------------------------------------- */

static void quat_matrix(const bench_set *s, uint32_t i, double m[3][3])
{
    double w = s->qw[i], x = s->qx[i], y = s->qy[i], z = s->qz[i];
    double len = sqrt(w * w + x * x + y * y + z * z);
    w /= len; x /= len; y /= len; z /= len;
    m[0][0] = 1 - 2 * (y * y + z * z); m[0][1] = 2 * (x * y - w * z); m[0][2] = 2 * (x * z + w * y);
    m[1][0] = 2 * (x * y + w * z); m[1][1] = 1 - 2 * (x * x + z * z); m[1][2] = 2 * (y * z - w * x);
    m[2][0] = 2 * (x * z - w * y); m[2][1] = 2 * (y * z + w * x); m[2][2] = 1 - 2 * (x * x + y * y);
}

static float hull_radius(const float *p, uint32_t n)
{
    float m = 0;
    for (uint32_t k = 0; k < n; k++) {
        float d = sqrtf(p[3 * k] * p[3 * k] + p[3 * k + 1] * p[3 * k + 1] + p[3 * k + 2] * p[3 * k + 2]);
        m = d > m ? d : m;
    }
    return m;
}

/* Body i as a core and radius; returns its bounding radius. */
static float shape_init(pg_shape *sh, const bench_set *s, uint32_t i)
{
    float x = s->sx[i], y = s->sy[i], z = s->sz[i];
    float margin = s->bodies.margin ? s->bodies.margin[i] : 0.0f;
    float bound;
    sh->e[0] = x; sh->e[1] = y; sh->e[2] = z;
    sh->radius = margin;
    sh->pts = NULL;
    sh->n = 0;
    switch (s->kind[i]) {
    case GJKB_SPHERE: sh->core = PG_POINT; sh->radius += x; bound = 0; break;
    case GJKB_CAPSULE: sh->core = PG_SEGMENT; sh->radius += x; bound = z; break;
    case GJKB_BOX: sh->core = PG_BOX; bound = sqrtf(x * x + y * y + z * z); break;
    case GJKB_CYLINDER: sh->core = PG_CYLINDER; bound = sqrtf(x * x + z * z); break;
    case GJKB_CONE: sh->core = PG_CONE; bound = sqrtf(x * x + z * z); break;
    default:
        sh->core = PG_HULL;
        sh->pts = s->hull_xyz[s->hull[i]];
        sh->n = s->hull_n[s->hull[i]];
        bound = hull_radius(sh->pts, sh->n);
        break;
    }
    return bound + sh->radius;
}

/* R_a^T R_b and R_a^T (p_b - p_a), in double, rounded to float. */
static void pair_frame(pg_pair *q, const bench_set *s, uint32_t a, uint32_t b)
{
    double ra[3][3], rb[3][3];
    double off[3] = { s->px[b] - s->px[a], s->py[b] - s->py[a], s->pz[b] - s->pz[a] };
    float t[3];
    quat_matrix(s, a, ra);
    quat_matrix(s, b, rb);
    for (int i = 0; i < 3; i++) {
        double ti = 0;
        for (int j = 0; j < 3; j++) {
            double rij = 0;
            for (int k = 0; k < 3; k++)
                rij += ra[k][i] * rb[k][j];
            q->r[i][j] = (float)rij;
            ti += ra[j][i] * off[j];
        }
        t[i] = (float)ti;
    }
    q->t = v3(t[0], t[1], t[2]);
}

/* Pair i's set-up: the shapes, B's frame in A's, the radii and scale. */
static void pair_setup(pg_pair *q, const bench_set *s, uint32_t i)
{
    q->scale = shape_init(&q->a, s, s->pa[i]) + shape_init(&q->b, s, s->pb[i]);
    pair_frame(q, s, s->pa[i], s->pb[i]);
    q->radius = q->a.radius + q->b.radius;
}

plain_gjk *plain_gjk_prepare(const bench_set *s)
{
    plain_gjk *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->count = s->pair_count;
    p->pairs = malloc((size_t)(s->pair_count ? s->pair_count : 1) * sizeof *p->pairs);
    if (!p->pairs) {
        free(p);
        return NULL;
    }
    for (uint32_t i = 0; i < s->pair_count; i++) {
        pair_setup(&p->pairs[i], s, i);
    }
    return p;
}

void plain_gjk_free(plain_gjk *p)
{
    if (!p)
        return;
    free(p->pairs);
    free(p);
}

/* ---- queries ---------------------------------------------------------------- */

uint32_t plain_gjk_hit(const plain_gjk *p, uint8_t *hit, uint32_t *limited)
{
    uint32_t hits = 0, lim = 0;
    for (uint32_t i = 0; i < p->count; i++) {
        int limit;
        int h = bool_gjk(&p->pairs[i], &limit);
        hit[i] = (uint8_t)h;
        hits += (uint32_t)h;
        lim += (uint32_t)limit;
    }
    if (limited)
        *limited = lim;
    return hits;
}

/* ---- box pairs by separating axes ----------------------------------------- */

/* Two boxes by the 15 axes of the separating axis theorem, as a user
 * writes it from a textbook (Gottschalk's OBB test: |R| with a small
 * epsilon for nearly parallel edges, the edge crosses unnormalized):
 * 0 apart beyond the rounding radius and the band along some axis, 1 the
 * cores overlap, -1 neither (rounded boxes whose cores are apart by less
 * than the rounding: GJK decides). */
static int box_sat(const pg_pair *q)
{
    const float *a = q->a.e, *b = q->b.e;
    const float t[3] = { q->t.x, q->t.y, q->t.z };
    float R[3][3], A[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[i][j] = q->r[i][j], A[i][j] = fabsf(q->r[i][j]) + 1e-6f;
    const float band = q->radius + 1e-6f * q->scale;
    float most = -INFINITY;
    for (int i = 0; i < 3; i++) {   /* A's faces */
        float gap = fabsf(t[i]) - a[i] - (b[0] * A[i][0] + b[1] * A[i][1] + b[2] * A[i][2]);
        if (gap > band)
            return 0;
        most = fmaxf(most, gap);
    }
    for (int j = 0; j < 3; j++) {   /* B's faces */
        float tj = t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j];
        float gap = fabsf(tj) - (a[0] * A[0][j] + a[1] * A[1][j] + a[2] * A[2][j]) - b[j];
        if (gap > band)
            return 0;
        most = fmaxf(most, gap);
    }
    for (int i = 0; i < 3; i++) {   /* edge crosses: A's axis i with B's axis j */
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            float tl = t[i2] * R[i1][j] - t[i1] * R[i2][j];
            float ra = a[i1] * A[i2][j] + a[i2] * A[i1][j];
            float rb = b[j1] * A[i][j2] + b[j2] * A[i][j1];
            float len = sqrtf(R[i1][j] * R[i1][j] + R[i2][j] * R[i2][j]);
            float gap = fabsf(tl) - ra - rb;
            if (gap > band * len)
                return 0;
            most = fmaxf(most, len > 1e-3f ? gap / len : most);
        }
    }
    return most < 0.0f ? 1 : q->radius > 0 ? -1 : 1;
}

uint32_t plain_sat_hit(const plain_gjk *p, uint8_t *hit, uint32_t *limited)
{
    uint32_t hits = 0, lim = 0;
    for (uint32_t i = 0; i < p->count; i++) {
        const pg_pair *q = &p->pairs[i];
        int h = q->a.core == PG_BOX && q->b.core == PG_BOX ? box_sat(q) : -1;
        if (h < 0) {
            int limit;
            h = bool_gjk(q, &limit);
            lim += (uint32_t)limit;
        }
        hit[i] = (uint8_t)h;
        hits += (uint32_t)h;
    }
    if (limited)
        *limited = lim;
    return hits;
}

/* One pair's distance by GJK (0 when overlapping); returns the verdict. */
static int gjk_distance_one(const pg_pair *q, double *dist, uint32_t *lim)
{
    int limit;
    float gap = core_distance(q, &limit) - q->a.radius - q->b.radius;
    int h = gap <= 1e-6f * q->scale;
    *dist = h ? 0.0 : (double)gap;
    *lim += (uint32_t)limit;
    return h;
}

uint32_t plain_gjk_distance(const plain_gjk *p, uint8_t *hit, double *dist, uint32_t *limited)
{
    uint32_t hits = 0, lim = 0;
    for (uint32_t i = 0; i < p->count; i++) {
        hit[i] = (uint8_t)gjk_distance_one(&p->pairs[i], &dist[i], &lim);
        hits += hit[i];
    }
    if (limited)
        *limited = lim;
    return hits;
}

uint32_t plain_sat_distance(const plain_gjk *p, uint8_t *hit, double *dist, uint32_t *limited)
{
    uint32_t hits = 0, lim = 0;
    for (uint32_t i = 0; i < p->count; i++) {
        const pg_pair *q = &p->pairs[i];
        int h = q->a.core == PG_BOX && q->b.core == PG_BOX && box_sat(q) == 1;
        if (h)
            dist[i] = 0.0;
        else
            h = gjk_distance_one(q, &dist[i], &lim);
        hit[i] = (uint8_t)h;
        hits += (uint32_t)h;
    }
    if (limited)
        *limited = lim;
    return hits;
}

uint32_t plain_gjk_hit_whole(const bench_set *s, uint8_t *hit)
{
    uint32_t hits = 0;
    for (uint32_t i = 0; i < s->pair_count; i++) {
        pg_pair q;
        int limit;
        pair_setup(&q, s, i);
        hit[i] = (uint8_t)bool_gjk(&q, &limit);
        hits += hit[i];
    }
    return hits;
}

uint32_t plain_gjk_distance_whole(const bench_set *s, uint8_t *hit, double *dist)
{
    uint32_t hits = 0;
    for (uint32_t i = 0; i < s->pair_count; i++) {
        pg_pair q;
        int limit;
        pair_setup(&q, s, i);
        float gap = core_distance(&q, &limit) - q.a.radius - q.b.radius;
        int h = gap <= 1e-6f * q.scale;
        hit[i] = (uint8_t)h;
        dist[i] = h ? 0.0 : (double)gap;
        hits += (uint32_t)h;
    }
    return hits;
}
