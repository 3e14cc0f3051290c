/* harness.c - workloads.h sets as gjkbatch SoA inputs, and one batch call. */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cache-line aligned so a batch does not straddle lines at its ends. */
static void *bench_alloc(size_t bytes)
{
    size_t rounded = (bytes + 63u) & ~(size_t)63u;
    return aligned_alloc(64, rounded ? rounded : 64);
}

const char *bench_workload_name(int workload)
{
    return workload >= 0 && workload < WL_COUNT ? wl_names[workload] : "?";
}

void bench_set_free(bench_set *s)
{
    free(s->kind);
    free(s->px); free(s->py); free(s->pz);
    free(s->qw); free(s->qx); free(s->qy); free(s->qz);
    free(s->sx); free(s->sy); free(s->sz);
    free(s->hull);
    free(s->pa); free(s->pb);
    for (uint32_t h = 0; h < s->hull_count; h++)
        free(s->hull_xyz[h]);
    memset(s, 0, sizeof *s);
}

static int bench_set_alloc(bench_set *s, uint32_t pairs)
{
    uint32_t n = 2 * pairs;
    memset(s, 0, sizeof *s);
    s->pair_count = pairs;
    s->body_count = n;
    s->kind = bench_alloc(n);
    s->px = bench_alloc(n * sizeof(double));
    s->py = bench_alloc(n * sizeof(double));
    s->pz = bench_alloc(n * sizeof(double));
    s->qw = bench_alloc(n * sizeof(float));
    s->qx = bench_alloc(n * sizeof(float));
    s->qy = bench_alloc(n * sizeof(float));
    s->qz = bench_alloc(n * sizeof(float));
    s->sx = bench_alloc(n * sizeof(float));
    s->sy = bench_alloc(n * sizeof(float));
    s->sz = bench_alloc(n * sizeof(float));
    s->hull = bench_alloc(n * sizeof(uint32_t));
    s->pa = bench_alloc(pairs * sizeof(uint32_t));
    s->pb = bench_alloc(pairs * sizeof(uint32_t));
    if (!s->kind || !s->px || !s->py || !s->pz || !s->qw || !s->qx || !s->qy || !s->qz ||
        !s->sx || !s->sy || !s->sz || !s->hull || !s->pa || !s->pb) {
        bench_set_free(s);
        return -1;
    }
    return 0;
}

static void bench_set_body(bench_set *s, uint32_t i, const wl_shape *sh)
{
    float sx = 0, sy = 0, sz = 0;
    uint8_t kind;
    switch (sh->kind) {
    case WL_SPHERE:
        kind = GJKB_SPHERE; sx = (float)sh->radius; break;
    case WL_BOX:
        kind = GJKB_BOX; sx = (float)sh->half.x; sy = (float)sh->half.y; sz = (float)sh->half.z; break;
    case WL_CAPSULE:
        kind = GJKB_CAPSULE; sx = (float)sh->radius; sz = (float)sh->half_height; break;
    case WL_CYLINDER:
        kind = GJKB_CYLINDER; sx = (float)sh->radius; sz = (float)sh->half_height; break;
    default:
        kind = GJKB_HULL; break;
    }
    s->kind[i] = kind;
    s->px[i] = sh->pos.x; s->py[i] = sh->pos.y; s->pz[i] = sh->pos.z;
    s->qw[i] = (float)sh->rot.w; s->qx[i] = (float)sh->rot.x;
    s->qy[i] = (float)sh->rot.y; s->qz[i] = (float)sh->rot.z;
    s->sx[i] = sx; s->sy[i] = sy; s->sz[i] = sz;
    s->hull[i] = kind == GJKB_HULL ? (uint32_t)sh->hull : 0u;
}

