#define _POSIX_C_SOURCE 200809L /* setenv */
/* test_api.c - context lifecycle, backend and kind names, backend choice, hull
 * registration, and that every backend this build has answers a small batch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gjkbatch.h"
#include "backends.h"   /* the table of wide backends */

/* cmocka 1.1 has no float assertion: |a - b| <= tol, with the values shown. */
#define assert_near(a, b, tol)                                                                              \
    do {                                                                                                      \
        double a_ = (a), b_ = (b);                                                                            \
        if (!(fabs(a_ - b_) <= (tol)))                                                                        \
            fail_msg("%s = %.17g, expected %.17g within %g", #a, a_, b_, (double)(tol));                      \
    } while (0)

static void test_backend_names_round_trip(void **state)
{
    (void)state;
    for (int b = 0; b < GJKB_BACKEND_COUNT; b++) {
        gjkb_backend out = GJKB_BACKEND_COUNT;
        assert_int_equal(gjkb_backend_parse(gjkb_backend_name((gjkb_backend)b), &out), GJKB_OK);
        assert_int_equal(out, b);
    }
    gjkb_backend out;
    assert_int_equal(gjkb_backend_parse("avx1024", &out), GJKB_ERR_KIND);
    assert_int_equal(gjkb_backend_parse(NULL, &out), GJKB_ERR_NULL);
    assert_string_equal(gjkb_backend_name((gjkb_backend)99), "?");
}

/* Every row of the backend table names its backend, and a context on it
 * (where it runs) has the row's width. */
static void test_backend_table(void **state)
{
    (void)state;
    static const struct { gjkb_backend id; const char *name; uint32_t width; } rows[] = {
#define ROW(id_, isa_, w_, arch_, cpu_) { id_, #isa_, w_ },
        GJKB_WIDE_BACKENDS(ROW)
#undef ROW
    };
    assert_int_equal(sizeof rows / sizeof rows[0], GJKB_BACKEND_COUNT - 2);   /* all but auto and reference */
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        assert_string_equal(gjkb_backend_name(rows[i].id), rows[i].name);
        if (i > 0)
            assert_true(rows[i].width <= rows[i - 1].width);   /* auto tries the widest first */
        if (!gjkb_backend_available(rows[i].id))
            continue;
        gjkb_config cfg = { .backend = rows[i].id };
        gjkb_context *ctx;
        assert_int_equal(gjkb_create(&cfg, &ctx), GJKB_OK);
        gjkb_stats st;
        assert_int_equal(gjkb_stats_get(ctx, &st), GJKB_OK);
        assert_int_equal(st.width, rows[i].width);
        gjkb_destroy(ctx);
    }
}

static void test_kind_names_round_trip(void **state)
{
    (void)state;
    static const char *const want[GJKB_KIND_COUNT] = { "sphere", "capsule", "box", "cylinder", "cone", "hull" };
    for (int k = 0; k < GJKB_KIND_COUNT; k++) {
        assert_string_equal(gjkb_kind_name((gjkb_kind)k), want[k]);
        gjkb_kind out = GJKB_KIND_COUNT;
        assert_int_equal(gjkb_kind_parse(want[k], &out), GJKB_OK);
        assert_int_equal(out, k);
    }
    assert_string_equal(gjkb_kind_name(GJKB_KIND_COUNT), "?");
    assert_string_equal(gjkb_kind_name((gjkb_kind)255), "?");
    const char *bad[] = { "", "Sphere", "sphere ", "spheres", "ball", "hull7", "?" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gjkb_kind out = GJKB_BOX;
        assert_int_equal(gjkb_kind_parse(bad[i], &out), GJKB_ERR_KIND);
        assert_int_equal(out, GJKB_BOX);   /* untouched */
    }
    gjkb_kind out;
    assert_int_equal(gjkb_kind_parse(NULL, &out), GJKB_ERR_NULL);
    assert_int_equal(gjkb_kind_parse("box", NULL), GJKB_ERR_NULL);
}

static void test_create_default_and_forced(void **state)
{
    (void)state;
    gjkb_context *ctx = NULL;
    unsetenv("GJKB_BACKEND");
    assert_int_equal(gjkb_create(NULL, &ctx), GJKB_OK);
    assert_non_null(ctx);
    gjkb_backend auto_choice = gjkb_context_backend(ctx);
    assert_true(auto_choice != GJKB_BACKEND_AUTO);
    assert_true(gjkb_backend_available(auto_choice));
    gjkb_destroy(ctx);

    for (int b = GJKB_BACKEND_REFERENCE; b < GJKB_BACKEND_COUNT; b++) {
        gjkb_config cfg = { .backend = (gjkb_backend)b };
        gjkb_error e = gjkb_create(&cfg, &ctx);
        if (gjkb_backend_available((gjkb_backend)b)) {
            assert_int_equal(e, GJKB_OK);
            assert_int_equal(gjkb_context_backend(ctx), b);
            gjkb_destroy(ctx);
        } else {
            assert_int_equal(e, GJKB_ERR_UNSUPPORTED);
            assert_null(ctx);
        }
    }
    gjkb_config bad = { .backend = (gjkb_backend)42 };
    assert_int_equal(gjkb_create(&bad, &ctx), GJKB_ERR_KIND);
    assert_int_equal(gjkb_create(NULL, NULL), GJKB_ERR_NULL);
    gjkb_destroy(NULL);
}

