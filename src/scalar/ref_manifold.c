/* ref_manifold.c - the reference's contact manifold: the supporting
 * features of A along n and of B along -n (ref_feature.c), projected along
 * n onto the plane perpendicular to it, clipped against each other there
 * (a point: the witnesses; two segments: their common stretch; a segment
 * and a polygon: Cyrus-Beck; two polygons: Sutherland-Hodgman of B's
 * against A's), lifted back onto each feature along n, filtered by
 * separation and reduced to at most GJKB_MAX_CONTACTS points: the deepest,
 * then those spanning the largest area. Each point keeps the pair of
 * features it comes from, which is what makes the keys stable. */
#include "scalar/ref_geom.h"

#include <float.h>

/* Lengths below this (solver units) are zero in the plane. */
#define M_EPS 1e-12
/* A polygon feature whose points leave its plane by more than this (solver
 * units) is not a face (a hull band across an edge): a point instead. */
#define M_PLANAR 1e-10
/* Sine of the largest tilt of a feature against the plane (the features'
 * own tolerance, and rounding). */
#define M_TILT (REF_FACE_SIN * (1.0 + 1e-9) + 1e-12)
/* The deepest clipped point may differ from the pair's distance by this
 * much (solver units) and be snapped to it; beyond, the witnesses replace
 * it. */
#define M_SNAP 1e-9
/* A rim polygon (a cylinder's cap, a cone's base) whose plane leans off
 * perpendicular to n by at most this sine is flat against it: its points
 * differ in depth by at most r M_RIM_FLAT (1 - cos(pi / 8)), M_RIM_GAP for
 * r up to 1 (solver units), and the deepest clipped point is snapped when
 * it is that near the distance. There EPA's witnesses can lie anywhere on
 * the flat rim; beyond, they are the true rim's one deepest point, or
 * the other shape's deepest point past the polygon's edge. */
#define M_RIM_FLAT 1e-5
#define M_RIM_GAP 8e-7
/* Two nearly parallel segments count as touching along the stretch where
 * their lines (in the plane perpendicular to n) are at most this far apart
 * (solver units, relative to the pair's scale): a point there lifted onto
 * each is off the other's surface by at most this, a tenth of the default
 * touching band. */
#define M_LATERAL 1e-7
/* A contact point adds to the manifold only when it is farther than
 * M_SPAN_DIST from the deepest, or adds more than M_SPAN_AREA of area
 * (solver units): closer points are one point for a solver, and clipping
 * near a vertex on an edge makes such near-twins. A twin of a point
 * taken is never taken. The wide kernel's
 * manifold (manifold_box.inl) keeps the same thresholds, so both answer
 * the same counts. */
#define M_SPAN_DIST 1e-6
#define M_SPAN_AREA 5e-11
/* ... and more than this fraction of the area so far (float lanes round
 * areas to about 1e-7 of their size). */
#define M_SPAN_SLACK 1e-5
/* At most this many clipped points: two convex polygons of up to
 * REF_FEATURE_MAX vertices meet in at most twice that. */
#define M_MAX_CANDS (2 * REF_FEATURE_MAX + 2)

/* A feature in the plane perpendicular to n. */
typedef struct m_poly {
    int n;
    double x[REF_FEATURE_MAX], y[REF_FEATURE_MAX];
    ref_vec p[REF_FEATURE_MAX]; /* A's frame */
    uint16_t id[REF_FEATURE_MAX];
    uint16_t key;
    gjkb_kind kind;
    ref_vec m; /* polygons: unit plane normal, m . x = c */
    double c;
} m_poly;

/* A clipped point: where in the plane, and its features on A and B. */
typedef struct m_cand {
    double x, y;
    uint16_t ka, kb;
} m_cand;

typedef struct m_plane {
    ref_vec n, u, v;
} m_plane;

