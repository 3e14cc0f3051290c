/* cmd_run.c - `gjkbatch run`: a world of moving mixed bodies (world.h)
 * stepped frame by frame through gjkb_step (bounds, sweep-and-prune,
 * narrowphase), the per-stage times reported; optionally every frame
 * verified against the reference backend and one frame drawn as SVG. */
#define _POSIX_C_SOURCE 200809L /* isatty */

#include "backend_context.h"
#ifdef GJKB_HAVE_BULLET
#include "compare_bullet.h"
#endif
#include "commands.h"
#include "options.h"
#include "outfile.h"
#include "progress.h"
#include "results.h"
#include "snapshot.h"
#include "timing.h"
#include "verify.h"
#include "world.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Width of the labels of run's report. */
#define RUN_LABEL 24

/* Stages of gjkb_frame.seconds, its cache_seconds, then the wall time of
 * the whole call. */
enum { STAGE_BOUNDS, STAGE_SORT, STAGE_SWEEP, STAGE_NARROW, STAGE_CACHE, STAGE_FRAME, STAGES };
static const char *const stage_names[STAGES] = { "bounds", "sort", "sweep", "narrowphase", "pair cache",
                                                 "frame (gjkb_step)" };

/* What the timed pass adds up over its frames (contact mode: points and
 * the overlapping pairs' depths; the iterations and warm starts apart for
 * frame 1, which has no last frame to start from). */
typedef struct run_totals {
    uint64_t pairs, hits, contacts;
    double depth;
    uint64_t iter_first, pairs_first, iter_rest, pairs_rest, warm_rest;
    uint64_t hash;           /* of every frame's answers, for comparing runs */
} run_totals;

/* --verify with the pair cache: the frame's (warm) answers against the
 * reference started cold. */
typedef struct warm_counts {
    uint64_t pairs, band, flips, far, counts;
    double worst;            /* largest distance or depth difference / scale */
} warm_counts;

/* Everything a run holds between its steps. */
typedef struct run_state {
    options o;
    uint32_t snapshot_frame;        /* the frame --snapshot draws */
    world w;
    gjkb_context *ctx, *ref_ctx;    /* ref_ctx: --verify only */
    result_buf ref_rb;              /* the reference's answers, for ref_cap pairs */
    result_buf cold_rb;             /* with the pair cache: the reference started cold */
    uint32_t ref_cap;
    warm_counts wc;
    double *seconds;                /* STAGES x frames */
    run_totals tot;
    verify_counts vc;
    gjkb_bodies bodies;             /* views of w */
    gjkb_broadphase_options bo;
    gjkb_query q;
    gjkb_frame fr;
    int progress;                   /* draw the progress bar */
    double last_draw;
} run_state;

/* Parses run's options into o: 0, or the exit status after usage. */
static int run_options(int argc, char **argv, options *o)
{
    if (parse_options(argc, argv, 2,
                      OPT_MODE | OPT_BACKEND | OPT_ITER | OPT_SEED | OPT_BODIES | OPT_FRAMES | OPT_THREADS |
                          OPT_VERIFY | OPT_SNAPSHOT | OPT_SNAPSHOT_FRAME | OPT_QUIET | OPT_COLD | OPT_COMPARE,
                      0, o))
        return EXIT_USAGE;
    if (o->compare && (o->verify || o->snapshot))
        return usage_error("%s", "--compare bullet makes its own checks: no --verify or --snapshot with it");
    if (o->snapshot_frame && !o->snapshot)
        return usage_error("%s", "--snapshot-frame needs --snapshot FILE.svg");
    if (o->snapshot_frame > o->frames) {
        char frames[16];
        snprintf(frames, sizeof frames, "%lu", (unsigned long)o->frames);
        return usage_error("--snapshot-frame is after the last frame (%s)", frames);
    }
    return 0;
}

/* ---- setting up ------------------------------------------------------------ */

/* The world for the options' seed, and the library's views of it; nonzero
 * after a message. */
static int run_world(run_state *rs)
{
    if (world_create(&rs->w, rs->o.bodies, rs->o.seed)) {
        progress_clear();
        fprintf(stderr, "gjkbatch: out of memory for %lu bodies\n", (unsigned long)rs->o.bodies);
        return -1;
    }
    rs->bodies = world_bodies(&rs->w);
    rs->bo = (gjkb_broadphase_options){ rs->w.flags, NULL, NULL };
    return 0;
}