int bench_set_from_wl(bench_set *s, const wl_set *wl, int workload)
{
    if (wl->count < 0 || wl->hull_count < 0 || wl->hull_count > WL_HULLS)
        return -1;
    if (bench_set_alloc(s, (uint32_t)wl->count) != 0)
        return -1;
    s->workload = workload;
    for (uint32_t i = 0; i < s->pair_count; i++) {
        bench_set_body(s, 2 * i, &wl->a[i]);
        bench_set_body(s, 2 * i + 1, &wl->b[i]);
        s->pa[i] = 2 * i;
        s->pb[i] = 2 * i + 1;
    }
    for (int h = 0; h < wl->hull_count; h++) {
        const wl_hull *src = &wl->hulls[h];
        float *xyz = bench_alloc((size_t)src->n * 3 * sizeof(float));
        if (!xyz) {
            bench_set_free(s);
            return -1;
        }
        for (int k = 0; k < src->n; k++) {
            xyz[3 * k] = (float)src->pts[k].x;
            xyz[3 * k + 1] = (float)src->pts[k].y;
            xyz[3 * k + 2] = (float)src->pts[k].z;
        }
        s->hull_xyz[h] = xyz;
        s->hull_n[h] = (uint32_t)src->n;
        s->hull_count = (uint32_t)h + 1;
    }
    s->bodies = (gjkb_bodies){
        .count = s->body_count, .kind = s->kind,
        .px = s->px, .py = s->py, .pz = s->pz,
        .qw = s->qw, .qx = s->qx, .qy = s->qy, .qz = s->qz,
        .sx = s->sx, .sy = s->sy, .sz = s->sz,
        .margin = NULL, .hull = s->hull,
    };
    s->pairs = (gjkb_pairs){ .count = s->pair_count, .a = s->pa, .b = s->pb };
    return 0;
}

int bench_set_make(bench_set *s, int workload, uint32_t pairs, uint64_t seed)
{
    wl_set wl;
    int rc;
    if (workload < 0 || workload >= WL_COUNT || pairs > (uint32_t)INT32_MAX / 2)
        return -1;
    wl_make(&wl, workload, (int)pairs, seed);
    rc = wl.a && wl.b ? bench_set_from_wl(s, &wl, workload) : -1;
    wl_free(&wl);
    return rc;
}

gjkb_error bench_context_create(const bench_set *s, gjkb_backend backend, gjkb_context **out)
{
    gjkb_config cfg = { .backend = backend, .reserve_pairs = s->pair_count };
    gjkb_context *ctx;
    gjkb_error err = gjkb_create(&cfg, &ctx);
    *out = NULL;
    if (err != GJKB_OK)
        return err;
    for (uint32_t h = 0; h < s->hull_count; h++) {
        uint32_t id;
        err = gjkb_hull_add(ctx, s->hull_xyz[h], s->hull_n[h], &id);
        if (err == GJKB_OK && id != h)
            err = GJKB_ERR_ARGUMENT;   /* the set's hull indices are the ids */
        if (err != GJKB_OK) {
            gjkb_destroy(ctx);
            return err;
        }
    }
    *out = ctx;
    return GJKB_OK;
}

void bench_out_free(bench_out *o)
{
    free(o->status);
    free(o->distance);
    free(o->ax); free(o->ay); free(o->az);
    free(o->bx); free(o->by); free(o->bz);
    free(o->nx); free(o->ny); free(o->nz);
    free(o->iterations);
    free(o->contacts);
    free(o->cax); free(o->cay); free(o->caz);
    free(o->cbx); free(o->cby); free(o->cbz);
    free(o->csep);
    free(o->cfeature);
    memset(o, 0, sizeof *o);
}

/* The manifold arrays, GJKB_MAX_CONTACTS slots per pair. 0 or -1. */
static int bench_out_alloc_manifold(bench_out *o)
{
    size_t slots = (size_t)o->count * GJKB_MAX_CONTACTS, nd = slots * sizeof(double);
    o->contacts = bench_alloc(o->count);
    o->cax = bench_alloc(nd); o->cay = bench_alloc(nd); o->caz = bench_alloc(nd);
    o->cbx = bench_alloc(nd); o->cby = bench_alloc(nd); o->cbz = bench_alloc(nd);
    o->csep = bench_alloc(nd);
    o->cfeature = bench_alloc(slots * sizeof(uint32_t));
    return o->contacts && o->cax && o->cay && o->caz && o->cbx && o->cby && o->cbz && o->csep &&
                   o->cfeature ? 0 : -1;
}

int bench_out_alloc(bench_out *o, uint32_t count)
{
    size_t nd = (size_t)count * sizeof(double);
    memset(o, 0, sizeof *o);
    o->count = count;
    o->status = bench_alloc(count);
    o->distance = bench_alloc(nd);
    o->ax = bench_alloc(nd); o->ay = bench_alloc(nd); o->az = bench_alloc(nd);
    o->bx = bench_alloc(nd); o->by = bench_alloc(nd); o->bz = bench_alloc(nd);
    o->nx = bench_alloc(nd); o->ny = bench_alloc(nd); o->nz = bench_alloc(nd);
    o->iterations = bench_alloc((size_t)count * sizeof(uint32_t));
    if (!o->status || !o->distance || !o->ax || !o->ay || !o->az || !o->bx || !o->by ||
        !o->bz || !o->nx || !o->ny || !o->nz || !o->iterations || bench_out_alloc_manifold(o) != 0) {
        bench_out_free(o);
        return -1;
    }
    return 0;
}

