/* reference.c - the independent reference GJK: one pair at a time, in double
 * precision, written to be read and trusted rather than to be fast. Every
 * other backend is checked against it.
 *
 * Each shape is a core (point, segment, box, cylinder, cone or hull) plus a
 * margin. GJK runs on the cores in A's local frame, on the Minkowski
 * difference D = coreA - coreB: the cores are dc = min |x| over x in D
 * apart, and v, the point of D closest to the origin, gives the axis
 * n = -v / |v| from A to B. The margins are subtracted at the end.
 *
 * GJK keeps two bounds on dc: |v| for any point v of D is an upper bound,
 * and for any axis v, (v . w) / |v| with w = support of D in direction -v is
 * a lower bound, because every x in D has v . x >= v . w. Every stopping test
 * compares these bounds relative to the lengths involved.
 *
 * The shapes' geometry (rotations, core supports) is in ref_geom.c; contact
 * mode continues from GJK's final state in ref_contact.c; both build their
 * answers with ref_result.c. */
#include "scalar/reference.h"
#include "scalar/ref_geom.h"
#include "shape.h"

#include <float.h>
#include <math.h>

/* Relative duality gap at which the distance counts as converged:
 * (|v| - best lower bound) / |v| <= REF_GAP. Polytopes end exactly; curved
 * pairs converge linearly, each decade of the gap costing a few iterations.
 * Two facing rims (cylinder, cone) are the slowest: up to about 90
 * iterations, of which up to about 64 go before the gap is even 1e-6, so no
 * looser gap would fit them in 64; the reference's own default bound
 * (GJKB_REFERENCE_MAX_ITERATIONS) leaves them room instead. */
#define REF_GAP 1e-11
/* Rounding noise of the lower bound in units of the largest simplex point:
 * a gap below it cannot be resolved in double, so it also counts as
 * converged (it matters when |v| is small against the points of D). */
#define REF_NOISE (16.0 * DBL_EPSILON)
/* |v| this small against the simplex points is zero within rounding: the
 * origin is in D (the cores touch or overlap). */
#define REF_ZERO 1e-14
/* A tetrahedron whose triple product (six times its volume) is below
 * REF_FLAT * (longest edge)^3 is flat: the signs of its barycentric
 * coordinates are noise, so only its faces are trusted. */
#define REF_FLAT 1e-12

/* ---- the distance sub-algorithm ----------------------------------------
 * Closest point to the origin of the simplex spanned by 1 to 4 points, as
 * the feature (vertex, edge, face or the solid tetrahedron) that holds it
 * and the barycentric weights of the point on that feature. */

typedef struct ref_closest {
    int n;          /* vertices of the feature */
    int idx[4];     /* their indices in the simplex */
    double w[4];    /* barycentric weights, summing to 1 */
    ref_vec p;      /* the closest point */
    double dist2;   /* |p|^2 */
    bool inside;    /* the origin is inside the solid tetrahedron */
} ref_closest;

static ref_closest feature(const ref_vec *y, int n, const int *idx, const double *w)
{
    ref_closest c = { .n = n }; /* unused slots zero */
    for (int k = 0; k < n; k++) {
        c.idx[k] = idx[k];
        c.w[k] = w[k];
        c.p = add(c.p, scale(y[idx[k]], w[k]));
    }
    c.dist2 = dot(c.p, c.p);
    return c;
}

/* The nearer of two candidates; on a tie the first (lower-dimensional). */
static ref_closest nearer(ref_closest a, ref_closest b)
{
    return b.dist2 < a.dist2 ? b : a;
}

static ref_closest closest_vertex(const ref_vec *y, int i)
{
    const double one = 1.0;
    return feature(y, 1, &i, &one);
}

/* Segment i-j: the origin lies beyond i, beyond j, or between them. The
 * region tests also settle a zero-length segment (it is vertex i). */
static ref_closest closest_segment(const ref_vec *y, int i, int j)
{
    ref_vec e = sub(y[j], y[i]);
    double toward_j = -dot(y[i], e); /* how far past i the origin projects */
    double toward_i = dot(y[j], e);  /* how far before j it projects */
    if (!(toward_j > 0.0))
        return closest_vertex(y, i);
    if (!(toward_i > 0.0))
        return closest_vertex(y, j);
    /* Both are positive and add up to |e|^2: dividing by their sum keeps the
     * weights a convex combination even under rounding. */
    double sum = toward_i + toward_j;
    int idx[2] = { i, j };
    double w[2] = { toward_i / sum, toward_j / sum };
    return feature(y, 2, idx, w);
}

