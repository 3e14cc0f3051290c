/* test_broadphase.c - the broadphase and the per-frame pipeline: world
 * boxes against the exact extent of every kind, validity and outward
 * rounding; sweep-and-prune against brute force on random and degenerate
 * scenes, on every backend this build has and at several thread counts
 * (identical pair lists); flags and the filter; gjkb_step against the
 * reference backend on the brute-force pair set, and its narrowphase (fed
 * the sweep's bucket keys) against gjkb_query_batch on its own pairs; bad
 * arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "dispatch.h"
#include "internal.h"
#include "pairkey.h"
#include "broadphase.h"
#include "shape.h"
#include "testutil.h"

/* ---- boxes and pair lists -------------------------------------------------- */

typedef struct boxset {
    uint32_t n;
    float *v[6];   /* min x, y, z, max x, y, z */
} boxset;

static boxset boxset_make(uint32_t n)
{
    boxset b;
    b.n = n;
    for (int k = 0; k < 6; k++)
        b.v[k] = tu_realloc(NULL, (n ? n : 1) * sizeof(float));
    return b;
}

static void boxset_free(boxset *b)
{
    for (int k = 0; k < 6; k++)
        free(b->v[k]);
}

static gjkb_aabbs boxset_view(const boxset *b)
{
    gjkb_aabbs a = { b->n, b->v[0], b->v[1], b->v[2], b->v[3], b->v[4], b->v[5] };
    return a;
}

static void boxset_set(boxset *b, uint32_t i, double x0, double y0, double z0, double x1, double y1, double z1)
{
    b->v[0][i] = tu_f32(x0), b->v[1][i] = tu_f32(y0), b->v[2][i] = tu_f32(z0);
    b->v[3][i] = tu_f32(x1), b->v[4][i] = tu_f32(y1), b->v[5][i] = tu_f32(z1);
}

/* Pairs as (a << 32 | b), for sorting and comparing as sets. */
typedef struct pairlist {
    uint32_t n, cap;
    uint64_t *p;
} pairlist;

static void pairlist_push(pairlist *l, uint32_t a, uint32_t b)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->p = tu_realloc(l->p, l->cap * sizeof *l->p);
    }
    l->p[l->n++] = (uint64_t)a << 32 | b;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* The library's pairs as a sorted list; every pair must have a < b. */
static pairlist pairlist_of(const gjkb_pairs *p)
{
    pairlist l = { 0, 0, NULL };
    for (uint32_t i = 0; i < p->count; i++) {
        if (!(p->a[i] < p->b[i]))
            fail_msg("pair %u is (%u, %u): not a < b", i, p->a[i], p->b[i]);
        pairlist_push(&l, p->a[i], p->b[i]);
    }
    if (l.n)
        qsort(l.p, l.n, sizeof *l.p, cmp_u64);
    return l;
}

static void assert_same_set(const char *what, const pairlist *got, const pairlist *want)
{
    for (uint32_t i = 0; i + 1 < got->n; i++)
        if (got->p[i] == got->p[i + 1])
            fail_msg("%s: pair (%u, %u) reported twice", what, (unsigned)(got->p[i] >> 32), (unsigned)got->p[i]);
    uint32_t i = 0, j = 0;
    while (i < got->n || j < want->n) {
        if (j == want->n || (i < got->n && got->p[i] < want->p[j]))
            fail_msg("%s: (%u, %u) reported but its boxes do not overlap", what, (unsigned)(got->p[i] >> 32),
                     (unsigned)got->p[i]);
        if (i == got->n || want->p[j] < got->p[i])
            fail_msg("%s: (%u, %u) overlap but were not reported (%u reported, %u expected)", what,
                     (unsigned)(want->p[j] >> 32), (unsigned)want->p[j], got->n, want->n);
        i++, j++;
    }
}

static bool box_nonempty(const boxset *b, uint32_t i)
{
    return b->v[0][i] <= b->v[3][i] && b->v[1][i] <= b->v[4][i] && b->v[2][i] <= b->v[5][i];
}

/* Brute force: every pair of non-empty boxes overlapping as closed
 * intervals on all three axes, minus static-static pairs. */
static pairlist brute_pairs(const boxset *b, const uint8_t *flags)
{
    pairlist l = { 0, 0, NULL };
    for (uint32_t i = 0; i < b->n; i++) {
        if (!box_nonempty(b, i))
            continue;
        for (uint32_t j = i + 1; j < b->n; j++) {
            if (!box_nonempty(b, j))
                continue;
            bool hit = true;
            for (int a = 0; a < 3; a++)
                hit = hit && b->v[a][i] <= b->v[3 + a][j] && b->v[a][j] <= b->v[3 + a][i];
            if (hit && flags && (flags[i] & flags[j] & GJKB_BODY_STATIC))
                hit = false;
            if (hit)
                pairlist_push(&l, i, j);
        }
    }
    return l;
}

/* ---- contexts ------------------------------------------------------------------ */

static gjkb_context *make_context(gjkb_backend backend)
{
    gjkb_context *ctx = tu_context(backend);
    assert_non_null(ctx);
    return ctx;
}

/* Whether this build can run more than one thread. */
static bool have_threads(void)
{
    gjkb_context *ctx = make_context(GJKB_BACKEND_AUTO);
    bool ok = gjkb_set_threads(ctx, 2) == GJKB_OK;
    gjkb_destroy(ctx);
    return ok;
}

/* Saved copy of a pair list, for comparing orders. */
typedef struct saved_pairs {
    uint32_t n;
    uint32_t *a, *b;
} saved_pairs;

static saved_pairs save_pairs(const gjkb_pairs *p)
{
    saved_pairs s = { p->count, tu_realloc(NULL, (p->count + 1) * 4), tu_realloc(NULL, (p->count + 1) * 4) };
    if (p->count) {
        memcpy(s.a, p->a, p->count * 4);
        memcpy(s.b, p->b, p->count * 4);
    }
    return s;
}

static bool same_order(const saved_pairs *s, const gjkb_pairs *p)
{
    return s->n == p->count &&
           (p->count == 0 || (!memcmp(s->a, p->a, p->count * 4) && !memcmp(s->b, p->b, p->count * 4)));
}

static void saved_free(saved_pairs *s)
{
    free(s->a);
    free(s->b);
}

/* A pair's bucket key, from its bodies' classes. */
static unsigned pair_key(const gjkb_context *ctx, const gjkb_bodies *bd, uint32_t a, uint32_t b)
{
    int32_t na = bd->kind[a] == GJKB_HULL ? ctx->hull_n[bd->hull[a]] : 0;
    int32_t nb = bd->kind[b] == GJKB_HULL ? ctx->hull_n[bd->hull[b]] : 0;
    return gjkb__info_key(gjkb__pair_info(gjkb__body_class(bd->kind[a], na), gjkb__body_class(bd->kind[b], nb)));
}

/* gjkb_step's order: find_pairs' pairs grouped by key, each group in
 * find_pairs' order. */
static saved_pairs grouped_by_key(const gjkb_context *ctx, const gjkb_bodies *bd, const gjkb_pairs *p)
{
    saved_pairs s = save_pairs(p);
    uint32_t at = 0;
    for (unsigned key = 0; key < GJKB_KEYS; key++)
        for (uint32_t i = 0; i < p->count; i++)
            if (pair_key(ctx, bd, p->a[i], p->b[i]) == key) {
                s.a[at] = p->a[i];
                s.b[at++] = p->b[i];
            }
    assert_int_equal(at, p->count);
    return s;
}

/* Sweep-and-prune on every backend and at 1, 2 and 3 threads: the same
 * set as brute force, and the same order everywhere. */
