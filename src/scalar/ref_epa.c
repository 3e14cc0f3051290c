/* ref_epa.c - the reference's penetration depth: the expanding polytope
 * algorithm (EPA) in double on D = coreA - coreB, from GJK's final simplex.
 *
 * When the origin is in D, the depth of the cores is the distance from the
 * origin to D's boundary, min over unit u of h(u) = max over x in D of u.x.
 * EPA keeps a polytope P inside D (convex hulls of support points) that
 * holds the origin: its nearest face's distance d is a lower bound and
 * h(u) along that face's normal an upper bound. Each step adds the support
 * point along the nearest face's normal, which removes the faces it sees
 * and closes the hole with a fan. It stops when the bounds meet.
 *
 * GJK may end on a point, segment or triangle (the origin on a vertex,
 * edge or face of its simplex: mujoco_warp#1526); the simplex is then
 * grown to a tetrahedron by supports off its span. When no support leaves
 * that span, D itself is flat and the depth of the cores is 0 along the
 * span's normal. */
#include "scalar/ref_geom.h"

#include <float.h>
#include <string.h>

/* Polytope budget: every loop below is bounded by these. */
#define EPA_MAX_VERTS 512
#define EPA_MAX_FACES 4096
/* Faces one new point may see at most (the fan closing the hole). */
#define EPA_MAX_FAN 256
/* Converged when upper - lower bound is at most this (solver units, that
 * is relative to the pair's scale). */
#define EPA_GAP 1e-10
/* A support point this close (solver units) to the simplex's span adds no
 * dimension: D is flat in that direction. */
#define EPA_FLAT 1e-12

typedef struct epa_face {
    int v[3];     /* vertices, counter-clockwise seen from outside */
    int adj[3];   /* face across edge k = (v[k], v[k+1]) */
    ref_vec n;    /* outward unit normal */
    double d;     /* n . v: distance of the plane from the origin */
    bool live;
} epa_face;

typedef struct epa_poly {
    ref_vertex v[EPA_MAX_VERTS];
    epa_face f[EPA_MAX_FACES];
    int nv, nf;
    /* each face's d, +inf once it is gone: the nearest face is a scan of
     * one dense array (a heap's sifts cost more in branches) */
    double d[EPA_MAX_FACES];
    /* faces a new point sees: seen[f] == stamp */
    unsigned seen[EPA_MAX_FACES], stamp;
} epa_poly;

/* The plane of triangle a-b-c; false when it has no area. */
static bool face_plane(const epa_poly *P, int a, int b, int c, epa_face *f)
{
    ref_vec ya = P->v[a].y, yb = P->v[b].y, yc = P->v[c].y;
    ref_vec n = cross(sub(yb, ya), sub(yc, ya));
    double len = length(n);
    if (!(len > 0.0) || !isfinite(len))
        return false;
    f->n = scale(n, 1.0 / len);
    f->d = (dot(f->n, ya) + dot(f->n, yb) + dot(f->n, yc)) / 3.0;
    f->v[0] = a, f->v[1] = b, f->v[2] = c;
    f->live = true;
    return true;
}

/* A unit vector perpendicular to u (u non-zero), the same for the same u. */
static ref_vec any_perpendicular(ref_vec u)
{
    ref_vec ax = fabs(u.x) <= fabs(u.y) && fabs(u.x) <= fabs(u.z) ? vec(1, 0, 0)
                 : fabs(u.y) <= fabs(u.z)                         ? vec(0, 1, 0)
                                                                  : vec(0, 0, 1);
    ref_vec p = cross(u, ax);
    return scale(p, 1.0 / length(p));
}

/* Distance of y from the line through a with unit direction e. */
static double line_distance(ref_vec y, ref_vec a, ref_vec e)
{
    ref_vec r = sub(y, a);
    return length(sub(r, scale(e, dot(r, e))));
}

/* Of the supports along dirs, the one farthest from the span of the
 * simplex (measured by dist_of); its distance through *best. */
typedef double (*epa_measure)(const ref_vertex *s, ref_vec y);

