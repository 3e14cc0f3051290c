/* broad_harness.c - the broadphase scenes and the pair counters that check
 * gjkb_find_pairs and Bullet against them. */
#include "broad_harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const scene_names[BROAD_SCENES] = { "10k", "100k" };
static const uint32_t scene_sizes[BROAD_SCENES] = { 10000u, 100000u };

const char *bench_broad_scene_name(int scene)
{
    return scene >= 0 && scene < BROAD_SCENES ? scene_names[scene] : "?";
}

uint32_t bench_broad_scene_size(int scene)
{
    return scene >= 0 && scene < BROAD_SCENES ? scene_sizes[scene] : 0u;
}

/* splitmix64, as bench/workloads.h draws its workloads. */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi), 53 random bits. */
static double next_range(uint64_t *s, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(next_u64(s) >> 11) * (1.0 / 9007199254740992.0));
}

static void boxes_free(bench_boxes *b)
{
    free(b->min_x); free(b->min_y); free(b->min_z);
    free(b->max_x); free(b->max_y); free(b->max_z);
    memset(b, 0, sizeof *b);
}

static float *floats(uint32_t n)
{
    size_t bytes = ((size_t)n * sizeof(float) + 63u) & ~(size_t)63u;
    return aligned_alloc(64, bytes ? bytes : 64);
}

static int boxes_alloc(bench_boxes *b, uint32_t n)
{
    memset(b, 0, sizeof *b);
    b->count = n;
    b->min_x = floats(n); b->min_y = floats(n); b->min_z = floats(n);
    b->max_x = floats(n); b->max_y = floats(n); b->max_z = floats(n);
    if (!b->min_x || !b->min_y || !b->min_z || !b->max_x || !b->max_y || !b->max_z) {
        boxes_free(b);
        return -1;
    }
    b->aabbs = (gjkb_aabbs){ n, b->min_x, b->min_y, b->min_z, b->max_x, b->max_y, b->max_z };
    return 0;
}

/* Box i of b: centre c moved by d, half extents e, rounded to float. */
static void box_set(bench_boxes *b, uint32_t i, const double c[3], const double d[3], const double e[3])
{
    b->min_x[i] = (float)(c[0] + d[0] - e[0]);
    b->min_y[i] = (float)(c[1] + d[1] - e[1]);
    b->min_z[i] = (float)(c[2] + d[2] - e[2]);
    b->max_x[i] = (float)(c[0] + d[0] + e[0]);
    b->max_y[i] = (float)(c[1] + d[1] + e[1]);
    b->max_z[i] = (float)(c[2] + d[2] + e[2]);
}

/* The cube's half side that gives n boxes as many expected overlaps per box
 * as Terdiman's 10,000 in [-2048, 2048)^3. Along one axis two boxes whose
 * half extents sum to t overlap with probability 2t/L - t^2/L^2 (centres
 * uniform on a side L); t is the sum of two U[0, H) draws, so the mean over
 * t is p(L) = 2m/L - q/L^2 with m = H and q = E[t^2] = 7/6 H^2. Expected
 * overlaps per box are (n - 1)/2 p^3 (axes independent), so the target p
 * scales as cbrt(9999 / (n - 1)), and L solves a quadratic in 1/L. With
 * boxes per volume held instead, the larger cube would give 3% more
 * overlaps per box, having relatively fewer boxes near its faces. */
static double half_side_for(uint32_t n)
{
    const double n0 = (double)scene_sizes[BROAD_10K], l0 = 2.0 * BROAD_HALF_SIDE;
    const double m = BROAD_MAX_HALF, q = 7.0 / 6.0 * BROAD_MAX_HALF * BROAD_MAX_HALF;
    const double p0 = 2.0 * m / l0 - q / (l0 * l0);
    const double p = p0 * cbrt((n0 - 1.0) / ((double)n - 1.0));
    const double u = (m - sqrt(m * m - q * p)) / q;   /* 1 / L, the root near 2m / p */
    return 0.5 / u;
}

void bench_broad_free(bench_broad_scene *s)
{
    boxes_free(&s->base);
    boxes_free(&s->moved[0]);
    boxes_free(&s->moved[1]);
    memset(s, 0, sizeof *s);
}