static void check_scene(const char *name, const boxset *b, const uint8_t *flags)
{
    pairlist want = brute_pairs(b, flags);
    gjkb_aabbs boxes = boxset_view(b);
    gjkb_broadphase_options opt = { flags, NULL, NULL };
    saved_pairs first = { 0, NULL, NULL };
    bool have_first = false;
    int max_threads = have_threads() ? 3 : 1;
    for (int be = GJKB_BACKEND_REFERENCE; be < GJKB_BACKEND_COUNT; be++) {
        if (!gjkb_backend_available((gjkb_backend)be))
            continue;
        gjkb_context *ctx = make_context((gjkb_backend)be);
        for (int t = 1; t <= max_threads; t++) {
            assert_int_equal(gjkb_set_threads(ctx, t), GJKB_OK);
            gjkb_pairs got;
            gjkb_error e = gjkb_find_pairs(ctx, &boxes, flags ? &opt : NULL, &got);
            if (e != GJKB_OK)
                fail_msg("%s on %s: %s", name, gjkb_backend_name((gjkb_backend)be), gjkb_last_error(ctx));
            char what[128];
            snprintf(what, sizeof what, "%s on %s, %d threads", name, gjkb_backend_name((gjkb_backend)be), t);
            pairlist l = pairlist_of(&got);
            assert_same_set(what, &l, &want);
            free(l.p);
            if (!have_first) {
                first = save_pairs(&got);
                have_first = true;
            } else if (!same_order(&first, &got)) {
                fail_msg("%s: the pair order differs from the first backend's", what);
            }
        }
        gjkb_destroy(ctx);
    }
    saved_free(&first);
    free(want.p);
}

/* ---- sweep-and-prune scenes ----------------------------------------------------- */

/* n boxes with centres uniform in [0, side]^3 and half extents in [lo, hi]. */
static boxset random_boxes(tu_rng *r, uint32_t n, double side, double lo, double hi)
{
    boxset b = boxset_make(n);
    for (uint32_t i = 0; i < n; i++) {
        double c[3], h[3];
        for (int a = 0; a < 3; a++) {
            c[a] = tu_range(r, 0, side);
            h[a] = tu_range(r, lo, hi);
        }
        boxset_set(&b, i, c[0] - h[0], c[1] - h[1], c[2] - h[2], c[0] + h[0], c[1] + h[1], c[2] + h[2]);
    }
    return b;
}

static void test_sap_random(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(11);
    static const uint32_t sizes[] = { 0, 1, 2, 3, 15, 16, 17, 100, 1000 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        boxset b = random_boxes(&r, sizes[k], 10.0 * cbrt((double)sizes[k] + 1), 0.1, 2.0);
        check_scene("random", &b, NULL);
        boxset_free(&b);
    }
    /* Large enough for every thread count to split the sweep. */
    boxset b = random_boxes(&r, 5000, 60.0, 0.2, 2.0);
    pairlist want = brute_pairs(&b, NULL);
    assert_true(want.n > 2000);
    free(want.p);
    check_scene("random 5000", &b, NULL);
    boxset_free(&b);

    /* Wide and flat: the sweep cuts it into many bands across its second
     * axis, and boxes straddle the band edges. */
    b = random_boxes(&r, 8000, 300.0, 0.2, 1.5);
    for (uint32_t i = 0; i < b.n; i++) {
        b.v[2][i] *= 0.01f;
        b.v[5][i] *= 0.01f;
    }
    check_scene("wide flat 8000", &b, NULL);
    boxset_free(&b);

    /* A flat grid of touching unit squares: every pair across a band edge
     * touches exactly, and must come out once. */
    b = boxset_make(64 * 64);
    for (uint32_t i = 0; i < b.n; i++) {
        double x = i % 64, y = i / 64;
        boxset_set(&b, i, x, y, 0, x + 1, y + 1, 0.5);
    }
    want = brute_pairs(&b, NULL);
    assert_int_equal(want.n, 2 * 64 * 63 + 2 * 63 * 63);
    free(want.p);
    check_scene("touching flat grid", &b, NULL);
    boxset_free(&b);
}

static void test_sap_degenerate(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(12);
    /* All identical: every pair. */
    boxset b = boxset_make(300);
    for (uint32_t i = 0; i < b.n; i++)
        boxset_set(&b, i, -1, -2, -3, 1, 2, 3);
    check_scene("identical", &b, NULL);
    boxset_free(&b);

    /* Centres on the plane z = 0, then on the line y = z = 0 (no spread on
     * two axes), then all at one point with different sizes (none at all). */
    b = random_boxes(&r, 1500, 40.0, 0.1, 1.5);
    for (uint32_t i = 0; i < b.n; i++) {
        float h = (b.v[5][i] - b.v[2][i]) * 0.5f;
        b.v[2][i] = -h, b.v[5][i] = h;
    }
    check_scene("plane", &b, NULL);
    for (uint32_t i = 0; i < b.n; i++) {
        float h = (b.v[4][i] - b.v[1][i]) * 0.5f;
        b.v[1][i] = -h, b.v[4][i] = h;
    }
    check_scene("line", &b, NULL);
    for (uint32_t i = 0; i < b.n; i++) {
        float h = (b.v[3][i] - b.v[0][i]) * 0.5f;
        b.v[0][i] = -h, b.v[3][i] = h;
    }
    check_scene("point", &b, NULL);
    boxset_free(&b);

    /* Exactly touching: a grid of unit cubes at integer coordinates (faces,
     * edges and corners touch), and flat boxes of zero thickness. */
    b = boxset_make(8 * 8 * 8);
    for (uint32_t i = 0; i < b.n; i++) {
        double x = i % 8, y = (i / 8) % 8, z = i / 64;
        boxset_set(&b, i, x, y, z, x + 1, y + 1, z + 1);
    }
    pairlist want = brute_pairs(&b, NULL);
    /* interior cubes touch 26 neighbours: 3*8*8*7 face + edge + corner pairs */
    assert_int_equal(want.n, 3 * 8 * 8 * 7 + 6 * 8 * 7 * 7 + 4 * 7 * 7 * 7);
    free(want.p);
    check_scene("touching grid", &b, NULL);
    for (uint32_t i = 0; i < b.n; i++)
        b.v[5][i] = b.v[2][i];
    check_scene("flat grid", &b, NULL);
    boxset_free(&b);

    /* Huge and tiny boxes mixed, near the origin and far from it. */
    for (int far = 0; far < 2; far++) {
        b = boxset_make(2000);
        double offset = far ? 1e6 : 0.0;
        for (uint32_t i = 0; i < b.n; i++) {
            double c[3], h[3];
            for (int a = 0; a < 3; a++) {
                c[a] = offset + tu_range(&r, -1000, 1000);
                h[a] = pow(10.0, tu_range(&r, -6, far ? 3.5 : 2.5));
            }
            boxset_set(&b, i, c[0] - h[0], c[1] - h[1], c[2] - h[2], c[0] + h[0], c[1] + h[1], c[2] + h[2]);
        }
        check_scene(far ? "huge and tiny, far" : "huge and tiny", &b, NULL);
        boxset_free(&b);
    }
}

/* Empty, NaN and infinite boxes, points, and signed zeros. */
static void test_sap_special_values(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(13);
    boxset b = random_boxes(&r, 600, 20.0, 0.1, 2.0);
    for (uint32_t i = 0; i < b.n; i += 7) {
        switch ((i / 7) % 9) {
        case 0:   /* the empty box of an invalid body */
            for (int a = 0; a < 3; a++)
                b.v[a][i] = INFINITY, b.v[3 + a][i] = -INFINITY;
            break;
        case 1: b.v[1][i] = NAN; break;
        case 2: b.v[5][i] = NAN; break;
        case 3: { float t = b.v[0][i]; b.v[0][i] = b.v[3][i]; b.v[3][i] = t; break; } /* min > max */
        case 4:   /* a point */
            for (int a = 0; a < 3; a++)
                b.v[3 + a][i] = b.v[a][i];
            break;
        case 5:   /* half infinite */
            b.v[3][i] = INFINITY;
            break;
        case 6:   /* a box reaching past +inf on the sweep axis, or any */
            b.v[0][i] = INFINITY, b.v[3][i] = INFINITY;
            break;
        case 7: b.v[2][i] = -0.0f, b.v[5][i] = 0.0f; break;
        default: b.v[2][i] = 0.0f, b.v[5][i] = -0.0f; break;
        }
    }
    check_scene("special values", &b, NULL);
    /* One box everywhere: it overlaps every non-empty box. */
    for (int a = 0; a < 3; a++)
        b.v[a][5] = -INFINITY, b.v[3 + a][5] = INFINITY;
    check_scene("special values and an infinite box", &b, NULL);
    boxset_free(&b);

    /* Signed zeros touching: [-1, -0] and [+0, 1] overlap (-0 <= +0). */
    b = boxset_make(4);
    boxset_set(&b, 0, -1, -1, -1, -0.0, 1, 1);
    boxset_set(&b, 1, 0.0, -1, -1, 1, 1, 1);
    boxset_set(&b, 2, -0.0, 5, 5, 0.0, 6, 6);
    boxset_set(&b, 3, 0.0, 5, 5, -0.0, 6, 6);
    pairlist want = brute_pairs(&b, NULL);
    assert_int_equal(want.n, 2);
    free(want.p);
    check_scene("signed zeros", &b, NULL);
    boxset_free(&b);
}

