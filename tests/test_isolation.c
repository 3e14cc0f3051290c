/* test_isolation.c - a pair's answer never depends on the pairs around it.
 *
 * Every wide backend must give each pair the bits that pair gets alone in
 * a batch on the width-1 kernel: whatever its neighbours, its position in
 * the batch, the width, the mode or the iteration bound. The random sets
 * here lean on the cases where a lane could see its neighbours: zero sizes
 * (a cone or cylinder without a disk beside one with a disk), coincident
 * and axis-aligned placements (exact zeros in search directions), kinds
 * mixed within a kind class, low iteration caps that stop lanes in every
 * loop and hand-over, and gjkb_step's frame path. The fuzzing reproducers
 * of issue 13 are named tests. GJKB_ISOLATION_PAIRS sets the size of the
 * random sets (default 600; the qemu run uses fewer). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "internal.h"
#include "pairkey.h"
#include "testutil.h"

#include <stdlib.h>

static uint32_t set_size(void)
{
    const char *env = getenv("GJKB_ISOLATION_PAIRS");
    unsigned long n = env ? strtoul(env, NULL, 10) : 600;
    return n ? (uint32_t)n : 600;
}

/* Iteration caps that stop lanes inside the proof/light loops (1-5), at
 * their hand-overs (16, 17, 32, 33) and the default (0). */
static const uint32_t k_caps[] = { 1, 2, 3, 4, 5, 8, 16, 17, 32, 33, 0 };
#define N_CAPS (sizeof k_caps / sizeof k_caps[0])

/* Hulls registered in every context, in this order: a cube, one point,
 * two points, a flat square, a random cloud. */
static void add_hulls(gjkb_context *ctx)
{
    static const float cube[] = { -0.5f, -0.5f, -0.5f, 0.5f, -0.5f, -0.5f, -0.5f, 0.5f, -0.5f, 0.5f, 0.5f, -0.5f,
                                  -0.5f, -0.5f, 0.5f,  0.5f, -0.5f, 0.5f,  -0.5f, 0.5f, 0.5f,  0.5f, 0.5f, 0.5f };
    static const float point[] = { 0.25f, 0.0f, 0.0f };
    static const float seg[] = { 0.0f, 0.0f, -0.5f, 0.0f, 0.0f, 0.5f };
    static const float flat[] = { -0.5f, -0.5f, 0.0f, 0.5f, -0.5f, 0.0f, 0.5f, 0.5f, 0.0f, -0.5f, 0.5f, 0.0f };
    float cloud[3 * 24];
    tu_rng r = tu_rng_make(99);
    tu_random_hull_points(&r, cloud, 24);
    uint32_t id;
    assert_int_equal(gjkb_hull_add(ctx, cube, 8, &id), GJKB_OK);
    assert_int_equal(gjkb_hull_add(ctx, point, 1, &id), GJKB_OK);
    assert_int_equal(gjkb_hull_add(ctx, seg, 2, &id), GJKB_OK);
    assert_int_equal(gjkb_hull_add(ctx, flat, 4, &id), GJKB_OK);
    assert_int_equal(gjkb_hull_add(ctx, cloud, 24, &id), GJKB_OK);
}
#define N_HULLS 5u

static gjkb_context *context_for(gjkb_backend b)
{
    gjkb_context *ctx = tu_context(b);
    assert_non_null(ctx);
    add_hulls(ctx);
    return ctx;
}

/* A size from a short menu that includes zero. */
static double pick_size(tu_rng *r)
{
    static const double menu[] = { 0.0, 0.0, 0.25, 0.5, 1.0 };
    uint32_t k = tu_below(r, 6);
    return k < 5 ? menu[k] : tu_range(r, 0.05, 1.5);
}

/* Identity, quarter turns about the axes, a random rotation, or a random
 * one scaled (non-unit quaternions are normalized by the library). */
static void pick_rotation(tu_rng *r, float q[4])
{
    uint32_t k = tu_below(r, 6);
    q[0] = 1.0f, q[1] = q[2] = q[3] = 0.0f;
    if (k >= 1 && k <= 3) {
        q[0] = q[k] = tu_f32(sqrt(0.5));
    } else if (k >= 4) {
        tu_random_quat(r, q);
        if (k == 5)
            for (int i = 0; i < 4; i++)
                q[i] = tu_f32(q[i] * 3.0);
    }
}