static double measure_line(const ref_vertex *s, ref_vec y)
{
    ref_vec e = sub(s[1].y, s[0].y);
    return line_distance(y, s[0].y, scale(e, 1.0 / length(e)));
}

static double measure_point(const ref_vertex *s, ref_vec y) { return length(sub(y, s[0].y)); }

static ref_vertex farthest_support(const ref_pair *pr, const ref_vertex *s, const ref_vec *dirs, int ndirs,
                                   epa_measure m, double *best, uint32_t *it)
{
    ref_vertex pick = s[0];
    *best = -1.0;
    for (int k = 0; k < ndirs; k++) {
        ref_vertex w = pair_support(pr, dirs[k]);
        (*it)++;
        double dist = m(s, w.y);
        if (dist > *best) {
            *best = dist;
            pick = w;
        }
    }
    return pick;
}

/* Core points of the point of simplex s (n = 1..3 vertices) nearest to p,
 * by clamped barycentric weights: the witnesses of a face or a flat D. */
static void simplex_witness(const ref_vertex *s, int n, ref_vec p, ref_vec *pa, ref_vec *pb)
{
    double w[3] = { 1.0, 0.0, 0.0 };
    if (n == 2) {
        ref_vec e = sub(s[1].y, s[0].y);
        double ee = dot(e, e), t = ee > 0.0 ? dot(sub(p, s[0].y), e) / ee : 0.0;
        t = fmin(fmax(t, 0.0), 1.0);
        w[0] = 1.0 - t, w[1] = t;
    } else if (n == 3) {
        ref_vec m = cross(sub(s[1].y, s[0].y), sub(s[2].y, s[0].y));
        double mm = dot(m, m), sum = 0.0;
        for (int k = 0; k < 3 && mm > 0.0; k++) {
            ref_vec yb = s[(k + 1) % 3].y, yc = s[(k + 2) % 3].y;
            w[k] = fmax(dot(cross(sub(yb, p), sub(yc, p)), m) / mm, 0.0);
            sum += w[k];
        }
        for (int k = 0; k < 3; k++)
            w[k] = sum > 0.0 ? w[k] / sum : (k == 0);
    }
    *pa = *pb = vec(0.0, 0.0, 0.0);
    for (int k = 0; k < n; k++) {
        *pa = madd(*pa, s[k].pa, w[k]);
        *pb = madd(*pb, s[k].pb, w[k]);
    }
}

/* Drops vertices equal (within EPA_FLAT) to an earlier one. */
static int dedupe(ref_vertex *s, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        bool dup = false;
        for (int j = 0; j < kept && !dup; j++)
            dup = length(sub(s[i].y, s[j].y)) <= EPA_FLAT;
        if (!dup)
            s[kept++] = s[i];
    }
    return kept;
}

/* A flat tetrahedron becomes its largest face, a needle triangle its
 * longest edge: the growth below then looks for the missing dimension. */
static int drop_flat(ref_vertex *s, int n)
{
    if (n == 4) {
        static const int tri[4][3] = { { 0, 1, 2 }, { 0, 1, 3 }, { 0, 2, 3 }, { 1, 2, 3 } };
        double best = -1.0, vol = fabs(dot(cross(sub(s[1].y, s[0].y), sub(s[2].y, s[0].y)), sub(s[3].y, s[0].y)));
        int pick = 0;
        for (int t = 0; t < 4; t++) {
            const int *f = tri[t];
            double area2 = length(cross(sub(s[f[1]].y, s[f[0]].y), sub(s[f[2]].y, s[f[0]].y)));
            if (area2 > best)
                best = area2, pick = t;
        }
        if (best > 0.0 && vol / best > EPA_FLAT)
            return 4;
        ref_vertex t3[3] = { s[tri[pick][0]], s[tri[pick][1]], s[tri[pick][2]] };
        s[0] = t3[0], s[1] = t3[1], s[2] = t3[2];
        n = 3;
    }
    if (n == 3) {
        double area2 = length(cross(sub(s[1].y, s[0].y), sub(s[2].y, s[0].y)));
        int i = 0, j = 1;
        double longest = -1.0;
        for (int a = 0; a < 3; a++)
            for (int b = a + 1; b < 3; b++) {
                double l = length(sub(s[b].y, s[a].y));
                if (l > longest)
                    longest = l, i = a, j = b;
            }
        if (longest > 0.0 && area2 / longest > EPA_FLAT)
            return 3;
        ref_vertex e0 = s[i], e1 = s[j];
        s[0] = e0, s[1] = e1;
        n = 2;
    }
    return n;
}