/* ---- flags and the filter -------------------------------------------------------- */

typedef struct filter_log {
    uint32_t calls;
    pairlist seen;
    bool ordered;
} filter_log;

static int drop_some(void *user, uint32_t a, uint32_t b)
{
    filter_log *log = user;
    log->calls++;
    if (!(a < b))
        log->ordered = false;
    pairlist_push(&log->seen, a, b);
    return (a * 7u + b) % 5u != 0;
}

static void test_flags_and_filter(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(14);
    boxset b = random_boxes(&r, 4000, 50.0, 0.2, 2.0);
    uint8_t *flags = tu_realloc(NULL, b.n);
    for (uint32_t i = 0; i < b.n; i++)
        flags[i] = tu_unit(&r) < 0.5 ? GJKB_BODY_STATIC | 0x80 : 0x40;   /* other bits are ignored */
    check_scene("flags", &b, flags);

    pairlist survivors = brute_pairs(&b, flags);
    pairlist all = brute_pairs(&b, NULL);
    assert_true(survivors.n < all.n && survivors.n > all.n / 2);
    pairlist want = { 0, 0, NULL };
    for (uint32_t i = 0; i < survivors.n; i++) {
        uint32_t a = (uint32_t)(survivors.p[i] >> 32), c = (uint32_t)survivors.p[i];
        if ((a * 7u + c) % 5u != 0)
            pairlist_push(&want, a, c);
    }
    gjkb_aabbs boxes = boxset_view(&b);
    saved_pairs first = { 0, NULL, NULL };
    int max_threads = have_threads() ? 3 : 1;
    for (int be = GJKB_BACKEND_REFERENCE; be < GJKB_BACKEND_COUNT; be++) {
        if (!gjkb_backend_available((gjkb_backend)be))
            continue;
        gjkb_context *ctx = make_context((gjkb_backend)be);
        for (int t = 1; t <= max_threads; t++) {
            assert_int_equal(gjkb_set_threads(ctx, t), GJKB_OK);
            filter_log log = { 0, { 0, 0, NULL }, true };
            gjkb_broadphase_options opt = { flags, drop_some, &log };
            gjkb_pairs got;
            assert_int_equal(gjkb_find_pairs(ctx, &boxes, &opt, &got), GJKB_OK);
            /* Called once per pair that survives the flags, a < b. */
            assert_true(log.ordered);
            assert_int_equal(log.calls, survivors.n);
            qsort(log.seen.p, log.seen.n, sizeof *log.seen.p, cmp_u64);
            assert_same_set("filter calls", &log.seen, &survivors);
            free(log.seen.p);
            pairlist l = pairlist_of(&got);
            assert_same_set("flags and filter", &l, &want);
            free(l.p);
            if (!first.a)
                first = save_pairs(&got);
            else
                assert_true(same_order(&first, &got));
        }
        gjkb_destroy(ctx);
    }
    saved_free(&first);
    free(want.p);
    free(survivors.p);
    free(all.p);
    free(flags);
    boxset_free(&b);
}

/* ---- bounds ------------------------------------------------------------------------ */

#define N_HULLS 6

typedef struct hull_lib {
    uint32_t n[N_HULLS];
    float *xyz[N_HULLS];
    tu_hull oracle[N_HULLS];
} hull_lib;

static void hull_lib_make(hull_lib *h, tu_rng *r)
{
    for (int k = 0; k < N_HULLS; k++) {
        h->n[k] = 4 + tu_below(r, 20);
        h->xyz[k] = tu_realloc(NULL, 3 * h->n[k] * sizeof(float));
        tu_random_hull_points(r, h->xyz[k], h->n[k]);
        /* Off-centre, so the local box is not about the origin. */
        for (uint32_t i = 0; i < h->n[k]; i++)
            h->xyz[k][3 * i] = tu_f32(h->xyz[k][3 * i] + 0.7 * k);
        tu_hull_build(&h->oracle[k], h->xyz[k], h->n[k]);
    }
}

static void hull_lib_register(const hull_lib *h, gjkb_context *ctx)
{
    for (int k = 0; k < N_HULLS; k++) {
        uint32_t id;
        assert_int_equal(gjkb_hull_add(ctx, h->xyz[k], h->n[k], &id), GJKB_OK);
        assert_int_equal(id, (uint32_t)k);
    }
}

static void hull_lib_free(hull_lib *h)
{
    for (int k = 0; k < N_HULLS; k++) {
        free(h->xyz[k]);
        tu_hull_free(&h->oracle[k]);
    }
}

/* Quaternions that put local axes exactly on world axes, so that disks and
 * segments lie flat: identity, quarter and half turns. */
static void aligned_quat(tu_rng *r, float q[4])
{
    static const float s = 0.70710678f;
    static const float table[][4] = {
        { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 },
        { s, s, 0, 0 }, { s, 0, s, 0 }, { s, 0, 0, s }, { 0.5f, 0.5f, 0.5f, 0.5f },
    };
    memcpy(q, table[tu_below(r, 8)], 4 * sizeof(float));
}

/* A random body of the kind: sizes sometimes zero, margins, random or
 * axis-aligned rotations, positions near the origin or far away. */
static gjkb_shape random_body(tu_rng *r, gjkb_kind kind)
{
    gjkb_shape s = tu_random_shape(r, kind, 0.5, N_HULLS);
    for (int k = 0; k < 3; k++)
        if (tu_unit(r) < 0.1)
            s.size[k] = 0.0f;
    if (tu_unit(r) < 0.3)
        aligned_quat(r, s.rot);
    if (tu_unit(r) < 0.3)   /* not unit: normalized by the library */
        for (int k = 0; k < 4; k++)
            s.rot[k] = tu_f32(s.rot[k] * 3.5);
    double far = tu_unit(r) < 0.3 ? pow(10.0, tu_range(r, 2, 7)) : 0.0;
    for (int k = 0; k < 3; k++)
        s.pos[k] += tu_unit(r) < 0.5 ? far : -far;
    return s;
}

/* Core L1 scale plus margin: what the bounds' slack is relative to. */
static double shape_scale(const tu_geom *g)
{
    switch (g->kind) {
    case GJKB_SPHERE: return g->s[0] + g->margin;
    case GJKB_CAPSULE: return g->s[0] + g->s[2] + g->margin;
    case GJKB_BOX: return g->s[0] + g->s[1] + g->s[2] + g->margin;
    case GJKB_CYLINDER:
    case GJKB_CONE: return 1.5 * g->s[0] + g->s[2] + g->margin;
    default: return 1.75 * g->hull->radius + g->margin;
    }
}

static double ulpf(double v)
{
    float f = (float)fabs(v);
    return (double)nextafterf(f, INFINITY) - (double)f;
}

/* The box of one valid body against its exact extent (support points along
 * the world axes) and against support points in random directions. */
