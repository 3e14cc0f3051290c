/* cmd_run.c - `gjkbatch run`: a world of moving mixed bodies (world.h)
 * stepped frame by frame through gjkb_step (bounds, sweep-and-prune,
 * narrowphase), the per-stage times reported; optionally every frame
 * verified against the reference backend and one frame drawn as SVG. */
#define _POSIX_C_SOURCE 200809L /* isatty */

#include "backend_context.h"
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
#include <unistd.h>

/* Width of the labels of run's report. */
#define RUN_LABEL 24

/* Stages of gjkb_frame.seconds, then the wall time of the whole call. */
enum { STAGE_BOUNDS, STAGE_SORT, STAGE_SWEEP, STAGE_NARROW, STAGE_FRAME, STAGES };
static const char *const stage_names[STAGES] = { "bounds", "sort", "sweep", "narrowphase", "frame (gjkb_step)" };

/* What the timed pass adds up over its frames (contact mode: points and
 * the overlapping pairs' depths). */
typedef struct run_totals {
    uint64_t pairs, hits, contacts;
    double depth;
} run_totals;

/* Everything a run holds between its steps. */
typedef struct run_state {
    options o;
    uint32_t snapshot_frame;        /* the frame --snapshot draws */
    world w;
    gjkb_context *ctx, *ref_ctx;    /* ref_ctx: --verify only */
    result_buf ref_rb;              /* the reference's answers, for ref_cap pairs */
    uint32_t ref_cap;
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
                          OPT_VERIFY | OPT_SNAPSHOT | OPT_SNAPSHOT_FRAME | OPT_QUIET,
                      0, o))
        return EXIT_USAGE;
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
    if (rs->o.verify && !(rs->ref_ctx = run_context(GJKB_BACKEND_REFERENCE, rs->o.threads, &rs->w)))
        return -1;
    rs->q = (gjkb_query){ rs->o.mode, rs->o.max_iterations, 0.0, 0.0, NULL, NULL, NULL };
    if (gjkb_step(rs->ctx, &rs->bodies, &rs->bo, &rs->q, &rs->fr) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: %s\n", gjkb_last_error(rs->ctx));
        return -1;
    }
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

/* The timed pass: frame f's times (t: the whole call) and counts, and the
 * snapshot when f is its frame; nonzero after a message. */
static int record_frame(run_state *rs, uint32_t f, double t)
{
    uint32_t frames = rs->o.frames;
    for (int k = 0; k < 4; k++)
        rs->seconds[(size_t)k * frames + (f - 1)] = rs->fr.seconds[k];
    rs->seconds[(size_t)STAGE_FRAME * frames + (f - 1)] = t;
    rs->tot.pairs += rs->fr.pairs.count;
    rs->tot.hits += rs->fr.hits;
    if (rs->o.mode == GJKB_CONTACT)
        frame_contacts(&rs->fr, &rs->tot);
    if (rs->o.snapshot && f == rs->snapshot_frame)
        return write_snapshot(rs, f);
    return 0;
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
        if (results_alloc(&rs->ref_rb, rs->ref_cap, rs->o.mode)) {
            progress_clear();
            fprintf(stderr, "gjkbatch: out of memory\n");
            return -1;
        }
    }
    if (gjkb_query_batch(rs->ref_ctx, &rs->bodies, &fr->pairs, &rs->q, &rs->ref_rb.r) != GJKB_OK) {
        progress_clear();
        fprintf(stderr, "gjkbatch: reference: %s\n", gjkb_last_error(rs->ref_ctx));
        return -1;
    }
    verify_job job = { { rs->bodies, fr->pairs, rs->w.radius }, rs->o.mode, rs->o.max_iterations,
                       rs->ctx, rs->ref_ctx, f };
    verify(&job, &fr->results, &rs->ref_rb.r, &rs->vc);
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
}

/* The verification's lines and the snapshot's. */
static void print_checks(const run_state *rs, int failed)
{
    const int W = RUN_LABEL;
    if (rs->o.verify) {
        printf("%-*s %llu (every candidate pair of every frame)\n", W, "pairs verified:",
               (unsigned long long)rs->vc.checked);
        print_verify_counts(&rs->vc, rs->o.mode != GJKB_HIT, rs->o.mode, W);
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
    int failed = verify_failed(&rs->vc);
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

int cmd_run(int argc, char **argv)
{
    run_state rs = { .o = { .mode = GJKB_HIT, .backend = GJKB_BACKEND_AUTO, .seed = 1, .bodies = 20000,
                            .frames = 300, .threads = 1 } };
    int status = run_options(argc, argv, &rs.o);
    if (status)
        return status;
    rs.snapshot_frame = rs.o.snapshot_frame ? rs.o.snapshot_frame : rs.o.frames;
    status = EXIT_FAIL;
    if (!run_world(&rs) && !run_start(&rs) && !run_frames(&rs))
        status = run_report(&rs);
    progress_clear();
    free(rs.seconds);
    free(rs.ref_rb.block);
    gjkb_destroy(rs.ctx);
    gjkb_destroy(rs.ref_ctx);
    world_free(&rs.w);
    return status;
}