static void test_environment_forces_backend(void **state)
{
    (void)state;
    gjkb_context *ctx = NULL;
    setenv("GJKB_BACKEND", "reference", 1);
    assert_int_equal(gjkb_create(NULL, &ctx), GJKB_OK);
    assert_int_equal(gjkb_context_backend(ctx), GJKB_BACKEND_REFERENCE);
    gjkb_destroy(ctx);
    /* An explicit context field wins over the environment. */
    gjkb_config cfg = { .backend = GJKB_BACKEND_SCALAR };
    assert_int_equal(gjkb_create(&cfg, &ctx), GJKB_OK);
    assert_int_equal(gjkb_context_backend(ctx), GJKB_BACKEND_SCALAR);
    gjkb_destroy(ctx);
    setenv("GJKB_BACKEND", "nonsense", 1);
    assert_int_equal(gjkb_create(NULL, &ctx), GJKB_ERR_KIND);
    unsetenv("GJKB_BACKEND");
}

static void test_hull_registration(void **state)
{
    (void)state;
    gjkb_context *ctx = NULL;
    assert_int_equal(gjkb_create(NULL, &ctx), GJKB_OK);
    const float tet[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    uint32_t id = 99;
    assert_int_equal(gjkb_hull_add(ctx, tet, 4, &id), GJKB_OK);
    assert_int_equal(id, 0);
    assert_int_equal(gjkb_hull_add(ctx, NULL, 0, &id), GJKB_OK);   /* empty: valid call, invalid hull */
    assert_int_equal(id, 1);
    assert_int_equal(gjkb_hull_add(ctx, NULL, 3, &id), GJKB_ERR_NULL);
    assert_true(strlen(gjkb_last_error(ctx)) > 0);
    assert_int_equal(gjkb_hull_add(ctx, tet, 4, NULL), GJKB_ERR_NULL);
    assert_int_equal(gjkb_hull_count(ctx), 2);
    /* Many hulls: ids stay dense and registration keeps working. */
    for (uint32_t i = 0; i < 1000; i++) {
        assert_int_equal(gjkb_hull_add(ctx, tet, 4, &id), GJKB_OK);
        assert_int_equal(id, 2 + i);
    }
    gjkb_destroy(ctx);
}

/* Two unit spheres 3 apart along x, through every backend of this build. */
static void test_every_backend_answers(void **state)
{
    (void)state;
    const uint8_t kind[2] = { GJKB_SPHERE, GJKB_SPHERE };
    const double px[2] = { 0, 3 }, py[2] = { 0, 0 }, pz[2] = { 0, 0 };
    const float qw[2] = { 1, 1 }, q0[2] = { 0, 0 }, sx[2] = { 1, 1 };
    gjkb_bodies bodies = { .count = 2, .kind = kind, .px = px, .py = py, .pz = pz,
                           .qw = qw, .qx = q0, .qy = q0, .qz = q0, .sx = sx, .sy = sx, .sz = sx };
    const uint32_t ia[1] = { 0 }, ib[1] = { 1 };
    gjkb_pairs pairs = { 1, ia, ib };
    for (int b = GJKB_BACKEND_REFERENCE; b < GJKB_BACKEND_COUNT; b++) {
        if (!gjkb_backend_available((gjkb_backend)b))
            continue;
        gjkb_config cfg = { .backend = (gjkb_backend)b };
        gjkb_context *ctx = NULL;
        assert_int_equal(gjkb_create(&cfg, &ctx), GJKB_OK);
        uint8_t status = 99;
        double dist = -1, ax, ay, az, bx, by, bz, nx, ny, nz;
        gjkb_results out = { .status = &status, .distance = &dist, .ax = &ax, .ay = &ay, .az = &az,
                             .bx = &bx, .by = &by, .bz = &bz, .nx = &nx, .ny = &ny, .nz = &nz };
        gjkb_query q = { .mode = GJKB_DISTANCE };
        assert_int_equal(gjkb_query_batch(ctx, &bodies, &pairs, &q, &out), GJKB_OK);
        assert_int_equal(status, GJKB_SEPARATED);
        assert_near(dist, 1.0, 1e-6);
        assert_near(ax, 1.0, 1e-6);
        assert_near(bx, 2.0, 1e-6);
        assert_near(nx, 1.0, 1e-6);
        assert_near(ny, 0.0, 1e-6);
        q.mode = GJKB_HIT;
        assert_int_equal(gjkb_query_batch(ctx, &bodies, &pairs, &q, &out), GJKB_OK);
        assert_int_equal(status, GJKB_SEPARATED);
        assert_true(isnan(dist));
        gjkb_destroy(ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backend_names_round_trip),
        cmocka_unit_test(test_backend_table),
        cmocka_unit_test(test_kind_names_round_trip),
        cmocka_unit_test(test_create_default_and_forced),
        cmocka_unit_test(test_environment_forces_backend),
        cmocka_unit_test(test_hull_registration),
        cmocka_unit_test(test_every_backend_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
