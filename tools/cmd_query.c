/* cmd_query.c - `gjkbatch query`: every pair of a pair file
 * (docs/file-format.md) answered, one CSV row each. */
#include "backend_context.h"
#include "commands.h"
#include "options.h"
#include "outfile.h"
#include "pairfile.h"
#include "results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the pair file at path (- for stdin) into pf, which is then to be
 * freed; else the exit status after a message. name: for messages. */
static int read_input(const char *path, const char *name, pairfile *pf)
{
    int is_std = strcmp(path, "-") == 0;
    FILE *in = is_std ? stdin : fopen(path, "r");
    if (!in) {
        fprintf(stderr, "gjkbatch: %s: %s\n", path, strerror(errno));
        return EXIT_FAIL;
    }
    pairfile_error perr;
    pairfile_status ps = pairfile_read(in, pf, &perr);
    if (!is_std)
        fclose(in);
    if (ps == PAIRFILE_SYNTAX) {
        fprintf(stderr, "%s:%lu: %s\n", name, perr.line, perr.message);
        return EXIT_USAGE;
    }
    if (ps != PAIRFILE_OK) {
        fprintf(stderr, "gjkbatch: %s: %s\n", name, perr.message);
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

/* Every pair of pf answered into rb; nonzero after a message. */
static int answer_pairs(const options *o, const char *name, pairfile *pf, result_buf *rb)
{
    int status = -1;
    gjkb_context *ctx = create_context(o->backend);
    if (!ctx)
        return -1;
    if (pairfile_register_hulls(pf, ctx) != GJKB_OK) {
        fprintf(stderr, "gjkbatch: registering hulls: %s\n", gjkb_last_error(ctx));
    } else if (results_alloc(rb, pf->pair_count, o->mode)) {
        fprintf(stderr, "gjkbatch: out of memory\n");
    } else {
        gjkb_bodies bodies = pairfile_bodies(pf);
        gjkb_pairs pairs = pairfile_pairs(pf);
        gjkb_query q = { o->mode, o->max_iterations, 0.0, o->max_distance, NULL, NULL, NULL };
        status = gjkb_query_batch(ctx, &bodies, &pairs, &q, &rb->r) != GJKB_OK;
        if (status)
            fprintf(stderr, "gjkbatch: %s: %s\n", name, gjkb_last_error(ctx));
    }
    gjkb_destroy(ctx);
    return status;
}

/* The CSV in the mode's layout (docs/file-format.md) to path (- for
 * stdout); nonzero after a message. */
static int write_output(const char *path, uint32_t count, gjkb_mode mode, const gjkb_results *r)
{
    outfile out;
    int err = 0;
    if (strcmp(path, "-") == 0)
        outfile_stdout(&out);
    else
        err = outfile_open(&out, path);
    if (!err) {
        int failed = mode == GJKB_CONTACT ? pairfile_write_contact_csv(out.f, count, r)
                                          : pairfile_write_csv(out.f, count, r);
        err = failed ? outfile_abort(&out, errno) : outfile_commit(&out);
    }
    if (err)
        fprintf(stderr, "gjkbatch: %s\n", out.message);
    return err;
}

int cmd_query(int argc, char **argv)
{
    options o = { .mode = GJKB_DISTANCE, .backend = GJKB_BACKEND_AUTO };
    if (parse_options(argc, argv, 2, OPT_MODE | OPT_BACKEND | OPT_ITER | OPT_MAX_DISTANCE, 2, &o))
        return EXIT_USAGE;
    if (o.npositional != 2)
        return usage_error("%s", "query needs INPUT and OUTPUT (- for stdin, stdout)");
    if (o.max_distance_set && o.mode == GJKB_HIT)
        return usage_error("%s", "--max-distance needs --mode distance or contact");
    const char *in_path = o.positional[0], *out_path = o.positional[1];
    const char *in_name = strcmp(in_path, "-") == 0 ? "<stdin>" : in_path;
    pairfile pf;
    int status = read_input(in_path, in_name, &pf);
    if (status != EXIT_OK)
        return status;
    result_buf rb = { { 0 }, NULL };
    /* Only with every answer in hand is the output opened. */
    if (answer_pairs(&o, in_name, &pf, &rb) || write_output(out_path, pf.pair_count, o.mode, &rb.r))
        status = EXIT_FAIL;
    free(rb.block);
    pairfile_free(&pf);
    return status;
}
