/* test_backend_cases.c - the named hard cases through every wide backend:
 * touching contact, edge-edge, coincident centres, thin plates, tiny against
 * huge, far from the origin, degenerate hulls and zero-size shapes, non-unit
 * quaternions, warm starts, the early-stop distance and the iteration bound.
 * Each case states its expected verdict, and every backend must also agree
 * with the double-precision reference to 1e-4 of the pair's scale. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testutil.h"
#include "backends.h"

#define DIST_TOL 1e-4

/* Hulls every context registers, in this order (ids 0..5). */
enum { H_CUBE, H_SEGMENT, H_SQUARE, H_DUPLICATES, H_POINT, H_TWO, H_OFF };

static void register_hulls(gjkb_context *ctx)
{
    static const float cube[] = { -1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1,
                                  -1, -1, 1,  1, -1, 1,  -1, 1, 1,  1, 1, 1 };
    static const float segment[] = { -1, 0, 0, 0, 0, 0, 1, 0, 0 };            /* collinear */
    static const float square[] = { -1, -1, 0, 1, -1, 0, -1, 1, 0, 1, 1, 0, 0, 0, 0 }; /* coplanar */
    static const float dup[] = { 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, -1, -1, -1, -1, -1, -1 };
    static const float point[] = { 0.5f, 0, 0 };
    static const float two[] = { 0, 0, -1, 0, 0, 1 };
    static const float off[] = { 2, -1, -1, 4, -1, -1, 2, 1, -1, 4, 1, -1, /* its origin outside */
                                 2, -1, 1,  4, -1, 1,  2, 1, 1,  4, 1, 1 };
    const float *pts[] = { cube, segment, square, dup, point, two, off };
    const uint32_t n[] = { 8, 3, 5, 8, 1, 2, 8 };
    for (uint32_t i = 0; i < 7; i++) {
        uint32_t id;
        assert_int_equal(gjkb_hull_add(ctx, pts[i], n[i], &id), GJKB_OK);
        assert_int_equal(id, i);
    }
}

/* expected verdict: separated, overlap, or either (decided by the reference) */
enum { E_SEP = GJKB_SEPARATED, E_OVL = GJKB_OVERLAP, E_ANY = 9 };

typedef struct named {
    const char *name;
    gjkb_shape a, b;
    int expect;
} named;

static named make(const char *name, gjkb_shape a, gjkb_shape b, int expect)
{
    named c = { name, a, b, expect };
    return c;
}

/* The cases' pairs in t, in order. */
static void batch_of(const named *c, uint32_t n, tu_batch *t)
{
    for (uint32_t i = 0; i < n; i++)
        tu_batch_add(t, &c[i].a, &c[i].b);
}

static gjkb_shape translated(gjkb_shape s, double d)
{
    return tu_at(s, s.pos[0] + d, s.pos[1] - d, s.pos[2] + 0.5 * d);
}

static gjkb_shape scaled_rotation(gjkb_shape s, float k)
{
    for (int i = 0; i < 4; i++)
        s.rot[i] = tu_f32(s.rot[i] * k);
    return s;
}