static m_plane plane_of(ref_vec n)
{
    m_plane pl;
    pl.n = n;
    ref_vec ax = fabs(n.x) <= fabs(n.y) && fabs(n.x) <= fabs(n.z) ? vec(1, 0, 0)
                 : fabs(n.y) <= fabs(n.z)                         ? vec(0, 1, 0)
                                                                  : vec(0, 0, 1);
    pl.u = cross(n, ax);
    pl.u = scale(pl.u, 1.0 / length(pl.u));
    pl.v = cross(n, pl.u);
    return pl;
}

static double cross2(double ax, double ay, double bx, double by) { return ax * by - ay * bx; }

static uint16_t vertex_key(const m_poly *f, int i) { return ref_key(REF_VERTEX, f->id[i]); }

static uint16_t edge_key(const m_poly *f, int i)
{
    if (f->n == 2)
        return f->key;
    return gjkb__ref_edge_key(f->kind, f->id[i], f->id[(i + 1) % f->n]);
}

/* Keeps point i of f at position k. */
static void keep_point(m_poly *f, int k, int i)
{
    f->x[k] = f->x[i], f->y[k] = f->y[i], f->p[k] = f->p[i], f->id[k] = f->id[i];
}

/* The points' convex hull in the plane, counter-clockwise (Andrew's
 * monotone chain), without repeated or collinear points. */
static void hull2d(m_poly *f)
{
    int n = f->n, order[REF_FEATURE_MAX], h[2 * REF_FEATURE_MAX + 1], k = 0, lower_end = 2;
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && (f->x[order[j - 1]] > f->x[i] || (f->x[order[j - 1]] == f->x[i] && f->y[order[j - 1]] > f->y[i]))) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    if (n < 2) {
        f->n = n > 0 ? n : 1;
        return;
    }
    /* lower chain left to right, then upper chain right to left */
    for (int t = 0; t < 2 * n - 1; t++) {
        int i = order[t < n ? t : 2 * n - 2 - t];
        while (k >= (t < n ? 2 : lower_end)) {
            int o = h[k - 2], a = h[k - 1];
            double ax = f->x[a] - f->x[o], ay = f->y[a] - f->y[o], bx = f->x[i] - f->x[o], by = f->y[i] - f->y[o];
            if (cross2(ax, ay, bx, by) > M_EPS * (gjkb__ref_hypot(ax, ay) + gjkb__ref_hypot(bx, by)))
                break;
            k--;
        }
        h[k++] = i;
        if (t == n - 1)
            lower_end = k + 1;
    }
    k--; /* the first point closes the upper chain */
    m_poly g = *f;
    int out = 0;
    for (int t = 0; t < k; t++) {
        int i = h[t];
        if (out > 0 && gjkb__ref_hypot(g.x[i] - f->x[out - 1], g.y[i] - f->y[out - 1]) <= M_EPS)
            continue;
        f->x[out] = g.x[i], f->y[out] = g.y[i], f->p[out] = g.p[i], f->id[out] = g.id[i];
        out++;
    }
    if (out > 1 && gjkb__ref_hypot(f->x[out - 1] - f->x[0], f->y[out - 1] - f->y[0]) <= M_EPS)
        out--;
    f->n = out > 0 ? out : 1;
}

/* The point of f deepest into the other shape: farthest along dir. */
static void to_deepest_point(m_poly *f, ref_vec dir)
{
    int best = 0;
    for (int i = 1; i < f->n; i++)
        if (dot(f->p[i], dir) > dot(f->p[best], dir))
            best = i;
    keep_point(f, 0, best);
    f->n = 1;
    f->key = vertex_key(f, 0);
}

/* A polygon's plane (Newell's normal); false when its points leave it or,
 * unless any tilt is taken, it is tilted against the plane by more than the
 * tolerance angle. */