gjkb_error bench_run_first(gjkb_context *ctx, const bench_set *s, gjkb_mode mode, uint32_t pairs,
                           bench_out *o)
{
    gjkb_query q = { .mode = mode };
    gjkb_results r = { .status = o->status, .iterations = o->iterations };
    gjkb_pairs first = { .count = pairs, .a = s->pa, .b = s->pb };
    if (pairs > s->pair_count || o->count < pairs)
        return GJKB_ERR_ARGUMENT;
    if (mode != GJKB_HIT) {
        r.distance = o->distance;
        r.ax = o->ax; r.ay = o->ay; r.az = o->az;
        r.bx = o->bx; r.by = o->by; r.bz = o->bz;
        r.nx = o->nx; r.ny = o->ny; r.nz = o->nz;
    }
    if (mode == GJKB_CONTACT)
        r.manifold = (gjkb_manifolds){
            .count = o->contacts,
            .ax = o->cax, .ay = o->cay, .az = o->caz,
            .bx = o->cbx, .by = o->cby, .bz = o->cbz,
            .separation = o->csep, .feature = o->cfeature,
        };
    return gjkb_query_batch(ctx, &s->bodies, &first, &q, &r);
}

gjkb_error bench_run(gjkb_context *ctx, const bench_set *s, gjkb_mode mode, bench_out *o)
{
    return bench_run_first(ctx, s, mode, s->pair_count, o);
}

uint32_t bench_verdicts(const bench_out *o, uint8_t *hit)
{
    uint32_t hits = 0;
    for (uint32_t i = 0; i < o->count; i++) {
        hit[i] = o->status[i] == GJKB_OVERLAP;
        hits += hit[i];
    }
    return hits;
}

uint32_t bench_unresolved(const bench_out *o)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < o->count; i++)
        n += o->status[i] == GJKB_LIMIT || o->status[i] == GJKB_INVALID;
    return n;
}

double bench_mean_iterations_first(const bench_out *o, uint32_t n)
{
    double sum = 0;
    n = n < o->count ? n : o->count;
    for (uint32_t i = 0; i < n; i++)
        sum += o->iterations[i];
    return n ? sum / n : 0.0;
}

double bench_mean_iterations(const bench_out *o)
{
    return bench_mean_iterations_first(o, o->count);
}

uint32_t bench_mismatches(const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        m += (a[i] != 0) != (b[i] != 0);
    return m;
}

/* ---- contact mode: agreement with the reference ------------------------- */

/* A body's bounding radius from the float sizes gjkbatch gets (no margins:
 * the sets have none). */
static double bench_body_radius(const bench_set *s, uint32_t i)
{
    double x = s->sx[i], y = s->sy[i], z = s->sz[i], m = 0;
    switch (s->kind[i]) {
    case GJKB_SPHERE: return x;
    case GJKB_CAPSULE: return x + z;
    case GJKB_BOX: return sqrt(x * x + y * y + z * z);
    case GJKB_CYLINDER: case GJKB_CONE: return sqrt(x * x + z * z);
    default: break;
    }
    const float *p = s->hull_xyz[s->hull[i]];
    for (uint32_t k = 0; k < s->hull_n[s->hull[i]]; k++) {
        double d = sqrt((double)p[3 * k] * p[3 * k] + (double)p[3 * k + 1] * p[3 * k + 1] +
                        (double)p[3 * k + 2] * p[3 * k + 2]);
        m = d > m ? d : m;
    }
    return m;
}

void bench_pair_scales(const bench_set *s, double *scale)
{
    for (uint32_t i = 0; i < s->pair_count; i++)
        scale[i] = bench_body_radius(s, s->pa[i]) + bench_body_radius(s, s->pb[i]);
}

/* Where the reference's answer is not within the touching band: its depth
 * (or gap) is then a number to compare, and its verdict not a coin toss. */
static int bench_outside_band(const bench_out *ref, const double *scale, uint32_t i)
{
    return (ref->status[i] == GJKB_OVERLAP || ref->status[i] == GJKB_SEPARATED) &&
           fabs(ref->distance[i]) > GJKB_DEFAULT_TOLERANCE * scale[i];
}

