/* compare_bullet.c - `gjkbatch run --compare bullet` (compare_bullet.h).
 *
 * Each frame the world moves once, then four engines take it in a
 * rotating order (so that none always runs on caches another warmed):
 * gjkb_step in the run's mode, gjkb_step in hit mode, and Bullet's world
 * with each of its two broadphases. Then each Bullet world's touching
 * pairs are matched with gjkbatch's: pairs both call touching compare
 * their depths and contact counts, and every pair only one calls touching
 * is decided by the reference backend's signed distance. */
#include "compare_bullet.h"

#include "frame_bullet.h"
#include "progress.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The touching band, relative to the pair's scale, as --verify has it. */
#define CMP_BAND 1e-4
#define CMP_LABEL 24

enum { ENG_MAIN, ENG_HIT, ENG_BT, ENGINES = ENG_BT + FRAME_BT_KINDS };
/* Columns of the time table: the whole frame, then its stages. */
enum { COL_FRAME, COL_BOUNDS, COL_BROAD, COL_NARROW, COL_CACHE, COLS };

/* A touching pair: (a << 32 | b), its signed distance and contact points. */
typedef struct touch {
    uint64_t key;
    double distance;
    uint32_t points;
} touch;

/* One Bullet world's agreement with gjkbatch, summed over the frames. */
typedef struct agreement {
    uint64_t candidates, touching, both, same_count, points_gjkb, points_bt;
    uint64_t band, gjkb_wrong, bt_missed, bt_false;
    double *depth_err;         /* per pair both call touching: |difference| / scale */
    size_t depth_n, depth_cap;
} agreement;

typedef struct cmp_run {
    const compare_setup *cs;
    gjkb_bodies bodies;
    gjkb_broadphase_options bo;
    gjkb_query q, hq;
    gjkb_frame fr, hfr;
    frame_bullet *bt[FRAME_BT_KINDS];
    frame_bullet_out out[FRAME_BT_KINDS];
    double *sec;               /* ENGINES x COLS x frames */
    uint64_t candidates, touching, points;   /* gjkbatch's, over the frames */
    touch *mine;
    size_t mine_cap;
    agreement ag[FRAME_BT_KINDS];
} cmp_run;

static double *cell(const cmp_run *r, int engine, int col, uint32_t f)
{
    return r->sec + ((size_t)engine * COLS + (size_t)col) * r->cs->o->frames + (f - 1);
}

/* ---- setting up ------------------------------------------------------------ */

/* Bullet's worlds on the world's bodies: its sweep's box holds every
 * body's box (centres within half, bodies reach max_radius beyond). */
static int make_bullet(cmp_run *r)
{
    const world *w = r->cs->w;
    frame_bullet_hulls h = { w->lib.hull_count, w->lib.hull_xyz, w->lib.hull_first, w->lib.hull_n };
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        hi[k] = w->half[k] + w->max_radius + 1.0;
        lo[k] = -hi[k];
    }
    for (int k = 0; k < FRAME_BT_KINDS; k++)
        if (!(r->bt[k] = frame_bullet_new(k, &r->bodies, w->flags, &h, lo, hi)))
            return -1;
    return 0;
}

static int step_gjkb(cmp_run *r, gjkb_context *ctx, const gjkb_query *q, gjkb_frame *fr, int engine, uint32_t f)
{
    double t0 = now_seconds();
    if (gjkb_step(ctx, &r->bodies, &r->bo, q, fr) != GJKB_OK) {
        progress_clear();
        fprintf(stderr, "gjkbatch: frame %lu: %s\n", (unsigned long)f, gjkb_last_error(ctx));
        return -1;
    }
    *cell(r, engine, COL_FRAME, f) = now_seconds() - t0;
    *cell(r, engine, COL_BOUNDS, f) = fr->seconds[0];
    *cell(r, engine, COL_BROAD, f) = fr->seconds[1] + fr->seconds[2];
    *cell(r, engine, COL_NARROW, f) = fr->seconds[3];
    *cell(r, engine, COL_CACHE, f) = fr->cache_seconds;
    return 0;
}

static int step_bullet(cmp_run *r, int k, uint32_t f)
{
    frame_bullet_out *o = &r->out[k];
    if (frame_bullet_step(r->bt[k], &r->bodies, o)) {
        progress_clear();
        fprintf(stderr, "gjkbatch: Bullet: out of memory\n");
        return -1;
    }
    int e = ENG_BT + k;
    *cell(r, e, COL_FRAME, f) = o->seconds[0] + o->seconds[1] + o->seconds[2];
    *cell(r, e, COL_BOUNDS, f) = o->seconds[0];
    *cell(r, e, COL_BROAD, f) = o->seconds[1];
    *cell(r, e, COL_NARROW, f) = o->seconds[2];
    *cell(r, e, COL_CACHE, f) = 0.0;
    return 0;
}