static bool polygon_plane(m_poly *f, ref_vec n, bool any_tilt)
{
    ref_vec m = vec(0.0, 0.0, 0.0), c = vec(0.0, 0.0, 0.0);
    for (int i = 0; i < f->n; i++)
        c = add(c, f->p[i]);
    c = scale(c, 1.0 / f->n);
    for (int i = 0; i < f->n; i++)
        m = add(m, cross(sub(f->p[i], c), sub(f->p[(i + 1) % f->n], c)));
    double len = length(m);
    if (!(len > 0.0))
        return false;
    f->m = scale(m, 1.0 / len);
    f->c = dot(f->m, c);
    for (int i = 0; i < f->n; i++)
        if (fabs(dot(f->m, f->p[i]) - f->c) > M_PLANAR)
            return false;
    return any_tilt || length(cross(f->m, n)) <= M_TILT;
}

/* A segment feature perpendicular to n within the tolerance angle. */
static bool segment_across(const m_poly *f, ref_vec n)
{
    ref_vec e = sub(f->p[1], f->p[0]);
    return fabs(dot(e, n)) <= M_TILT * length(e);
}

/* The feature of one side in the plane: A along n, or B along -n (its
 * points moved into A's frame), by the side's rule. dir: the way into the
 * other shape. */
static m_poly project(const ref_pair *pr, const m_plane *pl, bool is_b, ref_feature_rule rule)
{
    ref_vec dir = is_b ? neg(pl->n) : pl->n;
    ref_feature rf = is_b ? gjkb__ref_feature(&pr->b, mul_t(&pr->rot, dir), rule)
                          : gjkb__ref_feature(&pr->a, dir, rule);
    m_poly f;
    f.n = rf.n;
    f.key = rf.key;
    f.kind = is_b ? pr->b.kind : pr->a.kind;
    for (int i = 0; i < rf.n; i++) {
        f.p[i] = is_b ? add(mul(&pr->rot, rf.p[i]), pr->off) : rf.p[i];
        f.id[i] = rf.id[i];
        f.x[i] = dot(f.p[i], pl->u);
        f.y[i] = dot(f.p[i], pl->v);
    }
    hull2d(&f);
    /* A hull's band may hold the level line of a steeper face: only faces
     * and edges within the tolerance angle count, or the aligned ones the
     * rule chose at their tilt. */
    if ((f.n >= 3 && !polygon_plane(&f, pl->n, rf.aligned)) ||
        (f.n == 2 && !rf.aligned && !segment_across(&f, pl->n)))
        to_deepest_point(&f, dir);
    return f;
}

static m_cand cand(double x, double y, uint16_t ka, uint16_t kb)
{
    m_cand c = { x, y, ka, kb };
    return c;
}

/* The part [*lo, *hi] of A's line (parameter t, unit speed) where B's
 * line, at signed lateral offset o0 over t0 and o1 over t1, stays within
 * M_LATERAL of it: only there does a point of A's line lie over B's line,
 * so that its lift onto B is the point of B along n. */
static void near_stretch(double t0, double o0, double t1, double o1, double *lo, double *hi)
{
    double slope = t1 != t0 ? (o1 - o0) / (t1 - t0) : 0.0;
    if (fabs(slope) * (*hi - *lo) <= M_EPS)
        return; /* parallel within rounding: the offset is o0 throughout */
    /* offset(t) = o0 + slope (t - t0) within [-M_LATERAL, M_LATERAL] */
    double ta = t0 + (-M_LATERAL - o0) / slope, tb = t0 + (M_LATERAL - o0) / slope;
    *lo = fmax(*lo, fmin(ta, tb));
    *hi = fmin(*hi, fmax(ta, tb));
}

/* Two segments: their common stretch when parallel in the plane (the
 * ends, each the vertex of the segment it comes from against the other's
 * edge, or the two edges where the lines part), else none (the witnesses
 * stand for the crossing). Nearly parallel lines part: the stretch ends
 * where they are M_LATERAL apart, since a point of A's line farther from
 * B's has no point of B along n (B's point would be off B). */
