#define _POSIX_C_SOURCE 200809L /* setenv */
/* test_backends.c - every wide backend this build runs against the scalar
 * reference on a large mixed batch (all kind combinations, margins, hulls),
 * and bit-identical results across widths, pair order and neighbours.
 *
 * GJKB_TEST_PAIRS sets the batch size (default 1,000,000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gjkbatch.h"
#include "scene.h"

/* Agreement with the reference, relative to each pair's scale. */
#define DIST_TOL 1e-4
/* Pairs within this gap of touching may get either verdict (counted). */
#define BAND 1e-4
/* Pairs whose witness points are checked one by one. */
#define WITNESS_CHECKS 20000

typedef struct outputs {
    uint32_t n;
    uint8_t *status;
    double *dist, *ax, *ay, *az, *bx, *by, *bz, *nx, *ny, *nz;
    uint32_t *iters;
} outputs;

static outputs outputs_make(uint32_t n)
{
    outputs o = { n, calloc(n, 1), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                  calloc(n, sizeof(uint32_t)) };
    double **d[] = { &o.dist, &o.ax, &o.ay, &o.az, &o.bx, &o.by, &o.bz, &o.nx, &o.ny, &o.nz };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        *d[i] = calloc(n, sizeof(double));
    return o;
}

static void outputs_free(outputs *o)
{
    double *d[] = { o->dist, o->ax, o->ay, o->az, o->bx, o->by, o->bz, o->nx, o->ny, o->nz };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        free(d[i]);
    free(o->status);
    free(o->iters);
}

static gjkb_results results_of(outputs *o)
{
    gjkb_results r = { o->status, o->dist, o->ax, o->ay, o->az, o->bx, o->by, o->bz, o->nx, o->ny, o->nz,
                       o->iters, {0} };
    return r;
}

/* Bitwise equality of every output array (NaNs compare by bits too). */
static int outputs_identical(const outputs *x, const outputs *y)
{
    size_t n = x->n;
    if (memcmp(x->status, y->status, n) || memcmp(x->iters, y->iters, n * sizeof(uint32_t)))
        return 0;
    const double *dx[] = { x->dist, x->ax, x->ay, x->az, x->bx, x->by, x->bz, x->nx, x->ny, x->nz };
    const double *dy[] = { y->dist, y->ax, y->ay, y->az, y->bx, y->by, y->bz, y->nx, y->ny, y->nz };
    for (size_t i = 0; i < sizeof dx / sizeof dx[0]; i++)
        if (memcmp(dx[i], dy[i], n * sizeof(double)))
            return 0;
    return 1;
}

static scene g_scene;
static uint32_t g_pairs;
static outputs g_ref, g_ref_hit;

static gjkb_context *context_for(gjkb_backend b)
{
    gjkb_config cfg = { .backend = b };
    gjkb_context *ctx = NULL;
    assert_int_equal(gjkb_create(&cfg, &ctx), GJKB_OK);
    assert_int_equal(scene_register_hulls(&g_scene, ctx), GJKB_OK);
    return ctx;
}

/* The batch over the first `bodies_used` bodies of a view (0: all). */
static void run_over(gjkb_context *ctx, gjkb_mode mode, gjkb_bodies bodies, const gjkb_pairs *pairs, outputs *o,
                     uint32_t bodies_used)
{
    if (bodies_used)
        bodies.count = bodies_used;
    gjkb_query q = { .mode = mode };
    gjkb_results r = results_of(o);
    assert_int_equal(gjkb_query_batch(ctx, &bodies, pairs, &q, &r), GJKB_OK);
}

static void run(gjkb_context *ctx, gjkb_mode mode, const gjkb_pairs *pairs, outputs *o)
{
    gjkb_bodies bodies = scene_bodies(&g_scene);
    gjkb_query q = { .mode = mode };
    gjkb_results r = results_of(o);
    assert_int_equal(gjkb_query_batch(ctx, &bodies, pairs, &q, &r), GJKB_OK);
}