/* Engine e's frame f. In hit mode the run's own frame is the hit frame:
 * the second context does not run (its row is not printed). */
static int step_engine(cmp_run *r, int e, uint32_t f)
{
    const compare_setup *cs = r->cs;
    if (e == ENG_MAIN)
        return step_gjkb(r, cs->ctx, &r->q, &r->fr, e, f);
    if (e == ENG_HIT) {
        if (cs->o->mode != GJKB_HIT)
            return step_gjkb(r, cs->hit, &r->hq, &r->hfr, e, f);
        for (int c = 0; c < COLS; c++)
            *cell(r, e, c, f) = 0.0;
        return 0;
    }
    return step_bullet(r, e - ENG_BT, f);
}

/* ---- matching the touching pairs ------------------------------------------- */

static int touch_cmp(const void *x, const void *y)
{
    uint64_t a = ((const touch *)x)->key, b = ((const touch *)y)->key;
    return a < b ? -1 : a > b;
}

/* gjkbatch's touching pairs of the frame, sorted; their count. */
static size_t my_touching(cmp_run *r)
{
    const gjkb_frame *fr = &r->fr;
    if (r->mine_cap < fr->hits + 1u) {
        free(r->mine);
        r->mine_cap = (size_t)fr->hits + fr->hits / 2 + 1;
        if (!(r->mine = malloc(r->mine_cap * sizeof *r->mine)))
            return SIZE_MAX;
    }
    size_t n = 0;
    const uint8_t *count = fr->results.manifold.count;
    for (uint32_t i = 0; i < fr->pairs.count; i++)
        if (fr->results.status[i] == GJKB_OVERLAP)
            r->mine[n++] = (touch){ (uint64_t)fr->pairs.a[i] << 32 | fr->pairs.b[i],
                                    fr->results.distance ? fr->results.distance[i] : NAN, count ? count[i] : 0 };
    qsort(r->mine, n, sizeof *r->mine, touch_cmp);
    r->touching += n;
    for (size_t i = 0; i < n; i++)
        r->points += r->mine[i].points;
    return n;
}

static gjkb_shape body_shape(const world *w, uint32_t i)
{
    gjkb_shape s = { .kind = (gjkb_kind)w->kind[i], .size = { w->sx[i], w->sy[i], w->sz[i] },
                     .margin = w->margin[i], .hull = w->hull[i],
                     .pos = { w->px[i], w->py[i], w->pz[i] }, .rot = { w->qw[i], w->qx[i], w->qy[i], w->qz[i] } };
    return s;
}

/* The reference's signed distance of bodies a and b (contact mode: minus
 * the depth when they overlap); NaN when it has none. */
static double reference_distance(const compare_setup *cs, uint32_t a, uint32_t b)
{
    gjkb_shape sa = body_shape(cs->w, a), sb = body_shape(cs->w, b);
    gjkb_query q = { .mode = GJKB_CONTACT };
    gjkb_result res;
    if (gjkb_query_pair(cs->ref, &sa, &sb, &q, &res) != GJKB_OK || res.status == GJKB_INVALID)
        return NAN;
    return res.distance;
}

/* One disagreement outside the band, on stderr. */
static void show(const cmp_run *r, int k, uint32_t f, uint32_t a, uint32_t b, double d, int mine, int bt)
{
    const world *w = r->cs->w;
    progress_clear();
    fprintf(stderr, "  %s frame %lu bodies %lu-%lu (%s-%s, scale %.4g): reference %.6g; gjkbatch %s, Bullet %s\n",
            frame_bullet_name(r->bt[k]), (unsigned long)f, (unsigned long)a, (unsigned long)b,
            gjkb_kind_name((gjkb_kind)w->kind[a]), gjkb_kind_name((gjkb_kind)w->kind[b]),
            w->radius[a] + w->radius[b], d, mine ? "touching" : "apart", bt ? "touching" : "apart");
}

/* A pair one side calls touching and the other not, decided by the
 * reference's signed distance outside the band. */
