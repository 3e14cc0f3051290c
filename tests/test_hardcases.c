/* test_hardcases.c - named hard cases for the reference GJK, through both
 * gjkb_query_pair and gjkb_query_batch (which must agree bit for bit on the
 * reference backend): exact touching, edge-edge contact, coincident centres,
 * thin plates, tiny against huge, far from the origin, degenerate hulls,
 * zero-size shapes, non-unit quaternions, warm starts, max_distance, every
 * status, and the iteration bound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "testutil.h"

#define DIST_TOL 1e-9 /* relative to the pair's scale */
#define BAND 1e-6     /* relative half-width of the near-touching band */
#define TOL GJKB_DEFAULT_TOLERANCE

static const gjkb_kind k_kinds[] = {GJKB_SPHERE, GJKB_CAPSULE, GJKB_BOX, GJKB_CYLINDER, GJKB_CONE, GJKB_HULL};

/* ---- fixtures ------------------------------------------------------------ */

/* A reference context with one solid hull registered (id 0): 12 random
 * points. Its oracle data is g_hull[0]. */
static tu_hull g_hull[1];

static gjkb_context *make_context(void)
{
    gjkb_context *ctx = tu_context(GJKB_BACKEND_REFERENCE);
    assert_non_null(ctx);
    float pts[12 * 3];
    tu_rng r = tu_rng_make(0xC0FFEE);
    for (;;) {
        tu_random_hull_points(&r, pts, 12);
        if (tu_hull_build(&g_hull[0], pts, 12)) break;
        tu_hull_free(&g_hull[0]);
    }
    uint32_t id = 99;
    assert_int_equal(gjkb_hull_add(ctx, pts, 12, &id), GJKB_OK);
    assert_int_equal(id, 0);
    return ctx;
}

static void drop_context(gjkb_context *ctx)
{
    tu_hull_free(&g_hull[0]);
    gjkb_destroy(ctx);
}

static double scale_of(const gjkb_shape *a, const gjkb_shape *b, const tu_hull *hulls)
{
    tu_geom ga = tu_geom_of(a, hulls), gb = tu_geom_of(b, hulls);
    return tu_pair_scale(&ga, &gb);
}

static int g_fail;

static void dump(const char *what, const gjkb_shape *a, const gjkb_shape *b, const gjkb_result *r)
{
    g_fail++;
    fprintf(stderr, "%s\n", what);
    tu_shape_print(stderr, "  A", a);
    tu_shape_print(stderr, "  B", b);
    if (r) tu_result_print(stderr, "  got", r);
}

/* Runs one pair through gjkb_query_pair and a one-pair batch; both must
 * succeed and agree bit for bit. */
static gjkb_result run(gjkb_context *ctx, const gjkb_shape *a, const gjkb_shape *b, const gjkb_query *q)
{
    gjkb_result rp, rb;
    assert_int_equal(gjkb_query_pair(ctx, a, b, q, &rp), GJKB_OK);
    assert_int_equal(tu_query_batch1(ctx, a, b, q, &rb), GJKB_OK);
    if (!tu_result_same(&rp, &rb)) {
        dump("gjkb_query_pair and gjkb_query_batch differ", a, b, &rp);
        tu_result_print(stderr, "  batch", &rb);
    }
    return rp;
}

static gjkb_query query(gjkb_mode mode)
{
    gjkb_query q;
    memset(&q, 0, sizeof q);
    q.mode = mode;
    return q;
}

/* Checks a distance-mode result against a known signed gap; band pairs
 * (near the touching threshold) may go either way. Returns whether the pair
 * was in the band. */
static bool expect_gap(const char *name, const gjkb_shape *a, const gjkb_shape *b, const gjkb_result *r,
                       double gap, double scale)
{
    double thresh = TOL * scale;
    gjkb_status want = gap <= thresh ? GJKB_OVERLAP : GJKB_SEPARATED;
    bool band = fabs(gap - thresh) <= BAND * scale;
    char msg[160];
    if (r->iterations > GJKB_REFERENCE_MAX_ITERATIONS) {
        snprintf(msg, sizeof msg, "[%s] iterations above the bound", name);
        dump(msg, a, b, r);
    }
    if (r->status != want && !band) {
        snprintf(msg, sizeof msg, "[%s] wrong verdict (gap %.17g, scale %.17g)", name, gap, scale);
        dump(msg, a, b, r);
        return band;
    }
    if (r->status == GJKB_OVERLAP && r->distance != 0.0) {
        snprintf(msg, sizeof msg, "[%s] overlap with distance not 0", name);
        dump(msg, a, b, r);
    }
    if (r->status == GJKB_SEPARATED && !(fabs(r->distance - fmax(gap, 0.0)) <= DIST_TOL * scale)) {
        snprintf(msg, sizeof msg, "[%s] distance off (gap %.17g, scale %.17g)", name, gap, scale);
        dump(msg, a, b, r);
    }
    return band;
}

/* The oracle's gap for a pair that has one. */
static double oracle_gap(const gjkb_shape *a, const gjkb_shape *b, const tu_hull *hulls)
{
    tu_geom ga = tu_geom_of(a, hulls), gb = tu_geom_of(b, hulls);
    double g;
    assert_true(tu_pair_sdist(&ga, &gb, &g));
    return g;
}

/* Witnesses of a separated result lie on their shapes, |b - a| is the
 * distance and n is unit along b - a. */
static void expect_witnesses(const char *name, const gjkb_shape *a, const gjkb_shape *b, const gjkb_result *r,
                             const tu_hull *hulls)
{
    if (r->status != GJKB_SEPARATED) return;
    double scale = scale_of(a, b, hulls);
    tu_geom ga = tu_geom_of(a, hulls), gb = tu_geom_of(b, hulls);
    tu_v3 pa = tu_v(r->a[0], r->a[1], r->a[2]), pb = tu_v(r->b[0], r->b[1], r->b[2]);
    tu_v3 n = tu_v(r->n[0], r->n[1], r->n[2]);
    double sa = tu_point_sdist(&ga, pa), sb = tu_point_sdist(&gb, pb);
    char msg[160];
    bool ok = fabs(tu_dist(pa, pb) - r->distance) <= DIST_TOL * scale && fabs(tu_len(n) - 1) <= 1e-12;
    if (!isnan(sa)) ok = ok && fabs(sa) <= DIST_TOL * scale;
    if (!isnan(sb)) ok = ok && fabs(sb) <= DIST_TOL * scale;
    if (r->distance > 1e-6 * scale)
        ok = ok && tu_dist(n, tu_scale(tu_sub(pb, pa), 1 / tu_dist(pa, pb))) <= 4 * DIST_TOL * scale / r->distance;
    if (!ok) {
        snprintf(msg, sizeof msg, "[%s] bad witnesses (surface errors %.3g %.3g)", name, sa, sb);
        dump(msg, a, b, r);
    }
}