/* Rotates triangle i-j-k to a-b-c so that a is the corner opposite the
 * longest edge: the widest angle, whose two edges are the least parallel.
 * Edge vectors are exact to rounding (differences of nearby points), so
 * formulas built on these two edges keep full relative precision even for
 * a needle-thin triangle; built on two nearly parallel edges they would not. */
static void widest_corner(const ref_vec *y, int i, int j, int k, int *a, int *b, int *c)
{
    ref_vec ij = sub(y[j], y[i]), jk = sub(y[k], y[j]), ki = sub(y[i], y[k]);
    double lij = dot(ij, ij), ljk = dot(jk, jk), lki = dot(ki, ki);
    if (ljk >= lij && ljk >= lki)
        *a = i, *b = j, *c = k;
    else if (lki >= lij)
        *a = j, *b = k, *c = i;
    else
        *a = k, *b = i, *c = j;
}

/* Triangle i-j-k. From its widest corner a, with edges e1 = b - a and
 * e2 = c - a and normal n = e1 x e2, the origin projects to
 * a + wb e1 + wc e2, where wb and wc are the signed areas the projection
 * forms with those edges over the whole area (wa = 1 - wb - wc). If all
 * three are positive the interior holds the closest point; otherwise the
 * boundary does. A degenerate triangle has meaningless coordinates, so the
 * interior point is also compared with the edges and the nearer kept: every
 * candidate is a point of the triangle, so the choice can only improve the
 * answer. */
static ref_closest closest_triangle(const ref_vec *y, int i, int j, int k)
{
    ref_closest best = nearer(nearer(closest_segment(y, i, j), closest_segment(y, j, k)),
                              closest_segment(y, k, i));
    int a, b, c;
    widest_corner(y, i, j, k, &a, &b, &c);
    ref_vec e1 = sub(y[b], y[a]), e2 = sub(y[c], y[a]), to_origin = neg(y[a]);
    ref_vec n = cross(e1, e2);
    double nn = dot(n, n);
    if (nn > 0.0) {
        double wb = dot(cross(to_origin, e2), n) / nn;
        double wc = dot(cross(e1, to_origin), n) / nn;
        double wa = 1.0 - wb - wc;
        if (wa > 0.0 && wb > 0.0 && wc > 0.0) {
            int idx[3] = { a, b, c };
            double w[3] = { wa, wb, wc };
            best = nearer(best, feature(y, 3, idx, w));
        }
    }
    return best;
}

/* Tetrahedron 0-1-2-3. The origin is inside when, for every face, it lies
 * on the same side as the opposite vertex (or on the face). Each side test
 * uses that face's own normal; the ratio of the two sides is the origin's
 * barycentric coordinate for the opposite vertex. A flat tetrahedron has no
 * reliable inside, and an outside origin is closest to the boundary: in both
 * cases the nearest of the four faces is the answer. */
static ref_closest closest_tetrahedron(const ref_vec *y)
{
    static const int opposite[4][3] = { { 1, 2, 3 }, { 0, 3, 2 }, { 0, 1, 3 }, { 0, 2, 1 } };
    double edge2 = 0.0;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) {
            ref_vec e = sub(y[j], y[i]);
            edge2 = fmax(edge2, dot(e, e));
        }
    double flat = REF_FLAT * edge2 * sqrt(edge2);

    bool inside = true;
    double lambda[4], sum = 0.0;
    for (int i = 0; i < 4 && inside; i++) {
        const int *f = opposite[i];
        int a, b, c;
        widest_corner(y, f[0], f[1], f[2], &a, &b, &c);
        ref_vec n = cross(sub(y[b], y[a]), sub(y[c], y[a]));
        double vertex_side = dot(n, sub(y[i], y[a])); /* +-6 * volume */
        double origin_side = -dot(n, y[a]);
        if (!(fabs(vertex_side) > flat))
            inside = false; /* flat */
        else {
            lambda[i] = origin_side / vertex_side;
            inside = lambda[i] >= 0.0;
            sum += lambda[i];
        }
    }
    if (inside) {
        static const int all[4] = { 0, 1, 2, 3 };
        double w[4];
        for (int i = 0; i < 4; i++)
            w[i] = lambda[i] / sum;
        ref_closest c = feature(y, 4, all, w);
        c.p = vec(0.0, 0.0, 0.0);
        c.dist2 = 0.0;
        c.inside = true;
        return c;
    }
    ref_closest best = closest_triangle(y, 0, 1, 2);
    for (int i = 0; i < 3; i++)
        best = nearer(best, closest_triangle(y, opposite[i][0], opposite[i][1], opposite[i][2]));
    return best;
}