int bench_broad_make(bench_broad_scene *s, int scene, uint64_t seed)
{
    uint32_t n = bench_broad_scene_size(scene);
    memset(s, 0, sizeof *s);
    if (n == 0)
        return -1;
    if (boxes_alloc(&s->base, n) != 0 || boxes_alloc(&s->moved[0], n) != 0 || boxes_alloc(&s->moved[1], n) != 0) {
        bench_broad_free(s);
        return -1;
    }
    s->scene = scene;
    const double half_side = half_side_for(n);
    uint64_t rng = seed * 0x2545F4914F6CDD1Dull + 0x62726F6164ull + (uint64_t)scene;
    const double still[3] = { 0, 0, 0 };
    for (uint32_t i = 0; i < n; i++) {
        double c[3], e[3], d[3];
        for (int a = 0; a < 3; a++)
            c[a] = next_range(&rng, -half_side, half_side);
        for (int a = 0; a < 3; a++)
            e[a] = next_range(&rng, 0.0, BROAD_MAX_HALF);
        box_set(&s->base, i, c, still, e);
        for (int k = 0; k < 2; k++) {
            for (int a = 0; a < 3; a++)
                d[a] = next_range(&rng, -BROAD_JITTER, BROAD_JITTER);
            box_set(&s->moved[k], i, c, d, e);
        }
    }
    /* Every centre, half extent and offset is within these bounds. */
    const double reach = half_side + BROAD_MAX_HALF + BROAD_JITTER + 1.0;
    for (int a = 0; a < 3; a++) {
        s->world_min[a] = (float)-reach;
        s->world_max[a] = (float)reach;
    }
    return 0;
}

/* ---- pair counters -------------------------------------------------------- */

uint64_t bench_broad_brute_count(const bench_boxes *b)
{
    const uint32_t n = b->count;
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float x0 = b->min_x[i], x1 = b->max_x[i], y0 = b->min_y[i], y1 = b->max_y[i];
        const float z0 = b->min_z[i], z1 = b->max_z[i];
        uint32_t hits = 0;   /* branch-free so the compiler vectorizes it */
        for (uint32_t j = i + 1; j < n; j++)
            hits += (unsigned)(b->min_x[j] <= x1) & (unsigned)(x0 <= b->max_x[j]) &
                    (unsigned)(b->min_y[j] <= y1) & (unsigned)(y0 <= b->max_y[j]) &
                    (unsigned)(b->min_z[j] <= z1) & (unsigned)(z0 <= b->max_z[j]);
        total += hits;
    }
    return total;
}

static const float *sort_keys;   /* qsort has no context argument */

static int by_min_x(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (sort_keys[a] != sort_keys[b])
        return sort_keys[a] < sort_keys[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

int64_t bench_broad_sorted_count(const bench_boxes *b)
{
    const uint32_t n = b->count;
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    sort_keys = b->min_x;
    qsort(order, n, sizeof *order, by_min_x);
    int64_t total = 0;
    for (uint32_t r = 0; r < n; r++) {
        uint32_t i = order[r];
        /* Later boxes start at or after i's min: they overlap i along x
         * exactly while they start at or before its max. */
        for (uint32_t q = r + 1; q < n && b->min_x[order[q]] <= b->max_x[i]; q++) {
            uint32_t j = order[q];
            total += b->min_y[j] <= b->max_y[i] && b->min_y[i] <= b->max_y[j] && b->min_z[j] <= b->max_z[i] &&
                     b->min_z[i] <= b->max_z[j];
        }
    }
    free(order);
    return total;
}

uint32_t bench_broad_overlapping(const bench_boxes *b, const uint32_t *a, const uint32_t *bb, uint32_t n)
{
    uint32_t hits = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = a[k], j = bb[k];
        hits += b->min_x[j] <= b->max_x[i] && b->min_x[i] <= b->max_x[j] && b->min_y[j] <= b->max_y[i] &&
                b->min_y[i] <= b->max_y[j] && b->min_z[j] <= b->max_z[i] && b->min_z[i] <= b->max_z[j];
    }
    return hits;
}
