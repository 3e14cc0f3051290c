/* test_reference.c - the reference GJK on slow curved contacts: a rim (the
 * circular edge of a cylinder or of a cone's base) facing another rim, or
 * an edge, across a small gap. GJK converges only linearly there, and the
 * reference must still answer `separated` with the right distance within
 * its default iteration bound (GJKB_REFERENCE_MAX_ITERATIONS).
 *
 * Each pair is built so that its distance is known without any GJK: pick a
 * unit axis d, let pa be a point of A that is furthest along d (a support
 * point) and pb a point of B furthest along -d, and place B so that
 * pb = pa + gap * d. The planes through pa and pb normal to d then
 * separate the shapes by gap, and pa, pb are gap apart: the distance is
 * exactly gap. The support points come from testutil.h's tu_support, which
 * shares no code with the library; the only rounding is that of placing B
 * in double (about 1e-16 of the scale, far below the tolerances here). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "testutil.h"

/* Relative distance tolerance against the closed form for two rims: well
 * above what the reference's duality gap (1e-11 of the distance) leaves. */
#define REL_TOL 1e-6
/* The same for a rim against a straight edge. There GJK can stall before
 * that gap closes: the edge's support jumps between its two ends, and a
 * far end shrinks |v|^2 by at most about 3e-11 relative (exact arithmetic
 * on the stalled simplices), no more than the rounding of v itself; the
 * reference then stops on no progress with up to about 3e-5 of the
 * distance between its bounds, at gaps of 1e-6 of the scale. (A capsule's
 * radius is a margin: the gap then counts against the core distance.) */
#define EDGE_TOL 1e-4
/* Touching tolerance of the queries: small enough that a gap of 1e-6 of the
 * scale is clearly apart. In distance mode it only names the verdict; when
 * the reference stops does not depend on it. */
#define TOUCH_TOL 1e-9

/* A pair with a known distance: B sits gap beyond A along the unit axis d;
 * pa and pb are the closest points the construction put there. */
typedef struct contact {
    gjkb_shape a, b;
    double gap, scale;
    tu_v3 d, pa, pb;
} contact;

/* Where on a shape the contact is: the local direction u the shape is
 * touched from, and the local direction t of its rim or edge there (unit,
 * orthogonal to u). */
typedef struct spot {
    tu_v3 u, t;
} spot;

/* On a rim: u at tilt from local +z and turn about z; the rim runs
 * orthogonally to the plane of u and z. */
static spot rim_spot(double tilt, double turn)
{
    spot s = { tu_v(sin(tilt) * cos(turn), sin(tilt) * sin(turn), cos(tilt)), tu_v(-sin(turn), cos(turn), 0.0) };
    return s;
}

static tu_v3 apply(const double R[3][3], tu_v3 v)
{
    return tu_v(R[0][0] * v.x + R[0][1] * v.y + R[0][2] * v.z, R[1][0] * v.x + R[1][1] * v.y + R[1][2] * v.z,
                R[2][0] * v.x + R[2][1] * v.y + R[2][2] * v.z);
}

static double component(tu_v3 v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : v.z;
}

/* The rotation taking the orthonormal pair (u, t) onto (uw, tw): the image
 * of the frame (u, t, u x t) is (uw, tw, uw x tw), so R = sum to_k from_k^T. */
static void frame_onto(tu_v3 u, tu_v3 t, tu_v3 uw, tu_v3 tw, double R[3][3])
{
    tu_v3 from[3] = { u, t, tu_cross(u, t) }, to[3] = { uw, tw, tu_cross(uw, tw) };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            R[i][j] = 0.0;
            for (int k = 0; k < 3; k++)
                R[i][j] += component(to[k], i) * component(from[k], j);
        }
}

/* Quaternion (w, x, y, z) of a rotation matrix, from its largest diagonal
 * combination so that the square root is well away from zero. */
static void quat_of(const double R[3][3], float q[4])
{
    double t = R[0][0] + R[1][1] + R[2][2], w, x, y, z;
    if (t > 0.0) {
        double s = 2.0 * sqrt(1.0 + t);
        w = 0.25 * s, x = (R[2][1] - R[1][2]) / s, y = (R[0][2] - R[2][0]) / s, z = (R[1][0] - R[0][1]) / s;
    } else if (R[0][0] >= R[1][1] && R[0][0] >= R[2][2]) {
        double s = 2.0 * sqrt(1.0 + R[0][0] - R[1][1] - R[2][2]);
        w = (R[2][1] - R[1][2]) / s, x = 0.25 * s, y = (R[0][1] + R[1][0]) / s, z = (R[0][2] + R[2][0]) / s;
    } else if (R[1][1] >= R[2][2]) {
        double s = 2.0 * sqrt(1.0 + R[1][1] - R[0][0] - R[2][2]);
        w = (R[0][2] - R[2][0]) / s, x = (R[0][1] + R[1][0]) / s, y = 0.25 * s, z = (R[1][2] + R[2][1]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + R[2][2] - R[0][0] - R[1][1]);
        w = (R[1][0] - R[0][1]) / s, x = (R[0][2] + R[2][0]) / s, y = (R[1][2] + R[2][1]) / s, z = 0.25 * s;
    }
    q[0] = tu_f32(w), q[1] = tu_f32(x), q[2] = tu_f32(y), q[3] = tu_f32(z);
}

