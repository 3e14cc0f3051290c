/* peers_ccd.c - libccd's GJK and MPR intersection and penetration on a
 * bench_set.
 * libccd brings no shapes: the support functions below are ours, in double,
 * on the same float-rounded sizes, quaternions and hull points gjkbatch
 * gets. */
#include "peers.h"

#include <ccd/ccd.h>
#include <math.h>
#include <stdlib.h>

typedef struct ccd_body {
    uint8_t kind;         /* gjkb_kind */
    double pos[3];
    double rot[3][3];     /* local to world */
    double size[3];
    const double *pts;    /* hull points, interleaved, local */
    uint32_t npts;
} ccd_body;

struct bench_ccd {
    uint32_t pair_count;
    const uint32_t *pa, *pb;
    ccd_body *bodies;
    double *hull_pts[WL_HULLS];
    uint32_t hull_count;
    ccd_t gjk, gjk_centre, mpr;
};

static void ccd_local_support(const ccd_body *b, const double d[3], double out[3])
{
    switch (b->kind) {
    case GJKB_SPHERE: {
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double k = len > 0 ? b->size[0] / len : 0;
        out[0] = d[0] * k; out[1] = d[1] * k; out[2] = d[2] * k;
        break;
    }
    case GJKB_CAPSULE: {
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double k = len > 0 ? b->size[0] / len : 0;
        out[0] = d[0] * k; out[1] = d[1] * k;
        out[2] = d[2] * k + (d[2] >= 0 ? b->size[2] : -b->size[2]);
        break;
    }
    case GJKB_BOX:
        out[0] = d[0] >= 0 ? b->size[0] : -b->size[0];
        out[1] = d[1] >= 0 ? b->size[1] : -b->size[1];
        out[2] = d[2] >= 0 ? b->size[2] : -b->size[2];
        break;
    case GJKB_CYLINDER: {
        double len = sqrt(d[0] * d[0] + d[1] * d[1]);
        double k = len > 0 ? b->size[0] / len : 0;
        out[0] = d[0] * k; out[1] = d[1] * k;
        out[2] = d[2] >= 0 ? b->size[2] : -b->size[2];
        break;
    }
    default: {   /* hull: the point furthest along d */
        const double *p = b->pts;
        double best = -INFINITY;
        uint32_t bi = 0;
        for (uint32_t i = 0; i < b->npts; i++) {
            double dot = p[3 * i] * d[0] + p[3 * i + 1] * d[1] + p[3 * i + 2] * d[2];
            if (dot > best) {
                best = dot;
                bi = i;
            }
        }
        out[0] = p[3 * bi]; out[1] = p[3 * bi + 1]; out[2] = p[3 * bi + 2];
        break;
    }
    }
}

static void ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *vec)
{
    const ccd_body *b = obj;
    const double (*r)[3] = b->rot;
    double d[3], l[3];
    /* direction into the local frame: R^T dir */
    for (int j = 0; j < 3; j++)
        d[j] = r[0][j] * dir->v[0] + r[1][j] * dir->v[1] + r[2][j] * dir->v[2];
    ccd_local_support(b, d, l);
    for (int i = 0; i < 3; i++)
        vec->v[i] = b->pos[i] + r[i][0] * l[0] + r[i][1] * l[1] + r[i][2] * l[2];
}

static void ccd_center(const void *obj, ccd_vec3_t *c)
{
    const ccd_body *b = obj;
    c->v[0] = b->pos[0]; c->v[1] = b->pos[1]; c->v[2] = b->pos[2];
}

/* ccd_t.first_dir for the centre start: B's centre minus A's, the direction
 * from A - B's centre towards the origin, where the first support point
 * decides the most. (The default, ccdFirstDirDefault, is (1,0,0). MPR does
 * not use first_dir: its portal starts from center1 - center2.) */
static void ccd_first_dir_centre(const void *obj1, const void *obj2, ccd_vec3_t *dir)
{
    const ccd_body *a = obj1, *b = obj2;
    for (int i = 0; i < 3; i++)
        dir->v[i] = b->pos[i] - a->pos[i];
    if (dir->v[0] == 0 && dir->v[1] == 0 && dir->v[2] == 0)
        dir->v[0] = 1;
}

static void ccd_body_init(ccd_body *b, const bench_set *s, const bench_ccd *p, uint32_t i)
{
    double w = s->qw[i], x = s->qx[i], y = s->qy[i], z = s->qz[i];
    double len = sqrt(w * w + x * x + y * y + z * z);
    w /= len; x /= len; y /= len; z /= len;   /* float quaternions are not quite unit */
    b->kind = s->kind[i];
    b->pos[0] = s->px[i]; b->pos[1] = s->py[i]; b->pos[2] = s->pz[i];
    b->rot[0][0] = 1 - 2 * (y * y + z * z); b->rot[0][1] = 2 * (x * y - w * z); b->rot[0][2] = 2 * (x * z + w * y);
    b->rot[1][0] = 2 * (x * y + w * z); b->rot[1][1] = 1 - 2 * (x * x + z * z); b->rot[1][2] = 2 * (y * z - w * x);
    b->rot[2][0] = 2 * (x * z - w * y); b->rot[2][1] = 2 * (y * z + w * x); b->rot[2][2] = 1 - 2 * (x * x + y * y);
    b->size[0] = s->sx[i]; b->size[1] = s->sy[i]; b->size[2] = s->sz[i];
    b->pts = NULL;
    b->npts = 0;
    if (b->kind == GJKB_HULL) {
        b->pts = p->hull_pts[s->hull[i]];
        b->npts = s->hull_n[s->hull[i]];
    }
}

