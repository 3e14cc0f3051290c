/* backend_context.c - creating and summing up a context
 * (backend_context.h). */
#include "backend_context.h"

#include <stdio.h>
#include <stdlib.h>

/* gjkb_create fails without a context, so no message says which backend
 * it tried: for auto that is the one GJKB_BACKEND names, if set (the
 * library reads it the same way), and the messages name that one. */
gjkb_context *create_context(gjkb_backend backend)
{
    gjkb_config cfg = { backend, 0 };
    gjkb_context *ctx = NULL;
    gjkb_error e = gjkb_create(&cfg, &ctx);
    const char *env = getenv("GJKB_BACKEND");
    int from_env = backend == GJKB_BACKEND_AUTO && env && *env;
    if (e == GJKB_ERR_UNSUPPORTED && from_env)
        fprintf(stderr,
                "gjkbatch: backend '%.40s' (from the GJKB_BACKEND environment variable) is not available in "
                "this build or on this CPU\n",
                env);
    else if (e == GJKB_ERR_UNSUPPORTED)
        fprintf(stderr, "gjkbatch: backend '%s' is not available in this build or on this CPU\n",
                gjkb_backend_name(backend));
    else if (e == GJKB_ERR_KIND && from_env)
        fprintf(stderr, "gjkbatch: the GJKB_BACKEND environment variable names no backend: '%.40s'\n", env);
    else if (e != GJKB_OK)
        fprintf(stderr, "gjkbatch: cannot create a context: %s\n", gjkb_error_string(e));
    return e == GJKB_OK ? ctx : NULL;
}

void print_lane_use(const gjkb_context *ctx, int width)
{
    gjkb_stats st;
    if (gjkb_stats_get(ctx, &st) != GJKB_OK || st.width == 0 || st.bundle_steps == 0)
        return;
    printf("%-*s %.1f%% (%.2f steps per pair, %u lanes per bundle)\n", width, "lane utilization:",
           100.0 * (double)st.lane_steps / ((double)st.bundle_steps * st.width),
           (double)st.lane_steps / (double)st.pairs, st.width);
    printf("%-*s %llu (%.2f%%: float could not settle them)\n", width, "refined pairs:",
           (unsigned long long)st.refined, 100.0 * (double)st.refined / (double)st.pairs);
}