/* |n| = 1 within 1e-5 (float lanes round n to about 1e-7; the verifier's
 * bound). */
static int bench_unit_normal(const bench_out *o, uint32_t i)
{
    double len2 = o->nx[i] * o->nx[i] + o->ny[i] * o->ny[i] + o->nz[i] * o->nz[i];
    return isfinite(len2) && fabs(len2 - 1.0) <= 2e-5;
}

void bench_contact_compare(const bench_out *o, const bench_out *ref, const double *scale, uint32_t n,
                           double tol, bench_contact_check *c)
{
    memset(c, 0, sizeof *c);
    c->compared = n;
    for (uint32_t i = 0; i < n; i++) {
        int overlap = o->status[i] == GJKB_OVERLAP;
        c->points += o->contacts[i];
        c->limit += o->status[i] == GJKB_LIMIT;
        c->count_bad += o->contacts[i] != ref->contacts[i];
        c->nan_normal += overlap && !bench_unit_normal(o, i);
        if (ref->status[i] == GJKB_OVERLAP)
            c->dropped += !overlap || o->contacts[i] == 0 || !isfinite(o->distance[i]);
        if (!bench_outside_band(ref, scale, i))
            continue;
        c->extra += ref->status[i] == GJKB_SEPARATED && o->contacts[i] > 0;
        if (o->status[i] == GJKB_OVERLAP || o->status[i] == GJKB_SEPARATED)
            c->depth_bad += !(fabs(o->distance[i] - ref->distance[i]) <= tol * scale[i]);
    }
}

void bench_peer_compare(const bench_out *ref, const double *scale, uint32_t n, const double *depth,
                        const uint8_t *count, int manifold, double tol, bench_contact_check *c)
{
    memset(c, 0, sizeof *c);
    c->compared = n;
    for (uint32_t i = 0; i < n; i++) {
        c->points += count[i];
        if (!bench_outside_band(ref, scale, i))
            continue;
        if (ref->status[i] == GJKB_SEPARATED) {
            c->extra += count[i] > 0;
            continue;
        }
        if (count[i] == 0) {
            c->dropped++;
            continue;
        }
        /* the reference's distance is minus the depth */
        c->depth_bad += !(fabs(depth[i] + ref->distance[i]) <= tol * scale[i]);
        c->count_bad += manifold && count[i] != ref->contacts[i];
    }
}

/* ---- hand-made pairs with known answers -------------------------------- */

typedef struct bench_known {
    wl_shape a, b;
    double dist;   /* exact signed gap; <= 0 means overlap */
} bench_known;

static wl_shape known_shape(int kind, double r, double hh, double hx, double hy, double hz,
                            double x, double y, double z, wl_quat q)
{
    wl_shape s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.radius = r;
    s.half_height = hh;
    s.half.x = hx; s.half.y = hy; s.half.z = hz;
    s.hull = 0;
    s.pos.x = x; s.pos.y = y; s.pos.z = z;
    s.rot = q;
    return s;
}

#define KS(r, x, y, z, q) known_shape(WL_SPHERE, r, 0, 0, 0, 0, x, y, z, q)
#define KB(h, x, y, z, q) known_shape(WL_BOX, 0, 0, h, h, h, x, y, z, q)
#define KC(r, hh, x, y, z, q) known_shape(WL_CAPSULE, r, hh, 0, 0, 0, x, y, z, q)
#define KY(r, hh, x, y, z, q) known_shape(WL_CYLINDER, r, hh, 0, 0, 0, x, y, z, q)
#define KH(x, y, z, q) known_shape(WL_HULL, 0, 0, 0, 0, 0, x, y, z, q)