/* Two results for the same geometry (up to representation) must give the
 * same answer: the same verdict unless the pair is near touching, and
 * distances within DIST_TOL * scale (hit mode: both NaN). Near touching is
 * judged from any distance-mode result at hand (x, y or ref, which may be
 * NULL): a separated distance within the band around the threshold. */
static void expect_same_answer(const char *name, const gjkb_shape *a, const gjkb_shape *b, const gjkb_result *x,
                               const gjkb_result *y, double scale, const gjkb_result *ref)
{
    char msg[200];
    if (x->status != y->status) {
        const gjkb_result *cand[3] = {x, y, ref};
        bool band = false;
        for (int i = 0; i < 3; i++)
            if (cand[i] && cand[i]->status == GJKB_SEPARATED && !isnan(cand[i]->distance) &&
                fabs(cand[i]->distance - TOL * scale) <= BAND * scale)
                band = true;
        if (!band) {
            snprintf(msg, sizeof msg, "[%s] verdicts differ: %s vs %s", name, gjkb_status_name(x->status),
                     gjkb_status_name(y->status));
            dump(msg, a, b, x);
            tu_result_print(stderr, "  other", y);
        }
        return;
    }
    bool both_nan = isnan(x->distance) && isnan(y->distance);
    if (x->status == GJKB_SEPARATED && !both_nan && !(fabs(x->distance - y->distance) <= DIST_TOL * scale)) {
        snprintf(msg, sizeof msg, "[%s] distances differ: %.17g vs %.17g (scale %.17g)", name, x->distance,
                 y->distance, scale);
        dump(msg, a, b, x);
        tu_result_print(stderr, "  other", y);
    }
}

/* Verdict only (hit mode), against a known gap. */
static void expect_verdict(const char *name, const gjkb_shape *a, const gjkb_shape *b, const gjkb_result *r,
                           double gap, double scale)
{
    double thresh = TOL * scale;
    gjkb_status want = gap <= thresh ? GJKB_OVERLAP : GJKB_SEPARATED;
    if (r->status != want && !(fabs(gap - thresh) <= BAND * scale)) {
        char msg[160];
        snprintf(msg, sizeof msg, "[%s] wrong verdict (gap %.17g, scale %.17g)", name, gap, scale);
        dump(msg, a, b, r);
    }
}

/* A random shape of kind k with moderate sizes, placed at the origin. */
static gjkb_shape random_kind(tu_rng *r, gjkb_kind k)
{
    gjkb_shape s = tu_random_shape(r, k, 0.3, 1);
    return tu_at(s, 0, 0, 0);
}

/* ---- exact touching --------------------------------------------------------- */

/* Boxes with parallel faces exactly in contact: distance 0 (overlap); the
 * same with a gap just inside and just beyond the tolerance. */