static gjkb_shape degenerate_shape(tu_rng *r)
{
    gjkb_kind kind = (gjkb_kind)tu_below(r, GJKB_KIND_COUNT);
    gjkb_shape s = tu_shape(kind, pick_size(r), pick_size(r), pick_size(r));
    if (kind == GJKB_HULL)
        s.hull = tu_below(r, N_HULLS);
    if (tu_below(r, 3) == 0)
        s.margin = tu_f32(pick_size(r) * 0.5);
    /* On a grid of quarter units: coincident and axis-aligned offsets. */
    for (int i = 0; i < 3; i++)
        s.pos[i] = 0.25 * (double)((int)tu_below(r, 13) - 6);
    pick_rotation(r, s.rot);
    return s;
}

static void degenerate_batch(tu_batch *t, uint32_t n, uint64_t seed)
{
    tu_rng r = tu_rng_make(seed);
    memset(t, 0, sizeof *t);
    for (uint32_t i = 0; i < n; i++) {
        gjkb_shape a = degenerate_shape(&r), b = degenerate_shape(&r);
        tu_batch_add(t, &a, &b);
    }
}

/* Pair i of a batch's results, by bits. */
static void assert_pair_same(const tu_batch *x, uint32_t i, const tu_batch *y, uint32_t j, const char *what)
{
    gjkb_result a = tu_batch_get(x, i), b = tu_batch_get(y, j);
    if (!tu_result_same(&a, &b)) {
        gjkb_shape sa = tu_batch_shape(x, x->ia[i]), sb = tu_batch_shape(x, x->ib[i]);
        tu_shape_print(stderr, "A", &sa);
        tu_shape_print(stderr, "B", &sb);
        tu_result_print(stderr, "got", &a);
        tu_result_print(stderr, "alone", &b);
        fail_msg("pair %u: %s", i, what);
    }
}

/* Pair k of out gets pair k of t: its shapes and t's answer. */
static void put_result(tu_batch *out, const tu_batch *t, uint32_t i, gjkb_result res)
{
    gjkb_shape a = tu_batch_shape(t, t->ia[i]), b = tu_batch_shape(t, t->ib[i]);
    uint32_t k = tu_batch_add(out, &a, &b);
    out->status[k] = (uint8_t)res.status;
    out->iterations[k] = res.iterations;
    out->distance[k] = res.distance;
    out->ax[k] = res.a[0], out->ay[k] = res.a[1], out->az[k] = res.a[2];
    out->bx[k] = res.b[0], out->by[k] = res.b[1], out->bz[k] = res.b[2];
    out->nx[k] = res.n[0], out->ny[k] = res.n[1], out->nz[k] = res.n[2];
}

/* The answer of every pair of t alone in a batch on ctx. */
static void run_alone(gjkb_context *ctx, const tu_batch *t, const gjkb_query *q, tu_batch *alone)
{
    memset(alone, 0, sizeof *alone);
    for (uint32_t i = 0; i < t->np; i++) {
        gjkb_shape a = tu_batch_shape(t, t->ia[i]), b = tu_batch_shape(t, t->ib[i]);
        tu_batch one;
        memset(&one, 0, sizeof one);
        tu_batch_add(&one, &a, &b);
        assert_int_equal(tu_batch_run(ctx, &one, q), GJKB_OK);
        put_result(alone, t, i, tu_batch_get(&one, 0));
        tu_batch_free(&one);
    }
}

/* The pairs of t in a shuffled order (pair k of the result is pair perm[k]). */
static void shuffled(const tu_batch *t, tu_rng *r, uint32_t *perm, tu_batch *out)
{
    for (uint32_t i = 0; i < t->np; i++)
        perm[i] = i;
    for (uint32_t i = t->np; i > 1; i--) {
        uint32_t j = tu_below(r, i), v = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = v;
    }
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < t->np; i++) {
        gjkb_shape a = tu_batch_shape(t, t->ia[perm[i]]), b = tu_batch_shape(t, t->ib[perm[i]]);
        tu_batch_add(out, &a, &b);
    }
}

/* A pair's bucket key on ctx (its hulls' sizes are ctx's). */
static unsigned pair_key(const gjkb_context *ctx, const gjkb_shape *a, const gjkb_shape *b)
{
    int32_t na = a->kind == GJKB_HULL ? ctx->hull_n[a->hull] : 0, nb = b->kind == GJKB_HULL ? ctx->hull_n[b->hull] : 0;
    return gjkb__info_key(gjkb__pair_info(gjkb__body_class(a->kind, na), gjkb__body_class(b->kind, nb)));
}

