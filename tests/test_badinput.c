/* test_badinput.c - argument errors and invalid geometry through the public
 * API: every error comes with a message and leaves the results untouched;
 * optional arrays may be NULL; a pair with bad geometry reports
 * GJKB_INVALID while every other pair's result keeps its exact bits. */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "testutil.h"

static gjkb_context *reference(void)
{
    gjkb_context *ctx = tu_context(GJKB_BACKEND_REFERENCE);
    assert_non_null(ctx);
    return ctx;
}

/* A small valid batch: 6 random bodies of every kind (hull id 0 registered
 * on ctx) and 8 pairs among them. */
static void small_batch(gjkb_context *ctx, tu_batch *t)
{
    static const float pts[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5f, 0.5f, 0.5f};
    uint32_t id;
    if (gjkb_hull_count(ctx) == 0) assert_int_equal(gjkb_hull_add(ctx, pts, 5, &id), GJKB_OK);
    memset(t, 0, sizeof *t);
    tu_rng r = tu_rng_make(5);
    for (int k = 0; k < 6; k++) {
        gjkb_shape s = tu_random_shape(&r, (gjkb_kind)k, 0.5, 1);
        s = tu_at(s, tu_range(&r, -1, 1), tu_range(&r, -1, 1), tu_range(&r, -1, 1));
        tu_batch_body(t, &s);
    }
    for (uint32_t i = 0; i < 8; i++) tu_batch_link(t, i % 6, (i * 5 + 1) % 6);
}

/* Whether every result array still holds the sentinel. */
static bool untouched(const tu_batch *t)
{
    const double *d[] = {t->distance, t->ax, t->ay, t->az, t->bx, t->by, t->bz, t->nx, t->ny, t->nz};
    for (uint32_t i = 0; i < t->np; i++) {
        if (t->status[i] != TU_SENTINEL_STATUS || t->iterations[i] != TU_SENTINEL_ITER) return false;
        for (size_t k = 0; k < sizeof d / sizeof d[0]; k++)
            if (!tu_same_double(d[k][i], TU_SENTINEL)) return false;
    }
    return true;
}

/* Runs the batch with the given (possibly broken) argument structs and
 * checks the error code, the message, and that nothing was written. */
static void expect_error(gjkb_context *ctx, tu_batch *t, const gjkb_bodies *bodies, const gjkb_pairs *pairs,
                         const gjkb_query *q, gjkb_results *res, gjkb_error want)
{
    tu_batch_fill_sentinel(t);
    gjkb_error e = gjkb_query_batch(ctx, bodies, pairs, q, res);
    assert_int_equal(e, want);
    if (ctx) {
        assert_non_null(gjkb_last_error(ctx));
        assert_true(strlen(gjkb_last_error(ctx)) > 0);
    }
    assert_true(untouched(t));
}

static gjkb_query distance_query(void)
{
    gjkb_query q;
    memset(&q, 0, sizeof q);
    q.mode = GJKB_DISTANCE;
    return q;
}

/* ---- NULL arguments ---------------------------------------------------------- */