/* The list: the base cases, then each again far from the origin. */
static uint32_t build_cases(named *c)
{
    uint32_t n = 0;
    float q45z[4], q45x[4], qr[4];
    tu_quat_axis_angle(q45z, 0, 0, 1, TU_PI / 4);
    tu_quat_axis_angle(q45x, 1, 0, 0, TU_PI / 4);
    tu_quat_axis_angle(qr, 0.3, -0.5, 0.8, 1.1);
    /* touching faces, exactly and just apart, and parallel faces overlapping */
    c[n++] = make("box-box faces touching", tu_box(1, 1, 1), tu_at(tu_box(1, 1, 1), 2, 0.3, -0.2), E_OVL);
    c[n++] = make("box-box faces 1e-3 apart", tu_box(1, 1, 1), tu_at(tu_box(1, 1, 1), 2.001, 0.3, -0.2), E_SEP);
    c[n++] = make("box-box faces 1e-3 deep", tu_box(1, 1, 1), tu_at(tu_box(1, 1, 1), 1.999, 0.3, -0.2), E_OVL);
    c[n++] = make("box-box corners touching", tu_box(1, 1, 1), tu_at(tu_box(1, 1, 1), 2, 2, 2), E_OVL);
    /* edge against edge: two boxes turned 45 degrees about crossing axes */
    double reach = 1.0 + sqrt(2.0);
    c[n++] = make("box-box edge-edge touching", tu_rot(tu_box(1, 1, 1), q45z),
                  tu_rot(tu_at(tu_box(1, 1, 1), reach, 0, 0), q45x), E_ANY);
    c[n++] = make("box-box edge-edge apart", tu_rot(tu_box(1, 1, 1), q45z),
                  tu_rot(tu_at(tu_box(1, 1, 1), reach + 0.01, 0, 0), q45x), E_SEP);
    /* coincident centres, every kind pair that has no hull */
    enum { ANALYTIC = 5 };
    static char names[ANALYTIC * ANALYTIC][48];
    const gjkb_kind kinds[ANALYTIC] = { GJKB_SPHERE, GJKB_CAPSULE, GJKB_BOX, GJKB_CYLINDER, GJKB_CONE };
    for (int i = 0; i < ANALYTIC; i++)
        for (int j = 0; j < ANALYTIC; j++) {
            char *name = names[ANALYTIC * i + j];
            snprintf(name, sizeof names[0], "coincident %s-%s", gjkb_kind_name(kinds[i]), gjkb_kind_name(kinds[j]));
            c[n++] = make(name, tu_rot(tu_shape(kinds[i], 0.5, 0.4, 0.3), qr),
                          tu_shape(kinds[j], 0.7, 0.2, 0.6), E_OVL);
        }
    c[n++] = make("hull-cube coincident with sphere", tu_hull_shape(H_CUBE), tu_sphere(0.1), E_OVL);
    /* thin plates 1:100 */
    c[n++] = make("thin plates stacked apart", tu_box(1, 1, 0.01), tu_at(tu_box(1, 1, 0.01), 0.3, 0.2, 0.025), E_SEP);
    c[n++] = make("thin plates crossing", tu_box(1, 1, 0.01), tu_rot(tu_at(tu_box(1, 1, 0.01), 0.3, 0.2, 0.0), q45x),
                  E_OVL);
    /* tiny against huge 1:10,000 */
    c[n++] = make("tiny sphere above huge box", tu_box(1, 1, 1), tu_at(tu_sphere(1e-4), 0.2, 0.1, 1.0 + 2e-4), E_SEP);
    c[n++] = make("tiny sphere inside huge box face", tu_box(1, 1, 1), tu_at(tu_sphere(1e-4), 0.2, 0.1, 1.0), E_OVL);
    c[n++] = make("tiny box near huge cylinder", tu_cylinder(1, 1), tu_at(tu_box(1e-4, 1e-4, 1e-4), 1.5, 0, 0), E_SEP);
    /* degenerate hulls */
    c[n++] = make("collinear hull (segment) vs sphere", tu_hull_shape(H_SEGMENT), tu_at(tu_sphere(0.5), 0.3, 0.6, 0), E_SEP);
    c[n++] = make("collinear hull touching sphere", tu_hull_shape(H_SEGMENT), tu_at(tu_sphere(0.5), 0.3, 0.4, 0), E_OVL);
    c[n++] = make("coplanar hull vs box above", tu_hull_shape(H_SQUARE), tu_at(tu_box(0.5, 0.5, 0.5), 0, 0, 0.7), E_SEP);
    c[n++] = make("coplanar hull vs box through", tu_hull_shape(H_SQUARE), tu_rot(tu_at(tu_box(0.5, 0.5, 0.5), 0.9, 0.9, 0.2), qr),
                  E_OVL);
    c[n++] = make("hull with duplicate points vs cone", tu_hull_shape(H_DUPLICATES), tu_at(tu_cone(0.5, 0.5), 0, 0, 2.0), E_SEP);
    c[n++] = make("one-point hull in a box", tu_hull_shape(H_POINT), tu_box(1, 1, 1), E_OVL);
    c[n++] = make("one-point hull vs capsule", tu_hull_shape(H_POINT), tu_at(tu_capsule(0.25, 1), 1, 0, 0), E_SEP);
    c[n++] = make("two-point hull vs cylinder", tu_hull_shape(H_TWO), tu_rot(tu_at(tu_cylinder(0.5, 0.25), 0.8, 0, 0), q45x),
                  E_SEP);
    /* zero sizes: a point box, a flat cylinder (disk), a capsule of no length */
    c[n++] = make("point box vs box", tu_box(0, 0, 0), tu_at(tu_box(1, 1, 1), 1.5, 0, 0), E_SEP);
    c[n++] = make("point box inside box", tu_box(0, 0, 0), tu_at(tu_box(1, 1, 1), 0.5, 0, 0), E_OVL);
    c[n++] = make("disk vs sphere", tu_cylinder(1, 0), tu_at(tu_sphere(0.5), 0, 0, 0.75), E_SEP);
    c[n++] = make("capsule of no length vs sphere", tu_capsule(0.5, 0), tu_at(tu_sphere(0.5), 0.999, 0, 0), E_OVL);
    c[n++] = make("two points", tu_sphere(0), tu_at(tu_sphere(0), 1, 2, 2), E_SEP);
    /* margins: cores apart, rounded shapes overlapping, and just apart */
    c[n++] = make("rounded boxes overlapping by margin", tu_rounded(tu_box(1, 1, 1), 0.1),
                  tu_at(tu_rounded(tu_box(1, 1, 1), 0.1), 2.1, 0, 0), E_OVL);
    c[n++] = make("rounded boxes just apart", tu_rounded(tu_box(1, 1, 1), 0.1),
                  tu_at(tu_rounded(tu_box(1, 1, 1), 0.1), 2.21, 0, 0), E_SEP);
    /* a quaternion scaled by 3 is the same rotation */
    c[n++] = make("non-unit quaternion", scaled_rotation(tu_rot(tu_box(1, 0.5, 0.25), qr), 3.0f),
                  tu_at(tu_cone(0.5, 0.5), 1.4, 0.2, 0.1), E_ANY);
    /* From gjkbatch run (frame 171, seed 1): curved cores that graze, where
     * float GJK settles with |v| just outside the touching band but v.w < 0
     * (the lower bound inside it): neither verdict is proven in float. */
    static const float q_cone[4] = { 0.394205898f, 0.141067818f, -0.705797911f, -0.5714463f };
    static const float q_cyl[4] = { 0.0490147844f, 0.744473517f, 0.0857781768f, 0.660302103f };
    c[n++] = make("grazing cone and cylinder",
                  tu_rot(tu_at(tu_cone(0.635708272, 0.268722236), 5.5305436548877047, -16.088863319445718,
                               -0.19691085430021388), q_cone),
                  tu_rot(tu_at(tu_cylinder(0.795511425, 0.729856372), 4.4836073076288159, -16.072677392502555,
                               -0.38814445331089331), q_cyl), E_ANY);
    uint32_t base = n;
    static char far_names[2][80][64];
    const double offsets[2] = { 1e3, 1e5 };
    for (int o = 0; o < 2; o++)
        for (uint32_t i = 0; i < base; i++) {
            snprintf(far_names[o][i], sizeof far_names[0][0], "%.40s at +%g", c[i].name, offsets[o]);
            c[n++] = make(far_names[o][i], translated(c[i].a, offsets[o]), translated(c[i].b, offsets[o]), c[i].expect);
        }
    return n;
}

static gjkb_context *context(gjkb_backend b)
{
    gjkb_config cfg = { .backend = b };
    gjkb_context *ctx = NULL;
    assert_int_equal(gjkb_create(&cfg, &ctx), GJKB_OK);
    register_hulls(ctx);
    return ctx;
}

/* The next wide backend after *b this machine runs, as a context with the
 * hulls, or NULL past the last; start from GJKB_BACKEND_REFERENCE. */
static gjkb_context *next_wide(int *b)
{
    while (++*b < GJKB_BACKEND_COUNT)
        if (gjkb_backend_available((gjkb_backend)*b))
            return context((gjkb_backend)*b);
    return NULL;
}

static void test_named_cases_every_backend(void **state)
{
    (void)state;
    static named cases[256];
    uint32_t n = build_cases(cases);
    gjkb_context *ref = context(GJKB_BACKEND_REFERENCE);
    gjkb_query q = { .mode = GJKB_DISTANCE };
    tu_batch t = { 0 };
    batch_of(cases, n, &t);
    int backends = 0, b = GJKB_BACKEND_REFERENCE;
    for (gjkb_context *ctx; (ctx = next_wide(&b)) != NULL;) {
        backends++;
        for (int mode = GJKB_HIT; mode <= GJKB_DISTANCE; mode++) {
            q.mode = (gjkb_mode)mode;
            tu_batch_fill_sentinel(&t);
            assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
            for (uint32_t i = 0; i < n; i++) {
                gjkb_result r;
                assert_int_equal(gjkb_query_pair(ref, &cases[i].a, &cases[i].b, &q, &r), GJKB_OK);
                const char *bn = gjkb_backend_name((gjkb_backend)b);
                int expect = cases[i].expect == E_ANY ? (int)r.status : cases[i].expect;
                if (r.status != (gjkb_status)expect)
                    fail_msg("%s: the reference says %s, the case expects %s", cases[i].name,
                             gjkb_status_name(r.status), gjkb_status_name((gjkb_status)expect));
                if (t.status[i] != expect)
                    fail_msg("%s (%s, %s mode): %s, expected %s", cases[i].name, bn, mode ? "distance" : "hit",
                             gjkb_status_name((gjkb_status)t.status[i]), gjkb_status_name((gjkb_status)expect));
                assert_true(t.iterations[i] <= GJKB_DEFAULT_MAX_ITERATIONS);
                if (mode == GJKB_DISTANCE && expect == GJKB_SEPARATED) {
                    gjkb_shape sa = cases[i].a, sb = cases[i].b;
                    tu_geom ga = tu_geom_of(&sa, NULL), gb = tu_geom_of(&sb, NULL);
                    double scale = sa.kind == GJKB_HULL || sb.kind == GJKB_HULL ? 4.0 : tu_pair_scale(&ga, &gb);
                    if (!(fabs(t.distance[i] - r.distance) <= DIST_TOL * scale))
                        fail_msg("%s (%s): distance %.9g, reference %.9g", cases[i].name, bn, t.distance[i],
                                 r.distance);
                    double d = tu_dist(tu_v(t.ax[i], t.ay[i], t.az[i]), tu_v(t.bx[i], t.by[i], t.bz[i]));
                    assert_true(fabs(d - t.distance[i]) <= DIST_TOL * scale);
                }
            }
        }
        gjkb_destroy(ctx);
    }
    assert_true(backends >= 2);
    tu_batch_free(&t);
    gjkb_destroy(ref);
}

