/* hull.c - the convex hull of a registered point cloud (hull.h). The
 * points are snapped to an integer grid so that every combinatorial
 * decision is an exact int64 predicate (the same on every platform, and
 * never a topology that a rounding error tore); the cloud's dimension is
 * found from extreme points; a solid cloud runs an iterative quickhull, a
 * flat one a monotone chain; then coplanar triangles merge into faces,
 * points that are no corner are dropped, and the topology is written in
 * one block. Snapped points only decide; every output comes from the
 * input points themselves. */
#include "hull.h"
#include "buffer.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define QH_NONE GJKB__HULL_NONE
/* The grid: 2^20 cells across the largest extent, snapped coordinates in
 * [-2^19, 2^19]. Differences stay within 2^20, cross products within
 * 2^41, plane tests n.q - d within 6 * 2^60: all exact in int64. */
#define QH_CELLS 1048576.0
#define QH_HALF 524288

/* ---- exact integer geometry -------------------------------------------- */

typedef struct qh_i3 {
    int64_t x, y, z;
} qh_i3;

static qh_i3 i3_sub(qh_i3 a, qh_i3 b)
{
    return (qh_i3){ a.x - b.x, a.y - b.y, a.z - b.z };
}

static qh_i3 i3_cross(qh_i3 a, qh_i3 b)
{
    return (qh_i3){ a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}

static int64_t i3_dot(qh_i3 a, qh_i3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

/* Squared length in double: only compared, never decides a sign. */
static double i3_norm2(qh_i3 a)
{
    double x = (double)a.x, y = (double)a.y, z = (double)a.z;
    return x * x + y * y + z * z;
}

typedef struct qh_v3 {
    double x, y, z;
} qh_v3;

static qh_v3 v3_sub(qh_v3 a, qh_v3 b)
{
    return (qh_v3){ a.x - b.x, a.y - b.y, a.z - b.z };
}

static qh_v3 v3_cross(qh_v3 a, qh_v3 b)
{
    return (qh_v3){ a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}

static double v3_dot(qh_v3 a, qh_v3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

/* ---- the cloud --------------------------------------------------------- */

typedef struct qh_cloud {
    const float *xyz;
    uint32_t n;
    double c[3]; /* bounding-box centre */
    double ext;  /* largest bounding-box side */
    double tol;  /* merge tolerance (GJKB__HULL_MERGE_REL of ext) */
    int32_t *q;  /* snapped points, 3 each */
} qh_cloud;

static qh_i3 qp(const qh_cloud *c, uint32_t i)
{
    const int32_t *q = c->q + 3 * (size_t)i;
    return (qh_i3){ q[0], q[1], q[2] };
}

/* Point i relative to the box centre: keeps the precision of clouds far
 * from their origin. */
static qh_v3 rp(const qh_cloud *c, uint32_t i)
{
    const float *p = c->xyz + 3 * (size_t)i;
    return (qh_v3){ (double)p[0] - c->c[0], (double)p[1] - c->c[1], (double)p[2] - c->c[2] };
}

/* Bounding box, tolerance and snapped points; false when out of memory. */
static bool cloud_init(qh_cloud *c, const float *xyz, uint32_t n)
{
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = xyz[k];
    /* Plain compares (the points are finite): GCC 12 for aarch64 crashes
     * vectorizing this reduction written with fmin/fmax at -O3. */
    for (uint32_t i = 1; i < n; i++) /* bound: n */
        for (int k = 0; k < 3; k++) {
            double v = xyz[3 * (size_t)i + k];
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
        }
    *c = (qh_cloud){ .xyz = xyz, .n = n };
    for (int k = 0; k < 3; k++) {
        c->c[k] = 0.5 * lo[k] + 0.5 * hi[k];
        c->ext = fmax(c->ext, hi[k] - lo[k]);
    }
    c->tol = GJKB__HULL_MERGE_REL * c->ext;
    c->q = calloc(3 * (size_t)n, sizeof *c->q);
    if (!c->q)
        return false;
    double s = c->ext > 0.0 ? QH_CELLS / c->ext : 0.0;
    for (size_t j = 0; j < 3 * (size_t)n; j++) { /* bound: 3n */
        double t = floor(((double)xyz[j] - c->c[j % 3]) * s + 0.5);
        c->q[j] = (int32_t)fmax(-QH_HALF, fmin(QH_HALF, t));
    }
    return true;
}

/* ---- growable arrays --------------------------------------------------- */

static bool qh_grow(void *pp, uint32_t *cap, uint32_t need, size_t size)
{
    void **p = (void **)pp;
    if (need <= *cap)
        return true;
    uint32_t c = gjkb__grown(*cap, need);
    if (c < need || !gjkb__resize(p, (size_t)c * size))
        return false;
    *cap = c;
    return true;
}

/* ---- dimension --------------------------------------------------------- */

/* The extreme points the hull starts from and how many dimensions the
 * cloud spans beyond the flat tolerance (0 point, 1 segment, 2 flat). */
typedef struct qh_base {
    uint32_t p[4];
    int dim;
    qh_i3 n; /* flat: the plane's normal (exact, snapped) */
} qh_base;

/* The first point farthest from point a. */
static uint32_t far_from_point(const qh_cloud *c, uint32_t a)
{
    uint32_t best = a;
    int64_t bd = 0;
    for (uint32_t i = 0; i < c->n; i++) { /* bound: n */
        qh_i3 d = i3_sub(qp(c, i), qp(c, a));
        int64_t dd = i3_dot(d, d);
        if (dd > bd)
            bd = dd, best = i;
    }
    return best;
}

/* The first point farthest from the line p0 p1, and its distance in cells. */
static uint32_t far_from_line(const qh_cloud *c, uint32_t p0, uint32_t p1, double *dist)
{
    qh_i3 d = i3_sub(qp(c, p1), qp(c, p0));
    uint32_t best = p0;
    double bd = 0.0;
    for (uint32_t i = 0; i < c->n; i++) { /* bound: n */
        double w = i3_norm2(i3_cross(d, i3_sub(qp(c, i), qp(c, p0))));
        if (w > bd)
            bd = w, best = i;
    }
    *dist = sqrt(bd) / sqrt(i3_norm2(d));
    return best;
}

/* The first point farthest from the plane n.(q - q0) = 0, its distance in cells. */
static uint32_t far_from_plane(const qh_cloud *c, uint32_t p0, qh_i3 n, double *dist)
{
    uint32_t best = p0;
    int64_t bd = 0;
    for (uint32_t i = 0; i < c->n; i++) { /* bound: n */
        int64_t w = i3_dot(n, i3_sub(qp(c, i), qp(c, p0)));
        w = w < 0 ? -w : w;
        if (w > bd)
            bd = w, best = i;
    }
    *dist = (double)bd / sqrt(i3_norm2(n));
    return best;
}

static qh_base find_base(const qh_cloud *c)
{
    const double flat = GJKB__HULL_FLAT_REL * QH_CELLS;
    qh_base b = { { 0, 0, 0, 0 }, 0, { 0, 0, 0 } };
    if (!(c->ext > 0.0))
        return b;
    b.p[0] = far_from_point(c, 0);
    b.p[1] = far_from_point(c, b.p[0]);
    b.dim = 1;
    double dist;
    b.p[2] = far_from_line(c, b.p[0], b.p[1], &dist);
    if (!(dist > flat))
        return b;
    b.dim = 2;
    b.n = i3_cross(i3_sub(qp(c, b.p[1]), qp(c, b.p[0])), i3_sub(qp(c, b.p[2]), qp(c, b.p[0])));
    b.p[3] = far_from_plane(c, b.p[0], b.n, &dist);
    if (dist > flat)
        b.dim = 3;
    return b;
}

/* ---- face loops (the shape every case ends in) ------------------------- */

/* Faces as loops of input point indices, CCW seen from outside. */
typedef struct qh_loops {
    uint32_t nf, ni, cap_f, cap_i;
    uint32_t *first; /* nf + 1 */
    uint32_t *idx;
} qh_loops;

static void loops_free(qh_loops *l)
{
    free(l->first);
    free(l->idx);
    memset(l, 0, sizeof *l);
}

/* Appends a loop of m points; false when out of memory. */
static bool loops_add(qh_loops *l, const uint32_t *pts, uint32_t m)
{
    if (!qh_grow(&l->first, &l->cap_f, l->nf + 2, sizeof *l->first) ||
        !qh_grow(&l->idx, &l->cap_i, l->ni + m, sizeof *l->idx))
        return false;
    if (l->nf == 0)
        l->first[0] = 0;
    memcpy(l->idx + l->ni, pts, (size_t)m * sizeof *pts);
    l->ni += m;
    l->first[++l->nf] = l->ni;
    return true;
}

/* ---- quickhull ---------------------------------------------------------- */

typedef struct qh_face {
    uint32_t v[3], nb[3]; /* nb[k]: the face across edge v[k] -> v[k+1] */
    qh_i3 n;              /* exact plane: n.q - d > 0 strictly outside */
    int64_t d;
    uint32_t out, far;    /* outside list (through qh_hull.next); its farthest point */
    int64_t far_d;
    uint32_t stamp;       /* the step that found it visible */
    uint32_t link;        /* free list */
    bool alive;
} qh_face;

typedef struct qh_hull {
    const qh_cloud *c;
    qh_face *f;
    uint32_t nf, cap, free_list;
    uint32_t *next;                        /* per point: next in its face's outside list */
    uint32_t *hat, *hstamp;                /* per point: horizon edge starting there, in step hstamp */
    uint32_t *pending, npending, pending_cap;       /* faces that may have outside points */
    uint32_t *vis, nvis, vis_cap;          /* this step's visible faces */
    uint32_t *hor, nhor, hor_cap;          /* horizon edges: a, b, outside face, new face */
    uint32_t *ring, ring_cap;              /* horizon edges in cycle order */
    uint32_t step;
} qh_hull;

static int64_t face_dist(const qh_hull *h, uint32_t f, uint32_t p)
{
    return i3_dot(h->f[f].n, qp(h->c, p)) - h->f[f].d;
}

/* A new face a b c (CCW from outside), or NONE when out of memory. */
static uint32_t face_new(qh_hull *h, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t id = h->free_list;
    if (id != QH_NONE) {
        h->free_list = h->f[id].link;
    } else {
        if (!qh_grow(&h->f, &h->cap, h->nf + 1, sizeof *h->f))
            return QH_NONE;
        id = h->nf++;
    }
    qh_i3 qa = qp(h->c, a);
    qh_i3 n = i3_cross(i3_sub(qp(h->c, b), qa), i3_sub(qp(h->c, c), qa));
    h->f[id] = (qh_face){ .v = { a, b, c }, .nb = { QH_NONE, QH_NONE, QH_NONE }, .n = n,
                          .d = i3_dot(n, qa), .out = QH_NONE, .far = QH_NONE, .alive = true };
    return id;
}

/* Puts point p on the outside list of the first face of fs it is strictly
 * outside; a point outside none is inside the hull for good. */
static void assign(qh_hull *h, uint32_t p, const uint32_t *fs, uint32_t m)
{
    for (uint32_t k = 0; k < m; k++) { /* bound: m */
        int64_t d = face_dist(h, fs[k], p);
        if (d <= 0)
            continue;
        qh_face *f = &h->f[fs[k]];
        h->next[p] = f->out;
        f->out = p;
        if (f->far == QH_NONE || d > f->far_d || (d == f->far_d && p < f->far))
            f->far = p, f->far_d = d;
        return;
    }
}

static bool pending_push(qh_hull *h, uint32_t f)
{
    if (!qh_grow(&h->pending, &h->pending_cap, h->npending + 1, sizeof *h->pending))
        return false;
    h->pending[h->npending++] = f;
    return true;
}

/* Links faces i and j across every edge they share (opposite directions). */
static void link_pair(qh_hull *h, uint32_t i, uint32_t j)
{
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < 3; m++)
            if (h->f[i].v[k] == h->f[j].v[(m + 1) % 3] && h->f[i].v[(k + 1) % 3] == h->f[j].v[m]) {
                h->f[i].nb[k] = j;
                h->f[j].nb[m] = i;
            }
}

/* The starting tetrahedron and its outside sets. */
static bool start(qh_hull *h, qh_base b)
{
    uint32_t *p = b.p;
    qh_i3 q0 = qp(h->c, p[0]);
    qh_i3 n = i3_cross(i3_sub(qp(h->c, p[1]), q0), i3_sub(qp(h->c, p[2]), q0));
    if (i3_dot(n, i3_sub(qp(h->c, p[3]), q0)) > 0) { /* p3 must be below p0 p1 p2 */
        uint32_t t = p[1];
        p[1] = p[2], p[2] = t;
    }
    const uint32_t tri[4][3] = { { p[0], p[1], p[2] }, { p[0], p[3], p[1] }, { p[1], p[3], p[2] },
                                 { p[2], p[3], p[0] } };
    uint32_t fs[4];
    for (int k = 0; k < 4; k++)
        if ((fs[k] = face_new(h, tri[k][0], tri[k][1], tri[k][2])) == QH_NONE)
            return false;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            link_pair(h, fs[i], fs[j]);
    for (uint32_t i = 0; i < h->c->n; i++) /* bound: n */
        if (i != p[0] && i != p[1] && i != p[2] && i != p[3])
            assign(h, i, fs, 4);
    for (int k = 0; k < 4; k++)
        if (h->f[fs[k]].out != QH_NONE && !pending_push(h, fs[k]))
            return false;
    return true;
}

/* Marks every face point p sees, flooding from face f (the visible set of
 * a convex hull from an outside point is connected). */
static bool find_visible(qh_hull *h, uint32_t f, uint32_t p)
{
    h->nvis = 0;
    h->f[f].stamp = h->step;
    if (!qh_grow(&h->vis, &h->vis_cap, 1, sizeof *h->vis))
        return false;
    h->vis[h->nvis++] = f;
    for (uint32_t i = 0; i < h->nvis; i++) /* bound: live faces (each marked once) */
        for (int k = 0; k < 3; k++) {
            uint32_t g = h->f[h->vis[i]].nb[k];
            if (h->f[g].stamp == h->step || face_dist(h, g, p) <= 0)
                continue;
            if (!qh_grow(&h->vis, &h->vis_cap, h->nvis + 1, sizeof *h->vis))
                return false;
            h->f[g].stamp = h->step;
            h->vis[h->nvis++] = g;
        }
    return true;
}

/* The horizon: visible faces' edges to faces not visible, then in cycle
 * order in ring. 0 on success, 1 out of memory, 2 not a simple cycle
 * (impossible with exact predicates: kept as a guard). */
static int find_horizon(qh_hull *h)
{
    h->nhor = 0;
    for (uint32_t i = 0; i < h->nvis; i++) /* bound: nvis */
        for (int k = 0; k < 3; k++) {
            const qh_face *g = &h->f[h->vis[i]];
            uint32_t o = g->nb[k], a = g->v[k];
            if (h->f[o].stamp == h->step)
                continue;
            if (h->hstamp[a] == h->step)
                return 2;
            if (!qh_grow(&h->hor, &h->hor_cap, 4 * (h->nhor + 1), sizeof *h->hor))
                return 1;
            uint32_t *e = h->hor + 4 * h->nhor;
            e[0] = a, e[1] = g->v[(k + 1) % 3], e[2] = o, e[3] = QH_NONE;
            h->hat[a] = h->nhor++;
            h->hstamp[a] = h->step;
        }
    if (!qh_grow(&h->ring, &h->ring_cap, h->nhor, sizeof *h->ring))
        return 1;
    uint32_t e = 0;
    for (uint32_t i = 0; i < h->nhor; i++) { /* bound: nhor */
        h->ring[i] = e;
        uint32_t b = h->hor[4 * e + 1];
        if (h->hstamp[b] != h->step)
            return 2;
        e = h->hat[b];
        if ((e == 0) != (i + 1 == h->nhor))
            return 2;
    }
    return 0;
}

/* The cone of new faces from p over the horizon, linked to the faces
 * outside it and to each other. */
static bool build_cone(qh_hull *h, uint32_t p)
{
    for (uint32_t i = 0; i < h->nhor; i++) { /* bound: nhor */
        uint32_t *e = h->hor + 4 * h->ring[i];
        uint32_t nf = face_new(h, e[0], e[1], p);
        if (nf == QH_NONE)
            return false;
        e[3] = nf;
        qh_face *o = &h->f[e[2]];
        h->f[nf].nb[0] = e[2];
        for (int k = 0; k < 3; k++)
            if (o->v[k] == e[1] && h->f[o->nb[k]].stamp == h->step && o->nb[k] != nf)
                o->nb[k] = nf;
    }
    for (uint32_t i = 0; i < h->nhor; i++) { /* bound: nhor */
        uint32_t f = h->hor[4 * h->ring[i] + 3];
        uint32_t fn = h->hor[4 * h->ring[(i + 1) % h->nhor] + 3];
        uint32_t fp = h->hor[4 * h->ring[(i + h->nhor - 1) % h->nhor] + 3];
        h->f[f].nb[1] = fn;
        h->f[f].nb[2] = fp;
    }
    return true;
}

/* Hands the visible faces' outside points (but p) to the new faces, frees
 * the visible faces and queues the new ones that got points. */
static bool reassign(qh_hull *h, uint32_t p)
{
    for (uint32_t i = 0; i < h->nhor; i++) /* ring now holds the new faces */
        h->ring[i] = h->hor[4 * h->ring[i] + 3];
    for (uint32_t i = 0; i < h->nvis; i++) { /* bound: nvis */
        qh_face *g = &h->f[h->vis[i]];
        uint32_t x = g->out;
        g->out = QH_NONE;
        while (x != QH_NONE) { /* bound: the points on g's list */
            uint32_t nx = h->next[x];
            if (x != p)
                assign(h, x, h->ring, h->nhor);
            x = nx;
        }
        g->alive = false;
        g->stamp = h->step; /* stays "visible": never a neighbour again */
        g->link = h->free_list;
        h->free_list = h->vis[i];
    }
    for (uint32_t i = 0; i < h->nhor; i++)
        if (h->f[h->ring[i]].out != QH_NONE && !pending_push(h, h->ring[i]))
            return false;
    return true;
}

/* Adds face f's farthest outside point. 0 ok, 1 out of memory, 2 guard. */
static int add_point(qh_hull *h, uint32_t f)
{
    uint32_t p = h->f[f].far;
    h->step++;
    if (!find_visible(h, f, p))
        return 1;
    int r = find_horizon(h);
    if (r != 0)
        return r;
    if (!build_cone(h, p) || !reassign(h, p))
        return 1;
    return 0;
}

static void hull_free(qh_hull *h)
{
    free(h->f);
    free(h->next);
    free(h->hat);
    free(h->hstamp);
    free(h->pending);
    free(h->vis);
    free(h->hor);
    free(h->ring);
}

/* Runs quickhull to the end. 0 ok, 1 out of memory, 2 guard. */
static int quickhull(qh_hull *h, const qh_cloud *c, qh_base b)
{
    memset(h, 0, sizeof *h);
    h->c = c;
    h->free_list = QH_NONE;
    h->next = malloc((size_t)c->n * sizeof *h->next);
    h->hat = malloc((size_t)c->n * sizeof *h->hat);
    h->hstamp = calloc(c->n, sizeof *h->hstamp);
    if (!h->next || !h->hat || !h->hstamp || !start(h, b))
        return 1;
    /* bound: each step takes one point off every list for good (<= n
     * steps); each pop is a face pushed once when it was made */
    while (h->npending > 0) {
        uint32_t f = h->pending[--h->npending];
        if (!h->f[f].alive || h->f[f].out == QH_NONE)
            continue;
        int r = add_point(h, f);
        if (r != 0)
            return r;
    }
    return 0;
}

/* ---- merging triangles into faces -------------------------------------- */

/* The live triangles, compacted, and the face each one joins. */
typedef struct qh_tris {
    uint32_t t;
    uint32_t *v, *nb, *face; /* 3, 3 and 1 per triangle */
    uint8_t *solo;           /* 1: stays a face of its own */
    uint32_t nfaces;
} qh_tris;

static void tris_free(qh_tris *t)
{
    free(t->v);
    free(t->nb);
    free(t->face);
    free(t->solo);
}

static bool tris_from_hull(qh_tris *t, const qh_hull *h)
{
    uint32_t *id = malloc(((size_t)h->nf + 1) * sizeof *id);
    memset(t, 0, sizeof *t);
    for (uint32_t f = 0; id && f < h->nf; f++) /* bound: nf */
        id[f] = h->f[f].alive ? t->t++ : QH_NONE;
    t->v = malloc(3 * ((size_t)t->t + 1) * sizeof *t->v);
    t->nb = malloc(3 * ((size_t)t->t + 1) * sizeof *t->nb);
    t->face = malloc(((size_t)t->t + 1) * sizeof *t->face);
    t->solo = calloc((size_t)t->t + 1, 1);
    if (!id || !t->v || !t->nb || !t->face || !t->solo) {
        free(id);
        return false;
    }
    for (uint32_t f = 0; f < h->nf; f++) /* bound: nf */
        for (int k = 0; id[f] != QH_NONE && k < 3; k++) {
            t->v[3 * id[f] + k] = h->f[f].v[k];
            t->nb[3 * id[f] + k] = id[h->f[f].nb[k]];
        }
    free(id);
    return true;
}

/* Unit normal and offset of triangle i's plane in centred coordinates;
 * from the snapped points when the real ones are too thin to tell. */
static void tri_plane(const qh_cloud *c, const qh_tris *t, uint32_t i, qh_v3 *n, double *d)
{
    const uint32_t *v = t->v + 3 * (size_t)i;
    qh_v3 a = rp(c, v[0]);
    qh_v3 m = v3_cross(v3_sub(rp(c, v[1]), a), v3_sub(rp(c, v[2]), a));
    double len = sqrt(v3_dot(m, m));
    if (!(len > 0.0)) {
        qh_i3 qa = qp(c, v[0]);
        qh_i3 in = i3_cross(i3_sub(qp(c, v[1]), qa), i3_sub(qp(c, v[2]), qa));
        m = (qh_v3){ (double)in.x, (double)in.y, (double)in.z };
        len = sqrt(v3_dot(m, m));
    }
    *n = (qh_v3){ m.x / len, m.y / len, m.z / len };
    *d = v3_dot(*n, a);
}

typedef struct qh_key {
    double area;
    uint32_t i;
} qh_key;

static int key_cmp(const void *pa, const void *pb)
{
    const qh_key *a = pa, *b = pb;
    if (a->area != b->area)
        return a->area > b->area ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Whether triangle u may join face f: its vertices within tol of the
 * plane, and the face stays a disk (u shares two edges with it, or one
 * edge and a vertex not yet on it). */
static bool may_join(const qh_cloud *c, const qh_tris *t, const uint32_t *vmark, uint32_t u, uint32_t f,
                     qh_v3 n, double d, double tol)
{
    const uint32_t *v = t->v + 3 * (size_t)u;
    int shared = 0, k1 = 0;
    if (t->solo[u])
        return false;
    for (int k = 0; k < 3; k++) { /* points already on the face passed */
        if (vmark[v[k]] != f && !(fabs(v3_dot(n, rp(c, v[k])) - d) <= tol))
            return false;
        if (t->face[t->nb[3 * (size_t)u + k]] == f)
            shared++, k1 = k;
    }
    return shared >= 2 || vmark[v[(k1 + 2) % 3]] != f;
}

/* Grows face f from triangle seed across coplanar neighbours. */
static void grow_face(const qh_cloud *c, qh_tris *t, uint32_t seed, uint32_t f, uint32_t *queue,
                      uint32_t *vmark, double tol)
{
    qh_v3 n;
    double d;
    tri_plane(c, t, seed, &n, &d);
    uint32_t nq = 0;
    t->face[seed] = f;
    queue[nq++] = seed;
    for (int k = 0; k < 3; k++)
        vmark[t->v[3 * (size_t)seed + k]] = f;
    for (uint32_t i = t->solo[seed] ? nq : 0; i < nq; i++) /* bound: t (a triangle joins once) */
        for (int k = 0; k < 3; k++) {
            uint32_t u = t->nb[3 * (size_t)queue[i] + k];
            if (t->face[u] != QH_NONE || !may_join(c, t, vmark, u, f, n, d, tol))
                continue;
            t->face[u] = f;
            queue[nq++] = u;
            for (int m = 0; m < 3; m++)
                vmark[t->v[3 * (size_t)u + m]] = f;
        }
}

/* Every triangle into a face, seeds largest first (their planes are the
 * most accurate); tol < 0 leaves every triangle its own face. */
static bool merge(const qh_cloud *c, qh_tris *t, double tol)
{
    qh_key *key = malloc(((size_t)t->t + 1) * sizeof *key);
    uint32_t *queue = malloc(((size_t)t->t + 1) * sizeof *queue);
    uint32_t *vmark = malloc(((size_t)c->n + 1) * sizeof *vmark);
    bool ok = key && queue && vmark;
    for (uint32_t i = 0; ok && i < t->t; i++) { /* bound: t */
        const uint32_t *v = t->v + 3 * (size_t)i;
        qh_v3 a = rp(c, v[0]);
        qh_v3 m = v3_cross(v3_sub(rp(c, v[1]), a), v3_sub(rp(c, v[2]), a));
        key[i] = (qh_key){ v3_dot(m, m), i };
        t->face[i] = QH_NONE;
    }
    for (uint32_t i = 0; ok && i < c->n; i++)
        vmark[i] = QH_NONE;
    if (ok)
        qsort(key, t->t, sizeof *key, key_cmp);
    t->nfaces = 0;
    for (uint32_t i = 0; ok && i < t->t; i++) /* bound: t */
        if (t->face[key[i].i] == QH_NONE)
            grow_face(c, t, key[i].i, t->nfaces++, queue, vmark, tol);
    free(key);
    free(queue);
    free(vmark);
    return ok;
}

/* Whether a loop turns left (within tol) at every point around its own
 * normal: merging by planes alone can leave a notch where a triangle with
 * a point off the plane was left out. */
static bool loop_convex(const qh_cloud *c, const uint32_t *loop, uint32_t m, double tol)
{
    qh_v3 o = rp(c, loop[0]), s = { 0.0, 0.0, 0.0 };
    for (uint32_t i = 1; i + 1 < m; i++) { /* bound: m */
        qh_v3 w = v3_cross(v3_sub(rp(c, loop[i]), o), v3_sub(rp(c, loop[i + 1]), o));
        s = (qh_v3){ s.x + w.x, s.y + w.y, s.z + w.z };
    }
    double len = sqrt(v3_dot(s, s));
    if (!(len > 0.0))
        return true; /* no area to turn in */
    for (uint32_t i = 0; i < m; i++) { /* bound: m */
        qh_v3 a = rp(c, loop[i]), b = rp(c, loop[(i + 1) % m]), d = rp(c, loop[(i + 2) % m]);
        qh_v3 e1 = v3_sub(b, a), e2 = v3_sub(d, b);
        double turn = v3_dot(v3_cross(e1, e2), s) / len;
        if (!(turn >= -tol * (sqrt(v3_dot(e1, e1)) + sqrt(v3_dot(e2, e2)))))
            return false;
    }
    return true;
}

/* The boundary loop of every face. 0 ok, 1 out of memory, 2 a face that is
 * not a disk (a guard: merge keeps faces disks), 4 faces that are not
 * convex (their triangles are then marked solo for another merge). */
static int face_loops(const qh_cloud *c, qh_tris *t, qh_loops *out)
{
    uint32_t nf = t->nfaces, *cnt = calloc((size_t)nf + 1, sizeof *cnt), nbad = 0;
    uint8_t *bad = calloc((size_t)nf + 1, 1);
    uint32_t *be = malloc(6 * ((size_t)t->t + 1) * sizeof *be); /* a, b per boundary edge */
    uint32_t *at = malloc(((size_t)c->n + 1) * sizeof *at), *mark = malloc(((size_t)c->n + 1) * sizeof *mark);
    uint32_t *loop = malloc(((size_t)c->n + 1) * sizeof *loop);
    int r = cnt && be && at && mark && loop && bad ? 0 : 1;
    for (uint32_t i = 0; r == 0 && i < t->t; i++) /* bound: t */
        for (int k = 0; k < 3; k++)
            cnt[t->face[i]] += t->face[t->nb[3 * (size_t)i + k]] != t->face[i];
    for (uint32_t f = 0, s = 0; r == 0 && f <= nf; f++) { /* prefix sums: cnt[f] = first edge */
        uint32_t m = cnt[f];
        cnt[f] = s, s += m;
    }
    for (uint32_t i = 0; r == 0 && i < t->t; i++) /* bound: t */
        for (int k = 0; k < 3; k++) {
            uint32_t f = t->face[i];
            if (t->face[t->nb[3 * (size_t)i + k]] == f)
                continue;
            uint32_t e = cnt[f]++;
            be[2 * e] = t->v[3 * (size_t)i + k], be[2 * e + 1] = t->v[3 * (size_t)i + (k + 1) % 3];
        }
    for (uint32_t i = 0; r == 0 && i < c->n; i++)
        mark[i] = QH_NONE;
    for (uint32_t f = 0; r == 0 && f < nf; f++) { /* cnt[f] is now face f's end */
        uint32_t lo = f ? cnt[f - 1] : 0, hi = cnt[f], m = 0, e = lo;
        for (uint32_t j = lo; j < hi; j++)
            at[be[2 * j]] = j, mark[be[2 * j]] = f;
        for (; m < hi - lo; m++) { /* bound: the face's boundary edges */
            loop[m] = be[2 * e];
            uint32_t b = be[2 * e + 1];
            if (mark[b] != f || ((e = at[b]) == lo) != (m + 1 == hi - lo))
                break;
        }
        /* no boundary at all (the merge closed the face on itself: a cloud
         * flat within the tolerance but not in exact arithmetic) is no disk */
        r = m != hi - lo || m < 3 ? 2 : !loops_add(out, loop, m) ? 1 : 0;
        if (r == 0 && !loop_convex(c, loop, m, c->tol))
            bad[f] = 1, nbad++;
    }
    for (uint32_t i = 0; r == 0 && nbad > 0 && i < t->t; i++) /* bound: t */
        t->solo[i] |= bad[t->face[i]];
    free(cnt), free(be), free(at), free(mark), free(loop), free(bad);
    return r == 0 && nbad > 0 ? 4 : r;
}

/* ---- corners ------------------------------------------------------------ */

/* Drops from the loops every point on exactly two faces (it lies on their
 * common edge: no corner) while both keep three points, and flags the
 * points left (keep). Points on no face are interior to one. */
static bool drop_non_corners(const qh_cloud *c, qh_loops *l, uint8_t *keep)
{
    uint32_t *cnt = calloc((size_t)c->n + 1, sizeof *cnt), *pos = malloc(2 * ((size_t)c->n + 1) * sizeof *pos);
    uint32_t *face = malloc(((size_t)l->ni + 1) * sizeof *face), *live = malloc(((size_t)l->nf + 1) * sizeof *live);
    bool ok = cnt && pos && face && live;
    for (uint32_t f = 0; ok && f < l->nf; f++) { /* bound: nf, then the loop */
        live[f] = l->first[f + 1] - l->first[f];
        for (uint32_t j = l->first[f]; j < l->first[f + 1]; j++) {
            uint32_t p = l->idx[j];
            if (cnt[p] < 2)
                pos[2 * (size_t)p + cnt[p]] = j;
            cnt[p]++, face[j] = f;
        }
    }
    for (uint32_t p = 0; ok && p < c->n; p++) { /* bound: n */
        if (cnt[p] != 2)
            continue;
        uint32_t j0 = pos[2 * (size_t)p], j1 = pos[2 * (size_t)p + 1];
        if (live[face[j0]] < 4 || live[face[j1]] < 4)
            continue;
        live[face[j0]]--, live[face[j1]]--;
        l->idx[j0] = l->idx[j1] = QH_NONE;
    }
    uint32_t w = 0;
    for (uint32_t f = 0; ok && f < l->nf; f++) { /* compact: bound ni */
        uint32_t lo = l->first[f];
        l->first[f] = w;
        for (uint32_t j = lo; j < l->first[f + 1]; j++)
            if (l->idx[j] != QH_NONE)
                l->idx[w++] = l->idx[j];
    }
    if (ok)
        l->first[l->nf] = l->ni = w;
    for (uint32_t j = 0; ok && j < l->ni; j++)
        keep[l->idx[j]] = 1;
    free(cnt), free(pos), free(face), free(live);
    return ok;
}

/* Solid: quickhull, merge, loops, corners. 0 ok, 1 out of memory, 2 guard. */
static int solid(const qh_cloud *c, qh_base b, qh_loops *l, uint8_t *keep)
{
    qh_hull h;
    qh_tris t = { 0 };
    int r = quickhull(&h, c, b);
    if (r == 0)
        r = tris_from_hull(&t, &h) ? 0 : 1;
    hull_free(&h);
    if (r != 0) {
        tris_free(&t);
        return r;
    }
    /* bound: 3 rounds. Faces that came out no convex polygon split into
     * their triangles in the next round (the other faces stay as they
     * were: they never held those triangles); should a face come out no
     * disk (a guard), or the second round fail too, nothing merges. */
    for (int round = 0; round < 3; round++) {
        loops_free(l);
        r = merge(c, &t, round < 2 ? c->tol : -1.0) ? face_loops(c, &t, l) : 1;
        if (r == 2)
            round = 1;
        else if (r != 4)
            break;
    }
    if (r == 4) /* the last round's faces are triangles: convex as built */
        r = 0;
    if (r == 0)
        r = drop_non_corners(c, l, keep) ? 0 : 1;
    tris_free(&t);
    return r;
}

/* ---- flat clouds ----------------------------------------------------------- */

typedef struct qh_p2 {
    int64_t u, v;
    uint32_t i;
} qh_p2;

static int p2_cmp(const void *pa, const void *pb)
{
    const qh_p2 *a = pa, *b = pb;
    if (a->u != b->u)
        return a->u < b->u ? -1 : 1;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static int64_t p2_turn(qh_p2 o, qh_p2 a, qh_p2 b)
{
    return (a.u - o.u) * (b.v - o.v) - (a.v - o.v) * (b.u - o.u);
}

/* Andrew's monotone chain on the points projected along the normal's
 * largest axis (an affine map of the plane: the hull's order survives).
 * Writes the loop (input indices) and returns its length. */
static uint32_t chain(const qh_cloud *c, qh_i3 n, qh_p2 *pt, qh_p2 *st, uint32_t *loop)
{
    int64_t ax = n.x < 0 ? -n.x : n.x, ay = n.y < 0 ? -n.y : n.y, az = n.z < 0 ? -n.z : n.z;
    int drop = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
    for (uint32_t i = 0; i < c->n; i++) { /* bound: n */
        const int32_t *q = c->q + 3 * (size_t)i;
        pt[i] = (qh_p2){ q[(drop + 1) % 3], q[(drop + 2) % 3], i };
    }
    qsort(pt, c->n, sizeof *pt, p2_cmp);
    uint32_t k = 0;
    for (uint32_t i = 0; i < c->n; i++) { /* lower chain; bound: n pushes */
        while (k >= 2 && p2_turn(st[k - 2], st[k - 1], pt[i]) <= 0)
            k--;
        st[k++] = pt[i];
    }
    for (uint32_t i = c->n - 1, lo = k + 1; i-- > 0;) { /* upper chain; bound: n pushes */
        while (k >= lo && p2_turn(st[k - 2], st[k - 1], pt[i]) <= 0)
            k--;
        st[k++] = pt[i];
    }
    k = k > 0 ? k - 1 : 0; /* the last point repeats the first */
    for (uint32_t i = 0; i < k; i++)
        loop[i] = st[i].i;
    return k;
}

/* Distance of b from the line a c (centred coordinates). */
static double off_line(const qh_cloud *c, uint32_t a, uint32_t b, uint32_t cc)
{
    qh_v3 pa = rp(c, a), d = v3_sub(rp(c, cc), pa), w = v3_sub(rp(c, b), pa);
    double dd = v3_dot(d, d);
    if (!(dd > 0.0))
        return sqrt(v3_dot(w, w));
    qh_v3 x = v3_cross(d, w);
    return sqrt(v3_dot(x, x) / dd);
}

/* Drops loop points within tol of the line through their neighbours.
 * Returns the new length (at least 3 when it was). */
static uint32_t prune(const qh_cloud *c, uint32_t *loop, uint32_t m, double tol)
{
    bool changed = true;
    for (uint32_t pass = 0; changed && pass < m; pass++) { /* bound: m passes */
        changed = false;
        for (uint32_t i = 0; m > 3 && i < m;) { /* bound: m */
            if (off_line(c, loop[(i + m - 1) % m], loop[i], loop[(i + 1) % m]) <= tol) {
                memmove(loop + i, loop + i + 1, (size_t)(m - i - 1) * sizeof *loop);
                m--, changed = true;
            } else {
                i++;
            }
        }
    }
    return m;
}

/* Flat: the 2D hull as two faces, one per side. Returns 0 ok, 1 out of
 * memory, 3 fewer than 3 corners (a segment after all). */
static int flat(const qh_cloud *c, qh_base b, qh_loops *l, uint8_t *keep)
{
    qh_p2 *pt = malloc(((size_t)c->n + 1) * sizeof *pt), *st = malloc(2 * ((size_t)c->n + 1) * sizeof *st);
    uint32_t *loop = malloc(2 * ((size_t)c->n + 2) * sizeof *loop);
    int r = pt && st && loop ? 0 : 1;
    uint32_t m = r == 0 ? prune(c, loop, chain(c, b.n, pt, st, loop), c->tol) : 0;
    if (r == 0 && m < 3)
        r = 3;
    for (uint32_t i = 0; r == 0 && i < m; i++) { /* the other side: reversed */
        loop[m + i] = loop[m - 1 - i];
        keep[loop[i]] = 1;
    }
    if (r == 0 && (!loops_add(l, loop, m) || !loops_add(l, loop + m, m)))
        r = 1;
    free(pt), free(st), free(loop);
    return r;
}

/* Segment: the first points of least and greatest projection on the line. */
static void segment(const qh_cloud *c, qh_base b, uint8_t *keep)
{
    qh_i3 q0 = qp(c, b.p[0]), d = i3_sub(qp(c, b.p[1]), q0);
    uint32_t lo = 0, hi = 0;
    int64_t tlo = i3_dot(d, i3_sub(qp(c, 0), q0)), thi = tlo;
    for (uint32_t i = 1; i < c->n; i++) { /* bound: n */
        int64_t t = i3_dot(d, i3_sub(qp(c, i), q0));
        if (t < tlo)
            tlo = t, lo = i;
        if (t > thi)
            thi = t, hi = i;
    }
    keep[lo] = keep[hi] = 1;
}

/* ---- the topology block ------------------------------------------------ */

typedef struct qh_fkey {
    uint32_t k0, k1, f, rot; /* smallest vertex, the one after it, face, its position */
} qh_fkey;

static int fkey_cmp(const void *pa, const void *pb)
{
    const qh_fkey *a = pa, *b = pb;
    if (a->k0 != b->k0)
        return a->k0 < b->k0 ? -1 : 1;
    return a->k1 < b->k1 ? -1 : a->k1 > b->k1;
}

typedef struct qh_dir {
    uint32_t b, f; /* directed edge a -> b of face f */
} qh_dir;

static int dir_cmp(const void *pa, const void *pb)
{
    const qh_dir *a = pa, *b = pb; /* a total order: the same on every qsort */
    if (a->b != b->b)
        return a->b < b->b ? -1 : 1;
    return a->f < b->f ? -1 : a->f > b->f;
}

/* Outward unit normal (Newell's, robust for slightly bent loops) and the
 * largest offset of the loop's points, in the input's frame. */
static void face_plane(const qh_cloud *c, const uint32_t *src, const uint32_t *loop, uint32_t m,
                       gjkb__hull_face *f)
{
    qh_v3 o = rp(c, src[loop[0]]), s = { 0.0, 0.0, 0.0 };
    for (uint32_t i = 1; i + 1 < m; i++) { /* bound: m */
        qh_v3 w = v3_cross(v3_sub(rp(c, src[loop[i]]), o), v3_sub(rp(c, src[loop[i + 1]]), o));
        s = (qh_v3){ s.x + w.x, s.y + w.y, s.z + w.z };
    }
    double len = sqrt(v3_dot(s, s));
    if (!(len > 0.0))
        s = (qh_v3){ 0.0, 0.0, 1.0 }, len = 1.0; /* a loop without area: never built */
    f->n[0] = s.x / len, f->n[1] = s.y / len, f->n[2] = s.z / len;
    f->d = -INFINITY;
    for (uint32_t i = 0; i < m; i++) { /* bound: m */
        const float *p = c->xyz + 3 * (size_t)src[loop[i]];
        double d = f->n[0] * (double)p[0] + f->n[1] * (double)p[1] + f->n[2] * (double)p[2];
        f->d = fmax(f->d, d);
    }
}

/* The arrays of the block, carved from one allocation. */
static bool carve(gjkb__hull_topology *t, uint32_t v, uint32_t f, uint32_t ni, uint32_t nd)
{
    size_t e = nd / 2, words = (size_t)v + ni + (v + 1) + 2 * (size_t)nd + 4 * e;
    char *b = malloc((size_t)f * sizeof(gjkb__hull_face) + words * sizeof(uint32_t) + 1);
    if (!b)
        return false;
    uint32_t *w = (uint32_t *)(void *)(b + (size_t)f * sizeof(gjkb__hull_face));
    *t = (gjkb__hull_topology){ .vertex_count = v, .face_count = f, .edge_count = (uint32_t)e,
                                .face = (gjkb__hull_face *)(void *)b, .block = b };
    t->source = w, w += v;
    t->face_vertex = w, w += ni;
    t->adj_first = w, w += v + 1;
    t->adj = w, w += nd;
    t->adj_face = w, w += nd;
    t->edge = w, w += 2 * e;
    t->edge_face = w;
    return true;
}

/* Faces in canonical order, each loop from its smallest vertex. */
static bool write_faces(const qh_cloud *c, const qh_loops *l, const uint32_t *newid, gjkb__hull_topology *t)
{
    qh_fkey *key = malloc(((size_t)l->nf + 1) * sizeof *key);
    if (!key)
        return false;
    for (uint32_t f = 0; f < l->nf; f++) { /* bound: nf, then its loop */
        uint32_t lo = l->first[f], m = l->first[f + 1] - lo, r = 0;
        for (uint32_t j = 1; j < m; j++)
            if (newid[l->idx[lo + j]] < newid[l->idx[lo + r]])
                r = j;
        key[f] = (qh_fkey){ newid[l->idx[lo + r]], newid[l->idx[lo + (r + 1) % m]], f, r };
    }
    qsort(key, l->nf, sizeof *key, fkey_cmp);
    gjkb__hull_face *face = (gjkb__hull_face *)t->face;
    uint32_t *fv = (uint32_t *)t->face_vertex, w = 0;
    for (uint32_t k = 0; k < l->nf; k++) { /* bound: nf, then its loop */
        uint32_t lo = l->first[key[k].f], m = l->first[key[k].f + 1] - lo;
        face[k].first = w, face[k].count = m;
        for (uint32_t j = 0; j < m; j++)
            fv[w++] = newid[l->idx[lo + (key[k].rot + j) % m]];
        face_plane(c, t->source, fv + face[k].first, m, &face[k]);
    }
    free(key);
    return true;
}

/* Index of b in a's ascending neighbour list, or NONE. */
static uint32_t adj_find(const gjkb__hull_topology *t, uint32_t a, uint32_t b)
{
    uint32_t lo = t->adj_first[a], hi = t->adj_first[a + 1];
    while (lo < hi) { /* bound: log2 of a's degree */
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->adj[mid] < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->adj_first[a + 1] && t->adj[lo] == b ? lo : QH_NONE;
}

/* Directed edges of the loops (or the segment's two) sorted per vertex. */
static bool write_adjacency(gjkb__hull_topology *t, uint32_t nd)
{
    qh_dir *dir = malloc(((size_t)nd + 1) * sizeof *dir);
    uint32_t *first = (uint32_t *)t->adj_first, *at = malloc(((size_t)t->vertex_count + 1) * sizeof *at);
    if (!dir || !at) {
        free(dir), free(at);
        return false;
    }
    memset(first, 0, ((size_t)t->vertex_count + 1) * sizeof *first);
    for (uint32_t f = 0; f < t->face_count; f++) /* bound: the loops */
        for (uint32_t j = 0; j < t->face[f].count; j++)
            first[t->face_vertex[t->face[f].first + j] + 1]++;
    if (t->face_count == 0 && nd == 2)
        first[1] = first[2] = 1;
    for (uint32_t v = 0; v < t->vertex_count; v++)
        first[v + 1] += first[v], at[v] = first[v];
    for (uint32_t f = 0; f < t->face_count; f++) /* bound: the loops */
        for (uint32_t j = 0, m = t->face[f].count; j < m; j++) {
            const uint32_t *fv = t->face_vertex + t->face[f].first;
            dir[at[fv[j]]++] = (qh_dir){ fv[(j + 1) % m], f };
        }
    if (t->face_count == 0 && nd == 2)
        dir[0] = (qh_dir){ 1, QH_NONE }, dir[1] = (qh_dir){ 0, QH_NONE };
    for (uint32_t v = 0; v < t->vertex_count; v++) /* bound: V */
        qsort(dir + first[v], first[v + 1] - first[v], sizeof *dir, dir_cmp);
    for (uint32_t k = 0; k < nd; k++)
        ((uint32_t *)t->adj)[k] = dir[k].b, ((uint32_t *)t->adj_face)[k] = dir[k].f;
    free(dir), free(at);
    return true;
}

/* Edges v0 < v1 with the face on each side; false if a directed edge has
 * no reverse (a guard: loops of a closed surface always do). */
static bool write_edges(gjkb__hull_topology *t)
{
    uint32_t *e = (uint32_t *)t->edge, *ef = (uint32_t *)t->edge_face, k = 0;
    for (uint32_t a = 0; a < t->vertex_count; a++) /* bound: directed edges */
        for (uint32_t j = t->adj_first[a]; j < t->adj_first[a + 1]; j++) {
            uint32_t b = t->adj[j], r = adj_find(t, b, a);
            if (r == QH_NONE || (a < b && k == t->edge_count))
                return false;
            if (a < b)
                e[2 * k] = a, e[2 * k + 1] = b, ef[2 * k] = t->adj_face[j], ef[2 * k + 1] = t->adj_face[r], k++;
        }
    return k == t->edge_count;
}

/* The topology of the kept points and the loops. 0 ok, 1 out of memory,
 * 2 guard. */
static int finish(const qh_cloud *c, const qh_loops *l, const uint8_t *keep, gjkb__hull_topology *t)
{
    uint32_t *newid = malloc(((size_t)c->n + 1) * sizeof *newid), v = 0;
    if (!newid)
        return 1;
    for (uint32_t i = 0; i < c->n; i++) /* bound: n */
        newid[i] = keep[i] ? v++ : QH_NONE;
    uint32_t nd = l->nf ? l->ni : v == 2 ? 2 : 0;
    int r = carve(t, v, l->nf, l->ni, nd) ? 0 : 1;
    for (uint32_t i = 0; r == 0 && i < c->n; i++)
        if (keep[i])
            ((uint32_t *)t->source)[newid[i]] = i;
    if (r == 0 && (!write_faces(c, l, newid, t) || !write_adjacency(t, nd)))
        r = 1;
    if (r == 0 && !write_edges(t))
        r = 2;
    free(newid);
    if (r != 0)
        gjkb__hull_topology_free(t);
    return r;
}

/* ---- entry -------------------------------------------------------------- */

static int build(const qh_cloud *c, qh_loops *l, uint8_t *keep)
{
    qh_base b = find_base(c);
    int r = 3;
    if (b.dim == 3)
        r = solid(c, b, l, keep);
    else if (b.dim == 2)
        r = flat(c, b, l, keep);
    if (r == 3 && b.dim >= 1) {
        loops_free(l);
        memset(keep, 0, c->n);
        segment(c, b, keep);
        r = 0;
    } else if (r == 3) {
        keep[0] = 1; /* every point is the first */
        r = 0;
    }
    return r;
}

gjkb_error gjkb__hull_build(const float *xyz, uint32_t n, gjkb__hull_topology *out)
{
    memset(out, 0, sizeof *out);
    qh_cloud c = { 0 };
    qh_loops l = { 0 };
    uint8_t *keep = calloc((size_t)n + 1, 1);
    int r = keep && cloud_init(&c, xyz, n) ? 0 : 1;
    if (r == 0)
        r = build(&c, &l, keep);
    if (r == 0)
        r = finish(&c, &l, keep, out);
    free(c.q);
    free(keep);
    loops_free(&l);
    return r == 0 ? GJKB_OK : r == 1 ? GJKB_ERR_MEMORY : GJKB_ERR_ARGUMENT;
}

void gjkb__hull_topology_free(gjkb__hull_topology *t)
{
    if (!t)
        return;
    free(t->block);
    memset(t, 0, sizeof *t);
}
