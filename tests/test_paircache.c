/* test_paircache.c - gjkb_step's pair cache: off by default; the axis a
 * pair starts from is the one it ended on last frame (new pairs cold);
 * a frame equals gjkb_query_batch fed the frame's warm axes, bit for bit;
 * the same frames give the same bits for every wide backend and thread
 * count; warm answers agree with cold ones; reset, a new body count, hit
 * mode and turning it off or on all start cold again. A few hundred
 * moving bodies over a few frames: seconds at most, no timing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gjkbatch.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BODIES 400
#define HULLS 3
#define FRAMES 4
/* Touching band and distance tolerance, relative to the pair's scale. */
#define BAND 1e-4
#define TOL 1e-4

/* A moving scene: bodies drifting and spinning at constant rates. */
typedef struct scene {
    tu_batch t;
    double radius[BODIES];
    double vel[BODIES][3], axis[BODIES][3], spin[BODIES];
    float hull_xyz[HULLS][3 * 24];
    double hull_radius[HULLS];
} scene;

static void scene_make(scene *s, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    tu_rng r = tu_rng_make(seed);
    for (int h = 0; h < HULLS; h++) {
        tu_random_hull_points(&r, s->hull_xyz[h], 24);
        for (int j = 0; j < 24; j++) {
            const float *p = &s->hull_xyz[h][3 * j];
            s->hull_radius[h] = fmax(s->hull_radius[h], sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
        }
    }
    for (int i = 0; i < BODIES; i++) {
        gjkb_shape b = tu_random_shape(&r, (gjkb_kind)tu_below(&r, GJKB_KIND_COUNT), 0.3, HULLS);
        for (int k = 0; k < 3; k++) {
            b.pos[k] = tu_range(&r, -5.5, 5.5);
            s->vel[i][k] = tu_range(&r, -0.03, 0.03);
            s->axis[i][k] = tu_range(&r, -1, 1);
        }
        double len = sqrt(s->axis[i][0] * s->axis[i][0] + s->axis[i][1] * s->axis[i][1] + s->axis[i][2] * s->axis[i][2]);
        for (int k = 0; k < 3; k++)
            s->axis[i][k] /= len;
        s->spin[i] = tu_range(&r, 0, 0.05);
        double size = sqrt((double)b.size[0] * b.size[0] + (double)b.size[1] * b.size[1] + (double)b.size[2] * b.size[2]);
        s->radius[i] = (b.kind == GJKB_HULL ? s->hull_radius[b.hull] : size) + b.margin;
        tu_batch_body(&s->t, &b);
    }
}

/* Frame f's poses (frame 1: as made). */
static void scene_pose(scene *s, int f)
{
    for (int i = 0; i < BODIES; i++) {
        double *p[3] = { &s->t.px[i], &s->t.py[i], &s->t.pz[i] };
        for (int k = 0; k < 3; k++)
            *p[k] += s->vel[i][k] * (f > 1);
        float q[4];
        tu_quat_axis_angle(q, s->axis[i][0], s->axis[i][1], s->axis[i][2], s->spin[i] * f);
        s->t.qw[i] = q[0], s->t.qx[i] = q[1], s->t.qy[i] = q[2], s->t.qz[i] = q[3];
    }
}

static gjkb_context *scene_context(const scene *s, gjkb_backend backend, int threads, int cache)
{
    gjkb_config cfg = { .backend = backend };
    gjkb_context *ctx = NULL;
    if (gjkb_create(&cfg, &ctx) != GJKB_OK)
        return NULL;
    for (int h = 0; h < HULLS; h++) {
        uint32_t id;
        assert_int_equal(gjkb_hull_add(ctx, s->hull_xyz[h], 24, &id), GJKB_OK);
    }
    if (gjkb_set_threads(ctx, threads) != GJKB_OK) {
        gjkb_destroy(ctx);
        return NULL;
    }
    assert_int_equal(gjkb_set_pair_cache(ctx, cache), GJKB_OK);
    assert_int_equal(gjkb_get_pair_cache(ctx), cache);
    return ctx;
}

/* ---- a frame kept: its pairs (sorted keys for lookups) and answers ------- */

typedef struct kept {
    uint32_t n;
    uint32_t *a, *b;
    uint8_t *status, *count;
    uint32_t *iterations, *feature;
    double *distance, *nx, *ny, *nz, *sep;
    uint64_t *key;     /* (a << 32 | b) << 0, sorted, with the pair number in `at` */
    uint32_t *at;
} kept;

static void kept_free(kept *k)
{
    void *p[] = { k->a, k->b, k->status, k->count, k->iterations, k->feature, k->distance, k->nx, k->ny, k->nz,
                  k->sep, k->key, k->at };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
    memset(k, 0, sizeof *k);
}

static void *copy(const void *src, size_t bytes)
{
    if (!src)
        return NULL;
    void *p = tu_realloc(NULL, bytes ? bytes : 1);
    memcpy(p, src, bytes);
    return p;
}

static const kept *sort_ctx;
static int by_key(const void *x, const void *y)
{
    uint64_t a = sort_ctx->key[*(const uint32_t *)x], b = sort_ctx->key[*(const uint32_t *)y];
    return a < b ? -1 : a > b;
}

static kept kept_make(const gjkb_frame *f)
{
    kept k;
    memset(&k, 0, sizeof k);
    const uint32_t n = f->pairs.count;
    const gjkb_results *r = &f->results;
    k.n = n;
    k.a = copy(f->pairs.a, n * 4ul), k.b = copy(f->pairs.b, n * 4ul);
    k.status = copy(r->status, n), k.iterations = copy(r->iterations, n * 4ul);
    k.distance = copy(r->distance, n * 8ul);
    k.nx = copy(r->nx, n * 8ul), k.ny = copy(r->ny, n * 8ul), k.nz = copy(r->nz, n * 8ul);
    k.count = copy(r->manifold.count, n);
    k.sep = copy(r->manifold.separation, n * 8ul * GJKB_MAX_CONTACTS);
    k.feature = copy(r->manifold.feature, n * 4ul * GJKB_MAX_CONTACTS);
    k.key = tu_realloc(NULL, (n + 1) * 8ul);
    k.at = tu_realloc(NULL, (n + 1) * 4ul);
    for (uint32_t i = 0; i < n; i++) {
        k.key[i] = (uint64_t)k.a[i] << 32 | k.b[i];
        k.at[i] = i;
    }
    sort_ctx = &k;
    qsort(k.at, n, sizeof *k.at, by_key);
    return k;
}

/* Pair (a, b)'s number in k, or -1. */
static int64_t kept_find(const kept *k, uint32_t a, uint32_t b)
{
    uint64_t want = (uint64_t)a << 32 | b;
    size_t lo = 0, hi = k->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uint64_t got = k->key[k->at[mid]];
        if (got == want)
            return k->at[mid];
        if (got < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static bool same_bytes(const void *x, const void *y, size_t n)
{
    return (!x && !y) || (x && y && memcmp(x, y, n) == 0);
}

/* Bit-identical frames (pairs and every answer the mode has). */
static bool kept_same(const kept *x, const kept *y)
{
    size_t n = x->n, s = n * GJKB_MAX_CONTACTS;
    return x->n == y->n && same_bytes(x->a, y->a, 4 * n) && same_bytes(x->b, y->b, 4 * n) &&
           same_bytes(x->status, y->status, n) && same_bytes(x->iterations, y->iterations, 4 * n) &&
           same_bytes(x->distance, y->distance, 8 * n) && same_bytes(x->nx, y->nx, 8 * n) &&
           same_bytes(x->nz, y->nz, 8 * n) && same_bytes(x->count, y->count, n) &&
           same_bytes(x->sep, y->sep, 8 * s) && same_bytes(x->feature, y->feature, 4 * s);
}

/* ---- the tests ------------------------------------------------------------- */

/* Off by default: nothing warm, no axes or keys handed out. */
static void test_off_by_default(void **state)
{
    (void)state;
    scene *s = tu_realloc(NULL, sizeof *s);
    scene_make(s, 3);
    gjkb_context *ctx = NULL;
    assert_int_equal(gjkb_create(NULL, &ctx), GJKB_OK);
    for (int h = 0; h < HULLS; h++) {
        uint32_t id;
        assert_int_equal(gjkb_hull_add(ctx, s->hull_xyz[h], 24, &id), GJKB_OK);
    }
    assert_int_equal(gjkb_get_pair_cache(ctx), 0);
    assert_int_equal(gjkb_get_pair_cache(NULL), 0);
    assert_int_equal(gjkb_set_pair_cache(NULL, 1), GJKB_ERR_NULL);
    gjkb_pair_cache_reset(NULL);   /* harmless */
    gjkb_bodies bodies = tu_batch_bodies(&s->t);
    gjkb_query q = { .mode = GJKB_CONTACT };
    for (int f = 1; f <= 2; f++) {
        scene_pose(s, f);
        gjkb_frame fr;
        assert_int_equal(gjkb_step(ctx, &bodies, NULL, &q, &fr), GJKB_OK);
        assert_true(fr.pairs.count > 100);
        assert_int_equal(fr.warm, 0);
        assert_null(fr.warm_x);
        assert_null(fr.last_feature);
        assert_true(fr.cache_seconds == 0.0);
    }
    gjkb_destroy(ctx);
    tu_batch_free(&s->t);
    free(s);
}

/* Each pair starts from the axis it ended on last frame (rounded to
 * float), new pairs cold (NaN), with last frame's keys; the frame is the
 * batch call fed those axes, bit for bit. */
static void check_warm_frame(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_query *q, const gjkb_frame *fr,
                             const kept *prev)
{
    uint32_t warm = 0, found = 0;
    for (uint32_t i = 0; i < fr->pairs.count; i++) {
        int64_t j = kept_find(prev, fr->pairs.a[i], fr->pairs.b[i]);
        double w[3] = { fr->warm_x[i], fr->warm_y[i], fr->warm_z[i] };
        if (j < 0) {
            assert_true(isnan(w[0]) && isnan(w[1]) && isnan(w[2]));
            if (fr->last_feature)
                for (int k = 0; k < GJKB_MAX_CONTACTS; k++)
                    assert_int_equal(fr->last_feature[4 * i + k], 0);
            continue;
        }
        found++;
        const double n[3] = { prev->nx[j], prev->ny[j], prev->nz[j] };
        for (int k = 0; k < 3; k++)
            assert_true(tu_same_double(w[k], (double)(float)n[k]));
        warm += isfinite(w[0]) && (w[0] != 0 || w[1] != 0 || w[2] != 0);
        if (fr->last_feature)
            for (int k = 0; k < GJKB_MAX_CONTACTS; k++)
                assert_int_equal(fr->last_feature[4 * i + k], prev->feature[4 * j + k]);
    }
    assert_int_equal(fr->warm, warm);
    assert_true(found > fr->pairs.count * 3 / 4);   /* a slow world keeps most pairs */
    assert_true(warm > found / 3);

    /* The same question through the batch call on a cold context. */
    kept got = kept_make(fr);
    uint32_t n = fr->pairs.count;
    uint8_t *st = tu_realloc(NULL, n);
    double *d = tu_realloc(NULL, 8ul * n), *nx = tu_realloc(NULL, 8ul * n), *ny = tu_realloc(NULL, 8ul * n),
           *nz = tu_realloc(NULL, 8ul * n), *sep = tu_realloc(NULL, 32ul * n);
    uint32_t *it = tu_realloc(NULL, 4ul * n), *feat = tu_realloc(NULL, 16ul * n);
    uint8_t *cnt = tu_realloc(NULL, n);
    gjkb_results r = { .status = st, .distance = d, .nx = nx, .ny = ny, .nz = nz, .iterations = it };
    if (q->mode == GJKB_CONTACT)
        r.manifold = (gjkb_manifolds){ .count = cnt, .separation = sep, .feature = feat };
    gjkb_query wq = *q;
    wq.warm_x = fr->warm_x, wq.warm_y = fr->warm_y, wq.warm_z = fr->warm_z;
    assert_int_equal(gjkb_query_batch(ctx, bodies, &fr->pairs, &wq, &r), GJKB_OK);
    assert_memory_equal(st, got.status, n);
    assert_memory_equal(it, got.iterations, 4ul * n);
    assert_memory_equal(d, got.distance, 8ul * n);
    assert_memory_equal(nx, got.nx, 8ul * n);
    assert_memory_equal(nz, got.nz, 8ul * n);
    if (q->mode == GJKB_CONTACT) {
        assert_memory_equal(cnt, got.count, n);
        assert_memory_equal(feat, got.feature, 16ul * n);
    }
    void *p[] = { st, d, nx, ny, nz, sep, it, feat, cnt };
    for (size_t k = 0; k < sizeof p / sizeof p[0]; k++)
        free(p[k]);
    kept_free(&got);
}

static void test_warm_axes(void **state)
{
    (void)state;
    scene *s = tu_realloc(NULL, sizeof *s);
    for (int mode = GJKB_DISTANCE; mode <= GJKB_CONTACT; mode++) {
        scene_make(s, 5);
        gjkb_context *ctx = scene_context(s, GJKB_BACKEND_AUTO, 1, 1);
        gjkb_context *check = scene_context(s, GJKB_BACKEND_AUTO, 1, 0);
        gjkb_bodies bodies = tu_batch_bodies(&s->t);
        gjkb_query q = { .mode = (gjkb_mode)mode };
        kept prev;
        memset(&prev, 0, sizeof prev);
        for (int f = 1; f <= FRAMES; f++) {
            scene_pose(s, f);
            gjkb_frame fr;
            assert_int_equal(gjkb_step(ctx, &bodies, NULL, &q, &fr), GJKB_OK);
            assert_non_null(fr.warm_x);
            assert_true((fr.last_feature != NULL) == (mode == GJKB_CONTACT));
            if (f == 1)
                assert_int_equal(fr.warm, 0);
            else
                check_warm_frame(check, &bodies, &q, &fr, &prev);
            kept_free(&prev);
            prev = kept_make(&fr);
        }
        kept_free(&prev);
        gjkb_destroy(ctx);
        gjkb_destroy(check);
        tu_batch_free(&s->t);
    }
    free(s);
}

/* FRAMES frames on a context; the kept last one. */
static kept run_frames(scene *s, uint64_t seed, gjkb_backend backend, int threads, int cache, gjkb_mode mode)
{
    scene_make(s, seed);
    kept last;
    memset(&last, 0, sizeof last);
    gjkb_context *ctx = scene_context(s, backend, threads, cache);
    if (!ctx)
        return last;
    gjkb_bodies bodies = tu_batch_bodies(&s->t);
    gjkb_query q = { .mode = mode };
    for (int f = 1; f <= FRAMES; f++) {
        scene_pose(s, f);
        gjkb_frame fr;
        assert_int_equal(gjkb_step(ctx, &bodies, NULL, &q, &fr), GJKB_OK);
        if (f == FRAMES)
            last = kept_make(&fr);
    }
    gjkb_destroy(ctx);
    tu_batch_free(&s->t);
    return last;
}

/* The same frames, the same bits: every wide backend, one and two threads. */
static void test_deterministic(void **state)
{
    (void)state;
    scene *s = tu_realloc(NULL, sizeof *s);
    for (int mode = GJKB_DISTANCE; mode <= GJKB_CONTACT; mode++) {
        kept one = run_frames(s, 7, GJKB_BACKEND_SCALAR, 1, 1, (gjkb_mode)mode);
        assert_true(one.n > 100);
        for (int be = GJKB_BACKEND_SCALAR; be < GJKB_BACKEND_COUNT; be++) {
            if (!gjkb_backend_available((gjkb_backend)be))
                continue;
            for (int threads = 1; threads <= 2; threads++) {
                kept k = run_frames(s, 7, (gjkb_backend)be, threads, 1, (gjkb_mode)mode);
                if (k.n == 0 && threads > 1)
                    continue;   /* built without OpenMP */
                if (!kept_same(&one, &k))
                    fail_msg("%s, %d threads, mode %d: other bits than scalar on one thread",
                             gjkb_backend_name((gjkb_backend)be), threads, mode);
                kept_free(&k);
            }
        }
        kept_free(&one);
    }
    free(s);
}

/* Warm answers agree with cold ones: verdicts outside the band,
 * distances and depths within the tolerance. */
static void test_warm_agrees_with_cold(void **state)
{
    (void)state;
    scene *s = tu_realloc(NULL, sizeof *s);
    for (int mode = GJKB_DISTANCE; mode <= GJKB_CONTACT; mode++) {
        kept warm = run_frames(s, 9, GJKB_BACKEND_AUTO, 1, 1, (gjkb_mode)mode);
        kept cold = run_frames(s, 9, GJKB_BACKEND_AUTO, 1, 0, (gjkb_mode)mode);
        scene_make(s, 9);   /* the radii */
        assert_int_equal(warm.n, cold.n);
        assert_memory_equal(warm.a, cold.a, 4ul * warm.n);
        assert_memory_equal(warm.b, cold.b, 4ul * warm.n);
        uint32_t compared = 0;
        for (uint32_t i = 0; i < warm.n; i++) {
            double scale = s->radius[warm.a[i]] + s->radius[warm.b[i]];
            int sw = warm.status[i], sc = cold.status[i];
            if (sw >= GJKB_LIMIT || sc >= GJKB_LIMIT)
                continue;
            compared++;
            if (sw != sc) {
                double gap = sw == GJKB_SEPARATED ? warm.distance[i] : cold.distance[i];
                assert_true(fabs(gap) <= BAND * scale);
                continue;
            }
            if (mode == GJKB_CONTACT || sw == GJKB_SEPARATED)
                assert_true(fabs(warm.distance[i] - cold.distance[i]) <= TOL * scale);
        }
        assert_true(compared > warm.n * 9 / 10);
        kept_free(&warm);
        kept_free(&cold);
        tu_batch_free(&s->t);
    }
    free(s);
}

/* One step's warm count. */
static uint32_t warm_of(gjkb_context *ctx, const gjkb_bodies *bodies, gjkb_mode mode)
{
    gjkb_query q = { .mode = mode };
    gjkb_frame fr;
    assert_int_equal(gjkb_step(ctx, bodies, NULL, &q, &fr), GJKB_OK);
    return fr.warm;
}

/* Everything that starts the next frame cold. */
static void test_cold_again(void **state)
{
    (void)state;
    scene *s = tu_realloc(NULL, sizeof *s);
    scene_make(s, 11);
    gjkb_context *ctx = scene_context(s, GJKB_BACKEND_AUTO, 1, 1);
    gjkb_bodies bodies = tu_batch_bodies(&s->t);
    assert_int_equal(warm_of(ctx, &bodies, GJKB_DISTANCE), 0);
    assert_true(warm_of(ctx, &bodies, GJKB_DISTANCE) > 0);
    gjkb_pair_cache_reset(ctx);
    assert_int_equal(warm_of(ctx, &bodies, GJKB_DISTANCE), 0);
    assert_true(warm_of(ctx, &bodies, GJKB_CONTACT) > 0);   /* distance axes serve contact mode */
    /* hit mode keeps no axis and empties the cache */
    assert_int_equal(warm_of(ctx, &bodies, GJKB_HIT), 0);
    assert_int_equal(warm_of(ctx, &bodies, GJKB_DISTANCE), 0);
    /* another body count is another world */
    gjkb_bodies fewer = bodies;
    fewer.count = BODIES - 1;
    assert_int_equal(warm_of(ctx, &fewer, GJKB_DISTANCE), 0);
    assert_true(warm_of(ctx, &fewer, GJKB_DISTANCE) > 0);
    /* off, and on again: cold */
    assert_int_equal(gjkb_set_pair_cache(ctx, 0), GJKB_OK);
    assert_int_equal(warm_of(ctx, &fewer, GJKB_DISTANCE), 0);
    assert_int_equal(warm_of(ctx, &fewer, GJKB_DISTANCE), 0);
    assert_int_equal(gjkb_set_pair_cache(ctx, 1), GJKB_OK);
    assert_int_equal(warm_of(ctx, &fewer, GJKB_DISTANCE), 0);
    assert_true(warm_of(ctx, &fewer, GJKB_DISTANCE) > 0);
    /* warm arrays in the query are still refused */
    double w[1] = { 1.0 };
    gjkb_query bad = { .mode = GJKB_DISTANCE, .warm_x = w, .warm_y = w, .warm_z = w };
    gjkb_frame fr;
    assert_int_equal(gjkb_step(ctx, &bodies, NULL, &bad, &fr), GJKB_ERR_ARGUMENT);
    gjkb_destroy(ctx);
    tu_batch_free(&s->t);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_off_by_default),
        cmocka_unit_test(test_warm_axes),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_warm_agrees_with_cold),
        cmocka_unit_test(test_cold_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
