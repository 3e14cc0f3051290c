/* test_oracles.c - the reference GJK against closed-form answers on large
 * random sets, through gjkb_query_pair and gjkb_query_batch, in distance
 * and hit mode.
 *
 * Acceptance per pair kind (N random pairs):
 * - the oracle's overlap rate is within 30%..70% (the set stays meaningful);
 * - the verdict matches the oracle, except for pairs whose true gap lies
 *   within BAND * scale of the touching threshold; fewer than 0.1% of the
 *   pairs may lie in that band at all;
 * - separated: distance within DIST_TOL * scale of the oracle; witness
 *   points on the surfaces, |b - a| = distance, n unit along b - a and a
 *   separating axis; overlap: distance 0;
 * - iterations never exceed the bound;
 * - batch and single-pair calls agree bit for bit on the reference backend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "testutil.h"

/* Pairs per kind pair: 100,000, or GJKB_ORACLE_PAIRS (the emulated aarch64
 * run in scripts/test.sh uses fewer to stay within CI's time). */
static uint32_t n_pairs(void)
{
    const char *env = getenv("GJKB_ORACLE_PAIRS");
    unsigned long n = env ? strtoul(env, NULL, 10) : 0;
    return n >= 1000 ? (uint32_t)n : 100000u;
}
#define N_HULLS 64u
#define BAND 1e-6       /* relative half-width of the near-touching band */
#define DIST_TOL 1e-9   /* relative distance / witness tolerance */
#define MAX_REPORTS 8   /* failures printed per check */

typedef struct pair_set {
    const char *name;
    uint32_t n;
    gjkb_shape *a, *b;
    double *gap;    /* oracle signed distance */
    double *scale;  /* sum of bounding radii */
} pair_set;

typedef struct stats {
    uint32_t checked, overlaps_expected, band, band_mismatch, failures;
    double max_dist_err, max_wit_len_err, max_wit_surf_err, max_normal_err, max_axis_gap_err;
    uint32_t max_iter;
} stats;

static tu_hull g_hulls[N_HULLS];
static float g_hull_pts[N_HULLS][16 * 3];
static uint32_t g_hull_n[N_HULLS];

static void make_hulls(void)
{
    tu_rng r = tu_rng_make(0x48554C4Cu);
    for (uint32_t h = 0; h < N_HULLS; h++) {
        g_hull_n[h] = 4 + h % 13;
        for (;;) { /* redraw the rare flat sets: the oracle needs a solid */
            tu_random_hull_points(&r, g_hull_pts[h], g_hull_n[h]);
            if (tu_hull_build(&g_hulls[h], g_hull_pts[h], g_hull_n[h])) break;
            tu_hull_free(&g_hulls[h]);
        }
    }
}

static void free_hulls(void)
{
    for (uint32_t h = 0; h < N_HULLS; h++) tu_hull_free(&g_hulls[h]);
}

static gjkb_context *reference_context(bool with_hulls)
{
    gjkb_context *ctx = tu_context(GJKB_BACKEND_REFERENCE);
    assert_non_null(ctx);
    for (uint32_t h = 0; with_hulls && h < N_HULLS; h++) {
        uint32_t id = 99;
        assert_int_equal(gjkb_hull_add(ctx, g_hull_pts[h], g_hull_n[h], &id), GJKB_OK);
        assert_int_equal(id, h);
    }
    return ctx;
}

/* How a set is drawn: kinds, how far apart (tmax), margins, and the share of
 * pairs whose B takes A's rotation (parallel edges and faces), or A's
 * rotation turned half a turn about local x (antiparallel). */
typedef struct set_spec {
    const char *name;
    gjkb_kind ka, kb;
    double tmax, margin_prob, parallel_share;
    bool point_a; /* A is a zero-radius sphere */
    uint64_t seed;
} set_spec;

static void quat_mul(const float p[4], const float q[4], float out[4])
{
    double w = (double)p[0] * q[0] - (double)p[1] * q[1] - (double)p[2] * q[2] - (double)p[3] * q[3];
    double x = (double)p[0] * q[1] + (double)p[1] * q[0] + (double)p[2] * q[3] - (double)p[3] * q[2];
    double y = (double)p[0] * q[2] - (double)p[1] * q[3] + (double)p[2] * q[0] + (double)p[3] * q[1];
    double z = (double)p[0] * q[3] + (double)p[1] * q[2] - (double)p[2] * q[1] + (double)p[3] * q[0];
    out[0] = tu_f32(w), out[1] = tu_f32(x), out[2] = tu_f32(y), out[3] = tu_f32(z);
}