/* Grows the simplex s (1 to 4 vertices) to a solid tetrahedron by
 * supports off its span. Returns its vertex count: 4, or fewer when D has
 * no extent off the span, with *flat a unit normal of the span (zero for a
 * point). */
static int grow(const ref_pair *pr, ref_vertex s[4], int n, ref_vec *flat, uint32_t *it)
{
    double best;
    *flat = vec(0.0, 0.0, 0.0);
    n = drop_flat(s, dedupe(s, n));
    if (n == 1) {
        static const ref_vec axes[6] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
        ref_vertex w = farthest_support(pr, s, axes, 6, measure_point, &best, it);
        if (!(best > EPA_FLAT))
            return 1;
        s[n++] = w;
    }
    if (n == 2) {
        ref_vec e = sub(s[1].y, s[0].y);
        e = scale(e, 1.0 / length(e));
        ref_vec p1 = any_perpendicular(e), p2 = cross(e, p1), dirs[6];
        for (int k = 0; k < 6; k++) /* every 60 degrees about the segment */
            dirs[k] = add(scale(p1, cos(k * (1.04719755119659774615))), scale(p2, sin(k * (1.04719755119659774615))));
        ref_vertex w = farthest_support(pr, s, dirs, 6, measure_line, &best, it);
        if (!(best > EPA_FLAT)) {
            *flat = p1;
            return 2;
        }
        s[n++] = w;
    }
    if (n == 3) {
        ref_vec m = cross(sub(s[1].y, s[0].y), sub(s[2].y, s[0].y));
        m = scale(m, 1.0 / length(m));
        ref_vertex up = pair_support(pr, m), down = pair_support(pr, neg(m));
        *it += 2;
        double hu = dot(sub(up.y, s[0].y), m), hd = -dot(sub(down.y, s[0].y), m);
        if (!(fmax(hu, hd) > EPA_FLAT)) {
            *flat = m;
            return 3;
        }
        s[n++] = hu >= hd ? up : down;
        *flat = vec(0.0, 0.0, 0.0);
    }
    return 4;
}

/* Face f's neighbour across the edge from a to b: the face holding the
 * edge b to a, found by search (only for the four starting faces). */
static void link_start(epa_poly *P)
{
    for (int f = 0; f < P->nf; f++)
        for (int k = 0; k < 3; k++) {
            int a = P->f[f].v[k], b = P->f[f].v[(k + 1) % 3];
            for (int g = 0; g < P->nf; g++)
                for (int j = 0; j < 3; j++)
                    if (P->f[g].v[j] == b && P->f[g].v[(j + 1) % 3] == a)
                        P->f[f].adj[k] = g;
        }
}

/* The tetrahedron s as a polytope with outward faces; false when a face
 * has no plane. */
static bool poly_start(epa_poly *P, const ref_vertex s[4])
{
    static const int tri[4][4] = { { 0, 1, 2, 3 }, { 0, 3, 1, 2 }, { 0, 2, 3, 1 }, { 1, 3, 2, 0 } };
    for (int i = 0; i < 4; i++)
        P->v[i] = s[i];
    P->nv = 4;
    P->nf = 4;
    for (int t = 0; t < 4; t++) {
        int a = tri[t][0], b = tri[t][1], c = tri[t][2], opp = tri[t][3];
        /* Outward: away from the opposite vertex. */
        ref_vec n = cross(sub(s[b].y, s[a].y), sub(s[c].y, s[a].y));
        if (dot(n, sub(s[opp].y, s[a].y)) > 0.0) {
            int tmp = b;
            b = c, c = tmp;
        }
        if (!face_plane(P, a, b, c, &P->f[t]))
            return false;
        P->d[t] = P->f[t].d;
    }
    link_start(P);
    return true;
}