static void check_body_box(tu_rng *r, const gjkb_shape *s, const tu_geom *g, const float box[6], uint32_t i)
{
    double scale = shape_scale(g);
    for (int a = 0; a < 3; a++) {
        tu_v3 e = tu_v(a == 0, a == 1, a == 2);
        tu_v3 ph = tu_support(g, e), pl = tu_support(g, tu_scale(e, -1));
        double hi = a == 0 ? ph.x : a == 1 ? ph.y : ph.z;
        double lo = a == 0 ? pl.x : a == 1 ? pl.y : pl.z;
        double c = s->pos[a];
        /* Containment, up to the test's own double rounding. */
        double tc = 4e-16 * (fabs(c) + scale);
        /* Tightness: the float slack, and the rounding to float. */
        double tt = 1e-5 * scale + 2 * ulpf(fabs(c) + scale);
        if (!(box[a] <= lo + tc && box[3 + a] >= hi - tc))
            fail_msg("body %u (%s) axis %d: box [%.17g, %.17g] misses the extent [%.17g, %.17g]", i,
                     gjkb_kind_name(s->kind), a, box[a], box[3 + a], lo, hi);
        if (!(lo - box[a] <= tt && box[3 + a] - hi <= tt))
            fail_msg("body %u (%s) axis %d: box [%.17g, %.17g] is loose around [%.17g, %.17g] (scale %g)", i,
                     gjkb_kind_name(s->kind), a, box[a], box[3 + a], lo, hi, scale);
    }
    for (int k = 0; k < 16; k++) {
        tu_v3 d = tu_v(tu_range(r, -1, 1), tu_range(r, -1, 1), tu_range(r, -1, 1));
        tu_v3 p = tu_support(g, d);
        double v[3] = { p.x, p.y, p.z };
        for (int a = 0; a < 3; a++) {
            double tc = 4e-16 * (fabs(s->pos[a]) + scale);
            if (!(box[a] <= v[a] + tc && v[a] - tc <= box[3 + a]))
                fail_msg("body %u (%s): support point %.17g outside [%.17g, %.17g] on axis %d", i,
                         gjkb_kind_name(s->kind), v[a], box[a], box[3 + a], a);
        }
    }
}

static void bodies_boxes(gjkb_context *ctx, const tu_batch *t, boxset *out)
{
    gjkb_bodies bodies = tu_batch_bodies(t);
    gjkb_aabbs a = boxset_view(out);
    gjkb_error e = gjkb_bounds(ctx, &bodies, &a);
    if (e != GJKB_OK)
        fail_msg("gjkb_bounds: %s", gjkb_last_error(ctx));
}

static bool boxes_identical(const boxset *x, const boxset *y)
{
    for (int k = 0; k < 6; k++)
        if (memcmp(x->v[k], y->v[k], x->n * sizeof(float)))
            return false;
    return true;
}

/* The boxes of t's bodies on every available backend (hulls from hl, or
 * none): the same bits on all of them, left in *ref. */
static void boxes_every_backend(const tu_batch *t, const hull_lib *hl, boxset *ref)
{
    bool have_ref = false;
    for (int be = GJKB_BACKEND_REFERENCE; be < GJKB_BACKEND_COUNT; be++) {
        if (!gjkb_backend_available((gjkb_backend)be))
            continue;
        gjkb_context *ctx = make_context((gjkb_backend)be);
        if (hl)
            hull_lib_register(hl, ctx);
        boxset b = boxset_make(t->nb);
        bodies_boxes(ctx, t, &b);
        if (!have_ref) {
            for (int k = 0; k < 6; k++)
                memcpy(ref->v[k], b.v[k], t->nb * sizeof(float));
            have_ref = true;
        } else if (!boxes_identical(&b, ref)) {
            fail_msg("%s: boxes differ from the first backend's", gjkb_backend_name((gjkb_backend)be));
        }
        boxset_free(&b);
        gjkb_destroy(ctx);
    }
    assert_true(have_ref);
}

static void test_bounds_exact_extent(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(21);
    hull_lib hl;
    hull_lib_make(&hl, &r);
    tu_batch t;
    memset(&t, 0, sizeof t);
    /* 1001 bodies: tails on every width. */
    for (uint32_t i = 0; i < 1001; i++) {
        gjkb_shape s = random_body(&r, (gjkb_kind)(i % GJKB_KIND_COUNT));
        tu_batch_body(&t, &s);
    }
    boxset ref = boxset_make(t.nb);
    boxes_every_backend(&t, &hl, &ref);
    for (uint32_t i = 0; i < t.nb; i++) {
        gjkb_shape s = tu_batch_shape(&t, i);
        tu_geom g = tu_geom_of(&s, hl.oracle);
        float box[6] = { ref.v[0][i], ref.v[1][i], ref.v[2][i], ref.v[3][i], ref.v[4][i], ref.v[5][i] };
        check_body_box(&r, &s, &g, box, i);
    }
    boxset_free(&ref);
    tu_batch_free(&t);
    hull_lib_free(&hl);
}

/* Outward rounding to float: a point's box is the two floats around it;
 * a sphere far smaller than a float step still widens its box by one. */
static void test_bounds_rounding(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(22);
    tu_batch t;
    memset(&t, 0, sizeof t);
    for (uint32_t i = 0; i < 200; i++) {
        gjkb_shape s = tu_sphere(0.0);
        for (int k = 0; k < 3; k++)
            s.pos[k] = i < 100 ? tu_range(&r, -1e6, 1e6) : (double)tu_f32(tu_range(&r, -1e3, 1e3));
        tu_batch_body(&t, &s);
    }
    gjkb_shape tiny = tu_at(tu_sphere(1e-20), 1.0, -1.0, 0.5);
    uint32_t it = tu_batch_body(&t, &tiny);
    gjkb_context *ctx = make_context(GJKB_BACKEND_AUTO);
    boxset b = boxset_make(t.nb);
    bodies_boxes(ctx, &t, &b);
    for (uint32_t i = 0; i < 200; i++) {
        double p[3] = { t.px[i], t.py[i], t.pz[i] };
        for (int a = 0; a < 3; a++) {
            float lo = b.v[a][i], hi = b.v[3 + a][i];
            assert_true((double)lo <= p[a] && p[a] <= (double)hi);
            if ((double)lo == p[a])
                assert_true(hi == lo);
            else
                assert_true(nextafterf(lo, INFINITY) == hi);
        }
    }
    double c[3] = { 1.0, -1.0, 0.5 };
    for (int a = 0; a < 3; a++) {
        assert_true(b.v[a][it] == nextafterf((float)c[a], -INFINITY));
        assert_true(b.v[3 + a][it] == nextafterf((float)c[a], INFINITY));
    }
    boxset_free(&b);
    gjkb_destroy(ctx);
    tu_batch_free(&t);
}

/* Positions at zeros of either sign, below a float step and beyond float
 * precision, under shapes of zero or tiny size: every backend gives the
 * same bits (a wide ISA may round by another route), and a point sphere's
 * box at a zero has round to nearest's signs: [+0, +0] at +0 (+0 + -0),
 * [-0, +0] at -0. */
static void test_bounds_rounding_edges(void **state)
{
    (void)state;
    static const double pos[] = { 0.0, -0.0, 1e-300, -1e-300, 0x1p-150, -0x1p-150, 0x1p-149, -0x1p-149,
                                  0x1.8p-149, 1.0, -1.0, 0x1p24 + 1.0, -0x1p24 - 1.0, 1e15, -1e15, 0.1 };
    const int np = (int)(sizeof pos / sizeof pos[0]);
    const gjkb_shape shapes[] = { tu_sphere(0.0), tu_sphere(1e-42), tu_box(0x1p-140, 0.0, 1.0), tu_sphere(0.1) };
    tu_batch t;
    memset(&t, 0, sizeof t);
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < np; i++)
            for (int j = 0; j < 3; j++) {
                gjkb_shape s = tu_at(shapes[k], pos[i], pos[(i + j + 1) % np], pos[(i + 2 * j + 5) % np]);
                tu_batch_body(&t, &s);
            }
    boxset ref = boxset_make(t.nb);
    boxes_every_backend(&t, NULL, &ref);
    /* the point spheres at +0 and -0 (first on x) */
    for (uint32_t i = 0; i < 6; i++) {
        bool neg = i >= 3;
        assert_true(ref.v[0][i] == 0.0f && ref.v[3][i] == 0.0f);
        assert_int_equal(!!signbit(ref.v[0][i]), neg);
        assert_false(signbit(ref.v[3][i]));
    }
    for (uint32_t i = 0; i < t.nb; i++) {
        double p[3] = { t.px[i], t.py[i], t.pz[i] };
        for (int a = 0; a < 3; a++)
            assert_true((double)ref.v[a][i] <= p[a] && p[a] <= (double)ref.v[3 + a][i]);
    }
    boxset_free(&ref);
    tu_batch_free(&t);
}