static pair_set make_set(const set_spec *spec)
{
    pair_set s;
    s.name = spec->name;
    s.n = n_pairs();
    s.a = tu_realloc(NULL, s.n * sizeof *s.a);
    s.b = tu_realloc(NULL, s.n * sizeof *s.b);
    s.gap = tu_realloc(NULL, s.n * sizeof *s.gap);
    s.scale = tu_realloc(NULL, s.n * sizeof *s.scale);
    tu_rng r = tu_rng_make(spec->seed);
    for (uint32_t i = 0; i < s.n; i++) {
        gjkb_shape a = tu_random_shape(&r, spec->ka, spec->margin_prob, N_HULLS);
        gjkb_shape b = tu_random_shape(&r, spec->kb, spec->margin_prob, N_HULLS);
        if (spec->point_a) a.size[0] = 0.0f, a.margin = 0.0f;
        double u = tu_unit(&r);
        if (u < spec->parallel_share) {
            memcpy(b.rot, a.rot, sizeof b.rot);
            if (u < 0.5 * spec->parallel_share) {
                static const float half_x[4] = {0.0f, 1.0f, 0.0f, 0.0f};
                quat_mul(a.rot, half_x, b.rot);
            }
        }
        tu_geom ga = tu_geom_of(&a, g_hulls), gb = tu_geom_of(&b, g_hulls);
        double scale = tu_pair_scale(&ga, &gb);
        tu_place_near(&r, &a, &b, scale, spec->tmax);
        gb = tu_geom_of(&b, g_hulls);
        double gap;
        assert_true(tu_pair_sdist(&ga, &gb, &gap));
        s.a[i] = a, s.b[i] = b, s.gap[i] = gap, s.scale[i] = scale;
    }
    return s;
}

static void free_set(pair_set *s)
{
    free(s->a), free(s->b), free(s->gap), free(s->scale);
}

static void report(stats *st, const pair_set *s, uint32_t i, const char *what, const gjkb_result *r)
{
    st->failures++;
    if (st->failures > MAX_REPORTS) return;
    fprintf(stderr, "[%s] pair %u: %s (oracle gap %.17g, scale %.17g)\n", s->name, i, what, s->gap[i], s->scale[i]);
    tu_shape_print(stderr, "  A", &s->a[i]);
    tu_shape_print(stderr, "  B", &s->b[i]);
    tu_result_print(stderr, "  got", r);
}

static double vmax(double x, double y) { return x > y ? x : y; }