/* The live face nearest the origin (the first on a tie), -1 for none:
 * the least d, then the first face holding it. Eight running minima keep
 * the scan off one long chain of dependent compares. Out of line: inlined
 * into gjkb__ref_epa, the thread-local polytope's address was worked out
 * again for every face. */
#define EPA_SCAN 8
__attribute__((noinline)) static int nearest_face(const epa_poly *P)
{
    double m[EPA_SCAN];
    for (int k = 0; k < EPA_SCAN; k++)
        m[k] = INFINITY;
    int f = 0;
    for (; f + EPA_SCAN <= P->nf; f += EPA_SCAN)
        for (int k = 0; k < EPA_SCAN; k++)
            m[k] = P->d[f + k] < m[k] ? P->d[f + k] : m[k];
    for (; f < P->nf; f++)
        m[0] = P->d[f] < m[0] ? P->d[f] : m[0];
    double least = m[0];
    for (int k = 1; k < EPA_SCAN; k++)
        least = m[k] < least ? m[k] : least;
    if (!(least < INFINITY))
        return -1;
    for (f = 0; P->d[f] != least; f++)
        ;
    return f;
}

/* A new face of the fan from w to a horizon edge. */
typedef struct epa_new {
    epa_face face;
    int outside; /* the kept face across the horizon edge */
} epa_new;

/* The faces w sees, found by flooding from 'from' (which sees it), into
 * gone[0..*ngone) and their horizon edges to the fan list; returns the
 * fan's size, or -1 when out of budget or a fan face would have no plane. */
static int fan_of(epa_poly *P, int w, int from, int *gone, int *ngone, epa_new *fan)
{
    int stack[EPA_MAX_FACES], top = 0, nh = 0;
    ref_vec y = P->v[w].y;
    if (++P->stamp == 0) {
        memset(P->seen, 0, sizeof P->seen);
        P->stamp = 1;
    }
    P->seen[from] = P->stamp;
    gone[(*ngone)++] = from;
    stack[top++] = from;
    while (top > 0) {
        const epa_face *f = &P->f[stack[--top]];
        for (int k = 0; k < 3; k++) {
            int g = f->adj[k];
            if (P->seen[g] == P->stamp)
                continue;
            const epa_face *G = &P->f[g];
            if (dot(G->n, y) - G->d > 1e-14 * (1.0 + fabs(G->d))) {
                P->seen[g] = P->stamp;
                gone[(*ngone)++] = g;
                stack[top++] = g;
            } else {
                if (P->nf + nh >= EPA_MAX_FACES || nh >= EPA_MAX_FAN ||
                    !face_plane(P, f->v[k], f->v[(k + 1) % 3], w, &fan[nh].face))
                    return -1;
                fan[nh++].outside = g;
            }
        }
    }
    return nh;
}

/* Adds support point w, seen from face 'from': the faces it sees go, a fan
 * from w to their horizon closes the hole. False (nothing changed) when
 * out of budget or the horizon is not one simple loop. */
static bool poly_add(epa_poly *P, ref_vertex w, int from)
{
    if (P->nv >= EPA_MAX_VERTS)
        return false;
    int gone[EPA_MAX_FACES], ngone = 0;
    epa_new fan[EPA_MAX_FAN];
    P->v[P->nv] = w;
    int nh = fan_of(P, P->nv, from, gone, &ngone, fan);
    if (nh < 3)
        return false;
    /* Each fan face's edge (b, w) meets the one whose horizon edge starts
     * at b, exactly once on a simple loop. */
    for (int i = 0; i < nh; i++) {
        int found = 0;
        for (int j = 0; j < nh; j++)
            if (fan[j].face.v[0] == fan[i].face.v[1]) {
                fan[i].face.adj[1] = P->nf + j;
                fan[j].face.adj[2] = P->nf + i;
                found++;
            }
        if (found != 1)
            return false;
    }
    for (int i = 0; i < nh; i++) {
        epa_face *out = &P->f[fan[i].outside];
        int across = -1;
        for (int k = 0; k < 3; k++)
            if (out->v[k] == fan[i].face.v[1] && out->v[(k + 1) % 3] == fan[i].face.v[0])
                across = k;
        if (across < 0)
            return false;
        fan[i].face.adj[0] = fan[i].outside;
    }
    for (int i = 0; i < nh; i++) {
        epa_face *out = &P->f[fan[i].outside];
        for (int k = 0; k < 3; k++)
            if (out->v[k] == fan[i].face.v[1] && out->v[(k + 1) % 3] == fan[i].face.v[0])
                out->adj[k] = P->nf + i;
        P->f[P->nf + i] = fan[i].face;
        P->d[P->nf + i] = fan[i].face.d;
    }
    for (int i = 0; i < ngone; i++) {
        P->f[gone[i]].live = false;
        P->d[gone[i]] = INFINITY;
    }
    P->nf += nh;
    P->nv++;
    return true;
}