static void decide(cmp_run *r, int k, uint32_t f, uint64_t key, int mine, int bt)
{
    agreement *ag = &r->ag[k];
    const world *w = r->cs->w;
    uint32_t a = (uint32_t)(key >> 32), b = (uint32_t)key;
    double d = reference_distance(r->cs, a, b), band = CMP_BAND * (w->radius[a] + w->radius[b]);
    if (!(fabs(d) > band)) {
        ag->band++;
        return;
    }
    int touching = d < 0.0;
    if (mine != touching) {
        ag->gjkb_wrong++;
    }
    if (bt != touching) {
        if (touching)
            ag->bt_missed++;
        else
            ag->bt_false++;
    }
    if (mine != touching || bt != touching)
        show(r, k, f, a, b, d, mine, bt);
}

static void both_touching(agreement *ag, const world *w, const touch *m, double bt_distance, uint32_t bt_points)
{
    uint32_t a = (uint32_t)(m->key >> 32), b = (uint32_t)m->key;
    if (ag->depth_n == ag->depth_cap) {
        size_t cap = ag->depth_cap ? 2 * ag->depth_cap : 4096;
        double *p = realloc(ag->depth_err, cap * sizeof *p);
        if (!p)
            return;
        ag->depth_err = p;
        ag->depth_cap = cap;
    }
    ag->depth_err[ag->depth_n++] = fabs(m->distance - bt_distance) / (w->radius[a] + w->radius[b]);
    ag->both++;
    ag->same_count += m->points == bt_points;
    ag->points_gjkb += m->points;
    ag->points_bt += bt_points;
}

/* Bullet world k's touching pairs against gjkbatch's n (sorted) of frame f. */
static void match(cmp_run *r, int k, size_t n, uint32_t f)
{
    const frame_bullet_out *o = &r->out[k];
    agreement *ag = &r->ag[k];
    ag->candidates += o->candidates;
    ag->touching += o->touching;
    size_t i = 0, j = 0;
    while (i < n || j < o->touching) {
        uint64_t mk = i < n ? r->mine[i].key : UINT64_MAX;
        uint64_t bk = j < o->touching ? (uint64_t)o->a[j] << 32 | o->b[j] : UINT64_MAX;
        if (mk == bk) {
            both_touching(ag, r->cs->w, &r->mine[i], o->distance[j], o->points[j]);
            i++, j++;
        } else if (mk < bk) {
            decide(r, k, f, mk, 1, 0);
            i++;
        } else {
            decide(r, k, f, bk, 0, 1);
            j++;
        }
    }
}

/* ---- the frames --------------------------------------------------------------- */

static int run_frames(cmp_run *r)
{
    const options *o = r->cs->o;
    for (uint32_t f = 1; f <= o->frames; f++) {
        if (f > 1)
            world_advance(r->cs->w);
        for (int s = 0; s < ENGINES; s++)
            if (step_engine(r, (int)((s + f) % ENGINES), f))
                return -1;
        r->candidates += r->fr.pairs.count;
        size_t n = my_touching(r);
        if (n == SIZE_MAX)
            return -1;
        for (int k = 0; k < FRAME_BT_KINDS; k++)
            match(r, k, n, f);
        if (!o->quiet)
            progress_draw(f, o->frames, *cell(r, ENG_MAIN, COL_FRAME, f), &(double){ -INFINITY });
    }
    progress_clear();
    return 0;
}

/* ---- the report ------------------------------------------------------------------ */

static int double_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The q-quantile of v[0..n), sorted. */
static double quantile(const double *v, size_t n, double q)
{
    return n ? v[(size_t)(q * (double)(n - 1) + 0.5)] : NAN;
}

static double col_median(const cmp_run *r, int e, int c)
{
    return median(cell(r, e, c, 1), r->cs->o->frames);
}

static void print_times(const cmp_run *r, const char *names[ENGINES])
{
    const int W = CMP_LABEL;
    printf("\n%-*s %10s %10s %10s %12s %10s\n", W, "median per frame (ms)", "frame", "bounds", "broadphase",
           "narrowphase", "pair cache");
    for (int e = 0; e < ENGINES; e++) {
        if (e == ENG_HIT && r->cs->o->mode == GJKB_HIT)
            continue;
        printf("  %-*s", W - 2, names[e]);
        for (int c = 0; c < COLS; c++)
            printf(c == COL_NARROW ? " %12.3f" : " %10.3f", col_median(r, e, c) * 1e3);
        putchar('\n');
    }
}