/* The pairs of t sorted by bucket key, stably (pair k of the result is
 * pair perm[k]): the order the pipeline then keeps as it is. */
static void sorted_by_key(const gjkb_context *ctx, const tu_batch *t, uint32_t *perm, tu_batch *out)
{
    uint32_t k = 0;
    for (unsigned key = 0; key < GJKB_KEYS; key++)
        for (uint32_t i = 0; i < t->np; i++) {
            gjkb_shape a = tu_batch_shape(t, t->ia[i]), b = tu_batch_shape(t, t->ib[i]);
            if (pair_key(ctx, &a, &b) == key)
                perm[k++] = i;
        }
    assert_int_equal(k, t->np);
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < t->np; i++) {
        gjkb_shape a = tu_batch_shape(t, t->ia[perm[i]]), b = tu_batch_shape(t, t->ib[perm[i]]);
        tu_batch_add(out, &a, &b);
    }
}

/* The batch in the order perm gave (pair i of s is pair perm[i]) on ctx,
 * pair by pair equal to the pair alone. */
static void check_order(gjkb_context *ctx, tu_batch *s, const uint32_t *perm, const gjkb_query *q,
                        const tu_batch *alone, const char *what)
{
    assert_int_equal(tu_batch_run(ctx, s, q), GJKB_OK);
    for (uint32_t i = 0; i < s->np; i++)
        assert_pair_same(s, i, alone, perm[i], what);
}

/* Every backend, mode and cap: the batch, a shuffle of it and (on 1 and 2
 * threads) the batch sorted by key, pair by pair equal to the pair alone
 * on the width-1 kernel. */
static void check_isolation(tu_batch *t, uint64_t seed)
{
    gjkb_context *one = context_for(GJKB_BACKEND_SCALAR);
    uint32_t *perm = malloc(t->np * sizeof *perm);
    for (int mode = GJKB_HIT; mode <= GJKB_DISTANCE; mode++) {
        for (size_t c = 0; c < N_CAPS; c++) {
            gjkb_query q = { .mode = (gjkb_mode)mode, .max_iterations = k_caps[c] };
            tu_batch alone;
            run_alone(one, t, &q, &alone);
            for (int b = GJKB_BACKEND_SCALAR; b < GJKB_BACKEND_COUNT; b++) {
                if (!gjkb_backend_available((gjkb_backend)b))
                    continue;
                gjkb_context *ctx = context_for((gjkb_backend)b);
                char what[96];
                snprintf(what, sizeof what, "%s, %s, cap %u: differs from the pair alone",
                         gjkb_backend_name((gjkb_backend)b), mode ? "distance" : "hit", k_caps[c]);
                assert_int_equal(tu_batch_run(ctx, t, &q), GJKB_OK);
                for (uint32_t i = 0; i < t->np; i++)
                    assert_pair_same(t, i, &alone, i, what);
                tu_rng r = tu_rng_make(seed + 1000 * c + (uint64_t)b);
                tu_batch s;
                shuffled(t, &r, perm, &s);
                check_order(ctx, &s, perm, &q, &alone, what);
                tu_batch_free(&s);
                sorted_by_key(ctx, t, perm, &s);
                /* 2 threads where the build has OpenMP */
                int runs = 0;
                for (int threads = 1; threads <= 2 && gjkb_set_threads(ctx, threads) == GJKB_OK; threads++, runs++)
                    check_order(ctx, &s, perm, &q, &alone, what);
                assert_true(runs >= 1);
                tu_batch_free(&s);
                gjkb_destroy(ctx);
            }
            tu_batch_free(&alone);
        }
    }
    free(perm);
    gjkb_destroy(one);
}

static void test_degenerate_neighbours(void **state)
{
    (void)state;
    tu_batch t;
    degenerate_batch(&t, set_size(), 13);
    check_isolation(&t, 13);
    tu_batch_free(&t);
}

/* Only cones and cylinders, so their bundles are full of each other. */
static void test_round_neighbours(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(17);
    tu_batch t;
    memset(&t, 0, sizeof t);
    for (uint32_t i = 0, n = set_size(); i < n; i++) {
        gjkb_shape a = degenerate_shape(&r), b = degenerate_shape(&r);
        a.kind = tu_below(&r, 2) ? GJKB_CONE : GJKB_CYLINDER;
        b.kind = tu_below(&r, 3) ? GJKB_CONE : GJKB_CYLINDER;
        tu_batch_add(&t, &a, &b);
    }
    check_isolation(&t, 17);
    tu_batch_free(&t);
}