static int setup(void **state)
{
    (void)state;
    const char *env = getenv("GJKB_TEST_PAIRS");
    g_pairs = env ? (uint32_t)strtoul(env, NULL, 10) : 1000000u;
    if (scene_generate(&g_scene, g_pairs, 7) != 0)
        return -1;
    g_ref = outputs_make(g_pairs);
    g_ref_hit = outputs_make(g_pairs);
    gjkb_context *ctx = context_for(GJKB_BACKEND_REFERENCE);
    gjkb_pairs pairs = scene_pairs(&g_scene);
    run(ctx, GJKB_DISTANCE, &pairs, &g_ref);
    run(ctx, GJKB_HIT, &pairs, &g_ref_hit);
    gjkb_destroy(ctx);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    outputs_free(&g_ref);
    outputs_free(&g_ref_hit);
    scene_free(&g_scene);
    return 0;
}

/* Distance from point p to body `body` of the scene, by the reference. */
static double point_to_body(gjkb_context *ref, const double p[3], uint32_t body)
{
    gjkb_bodies bd = scene_bodies(&g_scene);
    gjkb_shape s = { (gjkb_kind)bd.kind[body], { bd.sx[body], bd.sy[body], bd.sz[body] },
                     bd.margin ? bd.margin[body] : 0.0f, bd.hull ? bd.hull[body] : 0,
                     { bd.px[body], bd.py[body], bd.pz[body] },
                     { bd.qw[body], bd.qx[body], bd.qy[body], bd.qz[body] } };
    gjkb_shape pt = { GJKB_SPHERE, { 0, 0, 0 }, 0.0f, 0, { p[0], p[1], p[2] }, { 1, 0, 0, 0 } };
    gjkb_result r;
    assert_int_equal(gjkb_query_pair(ref, &pt, &s, NULL, &r), GJKB_OK);
    return r.status == GJKB_OVERLAP ? 0.0 : r.distance;
}

/* Compares one backend's distance-mode results with the reference. */
static void check_against_reference(gjkb_backend b, const outputs *o, gjkb_context *ref)
{
    uint32_t band = 0, limit = 0, witnessed = 0;
    double worst = 0;
    for (uint32_t i = 0; i < g_pairs; i++) {
        double scale = scene_pair_scale(&g_scene, i);
        int rs = g_ref.status[i], ks = o->status[i];
        assert_true(ks <= GJKB_INVALID);
        assert_int_equal(rs == GJKB_INVALID, ks == GJKB_INVALID);
        if (ks == GJKB_LIMIT || rs == GJKB_LIMIT) {
            limit++;
            continue;
        }
        if (rs != ks) {
            /* Only near touching: the separated side's gap is within the band. */
            double gap = rs == GJKB_SEPARATED ? g_ref.dist[i] : o->dist[i];
            if (!(gap <= BAND * scale))
                fail_msg("%s pair %u: status %d, reference %d (gap %.9g, scale %.9g)", gjkb_backend_name(b), i,
                         ks, rs, gap, scale);
            band++;
            continue;
        }
        if (rs != GJKB_SEPARATED)
            continue;
        double err = fabs(o->dist[i] - g_ref.dist[i]) / scale;
        if (err > worst)
            worst = err;
        if (!(err <= DIST_TOL))
            fail_msg("%s pair %u: distance %.9g, reference %.9g (scale %.9g)", gjkb_backend_name(b), i, o->dist[i],
                     g_ref.dist[i], scale);
        /* Witnesses: on the shapes, |b - a| = distance, n from A to B. */
        double a[3] = { o->ax[i], o->ay[i], o->az[i] }, w[3] = { o->bx[i], o->by[i], o->bz[i] };
        double d[3] = { w[0] - a[0], w[1] - a[1], w[2] - a[2] };
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double nlen = sqrt(o->nx[i] * o->nx[i] + o->ny[i] * o->ny[i] + o->nz[i] * o->nz[i]);
        assert_true(fabs(nlen - 1.0) <= 1e-5);
        assert_true(fabs(len - o->dist[i]) <= DIST_TOL * scale);
        assert_true(o->nx[i] * d[0] + o->ny[i] * d[1] + o->nz[i] * d[2] >= len * (1 - 1e-3) - DIST_TOL * scale);
        if (witnessed < WITNESS_CHECKS) {
            witnessed++;
            assert_true(point_to_body(ref, a, g_scene.pa[i]) <= DIST_TOL * scale);
            assert_true(point_to_body(ref, w, g_scene.pb[i]) <= DIST_TOL * scale);
        }
    }
    printf("  %-7s distance: %u pairs, %u near-touching verdicts differ, %u at the iteration bound, "
           "worst distance error %.3g of scale\n", gjkb_backend_name(b), g_pairs, band, limit, worst);
    assert_true(band <= g_pairs / 1000);
    assert_true(limit <= g_pairs / 10000);
}