/* Checks one result against the oracle; hit: result of a hit-mode query. */
static void check(stats *st, const pair_set *s, uint32_t i, const gjkb_result *r, bool hit)
{
    double g = s->gap[i], scale = s->scale[i];
    double thresh = GJKB_DEFAULT_TOLERANCE * scale;
    gjkb_status want = g <= thresh ? GJKB_OVERLAP : GJKB_SEPARATED;
    bool in_band = fabs(g - thresh) <= BAND * scale;
    st->checked++;
    st->overlaps_expected += want == GJKB_OVERLAP;
    st->band += in_band;
    if (r->iterations > st->max_iter) st->max_iter = r->iterations;
    if (r->iterations > GJKB_REFERENCE_MAX_ITERATIONS) report(st, s, i, "iterations above the bound", r);
    if (r->status != GJKB_SEPARATED && r->status != GJKB_OVERLAP) {
        report(st, s, i, "status neither separated nor overlap", r);
        return;
    }
    if (r->status != want) {
        if (in_band)
            st->band_mismatch++;
        else
            report(st, s, i, "wrong verdict", r);
    }
    /* Overlap is distance 0 in both modes; hit mode has no distance for a
     * separated pair. */
    if (r->status == GJKB_OVERLAP) {
        if (r->distance != 0.0) report(st, s, i, "overlap distance is not 0", r);
        return;
    }
    if (hit) {
        if (!isnan(r->distance)) report(st, s, i, "hit mode separated distance is not NaN", r);
        return;
    }
    /* separated */
    double d = r->distance;
    double err = fabs(d - vmax(g, 0.0)) / scale;
    if (!(err <= DIST_TOL)) report(st, s, i, "distance off", r);
    st->max_dist_err = vmax(st->max_dist_err, err);
    tu_v3 a = tu_v(r->a[0], r->a[1], r->a[2]), b = tu_v(r->b[0], r->b[1], r->b[2]);
    tu_v3 n = tu_v(r->n[0], r->n[1], r->n[2]);
    if (!(isfinite(a.x) && isfinite(a.y) && isfinite(a.z) && isfinite(b.x) && isfinite(b.y) && isfinite(b.z) &&
          isfinite(n.x) && isfinite(n.y) && isfinite(n.z))) {
        report(st, s, i, "separated pair without finite witnesses and axis", r);
        return;
    }
    double len_err = fabs(tu_dist(a, b) - d) / scale;
    if (!(len_err <= DIST_TOL)) report(st, s, i, "|b - a| differs from the distance", r);
    st->max_wit_len_err = vmax(st->max_wit_len_err, len_err);
    tu_geom ga = tu_geom_of(&s->a[i], g_hulls), gb = tu_geom_of(&s->b[i], g_hulls);
    double surf = vmax(fabs(tu_point_sdist(&ga, a)), fabs(tu_point_sdist(&gb, b))) / scale;
    if (!(surf <= DIST_TOL)) report(st, s, i, "witness point off its surface", r);
    st->max_wit_surf_err = vmax(st->max_wit_surf_err, surf);
    if (!(fabs(tu_len(n) - 1.0) <= 1e-12)) report(st, s, i, "axis not unit", r);
    if (d > 1e-6 * scale) {
        /* Witness errors up to DIST_TOL * scale turn the direction b - a by
         * up to ~2 DIST_TOL * scale / d; allow twice that for n itself. */
        double dir_tol = 4 * DIST_TOL * scale / d;
        double nerr = tu_dist(n, tu_scale(tu_sub(b, a), 1.0 / tu_dist(a, b)));
        if (!(nerr <= dir_tol + 1e-12)) report(st, s, i, "axis not along b - a", r);
        st->max_normal_err = vmax(st->max_normal_err, nerr);
        /* n must separate: the gap along it is the distance, up to the
         * allowed turn of n times the extent involved. */
        double ag = tu_axis_gap(&ga, &gb, n);
        double gerr = (g - ag) / scale;
        if (!(gerr <= DIST_TOL + (d / scale + 2) * dir_tol)) report(st, s, i, "axis does not separate", r);
        st->max_axis_gap_err = vmax(st->max_axis_gap_err, gerr);
    }
}

static void print_stats(const char *set, const char *path, const stats *st)
{
    printf("[ stats    ] %-16s %-14s pairs %u overlap %.1f%% band %u (%.4f%%) band-mismatch %u max-iter %u "
           "dist-err %.3g |b-a|-err %.3g surface-err %.3g normal-err %.3g axis-gap-err %.3g\n",
           set, path, st->checked, 100.0 * st->overlaps_expected / st->checked, st->band,
           100.0 * st->band / st->checked, st->band_mismatch, st->max_iter, st->max_dist_err, st->max_wit_len_err,
           st->max_wit_surf_err, st->max_normal_err, st->max_axis_gap_err);
}

static void run_set(const set_spec *spec)
{
    bool hulls = spec->ka == GJKB_HULL || spec->kb == GJKB_HULL;
    gjkb_context *ctx = reference_context(hulls);
    pair_set s = make_set(spec);

    gjkb_query qd, qh;
    memset(&qd, 0, sizeof qd);
    qd.mode = GJKB_DISTANCE;
    qh = qd;
    qh.mode = GJKB_HIT;

    /* single pair, distance and hit */
    gjkb_result *single = tu_realloc(NULL, s.n * sizeof *single);
    stats sd = {0}, sh = {0};
    for (uint32_t i = 0; i < s.n; i++) {
        assert_int_equal(gjkb_query_pair(ctx, &s.a[i], &s.b[i], &qd, &single[i]), GJKB_OK);
        check(&sd, &s, i, &single[i], false);
        gjkb_result rh;
        assert_int_equal(gjkb_query_pair(ctx, &s.a[i], &s.b[i], &qh, &rh), GJKB_OK);
        check(&sh, &s, i, &rh, true);
    }
    print_stats(s.name, "pair/distance", &sd);
    print_stats(s.name, "pair/hit", &sh);

    /* the same pairs in one batch */
    tu_batch t;
    memset(&t, 0, sizeof t);
    for (uint32_t i = 0; i < s.n; i++) tu_batch_add(&t, &s.a[i], &s.b[i]);
    stats bd = {0}, bh = {0};
    uint32_t differ = 0;
    assert_int_equal(tu_batch_run(ctx, &t, &qd), GJKB_OK);
    for (uint32_t i = 0; i < s.n; i++) {
        gjkb_result r = tu_batch_get(&t, i);
        check(&bd, &s, i, &r, false);
        if (!tu_result_same(&r, &single[i]) && differ++ < MAX_REPORTS) {
            fprintf(stderr, "[%s] pair %u: batch and single-pair results differ\n", s.name, i);
            tu_result_print(stderr, "  batch", &r);
            tu_result_print(stderr, "  pair ", &single[i]);
        }
    }
    assert_int_equal(tu_batch_run(ctx, &t, &qh), GJKB_OK);
    for (uint32_t i = 0; i < s.n; i++) {
        gjkb_result r = tu_batch_get(&t, i);
        check(&bh, &s, i, &r, true);
    }
    print_stats(s.name, "batch/distance", &bd);
    print_stats(s.name, "batch/hit", &bh);

    /* The set must mix overlaps and separations, and near-touching pairs
     * (the only ones allowed to disagree) must stay rare. */
    double rate = (double)sd.overlaps_expected / s.n;
    assert_true(rate >= 0.3 && rate <= 0.7);
    assert_true(sd.band * 1000u < s.n);
    assert_int_equal(sd.failures, 0);
    assert_int_equal(sh.failures, 0);
    assert_int_equal(bd.failures, 0);
    assert_int_equal(bh.failures, 0);
    assert_int_equal(differ, 0);

    tu_batch_free(&t);
    free(single);
    free_set(&s);
    gjkb_destroy(ctx);
}