static gjkb_shape cone_at(double r, double h, double x, double y, double z)
{
    return tu_at(tu_cone(r, h), x, y, z);
}

/* Issue 13, distance mode: pair 0 changed in the last digits beside pair 1
 * on every wide backend (its cone has no disk; pair 1's cones have one). */
static void test_issue13_cone_distance(void **state)
{
    (void)state;
    tu_batch t;
    memset(&t, 0, sizeof t);
    gjkb_shape a = cone_at(0.0, 2.1357460021972656, 2.25, 2.25, 0.28321075439453125);
    const float q[4] = { -0.19433212280273438f, -1.7817144393920898f, 1.96875f, -2.0f };
    a = tu_rounded(tu_rot(a, q), 1.0708026885986328);
    gjkb_shape b = cone_at(1.34375, 1.34375, 0.29517364501953125, -1.3125, -1.3125);
    tu_batch_add(&t, &a, &b);
    a = cone_at(3.125, 3.125, -3.5, 2.25, -0.5);
    b = cone_at(3.125, 3.125, 2.25, 2.25, 2.25);
    tu_batch_add(&t, &a, &b);
    check_isolation(&t, 21);
    tu_batch_free(&t);
}

/* Issue 13, hit mode: two cones at one position, one without a disk; the
 * width-1 kernel took 3 steps, the wide ones 2 (and with a cap of 2 they
 * disagreed on limit against overlap). */
static void test_issue13_cone_hit(void **state)
{
    (void)state;
    tu_batch t;
    memset(&t, 0, sizeof t);
    gjkb_shape a = cone_at(0.5, 0.5, -3, -3, -3), b = cone_at(0.0, 0.5, -3, -3, -3);
    tu_batch_add(&t, &a, &b);
    tu_batch_add(&t, &b, &a);
    check_isolation(&t, 22);
    gjkb_context *ctx = context_for(GJKB_BACKEND_SCALAR);
    gjkb_query q = { .mode = GJKB_HIT, .max_iterations = 2 };
    assert_int_equal(tu_batch_run(ctx, &t, &q), GJKB_OK);
    assert_int_equal(t.status[0], GJKB_OVERLAP);
    assert_int_equal(t.status[1], GJKB_OVERLAP);
    gjkb_destroy(ctx);
    tu_batch_free(&t);
}

/* gjkb_step: the frame's answers are the same bits on every wide backend,
 * in both modes and at low caps, for a crowd of degenerate bodies. */
static void test_step_every_width(void **state)
{
    (void)state;
    tu_batch t;
    degenerate_batch(&t, 400, 31);
    gjkb_bodies bodies = tu_batch_bodies(&t);
    for (int mode = GJKB_HIT; mode <= GJKB_DISTANCE; mode++) {
        for (size_t c = 0; c < N_CAPS; c++) {
            gjkb_query q = { .mode = (gjkb_mode)mode, .max_iterations = k_caps[c] };
            gjkb_context *one = context_for(GJKB_BACKEND_SCALAR);
            gjkb_frame f1;
            assert_int_equal(gjkb_step(one, &bodies, NULL, &q, &f1), GJKB_OK);
            assert_true(f1.pairs.count > 1000);
            for (int b = GJKB_BACKEND_SCALAR + 1; b < GJKB_BACKEND_COUNT; b++) {
                if (!gjkb_backend_available((gjkb_backend)b))
                    continue;
                gjkb_context *ctx = context_for((gjkb_backend)b);
                gjkb_frame f;
                assert_int_equal(gjkb_step(ctx, &bodies, NULL, &q, &f), GJKB_OK);
                uint32_t n = f.pairs.count;
                assert_int_equal(n, f1.pairs.count);
                assert_memory_equal(f.pairs.a, f1.pairs.a, n * sizeof(uint32_t));
                assert_memory_equal(f.pairs.b, f1.pairs.b, n * sizeof(uint32_t));
                assert_memory_equal(f.results.status, f1.results.status, n);
                assert_memory_equal(f.results.iterations, f1.results.iterations, n * sizeof(uint32_t));
                assert_memory_equal(f.results.distance, f1.results.distance, n * sizeof(double));
                if (mode == GJKB_DISTANCE) {
                    const double *x[] = { f.results.ax, f.results.by, f.results.nz, f.results.nx };
                    const double *y[] = { f1.results.ax, f1.results.by, f1.results.nz, f1.results.nx };
                    for (int k = 0; k < 4; k++)
                        assert_memory_equal(x[k], y[k], n * sizeof(double));
                }
                gjkb_destroy(ctx);
            }
            gjkb_destroy(one);
        }
    }
    tu_batch_free(&t);
}