/* D is flat (dim 1 to 3 points span it): the cores' depth is 0, along the
 * span's normal; the witnesses are the core points of the origin's nearest
 * point of the simplex. */
static ref_depth flat_depth(const ref_vertex *s, int dim, ref_vec flat, uint32_t it)
{
    ref_depth r;
    r.gap = 0.0;
    r.settled = true;
    r.searched = false;
    r.flat = true;
    r.depth = 0.0;
    r.n = flat;
    r.iterations = it;
    simplex_witness(s, dim, vec(0.0, 0.0, 0.0), &r.pa, &r.pb);
    return r;
}

/* Smallest barycentric weight of point p in triangle f (negative: p is
 * outside), p taken in f's plane. */
static double inside_weight(const epa_poly *P, const epa_face *f, ref_vec p)
{
    double worst = INFINITY;
    for (int k = 0; k < 3; k++) {
        ref_vec yb = P->v[f->v[(k + 1) % 3]].y, yc = P->v[f->v[(k + 2) % 3]].y;
        ref_vec ya = P->v[f->v[k]].y;
        double whole = dot(cross(sub(yb, ya), sub(yc, ya)), f->n);
        worst = fmin(worst, dot(cross(sub(yb, p), sub(yc, p)), f->n) / whole);
    }
    return worst;
}

/* Where the ray from the origin along n leaves the polytope, and through
 * which face: the witnesses are that point's core points. Not simply the
 * origin's projection into the nearest face: on a curved part of D, EPA's
 * faces are needles whose neighbours lean off the nearest one by a few
 * micro-radians at almost the same distance (and rounding may leave such
 * an edge a hair reflex), so the projection can land outside the nearest
 * face by a large part of its length; clamped weights there give core
 * points that do not differ along n, and the witness on B lands off B.
 * The ray along n, by contrast, crosses the closed polytope in exactly
 * one face (or on an edge of two), with point and core points along n.
 * Of the faces facing n, the one holding the ray's crossing deepest
 * (largest smallest weight) wins: rounding cannot pick a wrong face. */
static int exit_face(const epa_poly *P, ref_vec n, ref_vec *q)
{
    int best = -1;
    double best_w = -INFINITY;
    for (int g = 0; g < P->nf; g++) {
        const epa_face *G = &P->f[g];
        double c = dot(G->n, n);
        if (!G->live || !(c > 0.0))
            continue;
        ref_vec x = scale(n, G->d / c);
        double w = inside_weight(P, G, x);
        if (w > best_w)
            best_w = w, best = g, *q = x;
    }
    return best;
}

/* Where EPA's bounds do not meet (curved cores with a shallow minimum, as
 * a point near the axis of a cylinder or cone: a whole rim is nearly as
 * deep), a local search for the minimum of h(u) = max over D of u . x
 * from EPA's best axis: compass search on the unit sphere, the step
 * doubling after a better h and halving after none, until it is below
 * REFINE_STEP (settled) or the budget is spent. */
#define REFINE_START 1e-2
#define REFINE_STEP 1e-9

typedef struct epa_refined {
    ref_vec n;
    ref_vertex w; /* the support along n */
    double h;
    bool settled;
} epa_refined;