static void test_sphere_sphere(void **state)
{
    (void)state;
    set_spec spec = {"sphere-sphere", GJKB_SPHERE, GJKB_SPHERE, 2.0, 0.3, 0.0, false, 101};
    run_set(&spec);
}

static void test_sphere_box(void **state)
{
    (void)state;
    set_spec spec = {"sphere-box", GJKB_SPHERE, GJKB_BOX, 1.4, 0.3, 0.0, false, 102};
    run_set(&spec);
}

static void test_box_sphere(void **state)
{
    (void)state;
    set_spec spec = {"box-sphere", GJKB_BOX, GJKB_SPHERE, 1.4, 0.3, 0.0, false, 103};
    run_set(&spec);
}

static void test_capsule_capsule(void **state)
{
    (void)state;
    set_spec spec = {"capsule-capsule", GJKB_CAPSULE, GJKB_CAPSULE, 1.3, 0.3, 0.2, false, 104};
    run_set(&spec);
}

static void test_box_box(void **state)
{
    (void)state;
    set_spec spec = {"box-box", GJKB_BOX, GJKB_BOX, 1.3, 0.3, 0.2, false, 105};
    run_set(&spec);
}

static void test_point_hull(void **state)
{
    (void)state;
    set_spec spec = {"point-hull", GJKB_SPHERE, GJKB_HULL, 0.75, 0.0, 0.0, true, 106};
    run_set(&spec);
}

static void test_sphere_hull(void **state)
{
    (void)state;
    set_spec spec = {"sphere-hull", GJKB_SPHERE, GJKB_HULL, 1.2, 0.3, 0.0, false, 107};
    run_set(&spec);
}

/* Sphere against the round kinds: the oracle is the exact point-to-solid
 * distance of the sphere's centre (capsule: to a segment; cylinder and cone:
 * in the meridian plane). */
static void test_sphere_capsule(void **state)
{
    (void)state;
    set_spec spec = {"sphere-capsule", GJKB_SPHERE, GJKB_CAPSULE, 1.4, 0.3, 0.0, false, 108};
    run_set(&spec);
}

static void test_sphere_cylinder(void **state)
{
    (void)state;
    set_spec spec = {"sphere-cylinder", GJKB_SPHERE, GJKB_CYLINDER, 1.4, 0.3, 0.0, false, 109};
    run_set(&spec);
}

static void test_cone_sphere(void **state)
{
    (void)state;
    set_spec spec = {"cone-sphere", GJKB_CONE, GJKB_SPHERE, 1.4, 0.3, 0.0, false, 110};
    run_set(&spec);
}

static int setup(void **state)
{
    (void)state;
    make_hulls();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free_hulls();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_sphere), cmocka_unit_test(test_sphere_box),
        cmocka_unit_test(test_box_sphere),    cmocka_unit_test(test_capsule_capsule),
        cmocka_unit_test(test_box_box),       cmocka_unit_test(test_point_hull),
        cmocka_unit_test(test_sphere_hull),   cmocka_unit_test(test_sphere_capsule),
        cmocka_unit_test(test_sphere_cylinder), cmocka_unit_test(test_cone_sphere),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