/* Invalid bodies get (+inf, -inf), valid ones a real box: the rule of
 * gjkb__shape_valid, which gjkb_query_pair also follows. */
static void test_bounds_validity(void **state)
{
    (void)state;
    tu_rng r = tu_rng_make(23);
    tu_batch t;
    memset(&t, 0, sizeof t);
    static const float zero_hull_point[3] = { 0, 0, 0 };
    const float bad_points[6] = { 0, 0, 0, 1, NAN, 0 };
    for (uint32_t i = 0; i < 600; i++) {
        gjkb_shape s = tu_random_shape(&r, (gjkb_kind)(i % GJKB_KIND_COUNT), 0.5, 3);
        switch (i % 19) {
        case 0: s.pos[i % 3] = NAN; break;
        case 1: s.pos[i % 3] = -INFINITY; break;
        case 2: s.pos[i % 3] = 2e15; break;
        case 3: s.pos[i % 3] = 1e15; break;                         /* the limit: valid */
        case 4: s.size[i % 3] = -1.0f; break;
        case 5: s.size[i % 3] = NAN; break;
        case 6: s.size[i % 3] = 1e16f; break;
        case 7: s.margin = -0.5f; break;
        case 8: s.margin = INFINITY; break;
        case 9: memset(s.rot, 0, sizeof s.rot); break;
        case 10: s.rot[0] = 1e-16f, s.rot[1] = s.rot[2] = s.rot[3] = 0; break;   /* |q|^2 < 1e-30 */
        case 11: s.rot[0] = 1e-14f, s.rot[1] = s.rot[2] = s.rot[3] = 0; break;   /* tiny but valid */
        case 12: s.rot[2] = NAN; break;
        case 13: s.rot[1] = 2e15f; break;
        case 14: s.kind = GJKB_HULL, s.hull = 1; break;             /* no points */
        case 15: s.kind = GJKB_HULL, s.hull = 2; break;             /* a NaN point */
        case 16: s.size[i % 3] = -0.0f; break;                      /* valid */
        default: break;
        }
        tu_batch_body(&t, &s);
    }
    uint32_t id;
    for (int be = GJKB_BACKEND_REFERENCE; be < GJKB_BACKEND_COUNT; be++) {
        if (!gjkb_backend_available((gjkb_backend)be))
            continue;
        gjkb_context *ctx = make_context((gjkb_backend)be);
        assert_int_equal(gjkb_hull_add(ctx, zero_hull_point, 1, &id), GJKB_OK);
        assert_int_equal(gjkb_hull_add(ctx, NULL, 0, &id), GJKB_OK);
        assert_int_equal(gjkb_hull_add(ctx, bad_points, 2, &id), GJKB_OK);
        boxset b = boxset_make(t.nb);
        bodies_boxes(ctx, &t, &b);
        uint32_t invalid = 0;
        for (uint32_t i = 0; i < t.nb; i++) {
            gjkb_shape s = tu_batch_shape(&t, i);
            bool valid = gjkb__body_valid(ctx, &s);
            gjkb_shape probe = tu_sphere(1.0);
            gjkb_result res;
            assert_int_equal(gjkb_query_pair(ctx, &s, &probe, NULL, &res), GJKB_OK);
            assert_int_equal(valid, res.status != GJKB_INVALID);
            for (int a = 0; a < 3; a++) {
                if (valid) {
                    if (!(b.v[a][i] <= b.v[3 + a][i]) || !isfinite(b.v[a][i]) || !isfinite(b.v[3 + a][i]))
                        fail_msg("%s body %u (case %u): valid but box [%g, %g]", gjkb_backend_name((gjkb_backend)be),
                                 i, i % 19, b.v[a][i], b.v[3 + a][i]);
                } else if (!(b.v[a][i] == INFINITY && b.v[3 + a][i] == -INFINITY)) {
                    fail_msg("%s body %u (case %u): invalid but box [%g, %g]", gjkb_backend_name((gjkb_backend)be), i,
                             i % 19, b.v[a][i], b.v[3 + a][i]);
                }
            }
            invalid += !valid;
        }
        assert_true(invalid > 300 && invalid < 560);
        boxset_free(&b);
        gjkb_destroy(ctx);
    }
    tu_batch_free(&t);
}

/* ---- the frame ---------------------------------------------------------------------- */

/* Agreement with the reference, as in test_backends: statuses may differ
 * within BAND of touching (relative to the pair's scale). */
#define DIST_TOL 1e-4
#define BAND 1e-4

typedef struct world {
    tu_batch t;
    hull_lib hulls;
    double *radius;   /* bounding radius of each body, margin included */
} world;

/* n mixed bodies in a cube sized for about `per_body` candidate pairs per
 * body, a few of them invalid. */
static void world_make(world *w, uint32_t n, double per_body, uint64_t seed)
{
    tu_rng r = tu_rng_make(seed);
    memset(w, 0, sizeof *w);
    hull_lib_make(&w->hulls, &r);
    double side = cbrt((double)n / per_body) * 2.4;
    w->radius = tu_realloc(NULL, n * sizeof(double));
    for (uint32_t i = 0; i < n; i++) {
        gjkb_shape s = tu_random_shape(&r, (gjkb_kind)tu_below(&r, GJKB_KIND_COUNT), 0.3, N_HULLS);
        for (int k = 0; k < 3; k++)
            s.pos[k] = tu_range(&r, 0, side);
        if (i % 97 == 5)
            s.size[0] = -1.0f;
        tu_batch_body(&w->t, &s);
        tu_geom g = tu_geom_of(&s, w->hulls.oracle);
        w->radius[i] = tu_bound_radius(&g);
    }
}

static void world_free(world *w)
{
    tu_batch_free(&w->t);
    hull_lib_free(&w->hulls);
    free(w->radius);
}

static gjkb_context *world_context(world *w, gjkb_backend backend)
{
    gjkb_context *ctx = make_context(backend);
    hull_lib_register(&w->hulls, ctx);
    return ctx;
}

/* gjkb_step on every backend: its pairs are find_pairs on gjkb_bounds'
 * boxes (brute force as a set, one order everywhere), and its results agree
 * with the reference backend on the brute-force pairs. */