/* The early verdicts (pack.inl). Hit mode: where balls about the bodies'
 * origins inside the shapes overlap, the pair overlaps before any support
 * (0 iterations); where the bounding spheres are apart, it is separated.
 * Distance mode: only where the cores' balls overlap (margins left out: a
 * pair whose cores are apart needs its witnesses), answered distance 0
 * without witnesses as the loops answer it. Shapes with a small inner ball
 * or none (a thin box, a cone, a hull whose origin lies outside it) must
 * not be called overlapping by it, and bad input stays invalid where the
 * balls overlap. */
/* The cases and, in early[mode][], whether pack answers each (0
 * iterations) in hit and in distance mode. */
static uint32_t early_cases(named *c, int early[2][16])
{
    uint32_t n = 0;
    gjkb_shape capsule = tu_capsule(0.3, 1.0), cube = tu_shape(GJKB_HULL, 0, 0, 0), off = cube;
    capsule.margin = 0.1f;
    cube.hull = H_CUBE;
    off.hull = H_OFF;
    gjkb_shape zero_q = tu_sphere(0.5), nan_size = tu_box(0.5, NAN, 0.5), near = tu_sphere(0.5);
    memset(zero_q.rot, 0, sizeof zero_q.rot);
    near = tu_at(near, 0.1, 0, 0);
    gjkb_shape round = tu_box(0.3, 0.3, 0.3);
    round.margin = 0.2f;
#define EARLY(hit, dist) early[0][n] = hit, early[1][n] = dist, c[n++]
    EARLY(1, 1) = make("concentric boxes", tu_box(1, 0.5, 0.7), tu_at(tu_box(0.3, 0.3, 0.3), 0.2, 0.1, 0), E_OVL);
    EARLY(1, 0) = make("spheres", tu_sphere(0.5), tu_at(tu_sphere(0.5), 0.9, 0, 0), E_OVL);
    EARLY(1, 1) = make("cube hull, sphere", cube, tu_at(tu_sphere(0.2), 0.5, 0.5, 0), E_OVL);
    EARLY(1, 0) = make("capsule with margin, sphere", capsule, tu_at(tu_sphere(0.1), 0.45, 0, 0), E_OVL);
    EARLY(1, 1) = make("rounded boxes, cores overlapping", round, tu_at(round, 0.3, 0.2, 0.1), E_OVL);
    EARLY(1, 0) = make("rounded boxes, cores apart", round, tu_at(round, 0.7, 0.2, 0), E_OVL);
    EARLY(0, 0) = make("thin box, sphere by its corner", tu_box(1, 0.2, 1), tu_at(tu_sphere(0.05), 0.9, 0.9, 0), E_SEP);
    EARLY(0, 0) = make("cone, sphere by its waist", tu_cone(1, 1), tu_at(tu_sphere(0.05), 0.9, 0, 0), E_SEP);
    EARLY(0, 0) = make("hull around an outside origin", off, tu_sphere(0.5), E_SEP);
    EARLY(1, 0) = make("far spheres", tu_sphere(0.5), tu_at(tu_sphere(0.5), 3, 0, 0), E_SEP);
    EARLY(1, 1) = make("zero quaternion", zero_q, near, GJKB_INVALID);
    EARLY(1, 1) = make("NaN size", nan_size, near, GJKB_INVALID);
#undef EARLY
    return n;
}

/* Case i of t as an early answer must be in distance mode: distance 0, no
 * witnesses, no axis. */
static void check_early_distance(const tu_batch *t, uint32_t i, const char *name, const char *bn)
{
    const double w[9] = { t->ax[i], t->ay[i], t->az[i], t->bx[i], t->by[i], t->bz[i], t->nx[i], t->ny[i], t->nz[i] };
    if (t->distance[i] != 0.0)
        fail_msg("%s (%s): distance %g, expected 0", name, bn, t->distance[i]);
    for (int k = 0; k < 9; k++)
        if (!isnan(w[k]))
            fail_msg("%s (%s): witness or axis coordinate %d is %g, expected NaN", name, bn, k, w[k]);
}

static void test_early_verdicts_every_backend(void **state)
{
    (void)state;
    named cases[16];
    int early[2][16];
    uint32_t n = early_cases(cases, early);
    tu_batch t = { 0 };
    batch_of(cases, n, &t);
    int backends = 0, b = GJKB_BACKEND_REFERENCE;
    for (gjkb_context *ctx; (ctx = next_wide(&b)) != NULL;) {
        backends++;
        const char *bn = gjkb_backend_name((gjkb_backend)b);
        for (int mode = 0; mode < 2; mode++) {
            gjkb_query q = { .mode = mode ? GJKB_DISTANCE : GJKB_HIT };
            assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
            for (uint32_t i = 0; i < n; i++) {
                if (t.status[i] != cases[i].expect)
                    fail_msg("%s (%s, mode %d): %s, expected %s", cases[i].name, bn, mode,
                             gjkb_status_name((gjkb_status)t.status[i]),
                             gjkb_status_name((gjkb_status)cases[i].expect));
                if (cases[i].expect == GJKB_INVALID)
                    continue;
                if ((t.iterations[i] == 0) != early[mode][i])
                    fail_msg("%s (%s, mode %d): %u iterations, expected %s", cases[i].name, bn, mode,
                             t.iterations[i], early[mode][i] ? "none" : "some");
                if (mode && early[mode][i])
                    check_early_distance(&t, i, cases[i].name, bn);
            }
        }
        gjkb_destroy(ctx);
    }
    assert_true(backends >= 2);
    tu_batch_free(&t);
}

/* b moved 6 from a in the direction it has from it (apart: 6 is more
 * than any two bounding radii); returns the pair's scale. */
static double apart6(const gjkb_shape *a, gjkb_shape *b)
{
    tu_v3 off = tu_sub(tu_v(b->pos[0], b->pos[1], b->pos[2]), tu_v(a->pos[0], a->pos[1], a->pos[2]));
    off = tu_scale(off, 6.0 / tu_len(off));
    *b = tu_at(*b, a->pos[0] + off.x, a->pos[1] + off.y, a->pos[2] + off.z);
    tu_geom ga = tu_geom_of(a, NULL), gb = tu_geom_of(b, NULL);
    return tu_pair_scale(&ga, &gb);
}