/* A context for run: backend, threads, the world's hulls. */
static gjkb_context *run_context(gjkb_backend backend, uint32_t threads, const world *w)
{
    gjkb_context *ctx = create_context(backend);
    if (!ctx)
        return NULL;
    if (gjkb_set_threads(ctx, (int)threads) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: --threads %lu: %s\n", (unsigned long)threads, gjkb_last_error(ctx));
    } else {
        gjkb_error e = world_register_hulls(w, ctx);
        if (e == GJKB_OK)
            return ctx;
        fprintf(stderr, "gjkbatch: registering hulls: %s\n", gjkb_error_string(e));
    }
    gjkb_destroy(ctx);
    return NULL;
}

/* The time table, the contexts, and one untimed step that sizes the
 * context's buffers for this scene; nonzero after a message. */
static int run_start(run_state *rs)
{
    rs->seconds = malloc(sizeof *rs->seconds * STAGES * rs->o.frames);
    if (!rs->seconds) {
        fprintf(stderr, "gjkbatch: out of memory\n");
        return -1;
    }
    if (!(rs->ctx = run_context(rs->o.backend, rs->o.threads, &rs->w)))
        return -1;
    if (gjkb_set_pair_cache(rs->ctx, !rs->o.cold) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: %s\n", gjkb_last_error(rs->ctx));
        return -1;
    }
    if (rs->o.verify && !(rs->ref_ctx = run_context(GJKB_BACKEND_REFERENCE, rs->o.threads, &rs->w)))
        return -1;
    rs->q = (gjkb_query){ rs->o.mode, rs->o.max_iterations, 0.0, 0.0, NULL, NULL, NULL };
    if (gjkb_step(rs->ctx, &rs->bodies, &rs->bo, &rs->q, &rs->fr) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: %s\n", gjkb_last_error(rs->ctx));
        return -1;
    }
    /* frame 1 of the timed pass starts cold, as a real first frame would */
    gjkb_pair_cache_reset(rs->ctx);
    return 0;
}

/* ---- one frame --------------------------------------------------------------- */

/* --snapshot: the current frame as an SVG file. */
static int write_snapshot(const run_state *rs, uint32_t frame)
{
    const gjkb_frame *fr = &rs->fr;
    snapshot_label label = { frame, rs->o.frames, gjkb_backend_name(gjkb_context_backend(rs->ctx)),
                             fr->results.manifold.count != NULL };
    outfile out;
    int err = outfile_open(&out, rs->o.snapshot);
    if (!err) {
        errno = 0;  /* set again by a failed write, or by calloc when memory ran out */
        err = snapshot_write(out.f, &rs->w, &fr->pairs, &fr->results, &label)
                  ? outfile_abort(&out, errno ? errno : ENOMEM)
                  : outfile_commit(&out);
    }
    if (err) {
        progress_clear();
        fprintf(stderr, "gjkbatch: %s\n", out.message);
    }
    return err;
}

/* Contact mode: a frame's contact points, and the depths of its
 * overlapping pairs summed (the mean depth is over the overlapping pairs). */
static void frame_contacts(const gjkb_frame *fr, run_totals *tot)
{
    const gjkb_results *r = &fr->results;
    tot->contacts += manifold_points(r, fr->pairs.count);
    for (uint32_t i = 0; r->distance && i < fr->pairs.count; i++)
        if (r->status[i] == GJKB_OVERLAP)
            tot->depth -= r->distance[i];
}

/* Mixes n 8-byte words (n bytes when `bytes`) of p into h: not a
 * cryptographic hash, a check that two runs gave the same bits. */
static uint64_t mix(uint64_t h, const void *p, size_t n, int bytes)
{
    const unsigned char *c = p;
    size_t len = bytes ? n : 8 * n;
    for (size_t i = 0; p && i < len; i += 8) {
        uint64_t v = 0;
        memcpy(&v, c + i, len - i < 8 ? len - i : 8);
        h = (h ^ v) * 0x100000001B3ull;
        h ^= h >> 29;
    }
    return h;
}

/* The frame's answers into the run's hash: pairs, status, iterations,
 * distance, axis and manifold (whichever the mode has). */