static void test_step_against_reference(void **state)
{
    (void)state;
    world w;
    world_make(&w, 3000, 3.0, 31);
    gjkb_bodies bodies = tu_batch_bodies(&w.t);

    /* Brute force on the boxes, then the reference on those pairs. */
    gjkb_context *ref = world_context(&w, GJKB_BACKEND_REFERENCE);
    boxset boxes = boxset_make(w.t.nb);
    bodies_boxes(ref, &w.t, &boxes);
    pairlist want = brute_pairs(&boxes, NULL);
    assert_true(want.n > 3000);
    uint32_t *ra = tu_realloc(NULL, want.n * 4), *rb = tu_realloc(NULL, want.n * 4);
    for (uint32_t i = 0; i < want.n; i++)
        ra[i] = (uint32_t)(want.p[i] >> 32), rb[i] = (uint32_t)want.p[i];
    gjkb_pairs ref_pairs = { want.n, ra, rb };
    uint8_t *ref_status = tu_realloc(NULL, want.n);
    double *ref_dist = tu_realloc(NULL, want.n * sizeof(double));
    gjkb_results ref_res = { ref_status, ref_dist, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, {0} };
    gjkb_query dq = { .mode = GJKB_DISTANCE };
    assert_int_equal(gjkb_query_batch(ref, &bodies, &ref_pairs, &dq, &ref_res), GJKB_OK);
    gjkb_destroy(ref);
    uint32_t ref_hits = 0;
    for (uint32_t i = 0; i < want.n; i++)
        ref_hits += ref_status[i] == GJKB_OVERLAP;
    assert_true(ref_hits > want.n / 10 && ref_hits < want.n);

    saved_pairs first = { 0, NULL, NULL };
    for (int be = GJKB_BACKEND_REFERENCE; be < GJKB_BACKEND_COUNT; be++) {
        if (!gjkb_backend_available((gjkb_backend)be))
            continue;
        const char *name = gjkb_backend_name((gjkb_backend)be);
        gjkb_context *ctx = world_context(&w, (gjkb_backend)be);
        gjkb_frame f;
        if (gjkb_step(ctx, &bodies, NULL, &dq, &f) != GJKB_OK)
            fail_msg("%s: %s", name, gjkb_last_error(ctx));
        for (int k = 0; k < 4; k++)
            assert_true(f.seconds[k] >= 0 && f.seconds[k] < 60);
        pairlist l = pairlist_of(&f.pairs);
        assert_same_set(name, &l, &want);
        free(l.p);
        if (!first.a)
            first = save_pairs(&f.pairs);
        else if (!same_order(&first, &f.pairs))
            fail_msg("%s: the frame's pair order differs", name);
        assert_non_null(f.results.ax);
        assert_non_null(f.results.nz);

        /* Each frame pair against the reference's answer for it. */
        uint32_t band = 0, hits = 0;
        for (uint32_t i = 0; i < f.pairs.count; i++) {
            uint64_t key = (uint64_t)f.pairs.a[i] << 32 | f.pairs.b[i];
            const uint64_t *at = bsearch(&key, want.p, want.n, sizeof key, cmp_u64);
            assert_non_null(at);
            uint32_t j = (uint32_t)(at - want.p);
            int ks = f.results.status[i], rs = ref_status[j];
            hits += ks == GJKB_OVERLAP;
            double scale = w.radius[f.pairs.a[i]] + w.radius[f.pairs.b[i]];
            assert_int_equal(ks == GJKB_INVALID, rs == GJKB_INVALID);
            if (ks == GJKB_LIMIT || rs == GJKB_LIMIT || ks == GJKB_INVALID)
                continue;
            if (ks != rs) {
                double gap = rs == GJKB_SEPARATED ? ref_dist[j] : f.results.distance[i];
                if (!(gap <= BAND * scale))
                    fail_msg("%s pair (%u, %u): status %d, reference %d (gap %g, scale %g)", name, f.pairs.a[i],
                             f.pairs.b[i], ks, rs, gap, scale);
                band++;
                continue;
            }
            if (rs == GJKB_SEPARATED && !(fabs(f.results.distance[i] - ref_dist[j]) <= DIST_TOL * scale))
                fail_msg("%s pair (%u, %u): distance %.9g, reference %.9g", name, f.pairs.a[i], f.pairs.b[i],
                         f.results.distance[i], ref_dist[j]);
        }
        assert_int_equal(f.hits, hits);
        assert_true(band <= f.pairs.count / 1000 + 1);

        /* The frame's pairs are exactly find_pairs on the bounds. */
        boxset mine = boxset_make(w.t.nb);
        bodies_boxes(ctx, &w.t, &mine);
        assert_true(boxes_identical(&mine, &boxes));
        gjkb_aabbs mv = boxset_view(&mine);
        gjkb_pairs fp;
        assert_int_equal(gjkb_find_pairs(ctx, &mv, NULL, &fp), GJKB_OK);
        saved_pairs grouped = grouped_by_key(ctx, &bodies, &fp);
        assert_true(grouped.n == first.n && !memcmp(grouped.a, first.a, first.n * 4) &&
                    !memcmp(grouped.b, first.b, first.n * 4));
        saved_free(&grouped);
        boxset_free(&mine);

        /* Hit mode: the same verdicts within the band; no points. */
        gjkb_query hq = { .mode = GJKB_HIT };
        assert_int_equal(gjkb_step(ctx, &bodies, NULL, &hq, &f), GJKB_OK);
        assert_null(f.results.ax);
        assert_null(f.results.bx);
        assert_null(f.results.nx);
        assert_non_null(f.results.status);
        assert_true(same_order(&first, &f.pairs));
        gjkb_destroy(ctx);
    }
    saved_free(&first);
    free(ra);
    free(rb);
    free(ref_status);
    free(ref_dist);
    free(want.p);
    boxset_free(&boxes);
    world_free(&w);
}

/* Bits of every result array of a frame. */
static bool frames_identical(const gjkb_frame *x, const gjkb_frame *y)
{
    uint32_t n = x->pairs.count;
    if (n != y->pairs.count || x->hits != y->hits)
        return false;
    if (memcmp(x->pairs.a, y->pairs.a, n * 4) || memcmp(x->pairs.b, y->pairs.b, n * 4) ||
        memcmp(x->results.status, y->results.status, n) || memcmp(x->results.iterations, y->results.iterations, n * 4))
        return false;
    const double *dx[] = { x->results.distance, x->results.ax, x->results.ay, x->results.az, x->results.bx,
                           x->results.by, x->results.bz, x->results.nx, x->results.ny, x->results.nz };
    const double *dy[] = { y->results.distance, y->results.ax, y->results.ay, y->results.az, y->results.bx,
                           y->results.by, y->results.bz, y->results.nx, y->results.ny, y->results.nz };
    for (int k = 0; k < 10; k++)
        if (memcmp(dx[k], dy[k], n * sizeof(double)))
            return false;
    return true;
}

/* Deep copy of a frame's outputs (the context's arrays are reused). */
typedef struct frame_copy {
    gjkb_frame f;
    void *mem[14];
} frame_copy;

static void frame_copy_make(frame_copy *c, const gjkb_frame *f)
{
    uint32_t n = f->pairs.count ? f->pairs.count : 1;
    c->f = *f;
    void *src[14] = { (void *)f->pairs.a, (void *)f->pairs.b, f->results.status, f->results.iterations,
                      f->results.distance, f->results.ax, f->results.ay, f->results.az, f->results.bx, f->results.by,
                      f->results.bz, f->results.nx, f->results.ny, f->results.nz };
    size_t elem[14] = { 4, 4, 1, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8 };
    for (int k = 0; k < 14; k++) {
        /* hit mode: no points */
        c->mem[k] = src[k] ? tu_realloc(NULL, n * elem[k]) : NULL;
        if (src[k])
            memcpy(c->mem[k], src[k], f->pairs.count * elem[k]);
    }
    c->f.pairs.a = c->mem[0], c->f.pairs.b = c->mem[1];
    c->f.results.status = c->mem[2], c->f.results.iterations = c->mem[3], c->f.results.distance = c->mem[4];
    c->f.results.ax = c->mem[5], c->f.results.ay = c->mem[6], c->f.results.az = c->mem[7];
    c->f.results.bx = c->mem[8], c->f.results.by = c->mem[9], c->f.results.bz = c->mem[10];
    c->f.results.nx = c->mem[11], c->f.results.ny = c->mem[12], c->f.results.nz = c->mem[13];
}

static void frame_copy_free(frame_copy *c)
{
    for (int k = 0; k < 14; k++)
        free(c->mem[k]);
}

/* 1, 2 and 3 threads: the same pairs and the same result bits, on a frame
 * large enough for every stage to split. */
static void test_step_threads(void **state)
{
    (void)state;
    if (!have_threads()) {
        gjkb_context *ctx = make_context(GJKB_BACKEND_AUTO);
        assert_int_equal(gjkb_set_threads(ctx, 2), GJKB_ERR_UNSUPPORTED);
        assert_int_equal(gjkb_set_threads(ctx, 1), GJKB_OK);
        gjkb_destroy(ctx);
        skip();
    }
    world w;
    world_make(&w, 8000, 2.0, 32);
    gjkb_bodies bodies = tu_batch_bodies(&w.t);
    static const gjkb_backend backends[] = { GJKB_BACKEND_AUTO, GJKB_BACKEND_SCALAR };
    for (size_t k = 0; k < sizeof backends / sizeof backends[0]; k++) {
        gjkb_context *ctx = world_context(&w, backends[k]);
        gjkb_query q = { .mode = GJKB_DISTANCE };
        frame_copy one;
        memset(&one, 0, sizeof one);
        for (int t = 1; t <= 3; t++) {
            assert_int_equal(gjkb_set_threads(ctx, t), GJKB_OK);
            assert_int_equal(gjkb_get_threads(ctx), t);
            gjkb_frame f;
            assert_int_equal(gjkb_step(ctx, &bodies, NULL, &q, &f), GJKB_OK);
            assert_true(f.pairs.count > 3 * 4 * 256);   /* enough chunks for three threads */
            if (t == 1)
                frame_copy_make(&one, &f);
            else if (!frames_identical(&one.f, &f))
                fail_msg("%s: %d threads give other bits than one", gjkb_backend_name(gjkb_context_backend(ctx)), t);
        }
        frame_copy_free(&one);
        gjkb_destroy(ctx);
    }
    world_free(&w);
}