static int clip_segments(const m_poly *a, const m_poly *b, m_cand *out)
{
    double dx = a->x[1] - a->x[0], dy = a->y[1] - a->y[0], la = gjkb__ref_hypot(dx, dy);
    double ex = b->x[1] - b->x[0], ey = b->y[1] - b->y[0], lb = gjkb__ref_hypot(ex, ey);
    if (fabs(cross2(dx, dy, ex, ey)) > REF_FACE_SIN * la * lb)
        return 0;
    dx /= la, dy /= la;
    double rx0 = b->x[0] - a->x[0], ry0 = b->y[0] - a->y[0], rx1 = b->x[1] - a->x[0], ry1 = b->y[1] - a->y[0];
    double t0 = rx0 * dx + ry0 * dy, t1 = rx1 * dx + ry1 * dy;
    int bl = t0 <= t1 ? 0 : 1; /* B's end nearer A's start */
    double blo = fmin(t0, t1), bhi = fmax(t0, t1);
    double lo = fmax(0.0, blo), hi = fmin(la, bhi);
    near_stretch(t0, cross2(dx, dy, rx0, ry0), t1, cross2(dx, dy, rx1, ry1), &lo, &hi);
    if (hi < lo)
        return 0;
    /* an end is A's vertex, else B's vertex, else where the lines part */
    uint16_t klo_a = lo == 0.0 ? vertex_key(a, 0) : a->key, klo_b = lo == 0.0 || lo != blo ? b->key : vertex_key(b, bl);
    uint16_t khi_a = hi == la ? vertex_key(a, 1) : a->key, khi_b = hi == la || hi != bhi ? b->key : vertex_key(b, 1 - bl);
    out[0] = cand(a->x[0] + lo * dx, a->y[0] + lo * dy, klo_a, klo_b);
    if (hi - lo <= M_EPS)
        return 1;
    out[1] = cand(a->x[0] + hi * dx, a->y[0] + hi * dy, khi_a, khi_b);
    return 2;
}

/* A segment s against a polygon p (Cyrus-Beck): the stretch of s inside
 * p, its ends each s's vertex or edge against p's face or edge. */
static int clip_segment_polygon(const m_poly *s, const m_poly *p, bool s_is_a, m_cand *out)
{
    double tmin = 0.0, tmax = 1.0;
    int emin = -1, emax = -1;
    for (int j = 0; j < p->n; j++) {
        int k = (j + 1) % p->n;
        double ex = p->x[k] - p->x[j], ey = p->y[k] - p->y[j];
        double f0 = cross2(ex, ey, s->x[0] - p->x[j], s->y[0] - p->y[j]);
        double f1 = cross2(ex, ey, s->x[1] - p->x[j], s->y[1] - p->y[j]);
        if (f0 < 0.0 && f1 < 0.0)
            return 0;
        if (f0 < 0.0 && f0 / (f0 - f1) > tmin)
            tmin = f0 / (f0 - f1), emin = j;
        else if (f1 < 0.0 && f0 / (f0 - f1) < tmax)
            tmax = f0 / (f0 - f1), emax = j;
    }
    if (tmax < tmin)
        return 0;
    int count = 0;
    double t[2] = { tmin, tmax };
    int e[2] = { emin, emax };
    for (int i = 0; i < 2; i++) {
        if (i == 1 && (tmax - tmin) * gjkb__ref_hypot(s->x[1] - s->x[0], s->y[1] - s->y[0]) <= M_EPS)
            break;
        uint16_t ks = e[i] < 0 ? vertex_key(s, i) : s->key, kp = e[i] < 0 ? p->key : edge_key(p, e[i]);
        double x = s->x[0] + t[i] * (s->x[1] - s->x[0]), y = s->y[0] + t[i] * (s->y[1] - s->y[0]);
        out[count++] = s_is_a ? cand(x, y, ks, kp) : cand(x, y, kp, ks);
    }
    return count;
}

/* A vertex of the polygon being clipped, with the edge leaving it: B's
 * edge e (e >= 0) or A's edge j (e = -1 - j), which names crossings. */
typedef struct sh_vertex {
    m_cand c;
    int edge;
} sh_vertex;

/* Key on A of the crossing of A's edge j with the clipped edge labelled
 * edge (B's edge: A's edge j; A's edge k: their common vertex). */
