/* cmd_batch.c - `gjkbatch batch`: one generated mixed pair batch
 * (scene.h) timed on the chosen backend, best of --repeat calls, and every
 * pair checked against the reference backend. */
#include "backend_context.h"
#include "commands.h"
#include "options.h"
#include "outfile.h"
#include "results.h"
#include "scene.h"
#include "timing.h"
#include "verify.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Width of the labels of batch's report. */
#define BATCH_LABEL 21

/* The scene, and both contexts with their results. */
typedef struct batch {
    scene s;
    gjkb_context *ctx, *ref_ctx;
    result_buf rb, ref_rb;
} batch;

/* --save: the scene as a pair file, for replaying pairs with `query`. */
static int save_scene(const scene *s, const char *path)
{
    outfile out;
    int err = outfile_open(&out, path);
    if (!err) {
        errno = 0;  /* a failed write sets it; a stale value would be misleading */
        err = scene_write_pairs(s, out.f) ? outfile_abort(&out, errno ? errno : EIO) : outfile_commit(&out);
    }
    if (err)
        fprintf(stderr, "gjkbatch: %s\n", out.message);
    return err;
}

/* Both contexts with the scene's hulls, and the result arrays; nonzero
 * after a message. */
static int batch_prepare(batch *b, gjkb_backend backend, gjkb_mode mode)
{
    if (!(b->ctx = create_context(backend)) || !(b->ref_ctx = create_context(GJKB_BACKEND_REFERENCE)))
        return -1;
    gjkb_error e = scene_register_hulls(&b->s, b->ctx);
    if (e == GJKB_OK)
        e = scene_register_hulls(&b->s, b->ref_ctx);
    if (e != GJKB_OK) {
        fprintf(stderr, "gjkbatch: registering hulls: %s\n", gjkb_error_string(e));
        return -1;
    }
    if (results_alloc(&b->rb, b->s.pair_count, mode) || results_alloc(&b->ref_rb, b->s.pair_count, mode)) {
        fprintf(stderr, "gjkbatch: out of memory\n");
        return -1;
    }
    return 0;
}

/* The best time of `repeat` calls into *best; nonzero after a message.
 * One untimed call first sizes the context's scratch and warms the
 * caches; the best of the timed calls is the least disturbed one. */
static int batch_time(batch *b, const pair_set *ps, const gjkb_query *q, uint32_t repeat, double *best)
{
    *best = INFINITY;
    for (uint32_t rep = 0; rep <= repeat; rep++) {
        double t0 = now_seconds();
        if (gjkb_query_batch(b->ctx, &ps->bodies, &ps->pairs, q, &b->rb.r) != GJKB_OK) {
            fprintf(stderr, "gjkbatch: %s\n", gjkb_last_error(b->ctx));
            return -1;
        }
        double t = now_seconds() - t0;
        if (rep > 0 && t < *best)
            *best = t;
    }
    return 0;
}

/* The report on stdout; `ok`: the verification passed. */
static void batch_report(const batch *b, const options *o, double best, const verify_counts *vc, int ok)
{
    static const struct { const char *label; gjkb_status status; } lines[] = {
        { "hits (overlap):", GJKB_OVERLAP }, { "separated:", GJKB_SEPARATED },
        { "limit:", GJKB_LIMIT }, { "invalid:", GJKB_INVALID },
    };
    uint32_t count[4] = { 0, 0, 0, 0 }, pairs = b->s.pair_count;
    for (uint32_t i = 0; i < pairs; i++)
        count[b->rb.r.status[i] & 3]++;
    printf("%-*s %s\n", BATCH_LABEL, "backend:", gjkb_backend_name(gjkb_context_backend(b->ctx)));
    printf("%-*s %s\n", BATCH_LABEL, "mode:", mode_name(o->mode));
    printf("%-*s %llu\n", BATCH_LABEL, "seed:", (unsigned long long)o->seed);
    printf("%-*s %lu\n", BATCH_LABEL, "pairs:", (unsigned long)pairs);
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++)
        printf("%-*s %lu\n", BATCH_LABEL, lines[k].label, (unsigned long)count[lines[k].status]);
    if (o->mode == GJKB_CONTACT)
        printf("%-*s %llu\n", BATCH_LABEL, "contact points:", (unsigned long long)manifold_points(&b->rb.r, pairs));
    printf("%-*s %.3f ms (best of %lu)\n", BATCH_LABEL, "time:", best * 1e3, (unsigned long)o->repeat);
    printf("%-*s %.0f\n", BATCH_LABEL, "pairs/s:", best > 0.0 ? pairs / best : 0.0);
    print_lane_use(b->ctx, BATCH_LABEL);
    print_verify_counts(vc, 1, o->mode, BATCH_LABEL);
    printf("%-*s %s\n", BATCH_LABEL, "verification:", ok ? "ok" : "FAILED");
}

/* Times the batch, checks it against the reference and reports: the exit
 * status. */
static int batch_measure(batch *b, const options *o)
{
    pair_set ps = { scene_bodies(&b->s), scene_pairs(&b->s), b->s.radius };
    gjkb_query q = { o->mode, o->max_iterations, 0.0, 0.0, NULL, NULL, NULL };
    double best;
    if (batch_time(b, &ps, &q, o->repeat, &best))
        return EXIT_FAIL;
    if (gjkb_query_batch(b->ref_ctx, &ps.bodies, &ps.pairs, &q, &b->ref_rb.r) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: reference: %s\n", gjkb_last_error(b->ref_ctx));
        return EXIT_FAIL;
    }
    verify_counts vc = { 0 };
    verify_job job = { ps, o->mode, o->max_iterations, b->ctx, b->ref_ctx, 0, NULL, NULL, NULL };
    verify(&job, &b->rb.r, &b->ref_rb.r, &vc);
    int failed = verify_failed(&vc);
    batch_report(b, o, best, &vc, !failed);
    return failed || fflush(stdout) != 0 ? EXIT_FAIL : EXIT_OK;
}

int cmd_batch(int argc, char **argv)
{
    options o = { .mode = GJKB_DISTANCE, .backend = GJKB_BACKEND_AUTO, .pairs = 100000, .seed = 1, .repeat = 5 };
    if (parse_options(argc, argv, 2, OPT_MODE | OPT_BACKEND | OPT_ITER | OPT_PAIRS | OPT_SEED | OPT_REPEAT | OPT_SAVE,
                      0, &o))
        return EXIT_USAGE;
    batch b = { .ctx = NULL, .ref_ctx = NULL, .rb = { { 0 }, NULL }, .ref_rb = { { 0 }, NULL } };
    if (scene_generate(&b.s, o.pairs, o.seed)) {
        fprintf(stderr, "gjkbatch: out of memory for %lu pairs\n", (unsigned long)o.pairs);
        return EXIT_FAIL;
    }
    int status = EXIT_FAIL;
    if ((!o.save || !save_scene(&b.s, o.save)) && !batch_prepare(&b, o.backend, o.mode))
        status = batch_measure(&b, &o);
    free(b.rb.block);
    free(b.ref_rb.block);
    gjkb_destroy(b.ctx);
    gjkb_destroy(b.ref_ctx);
    scene_free(&b.s);
    return status;
}