static uint64_t frame_hash(uint64_t h, const gjkb_frame *fr)
{
    const gjkb_results *r = &fr->results;
    const gjkb_manifolds *m = &r->manifold;
    const size_t n = fr->pairs.count, slots = n * GJKB_MAX_CONTACTS;
    h = mix(h, fr->pairs.a, 4 * n, 1);
    h = mix(h, fr->pairs.b, 4 * n, 1);
    h = mix(h, r->status, n, 1);
    h = mix(h, r->iterations, 4 * n, 1);
    h = mix(h, r->distance, n, 0);
    h = mix(h, r->nx, n, 0);
    h = mix(h, r->ny, n, 0);
    h = mix(h, r->nz, n, 0);
    h = mix(h, m->count, n, 1);
    h = mix(h, m->separation, slots, 0);
    return mix(h, m->feature, 4 * slots, 1);
}

/* Frame f's iterations and warm starts. */
static void frame_iterations(const gjkb_frame *fr, uint32_t f, run_totals *tot)
{
    uint64_t it = 0;
    for (uint32_t i = 0; i < fr->pairs.count; i++)
        it += fr->results.iterations[i];
    if (f == 1) {
        tot->iter_first += it;
        tot->pairs_first += fr->pairs.count;
    } else {
        tot->iter_rest += it;
        tot->pairs_rest += fr->pairs.count;
        tot->warm_rest += fr->warm;
    }
}

/* The timed pass: frame f's times (t: the whole call) and counts, and the
 * snapshot when f is its frame; nonzero after a message. */
static int record_frame(run_state *rs, uint32_t f, double t)
{
    uint32_t frames = rs->o.frames;
    for (int k = 0; k < 4; k++)
        rs->seconds[(size_t)k * frames + (f - 1)] = rs->fr.seconds[k];
    rs->seconds[(size_t)STAGE_CACHE * frames + (f - 1)] = rs->fr.cache_seconds;
    rs->seconds[(size_t)STAGE_FRAME * frames + (f - 1)] = t;
    rs->tot.pairs += rs->fr.pairs.count;
    rs->tot.hits += rs->fr.hits;
    rs->tot.hash = frame_hash(rs->tot.hash, &rs->fr);
    frame_iterations(&rs->fr, f, &rs->tot);
    if (rs->o.mode == GJKB_CONTACT)
        frame_contacts(&rs->fr, &rs->tot);
    if (rs->o.snapshot && f == rs->snapshot_frame)
        return write_snapshot(rs, f);
    return 0;
}

/* The touching band and distance tolerance of the warm-versus-cold check,
 * relative to the pair's scale (verify.c's). */
#define WARM_BAND 1e-4
#define WARM_TOL 1e-4

/* One pair's warm answer against the cold reference's. */
static void warm_pair(warm_counts *wc, uint8_t st, double d, uint8_t cst, double cd, double scale, int points_differ)
{
    if (st >= GJKB_LIMIT || cst >= GJKB_LIMIT)
        return;
    wc->pairs++;
    if (st != cst) {
        double gap = st == GJKB_SEPARATED ? d : cd;
        if (fabs(gap) <= WARM_BAND * scale || fabs(st == GJKB_OVERLAP ? d : cd) <= WARM_BAND * scale)
            wc->band++;
        else
            wc->flips++;
        return;
    }
    /* hit mode has no distances; distance mode's overlaps are all 0 */
    double diff = fabs(d - cd) / scale;
    if (isfinite(diff)) {
        wc->worst = fmax(wc->worst, diff);
        wc->far += diff > WARM_TOL;
    }
    wc->counts += points_differ;
}

/* The frame's answers (started warm) against the reference started cold. */
static void warm_vs_cold(run_state *rs, const gjkb_results *cold)
{
    const gjkb_frame *fr = &rs->fr;
    const gjkb_results *r = &fr->results;
    for (uint32_t i = 0; i < fr->pairs.count; i++) {
        double scale = rs->w.radius[fr->pairs.a[i]] + rs->w.radius[fr->pairs.b[i]];
        int differ = r->manifold.count && r->manifold.count[i] != cold->manifold.count[i];
        warm_pair(&rs->wc, r->status[i], r->distance ? r->distance[i] : NAN, cold->status[i],
                  cold->distance ? cold->distance[i] : NAN, scale, differ);
    }
}