/* b (apart from a) moved along the reference's axis until the gap is gap
 * (of the scale): through 1e-2 and 1e-4 first, each step from a fresh
 * distance; the pair added to t. Returns the reference's answer there,
 * separated beyond the touching band (1e-6 of the scale) and overlapping
 * within it; rr gets the last step's. */
static gjkb_result add_at_gap(gjkb_context *ref, const gjkb_query *dq, tu_batch *t, const gjkb_shape *a,
                              gjkb_shape b, double gap, double scale, gjkb_result *rr)
{
    static const double approach[] = { 1e-2, 1e-4 };
    for (int step = 0; step < 3; step++) {
        assert_int_equal(gjkb_query_pair(ref, a, &b, dq, rr), GJKB_OK);
        assert_int_equal(rr->status, GJKB_SEPARATED);
        double to = (step < 2 ? approach[step] : gap) * scale;
        for (int k = 0; k < 3; k++)
            b.pos[k] -= (rr->distance - to) * rr->n[k];
    }
    tu_batch_add(t, a, &b);
    gjkb_result check;
    assert_int_equal(gjkb_query_pair(ref, a, &b, dq, &check), GJKB_OK);
    if (gap >= 1e-6)
        assert_int_equal(check.status, GJKB_SEPARATED);
    else if (gap > 0)
        assert_int_equal(check.status, GJKB_OVERLAP);
    return check;
}

/* Box pairs decided by their separating axes (sat.inl) agree with the
 * reference: random orientations, both axis-aligned (exactly parallel
 * edges), B turned from A by 1e-7 to 1e-2 rad (nearly parallel; half of
 * them placed edge to edge, where the skipped short crosses are the axes
 * that matter) or by a quarter turn, with and without margins, placed at
 * gaps from -1e-1 to 1e-1 of the scale through the touching band. The
 * reference decides every pair outside the band; the axes must decide
 * 90% of the margin-free pairs at 1e-3 of the scale or more from touching
 * (0 iterations). */
static void q_mul(float out[4], const float a[4], const float b[4])
{
    double w = (double)a[0] * b[0] - (double)a[1] * b[1] - (double)a[2] * b[2] - (double)a[3] * b[3];
    double x = (double)a[0] * b[1] + (double)a[1] * b[0] + (double)a[2] * b[3] - (double)a[3] * b[2];
    double y = (double)a[0] * b[2] - (double)a[1] * b[3] + (double)a[2] * b[0] + (double)a[3] * b[1];
    double z = (double)a[0] * b[3] + (double)a[1] * b[2] - (double)a[2] * b[1] + (double)a[3] * b[0];
    out[0] = (float)w, out[1] = (float)x, out[2] = (float)y, out[3] = (float)z;
}

static void box_pair(tu_rng *r, int mode, gjkb_shape *a, gjkb_shape *b)
{
    *a = tu_random_shape(r, GJKB_BOX, 0.3, 0);
    *b = tu_random_shape(r, GJKB_BOX, 0.3, 0);
    float turn[4];
    if (mode == 1) {
        memset(a->rot, 0, sizeof a->rot);
        a->rot[0] = 1.0f;
        memcpy(b->rot, a->rot, sizeof b->rot);
    } else if (mode >= 2) {
        tu_v3 u = tu_v(tu_range(r, -1, 1), tu_range(r, -1, 1), tu_range(r, -1, 1));
        u = tu_scale(u, 1.0 / tu_len(u));
        if (mode == 2)
            tu_quat_axis_angle(turn, u.x, u.y, u.z, pow(10.0, tu_range(r, -7, -2)));
        else
            tu_quat_axis_angle(turn, 0, 0, 1, TU_PI / 2);
        q_mul(b->rot, a->rot, turn);
    }
    tu_place_near(r, a, b, 1.0, 1.0);
    if (mode == 2 && (tu_next(r) & 1)) {   /* nearly parallel edges facing each other */
        double R[3][3];
        tu_quat_matrix(a->rot, R);
        double dy = (double)a->size[1] + b->size[1], dz = (double)a->size[2] + b->size[2];
        for (int k = 0; k < 3; k++)
            b->pos[k] = a->pos[k] + R[k][1] * dy + R[k][2] * dz;
    }
}

/* The same pairs in distance mode: the verdicts as the reference's, and
 * the clear overlaps (cores 1e-3 of the scale deep or more, no margins)
 * answered by the axes, at least 90% of them, with distance 0 and no
 * witnesses; separated pairs always run GJK. */
static void box_axes_distance(gjkb_context *ctx, tu_batch *t, const int *expect, const int *clear)
{
    const char *bn = gjkb_backend_name(gjkb_context_backend(ctx));
    gjkb_query q = { .mode = GJKB_DISTANCE };
    assert_int_equal(tu_batch_run(ctx, t, &q), GJKB_OK);
    uint32_t deep = 0, early = 0;
    for (uint32_t i = 0; i < t->np; i++) {
        if (t->status[i] != expect[i])
            fail_msg("%s, distance mode, pair %u: %s, expected %s", bn, i, gjkb_status_name((gjkb_status)t->status[i]),
                     gjkb_status_name((gjkb_status)expect[i]));
        int clear_deep = clear[i] && expect[i] == GJKB_OVERLAP;
        deep += (uint32_t)clear_deep;
        early += (uint32_t)(clear_deep && t->iterations[i] == 0);
        if (t->iterations[i] == 0) {
            assert_int_equal(expect[i], GJKB_OVERLAP);
            check_early_distance(t, i, "box pair", bn);
        }
    }
    printf("[ stats    ] %s: %u of %u margin-free pairs 1e-3 or more deep answered by the axes in distance mode\n", bn,
           early, deep);
    assert_true(deep >= 20 && early * 10 >= deep * 9);
}

static void test_box_axes_every_backend(void **state)
{
    (void)state;
    static const double gaps[] = { 1e-1, 1e-3, 2e-5, 1e-8, 0.0, -1e-8, -2e-5, -1e-3, -1e-1 };
    enum { BASE = 240, GAPS = sizeof gaps / sizeof gaps[0] };
    gjkb_context *ref = context(GJKB_BACKEND_REFERENCE);
    tu_rng r = tu_rng_make(0x5A7);
    tu_batch t = { 0 };
    int expect[BASE * GAPS], clear[BASE * GAPS];
    gjkb_query dq = { .mode = GJKB_DISTANCE };
    for (int i = 0; i < BASE; i++) {
        gjkb_shape a, b0;
        box_pair(&r, i % 4, &a, &b0);
        double scale = apart6(&a, &b0);
        for (int g = 0; g < GAPS; g++) {
            gjkb_result rr;
            uint32_t j = t.np;
            expect[j] = (int)add_at_gap(ref, &dq, &t, &a, b0, gaps[g], scale, &rr).status;
            clear[j] = fabs(gaps[g]) >= 1e-3 && a.margin == 0 && b0.margin == 0;
        }
    }
    int bk = GJKB_BACKEND_REFERENCE;
    for (gjkb_context *ctx; (ctx = next_wide(&bk)) != NULL;) {
        gjkb_query q = { .mode = GJKB_HIT };
        assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
        uint32_t clear_n = 0, early = 0;
        for (uint32_t i = 0; i < t.np; i++) {
            if (t.status[i] != expect[i])
                fail_msg("%s, pair %u (orientation %u, gap %g): %s, expected %s", gjkb_backend_name((gjkb_backend)bk),
                         i, (i / GAPS) % 4, gaps[i % GAPS], gjkb_status_name((gjkb_status)t.status[i]),
                         gjkb_status_name((gjkb_status)expect[i]));
            clear_n += (uint32_t)clear[i];
            early += (uint32_t)(clear[i] && t.iterations[i] == 0);
        }
        printf("[ stats    ] %s: %u of %u margin-free pairs 1e-3 or more from touching answered by the axes\n",
               gjkb_backend_name((gjkb_backend)bk), early, clear_n);
        assert_true(clear_n > 100 && early * 10 >= clear_n * 9);
        box_axes_distance(ctx, &t, expect, clear);
        gjkb_destroy(ctx);
    }
    tu_batch_free(&t);
    gjkb_destroy(ref);
}