static void crossing_keys(const m_poly *a, const m_poly *b, int j, int edge, m_cand *x)
{
    if (edge >= 0) {
        x->ka = edge_key(a, j);
        x->kb = edge_key(b, edge);
        return;
    }
    int k = -1 - edge, v = (k + 1) % a->n == j ? j : (j + 1) % a->n == k ? k : j;
    x->ka = vertex_key(a, v);
    x->kb = b->key;
}

/* One Sutherland-Hodgman step: the part of in[0..n) left of A's edge j. */
static int clip_edge(const m_poly *a, const m_poly *b, int j, const sh_vertex *in, int n, sh_vertex *out)
{
    int k = (j + 1) % a->n, count = 0;
    double ex = a->x[k] - a->x[j], ey = a->y[k] - a->y[j], slack = -M_EPS * gjkb__ref_hypot(ex, ey);
    for (int i = 0; i < n && count < M_MAX_CANDS - 1; i++) {
        const sh_vertex *cur = &in[i], *next = &in[(i + 1) % n];
        double fc = cross2(ex, ey, cur->c.x - a->x[j], cur->c.y - a->y[j]);
        double fn = cross2(ex, ey, next->c.x - a->x[j], next->c.y - a->y[j]);
        bool cin = fc >= slack, nin = fn >= slack;
        if (cin)
            out[count++] = *cur;
        if (cin != nin) {
            double t = fc / (fc - fn);
            sh_vertex x;
            x.c.x = cur->c.x + t * (next->c.x - cur->c.x);
            x.c.y = cur->c.y + t * (next->c.y - cur->c.y);
            crossing_keys(a, b, j, cur->edge, &x.c);
            x.edge = cin ? -1 - j : cur->edge;
            out[count++] = x;
        }
    }
    return count;
}

/* B's polygon clipped by A's (both counter-clockwise): their common
 * polygon, each corner a vertex of one against the other's face, or a
 * crossing of two edges. */
static int clip_polygons(const m_poly *a, const m_poly *b, m_cand *out)
{
    sh_vertex buf[2][M_MAX_CANDS];
    int n = b->n, cur = 0;
    for (int i = 0; i < n; i++) {
        buf[0][i].c = cand(b->x[i], b->y[i], a->key, vertex_key(b, i));
        buf[0][i].edge = i;
    }
    for (int j = 0; j < a->n && n > 0; j++) {
        n = clip_edge(a, b, j, buf[cur], n, buf[1 - cur]);
        cur = 1 - cur;
    }
    for (int i = 0; i < n; i++)
        out[i] = buf[cur][i].c;
    return n;
}

/* The point of feature f over (x, y) of the plane, along n. */
static ref_vec lift(const m_poly *f, const m_plane *pl, double x, double y)
{
    if (f->n == 1)
        return f->p[0];
    if (f->n == 2) {
        double dx = f->x[1] - f->x[0], dy = f->y[1] - f->y[0], ll = dx * dx + dy * dy;
        double s = ll > 0.0 ? ((x - f->x[0]) * dx + (y - f->y[0]) * dy) / ll : 0.0;
        return madd(f->p[0], sub(f->p[1], f->p[0]), fmin(fmax(s, 0.0), 1.0));
    }
    ref_vec base = add(scale(pl->u, x), scale(pl->v, y));
    return madd(base, pl->n, (f->c - dot(f->m, base)) / dot(f->m, pl->n));
}

/* Area of the convex hull of up to four points of the plane. */
static double hull_area(const m_cand *c, const int *pick, int n)
{
    if (n < 3)
        return 0.0;
    double best = 0.0;
    static const int orders[3][4] = { { 0, 1, 2, 3 }, { 0, 1, 3, 2 }, { 0, 3, 1, 2 } };
    for (int o = 0; o < (n == 4 ? 3 : 1); o++) {
        double s = 0.0;
        for (int k = 0; k < n; k++) {
            const m_cand *p = &c[pick[orders[o][k]]], *q = &c[pick[orders[o][(k + 1) % n]]];
            s += cross2(p->x, p->y, q->x, q->y);
        }
        best = fmax(best, 0.5 * fabs(s));
    }
    /* a point inside the triangle: the triangle */
    for (int skip = 0; n == 4 && skip < 4; skip++) {
        int t[3], m = 0;
        for (int k = 0; k < 4; k++)
            if (k != skip)
                t[m++] = pick[k];
        best = fmax(best, hull_area(c, t, 3));
    }
    return best;
}