/* Big hulls past the first size classes, up to the last (capped) one. */
static const uint32_t big_hull_n[] = { 40, 130, 300 };
#define N_BIG (sizeof big_hull_n / sizeof big_hull_n[0])

static int drop_sevenths(void *user, uint32_t a, uint32_t b)
{
    (void)user;
    return (a + 3u * b) % 7u != 0;
}

/* The bucket keys keep their numbers (the order of the buckets is the
 * order of the bundles): analytic pairs hi * 5 + lo of their kinds, pairs
 * with a hull 25 plus the larger hull's size in steps of 8 points, capped
 * at 33; the info carries both kinds as they are. */
static void test_pair_keys_pinned(void **state)
{
    (void)state;
    assert_int_equal(GJKB_KEY_HULL, 25);
    assert_int_equal(GJKB_KEYS, 59);
    for (unsigned ka = 0; ka < GJKB_HULL; ka++)
        for (unsigned kb = 0; kb < GJKB_HULL; kb++) {
            unsigned hi = ka > kb ? ka : kb, lo = ka > kb ? kb : ka;
            assert_int_equal(gjkb__pair_info(gjkb__body_class(ka, 0), gjkb__body_class(kb, 0)),
                             (hi * 5 + lo) | ka << 8 | kb << 16);
        }
    static const int32_t n[][3] = { { 0, 0, 25 }, { 1, 0, 26 }, { 8, 9, 27 }, { 16, 3, 27 },
                                    { 264, 1, 58 }, { 265, 0, 58 }, { 100000, 7, 58 } };
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
        unsigned hull_a = gjkb__body_class(GJKB_HULL, n[i][0]), hull_b = gjkb__body_class(GJKB_HULL, n[i][1]);
        unsigned key = (unsigned)n[i][2];
        assert_int_equal(gjkb__pair_info(hull_a, hull_b), key | GJKB_HULL << 8 | GJKB_HULL << 16);
        assert_int_equal(gjkb__pair_info(hull_b, hull_a), key | GJKB_HULL << 8 | GJKB_HULL << 16);
        assert_int_equal(gjkb__pair_info(hull_a, gjkb__body_class(GJKB_CONE, 0)),
                         (gjkb__hull_class(n[i][0]) + 25) | GJKB_HULL << 8 | GJKB_CONE << 16);
    }
}

/* gjkb_step's narrowphase buckets the pairs by the info the sweep wrote
 * (wide backends): its answers must be gjkb_query_batch's on the frame's
 * own pairs, bit for bit, in both modes, on every backend and 1 to 3
 * threads, with static bodies and a filter dropping pairs after the sweep.
 * The info itself is checked too against gjkb__pair_info of the two
 * bodies' classes. */
static void test_step_info(void **state)
{
    (void)state;
    world w;
    world_make(&w, 8000, 2.0, 33);
    tu_rng r = tu_rng_make(34);
    float *big[N_BIG];
    for (size_t k = 0; k < N_BIG; k++) {
        big[k] = tu_realloc(NULL, 3 * big_hull_n[k] * sizeof(float));
        tu_random_hull_points(&r, big[k], big_hull_n[k]);
        /* on the unit sphere: every point a hull vertex, so the hull's
         * size class is its point count's */
        for (uint32_t i = 0; i < big_hull_n[k]; i++) {
            float *p = big[k] + 3 * i;
            double l = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
            for (int c = 0; c < 3; c++)
                p[c] = (float)(p[c] / l);
        }
    }
    /* Every third hull body takes one of the big hulls. */
    uint32_t *hull = tu_realloc(NULL, w.t.nb * sizeof(uint32_t));
    uint8_t *flags = tu_realloc(NULL, w.t.nb);
    uint32_t nth = 0;
    for (uint32_t i = 0; i < w.t.nb; i++) {
        hull[i] = w.t.hull[i];
        if (w.t.kind[i] == GJKB_HULL && nth++ % 3 == 0)
            hull[i] = N_HULLS + (uint32_t)tu_below(&r, N_BIG);
        flags[i] = i % 13 < 4 ? GJKB_BODY_STATIC : 0;
    }
    gjkb_bodies bodies = tu_batch_bodies(&w.t);
    bodies.hull = hull;
    gjkb_broadphase_options opt = { flags, drop_sevenths, NULL };

    int max_threads = have_threads() ? 3 : 1;
    uint32_t checked = 0;
    for (int be = GJKB_BACKEND_REFERENCE; be < GJKB_BACKEND_COUNT; be++) {
        if (!gjkb_backend_available((gjkb_backend)be))
            continue;
        const char *name = gjkb_backend_name((gjkb_backend)be);
        gjkb_context *ctx = world_context(&w, (gjkb_backend)be);
        for (size_t k = 0; k < N_BIG; k++) {
            uint32_t id;
            assert_int_equal(gjkb_hull_add(ctx, big[k], big_hull_n[k], &id), GJKB_OK);
            assert_int_equal(id, N_HULLS + k);
        }
        for (int t = 1; t <= max_threads; t++) {
            assert_int_equal(gjkb_set_threads(ctx, t), GJKB_OK);
            for (int mode = 0; mode < 2; mode++) {
                gjkb_query q = { .mode = mode ? GJKB_DISTANCE : GJKB_HIT };
                gjkb_frame f;
                if (gjkb_step(ctx, &bodies, &opt, &q, &f) != GJKB_OK)
                    fail_msg("%s: %s", name, gjkb_last_error(ctx));
                uint32_t n = f.pairs.count;
                assert_true(n > 3 * 4 * 256);

                /* The info, pair by pair, on every backend (the pairs
                 * are grouped by its key everywhere; only the reference's
                 * narrowphase ignores it), and the keys in groups. */
                const uint32_t *info = gjkb__step_info(ctx);
                assert_non_null(info);
                unsigned seen_hull_keys = 0;
                for (uint32_t i = 0; i < n; i++) {
                    uint32_t a = f.pairs.a[i], b = f.pairs.b[i];
                    unsigned ca = gjkb__body_class(bodies.kind[a], ctx->hull_n[hull[a]]);
                    unsigned cb = gjkb__body_class(bodies.kind[b], ctx->hull_n[hull[b]]);
                    if (info[i] != gjkb__pair_info(ca, cb))
                        fail_msg("%s, %d threads: pair %u (%u, %u): info %#x, want %#x", name, t, i, a, b,
                                 info[i], gjkb__pair_info(ca, cb));
                    if (i > 0 && gjkb__info_key(info[i]) < gjkb__info_key(info[i - 1]))
                        fail_msg("%s, %d threads: pair %u: key %u after %u", name, t, i, gjkb__info_key(info[i]),
                                 gjkb__info_key(info[i - 1]));
                    seen_hull_keys |= gjkb__info_key(info[i]) == GJKB_KEYS - 1 ? 1u : 0u;
                    seen_hull_keys |= gjkb__info_key(info[i]) == GJKB_KEY_HULL + 5 ? 2u : 0u;
                }
                assert_int_equal(seen_hull_keys, 3);   /* the capped class and a middle one came up */

                /* The frame's answers are the batch call's on its pairs. */
                frame_copy got;
                frame_copy_make(&got, &f);
                bool points = mode == 1;
                uint8_t *status = tu_realloc(NULL, n);
                uint32_t *iters = tu_realloc(NULL, n * 4);
                double *d[10];
                for (int k = 0; k < 10; k++)
                    d[k] = tu_realloc(NULL, n * sizeof(double));
                gjkb_results res = { status, d[0], points ? d[1] : NULL, points ? d[2] : NULL,
                                     points ? d[3] : NULL, points ? d[4] : NULL, points ? d[5] : NULL,
                                     points ? d[6] : NULL, points ? d[7] : NULL, points ? d[8] : NULL,
                                     points ? d[9] : NULL, iters, {0} };
                assert_int_equal(gjkb_query_batch(ctx, &bodies, &got.f.pairs, &q, &res), GJKB_OK);
                if (memcmp(status, got.f.results.status, n) || memcmp(iters, got.f.results.iterations, n * 4) ||
                    memcmp(d[0], got.f.results.distance, n * sizeof(double)))
                    fail_msg("%s, %d threads, mode %d: the frame's answers differ from the batch call's", name, t,
                             mode);
                const double *fp[9] = { got.f.results.ax, got.f.results.ay, got.f.results.az,
                                        got.f.results.bx, got.f.results.by, got.f.results.bz,
                                        got.f.results.nx, got.f.results.ny, got.f.results.nz };
                for (int k = 0; points && k < 9; k++)
                    if (memcmp(d[1 + k], fp[k], n * sizeof(double)))
                        fail_msg("%s, %d threads: the frame's points differ from the batch call's", name, t);
                free(status);
                free(iters);
                for (int k = 0; k < 10; k++)
                    free(d[k]);
                frame_copy_free(&got);
                checked++;
            }
        }
        /* find_pairs after a step leaves no info behind. */
        gjkb_aabbs none = { 0, NULL, NULL, NULL, NULL, NULL, NULL };
        gjkb_pairs fp;
        assert_int_equal(gjkb_find_pairs(ctx, &none, NULL, &fp), GJKB_OK);
        assert_null(gjkb__step_info(ctx));
        gjkb_destroy(ctx);
    }
    assert_true(checked >= 2);
    for (size_t k = 0; k < N_BIG; k++)
        free(big[k]);
    free(hull);
    free(flags);
    world_free(&w);
}