/* Frame f's pairs through the reference, and the answers compared;
 * nonzero when the reference could not run. */
static int verify_frame(run_state *rs, uint32_t f)
{
    const gjkb_frame *fr = &rs->fr;
    if (!rs->ref_rb.block || fr->pairs.count > rs->ref_cap) {
        free(rs->ref_rb.block);
        rs->ref_rb.block = NULL;
        /* headroom: the pair count wanders from frame to frame */
        uint64_t cap = (uint64_t)fr->pairs.count + fr->pairs.count / 2;
        rs->ref_cap = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
        free(rs->cold_rb.block);
        rs->cold_rb.block = NULL;
        if (results_alloc(&rs->ref_rb, rs->ref_cap, rs->o.mode) ||
            (fr->warm_x && results_alloc(&rs->cold_rb, rs->ref_cap, rs->o.mode))) {
            progress_clear();
            fprintf(stderr, "gjkbatch: out of memory\n");
            return -1;
        }
    }
    /* The reference answers the frame's own question: from the same warm
     * axes (NULL without the cache). */
    gjkb_query wq = rs->q;
    wq.warm_x = fr->warm_x;
    wq.warm_y = fr->warm_y;
    wq.warm_z = fr->warm_z;
    if (gjkb_query_batch(rs->ref_ctx, &rs->bodies, &fr->pairs, &wq, &rs->ref_rb.r) != GJKB_OK ||
        (fr->warm_x && gjkb_query_batch(rs->ref_ctx, &rs->bodies, &fr->pairs, &rs->q, &rs->cold_rb.r) != GJKB_OK)) {
        progress_clear();
        fprintf(stderr, "gjkbatch: reference: %s\n", gjkb_last_error(rs->ref_ctx));
        return -1;
    }
    verify_job job = { { rs->bodies, fr->pairs, rs->w.radius }, rs->o.mode, rs->o.max_iterations,
                       rs->ctx, rs->ref_ctx, f, fr->warm_x, fr->warm_y, fr->warm_z };
    verify(&job, &fr->results, &rs->ref_rb.r, &rs->vc);
    if (fr->warm_x)
        warm_vs_cold(rs, &rs->cold_rb.r);
    return 0;
}

/* ---- the frames ---------------------------------------------------------------- */

/* Pass `pass` of `passes` over every frame: timed (the first) and/or
 * checked (--verify: the last); nonzero after a message. */
static int run_pass(run_state *rs, int pass, int passes)
{
    const int timed = pass == 0, checked = rs->o.verify && pass == passes - 1;
    uint32_t frames = rs->o.frames;
    if (pass > 0) {
        world_free(&rs->w);
        if (run_world(rs))
            return -1;
        /* the same frames from the start: the same cold first frame */
        gjkb_pair_cache_reset(rs->ctx);
    }
    for (uint32_t f = 1; f <= frames; f++) {
        if (f > 1)
            world_advance(&rs->w);
        double t0 = now_seconds();
        if (gjkb_step(rs->ctx, &rs->bodies, &rs->bo, &rs->q, &rs->fr) != GJKB_OK) {
            progress_clear();
            fprintf(stderr, "gjkbatch: frame %lu: %s\n", (unsigned long)f, gjkb_last_error(rs->ctx));
            return -1;
        }
        double t = now_seconds() - t0;
        if ((timed && record_frame(rs, f, t)) || (checked && verify_frame(rs, f)))
            return -1;
        if (rs->progress)
            progress_draw((uint32_t)pass * frames + f, (uint32_t)passes * frames, t, &rs->last_draw);
    }
    return 0;
}

/* Every pass; nonzero after a message. With --verify, two passes over the
 * same frames (the world is deterministic from the seed): the first timed
 * as a plain run, the second checking every pair against the reference,
 * whose work between frames would otherwise leave the caches cold for the
 * timed steps (measured: docs/performance.md). */
static int run_frames(run_state *rs)
{
    const int passes = rs->o.verify ? 2 : 1;
    rs->progress = !rs->o.quiet && isatty(2);
    rs->last_draw = -INFINITY;
    for (int pass = 0; pass < passes; pass++)
        if (run_pass(rs, pass, passes))
            return -1;
    progress_clear();
    return 0;
}