static void print_agreement(cmp_run *r, int k, uint32_t frames)
{
    const int W = CMP_LABEL;
    agreement *ag = &r->ag[k];
    printf("\n%s against gjkbatch (%s mode):\n", frame_bullet_name(r->bt[k]), mode_name(r->cs->o->mode));
    printf("  %-*s %.1f (gjkbatch %.1f)\n", W - 2, "candidate pairs/frame:", (double)ag->candidates / frames,
           (double)r->candidates / frames);
    printf("  %-*s %.1f (gjkbatch %.1f)\n", W - 2, "touching pairs/frame:", (double)ag->touching / frames,
           (double)r->touching / frames);
    printf("  %-*s %llu within the band (|reference| <= %g of the scale)\n", W - 2, "disagreements:",
           (unsigned long long)ag->band, CMP_BAND);
    printf("  %-*s %llu gjkbatch against the reference; Bullet: %llu overlaps missed, %llu false\n", W - 2,
           "  outside the band:", (unsigned long long)ag->gjkb_wrong, (unsigned long long)ag->bt_missed,
           (unsigned long long)ag->bt_false);
    if (r->cs->o->mode != GJKB_CONTACT)
        return;
    double *d = ag->depth_err;
    size_t n = ag->depth_n;
    qsort(d, n, sizeof *d, double_cmp);
    printf("  %-*s %llu pairs: median %.3g, p99 %.3g, max %.3g of the scale\n", W - 2, "depth difference:",
           (unsigned long long)ag->both, quantile(d, n, 0.5), quantile(d, n, 0.99), quantile(d, n, 1.0));
    printf("  %-*s %.1f%% of those pairs; points/pair gjkbatch %.2f, Bullet %.2f\n", W - 2, "same contact count:",
           ag->both ? 100.0 * (double)ag->same_count / (double)ag->both : 0.0,
           ag->both ? (double)ag->points_gjkb / (double)ag->both : 0.0,
           ag->both ? (double)ag->points_bt / (double)ag->both : 0.0);
}

static int report(cmp_run *r)
{
    const options *o = r->cs->o;
    const int W = CMP_LABEL;
    char main_name[40];
    snprintf(main_name, sizeof main_name, "gjkbatch %s", mode_name(o->mode));
    const char *names[ENGINES] = { main_name, "gjkbatch hit", frame_bullet_name(r->bt[0]),
                                   frame_bullet_name(r->bt[1]) };
    printf("%-*s %lu bodies, %lu frames, seed %llu, %s, %d thread(s), pair cache %s\n", W, "compare bullet:",
           (unsigned long)r->cs->w->count, (unsigned long)o->frames, (unsigned long long)o->seed,
           gjkb_backend_name(gjkb_context_backend(r->cs->ctx)), gjkb_get_threads(r->cs->ctx),
           gjkb_get_pair_cache(r->cs->ctx) ? "on" : "off");
    print_times(r, names);
    double best = INFINITY;
    int fastest = 0;
    for (int k = 0; k < FRAME_BT_KINDS; k++) {
        double t = col_median(r, ENG_BT + k, COL_FRAME);
        if (t < best)
            best = t, fastest = k;
    }
    printf("\n%-*s %.1fx (%s mode)", W, "gjkbatch frame faster:", best / col_median(r, ENG_MAIN, COL_FRAME),
           mode_name(o->mode));
    if (o->mode != GJKB_HIT)
        printf(", %.1fx (hit mode)", best / col_median(r, ENG_HIT, COL_FRAME));
    printf(" against %s\n", frame_bullet_name(r->bt[fastest]));
    for (int k = 0; k < FRAME_BT_KINDS; k++)
        print_agreement(r, k, o->frames);
    uint64_t wrong = 0;
    for (int k = 0; k < FRAME_BT_KINDS; k++)
        wrong += r->ag[k].gjkb_wrong;
    printf("\n%-*s %s\n", W, "gjkbatch vs reference:", wrong ? "FAILED (see the lines above)" : "ok");
    return wrong || fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}

int compare_bullet(const compare_setup *cs)
{
    cmp_run r;
    memset(&r, 0, sizeof r);
    r.cs = cs;
    r.bodies = world_bodies(cs->w);
    r.bo = (gjkb_broadphase_options){ cs->w->flags, NULL, NULL };
    r.q = (gjkb_query){ .mode = cs->o->mode, .max_iterations = cs->o->max_iterations };
    r.hq = (gjkb_query){ .mode = GJKB_HIT, .max_iterations = cs->o->max_iterations };
    int status = EXIT_FAIL;
    r.sec = malloc(sizeof *r.sec * ENGINES * COLS * cs->o->frames);
    if (!r.sec || make_bullet(&r)) {
        fprintf(stderr, "gjkbatch: out of memory\n");
    } else if (!run_frames(&r)) {
        status = report(&r);
    }
    for (int k = 0; k < FRAME_BT_KINDS; k++) {
        frame_bullet_free(r.bt[k]);
        free(r.ag[k].depth_err);
    }
    free(r.mine);
    free(r.sec);
    return status;
}