/* After the deepest (pick[0]), greedily the point that most enlarges the
 * chosen points' span: the farthest, then the largest area. */
/* Whether candidate i is within M_SPAN_DIST of a point picked. */
static bool twin(const m_cand *c, const int *pick, int count, int i)
{
    for (int k = 0; k < count; k++)
        if (gjkb__ref_hypot(c[i].x - c[pick[k]].x, c[i].y - c[pick[k]].y) <= M_SPAN_DIST)
            return true;
    return false;
}

static int spread(const m_cand *c, int n, int pick[GJKB_MAX_CONTACTS])
{
    int count = 1;
    while (count < GJKB_MAX_CONTACTS) {
        int best = -1;
        double area = hull_area(c, pick, count);
        double best_score = count == 1 ? M_SPAN_DIST : area + fmax(M_SPAN_AREA, M_SPAN_SLACK * area);
        for (int i = 0; i < n; i++) {
            if (twin(c, pick, count, i))
                continue;
            pick[count] = i;
            double score = count == 1 ? gjkb__ref_hypot(c[i].x - c[pick[0]].x, c[i].y - c[pick[0]].y)
                                      : hull_area(c, pick, count + 1);
            if (score > best_score)
                best_score = score, best = i;
        }
        if (best < 0)
            break;
        pick[count++] = best;
    }
    return count;
}

/* The clipped points of the two features (none when either is a point). */
static int clip_features(const m_poly *fa, const m_poly *fb, m_cand *c)
{
    if (fa->n < 2 || fb->n < 2)
        return 0;
    if (fa->n == 2 && fb->n == 2)
        return clip_segments(fa, fb, c);
    if (fa->n == 2)
        return clip_segment_polygon(fa, fb, true, c);
    if (fb->n == 2)
        return clip_segment_polygon(fb, fa, false, c);
    return clip_polygons(fa, fb, c);
}

/* Lifts the candidates onto both features and keeps those at most 'limit'
 * apart along n; returns how many stay (compacted in c and pts). */
static int lift_and_keep(const ref_setup *su, const m_plane *pl, const m_poly *fa, const m_poly *fb, m_cand *c,
                         int nc, double dist, double keep, ref_contact_point *pts)
{
    ref_contact_point all[M_MAX_CANDS];
    for (int i = 0; i < nc; i++) {
        ref_vec la = lift(fa, pl, c[i].x, c[i].y), lb = lift(fb, pl, c[i].x, c[i].y);
        ref_contact_point *p = &all[i];
        p->sep = dot(sub(lb, la), pl->n) - su->margin_a - su->margin_b;
        p->a = madd(la, pl->n, su->margin_a);
        p->b = madd(p->a, pl->n, p->sep);
        p->feature = (uint32_t)c[i].ka << 16 | c[i].kb;
    }
    /* The manifold's extent: its points' largest spread (not the spread
     * from the deepest, which depends on which of two equally deep points
     * is taken). Faces within the tolerance angle may rise that much. */
    double extent = 0.0;
    for (int i = 0; i < nc; i++)
        for (int j = i + 1; j < nc; j++) {
            double d = gjkb__ref_hypot(c[i].x - c[j].x, c[i].y - c[j].y);
            if (d > extent)
                extent = d;
        }
    double limit = fmax(keep, dist + REF_FACE_SIN * extent + M_SNAP);
    int kept = 0;
    for (int i = 0; i < nc; i++) {
        if (!(all[i].sep <= limit))
            continue;
        pts[kept] = all[i];
        c[kept++] = c[i];
    }
    return kept;
}

