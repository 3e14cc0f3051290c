/* test_sweeps.c - sliding sweeps: shape B moves in small steps along a line
 * through shape A, and contact must begin and end exactly where geometry
 * says, with the touching tolerance (GJKB_DEFAULT_TOLERANCE, relative to the
 * pair's scale) deciding the near-touching positions.
 *
 * Every sweep is built so that the distance along the motion is known in
 * closed form: for motion parameter s, B's position is base + s * dir, the
 * shapes overlap for lo <= s <= hi, and outside that interval the distance
 * is lo - s or s - hi. Sizes and steps are dyadic, so the axis-aligned sweeps
 * land exactly on the touching positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "testutil.h"

#define DIST_TOL 1e-9 /* relative */

typedef struct sweep {
    const char *name;
    gjkb_shape a, b;  /* b at s = 0 */
    tu_v3 dir;        /* unit, world */
    double lo, hi;    /* contact interval of s */
    double step;      /* lo and hi are multiples of step */
    int steps;        /* s runs over [-steps, steps] * step */
} sweep;

static gjkb_shape moved(const sweep *w, double s)
{
    gjkb_shape b = w->b;
    b.pos[0] += s * w->dir.x, b.pos[1] += s * w->dir.y, b.pos[2] += s * w->dir.z;
    return b;
}

static double sweep_scale(const sweep *w)
{
    tu_geom ga = tu_geom_of(&w->a, NULL), gb = tu_geom_of(&w->b, NULL);
    return tu_pair_scale(&ga, &gb);
}

static double gap_at(const sweep *w, double s)
{
    return fmax(w->lo - s, s - w->hi);
}

static int g_failures;

/* Checks one result at motion parameter s. */
static void check_at(const sweep *w, const char *path, double s, const gjkb_result *r, bool hit)
{
    double scale = sweep_scale(w), gap = gap_at(w, s);
    gjkb_status want = gap <= GJKB_DEFAULT_TOLERANCE * scale ? GJKB_OVERLAP : GJKB_SEPARATED;
    const char *bad = NULL;
    if (r->status != want)
        bad = "wrong verdict";
    else if (r->iterations > GJKB_REFERENCE_MAX_ITERATIONS)
        bad = "iterations above the bound";
    else if (hit && want == GJKB_SEPARATED && !isnan(r->distance))
        bad = "hit mode separated distance not NaN";
    else if (want == GJKB_OVERLAP && r->distance != 0.0)
        bad = "overlap distance not 0";
    else if (!hit && want == GJKB_SEPARATED && !(fabs(r->distance - gap) <= DIST_TOL * scale))
        bad = "distance off";
    if (!bad) return;
    g_failures++;
    fprintf(stderr, "[%s %s] s = %.17g (gap %.17g, scale %.17g, expected %s): %s\n", w->name, path, s, gap,
            scale, gjkb_status_name(want), bad);
    gjkb_shape b = moved(w, s);
    tu_shape_print(stderr, "  A", &w->a);
    tu_shape_print(stderr, "  B", &b);
    tu_result_print(stderr, "  got", r);
}

/* Probe offsets from the touching positions, relative to the scale: inside
 * the tolerance (overlap) and beyond it (separated). */
static const double k_probe_in[] = {0.0, 1e-7, 5e-7};
static const double k_probe_out[] = {2e-6, 1e-5, 1e-3};