/* Two boxes ridge on ridge (each turned 45 degrees about x, so that an
 * edge along x is its top or bottom), B turned by theta about the vertical:
 * the ridges cross at a right angle's sine theta, and the pair's only
 * separating axis is their cross, z, which is too short to trust below
 * SAT_PARALLEL (2^-12). Every face axis shows the boxes overlapping by
 * about (theta - gap) / sqrt 2: sat.inl may call the pair overlapping only
 * where that beats b_x theta, so these separated pairs must stay separated
 * (and the interpenetrating ones overlapping), as the reference says. */
static void test_box_axes_crossing_ridges(void **state)
{
    (void)state;
    static const double thetas[] = { 1e-4, 2e-4 }, gaps[] = { 1e-4, 5e-5, 2e-5, -5e-5 };
    gjkb_context *ref = context(GJKB_BACKEND_REFERENCE);
    tu_batch t = { 0 };
    int expect[8];
    float ridge[4], turn[4];
    tu_quat_axis_angle(ridge, 1, 0, 0, TU_PI / 4);
    for (int i = 0; i < 2; i++)
        for (int g = 0; g < 4; g++) {
            gjkb_shape a = tu_box(1, 0.3, 0.3), b = a;
            memcpy(a.rot, ridge, sizeof ridge);
            tu_quat_axis_angle(turn, 0, 0, 1, thetas[i]);
            q_mul(b.rot, turn, ridge);
            b = tu_at(b, 0, 0, 0.6 * sqrt(2.0) + gaps[g]);
            gjkb_query hq = { .mode = GJKB_HIT };
            gjkb_result rr;
            assert_int_equal(gjkb_query_pair(ref, &a, &b, &hq, &rr), GJKB_OK);
            expect[t.np] = (int)rr.status;
            assert_int_equal(rr.status, gaps[g] > 0 ? GJKB_SEPARATED : GJKB_OVERLAP);
            tu_batch_add(&t, &a, &b);
        }
    int bk = GJKB_BACKEND_REFERENCE;
    for (gjkb_context *ctx; (ctx = next_wide(&bk)) != NULL;) {
        for (int mode = 0; mode < 2; mode++) {
            gjkb_query q = { .mode = mode ? GJKB_DISTANCE : GJKB_HIT };
            assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
            for (uint32_t i = 0; i < t.np; i++)
                if (t.status[i] != expect[i])
                    fail_msg("%s, mode %d, theta %g, gap %g: %s, expected %s", gjkb_backend_name((gjkb_backend)bk),
                             mode, thetas[i / 4], gaps[i % 4], gjkb_status_name((gjkb_status)t.status[i]),
                             gjkb_status_name((gjkb_status)expect[i]));
        }
        gjkb_destroy(ctx);
    }
    tu_batch_free(&t);
    gjkb_destroy(ref);
}

/* Far pairs keep the documented tolerance: sphere-sphere, sphere-box,
 * capsule-capsule and box-box at gaps of 1e2 to 1e8 times the pair's
 * scale, random directions and rotations, against the closed forms, on the
 * reference and every wide backend (which hand pairs beyond GJKB_K_FAR
 * extents to the reference). Witnesses are the distance apart. */
static void test_far_pairs_every_backend(void **state)
{
    (void)state;
    static const gjkb_kind kinds[4][2] = { { GJKB_SPHERE, GJKB_SPHERE }, { GJKB_SPHERE, GJKB_BOX },
                                           { GJKB_CAPSULE, GJKB_CAPSULE }, { GJKB_BOX, GJKB_BOX } };
    tu_rng r = tu_rng_make(77);
    tu_batch t = { 0 };
    double exact[4 * 7 * 8], scale[4 * 7 * 8];
    uint32_t n = 0;
    for (int k = 0; k < 4; k++)
        for (int e = 2; e <= 8; e++)
            for (int rep = 0; rep < 8; rep++, n++) {
                gjkb_shape a = tu_random_shape(&r, kinds[k][0], 0.5, 0), b = tu_random_shape(&r, kinds[k][1], 0.5, 0);
                tu_geom ga = tu_geom_of(&a, NULL), gb = tu_geom_of(&b, NULL);
                scale[n] = tu_pair_scale(&ga, &gb);
                tu_place_near(&r, &a, &b, scale[n] * pow(10.0, e), 1.0);
                double z = b.pos[2] - a.pos[2];
                b.pos[2] = a.pos[2] + (z < 0 ? -1 : 1) * (fabs(z) + scale[n] * pow(10.0, e));
                gb = tu_geom_of(&b, NULL);
                assert_true(tu_pair_sdist(&ga, &gb, &exact[n]));
                tu_batch_add(&t, &a, &b);
            }
    for (int b = GJKB_BACKEND_REFERENCE; b < GJKB_BACKEND_COUNT; b++) {
        if (!gjkb_backend_available((gjkb_backend)b))
            continue;
        gjkb_context *ctx = context((gjkb_backend)b);
        gjkb_query q = { .mode = GJKB_DISTANCE };
        assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(t.status[i], GJKB_SEPARATED);
            if (!(fabs(t.distance[i] - exact[i]) <= DIST_TOL * scale[i]))
                fail_msg("%s, pair %u: distance %.17g, exact %.17g (scale %g)", gjkb_backend_name((gjkb_backend)b),
                         i, t.distance[i], exact[i], scale[i]);
            double d = tu_dist(tu_v(t.ax[i], t.ay[i], t.az[i]), tu_v(t.bx[i], t.by[i], t.bz[i]));
            assert_true(fabs(d - t.distance[i]) <= DIST_TOL * scale[i]);
        }
        q.mode = GJKB_HIT;
        assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
        for (uint32_t i = 0; i < n; i++)
            assert_int_equal(t.status[i], GJKB_SEPARATED);
        gjkb_destroy(ctx);
    }
    tu_batch_free(&t);
}

/* Zero-size shapes have a zero touching band: any real gap separates them,
 * on the reference and every wide backend alike, in both modes. Two points
 * (one-point hulls, zero spheres, zero boxes) 1e-30 to 1e-3 apart, and
 * exactly coincident (overlap). */