/* Hit mode: verdicts as the reference's, the same band allowed. */
static void check_hits(gjkb_backend b, const outputs *o)
{
    uint32_t band = 0, overlaps = 0;
    for (uint32_t i = 0; i < g_pairs; i++) {
        int rs = g_ref.status[i], ks = o->status[i];
        if (ks == GJKB_OVERLAP)
            overlaps++;
        if (rs == ks || rs == GJKB_LIMIT || ks == GJKB_LIMIT)
            continue;
        double scale = scene_pair_scale(&g_scene, i);
        if (!(rs == GJKB_OVERLAP || g_ref.dist[i] <= BAND * scale))
            fail_msg("%s hit pair %u: status %d, reference %d (reference distance %.9g)", gjkb_backend_name(b), i,
                     ks, rs, g_ref.dist[i]);
        band++;
    }
    printf("  %-7s hit: %u overlaps, %u near-touching verdicts differ\n", gjkb_backend_name(b), overlaps, band);
    assert_true(overlaps > g_pairs / 4 && overlaps < g_pairs * 3 / 4);
    assert_true(band <= g_pairs / 1000);
}

static void test_backends_match_reference_and_each_other(void **state)
{
    (void)state;
    gjkb_context *ref = context_for(GJKB_BACKEND_REFERENCE);
    gjkb_pairs pairs = scene_pairs(&g_scene);
    outputs first = { 0 }, first_hit = { 0 };
    gjkb_backend first_b = GJKB_BACKEND_AUTO;
    int tested = 0;
    for (int b = GJKB_BACKEND_SCALAR; b < GJKB_BACKEND_COUNT; b++) {
        if (!gjkb_backend_available((gjkb_backend)b))
            continue;
        gjkb_context *ctx = context_for((gjkb_backend)b);
        outputs o = outputs_make(g_pairs), h = outputs_make(g_pairs);
        run(ctx, GJKB_DISTANCE, &pairs, &o);
        run(ctx, GJKB_HIT, &pairs, &h);
        check_against_reference((gjkb_backend)b, &o, ref);
        check_hits((gjkb_backend)b, &h);
        if (!tested) {
            first = o, first_hit = h, first_b = (gjkb_backend)b;
        } else {
            if (!outputs_identical(&first, &o) || !outputs_identical(&first_hit, &h))
                fail_msg("%s results differ in bits from %s", gjkb_backend_name((gjkb_backend)b),
                         gjkb_backend_name(first_b));
            outputs_free(&o);
            outputs_free(&h);
        }
        tested++;
        gjkb_destroy(ctx);
    }
    assert_true(tested >= 2);   /* at least the width-1 kernel and emulated NEON */
    outputs_free(&first);
    outputs_free(&first_hit);
    gjkb_destroy(ref);
}

/* A pair's bits do not depend on where it sits in the batch or on which
 * pairs surround it: reversed order, and every third pair alone. */