static void test_null_arguments(void **state)
{
    (void)state;
    gjkb_context *ctx = reference();
    tu_batch t;
    small_batch(ctx, &t);
    gjkb_bodies bodies = tu_batch_bodies(&t);
    gjkb_pairs pairs = tu_batch_pairs(&t);
    gjkb_results res = tu_batch_results(&t);
    gjkb_query q = distance_query();

    tu_batch_fill_sentinel(&t);
    assert_int_equal(gjkb_query_batch(NULL, &bodies, &pairs, &q, &res), GJKB_ERR_NULL);
    assert_true(untouched(&t));
    expect_error(ctx, &t, NULL, &pairs, &q, &res, GJKB_ERR_NULL);
    expect_error(ctx, &t, &bodies, NULL, &q, &res, GJKB_ERR_NULL);
    tu_batch_fill_sentinel(&t);
    assert_int_equal(gjkb_query_batch(ctx, &bodies, &pairs, &q, NULL), GJKB_ERR_NULL);
    assert_true(strlen(gjkb_last_error(ctx)) > 0);
    assert_true(untouched(&t));

    gjkb_results nostatus = res;
    nostatus.status = NULL;
    expect_error(ctx, &t, &bodies, &pairs, &q, &nostatus, GJKB_ERR_NULL);

    gjkb_pairs pa = pairs, pb = pairs;
    pa.a = NULL, pb.b = NULL;
    expect_error(ctx, &t, &bodies, &pa, &q, &res, GJKB_ERR_NULL);
    expect_error(ctx, &t, &bodies, &pb, &q, &res, GJKB_ERR_NULL);

    /* each required body array */
    for (int k = 0; k < 11; k++) {
        gjkb_bodies b = bodies;
        switch (k) {
        case 0: b.kind = NULL; break;
        case 1: b.px = NULL; break;
        case 2: b.py = NULL; break;
        case 3: b.pz = NULL; break;
        case 4: b.qw = NULL; break;
        case 5: b.qx = NULL; break;
        case 6: b.qy = NULL; break;
        case 7: b.qz = NULL; break;
        case 8: b.sx = NULL; break;
        case 9: b.sy = NULL; break;
        default: b.sz = NULL; break;
        }
        expect_error(ctx, &t, &b, &pairs, &q, &res, GJKB_ERR_NULL);
    }
    /* hull bodies need hull ids */
    gjkb_bodies nohull = bodies;
    nohull.hull = NULL;
    tu_batch_fill_sentinel(&t);
    assert_int_not_equal(gjkb_query_batch(ctx, &nohull, &pairs, &q, &res), GJKB_OK);
    assert_true(strlen(gjkb_last_error(ctx)) > 0);
    assert_true(untouched(&t));

    /* the single-pair call */
    gjkb_shape a = tu_box(1, 1, 1), b = tu_at(tu_sphere(1), 3, 0, 0);
    gjkb_result out;
    assert_int_equal(gjkb_query_pair(NULL, &a, &b, &q, &out), GJKB_ERR_NULL);
    assert_int_equal(gjkb_query_pair(ctx, NULL, &b, &q, &out), GJKB_ERR_NULL);
    assert_true(strlen(gjkb_last_error(ctx)) > 0);
    assert_int_equal(gjkb_query_pair(ctx, &a, NULL, &q, &out), GJKB_ERR_NULL);
    assert_true(strlen(gjkb_last_error(ctx)) > 0);
    assert_int_equal(gjkb_query_pair(ctx, &a, &b, &q, NULL), GJKB_ERR_NULL);
    assert_true(strlen(gjkb_last_error(ctx)) > 0);

    /* success clears the message */
    assert_int_equal(gjkb_query_pair(ctx, &a, &b, &q, &out), GJKB_OK);
    assert_string_equal(gjkb_last_error(ctx), "");

    /* context creation and hull registration */
    assert_int_equal(gjkb_create(NULL, NULL), GJKB_ERR_NULL);
    uint32_t id = 77;
    assert_int_equal(gjkb_hull_add(NULL, (const float[]){0, 0, 0}, 1, &id), GJKB_ERR_NULL);
    assert_int_equal(gjkb_hull_add(ctx, NULL, 3, &id), GJKB_ERR_NULL);
    assert_true(strlen(gjkb_last_error(ctx)) > 0);
    assert_int_equal(gjkb_hull_count(ctx), 1);

    tu_batch_free(&t);
    gjkb_destroy(ctx);
    gjkb_destroy(NULL); /* harmless */
}

/* ---- optional arrays ---------------------------------------------------------- */

/* Only status is required; any group of outputs may be left out, and what
 * is written equals the full run bit for bit. Margins may be NULL (no
 * margins), hull ids may be NULL without hull bodies, query may be NULL for
 * the single-pair call. */