static void test_zero_size_tiny_gaps_every_backend(void **state)
{
    (void)state;
    static const float origin[] = { 0, 0, 0 };
    tu_batch t = { 0 };
    uint32_t n = 0;
    for (int e = -30; e <= -3; e += 3)
        for (int k = 0; k < 3; k++, n++) {
            gjkb_shape a = k == 0 ? tu_hull_shape(H_OFF + 1) : k == 1 ? tu_sphere(0) : tu_box(0, 0, 0);
            gjkb_shape b = tu_at(a, 0.3 * pow(10.0, e), 0.4 * pow(10.0, e), 0.5 * pow(10.0, e));
            a = tu_at(a, 0, 0, 0);
            tu_batch_add(&t, &a, &b);
        }
    gjkb_shape p = tu_sphere(0);
    tu_batch_add(&t, &p, &p);
    for (int b = GJKB_BACKEND_REFERENCE; b < GJKB_BACKEND_COUNT; b++) {
        if (!gjkb_backend_available((gjkb_backend)b))
            continue;
        gjkb_context *ctx = context((gjkb_backend)b);
        uint32_t id;
        assert_int_equal(gjkb_hull_add(ctx, origin, 1, &id), GJKB_OK);
        assert_int_equal(id, H_OFF + 1);
        for (int mode = GJKB_HIT; mode <= GJKB_DISTANCE; mode++) {
            gjkb_query q = { .mode = (gjkb_mode)mode };
            assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
            for (uint32_t i = 0; i < n; i++) {
                if (t.status[i] != GJKB_SEPARATED)
                    fail_msg("%s, %s mode, pair %u (gap %g): %s", gjkb_backend_name((gjkb_backend)b),
                             mode ? "distance" : "hit", i, sqrt(0.5) * pow(10.0, -30 + 3 * (int)(i / 3)),
                             gjkb_status_name((gjkb_status)t.status[i]));
                if (mode == GJKB_DISTANCE) {
                    double gap = sqrt(0.5) * pow(10.0, -30 + 3 * (int)(i / 3));
                    assert_true(fabs(t.distance[i] - gap) <= 1e-6 * gap);
                }
            }
            assert_int_equal(t.status[n], GJKB_OVERLAP);
        }
        gjkb_destroy(ctx);
    }
    tu_batch_free(&t);
}

/* An early-stop distance inside the touching band does not make touching
 * pairs separated: a sphere exactly touching a point, A turned by a
 * non-unit quaternion (its float rotation is off by an ulp, so the support
 * plane's bound lands a rounding above or below the contact), with
 * max_distance 1e-9 and 1e-3 of the scale: overlap on the reference and
 * every wide backend (found by the API fuzzer: separated at distance 0,
 * and the reference separated at its lower bound on a huge sphere). */
static void test_early_stop_inside_band_every_backend(void **state)
{
    (void)state;
    static const float turns[3][4] = { { 1, 0, 0, 0 }, { 0, 3, 0, 0.125f }, { 0.5f, 0.5f, 0.5f, 0.5f } };
    static const double radii[] = { 1.0, 0.359375, 0.75 };
    tu_batch t = { 0 };
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) {
            gjkb_shape a = tu_rot(tu_sphere(radii[r]), turns[k]), b = tu_at(tu_sphere(0), radii[r], 0, 0);
            tu_batch_add(&t, &a, &b);
        }
    /* A sphere of radius 1e10 and a box 512 units off its surface: inside
     * the band (1e-6 of the scale), where the reference stopped early too. */
    gjkb_shape big = tu_at(tu_sphere(1e10), 1e9, -1e9, 0), small = tu_rounded(tu_box(1.390625, 1.390625, 1.390625), 1.390625);
    small = tu_at(small, 1e9 + 1e10 + 512 + 2 * 1.390625, -1e9, 0);
    tu_batch_add(&t, &big, &small);
    for (int be = GJKB_BACKEND_REFERENCE; be < GJKB_BACKEND_COUNT; be++) {
        if (!gjkb_backend_available((gjkb_backend)be))
            continue;
        gjkb_context *ctx = context((gjkb_backend)be);
        for (int m = 0; m < 2; m++) {
            gjkb_query q = { .mode = GJKB_DISTANCE, .max_distance = m ? 1e-3 : 1e-9, .max_iterations = 3 };
            assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
            for (uint32_t i = 0; i < t.np; i++)
                if (t.status[i] != GJKB_OVERLAP)
                    fail_msg("%s, max_distance %g, pair %u: %s at %g", gjkb_backend_name((gjkb_backend)be),
                             q.max_distance, i, gjkb_status_name((gjkb_status)t.status[i]), t.distance[i]);
        }
        gjkb_destroy(ctx);
    }
    tu_batch_free(&t);
}

/* A tolerance finer than float resolves (down to the least subnormal):
 * a support plane that stops a lane beyond max_distance may round its lower
 * bound into the band. Such a lane must not come out separated at a
 * distance within the band (the API fuzzer: a sphere touching a capsule's
 * segment exactly, status separated at distance 0 on every wide backend). */
static void test_fine_tolerance_never_separated_inside_band(void **state)
{
    (void)state;
    static const float turn[4] = { -3.4375f, -3.4375f, 1.125f, -3.4375f };
    gjkb_shape a = tu_at(tu_rot(tu_sphere(3.125), turn), 1e9, -1e9, 0);
    gjkb_shape b = tu_at(tu_capsule(0, 0.0625), 1e9 + 3.125, -1e9, 0);
    tu_batch t = { 0 };
    tu_batch_add(&t, &a, &b);
    static const double tols[] = { 4.9406564584124654e-324, 1e-300, 1e-12, 1e-9 };
    for (int be = GJKB_BACKEND_REFERENCE; be < GJKB_BACKEND_COUNT; be++) {
        if (!gjkb_backend_available((gjkb_backend)be))
            continue;
        gjkb_context *ctx = context((gjkb_backend)be);
        for (int k = 0; k < 4; k++) {
            gjkb_query q = { .mode = GJKB_DISTANCE, .tolerance = tols[k], .max_distance = 1e-9, .max_iterations = 8 };
            assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
            if (t.status[0] != GJKB_OVERLAP)
                fail_msg("%s, tolerance %g: %s at %g", gjkb_backend_name((gjkb_backend)be), tols[k],
                         gjkb_status_name((gjkb_status)t.status[0]), t.distance[0]);
        }
        gjkb_destroy(ctx);
    }
    tu_batch_free(&t);
}

/* Warm starts (good, reversed, zero, NaN) change at most the iteration
 * count's path, never the verdict, and the distance only within tolerance. */