/* The point of A touched along the world axis d: its support point, except
 * on a box or capsule touched across an edge (the support is the whole
 * edge), where it is the edge's middle so that the contact is inside it. */
static tu_v3 touch_point(const tu_geom *g, tu_v3 d, spot s)
{
    if (g->kind == GJKB_CAPSULE && s.u.z == 0.0)
        return tu_to_world(g, tu_scale(s.u, g->s[0] + g->margin));
    if (g->kind == GJKB_BOX && s.u.x == 0.0)
        return tu_to_world(g, tu_add(tu_v(0.0, copysign(g->s[1], s.u.y), copysign(g->s[2], s.u.z)),
                                     tu_scale(s.u, g->margin)));
    return tu_support(g, d);
}

/* B's rotation (as floats): its spot sb faces A across d (sb.u onto -d),
 * its rim direction sb.t turned by psi about d from A's direction t. */
static void rotation_of_b(spot sb, tu_v3 d, tu_v3 t, double psi, float qb[4])
{
    tu_v3 tw = tu_add(tu_scale(t, cos(psi)), tu_scale(tu_cross(d, t), sin(psi)));
    double R[3][3];
    frame_onto(sb.u, sb.t, tu_scale(d, -1.0), tw, R);
    quat_of(R, qb);
}

/* A touched at spot sa (A rotated by qa at the origin), B at spot sb with
 * B's rim turned by psi about d from A's rim (or edge) direction, both
 * gap_rel * scale apart. */
static contact make_contact(gjkb_shape a, const float qa[4], spot sa, gjkb_shape b, spot sb, double psi,
                            double gap_rel)
{
    contact c;
    c.a = tu_rot(tu_at(a, 0, 0, 0), qa);
    tu_geom ga = tu_geom_of(&c.a, NULL);
    c.d = apply(ga.R, sa.u);
    c.d = tu_scale(c.d, 1.0 / tu_len(c.d));
    tu_v3 t = apply(ga.R, sa.t);
    t = tu_sub(t, tu_scale(c.d, tu_dot(t, c.d)));
    float qb[4];
    rotation_of_b(sb, c.d, tu_scale(t, 1.0 / tu_len(t)), psi, qb);
    c.b = tu_rot(tu_at(b, 0, 0, 0), qb);
    tu_geom gb = tu_geom_of(&c.b, NULL);
    /* B's support along -d from its float rotation, so rounding qb moves
     * the contact point but cannot break the construction. */
    tu_v3 pb0 = tu_support(&gb, tu_scale(c.d, -1.0));
    c.scale = tu_pair_scale(&ga, &gb);
    c.gap = gap_rel * c.scale;
    c.pa = touch_point(&ga, c.d, sa);
    c.pb = tu_add(c.pa, tu_scale(c.d, c.gap));
    tu_v3 pos = tu_sub(c.pb, pb0);
    c.b = tu_at(c.b, pos.x, pos.y, pos.z);
    return c;
}

static gjkb_query distance_query(void)
{
    gjkb_query q = { .mode = GJKB_DISTANCE, .tolerance = TOUCH_TOL };
    return q;
}

/* Whether the reference answered the contact right: separated, within
 * tol (relative) of the closed form, within its default bound. Prints the
 * pair when not. */
static bool answered(const contact *c, const gjkb_result *r, const char *name, double tol)
{
    bool ok = r->status == GJKB_SEPARATED && fabs(r->distance - c->gap) <= tol * c->gap &&
              r->iterations <= GJKB_REFERENCE_MAX_ITERATIONS;
    if (!ok) {
        fprintf(stderr, "%s: gap %.17g (scale %.17g)\n", name, c->gap, c->scale);
        tu_shape_print(stderr, "  A", &c->a);
        tu_shape_print(stderr, "  B", &c->b);
        tu_result_print(stderr, "  got", r);
    }
    return ok;
}

/* ---- the named case --------------------------------------------------- */

/* Project issue 13: a cone's base rim against a cylinder's rim, 1e-4 of
 * the scale apart, answered `limit` at 64 iterations (this one needs 74).
 * The axis from A to B and both contact points are known, so the witnesses
 * and the axis are checked too. */