static void test_optional_arrays(void **state)
{
    (void)state;
    gjkb_context *ctx = reference();
    tu_batch t;
    small_batch(ctx, &t);
    gjkb_bodies bodies = tu_batch_bodies(&t);
    gjkb_pairs pairs = tu_batch_pairs(&t);
    gjkb_query q = distance_query();
    assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
    uint32_t n = t.np;

    for (int mask = 0; mask < 32; mask++) {
        uint8_t status[8];
        double dist[8], p[9][8];
        uint32_t iters[8];
        gjkb_results r;
        memset(&r, 0, sizeof r);
        r.status = status;
        if (mask & 1) r.distance = dist;
        if (mask & 2) r.ax = p[0], r.ay = p[1], r.az = p[2];
        if (mask & 4) r.bx = p[3], r.by = p[4], r.bz = p[5];
        if (mask & 8) r.nx = p[6], r.ny = p[7], r.nz = p[8];
        if (mask & 16) r.iterations = iters;
        assert_int_equal(gjkb_query_batch(ctx, &bodies, &pairs, &q, &r), GJKB_OK);
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(status[i], t.status[i]);
            if (mask & 1) assert_true(tu_same_double(dist[i], t.distance[i]));
            if (mask & 2) assert_true(tu_same_double(p[0][i], t.ax[i]) && tu_same_double(p[2][i], t.az[i]));
            if (mask & 4) assert_true(tu_same_double(p[3][i], t.bx[i]) && tu_same_double(p[5][i], t.bz[i]));
            if (mask & 8) assert_true(tu_same_double(p[6][i], t.nx[i]) && tu_same_double(p[8][i], t.nz[i]));
            if (mask & 16) assert_int_equal(iters[i], t.iterations[i]);
        }
    }

    /* NULL margins: as zero margins */
    tu_batch z;
    memset(&z, 0, sizeof z);
    for (uint32_t i = 0; i < t.nb; i++) {
        gjkb_shape s = tu_batch_shape(&t, i);
        s.margin = 0;
        tu_batch_body(&z, &s);
    }
    for (uint32_t i = 0; i < n; i++) tu_batch_link(&z, t.ia[i], t.ib[i]);
    assert_int_equal(tu_batch_run(ctx, &z, &q), GJKB_OK);
    gjkb_bodies nomargin = tu_batch_bodies(&z);
    nomargin.margin = NULL;
    uint8_t status[8];
    double dist[8];
    gjkb_results r;
    memset(&r, 0, sizeof r);
    r.status = status, r.distance = dist;
    gjkb_pairs zp = tu_batch_pairs(&z);
    assert_int_equal(gjkb_query_batch(ctx, &nomargin, &zp, &q, &r), GJKB_OK);
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(status[i], z.status[i]);
        assert_true(tu_same_double(dist[i], z.distance[i]));
    }

    /* NULL hull ids without hull bodies: only the analytic pairs */
    gjkb_bodies nohull = nomargin;
    nohull.hull = NULL;
    uint32_t ia[8], ib[8], m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (z.kind[z.ia[i]] != GJKB_HULL && z.kind[z.ib[i]] != GJKB_HULL) ia[m] = z.ia[i], ib[m] = z.ib[i], m++;
    assert_true(m > 0);
    gjkb_pairs analytic = {m, ia, ib};
    assert_int_equal(gjkb_query_batch(ctx, &nohull, &analytic, &q, &r), GJKB_OK);
    for (uint32_t i = 0, j = 0; i < n; i++)
        if (z.kind[z.ia[i]] != GJKB_HULL && z.kind[z.ib[i]] != GJKB_HULL) {
            assert_int_equal(status[j], z.status[i]);
            assert_true(tu_same_double(dist[j], z.distance[i]));
            j++;
        }

    /* NULL query for the single-pair call: distance mode with defaults */
    gjkb_shape a = tu_box(1, 1, 1), b = tu_at(tu_sphere(0.5), 3, 0.25, 0);
    gjkb_result r0, r1;
    assert_int_equal(gjkb_query_pair(ctx, &a, &b, NULL, &r0), GJKB_OK);
    assert_int_equal(gjkb_query_pair(ctx, &a, &b, &q, &r1), GJKB_OK);
    assert_true(tu_result_same(&r0, &r1));
    assert_int_equal(r0.status, GJKB_SEPARATED);
    assert_true(fabs(r0.distance - 1.5) < 1e-12);

    tu_batch_free(&z);
    tu_batch_free(&t);
    gjkb_destroy(ctx);
}

/* ---- grouped arrays ---------------------------------------------------------- */