static void test_warm_start_every_backend(void **state)
{
    (void)state;
    float qr[4];
    tu_quat_axis_angle(qr, 0.3, -0.5, 0.8, 1.1);
    gjkb_shape a = tu_rot(tu_box(1, 0.5, 0.25), qr), b = tu_at(tu_cylinder(0.5, 0.5), 1.9, 0.3, 0.1);
    tu_batch t = { 0 };
    for (int k = 0; k < 4; k++)
        tu_batch_add(&t, &a, &b);
    const double wx[4] = { 1, -1, 0, NAN }, wy[4] = { 0.1, 0, 0, 0 }, wz[4] = { 0, 0, 0, 0 };
    gjkb_query q = { .mode = GJKB_DISTANCE, .warm_x = wx, .warm_y = wy, .warm_z = wz };
    for (int bk = GJKB_BACKEND_SCALAR; bk < GJKB_BACKEND_COUNT; bk++) {
        if (!gjkb_backend_available((gjkb_backend)bk))
            continue;
        gjkb_context *ctx = context((gjkb_backend)bk);
        assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
        for (int k = 0; k < 4; k++) {
            assert_int_equal(t.status[k], GJKB_SEPARATED);
            assert_true(fabs(t.distance[k] - t.distance[0]) <= 1e-5);
        }
        gjkb_destroy(ctx);
    }
    tu_batch_free(&t);
}

/* The early-stop distance and the iteration bound on every backend. */
static void test_bounds_every_backend(void **state)
{
    (void)state;
    gjkb_shape a = tu_cylinder(1, 1), b = tu_at(tu_cone(1, 1), 10, 1, 0.5);
    tu_batch t = { 0 };
    tu_batch_add(&t, &a, &b);
    for (int bk = GJKB_BACKEND_SCALAR; bk < GJKB_BACKEND_COUNT; bk++) {
        if (!gjkb_backend_available((gjkb_backend)bk))
            continue;
        gjkb_context *ctx = context((gjkb_backend)bk);
        gjkb_query q = { .mode = GJKB_DISTANCE, .max_distance = 2.0 };
        assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
        assert_int_equal(t.status[0], GJKB_SEPARATED);
        assert_true(t.distance[0] > 2.0);
        q.max_distance = 0;
        q.max_iterations = 1;
        assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
        assert_int_equal(t.status[0], GJKB_LIMIT);
        assert_int_equal(t.iterations[0], 1);
        gjkb_destroy(ctx);
    }
    tu_batch_free(&t);
}

/* `pairs` random pairs cycling through every kind pair (the registered
 * hulls included), a third with margins, about half of them overlapping. */
static void add_kind_pairs(tu_batch *t, uint64_t seed, int pairs)
{
    static const gjkb_kind kinds[] = { GJKB_SPHERE, GJKB_CAPSULE, GJKB_BOX, GJKB_CYLINDER, GJKB_CONE, GJKB_HULL };
    tu_rng r = tu_rng_make(seed);
    for (int i = 0; i < pairs; i++) {
        gjkb_shape a = tu_random_shape(&r, kinds[i % 6], 0.3, 6), b = tu_random_shape(&r, kinds[(i / 6) % 6], 0.3, 6);
        tu_place_near(&r, &a, &b, 2.5, 1.0);
        tu_batch_add(t, &a, &b);
    }
}

/* A query bounded by m iterations follows the unbounded one's path on every
 * backend, across the kernels' passes (a lane that outlasts a pass resumes
 * where it stopped): a pair the unbounded query settled within m steps gets
 * the same bits, any other stops by step m with GJKB_LIMIT or with the
 * unbounded query's verdict (proven early, or by the reference). */
static void test_bounded_follows_unbounded_every_backend(void **state)
{
    (void)state;
    /* Bounds past 16 and 32 cross the light loops' hand-over to the
     * closest-point loops (hit and distance mode). */
    enum { PAIRS = 1296, MAX_M = 36 };
    tu_batch t = { 0 };
    add_kind_pairs(&t, 2211, PAIRS);
    gjkb_result *full = malloc(sizeof *full * PAIRS);
    assert_non_null(full);
    uint32_t resumed = 0, limited = 0;
    for (int bk = GJKB_BACKEND_SCALAR; bk < GJKB_BACKEND_COUNT; bk++) {
        if (!gjkb_backend_available((gjkb_backend)bk))
            continue;
        gjkb_context *ctx = context((gjkb_backend)bk);
        for (int mode = 0; mode < 2; mode++) {
            gjkb_query q = { .mode = mode ? GJKB_DISTANCE : GJKB_HIT };
            assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
            for (uint32_t i = 0; i < PAIRS; i++) {
                full[i] = tu_batch_get(&t, i);
                resumed += full[i].iterations > 4;
            }
            for (uint32_t m = 1; m <= MAX_M; m++) {
                q.max_iterations = m;
                assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
                for (uint32_t i = 0; i < PAIRS; i++) {
                    gjkb_result res = tu_batch_get(&t, i);
                    if (full[i].iterations <= m) {
                        if (!tu_result_same(&res, &full[i])) {
                            fprintf(stderr, "%s, mode %d, bound %u, pair %u:\n", gjkb_backend_name((gjkb_backend)bk),
                                    mode, m, i);
                            tu_result_print(stderr, "  bounded", &res);
                            tu_result_print(stderr, "  unbounded", &full[i]);
                            fail();
                        }
                        continue;
                    }
                    limited++;
                    if (res.iterations > m || (res.status != GJKB_LIMIT && res.status != full[i].status)) {
                        fprintf(stderr, "%s, mode %d, bound %u, pair %u:\n", gjkb_backend_name((gjkb_backend)bk),
                                mode, m, i);
                        tu_result_print(stderr, "  bounded", &res);
                        tu_result_print(stderr, "  unbounded", &full[i]);
                        fail();
                    }
                }
            }
        }
        gjkb_destroy(ctx);
    }
    printf("[ stats    ] %u unbounded answers took more than 4 steps; %u bounded queries stopped at their bound\n",
           resumed, limited);
    assert_true(resumed > 0 && limited > 0);
    free(full);
    tu_batch_free(&t);
}

/* Curved pairs moved along the reference's axis until their gap is
 * `gap` times the pair's scale: sliding B along the separating axis by D
 * changes the gap by D to first order, and by about D^2 / R less on curved
 * surfaces, so the moves close in, measuring again before each (to 1e-2,
 * then 1e-4 of the scale, then the gap), and the positive gaps are measured
 * once more (within 1e-9 of the scale; within the band the reference
 * must say overlap). Past contact the move proves nothing (from a rim or
 * an apex, -n can leave the shape), so there the reference decides. The
 * hardest verdicts for hit mode, which hands pairs it cannot prove to the
 * closest-point loop. Well inside the touching band
 * (1e-6 of the scale) or well outside it, every backend must agree with the
 * reference, with and without warm starts. */