static void test_cone_rim_cylinder_rim_gap_1e4(void **state)
{
    (void)state;
    gjkb_context *ctx = tu_context(GJKB_BACKEND_REFERENCE);
    assert_non_null(ctx);
    float qa[4];
    tu_quat_axis_angle(qa, 0.6, 0.0, 0.8, 1.3);
    spot rim_a = rim_spot(1.9, 0.4), rim_b = rim_spot(0.9, -0.1);
    contact c = make_contact(tu_cone(0.5, 0.5), qa, rim_a, tu_cylinder(0.5, 0.5), rim_b, 1.0, 1e-4);
    gjkb_query q = distance_query();
    gjkb_result r;
    assert_int_equal(gjkb_query_pair(ctx, &c.a, &c.b, &q, &r), GJKB_OK);
    assert_true(answered(&c, &r, "cone rim - cylinder rim", REL_TOL));
    printf("[ stats    ] cone rim - cylinder rim at 1e-4: %u iterations, distance error %.2g relative\n",
           r.iterations, fabs(r.distance - c.gap) / c.gap);
    assert_true(r.iterations > GJKB_DEFAULT_MAX_ITERATIONS); /* still the case that needs the larger bound */
    tu_v3 wa = tu_v(r.a[0], r.a[1], r.a[2]), wb = tu_v(r.b[0], r.b[1], r.b[2]), n = tu_v(r.n[0], r.n[1], r.n[2]);
    assert_true(tu_dist(wa, c.pa) <= 1e-6 * c.scale && tu_dist(wb, c.pb) <= 1e-6 * c.scale);
    assert_true(tu_dist(n, c.d) <= 1e-6);

    /* A much larger bound follows the same path to the same bits. */
    q.max_iterations = 4096;
    gjkb_result more;
    assert_int_equal(gjkb_query_pair(ctx, &c.a, &c.b, &q, &more), GJKB_OK);
    assert_true(tu_result_same(&r, &more));
    gjkb_destroy(ctx);
}

/* ---- sweeps ------------------------------------------------------------ */

static const double k_gaps[] = { 1e-2, 1e-3, 1e-4, 1e-5, 1e-6 };
/* Angle between the two rims' directions at the contact: 0 is parallel,
 * pi/2 crossed. */
static const double k_psis[] = { 0.0, 1e-3, 0.1, 0.5, 1.0, 0.5 * TU_PI };

/* A random spot on the rim of a cylinder or cone: a direction whose
 * support is a rim point, kept 0.15 rad away from the directions where the
 * support jumps (to the side line, the flat face or the apex). */
static spot random_rim_spot(tu_rng *r, const gjkb_shape *s)
{
    double turn = tu_range(r, -TU_PI, TU_PI);
    if (s->kind == GJKB_CONE) {
        /* The rim is furthest for tilts beyond pi/2 - atan(r / 2h). */
        double lo = 0.5 * TU_PI - atan2(s->size[0], 2.0 * s->size[2]);
        return rim_spot(tu_range(r, lo + 0.15, TU_PI - 0.15), turn);
    }
    double tilt = tu_range(r, 0.15, 0.5 * TU_PI - 0.15);
    return rim_spot(tu_below(r, 2) ? TU_PI - tilt : tilt, turn);
}

typedef struct sweep_stats {
    uint32_t pairs, failed, slow, max_iter;
    double worst;
} sweep_stats;

static void sweep_pair(gjkb_context *ctx, const contact *c, const char *name, double tol, sweep_stats *st)
{
    gjkb_query q = distance_query();
    gjkb_result r;
    assert_int_equal(gjkb_query_pair(ctx, &c->a, &c->b, &q, &r), GJKB_OK);
    st->pairs++;
    st->failed += !answered(c, &r, name, tol);
    st->slow += r.iterations > GJKB_DEFAULT_MAX_ITERATIONS;
    if (r.iterations > st->max_iter)
        st->max_iter = r.iterations;
    if (r.status == GJKB_SEPARATED && fabs(r.distance - c->gap) / c->gap > st->worst)
        st->worst = fabs(r.distance - c->gap) / c->gap;
}

/* Rims of cylinders, cones, a disk and a flat cone against each other, at
 * every gap and rim angle, in random orientations. */