/* x, y and z arrays come together: a partial group is an error. */
static void test_partial_groups(void **state)
{
    (void)state;
    gjkb_context *ctx = reference();
    tu_batch t;
    small_batch(ctx, &t);
    gjkb_bodies bodies = tu_batch_bodies(&t);
    gjkb_pairs pairs = tu_batch_pairs(&t);
    gjkb_query q = distance_query();
    for (int group = 0; group < 3; group++)
        for (int missing = 1; missing < 7; missing++) { /* a non-empty proper subset is missing */
            gjkb_results r = tu_batch_results(&t);
            double **xyz[3][3] = {{&r.ax, &r.ay, &r.az}, {&r.bx, &r.by, &r.bz}, {&r.nx, &r.ny, &r.nz}};
            for (int k = 0; k < 3; k++)
                if (missing & (1 << k)) *xyz[group][k] = NULL;
            expect_error(ctx, &t, &bodies, &pairs, &q, &r, GJKB_ERR_NULL);
        }
    /* warm start axes likewise */
    double wx[8] = {0}, wy[8] = {0}, wz[8] = {0};
    gjkb_results r = tu_batch_results(&t);
    for (int missing = 1; missing < 7; missing++) {
        gjkb_query w = q;
        w.warm_x = missing & 1 ? NULL : wx;
        w.warm_y = missing & 2 ? NULL : wy;
        w.warm_z = missing & 4 ? NULL : wz;
        expect_error(ctx, &t, &bodies, &pairs, &w, &r, GJKB_ERR_NULL);
        gjkb_shape a = tu_box(1, 1, 1), b = tu_at(tu_box(1, 1, 1), 3, 0, 0);
        gjkb_result out;
        assert_int_not_equal(gjkb_query_pair(ctx, &a, &b, &w, &out), GJKB_OK);
        assert_true(strlen(gjkb_last_error(ctx)) > 0);
    }
    tu_batch_free(&t);
    gjkb_destroy(ctx);
}

/* ---- ranges, kinds, modes ------------------------------------------------------ */

static void test_out_of_range(void **state)
{
    (void)state;
    gjkb_context *ctx = reference();
    tu_batch t;
    small_batch(ctx, &t);
    gjkb_bodies bodies = tu_batch_bodies(&t);
    gjkb_query q = distance_query();
    gjkb_results r = tu_batch_results(&t);
    /* a body index of count or beyond, in a or b, first or last pair */
    const uint32_t bad[] = {6, 7, 1000, UINT32_MAX};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        for (int side = 0; side < 2; side++)
            for (int at = 0; at < 2; at++) {
                uint32_t ia[8], ib[8];
                memcpy(ia, t.ia, sizeof ia), memcpy(ib, t.ib, sizeof ib);
                uint32_t i = at ? 7 : 0;
                (side ? ib : ia)[i] = bad[k];
                gjkb_pairs p = {8, ia, ib};
                expect_error(ctx, &t, &bodies, &p, &q, &r, GJKB_ERR_RANGE);
            }
    /* a hull id that is not registered (ctx has 1 hull) */
    uint32_t hull[6];
    memcpy(hull, t.hull, sizeof hull);
    for (uint32_t i = 0; i < 6; i++)
        if (t.kind[i] == GJKB_HULL) hull[i] = 1;
    gjkb_bodies badhull = bodies;
    badhull.hull = hull;
    gjkb_pairs pairs = tu_batch_pairs(&t);
    expect_error(ctx, &t, &badhull, &pairs, &q, &r, GJKB_ERR_RANGE);

    gjkb_shape a = tu_hull_shape(1), b = tu_sphere(1);
    gjkb_result out;
    assert_int_equal(gjkb_query_pair(ctx, &a, &b, &q, &out), GJKB_ERR_RANGE);
    assert_true(strlen(gjkb_last_error(ctx)) > 0);
    assert_int_equal(gjkb_query_pair(ctx, &b, &a, &q, &out), GJKB_ERR_RANGE);
    a.hull = 0;
    assert_int_equal(gjkb_query_pair(ctx, &a, &b, &q, &out), GJKB_OK);
    tu_batch_free(&t);
    gjkb_destroy(ctx);
}