static void test_touching_faces(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    gjkb_query qd = query(GJKB_DISTANCE), qh = query(GJKB_HIT);
    gjkb_shape a = tu_box(1, 1, 1), b = tu_at(tu_box(0.5, 0.5, 0.5), 1.5, 0.25, -0.25);
    double scale = scale_of(&a, &b, NULL);
    for (int axis = 0; axis < 3; axis++)
        for (int sign = -1; sign <= 1; sign += 2) {
            for (int k = 0; k < 3; k++) b.pos[k] = k == axis ? sign * 1.5 : (k == (axis + 1) % 3 ? 0.25 : -0.25);
            gjkb_result r = run(ctx, &a, &b, &qd);
            assert_int_equal(r.status, GJKB_OVERLAP);
            assert_true(r.distance == 0.0);
            assert_int_equal(run(ctx, &a, &b, &qh).status, GJKB_OVERLAP);
            /* identical faces, fully coincident */
            gjkb_shape c = tu_at(tu_box(1, 1, 1), 0, 0, 0);
            c.pos[axis] = sign * 2.0;
            assert_int_equal(run(ctx, &a, &c, &qd).status, GJKB_OVERLAP);
            /* just inside and just beyond the tolerance */
            gjkb_shape in = b, out = b;
            in.pos[axis] += sign * 1e-7 * scale;
            out.pos[axis] += sign * 1e-5 * scale;
            r = run(ctx, &a, &in, &qd);
            assert_int_equal(r.status, GJKB_OVERLAP);
            r = run(ctx, &a, &out, &qd);
            assert_int_equal(r.status, GJKB_SEPARATED);
            expect_gap("faces beyond tolerance", &a, &out, &r, fabs(out.pos[axis]) - 1.5, scale);
            expect_witnesses("faces beyond tolerance", &a, &out, &r, NULL);
            assert_int_equal(run(ctx, &a, &in, &qh).status, GJKB_OVERLAP);
            assert_int_equal(run(ctx, &a, &out, &qh).status, GJKB_SEPARATED);
        }
    /* The same under a shared random rotation (faces stay parallel). */
    tu_rng rng = tu_rng_make(21);
    for (int rep = 0; rep < 200; rep++) {
        float q[4];
        tu_random_quat(&rng, q);
        gjkb_shape ra = tu_rot(tu_at(tu_box(1, 0.75, 0.5), 2, -1, 3), q), rb = tu_rot(tu_box(0.5, 0.5, 0.25), q);
        tu_geom ga = tu_geom_of(&ra, NULL);
        double sc = scale_of(&ra, &rb, NULL);
        for (int gi = 0; gi < 3; gi++) {
            double gap = gi == 0 ? 0.0 : gi == 1 ? 1e-7 * sc : 1e-5 * sc;
            tu_v3 p = tu_to_world(&ga, tu_v(1.0 + 0.5 + gap, 0.125, -0.0625));
            rb = tu_at(rb, p.x, p.y, p.z);
            gjkb_result r = run(ctx, &ra, &rb, &qd);
            expect_gap("rotated touching faces", &ra, &rb, &r, oracle_gap(&ra, &rb, NULL), scale_of(&ra, &rb, NULL));
            expect_witnesses("rotated touching faces", &ra, &rb, &r, NULL);
        }
    }
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* Two cubes turned 45 degrees about different axes (z for A, y for B) meet
 * edge to edge: A's edge along z against B's edge along y, crossing on the
 * x axis. Exact contact, inside and beyond the tolerance, and a clear gap. */
static void test_edge_edge(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    gjkb_query qd = query(GJKB_DISTANCE), qh = query(GJKB_HIT);
    float qa[4], qb[4];
    tu_quat_axis_angle(qa, 0, 0, 1, TU_PI / 4);
    tu_quat_axis_angle(qb, 0, 1, 0, TU_PI / 4);
    gjkb_shape a = tu_rot(tu_box(1, 1, 1), qa), b = tu_rot(tu_box(1, 1, 1), qb);
    tu_geom ga = tu_geom_of(&a, NULL), gb = tu_geom_of(&b, NULL);
    /* Contact offset: A's reach along +x plus B's along -x (both about
     * sqrt(2), exact for the float rotations actually used). */
    double reach = tu_dot(tu_support(&ga, tu_v(1, 0, 0)), tu_v(1, 0, 0)) -
                   tu_dot(tu_support(&gb, tu_v(-1, 0, 0)), tu_v(1, 0, 0));
    assert_true(fabs(reach - 2 * sqrt(2.0)) < 1e-6);
    double scale = scale_of(&a, &b, NULL);
    const double gaps[] = {0.0, 1e-7, 5e-7, 2e-6, 1e-5, 1e-3, 0.1};
    for (size_t i = 0; i < sizeof gaps / sizeof gaps[0]; i++)
        for (int sign = -1; sign <= 1; sign += 2) {
            /* from -x, B's reach is mirrored: the boxes are symmetric */
            b = tu_at(b, sign * (reach + gaps[i] * scale), 0, 0);
            gjkb_result r = run(ctx, &a, &b, &qd);
            double gap = oracle_gap(&a, &b, NULL);
            assert_true(fabs(gap - gaps[i] * scale) <= 1e-12 * scale);
            expect_gap("edge-edge", &a, &b, &r, gap, scale);
            expect_witnesses("edge-edge", &a, &b, &r, NULL);
            gjkb_result rh = run(ctx, &a, &b, &qh);
            assert_int_equal(rh.status, gaps[i] <= 5e-7 ? GJKB_OVERLAP : GJKB_SEPARATED);
            if (gaps[i] == 0.1) {
                /* The axis is along x and the witnesses are where the edges
                 * cross: A's edge (along z) at the y of its extreme vertex,
                 * B's edge (along y) at the z of its own. */
                gb = tu_geom_of(&b, NULL);
                tu_v3 ea = tu_support(&ga, tu_v(sign, 0, 0)), eb = tu_support(&gb, tu_v(-sign, 0, 0));
                assert_true(fabs(r.n[0] - sign) < 1e-9 && fabs(r.n[1]) < 1e-9 && fabs(r.n[2]) < 1e-9);
                assert_true(tu_dist(tu_v(r.a[0], r.a[1], r.a[2]), tu_v(ea.x, ea.y, eb.z)) < 1e-9);
                assert_true(tu_dist(tu_v(r.b[0], r.b[1], r.b[2]), tu_v(eb.x, ea.y, eb.z)) < 1e-9);
            }
        }
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* ---- coincident centres ----------------------------------------------------- */

static void test_coincident_centres(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    gjkb_query qd = query(GJKB_DISTANCE), qh = query(GJKB_HIT);
    tu_rng r = tu_rng_make(31);
    for (size_t i = 0; i < 6; i++)
        for (size_t j = 0; j < 6; j++)
            for (int rep = 0; rep < 20; rep++) {
                gjkb_shape a = random_kind(&r, k_kinds[i]), b = random_kind(&r, k_kinds[j]);
                a = tu_at(a, 1.5, -2.25, 3.0), b = tu_at(b, 1.5, -2.25, 3.0);
                if (rep == 0) memcpy(b.rot, a.rot, sizeof b.rot);
                gjkb_result rd = run(ctx, &a, &b, &qd), rh = run(ctx, &a, &b, &qh);
                if (rd.status != GJKB_OVERLAP || rd.distance != 0.0 || rh.status != GJKB_OVERLAP)
                    dump("coincident centres not an overlap", &a, &b, &rd);
            }
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* ---- thin plates -------------------------------------------------------------- */

/* Plates 1 x 1 x 0.01 (1:100): stacked with small gaps, crossed, standing on
 * edge, and at random poses near each other against the box oracle. */
static void test_thin_plates(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    gjkb_query qd = query(GJKB_DISTANCE);
    gjkb_shape a = tu_box(1, 1, 0.01);
    const double gaps[] = {0.0, 1e-8, 1e-4, 1e-3, 0.005, 0.02, 0.5};
    float cross[4], stand[4];
    tu_quat_axis_angle(cross, 0, 0, 1, TU_PI / 2);
    tu_quat_axis_angle(stand, 1, 0, 0, TU_PI / 2);
    for (size_t i = 0; i < sizeof gaps / sizeof gaps[0]; i++) {
        gjkb_shape stacked = tu_at(tu_box(1, 1, 0.01), 0.3, -0.2, 0.02 + gaps[i]);
        gjkb_shape crossed = tu_rot(tu_at(tu_box(1, 1, 0.01), 0.3, -0.2, 0.02 + gaps[i]), cross);
        gjkb_shape edge = tu_rot(tu_at(tu_box(1, 1, 0.01), 0.3, -0.2, 0.01 + 1.0 + gaps[i]), stand);
        gjkb_shape *cases[] = {&stacked, &crossed, &edge};
        for (int c = 0; c < 3; c++) {
            gjkb_result r = run(ctx, &a, cases[c], &qd);
            double scale = scale_of(&a, cases[c], NULL);
            double gap = oracle_gap(&a, cases[c], NULL);
            expect_gap("thin plates", &a, cases[c], &r, gap, scale);
            expect_witnesses("thin plates", &a, cases[c], &r, NULL);
            r = run(ctx, cases[c], &a, &qd);
            expect_gap("thin plates swapped", cases[c], &a, &r, gap, scale);
        }
    }
    tu_rng rng = tu_rng_make(41);
    uint32_t over = 0, n = 4000;
    for (uint32_t i = 0; i < n; i++) {
        gjkb_shape pa = tu_box(1, 1, 0.01), pb = tu_box(tu_range(&rng, 0.2, 1), tu_range(&rng, 0.2, 1), 0.01);
        tu_random_quat(&rng, pa.rot), tu_random_quat(&rng, pb.rot);
        if (i % 4 == 0) memcpy(pb.rot, pa.rot, sizeof pb.rot); /* parallel plates */
        double scale = scale_of(&pa, &pb, NULL);
        tu_place_near(&rng, &pa, &pb, scale, 0.6);
        gjkb_result r = run(ctx, &pa, &pb, &qd);
        double gap = oracle_gap(&pa, &pb, NULL);
        over += gap <= TOL * scale;
        expect_gap("random thin plates", &pa, &pb, &r, gap, scale);
        expect_witnesses("random thin plates", &pa, &pb, &r, NULL);
    }
    printf("[ stats    ] random thin plates: %u pairs, %.1f%% overlap\n", n, 100.0 * over / n);
    assert_true(over > n / 5 && over < n * 4 / 5);
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* ---- tiny against huge ---------------------------------------------------------- */

/* A box of half extent 1e4 against unit shapes (1:10,000) near its face,
 * edge and corner, in both orders. The touching tolerance is relative to
 * the pair's scale (~1.7e4), so gaps below ~0.017 count as contact. */
static void test_tiny_vs_huge(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    gjkb_query qd = query(GJKB_DISTANCE), qh = query(GJKB_HIT);
    gjkb_shape huge = tu_box(1e4, 1e4, 1e4);
    const double gaps[] = {-0.5, 0.0, 0.01, 0.03, 0.5, 7.0};
    const tu_v3 dirs[] = {{1, 0, 0}, {0.7071067811865476, 0.7071067811865476, 0},
                          {0.5773502691896258, 0.5773502691896258, 0.5773502691896258}};
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++)
        for (int d = 0; d < 3; d++) {
            /* a unit sphere off the face (d = 0), edge (1) or corner (2) */
            tu_v3 corner = tu_v(1e4, d >= 1 ? 1e4 : 0, d >= 2 ? 1e4 : 0);
            tu_v3 c = tu_add(corner, tu_scale(dirs[d], 1.0 + gaps[g]));
            gjkb_shape tiny = tu_at(tu_sphere(1.0), c.x, c.y, c.z);
            double scale = scale_of(&huge, &tiny, NULL);
            gjkb_result r = run(ctx, &huge, &tiny, &qd);
            expect_gap("tiny sphere vs huge box", &huge, &tiny, &r, gaps[g], scale);
            expect_witnesses("tiny sphere vs huge box", &huge, &tiny, &r, NULL);
            r = run(ctx, &tiny, &huge, &qd);
            expect_gap("huge box vs tiny sphere", &tiny, &huge, &r, gaps[g], scale);
            expect_witnesses("huge box vs tiny sphere", &tiny, &huge, &r, NULL);
            gjkb_result rh = run(ctx, &tiny, &huge, &qh);
            expect_verdict("huge box vs tiny sphere, hit", &tiny, &huge, &rh, gaps[g], scale);
        }
    /* random unit boxes and spheres around the huge box */
    tu_rng rng = tu_rng_make(51);
    uint32_t over = 0, n = 3000;
    for (uint32_t i = 0; i < n; i++) {
        gjkb_shape t = tu_random_shape(&rng, i % 2 ? GJKB_BOX : GJKB_SPHERE, 0.3, 1);
        /* a position near one face of the box, maybe beyond its edges */
        tu_v3 p = tu_v(tu_range(&rng, -1.2e4, 1.2e4), tu_range(&rng, -1.2e4, 1.2e4), tu_range(&rng, -1.2e4, 1.2e4));
        int ax = (int)tu_below(&rng, 3);
        double side = tu_unit(&rng) < 0.5 ? -1 : 1;
        if (ax == 0) p.x = side * (1e4 + tu_range(&rng, -2, 3));
        if (ax == 1) p.y = side * (1e4 + tu_range(&rng, -2, 3));
        if (ax == 2) p.z = side * (1e4 + tu_range(&rng, -2, 3));
        t = tu_at(t, p.x, p.y, p.z);
        double scale = scale_of(&huge, &t, NULL), gap = oracle_gap(&huge, &t, NULL);
        over += gap <= TOL * scale;
        gjkb_result r = run(ctx, &huge, &t, &qd);
        expect_gap("random tiny vs huge", &huge, &t, &r, gap, scale);
        expect_witnesses("random tiny vs huge", &huge, &t, &r, NULL);
        r = run(ctx, &t, &huge, &qd);
        expect_gap("random huge vs tiny", &t, &huge, &r, gap, scale);
    }
    printf("[ stats    ] tiny vs huge: %u pairs, %.1f%% overlap\n", n, 100.0 * over / n);
    assert_true(over > n / 10 && over < n * 9 / 10);
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* ---- far from the origin --------------------------------------------------------- */

/* The same pair translated by 1e3 and 1e5 keeps its verdict and distance
 * (within DIST_TOL of the scale): the library works pair-local. Every kind
 * pair, random poses near contact. */
static void test_far_from_origin(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    gjkb_query qd = query(GJKB_DISTANCE);
    const double shifts[][3] = {{1e3, -1e3, 1e3}, {1e5, 1e5, -1e5}, {-1e5, 3e4, 1e5}};
    tu_rng r = tu_rng_make(61);
    uint32_t pairs = 0;
    for (size_t i = 0; i < 6; i++)
        for (size_t j = 0; j < 6; j++)
            for (int rep = 0; rep < 60; rep++) {
                gjkb_shape a = tu_random_shape(&r, k_kinds[i], 0.3, 1), b = tu_random_shape(&r, k_kinds[j], 0.3, 1);
                double scale = scale_of(&a, &b, g_hull);
                tu_place_near(&r, &a, &b, scale, 1.2);
                gjkb_result base = run(ctx, &a, &b, &qd);
                expect_witnesses("near the origin", &a, &b, &base, g_hull);
                double gap;
                tu_geom ga = tu_geom_of(&a, g_hull), gb = tu_geom_of(&b, g_hull);
                if (tu_pair_sdist(&ga, &gb, &gap)) expect_gap("near the origin", &a, &b, &base, gap, scale);
                for (int s = 0; s < 3; s++) {
                    gjkb_shape fa = a, fb = b;
                    for (int k = 0; k < 3; k++) fa.pos[k] += shifts[s][k], fb.pos[k] += shifts[s][k];
                    gjkb_result far = run(ctx, &fa, &fb, &qd);
                    expect_same_answer("translated", &fa, &fb, &far, &base, scale, NULL);
                    expect_witnesses("translated", &fa, &fb, &far, g_hull);
                    pairs++;
                }
            }
    printf("[ stats    ] far from origin: %u translated pairs\n", pairs);
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* ---- degenerate hulls and zero sizes --------------------------------------------- */

/* Compares shape x with an equivalent shape y (same local geometry, another
 * representation) against random partners of every analytic kind, in both
 * orders, and against the oracle where there is one. hulls: oracle data by
 * id for x or y. */
static void compare_equivalent(gjkb_context *ctx, const char *name, gjkb_shape x, gjkb_shape y,
                               const tu_hull *hulls, uint64_t seed)
{
    gjkb_query qd = query(GJKB_DISTANCE), qh = query(GJKB_HIT);
    tu_rng r = tu_rng_make(seed);
    const gjkb_kind partners[] = {GJKB_SPHERE, GJKB_CAPSULE, GJKB_BOX, GJKB_CYLINDER, GJKB_CONE};
    for (int rep = 0; rep < 1500; rep++) {
        float q[4];
        tu_random_quat(&r, q);
        double px = tu_range(&r, -5, 5), py = tu_range(&r, -5, 5), pz = tu_range(&r, -5, 5);
        gjkb_shape sx = tu_rot(tu_at(x, px, py, pz), q), sy = tu_rot(tu_at(y, px, py, pz), q);
        gjkb_shape o = tu_random_shape(&r, partners[rep % 5], 0.3, 1);
        double scale = scale_of(&sx, &o, hulls);
        assert_true(fabs(scale - scale_of(&sy, &o, hulls)) <= 1e-12 * scale);
        tu_place_near(&r, &sx, &o, scale, 1.3);
        gjkb_result rx = run(ctx, &sx, &o, &qd), ry = run(ctx, &sy, &o, &qd);
        expect_same_answer(name, &sx, &o, &rx, &ry, scale, NULL);
        expect_witnesses(name, &sy, &o, &ry, hulls);
        expect_witnesses(name, &sx, &o, &rx, hulls);
        gjkb_result dx = rx;
        rx = run(ctx, &o, &sx, &qd), ry = run(ctx, &o, &sy, &qd);
        expect_same_answer(name, &o, &sx, &rx, &ry, scale, &dx);
        gjkb_result hx = run(ctx, &o, &sx, &qh), hy = run(ctx, &o, &sy, &qh);
        expect_same_answer(name, &o, &sx, &hx, &hy, scale, &rx);
        tu_geom gy = tu_geom_of(&sy, hulls), go = tu_geom_of(&o, hulls);
        double gap;
        if (tu_pair_sdist(&gy, &go, &gap)) {
            rx = run(ctx, &sx, &o, &qd);
            expect_gap(name, &sx, &o, &rx, gap, scale);
        }
    }
}

/* Registers a hull and returns its id. */
static uint32_t add_hull(gjkb_context *ctx, const float *xyz, uint32_t n)
{
    uint32_t id = UINT32_MAX;
    assert_int_equal(gjkb_hull_add(ctx, xyz, n, &id), GJKB_OK);
    assert_int_equal(id, gjkb_hull_count(ctx) - 1);
    return id;
}

static void test_degenerate_hulls(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    /* oracle data by id (id 0 is make_context's hull, unused here); the
     * degenerate hulls have no faces, only support points */
    tu_hull hulls[8];
    memset(hulls, 0, sizeof hulls);

    /* 1: the corners of a box, each three times, plus interior points */
    const double h[3] = {0.75, 0.5, 0.25};
    float dup[(8 * 3 + 4) * 3];
    uint32_t nd = 0;
    for (int rep = 0; rep < 3; rep++)
        for (int v = 0; v < 8; v++, nd++) {
            dup[3 * nd] = tu_f32((v & 1) ? h[0] : -h[0]);
            dup[3 * nd + 1] = tu_f32((v & 2) ? h[1] : -h[1]);
            dup[3 * nd + 2] = tu_f32((v & 4) ? h[2] : -h[2]);
        }
    const float inner[4][3] = {{0, 0, 0}, {0.5f, 0.25f, -0.125f}, {-0.5f, 0.1f, 0.2f}, {0.75f, 0.5f, 0.0f}};
    for (int k = 0; k < 4; k++, nd++) memcpy(&dup[3 * nd], inner[k], sizeof inner[k]);
    uint32_t id_dup = add_hull(ctx, dup, nd);
    assert_true(tu_hull_build(&hulls[id_dup], dup, nd));
    compare_equivalent(ctx, "duplicate-point hull = box", tu_hull_shape(id_dup), tu_box(h[0], h[1], h[2]), hulls, 71);

    /* 2: three collinear points along z = a segment = capsule of radius 0 */
    const float col[] = {0, 0, -0.75f, 0, 0, 0.2f, 0, 0, 0.75f};
    uint32_t id_col = add_hull(ctx, col, 3);
    tu_hull_build(&hulls[id_col], col, 3);
    compare_equivalent(ctx, "collinear hull = segment", tu_hull_shape(id_col), tu_capsule(0, 0.75), hulls, 72);

    /* 3: coplanar points (a rectangle's corners, edge midpoints, interior)
     * = a box of zero height */
    const float cop[] = {-0.75f, -0.5f, 0, 0.75f, -0.5f, 0, 0.75f, 0.5f, 0, -0.75f, 0.5f, 0, 0, 0.5f, 0,
                         0.75f, 0, 0, 0.1f, -0.2f, 0, -0.75f, 0.5f, 0};
    uint32_t id_cop = add_hull(ctx, cop, 8);
    tu_hull_build(&hulls[id_cop], cop, 8);
    compare_equivalent(ctx, "coplanar hull = flat box", tu_hull_shape(id_cop), tu_box(0.75, 0.5, 0), hulls, 73);

    /* 4: one point at the local origin = a point */
    const float one[] = {0, 0, 0};
    uint32_t id_one = add_hull(ctx, one, 1);
    tu_hull_build(&hulls[id_one], one, 1);
    compare_equivalent(ctx, "one-point hull = point", tu_hull_shape(id_one), tu_sphere(0), hulls, 74);

    /* 5: two points = a segment */
    const float two[] = {0, 0, -0.5f, 0, 0, 0.5f};
    uint32_t id_two = add_hull(ctx, two, 2);
    tu_hull_build(&hulls[id_two], two, 2);
    compare_equivalent(ctx, "two-point hull = segment", tu_hull_shape(id_two), tu_capsule(0, 0.5), hulls, 75);

    /* 6: one point off the local origin: a zero sphere at the rotated
     * offset, checked against the oracle */
    const float off[] = {0.3f, -0.2f, 0.1f};
    uint32_t id_off = add_hull(ctx, off, 1);
    tu_hull_build(&hulls[id_off], off, 1);
    gjkb_query qd = query(GJKB_DISTANCE);
    tu_rng r = tu_rng_make(76);
    for (int rep = 0; rep < 500; rep++) {
        gjkb_shape p = tu_random_shape(&r, GJKB_HULL, 0, 1);
        p.hull = id_off;
        tu_geom gp = tu_geom_of(&p, hulls);
        tu_v3 w = tu_to_world(&gp, tu_v(off[0], off[1], off[2]));
        gjkb_shape pt = tu_at(tu_sphere(0), w.x, w.y, w.z);
        gjkb_shape o = tu_random_shape(&r, rep % 2 ? GJKB_BOX : GJKB_SPHERE, 0.3, 1);
        double scale = scale_of(&p, &o, hulls);
        tu_place_near(&r, &pt, &o, scale, 1.3);
        gjkb_result res = run(ctx, &p, &o, &qd);
        expect_gap("off-centre one-point hull", &p, &o, &res, oracle_gap(&pt, &o, NULL), scale);
        expect_witnesses("off-centre one-point hull", &p, &o, &res, hulls);
    }

    for (int k = 1; k < 8; k++) tu_hull_free(&hulls[k]);
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* Zero sizes are valid: a box of zero extent is a point, a capsule of zero
 * length a sphere, a cylinder of zero radius a segment, cylinders and cones
 * of zero height disks. */
static void test_zero_size(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    compare_equivalent(ctx, "zero box = point", tu_box(0, 0, 0), tu_sphere(0), NULL, 81);
    compare_equivalent(ctx, "zero-length capsule = sphere", tu_capsule(0.5, 0), tu_sphere(0.5), NULL, 82);
    compare_equivalent(ctx, "zero-radius cylinder = segment", tu_cylinder(0, 0.5), tu_capsule(0, 0.5), NULL, 83);
    compare_equivalent(ctx, "zero-height cone = disk", tu_cone(0.5, 0), tu_cylinder(0.5, 0), NULL, 84);
    compare_equivalent(ctx, "flat box = zero-height box", tu_box(0.5, 0.25, 0), tu_box(0.5, 0.25, 0), NULL, 85);
    /* two points: distance exactly |offset|, or overlap when coincident */
    gjkb_query qd = query(GJKB_DISTANCE);
    gjkb_shape p = tu_sphere(0), q = tu_at(tu_sphere(0), 0.3, -0.4, 1.2);
    gjkb_result r = run(ctx, &p, &q, &qd);
    assert_int_equal(r.status, GJKB_SEPARATED);
    assert_true(fabs(r.distance - 1.3) <= 1e-15);
    r = run(ctx, &p, &p, &qd);
    assert_int_equal(r.status, GJKB_OVERLAP);
    gjkb_shape zb = tu_at(tu_box(0, 0, 0), 0.3, -0.4, 1.2);
    r = run(ctx, &p, &zb, &qd);
    assert_int_equal(r.status, GJKB_SEPARATED);
    assert_true(fabs(r.distance - 1.3) <= 1e-15);
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* ---- quaternions ----------------------------------------------------------------- */

/* Quaternions are normalized internally. Dyadic components make 3q exact
 * in float: same answer (normalization rounds differently, so within
 * DIST_TOL); scaling by powers of two normalizes to the very same values:
 * bit-identical results. */
static void test_non_unit_quaternions(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    gjkb_query qd = query(GJKB_DISTANCE);
    tu_rng r = tu_rng_make(91);
    for (int rep = 0; rep < 3000; rep++) {
        gjkb_shape a = tu_random_shape(&r, k_kinds[rep % 6], 0.3, 1);
        gjkb_shape b = tu_random_shape(&r, k_kinds[(rep / 6) % 6], 0.3, 1);
        for (int k = 0; k < 4; k++) {
            a.rot[k] = (float)((int)tu_below(&r, 129) - 64) / 64.0f;
            b.rot[k] = (float)((int)tu_below(&r, 129) - 64) / 64.0f;
        }
        if (a.rot[0] == 0 && a.rot[1] == 0 && a.rot[2] == 0 && a.rot[3] == 0) a.rot[0] = 1;
        if (b.rot[0] == 0 && b.rot[1] == 0 && b.rot[2] == 0 && b.rot[3] == 0) b.rot[0] = 1;
        double scale = scale_of(&a, &b, g_hull);
        tu_place_near(&r, &a, &b, scale, 1.2);
        gjkb_result base = run(ctx, &a, &b, &qd);
        double gap;
        tu_geom ga = tu_geom_of(&a, g_hull), gb = tu_geom_of(&b, g_hull);
        if (tu_pair_sdist(&ga, &gb, &gap)) expect_gap("dyadic quaternions", &a, &b, &base, gap, scale);
        expect_witnesses("dyadic quaternions", &a, &b, &base, g_hull);
        const float factors[] = {3.0f, 2.0f, 0.25f, 1024.0f};
        for (int f = 0; f < 4; f++) {
            gjkb_shape sa = a, sb = b;
            for (int k = 0; k < 4; k++) sa.rot[k] *= factors[f], sb.rot[k] *= factors[(f + 1) % 4];
            gjkb_result res = run(ctx, &sa, &sb, &qd);
            bool pow2a = factors[f] != 3.0f, pow2b = factors[(f + 1) % 4] != 3.0f;
            if (pow2a && pow2b) {
                if (!tu_result_same(&res, &base)) {
                    dump("quaternions scaled by powers of two: results differ", &sa, &sb, &res);
                    tu_result_print(stderr, "  unscaled", &base);
                }
            } else {
                expect_same_answer("quaternions scaled by 3", &sa, &sb, &res, &base, scale, NULL);
            }
        }
    }
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* ---- warm start ------------------------------------------------------------------- */

/* A good (last answer's n), bad (reversed, sideways), zero, non-finite or
 * extreme warm axis gives the same answer; zero and non-finite ones fall
 * back to the centre offset, exactly as with no warm start. */
static void test_warm_start(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    tu_rng r = tu_rng_make(101);
    gjkb_query qd = query(GJKB_DISTANCE), qh = query(GJKB_HIT);
    for (int rep = 0; rep < 2000; rep++) {
        gjkb_shape a = tu_random_shape(&r, k_kinds[rep % 6], 0.3, 1);
        gjkb_shape b = tu_random_shape(&r, k_kinds[(rep / 6) % 6], 0.3, 1);
        double scale = scale_of(&a, &b, g_hull);
        tu_place_near(&r, &a, &b, scale, 1.3);
        for (int m = 0; m < 2; m++) {
            const gjkb_query *plain = m ? &qh : &qd;
            gjkb_result base = run(ctx, &a, &b, plain);
            gjkb_result dist = run(ctx, &a, &b, &qd);
            double n[3] = {dist.n[0], dist.n[1], dist.n[2]};
            if (isnan(n[0])) n[0] = 0.3, n[1] = -0.2, n[2] = 0.9;
            const double warm[][3] = {
                {n[0], n[1], n[2]},          {-n[0], -n[1], -n[2]},        {n[1], -n[0], 0.5 * n[2]},
                {1e-300, 0, 0},              {1e300, -1e300, 1e300},       {n[0] * 1e6, n[1] * 1e6, n[2] * 1e6},
                {0, 0, 0},                   {NAN, 0, 0},                  {INFINITY, 1, 1},
                {1, -INFINITY, 0},           {NAN, NAN, NAN},
            };
            for (size_t w = 0; w < sizeof warm / sizeof warm[0]; w++) {
                gjkb_query q = *plain;
                q.warm_x = &warm[w][0], q.warm_y = &warm[w][1], q.warm_z = &warm[w][2];
                gjkb_result res = run(ctx, &a, &b, &q);
                bool fallback = w >= 6;
                if (fallback) {
                    if (!tu_result_same(&res, &base)) {
                        dump("zero or non-finite warm axis differs from no warm start", &a, &b, &res);
                        tu_result_print(stderr, "  cold", &base);
                    }
                } else {
                    expect_same_answer("warm start", &a, &b, &res, &base, scale, &dist);
                }
                if (res.iterations > GJKB_REFERENCE_MAX_ITERATIONS) dump("iterations above the bound", &a, &b, &res);
            }
        }
    }
    /* In a batch the warm axes are per pair: a pair's result with its own
     * axis equals the single-pair call with the same axis. */
    tu_batch t;
    memset(&t, 0, sizeof t);
    gjkb_shape as[64], bs[64];
    double wx[64], wy[64], wz[64];
    for (uint32_t i = 0; i < 64; i++) {
        as[i] = tu_random_shape(&r, k_kinds[i % 6], 0.3, 1);
        bs[i] = tu_random_shape(&r, k_kinds[(i / 6) % 6], 0.3, 1);
        tu_place_near(&r, &as[i], &bs[i], scale_of(&as[i], &bs[i], g_hull), 1.3);
        wx[i] = i % 5 == 0 ? NAN : tu_range(&r, -1, 1);
        wy[i] = tu_range(&r, -1, 1);
        wz[i] = i % 7 == 0 ? 0.0 : tu_range(&r, -1, 1);
        tu_batch_add(&t, &as[i], &bs[i]);
    }
    gjkb_query q = qd;
    q.warm_x = wx, q.warm_y = wy, q.warm_z = wz;
    assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
    for (uint32_t i = 0; i < 64; i++) {
        gjkb_query q1 = qd;
        q1.warm_x = &wx[i], q1.warm_y = &wy[i], q1.warm_z = &wz[i];
        gjkb_result single, batch = tu_batch_get(&t, i);
        assert_int_equal(gjkb_query_pair(ctx, &as[i], &bs[i], &q1, &single), GJKB_OK);
        if (!tu_result_same(&single, &batch)) dump("batch warm start differs from single pair", &as[i], &bs[i], &batch);
    }
    tu_batch_free(&t);
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* ---- max_distance ------------------------------------------------------------------- */

/* A pair farther apart than max_distance may stop early: still separated,
 * with a distance that exceeds max_distance and never exceeds the truth.
 * Pairs within max_distance get their full answer. */
static void test_max_distance(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    gjkb_query qd = query(GJKB_DISTANCE);
    /* named: boxes 10 apart, limit 1 */
    gjkb_shape a = tu_box(1, 1, 1), b = tu_at(tu_box(1, 1, 1), 12, 0.5, -0.5);
    gjkb_query q = qd;
    q.max_distance = 1.0;
    gjkb_result r = run(ctx, &a, &b, &q);
    assert_int_equal(r.status, GJKB_SEPARATED);
    assert_true(r.distance > 1.0 && r.distance <= 10.0 + 1e-12);

    tu_rng rng = tu_rng_make(111);
    uint32_t early = 0, n = 6000;
    for (uint32_t i = 0; i < n; i++) {
        /* kind pairs with an oracle: sphere-box, sphere-hull, box-box, capsule-capsule */
        static const gjkb_kind ka_of[4] = {GJKB_SPHERE, GJKB_SPHERE, GJKB_BOX, GJKB_CAPSULE};
        static const gjkb_kind kb_of[4] = {GJKB_BOX, GJKB_HULL, GJKB_BOX, GJKB_CAPSULE};
        gjkb_kind ka = ka_of[i % 4], kb = kb_of[i % 4];
        gjkb_shape sa = tu_random_shape(&rng, ka, 0.3, 1), sb = tu_random_shape(&rng, kb, 0.3, 1);
        double scale = scale_of(&sa, &sb, g_hull);
        tu_place_near(&rng, &sa, &sb, scale, 4.0);
        double gap = oracle_gap(&sa, &sb, g_hull);
        gjkb_query qm = qd;
        qm.max_distance = tu_range(&rng, 0.05, 3.0);
        gjkb_result full = run(ctx, &sa, &sb, &qd), lim = run(ctx, &sa, &sb, &qm);
        expect_gap("max_distance: full", &sa, &sb, &full, gap, scale);
        if (gap > qm.max_distance + DIST_TOL * scale) {
            if (lim.status != GJKB_SEPARATED || !(lim.distance > qm.max_distance) ||
                !(lim.distance <= gap + DIST_TOL * scale))
                dump("beyond max_distance: not a separated lower bound above the limit", &sa, &sb, &lim);
            early += lim.iterations < full.iterations;
        } else if (gap < qm.max_distance - DIST_TOL * scale) {
            expect_gap("within max_distance", &sa, &sb, &lim, gap, scale);
        }
        if (lim.iterations > full.iterations) dump("max_distance made the query longer", &sa, &sb, &lim);
    }
    printf("[ stats    ] max_distance: %u of %u pairs stopped early\n", early, n);
    assert_true(early > 0);
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* ---- statuses and the iteration bound ------------------------------------------------- */

static void test_every_status(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    gjkb_query qd = query(GJKB_DISTANCE), qh = query(GJKB_HIT);
    gjkb_shape a = tu_box(1, 1, 1);
    gjkb_shape sep = tu_at(tu_box(1, 1, 1), 3, 0, 0), over = tu_at(tu_box(1, 1, 1), 1, 0, 0);
    gjkb_shape bad = sep;
    bad.pos[1] = NAN;
    assert_int_equal(run(ctx, &a, &sep, &qd).status, GJKB_SEPARATED);
    assert_int_equal(run(ctx, &a, &over, &qd).status, GJKB_OVERLAP);
    gjkb_result inv = run(ctx, &a, &bad, &qd);
    assert_int_equal(inv.status, GJKB_INVALID);
    assert_true(isnan(inv.distance));
    assert_int_equal(run(ctx, &a, &bad, &qh).status, GJKB_INVALID);

    /* limit: rotated boxes near contact need several support evaluations */
    float qa[4], qb[4];
    tu_quat_axis_angle(qa, 0.48, 0.6, 0.64, 0.7);
    tu_quat_axis_angle(qb, -0.6, 0.0, 0.8, 1.1);
    gjkb_shape ra = tu_rot(tu_box(1, 0.5, 0.75), qa), rb = tu_rot(tu_at(tu_box(0.5, 1, 0.25), 1.9, 0.7, -0.3), qb);
    gjkb_result full = run(ctx, &ra, &rb, &qd);
    assert_true(oracle_gap(&ra, &rb, NULL) > 0.01);
    assert_int_equal(full.status, GJKB_SEPARATED);
    assert_true(full.iterations > 1);
    gjkb_query q1 = qd;
    q1.max_iterations = 1;
    gjkb_result lim = run(ctx, &ra, &rb, &q1);
    assert_int_equal(lim.status, GJKB_LIMIT);
    assert_true(lim.iterations <= 1);
    /* distance mode at the limit: the best upper bound, or NaN with none */
    if (!isnan(lim.distance)) assert_true(lim.distance >= oracle_gap(&ra, &rb, NULL) - DIST_TOL * 4);
    q1.mode = GJKB_HIT;
    gjkb_result hfull = run(ctx, &ra, &rb, &qh);
    if (hfull.iterations > 1) assert_int_equal(run(ctx, &ra, &rb, &q1).status, GJKB_LIMIT);
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

/* A query bounded by m iterations follows the unbounded one's path: it ends
 * with the same result when that needed at most m, and with GJKB_LIMIT
 * otherwise; it never reports more than m. */
static void test_iteration_bound(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context();
    g_fail = 0;
    tu_rng r = tu_rng_make(121);
    uint32_t limited = 0, total = 0;
    for (int rep = 0; rep < 1500; rep++) {
        gjkb_shape a = tu_random_shape(&r, k_kinds[rep % 6], 0.3, 1);
        gjkb_shape b = tu_random_shape(&r, k_kinds[(rep / 6) % 6], 0.3, 1);
        double scale = scale_of(&a, &b, g_hull);
        tu_place_near(&r, &a, &b, scale, 1.2);
        for (int m = 0; m < 2; m++) {
            gjkb_query q = query(m ? GJKB_HIT : GJKB_DISTANCE);
            gjkb_result full = run(ctx, &a, &b, &q);
            if (full.iterations > GJKB_REFERENCE_MAX_ITERATIONS) dump("iterations above the default bound", &a, &b, &full);
            for (uint32_t cap = 1; cap <= 10; cap++) {
                q.max_iterations = cap;
                gjkb_result res = run(ctx, &a, &b, &q);
                total++;
                if (res.iterations > cap) dump("iterations above max_iterations", &a, &b, &res);
                if (full.iterations <= cap) {
                    if (!tu_result_same(&res, &full)) {
                        dump("bounded query differs although the bound was not reached", &a, &b, &res);
                        tu_result_print(stderr, "  unbounded", &full);
                    }
                } else {
                    /* Unfinished: GJKB_LIMIT, unless the upper bound found so
                     * far already proves contact (a verdict, not a guess). */
                    limited++;
                    bool proven_overlap = res.status == GJKB_OVERLAP && full.status == GJKB_OVERLAP;
                    if (res.status != GJKB_LIMIT && !proven_overlap)
                        dump("bound reached without GJKB_LIMIT", &a, &b, &res);
                    if (!m && res.status == GJKB_LIMIT && full.status == GJKB_SEPARATED &&
                        !(res.distance >= full.distance - DIST_TOL * scale))
                        dump("limit distance is not an upper bound", &a, &b, &res);
                }
            }
        }
    }
    printf("[ stats    ] iteration bound: %u of %u bounded queries hit the limit\n", limited, total);
    assert_true(limited > 0);
    assert_int_equal(g_fail, 0);
    drop_context(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_touching_faces),      cmocka_unit_test(test_edge_edge),
        cmocka_unit_test(test_coincident_centres),  cmocka_unit_test(test_thin_plates),
        cmocka_unit_test(test_tiny_vs_huge),        cmocka_unit_test(test_far_from_origin),
        cmocka_unit_test(test_degenerate_hulls),    cmocka_unit_test(test_zero_size),
        cmocka_unit_test(test_non_unit_quaternions), cmocka_unit_test(test_warm_start),
        cmocka_unit_test(test_max_distance),        cmocka_unit_test(test_every_status),
        cmocka_unit_test(test_iteration_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