/* ---- the report ------------------------------------------------------------------- */

/* The world, the frames and the setup. */
static void print_setup(const run_state *rs)
{
    const world *w = &rs->w;
    const int W = RUN_LABEL;
    /* the world draws every kind */
    printf("%-*s %lu (%lu static), ", W, "bodies:", (unsigned long)w->count, (unsigned long)w->static_count);
    for (int k = 0; k < GJKB_KIND_COUNT; k++)
        printf("%s%s", k ? ", " : "", gjkb_kind_name((gjkb_kind)k));
    putchar('\n');
    printf("%-*s %.1f x %.1f x %.1f (centres), %.1f bodies per unit area\n", W, "world:", 2.0 * w->half[0],
           2.0 * w->half[1], 2.0 * w->half[2], w->count / (4.0 * w->half[0] * w->half[1]));
    printf("%-*s %lu (1/60 s each)\n", W, "frames:", (unsigned long)rs->o.frames);
    printf("%-*s %llu\n", W, "seed:", (unsigned long long)rs->o.seed);
    printf("%-*s %s\n", W, "backend:", gjkb_backend_name(gjkb_context_backend(rs->ctx)));
    printf("%-*s %d\n", W, "threads:", gjkb_get_threads(rs->ctx));
    printf("%-*s %s\n", W, "mode:", mode_name(rs->o.mode));
    printf("%-*s %s\n", W, "pair cache:",
           rs->o.cold ? "off (--cold)" : rs->o.mode == GJKB_HIT ? "on (hit mode keeps no axis: cold)" : "on");
}

/* Each stage's mean and median time per frame; reorders the times. */
static void print_stage_times(run_state *rs)
{
    const int W = RUN_LABEL;
    uint32_t frames = rs->o.frames;
    printf("\n%-*s %10s %10s\n", W, "time per frame (ms)", "mean", "median");
    for (int k = 0; k < STAGES; k++) {
        double *col = rs->seconds + (size_t)k * frames, sum = 0.0;
        for (uint32_t f = 0; f < frames; f++)
            sum += col[f];
        double mean = sum / frames;
        printf("  %-*s %10.3f %10.3f\n", W - 2, stage_names[k], mean * 1e3, median(col, frames) * 1e3);
    }
}

/* The pairs and hits per frame, contact mode's points and depth, and the
 * narrowphase's rate over its total time `narrow`. */
static void print_pair_counts(const run_state *rs, double narrow)
{
    const int W = RUN_LABEL;
    const run_totals *tot = &rs->tot;
    uint32_t frames = rs->o.frames;
    double pairs_per_frame = (double)tot->pairs / frames;
    printf("\n%-*s %.1f\n", W, "candidate pairs/frame:", pairs_per_frame);
    printf("%-*s %.3f\n", W, "pairs per body:", pairs_per_frame / rs->w.count);
    printf("%-*s %.1f (%.1f%% of the candidates)\n", W, "hits per frame:", (double)tot->hits / frames,
           tot->pairs ? 100.0 * (double)tot->hits / (double)tot->pairs : 0.0);
    if (rs->o.mode == GJKB_CONTACT) {
        printf("%-*s %.1f\n", W, "contact points/frame:", (double)tot->contacts / frames);
        printf("%-*s %.6g (over the overlapping pairs)\n", W, "mean depth:",
               tot->hits ? tot->depth / (double)tot->hits : 0.0);
    }
    printf("%-*s %.0f\n", W, "narrowphase pairs/s:", narrow > 0.0 ? (double)tot->pairs / narrow : 0.0);
    printf("%-*s %.3f\n", W, "iterations/pair frame 1:",
           tot->pairs_first ? (double)tot->iter_first / (double)tot->pairs_first : 0.0);
    if (frames > 1) {
        printf("%-*s %.3f\n", W, "iterations/pair from 2:",
               tot->pairs_rest ? (double)tot->iter_rest / (double)tot->pairs_rest : 0.0);
        printf("%-*s %.1f%% (pairs started from last frame's axis, frames 2 on)\n", W, "warm-started:",
               tot->pairs_rest ? 100.0 * (double)tot->warm_rest / (double)tot->pairs_rest : 0.0);
    }
    printf("%-*s %016llx\n", W, "results hash:", (unsigned long long)tot->hash);
}