static void test_unknown_kind_and_mode(void **state)
{
    (void)state;
    gjkb_context *ctx = reference();
    tu_batch t;
    small_batch(ctx, &t);
    gjkb_pairs pairs = tu_batch_pairs(&t);
    gjkb_results r = tu_batch_results(&t);
    gjkb_query q = distance_query();
    const uint8_t kinds[] = {GJKB_KIND_COUNT, GJKB_KIND_COUNT + 1, 200, 255};
    for (size_t k = 0; k < sizeof kinds; k++) {
        uint8_t kind[6];
        memcpy(kind, t.kind, sizeof kind);
        kind[k % 6] = kinds[k];
        gjkb_bodies b = tu_batch_bodies(&t);
        b.kind = kind;
        expect_error(ctx, &t, &b, &pairs, &q, &r, GJKB_ERR_KIND);
        gjkb_shape s = tu_sphere(1), bad = tu_sphere(1);
        bad.kind = (gjkb_kind)kinds[k];
        gjkb_result out;
        assert_int_equal(gjkb_query_pair(ctx, &bad, &s, &q, &out), GJKB_ERR_KIND);
        assert_true(strlen(gjkb_last_error(ctx)) > 0);
        assert_int_equal(gjkb_query_pair(ctx, &s, &bad, &q, &out), GJKB_ERR_KIND);
    }
    gjkb_bodies bodies = tu_batch_bodies(&t);
    const int modes[] = {3, 4, -1, 1000};
    for (size_t k = 0; k < 4; k++) {
        gjkb_query m = q;
        m.mode = (gjkb_mode)modes[k];
        expect_error(ctx, &t, &bodies, &pairs, &m, &r, GJKB_ERR_KIND);
        gjkb_shape a = tu_sphere(1), b = tu_sphere(1);
        gjkb_result out;
        assert_int_equal(gjkb_query_pair(ctx, &a, &b, &m, &out), GJKB_ERR_KIND);
        assert_true(strlen(gjkb_last_error(ctx)) > 0);
    }
    tu_batch_free(&t);
    gjkb_destroy(ctx);
}

static void test_zero_pairs(void **state)
{
    (void)state;
    gjkb_context *ctx = reference();
    tu_batch t;
    small_batch(ctx, &t);
    gjkb_bodies bodies = tu_batch_bodies(&t);
    gjkb_pairs none = {0, t.ia, t.ib};
    gjkb_results r = tu_batch_results(&t);
    gjkb_query q = distance_query();
    tu_batch_fill_sentinel(&t);
    assert_int_equal(gjkb_query_batch(ctx, &bodies, &none, &q, &r), GJKB_OK);
    assert_true(untouched(&t));
    assert_string_equal(gjkb_last_error(ctx), "");
    /* no bodies at all */
    gjkb_bodies empty = bodies;
    empty.count = 0;
    assert_int_equal(gjkb_query_batch(ctx, &empty, &none, &q, &r), GJKB_OK);
    assert_true(untouched(&t));
    tu_batch_free(&t);
    gjkb_destroy(ctx);
}

/* ---- invalid geometry -------------------------------------------------------- */

/* A shape of 'kind' with one field broken. */
typedef struct breakage {
    const char *what;
    gjkb_kind kind;
    int field;   /* 0-2 pos, 3-6 rot, 7-9 size, 10 margin, 11 whole rotation */
    double value;
} breakage;

static gjkb_shape broken(const breakage *b, tu_rng *r)
{
    gjkb_shape s = tu_random_shape(r, b->kind, 0.0, 1);
    s = tu_at(s, tu_range(r, -1, 1), tu_range(r, -1, 1), tu_range(r, -1, 1));
    if (b->field <= 2)
        s.pos[b->field] = b->value;
    else if (b->field <= 6)
        s.rot[b->field - 3] = tu_f32(b->value);
    else if (b->field <= 9)
        s.size[b->field - 7] = tu_f32(b->value);
    else if (b->field == 10)
        s.margin = tu_f32(b->value);
    else
        memset(s.rot, 0, sizeof s.rot);
    return s;
}

/* For every breakage: the broken shape, as A and as B of one pair in the
 * middle of a batch of valid pairs, makes that pair GJKB_INVALID (distance
 * NaN) in both modes and through gjkb_query_pair, while every other pair's
 * result is bit-identical to the batch without it. */