static void test_order_and_neighbour_invariance(void **state)
{
    (void)state;
    uint32_t n = g_pairs < 200000 ? g_pairs : 200000;
    uint32_t *ia = malloc(n * sizeof *ia), *ib = malloc(n * sizeof *ib);
    for (int b = GJKB_BACKEND_SCALAR; b < GJKB_BACKEND_COUNT; b++) {
        if (!gjkb_backend_available((gjkb_backend)b))
            continue;
        gjkb_context *ctx = context_for((gjkb_backend)b);
        gjkb_pairs fwd = { n, g_scene.pa, g_scene.pb };
        outputs base = outputs_make(n), other = outputs_make(n);
        run(ctx, GJKB_DISTANCE, &fwd, &base);

        for (uint32_t i = 0; i < n; i++)
            ia[i] = g_scene.pa[n - 1 - i], ib[i] = g_scene.pb[n - 1 - i];
        gjkb_pairs rev = { n, ia, ib };
        run(ctx, GJKB_DISTANCE, &rev, &other);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t j = n - 1 - i;
            assert_int_equal(other.status[j], base.status[i]);
            assert_int_equal(other.iters[j], base.iters[i]);
            assert_memory_equal(&other.dist[j], &base.dist[i], sizeof(double));
            assert_memory_equal(&other.ax[j], &base.ax[i], sizeof(double));
            assert_memory_equal(&other.nz[j], &base.nz[i], sizeof(double));
        }

        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i += 3, m++)
            ia[m] = g_scene.pa[i], ib[m] = g_scene.pb[i];
        gjkb_pairs sparse = { m, ia, ib };
        run(ctx, GJKB_DISTANCE, &sparse, &other);
        for (uint32_t k = 0; k < m; k++) {
            assert_int_equal(other.status[k], base.status[3 * k]);
            assert_memory_equal(&other.dist[k], &base.dist[3 * k], sizeof(double));
            assert_memory_equal(&other.bz[k], &base.bz[3 * k], sizeof(double));
        }
        outputs_free(&base);
        outputs_free(&other);
        gjkb_destroy(ctx);
    }
    free(ia);
    free(ib);
}

/* Both hull support strategies (gather across lanes, within one hull) give
 * the same bits: the choice between them is only about speed. */
static void test_hull_strategies_identical(void **state)
{
    (void)state;
    gjkb_pairs pairs = scene_pairs(&g_scene);
    for (int b = GJKB_BACKEND_SCALAR; b < GJKB_BACKEND_COUNT; b++) {
        if (!gjkb_backend_available((gjkb_backend)b))
            continue;
        outputs o[2];
        static const char *const modes[2] = { "gather", "within" };
        for (int m = 0; m < 2; m++) {
            setenv("GJKB_HULL_SUPPORT", modes[m], 1);
            gjkb_context *ctx = context_for((gjkb_backend)b);
            o[m] = outputs_make(g_pairs);
            run(ctx, GJKB_DISTANCE, &pairs, &o[m]);
            gjkb_destroy(ctx);
        }
        unsetenv("GJKB_HULL_SUPPORT");
        if (!outputs_identical(&o[0], &o[1]))
            fail_msg("%s: gather and within-hull supports differ", gjkb_backend_name((gjkb_backend)b));
        outputs_free(&o[0]);
        outputs_free(&o[1]);
    }
}

/* Where bodies recur (at least a pair per body), the wide kernels read
 * per-body records the pipeline builds instead of gathering from the
 * arrays; the bits must not change. The same pairs, each body in two of
 * them, over just their bodies (records) and over the whole scene (more
 * bodies than pairs: gathers). One body in 997 is broken (a NaN, zero or
 * oversized rotation, a negative size, a NaN margin), so a record's
 * invalid rotation and values are checked too. */