static ref_closest simplex_closest(const ref_simplex *s)
{
    ref_vec y[4];
    for (int i = 0; i < s->n; i++)
        y[i] = s->v[i].y;
    switch (s->n) {
    case 1: return closest_vertex(y, 0);
    case 2: return closest_segment(y, 0, 1);
    case 3: return closest_triangle(y, 0, 1, 2);
    default: return closest_tetrahedron(y);
    }
}

/* Keeps only the feature's vertices; returns the closest point's core
 * points (its witnesses) through ca and cb. */
static void simplex_reduce(ref_simplex *s, const ref_closest *c, ref_vec *ca, ref_vec *cb)
{
    ref_simplex kept;
    kept.n = c->n;
    *ca = vec(0.0, 0.0, 0.0);
    *cb = vec(0.0, 0.0, 0.0);
    for (int k = 0; k < c->n; k++) {
        kept.v[k] = s->v[c->idx[k]];
        *ca = add(*ca, scale(kept.v[k].pa, c->w[k]));
        *cb = add(*cb, scale(kept.v[k].pb, c->w[k]));
    }
    *s = kept;
}

static bool simplex_has(const ref_simplex *s, ref_vec y)
{
    for (int i = 0; i < s->n; i++)
        if (same(s->v[i].y, y))
            return true;
    return false;
}

/* Largest |y|^2 over the simplex: the scale of its rounding errors. */
static double simplex_norm2(const ref_simplex *s)
{
    double m = 0.0;
    for (int i = 0; i < s->n; i++)
        m = fmax(m, dot(s->v[i].y, s->v[i].y));
    return m;
}

/* ---- the query ------------------------------------------------------------ */

static ref_core make_core(const gjkb_context *ctx, const gjkb_shape *s, double inv_unit)
{
    ref_core c = { s->kind, (double)s->size[0] * inv_unit, (double)s->size[1] * inv_unit,
                   (double)s->size[2] * inv_unit, NULL, NULL, NULL, 0, inv_unit };
    if (s->kind == GJKB_HULL) {
        const gjkb__hull *h = &ctx->hulls[s->hull];
        c.hx = ctx->hx + h->first;
        c.hy = ctx->hy + h->first;
        c.hz = ctx->hz + h->first;
        c.count = h->n;
    }
    return c;
}

/* Margin of the whole shape: the user's plus a sphere's or capsule's radius. */
static double total_margin(const gjkb_shape *s)
{
    double m = s->margin;
    if (s->kind == GJKB_SPHERE || s->kind == GJKB_CAPSULE)
        m += (double)s->size[0];
    return m;
}

/* Largest absolute component: a cheap length for picking a scale. */
static double max_abs(ref_vec v)
{
    return fmax(fabs(v.x), fmax(fabs(v.y), fabs(v.z)));
}

/* v / max|v_i|: the same direction with length in [1, sqrt 3], so that any
 * finite non-zero axis, however long or short, can be squared safely. */
static ref_vec tame(ref_vec v)
{
    double m = max_abs(v);
    return vec(v.x / m, v.y / m, v.z / m);
}

/* The first search axis v. It is not yet a point of D: GJK searches along
 * -v, from A toward B, because the closest point of D points from B to A.
 * The warm axis (world, A to B) when usable, else the centre offset, else
 * any fixed axis (coincident centres). */
static ref_vec start_axis(const ref_mat *rot_a, const double warm[3], ref_vec off)
{
    if (warm && isfinite(warm[0]) && isfinite(warm[1]) && isfinite(warm[2])) {
        ref_vec w = vec(warm[0], warm[1], warm[2]);
        if (max_abs(w) > 0.0)
            return neg(mul_t(rot_a, tame(w)));
    }
    if (max_abs(off) > 0.0)
        return neg(tame(off));
    return vec(1.0, 0.0, 0.0);
}

static gjkb_result nan_result(gjkb_status status, uint32_t iterations, double distance)
{
    return gjkb__ref_nan_result(status, iterations, distance);
}