static void test_invalid_geometry(void **state)
{
    (void)state;
    gjkb_context *ctx = reference();
    uint32_t id_valid, id_empty, id_nan, id_inf, id_big;
    const float good[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const float with_nan[] = {0, 0, 0, 1, 0, 0, NAN, 1, 0, 0, 0, 1};
    const float with_inf[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, -INFINITY};
    const float with_big[] = {0, 0, 0, 2e15f, 0, 0, 0, 1, 0, 0, 0, 1};
    assert_int_equal(gjkb_hull_add(ctx, good, 4, &id_valid), GJKB_OK);
    assert_int_equal(gjkb_hull_add(ctx, NULL, 0, &id_empty), GJKB_OK);
    assert_int_equal(gjkb_hull_add(ctx, with_nan, 4, &id_nan), GJKB_OK);
    assert_int_equal(gjkb_hull_add(ctx, with_inf, 4, &id_inf), GJKB_OK);
    assert_int_equal(gjkb_hull_add(ctx, with_big, 4, &id_big), GJKB_OK);
    assert_int_equal(gjkb_hull_count(ctx), 5);

    const double big = 2 * GJKB_MAX_COORD;
    const breakage cases[] = {
        {"position x NaN", GJKB_BOX, 0, NAN},          {"position y +Inf", GJKB_SPHERE, 1, INFINITY},
        {"position z -Inf", GJKB_CAPSULE, 2, -INFINITY}, {"position beyond max", GJKB_CONE, 0, big},
        {"position beyond -max", GJKB_CYLINDER, 2, -big}, {"rotation w NaN", GJKB_BOX, 3, NAN},
        {"rotation x Inf", GJKB_CAPSULE, 4, INFINITY},  {"rotation z NaN", GJKB_CONE, 6, NAN},
        {"rotation beyond max", GJKB_BOX, 5, big},      {"zero quaternion", GJKB_CYLINDER, 11, 0},
        {"zero quaternion (hull)", GJKB_HULL, 11, 0},   {"size x NaN", GJKB_BOX, 7, NAN},
        {"size y Inf", GJKB_BOX, 8, INFINITY},          {"size z negative", GJKB_BOX, 9, -0.5},
        {"sphere radius negative", GJKB_SPHERE, 7, -1}, {"capsule length NaN", GJKB_CAPSULE, 9, NAN},
        {"cylinder radius -Inf", GJKB_CYLINDER, 7, -INFINITY}, {"cone height negative", GJKB_CONE, 9, -1e-30},
        {"size beyond max", GJKB_BOX, 8, big},          {"margin NaN", GJKB_SPHERE, 10, NAN},
        {"margin Inf", GJKB_BOX, 10, INFINITY},         {"margin negative", GJKB_CAPSULE, 10, -0.25},
        {"margin beyond max", GJKB_CONE, 10, big},      {"hull margin negative", GJKB_HULL, 10, -1},
    };
    const uint32_t bad_hulls[] = {id_empty, id_nan, id_inf, id_big};
    size_t ncases = sizeof cases / sizeof cases[0];

    /* the valid neighbourhood */
    tu_rng r = tu_rng_make(17);
    enum { N = 24 };
    gjkb_shape as[N], bs[N];
    for (int i = 0; i < N; i++) {
        as[i] = tu_random_shape(&r, (gjkb_kind)(i % 6), 0.3, 1);
        bs[i] = tu_random_shape(&r, (gjkb_kind)((i / 6) % 6), 0.3, 1);
        as[i].hull = bs[i].hull = id_valid;
        tu_place_near(&r, &as[i], &bs[i], 2.0, 1.2);
    }
    for (int m = 0; m < 2; m++) {
        gjkb_query q = distance_query();
        q.mode = m ? GJKB_HIT : GJKB_DISTANCE;
        tu_batch clean;
        memset(&clean, 0, sizeof clean);
        for (int i = 0; i < N; i++) tu_batch_add(&clean, &as[i], &bs[i]);
        assert_int_equal(tu_batch_run(ctx, &clean, &q), GJKB_OK);

        for (size_t c = 0; c < ncases + 4; c++) {
            gjkb_shape bad;
            const char *what;
            if (c < ncases) {
                bad = broken(&cases[c], &r);
                bad.hull = id_valid;
                what = cases[c].what;
            } else {
                bad = tu_at(tu_hull_shape(bad_hulls[c - ncases]), 0.1, 0.2, 0.3);
                what = c == ncases ? "empty hull" : c == ncases + 1 ? "hull with a NaN point"
                       : c == ncases + 2 ? "hull with an Inf point" : "hull point beyond max";
            }
            for (int side = 0; side < 2; side++) {
                gjkb_shape other = tu_at(tu_sphere(0.5), 0.2, 0.1, 0.0);
                const gjkb_shape *pa = side ? &other : &bad, *pb = side ? &bad : &other;
                gjkb_result single;
                assert_int_equal(gjkb_query_pair(ctx, pa, pb, &q, &single), GJKB_OK);
                if (single.status != GJKB_INVALID || !isnan(single.distance))
                    fail_msg("%s (as %s): gjkb_query_pair gave status %s distance %g", what, side ? "B" : "A",
                             gjkb_status_name(single.status), single.distance);

                tu_batch t;
                memset(&t, 0, sizeof t);
                for (int i = 0; i < N; i++) {
                    if (i == N / 2) tu_batch_add(&t, pa, pb);
                    tu_batch_add(&t, &as[i], &bs[i]);
                }
                assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
                gjkb_result rb = tu_batch_get(&t, N / 2);
                if (rb.status != GJKB_INVALID || !isnan(rb.distance))
                    fail_msg("%s (as %s): batch gave status %s", what, side ? "B" : "A", gjkb_status_name(rb.status));
                for (int i = 0; i < N; i++) {
                    gjkb_result x = tu_batch_get(&t, (uint32_t)(i < N / 2 ? i : i + 1)), y = tu_batch_get(&clean, i);
                    if (!tu_result_same(&x, &y)) fail_msg("%s: neighbour pair %d changed", what, i);
                }
                tu_batch_free(&t);
            }
        }
        tu_batch_free(&clean);
    }
    gjkb_destroy(ctx);
}

/* Edge values that are valid: |value| exactly GJKB_MAX_COORD, zero sizes and
 * margins, a tiny but non-zero quaternion. */
static void test_valid_extremes(void **state)
{
    (void)state;
    gjkb_context *ctx = reference();
    gjkb_query q = distance_query();
    gjkb_result out;
    gjkb_shape a = tu_at(tu_box(1, 1, 1), GJKB_MAX_COORD, -GJKB_MAX_COORD, 0);
    gjkb_shape b = tu_at(tu_sphere(1), GJKB_MAX_COORD, -GJKB_MAX_COORD, 0);
    assert_int_equal(gjkb_query_pair(ctx, &a, &b, &q, &out), GJKB_OK);
    assert_int_not_equal(out.status, GJKB_INVALID);
    gjkb_shape z = tu_box(0, 0, 0), s = tu_at(tu_sphere(0), 1, 0, 0);
    assert_int_equal(gjkb_query_pair(ctx, &z, &s, &q, &out), GJKB_OK);
    assert_int_equal(out.status, GJKB_SEPARATED);
    assert_true(fabs(out.distance - 1.0) < 1e-15);
    /* a short quaternion (length 1e-6) turning 90 degrees about z */
    gjkb_shape t = tu_box(2, 0.5, 0.5), u = tu_at(tu_sphere(0.25), 0, 1.0, 0);
    t.rot[0] = tu_f32(0.7071067811865476e-6), t.rot[3] = tu_f32(0.7071067811865476e-6);
    assert_int_equal(gjkb_query_pair(ctx, &t, &u, &q, &out), GJKB_OK);
    assert_int_equal(out.status, GJKB_OVERLAP); /* turned: the box reaches y = 2 */
    gjkb_destroy(ctx);
}

/* The header's floor: a quaternion whose squared length (summed in float)
 * is below 1e-30 counts as zero and makes the pair invalid; just above it
 * the quaternion is a valid rotation and normalizes. */
static void test_tiny_quaternion(void **state)
{
    (void)state;
    gjkb_context *ctx = reference();
    gjkb_query q = distance_query();
    gjkb_result out;
    gjkb_shape t = tu_box(2, 0.5, 0.5), u = tu_at(tu_sphere(0.25), 0, 1.0, 0);
    /* length 1e-14: squared 1e-28, a valid 90 degree turn about z */
    t.rot[0] = tu_f32(0.7071067811865476e-14), t.rot[3] = tu_f32(0.7071067811865476e-14);
    assert_int_equal(gjkb_query_pair(ctx, &t, &u, &q, &out), GJKB_OK);
    if (out.status != GJKB_OVERLAP)
        fail_msg("quaternion of length 1e-14: status %s, expected overlap (90 degrees about z)",
                 gjkb_status_name(out.status));
    /* length 1e-20: squared 1e-40, below the floor */
    t.rot[0] = tu_f32(0.7071067811865476e-20), t.rot[3] = tu_f32(0.7071067811865476e-20);
    assert_int_equal(gjkb_query_pair(ctx, &t, &u, &q, &out), GJKB_OK);
    assert_int_equal(out.status, GJKB_INVALID);
    gjkb_destroy(ctx);
}

/* ---- backends ------------------------------------------------------------------ */

static void test_backends(void **state)
{
    (void)state;
    unsetenv("GJKB_BACKEND");
    int unavailable = 0;
    for (int b = 0; b < GJKB_BACKEND_COUNT; b++) {
        gjkb_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.backend = (gjkb_backend)b;
        gjkb_context *ctx = (gjkb_context *)&cfg; /* must be reset to NULL on failure */
        gjkb_error e = gjkb_create(&cfg, &ctx);
        if (gjkb_backend_available((gjkb_backend)b)) {
            assert_int_equal(e, GJKB_OK);
            assert_non_null(ctx);
            if (b != GJKB_BACKEND_AUTO) assert_int_equal(gjkb_context_backend(ctx), b);
            gjkb_destroy(ctx);
        } else {
            unavailable++;
            assert_int_equal(e, GJKB_ERR_UNSUPPORTED);
            assert_null(ctx);
            assert_true(strlen(gjkb_error_string(e)) > 0);
        }
        /* names round-trip */
        gjkb_backend parsed = GJKB_BACKEND_COUNT;
        assert_int_equal(gjkb_backend_parse(gjkb_backend_name((gjkb_backend)b), &parsed), GJKB_OK);
        assert_int_equal(parsed, b);
    }
    printf("[ info     ] %d backend(s) unavailable in this build/CPU\n", unavailable);
    assert_true(gjkb_backend_available(GJKB_BACKEND_REFERENCE));

    /* a backend value that does not exist */
    gjkb_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.backend = GJKB_BACKEND_COUNT;
    gjkb_context *ctx = (gjkb_context *)&cfg;
    assert_int_not_equal(gjkb_create(&cfg, &ctx), GJKB_OK);
    assert_null(ctx);
    assert_false(gjkb_backend_available(GJKB_BACKEND_COUNT));

    /* unknown names */
    const char *names[] = {"", "foo", "sse", "sse4.1", "avx", "avx-512", "referencex", "reference ", "auto2", "neon64"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        gjkb_backend out = GJKB_BACKEND_AVX2;
        assert_int_equal(gjkb_backend_parse(names[i], &out), GJKB_ERR_KIND);
        assert_int_equal(out, GJKB_BACKEND_AVX2); /* untouched */
    }

    /* the environment forces AUTO */
    setenv("GJKB_BACKEND", "reference", 1);
    ctx = NULL;
    assert_int_equal(gjkb_create(NULL, &ctx), GJKB_OK);
    assert_int_equal(gjkb_context_backend(ctx), GJKB_BACKEND_REFERENCE);
    gjkb_destroy(ctx);
    unsetenv("GJKB_BACKEND");

    /* descriptions */
    for (int e = GJKB_OK; e <= GJKB_ERR_UNSUPPORTED; e++) assert_true(strlen(gjkb_error_string((gjkb_error)e)) > 0);
    assert_string_equal(gjkb_status_name(GJKB_SEPARATED), "separated");
    assert_string_equal(gjkb_status_name(GJKB_OVERLAP), "overlap");
    assert_string_equal(gjkb_status_name(GJKB_LIMIT), "limit");
    assert_string_equal(gjkb_status_name(GJKB_INVALID), "invalid");
    assert_string_equal(gjkb_status_name((gjkb_status)99), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_arguments),  cmocka_unit_test(test_optional_arrays),
        cmocka_unit_test(test_partial_groups),  cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_unknown_kind_and_mode), cmocka_unit_test(test_zero_pairs),
        cmocka_unit_test(test_invalid_geometry), cmocka_unit_test(test_valid_extremes),
        cmocka_unit_test(test_tiny_quaternion), cmocka_unit_test(test_backends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