static void test_records_identical(void **state)
{
    (void)state;
    uint32_t n = g_pairs / 4 < 100000 ? g_pairs / 4 : 100000;
    uint32_t m = 2 * n, nb = g_scene.body_count;
    uint32_t *ia = malloc(m * sizeof *ia), *ib = malloc(m * sizeof *ib);
    for (uint32_t i = 0; i < n; i++) {
        ia[i] = g_scene.pa[i], ib[i] = g_scene.pb[i];
        ia[n + i] = g_scene.pa[i], ib[n + i] = g_scene.pb[(i + 1) % n];
    }
    gjkb_pairs pairs = { m, ia, ib };
    assert_true(m >= 2 * n && nb > 2 * m);

    gjkb_bodies bodies = scene_bodies(&g_scene);
    const float *src[6] = { g_scene.qw, g_scene.qx, g_scene.qy, g_scene.qz, g_scene.sz, g_scene.margin };
    float *copy[6];
    for (int k = 0; k < 6; k++) {
        copy[k] = malloc(nb * sizeof(float));
        memcpy(copy[k], src[k], nb * sizeof(float));
    }
    uint32_t broken = 0;
    for (uint32_t i = 0; i < 2 * n; i += 997, broken++) {
        switch (broken % 5) {
        case 0: copy[0][i] = NAN; break;
        case 1: copy[0][i] = copy[1][i] = copy[2][i] = copy[3][i] = 0.0f; break;
        case 2: copy[1][i] = 2e15f; break;
        case 3: copy[4][i] = -0.5f; break;
        default: copy[5][i] = NAN; break;
        }
    }
    bodies.qw = copy[0], bodies.qx = copy[1], bodies.qy = copy[2], bodies.qz = copy[3];
    bodies.sz = copy[4], bodies.margin = copy[5];

    for (int b = GJKB_BACKEND_SCALAR; b < GJKB_BACKEND_COUNT; b++) {
        if (!gjkb_backend_available((gjkb_backend)b))
            continue;
        gjkb_context *ctx = context_for((gjkb_backend)b);
        for (int mode = GJKB_HIT; mode <= GJKB_DISTANCE; mode++) {
            outputs rec = outputs_make(m), gat = outputs_make(m);
            run_over(ctx, (gjkb_mode)mode, bodies, &pairs, &rec, 2 * n);
            run_over(ctx, (gjkb_mode)mode, bodies, &pairs, &gat, 0);
            uint32_t hits = 0, invalid = 0;
            for (uint32_t i = 0; i < m; i++) {
                hits += rec.status[i] == GJKB_OVERLAP;
                invalid += rec.status[i] == GJKB_INVALID;
            }
            assert_true(hits > m / 10);
            /* each broken body is in two pairs, no pair has two */
            assert_int_equal(invalid, 2 * broken);
            if (!outputs_identical(&rec, &gat))
                fail_msg("%s %s: records and gathers differ", gjkb_backend_name((gjkb_backend)b),
                         mode == GJKB_HIT ? "hit" : "distance");
            outputs_free(&rec);
            outputs_free(&gat);
        }
        gjkb_destroy(ctx);
    }
    for (int k = 0; k < 6; k++)
        free(copy[k]);
    free(ia);
    free(ib);
}

/* A context's records grow with its batches: a batch with more bodies
 * than the one before (each body in a pair, so records are used) must read
 * the new records, not the freed block of the last batch (fuzzing found
 * the kernel given the old pointer). Each batch's bits equal a fresh
 * context's. */
static void test_records_grow_between_batches(void **state)
{
    (void)state;
    static const uint32_t sizes[] = { 2, 4, 64, 1000, 3, 5000 };
    for (int b = GJKB_BACKEND_SCALAR; b < GJKB_BACKEND_COUNT; b++) {
        if (!gjkb_backend_available((gjkb_backend)b))
            continue;
        gjkb_context *kept = context_for((gjkb_backend)b);
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            uint32_t n = sizes[k] < g_scene.body_count ? sizes[k] : g_scene.body_count;
            uint32_t *ia = malloc(n * sizeof *ia), *ib = malloc(n * sizeof *ib);
            for (uint32_t i = 0; i < n; i++)
                ia[i] = i, ib[i] = (i + 1) % n;
            gjkb_pairs pairs = { n, ia, ib };
            outputs x = outputs_make(n), y = outputs_make(n);
            run_over(kept, GJKB_DISTANCE, scene_bodies(&g_scene), &pairs, &x, n);
            gjkb_context *fresh = context_for((gjkb_backend)b);
            run_over(fresh, GJKB_DISTANCE, scene_bodies(&g_scene), &pairs, &y, n);
            gjkb_destroy(fresh);
            if (!outputs_identical(&x, &y))
                fail_msg("%s: batch %zu (%u bodies) differs from a fresh context", gjkb_backend_name((gjkb_backend)b),
                         k, n);
            outputs_free(&x);
            outputs_free(&y);
            free(ia);
            free(ib);
        }
        gjkb_destroy(kept);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backends_match_reference_and_each_other),
        cmocka_unit_test(test_order_and_neighbour_invariance),
        cmocka_unit_test(test_hull_strategies_identical),
        cmocka_unit_test(test_records_identical),
        cmocka_unit_test(test_records_grow_between_batches),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