/* ---- arguments ------------------------------------------------------------------------- */

static void test_arguments(void **state)
{
    (void)state;
    gjkb_context *ctx = make_context(GJKB_BACKEND_AUTO);
    tu_batch t;
    memset(&t, 0, sizeof t);
    gjkb_shape s = tu_box(1, 1, 1);
    tu_batch_body(&t, &s);
    tu_batch_body(&t, &s);
    gjkb_bodies bodies = tu_batch_bodies(&t);
    boxset b = boxset_make(2);
    gjkb_aabbs a = boxset_view(&b);
    gjkb_pairs p;
    gjkb_frame f;

    /* threads */
    assert_int_equal(gjkb_get_threads(ctx), 1);
    assert_int_equal(gjkb_set_threads(ctx, -1), GJKB_ERR_ARGUMENT);
    assert_int_equal(gjkb_set_threads(ctx, 1 << 20), GJKB_ERR_ARGUMENT);
    assert_int_equal(gjkb_set_threads(ctx, 0), GJKB_OK);
    assert_int_equal(gjkb_get_threads(ctx), 1);
    assert_int_equal(gjkb_set_threads(NULL, 1), GJKB_ERR_NULL);
    assert_int_equal(gjkb_get_threads(NULL), 0);

    /* bounds */
    assert_int_equal(gjkb_bounds(NULL, &bodies, &a), GJKB_ERR_NULL);
    assert_int_equal(gjkb_bounds(ctx, NULL, &a), GJKB_ERR_NULL);
    assert_int_equal(gjkb_bounds(ctx, &bodies, NULL), GJKB_ERR_NULL);
    a.count = 1;
    assert_int_equal(gjkb_bounds(ctx, &bodies, &a), GJKB_ERR_ARGUMENT);
    a.count = 2;
    a.max_y = NULL;
    assert_int_equal(gjkb_bounds(ctx, &bodies, &a), GJKB_ERR_NULL);
    a = boxset_view(&b);
    t.kind[1] = GJKB_KIND_COUNT;
    assert_int_equal(gjkb_bounds(ctx, &bodies, &a), GJKB_ERR_KIND);
    assert_int_equal(gjkb_step(ctx, &bodies, NULL, NULL, &f), GJKB_ERR_KIND);
    t.kind[1] = GJKB_HULL;
    t.hull[1] = 0;   /* no hulls registered */
    assert_int_equal(gjkb_bounds(ctx, &bodies, &a), GJKB_ERR_RANGE);
    assert_true(strlen(gjkb_last_error(ctx)) > 0);
    bodies.hull = NULL;
    assert_int_equal(gjkb_bounds(ctx, &bodies, &a), GJKB_ERR_NULL);
    bodies = tu_batch_bodies(&t);
    t.kind[1] = GJKB_BOX;
    bodies.sy = NULL;
    assert_int_equal(gjkb_bounds(ctx, &bodies, &a), GJKB_ERR_NULL);
    bodies = tu_batch_bodies(&t);
    bodies.margin = NULL;   /* optional */
    assert_int_equal(gjkb_bounds(ctx, &bodies, &a), GJKB_OK);
    assert_string_equal(gjkb_last_error(ctx), "");
    gjkb_bodies none = { 0 };
    gjkb_aabbs no_boxes = { 0 };
    assert_int_equal(gjkb_bounds(ctx, &none, &no_boxes), GJKB_OK);

    /* find_pairs */
    assert_int_equal(gjkb_find_pairs(NULL, &a, NULL, &p), GJKB_ERR_NULL);
    assert_int_equal(gjkb_find_pairs(ctx, NULL, NULL, &p), GJKB_ERR_NULL);
    assert_int_equal(gjkb_find_pairs(ctx, &a, NULL, NULL), GJKB_ERR_NULL);
    a.min_z = NULL;
    assert_int_equal(gjkb_find_pairs(ctx, &a, NULL, &p), GJKB_ERR_NULL);
    a = boxset_view(&b);
    assert_int_equal(gjkb_find_pairs(ctx, &a, NULL, &p), GJKB_OK);
    assert_int_equal(p.count, 1);
    assert_int_equal(gjkb_find_pairs(ctx, &no_boxes, NULL, &p), GJKB_OK);
    assert_int_equal(p.count, 0);

    /* step */
    bodies = tu_batch_bodies(&t);
    assert_int_equal(gjkb_step(NULL, &bodies, NULL, NULL, &f), GJKB_ERR_NULL);
    assert_int_equal(gjkb_step(ctx, NULL, NULL, NULL, &f), GJKB_ERR_NULL);
    assert_int_equal(gjkb_step(ctx, &bodies, NULL, NULL, NULL), GJKB_ERR_NULL);
    gjkb_query bad = { .mode = (gjkb_mode)7 };
    assert_int_equal(gjkb_step(ctx, &bodies, NULL, &bad, &f), GJKB_ERR_KIND);
    double w[1] = { 1 };
    gjkb_query warm = { .mode = GJKB_HIT, .warm_x = w, .warm_y = w, .warm_z = w };
    assert_int_equal(gjkb_step(ctx, &bodies, NULL, &warm, &f), GJKB_ERR_ARGUMENT);
    assert_int_equal(gjkb_step(ctx, &bodies, NULL, NULL, &f), GJKB_OK);
    assert_int_equal(f.pairs.count, 1);
    assert_int_equal(f.hits, 1);
    assert_int_equal(f.results.status[0], GJKB_OVERLAP);
    assert_int_equal(gjkb_step(ctx, &none, NULL, NULL, &f), GJKB_OK);
    assert_int_equal(f.pairs.count, 0);
    assert_int_equal(f.hits, 0);

    boxset_free(&b);
    tu_batch_free(&t);
    gjkb_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sap_random),
        cmocka_unit_test(test_sap_degenerate),
        cmocka_unit_test(test_sap_special_values),
        cmocka_unit_test(test_flags_and_filter),
        cmocka_unit_test(test_bounds_exact_extent),
        cmocka_unit_test(test_bounds_rounding),
        cmocka_unit_test(test_bounds_rounding_edges),
        cmocka_unit_test(test_bounds_validity),
        cmocka_unit_test(test_step_against_reference),
        cmocka_unit_test(test_step_threads),
        cmocka_unit_test(test_pair_keys_pinned),
        cmocka_unit_test(test_step_info),
        cmocka_unit_test(test_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