static void run_sweep(const sweep *w)
{
    gjkb_context *ctx = tu_context(GJKB_BACKEND_REFERENCE);
    assert_non_null(ctx);
    double scale = sweep_scale(w);
    g_failures = 0;

    gjkb_query qd, qh;
    memset(&qd, 0, sizeof qd);
    qd.mode = GJKB_DISTANCE;
    qh = qd;
    qh.mode = GJKB_HIT;

    /* The motion parameters: the step grid, then the probes around both
     * touching positions. */
    size_t cap = (size_t)(2 * w->steps + 1) + 12;
    double *s = tu_realloc(NULL, cap * sizeof *s);
    size_t n = 0;
    for (int k = -w->steps; k <= w->steps; k++) s[n++] = k * w->step;
    size_t grid = n;
    for (size_t i = 0; i < 3; i++) {
        s[n++] = w->hi + k_probe_in[i] * scale;
        s[n++] = w->lo - k_probe_in[i] * scale;
        s[n++] = w->hi + k_probe_out[i] * scale;
        s[n++] = w->lo - k_probe_out[i] * scale;
    }

    tu_batch t;
    memset(&t, 0, sizeof t);
    int first = INT32_MAX, last = INT32_MIN;
    for (size_t i = 0; i < n; i++) {
        gjkb_shape b = moved(w, s[i]);
        gjkb_result r;
        assert_int_equal(gjkb_query_pair(ctx, &w->a, &b, &qd, &r), GJKB_OK);
        check_at(w, "pair/distance", s[i], &r, false);
        if (i < grid && r.status == GJKB_OVERLAP) {
            int k = (int)i - w->steps;
            if (k < first) first = k;
            if (k > last) last = k;
        }
        assert_int_equal(gjkb_query_pair(ctx, &w->a, &b, &qh, &r), GJKB_OK);
        check_at(w, "pair/hit", s[i], &r, true);
        tu_batch_add(&t, &w->a, &b);
    }
    assert_int_equal(tu_batch_run(ctx, &t, &qd), GJKB_OK);
    for (size_t i = 0; i < n; i++) {
        gjkb_result r = tu_batch_get(&t, (uint32_t)i);
        check_at(w, "batch/distance", s[i], &r, false);
    }
    assert_int_equal(tu_batch_run(ctx, &t, &qh), GJKB_OK);
    for (size_t i = 0; i < n; i++) {
        gjkb_result r = tu_batch_get(&t, (uint32_t)i);
        check_at(w, "batch/hit", s[i], &r, true);
    }

    /* Contact begins and ends exactly at the touching steps. */
    int want_first = (int)lround(w->lo / w->step), want_last = (int)lround(w->hi / w->step);
    if (first != want_first || last != want_last)
        fprintf(stderr, "[%s] contact on steps %d..%d, expected %d..%d\n", w->name, first, last, want_first,
                want_last);
    assert_int_equal(first, want_first);
    assert_int_equal(last, want_last);
    assert_int_equal(g_failures, 0);

    tu_batch_free(&t);
    free(s);
    gjkb_destroy(ctx);
}

static tu_v3 rotate(const float q[4], tu_v3 v)
{
    double R[3][3];
    tu_quat_matrix(q, R);
    return tu_v(R[0][0] * v.x + R[0][1] * v.y + R[0][2] * v.z, R[1][0] * v.x + R[1][1] * v.y + R[1][2] * v.z,
                R[2][0] * v.x + R[2][1] * v.y + R[2][2] * v.z);
}

/* Boxes with parallel faces sliding along each axis: touching at
 * |s| = hA + hB on that axis. */
static void test_box_box_axes(void **state)
{
    (void)state;
    const double ha[3] = {0.75, 0.5, 0.625}, hb[3] = {0.5, 0.375, 0.25};
    const double off[3] = {0.25, -0.125, 0.375}; /* sideways offset, within the faces */
    for (int axis = 0; axis < 3; axis++) {
        sweep w;
        memset(&w, 0, sizeof w);
        w.name = axis == 0 ? "box-box x" : axis == 1 ? "box-box y" : "box-box z";
        w.a = tu_at(tu_box(ha[0], ha[1], ha[2]), 0.5, -1.0, 2.0);
        w.b = tu_box(hb[0], hb[1], hb[2]);
        double base[3];
        for (int k = 0; k < 3; k++) base[k] = w.a.pos[k] + (k == axis ? 0.0 : off[k]);
        w.b = tu_at(w.b, base[0], base[1], base[2]);
        w.dir = tu_v(axis == 0, axis == 1, axis == 2);
        w.hi = ha[axis] + hb[axis];
        w.lo = -w.hi;
        w.step = 1.0 / 128;
        w.steps = 384;
        run_sweep(&w);
    }
}

/* The same with margins: the rounded faces touch at hA + hB + mA + mB. */
static void test_rounded_box_box(void **state)
{
    (void)state;
    sweep w;
    memset(&w, 0, sizeof w);
    w.name = "rounded box-box x";
    w.a = tu_rounded(tu_box(0.75, 0.5, 0.625), 0.125);
    w.b = tu_rounded(tu_at(tu_box(0.5, 0.375, 0.25), 0, 0.25, -0.125), 0.0625);
    w.dir = tu_v(1, 0, 0);
    w.hi = 0.75 + 0.5 + 0.125 + 0.0625;
    w.lo = -w.hi;
    w.step = 1.0 / 128;
    w.steps = 384;
    run_sweep(&w);
}

/* Both boxes share a random rotation and B slides along their common local
 * axes: faces stay parallel, positions are no longer dyadic. */