/* A batch whose keys come sorted keeps its order, and the placing is done
 * in the key pass; a batch of two sorted halves is not sorted, whatever
 * the split (its pairs placed while their keys came sorted have them made
 * again). Either way 1 and 2 threads give the pairs alone's bits and the
 * same bundles (step counts): the plan must not depend on the split. */
static void test_sorted_batch_threads(void **state)
{
    (void)state;
    enum { HALF = 12000 };   /* two key parts at 2 threads, split between the halves */
    tu_batch h[2], whole, orders[2];
    uint32_t *perm = malloc(2 * HALF * sizeof *perm);
    gjkb_context *keyer = context_for(GJKB_BACKEND_SCALAR);
    for (int k = 0; k < 2; k++)
        degenerate_batch(&h[k], HALF, 41 + (uint64_t)k);
    memset(&whole, 0, sizeof whole);
    memset(&orders[0], 0, sizeof orders[0]);
    for (int k = 0; k < 2; k++) {
        tu_batch s;
        sorted_by_key(keyer, &h[k], perm, &s);
        for (uint32_t i = 0; i < HALF; i++) {
            gjkb_shape a = tu_batch_shape(&s, s.ia[i]), b = tu_batch_shape(&s, s.ib[i]);
            tu_batch_add(&orders[0], &a, &b);
            tu_batch_add(&whole, &a, &b);
        }
        tu_batch_free(&s);
    }
    sorted_by_key(keyer, &whole, perm, &orders[1]);
    gjkb_query q = { .mode = GJKB_DISTANCE };
    tu_batch alone[2];
    for (int o = 0; o < 2; o++)
        run_alone(keyer, &orders[o], &q, &alone[o]);
    gjkb_destroy(keyer);
    for (int b = GJKB_BACKEND_SCALAR; b < GJKB_BACKEND_COUNT; b++) {
        if (!gjkb_backend_available((gjkb_backend)b))
            continue;
        gjkb_context *ctx = context_for((gjkb_backend)b);
        for (int o = 0; o < 2; o++) {
            tu_batch one;
            gjkb_stats st[2];
            /* 2 threads where the build has OpenMP */
            int runs = 0;
            for (int threads = 1; threads <= 2 && gjkb_set_threads(ctx, threads) == GJKB_OK; threads++, runs++) {
                gjkb_stats_reset(ctx);
                assert_int_equal(tu_batch_run(ctx, &orders[o], &q), GJKB_OK);
                assert_int_equal(gjkb_stats_get(ctx, &st[threads - 1]), GJKB_OK);
                for (uint32_t i = 0; i < orders[o].np; i++)
                    assert_pair_same(&orders[o], i, &alone[o], i, "differs from the pair alone");
                if (threads == 1) {
                    memset(&one, 0, sizeof one);
                    for (uint32_t i = 0; i < orders[o].np; i++)
                        put_result(&one, &orders[o], i, tu_batch_get(&orders[o], i));
                    continue;
                }
                for (uint32_t i = 0; i < orders[o].np; i++)
                    assert_pair_same(&orders[o], i, &one, i, "2 threads differ from 1");
            }
            assert_true(runs >= 1);
            if (runs == 2)
                assert_true(st[0].bundle_steps == st[1].bundle_steps && st[0].lane_steps == st[1].lane_steps);
            tu_batch_free(&one);
        }
        gjkb_destroy(ctx);
    }
    for (int k = 0; k < 2; k++) {
        tu_batch_free(&h[k]);
        tu_batch_free(&alone[k]);
    }
    tu_batch_free(&whole);
    tu_batch_free(&orders[0]);
    tu_batch_free(&orders[1]);
    free(perm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue13_cone_distance),
        cmocka_unit_test(test_issue13_cone_hit),
        cmocka_unit_test(test_degenerate_neighbours),
        cmocka_unit_test(test_round_neighbours),
        cmocka_unit_test(test_step_every_width),
        cmocka_unit_test(test_sorted_batch_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