static bool rim_polygon(const m_poly *f)
{
    return (f->kind == GJKB_CYLINDER || f->kind == GJKB_CONE) && f->n >= 3;
}

/* Not a rim polygon, or one flat against n (M_RIM_FLAT). */
static bool rim_flat(const m_poly *f, ref_vec n)
{
    return !rim_polygon(f) || length(cross(f->m, n)) <= M_RIM_FLAT;
}

int gjkb__ref_manifold(const ref_setup *su, ref_vec n, double dist, ref_vec a, ref_vec b, double keep,
                       ref_contact_point out[GJKB_MAX_CONTACTS])
{
    m_plane pl = plane_of(n);
    /* the faces most aligned with n: the separation filter decides */
    m_poly fa = project(&su->pr, &pl, false, gjkb__ref_aligned_rule(su->margin_a, su->tol));
    m_poly fb = project(&su->pr, &pl, true, gjkb__ref_aligned_rule(su->margin_b, su->tol));
    m_cand c[M_MAX_CANDS];
    ref_contact_point pts[M_MAX_CANDS];
    int nc = lift_and_keep(su, &pl, &fa, &fb, c, clip_features(&fa, &fb, c), dist, keep, pts);
    if (nc == 0) {
        /* a point feature, or nothing left: the witnesses */
        c[0] = cand(dot(a, pl.u), dot(a, pl.v), fa.key, fb.key);
        pts[0].a = a, pts[0].b = b, pts[0].sep = dist;
        pts[0].feature = (uint32_t)fa.key << 16 | fb.key;
        nc = 1;
    }
    int deep = 0;
    for (int i = 1; i < nc; i++)
        if (pts[i].sep < pts[deep].sep)
            deep = i;
    /* The deepest is at the pair's distance by construction: snapped to it,
     * or replaced by the witnesses (keeping its features) when the clipped
     * point misses the deepest spot (an inscribed rim polygon's). */
    ref_contact_point *d = &pts[deep];
    bool flat = (rim_polygon(&fa) || rim_polygon(&fb)) && rim_flat(&fa, n) && rim_flat(&fb, n);
    double gap = fabs(d->sep - dist);
    if (!(gap <= M_SNAP || (flat && gap <= M_RIM_GAP))) {
        d->a = a;
        c[deep].x = dot(a, pl.u), c[deep].y = dot(a, pl.v);
    }
    d->sep = dist;
    d->b = madd(d->a, n, dist);
    /* none deeper than the deepest: along a normal off by a rounding, a
     * point of the same side may measure a little below it */
    for (int i = 0; i < nc; i++)
        if (pts[i].sep < dist)
            pts[i].sep = dist, pts[i].b = madd(pts[i].a, n, dist);
    int pick[GJKB_MAX_CONTACTS] = { deep };
    int count = spread(c, nc, pick);
    for (int k = 0; k < count; k++)
        out[k] = pts[pick[k]];
    return count;
}

bool gjkb__ref_witness(const ref_pair *pr, ref_vec n, ref_vec *pa, ref_vec *pb)
{
    m_plane pl = plane_of(n);
    /* strict features: every point nearly as deep as the support, so any
     * point of their overlap is a witness */
    ref_feature_rule strict = { false, 1.0 };
    m_poly fa = project(pr, &pl, false, strict), fb = project(pr, &pl, true, strict);
    double x, y;
    if (fa.n == 1 || fb.n == 1) {
        const m_poly *pt = fa.n == 1 ? &fa : &fb;
        x = pt->x[0], y = pt->y[0];
    } else {
        /* the centre of the clipped points: inside both features */
        m_cand c[M_MAX_CANDS];
        int nc = clip_features(&fa, &fb, c);
        if (nc == 0)
            return false;
        x = y = 0.0;
        for (int i = 0; i < nc; i++)
            x += c[i].x / nc, y += c[i].y / nc;
    }
    *pa = lift(&fa, &pl, x, y);
    *pb = lift(&fb, &pl, x, y);
    return true;
}