static void test_box_box_rotated(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(11);
    for (int rep = 0; rep < 8; rep++) {
        float q[4];
        tu_random_quat(&r, q);
        int axis = rep % 3;
        const double ha[3] = {0.75, 0.5, 0.625}, hb[3] = {0.5, 0.375, 0.25};
        const double off[3] = {0.25, -0.125, 0.375};
        sweep w;
        memset(&w, 0, sizeof w);
        w.name = "rotated box-box";
        w.a = tu_rot(tu_at(tu_box(ha[0], ha[1], ha[2]), 3.0, -2.0, 1.0), q);
        tu_v3 o = rotate(q, tu_v(axis == 0 ? 0 : off[0], axis == 1 ? 0 : off[1], axis == 2 ? 0 : off[2]));
        w.b = tu_rot(tu_at(tu_box(hb[0], hb[1], hb[2]), 3.0 + o.x, -2.0 + o.y, 1.0 + o.z), q);
        w.dir = rotate(q, tu_v(axis == 0, axis == 1, axis == 2));
        w.hi = ha[axis] + hb[axis];
        w.lo = -w.hi;
        w.step = 1.0 / 64;
        w.steps = 160;
        run_sweep(&w);
    }
}

/* A sphere slides past a capsule's side (touching at rC + rS) and onto its
 * end cap (touching at half length + rC + rS). */
static void test_sphere_capsule(void **state)
{
    (void)state;
    sweep w;
    memset(&w, 0, sizeof w);
    w.name = "sphere-capsule side";
    w.a = tu_capsule(0.5, 0.75);
    w.b = tu_at(tu_sphere(0.25), 0, 0, 0.5);
    w.dir = tu_v(1, 0, 0);
    w.hi = 0.75;
    w.lo = -0.75;
    w.step = 1.0 / 128;
    w.steps = 256;
    run_sweep(&w);

    w.name = "sphere-capsule end";
    w.b = tu_sphere(0.25);
    w.dir = tu_v(0, 0, 1);
    w.hi = 1.5;
    w.lo = -1.5;
    w.steps = 384;
    run_sweep(&w);

    /* capsule first, sphere as A */
    w.name = "capsule-sphere end";
    gjkb_shape cap = w.a;
    w.a = tu_sphere(0.25);
    w.b = cap;
    run_sweep(&w);
}

/* Coaxial cylinders meet cap to cap; side by side they meet along a line. */
static void test_cylinder_cylinder(void **state)
{
    (void)state;
    sweep w;
    memset(&w, 0, sizeof w);
    w.name = "cylinder-cylinder caps";
    w.a = tu_cylinder(0.5, 0.75);
    w.b = tu_at(tu_cylinder(0.375, 0.5), 0.25, 0, 0);
    w.dir = tu_v(0, 0, 1);
    w.hi = 1.25;
    w.lo = -1.25;
    w.step = 1.0 / 128;
    w.steps = 384;
    run_sweep(&w);

    w.name = "cylinder-cylinder sides";
    w.b = tu_at(tu_cylinder(0.375, 0.5), 0, 0, 0.25);
    w.dir = tu_v(1, 0, 0);
    w.hi = 0.875;
    w.lo = -0.875;
    w.steps = 256;
    run_sweep(&w);
}

/* A cone with its apex up rises through a box: the apex touches the bottom
 * face first, the base disk leaves the top face last. Then the flipped cone
 * (apex down) comes from the other side. */
static void test_cone_box(void **state)
{
    (void)state;
    sweep w;
    memset(&w, 0, sizeof w);
    w.name = "cone apex into box";
    w.a = tu_box(1.0, 1.0, 0.5);
    w.b = tu_at(tu_cone(0.5, 0.75), 0.125, -0.25, 0);
    w.dir = tu_v(0, 0, 1);
    w.hi = 1.25;
    w.lo = -1.25;
    w.step = 1.0 / 128;
    w.steps = 384;
    run_sweep(&w);

    w.name = "flipped cone into box";
    static const float flip[4] = {0.0f, 1.0f, 0.0f, 0.0f}; /* half turn about x */
    w.b = tu_rot(w.b, flip);
    run_sweep(&w);

    w.name = "box onto cone apex";
    gjkb_shape box = w.a;
    w.a = tu_at(tu_cone(0.5, 0.75), 0.125, -0.25, 0);
    w.b = box;
    run_sweep(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_box_axes),     cmocka_unit_test(test_rounded_box_box),
        cmocka_unit_test(test_box_box_rotated),  cmocka_unit_test(test_sphere_capsule),
        cmocka_unit_test(test_cylinder_cylinder), cmocka_unit_test(test_cone_box),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