/* Pose of B in A's frame, the solver unit, margins and limits. */
static ref_setup make_setup(const gjkb_context *ctx, const gjkb_shape *a, const gjkb_shape *b,
                            const gjkb__params *p)
{
    ref_setup su;
    su.rot_a = gjkb__ref_rotation(a->rot);
    ref_mat rot_b = gjkb__ref_rotation(b->rot);
    su.pos_a = vec(a->pos[0], a->pos[1], a->pos[2]);
    ref_vec off = mul_t(&su.rot_a, sub(vec(b->pos[0], b->pos[1], b->pos[2]), su.pos_a));
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            su.pr.rot.m[r][c] = su.rot_a.m[0][r] * rot_b.m[0][c] + su.rot_a.m[1][r] * rot_b.m[1][c] +
                                su.rot_a.m[2][r] * rot_b.m[2][c];

    /* Scale and solver unit: a power of two near the scale, or near the
     * offset for two bare points (scale 0); never so small that its inverse
     * overflows. */
    double margin_a = total_margin(a), margin_b = total_margin(b);
    double pair_scale = gjkb__core_radius(ctx, a) + margin_a + gjkb__core_radius(ctx, b) + margin_b;
    double basis = pair_scale > 0.0 ? pair_scale : max_abs(off);
    int exponent = basis > 0.0 ? ilogb(basis) : 0;
    if (exponent < DBL_MIN_EXP)
        exponent = DBL_MIN_EXP;
    su.unit = ldexp(1.0, exponent);
    su.inv_unit = ldexp(1.0, -exponent);
    su.pr.a = make_core(ctx, a, su.inv_unit);
    su.pr.b = make_core(ctx, b, su.inv_unit);
    su.pr.off = scale(off, su.inv_unit);
    su.margin_a = margin_a * su.inv_unit;
    su.margin_b = margin_b * su.inv_unit;
    su.tol = p->tolerance * pair_scale * su.inv_unit;
    su.max_dist = p->max_distance * su.inv_unit; /* +inf stays +inf */
    su.speculative = p->speculative;
    return su;
}

/* The tests on a new support point w before it joins the simplex, in
 * order: hit mode stops once a support plane proves a gap above
 * tolerance; convergence (w already known, or the bounds within REF_GAP);
 * distance mode stops once the gap is proven beyond max_distance.
 * STOP_LIMIT: none holds. Updates the lower bound. */
static ref_stop support_stop(ref_gjk *g, bool hit, double margins, double tol, double max_dist)
{
    double vv = dot(g->v, g->v), vlen = sqrt(vv);
    g->lower = fmax(g->lower, dot(g->v, g->w.y) / vlen);
    if (hit && g->lower - margins > tol)
        return STOP_APART;
    if (g->have_v) {
        /* w adds nothing new, or the gap between the bounds is closed. */
        double norm = sqrt(fmax(simplex_norm2(&g->simplex), dot(g->w.y, g->w.y)));
        if (simplex_has(&g->simplex, g->w.y) || vlen - g->lower <= REF_GAP * vlen + REF_NOISE * norm)
            return STOP_CONVERGED;
    }
    /* Beyond max_distance, but never inside the touching band: a
     * touching pair is not called separated by an early stop. */
    if (g->lower - margins > fmax(max_dist, tol))
        return STOP_BEYOND;
    return STOP_LIMIT;
}

/* GJK. Each iteration evaluates one support point w and then, in order:
 * hit mode stops once a support plane proves a gap above tolerance;
 * convergence (w already known, or the bounds within REF_GAP); distance
 * mode stops once the gap is proven beyond max_distance; w joins the
 * simplex, which shrinks to the feature closest to the origin; the
 * origin inside (or within rounding of) the simplex means contact;
 * a v no shorter than before means rounding has taken over; hit mode
 * stops once |v| proves contact within tolerance. */