static epa_refined refine(const ref_pair *pr, ref_vec u, uint32_t budget, uint32_t *it)
{
    epa_refined r = { u, pair_support(pr, u), 0.0, false };
    r.h = dot(r.w.y, u);
    (*it)++;
    double step = REFINE_START;
    for (uint32_t used = 0; step > REFINE_STEP && used + 4 <= budget;) {
        ref_vec t1 = any_perpendicular(r.n), t2 = cross(r.n, t1);
        bool better = false;
        for (int k = 0; k < 4 && !better; k++) {
            ref_vec dir = k < 2 ? t1 : t2;
            ref_vec v = madd(r.n, k & 1 ? neg(dir) : dir, step);
            v = scale(v, 1.0 / length(v));
            ref_vertex w = pair_support(pr, v);
            used++, (*it)++;
            if (dot(w.y, v) < r.h)
                r.n = v, r.w = w, r.h = dot(w.y, v), better = true;
        }
        step = better ? 2.0 * step : 0.5 * step;
    }
    r.settled = step <= REFINE_STEP;
    return r;
}

/* The polytope's answer: depth and normal from the nearest face, the
 * witnesses where the ray along its normal leaves the polytope, when the
 * bounds met or nearly along that face's own normal (out of budget, the
 * upper bound may come from another face); else from the local search, a
 * limit when that did not settle either. */
static ref_depth poly_depth(const ref_pair *pr, const epa_poly *P, int f, double upper, ref_vec best_n,
                            uint32_t it, uint32_t budget)
{
    ref_depth r;
    const epa_face *F = &P->f[f];
    r.gap = upper - F->d;
    r.settled = r.gap <= REF_EPA_ACCEPT;
    if (r.settled) {
        double own = dot(pair_support(pr, F->n).y, F->n);
        it++;
        r.settled = own - F->d <= REF_EPA_ACCEPT;
    }
    r.searched = !r.settled;
    r.flat = false;
    if (r.settled) {
        ref_vec q = scale(F->n, F->d);
        int g = exit_face(P, F->n, &q);
        const epa_face *H = &P->f[g >= 0 ? g : f];
        ref_vertex tri[3] = { P->v[H->v[0]], P->v[H->v[1]], P->v[H->v[2]] };
        r.depth = F->d;
        r.n = F->n;
        simplex_witness(tri, 3, q, &r.pa, &r.pb);
    } else {
        epa_refined e = refine(pr, best_n, budget, &it);
        r.settled = e.settled;
        r.depth = e.h;
        r.n = e.n;
        r.pa = e.w.pa;
        r.pb = e.w.pb;
    }
    r.iterations = it;
    return r;
}

ref_depth gjkb__ref_epa(const ref_pair *pr, const ref_simplex *s, uint32_t budget)
{
    ref_vertex t[4];
    for (int i = 0; i < s->n; i++)
        t[i] = s->v[i];
    ref_vec flat = vec(1.0, 0.0, 0.0);   /* no simplex: the start's axis */
    uint32_t it = 0;
    int dim = s->n > 0 ? grow(pr, t, s->n, &flat, &it) : 0;
    if (dim == 0) {
        t[0] = pair_support(pr, vec(1.0, 0.0, 0.0));
        dim = 1, it++;
    }
    static _Thread_local epa_poly P; /* 330 kB: off the stack */
    if (dim < 4 || !poly_start(&P, t))
        return flat_depth(t, dim < 4 ? dim : 3, flat, it);
    double upper = INFINITY;
    ref_vec best_n = P.f[0].n;
    int f = nearest_face(&P);
    for (uint32_t i = 0; i < budget; i++) {
        const epa_face *F = &P.f[f];
        ref_vertex w = pair_support(pr, F->n);
        it++;
        double h = dot(w.y, F->n);
        if (h < upper)
            upper = h, best_n = F->n;
        if (h - F->d <= EPA_GAP || !poly_add(&P, w, f))
            break;
        f = nearest_face(&P);
    }
    return poly_depth(pr, &P, f, upper, best_n, it, budget);
}