static void test_hit_near_touching_every_backend(void **state)
{
    (void)state;
    static const gjkb_kind kinds[] = { GJKB_SPHERE, GJKB_CAPSULE, GJKB_CYLINDER, GJKB_CONE, GJKB_BOX };
    static const double gaps[] = { 0.0, 1e-8, -1e-8, 2e-5, -2e-5 };
    enum { BASE = 150, GAPS = sizeof gaps / sizeof gaps[0] };
    gjkb_context *ref = context(GJKB_BACKEND_REFERENCE);
    tu_rng r = tu_rng_make(4242);
    tu_batch t = { 0 };
    int expect[BASE * GAPS];
    double warm[3][BASE * GAPS];
    uint32_t overlapping = 0;
    /* Slow curved contacts can take the reference past the default bound. */
    gjkb_query dq = { .mode = GJKB_DISTANCE, .max_iterations = 4096 };
    for (int i = 0; i < BASE; i++) {
        gjkb_shape a = tu_random_shape(&r, kinds[i % 5], 0.5, 0), b0 = tu_random_shape(&r, kinds[(i / 5) % 5], 0.5, 0);
        /* Apart (6 > any two bounding radii) in a random direction. */
        tu_place_near(&r, &a, &b0, 1.0, 1.0);
        double scale = apart6(&a, &b0);
        for (int g = 0; g < GAPS; g++) {
            gjkb_result rr;
            uint32_t j = t.np;
            /* Decided by the gap where it is known: in the band (<= 1e-6 of
             * the scale) or not. */
            gjkb_result check = add_at_gap(ref, &dq, &t, &a, b0, gaps[g], scale, &rr);
            if (gaps[g] >= 1e-6)
                assert_true(fabs(check.distance - gaps[g] * scale) <= 1e-9 * scale);
            expect[j] = (int)check.status;
            overlapping += gaps[g] <= 0 && check.status == GJKB_OVERLAP;
            for (int k = 0; k < 3; k++)
                warm[k][j] = rr.n[k];
        }
    }
    assert_int_equal(t.np, BASE * GAPS);
    assert_true(overlapping > BASE);   /* most moves past contact do overlap */
    uint32_t long_paths = 0;
    for (int bk = GJKB_BACKEND_SCALAR; bk < GJKB_BACKEND_COUNT; bk++) {
        if (!gjkb_backend_available((gjkb_backend)bk))
            continue;
        gjkb_context *ctx = context((gjkb_backend)bk);
        for (int w = 0; w < 2; w++) {
            gjkb_query q = { .mode = GJKB_HIT };
            if (w) {
                q.warm_x = warm[0];
                q.warm_y = warm[1];
                q.warm_z = warm[2];
            }
            assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
            for (uint32_t i = 0; i < t.np; i++) {
                if (t.status[i] != expect[i])
                    fail_msg("%s, pair %u (%s-%s, warm %d): %s, expected %s", gjkb_backend_name((gjkb_backend)bk),
                             i, gjkb_kind_name((gjkb_kind)t.kind[t.ia[i]]), gjkb_kind_name((gjkb_kind)t.kind[t.ib[i]]), w, gjkb_status_name((gjkb_status)t.status[i]),
                             gjkb_status_name((gjkb_status)expect[i]));
                long_paths += t.iterations[i] > 16;
            }
        }
        gjkb_destroy(ctx);
    }
    printf("[ stats    ] %u pairs, %u answers took more than 16 steps\n", t.np, long_paths);
    assert_true(long_paths > 0);
    tu_batch_free(&t);
    gjkb_destroy(ref);
}

/* gjkb_stats: the lanes' step counts are the pairs' iterations, the same on
 * every width and thread count; width 1 is always fully busy; the
 * reference backend counts nothing; reset clears. */
static void test_stats_every_backend(void **state)
{
    (void)state;
    enum { PAIRS = 1000 };
    tu_batch t = { 0 };
    add_kind_pairs(&t, 77, PAIRS);
    gjkb_stats st;
    gjkb_context *ref = context(GJKB_BACKEND_REFERENCE);
    gjkb_query q = { .mode = GJKB_HIT };
    assert_int_equal(tu_batch_run(ref, &t, &q), GJKB_OK);
    assert_int_equal(gjkb_stats_get(ref, &st), GJKB_OK);
    assert_true(st.width == 0 && st.pairs == 0 && st.bundle_steps == 0 && st.lane_steps == 0);
    assert_int_equal(gjkb_stats_get(NULL, &st), GJKB_ERR_NULL);
    assert_int_equal(gjkb_stats_get(ref, NULL), GJKB_ERR_NULL);
    gjkb_destroy(ref);
    for (int mode = 0; mode < 2; mode++) {
        q.mode = mode ? GJKB_DISTANCE : GJKB_HIT;
        uint64_t lane_steps = 0;
        for (int bk = GJKB_BACKEND_SCALAR; bk < GJKB_BACKEND_COUNT; bk++) {
            if (!gjkb_backend_available((gjkb_backend)bk))
                continue;
            gjkb_context *ctx = context((gjkb_backend)bk);
            assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
            assert_int_equal(gjkb_stats_get(ctx, &st), GJKB_OK);
#define WIDTH_ROW(id_, isa_, w_, arch_, cpu_) [id_] = w_,
            static const uint32_t widths[GJKB_BACKEND_COUNT] = { GJKB_WIDE_BACKENDS(WIDTH_ROW) };
            assert_int_equal(st.width, widths[bk]);
            assert_int_equal(st.pairs, PAIRS);
            uint64_t iterations = 0;
            for (uint32_t i = 0; i < t.np; i++)
                iterations += t.iterations[i];
            /* Every step a lane ran is a pair's iteration (a pair answered
             * by the reference would report its count instead; this set,
             * checked on x86 and aarch64, has none). */
            assert_true(st.lane_steps > 0 && st.lane_steps == iterations);
            assert_true(st.lane_steps <= st.bundle_steps * st.width);
            if (st.width == 1)
                assert_true(st.lane_steps == st.bundle_steps);
            if (lane_steps)
                assert_true(st.lane_steps == lane_steps);
            lane_steps = st.lane_steps;
            /* A second call adds the same again; any thread count too. */
            gjkb_stats one = st;
            if (gjkb_set_threads(ctx, 2) == GJKB_OK) {
                for (int k = 0; k < 4; k++)   /* enough pairs for the threads to split */
                    assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
                assert_int_equal(gjkb_stats_get(ctx, &st), GJKB_OK);
                assert_true(st.pairs == 5 * one.pairs && st.lane_steps == 5 * one.lane_steps &&
                            st.bundle_steps == 5 * one.bundle_steps);
            }
            gjkb_stats_reset(ctx);
            assert_int_equal(gjkb_stats_get(ctx, &st), GJKB_OK);
            assert_true(st.pairs == 0 && st.bundle_steps == 0 && st.lane_steps == 0 && st.width == widths[bk]);
            gjkb_destroy(ctx);
        }
    }
    tu_batch_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_named_cases_every_backend),
        cmocka_unit_test(test_early_verdicts_every_backend),
        cmocka_unit_test(test_box_axes_every_backend),
        cmocka_unit_test(test_box_axes_crossing_ridges),
        cmocka_unit_test(test_warm_start_every_backend),
        cmocka_unit_test(test_bounds_every_backend),
        cmocka_unit_test(test_bounded_follows_unbounded_every_backend),
        cmocka_unit_test(test_hit_near_touching_every_backend),
        cmocka_unit_test(test_stats_every_backend),
        cmocka_unit_test(test_far_pairs_every_backend),
        cmocka_unit_test(test_zero_size_tiny_gaps_every_backend),
        cmocka_unit_test(test_early_stop_inside_band_every_backend),
        cmocka_unit_test(test_fine_tolerance_never_separated_inside_band),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