/* The verification's lines and the snapshot's. */
static void print_checks(const run_state *rs, int failed)
{
    const int W = RUN_LABEL;
    if (rs->o.verify) {
        printf("%-*s %llu (every candidate pair of every frame)\n", W, "pairs verified:",
               (unsigned long long)rs->vc.checked);
        print_verify_counts(&rs->vc, rs->o.mode != GJKB_HIT, rs->o.mode, W);
        if (rs->wc.pairs) {
            const warm_counts *wc = &rs->wc;
            printf("%-*s %llu pairs against the reference started cold: verdicts differ on %llu in the band,\n"
                   "%-*s %llu outside it; distances differ by %.3g of the scale at most (%llu by more than %g);\n"
                   "%-*s contact counts differ on %llu\n",
                   W, "warm vs cold:", (unsigned long long)wc->pairs, (unsigned long long)wc->band, W, "",
                   (unsigned long long)wc->flips, wc->worst, (unsigned long long)wc->far, WARM_TOL, W, "",
                   (unsigned long long)wc->counts);
        }
        printf("%-*s %s\n", W, "verification:", failed ? "FAILED" : "ok");
    } else {
        printf("%-*s off (--verify checks every pair against the reference backend)\n", W, "verification:");
    }
    if (rs->o.snapshot)
        printf("%-*s %s (frame %lu)\n", W, "snapshot:", rs->o.snapshot, (unsigned long)rs->snapshot_frame);
}

/* The report on stdout; the exit status. */
static int run_report(run_state *rs)
{
    int failed = verify_failed(&rs->vc) || rs->wc.flips || rs->wc.far;
    /* summed before print_stage_times reorders the times */
    double narrow = 0.0;
    for (uint32_t f = 0; f < rs->o.frames; f++)
        narrow += rs->seconds[(size_t)STAGE_NARROW * rs->o.frames + f];
    print_setup(rs);
    print_stage_times(rs);
    print_pair_counts(rs, narrow);
    print_lane_use(rs->ctx, RUN_LABEL);
    print_checks(rs, failed);
    return failed || fflush(stdout) != 0 ? EXIT_FAIL : EXIT_OK;
}

/* --compare bullet: the frames side by side with Bullet's world instead of
 * the plain run; the exit status. */
static int run_compare(run_state *rs)
{
#ifdef GJKB_HAVE_BULLET
    compare_setup cs = { &rs->o, &rs->w, rs->ctx, NULL, NULL };
    int status = EXIT_FAIL;
    if ((cs.hit = run_context(rs->o.backend, rs->o.threads, &rs->w)) &&
        (cs.ref = run_context(GJKB_BACKEND_REFERENCE, 1, &rs->w)))
        status = compare_bullet(&cs);
    gjkb_destroy(cs.hit);
    gjkb_destroy(cs.ref);
    return status;
#else
    (void)rs;
    fprintf(stderr, "gjkbatch: --compare bullet: this gjkbatch was built without Bullet (libbullet-dev)\n");
    return EXIT_FAIL;
#endif
}

int cmd_run(int argc, char **argv)
{
    run_state rs = { .o = { .mode = GJKB_HIT, .backend = GJKB_BACKEND_AUTO, .seed = 1, .bodies = 20000,
                            .frames = 300, .threads = 1 },
                     .tot = { .hash = 0xCBF29CE484222325ull } };
    int status = run_options(argc, argv, &rs.o);
    if (status)
        return status;
    rs.snapshot_frame = rs.o.snapshot_frame ? rs.o.snapshot_frame : rs.o.frames;
    status = EXIT_FAIL;
    if (rs.o.compare && !run_world(&rs) && !run_start(&rs))
        status = run_compare(&rs);
    else if (!rs.o.compare && !run_world(&rs) && !run_start(&rs) && !run_frames(&rs))
        status = run_report(&rs);
    progress_clear();
    free(rs.seconds);
    free(rs.ref_rb.block);
    free(rs.cold_rb.block);
    gjkb_destroy(rs.ctx);
    gjkb_destroy(rs.ref_ctx);
    world_free(&rs.w);
    return status;
}