static void test_rim_rim_sweep(void **state)
{
    (void)state;
    const gjkb_shape shapes[] = { tu_cone(0.5, 0.5),  tu_cylinder(0.5, 0.5), tu_cone(1.0, 0.125),
                                  tu_cylinder(0.5, 0.0), tu_cone(0.25, 1.0), tu_cylinder(1.0, 0.25) };
    const int n = (int)(sizeof shapes / sizeof shapes[0]);
    gjkb_context *ctx = tu_context(GJKB_BACKEND_REFERENCE);
    assert_non_null(ctx);
    tu_rng rng = tu_rng_make(13);
    sweep_stats st = { 0, 0, 0, 0, 0.0 };
    for (int i = 0; i < n * n; i++)
        for (size_t g = 0; g < sizeof k_gaps / sizeof k_gaps[0]; g++)
            for (size_t p = 0; p < sizeof k_psis / sizeof k_psis[0]; p++)
                for (int rep = 0; rep < 2; rep++) {
                    const gjkb_shape *a = &shapes[i / n], *b = &shapes[i % n];
                    float qa[4];
                    tu_random_quat(&rng, qa);
                    spot sa = random_rim_spot(&rng, a), sb = random_rim_spot(&rng, b);
                    contact c = make_contact(*a, qa, sa, *b, sb, k_psis[p], k_gaps[g]);
                    sweep_pair(ctx, &c, "rim - rim", REL_TOL, &st);
                }
    printf("[ stats    ] rim-rim: %u pairs, %u needed more than %u iterations, at most %u; worst distance "
           "error %.2g relative\n", st.pairs, st.slow, GJKB_DEFAULT_MAX_ITERATIONS, st.max_iter, st.worst);
    assert_int_equal(st.failed, 0);
    assert_true(st.slow > 0); /* the sweep still reaches the slow pairs */
    gjkb_destroy(ctx);
}

/* A spot on an edge: a box's edge along local x (u in the yz plane, both
 * components non-zero), or a capsule's side (u in the xy plane). */
static spot random_edge_spot(tu_rng *r, const gjkb_shape *s)
{
    double angle = tu_range(r, 0.15, 0.5 * TU_PI - 0.15), turn = tu_range(r, -TU_PI, TU_PI);
    if (s->kind == GJKB_BOX) {
        spot e = { tu_v(0.0, tu_below(r, 2) ? cos(angle) : -cos(angle), tu_below(r, 2) ? sin(angle) : -sin(angle)),
                   tu_v(1.0, 0.0, 0.0) };
        return e;
    }
    spot e = { tu_v(cos(turn), sin(turn), 0.0), tu_v(0.0, 0.0, 1.0) };
    return e;
}

/* The mirror pair: B against A, its axis and points swapped. */
static contact swapped(const contact *c)
{
    contact s = *c;
    s.a = c->b, s.b = c->a;
    s.d = tu_scale(c->d, -1.0);
    s.pa = c->pb, s.pb = c->pa;
    return s;
}

/* Rims against the edge of a box and the side of a capsule (touched in
 * the middle), in both orders. */
static void test_rim_edge_sweep(void **state)
{
    (void)state;
    const gjkb_shape edges[] = { tu_box(0.5, 0.25, 0.75), tu_capsule(0.25, 0.5) };
    const gjkb_shape rims[] = { tu_cone(0.5, 0.5), tu_cylinder(0.5, 0.5), tu_cone(1.0, 0.125), tu_cylinder(0.5, 0.0) };
    gjkb_context *ctx = tu_context(GJKB_BACKEND_REFERENCE);
    assert_non_null(ctx);
    tu_rng rng = tu_rng_make(14);
    sweep_stats st = { 0, 0, 0, 0, 0.0 };
    for (int i = 0; i < 8; i++)
        for (size_t g = 0; g < sizeof k_gaps / sizeof k_gaps[0]; g++)
            for (size_t p = 0; p < sizeof k_psis / sizeof k_psis[0]; p++)
                for (int rep = 0; rep < 2; rep++) {
                    const gjkb_shape *a = &edges[i / 4], *b = &rims[i % 4];
                    float qa[4];
                    tu_random_quat(&rng, qa);
                    spot sa = random_edge_spot(&rng, a), sb = random_rim_spot(&rng, b);
                    contact c = make_contact(*a, qa, sa, *b, sb, k_psis[p], k_gaps[g]);
                    contact m = swapped(&c);
                    sweep_pair(ctx, &c, "edge - rim", EDGE_TOL, &st);
                    sweep_pair(ctx, &m, "rim - edge", EDGE_TOL, &st);
                }
    printf("[ stats    ] rim-edge: %u pairs, %u needed more than %u iterations, at most %u; worst distance "
           "error %.2g relative\n", st.pairs, st.slow, GJKB_DEFAULT_MAX_ITERATIONS, st.max_iter, st.worst);
    assert_int_equal(st.failed, 0);
    gjkb_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cone_rim_cylinder_rim_gap_1e4),
        cmocka_unit_test(test_rim_rim_sweep),
        cmocka_unit_test(test_rim_edge_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