int bench_known_make(bench_set *s, uint8_t **expect_hit, double **expect_dist)
{
    const double r2 = sqrt(2.0), c45 = cos(WL_PI / 4), s45 = sin(WL_PI / 4);
    const double c22 = cos(WL_PI / 8), s22 = sin(WL_PI / 8);
    const wl_quat id = { 1, 0, 0, 0 };
    const wl_quat z45 = { c22, 0, 0, s22 };   /* 45 degrees about z */
    const wl_quat x90 = { c45, s45, 0, 0 };   /* 90 degrees about x: local z -> world -y */
    /* A cube of half extent 1 with interior and face-centre points, which a
     * hull support must ignore. */
    static const double cube[][3] = {
        { -1, -1, -1 }, { 1, -1, -1 }, { -1, 1, -1 }, { 1, 1, -1 },
        { -1, -1, 1 }, { 1, -1, 1 }, { -1, 1, 1 }, { 1, 1, 1 },
        { 0, 0, 0 }, { 1, 0, 0 }, { 0, 0.5, 0.25 }, { -1, 0, 0 },
    };
    const bench_known k[] = {
        { KS(1, 0, 0, 0, id), KS(0.5, 1.4, 0, 0, id), -0.1 },
        { KS(1, 0, 0, 0, id), KS(0.5, 1.6, 0, 0, id), 0.1 },
        { KB(1, 0, 0, 0, id), KB(0.5, 1.4, 0.2, 0.1, id), -0.1 },
        { KB(1, 0, 0, 0, id), KB(0.5, 1.6, 0.2, 0.1, id), 0.1 },
        { KB(1, 0, 0, 0, z45), KS(0.5, 1.8, 0, 0, id), 1.8 - r2 - 0.5 },
        { KB(1, 0, 0, 0, z45), KS(0.5, 2.0, 0, 0, id), 2.0 - r2 - 0.5 },
        { KC(0.5, 1, 0, 0, 0, id), KS(0.5, 0, 0, 1.9, id), -0.1 },
        { KC(0.5, 1, 0, 0, 0, id), KS(0.5, 0, 0, 2.1, id), 0.1 },
        { KC(0.5, 1, 0, 0, 0, x90), KB(0.5, 0, -1.9, 0, id), -0.1 },
        { KC(0.5, 1, 0, 0, 0, x90), KB(0.5, 0, -2.1, 0, id), 0.1 },
        { KY(1, 1, 0, 0, 0, id), KS(0.5, 1.2, 0, 1.2, id), sqrt(0.08) - 0.5 },
        { KY(1, 1, 0, 0, 0, id), KS(0.5, 1.4, 0, 1.4, id), sqrt(0.32) - 0.5 },
        { KY(1, 1, 0, 0, 0, id), KY(0.5, 0.5, 0.3, 0, 1.4, id), -0.1 },
        { KY(1, 1, 0, 0, 0, id), KY(0.5, 0.5, 0.3, 0, 1.6, id), 0.1 },
        { KH(0, 0, 0, id), KS(0.5, 1.4, 0, 0, id), -0.1 },
        { KH(0, 0, 0, id), KS(0.5, 1.6, 0, 0, id), 0.1 },
        { KH(0, 0, 0, id), KB(0.5, 1.0 + r2 / 2 - 0.05, 0.1, 0, z45), -0.05 },
        { KH(0, 0, 0, id), KB(0.5, 1.0 + r2 / 2 + 0.05, 0.1, 0, z45), 0.05 },
        { KB(1, 0, 0, 0, id), KH(10, 0, 0, id), 8.0 },
        { KB(1, 3, -2, 5, z45), KS(0.5, 3, -2, 5, id), -1.5 },
        { KH(-4, 7, 1, z45), KC(0.25, 0.5, -4, 7, 1, x90), -1.25 },
    };
    const int n = (int)(sizeof k / sizeof k[0]);
    wl_set wl;
    wl_shape a[sizeof k / sizeof k[0]], b[sizeof k / sizeof k[0]];
    wl_vec3 pts[sizeof cube / sizeof cube[0]];
    uint8_t *hit = malloc((size_t)n);
    double *dist = malloc((size_t)n * sizeof(double));
    int rc;

    *expect_hit = NULL;
    *expect_dist = NULL;
    if (!hit || !dist) {
        free(hit);
        free(dist);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        a[i] = k[i].a;
        b[i] = k[i].b;
        hit[i] = k[i].dist <= 0;
        dist[i] = k[i].dist > 0 ? k[i].dist : 0;
    }
    for (size_t p = 0; p < sizeof cube / sizeof cube[0]; p++) {
        pts[p].x = cube[p][0]; pts[p].y = cube[p][1]; pts[p].z = cube[p][2];
    }
    memset(&wl, 0, sizeof wl);
    wl.count = n;
    wl.a = a;
    wl.b = b;
    wl.hull_count = 1;
    wl.hulls[0].n = (int)(sizeof cube / sizeof cube[0]);
    wl.hulls[0].pts = pts;
    rc = bench_set_from_wl(s, &wl, -1);
    if (rc != 0) {
        free(hit);
        free(dist);
        return -1;
    }
    *expect_hit = hit;
    *expect_dist = dist;
    return 0;
}