static ref_gjk run_gjk(const ref_setup *su, const gjkb__params *p, ref_vec start)
{
    const ref_pair *pr = &su->pr;
    double margins = su->margin_a + su->margin_b, tol = su->tol, max_dist = su->max_dist;
    bool hit = p->mode == GJKB_HIT;
    ref_gjk g;
    g.v = start;
    g.have_v = false;    /* v is the closest point of the simplex */
    g.ca = g.cb = g.v;   /* core points of v, valid with have_v */
    g.simplex.n = 0;
    g.stop = STOP_LIMIT;
    g.w.y = g.w.pa = g.w.pb = g.v; /* last support point (set before any use) */
    g.lower = -INFINITY;           /* best lower bound proven by a support plane */
    uint32_t it = 0;
    while (it < p->ref_max_iterations) {
        g.w = pair_support(pr, neg(g.v));
        it++;
        double vv = dot(g.v, g.v);
        g.stop = support_stop(&g, hit, margins, tol, max_dist);
        if (g.stop != STOP_LIMIT)
            break;

        ref_simplex before = g.simplex;
        g.simplex.v[g.simplex.n++] = g.w;
        ref_closest c = simplex_closest(&g.simplex);
        if (c.inside || c.dist2 <= REF_ZERO * REF_ZERO * simplex_norm2(&g.simplex)) {
            g.stop = STOP_ENCLOSED;
            break;
        }
        if (g.have_v && !(c.dist2 < vv)) {
            /* No progress in double: rounding has the last word (a far w,
             * such as an edge's other end, can shrink |v|^2 by no more than
             * v's own rounding); keep the better v. */
            g.simplex = before;
            g.stop = STOP_CONVERGED;
            break;
        }
        simplex_reduce(&g.simplex, &c, &g.ca, &g.cb);
        g.v = c.p;
        g.have_v = true;
        if (hit && sqrt(c.dist2) - margins <= tol) {
            g.stop = STOP_TOUCHING;
            break;
        }
    }
    g.iterations = it;
    return g;
}

static gjkb_result hit_verdict(const ref_setup *su, const ref_gjk *g)
{
    uint32_t it = g->iterations;
    if (g->stop == STOP_ENCLOSED || g->stop == STOP_TOUCHING)
        return nan_result(GJKB_OVERLAP, it, 0.0);
    if (g->stop == STOP_APART)
        return nan_result(GJKB_SEPARATED, it, NAN);
    if (g->stop == STOP_LIMIT)
        return nan_result(GJKB_LIMIT, it, NAN);
    /* Converged: the estimate decides, as in distance mode. */
    return sqrt(dot(g->v, g->v)) - (su->margin_a + su->margin_b) <= su->tol ? nan_result(GJKB_OVERLAP, it, 0.0)
                                                                            : nan_result(GJKB_SEPARATED, it, NAN);
}

static gjkb_result distance_verdict(const ref_setup *su, const ref_gjk *g)
{
    uint32_t it = g->iterations;
    if (g->stop == STOP_ENCLOSED)
        return nan_result(GJKB_OVERLAP, it, 0.0);
    double margins = su->margin_a + su->margin_b, tol = su->tol;
    gjkb_status status;
    double dist, core_dist = sqrt(dot(g->v, g->v));
    ref_vec ca = g->ca, cb = g->cb;
    if (g->stop == STOP_BEYOND) {
        /* v proves the gap; when it is still the start axis, the support
         * points just found are the only estimate there is. */
        status = GJKB_SEPARATED;
        dist = g->lower - margins;
        if (!g->have_v) {
            ca = g->w.pa;
            cb = g->w.pb;
        }
    } else if (!g->have_v) {
        return nan_result(GJKB_LIMIT, it, NAN); /* no estimate at all */
    } else {
        dist = core_dist - margins;
        if (dist <= tol) {
            /* Touching or margins overlapping (the upper bound proves it even
             * at the iteration limit). Witnesses only while the cores are
             * apart: otherwise there is no axis. */
            if (core_dist <= tol)
                return nan_result(GJKB_OVERLAP, it, 0.0);
            status = GJKB_OVERLAP;
            dist = 0.0;
        } else {
            status = g->stop == STOP_LIMIT ? GJKB_LIMIT : GJKB_SEPARATED;
        }
    }
    return gjkb__ref_separated(su, g, status, dist, ca, cb);
}

gjkb_result gjkb__ref_query(const gjkb_context *ctx, const gjkb_shape *a, const gjkb_shape *b,
                            const gjkb__params *p, const double warm[3])
{
    ref_setup su = make_setup(ctx, a, b, p);
    ref_gjk g = run_gjk(&su, p, start_axis(&su.rot_a, warm, su.pr.off));
    if (p->mode == GJKB_HIT)
        return hit_verdict(&su, &g);
    if (p->mode == GJKB_CONTACT)
        return gjkb__ref_contact(&su, p, &g);
    return distance_verdict(&su, &g);
}