void bench_ccd_free(bench_ccd *p)
{
    if (!p)
        return;
    for (uint32_t h = 0; h < p->hull_count; h++)
        free(p->hull_pts[h]);
    free(p->bodies);
    free(p);
}

bench_ccd *bench_ccd_prepare(const bench_set *s)
{
    bench_ccd *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->pair_count = s->pair_count;
    p->pa = s->pa;
    p->pb = s->pb;
    for (uint32_t h = 0; h < s->hull_count; h++) {
        uint32_t n = s->hull_n[h];
        p->hull_pts[h] = malloc((size_t)(n ? n : 1) * 3 * sizeof(double));
        if (!p->hull_pts[h]) {
            bench_ccd_free(p);
            return NULL;
        }
        p->hull_count = h + 1;
        for (uint32_t k = 0; k < 3 * n; k++)
            p->hull_pts[h][k] = s->hull_xyz[h][k];
    }
    p->bodies = malloc((size_t)s->body_count * sizeof *p->bodies);
    if (!p->bodies) {
        bench_ccd_free(p);
        return NULL;
    }
    for (uint32_t i = 0; i < s->body_count; i++)
        ccd_body_init(&p->bodies[i], s, p, i);

    CCD_INIT(&p->gjk);
    p->gjk.support1 = ccd_support;
    p->gjk.support2 = ccd_support;
    p->gjk.center1 = ccd_center;
    p->gjk.center2 = ccd_center;
    /* libccd's default is unbounded; give it gjkbatch's default bound
     * (a pair still undecided then counts as not overlapping) */
    p->gjk.max_iterations = GJKB_DEFAULT_MAX_ITERATIONS;
    p->mpr = p->gjk;
    p->gjk_centre = p->gjk;
    p->gjk_centre.first_dir = ccd_first_dir_centre;
    return p;
}

static uint32_t ccd_gjk_run(const bench_ccd *p, const ccd_t *c, uint8_t *hit)
{
    uint32_t hits = 0;
    for (uint32_t i = 0; i < p->pair_count; i++) {
        int h = ccdGJKIntersect(&p->bodies[p->pa[i]], &p->bodies[p->pb[i]], c) != 0;
        hit[i] = (uint8_t)h;
        hits += (uint32_t)h;
    }
    return hits;
}

uint32_t bench_ccd_gjk(const bench_ccd *p, uint8_t *hit)
{
    return ccd_gjk_run(p, &p->gjk, hit);
}

uint32_t bench_ccd_gjk_centre(const bench_ccd *p, uint8_t *hit)
{
    return ccd_gjk_run(p, &p->gjk_centre, hit);
}

uint32_t bench_ccd_mpr(const bench_ccd *p, uint8_t *hit)
{
    uint32_t hits = 0;
    for (uint32_t i = 0; i < p->pair_count; i++) {
        int h = ccdMPRIntersect(&p->bodies[p->pa[i]], &p->bodies[p->pb[i]], &p->mpr) != 0;
        hit[i] = (uint8_t)h;
        hits += (uint32_t)h;
    }
    return hits;
}

/* libccd's own tolerances (mpr_tolerance, epa_tolerance: 1e-4, absolute)
 * are kept: they are what its users get, and they bound its depth error. */
typedef int (*ccd_pen_fn)(const void *, const void *, const ccd_t *, ccd_real_t *, ccd_vec3_t *,
                          ccd_vec3_t *);

static uint32_t ccd_pen_run(const bench_ccd *p, const ccd_t *c, ccd_pen_fn fn, uint32_t n, double *depth,
                            uint8_t *count)
{
    uint32_t hits = 0;
    for (uint32_t i = 0; i < n && i < p->pair_count; i++) {
        ccd_real_t d = 0;
        ccd_vec3_t dir, pos;
        int h = fn(&p->bodies[p->pa[i]], &p->bodies[p->pb[i]], c, &d, &dir, &pos) == 0;
        depth[i] = h ? (double)d : 0.0;
        count[i] = (uint8_t)h;
        hits += (uint32_t)h;
    }
    return hits;
}

uint32_t bench_ccd_gjk_pen(const bench_ccd *p, uint32_t n, double *depth, uint8_t *count)
{
    return ccd_pen_run(p, &p->gjk, ccdGJKPenetration, n, depth, count);
}

uint32_t bench_ccd_mpr_pen(const bench_ccd *p, uint32_t n, double *depth, uint8_t *count)
{
    return ccd_pen_run(p, &p->mpr, ccdMPRPenetration, n, depth, count);
}
