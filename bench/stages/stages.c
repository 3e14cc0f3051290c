/* stages.c - the driver bench/stages/stages.sh runs under callgrind: two
 * whole gjkb_query_batch calls of one shared workload on one backend
 * (the first warms the context's scratch; callgrind counts both). On
 * stderr, the share of pairs handed to the reference (gjkb_stats.refined).
 *
 *   stages BACKEND WORKLOAD MODE     (MODE 0 hit, 1 distance, 2 contact) */
#include "gjkbatch.h"
#include "harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    gjkb_backend be;
    if (argc != 4 || gjkb_backend_parse(argv[1], &be) != GJKB_OK) {
        fprintf(stderr, "usage: stages BACKEND WORKLOAD MODE\n");
        return 2;
    }
    for (int w = 0; w < WL_COUNT; w++) {
        if (strcmp(argv[2], bench_workload_name(w)))
            continue;
        bench_set s;
        gjkb_context *ctx;
        bench_out o;
        if (bench_set_make(&s, w, BENCH_PAIRS, 1) || bench_context_create(&s, be, &ctx) ||
            bench_out_alloc(&o, s.pair_count))
            return 1;
        for (int r = 0; r < 2; r++)
            if (bench_run(ctx, &s, (gjkb_mode)atoi(argv[3]), &o) != GJKB_OK)
                return 1;
        gjkb_stats st;
        if (gjkb_stats_get(ctx, &st) == GJKB_OK)
            fprintf(stderr, "refined: %llu of %u pairs (%.2f%%)\n", (unsigned long long)st.refined,
                    2 * s.pair_count, 50.0 * (double)st.refined / s.pair_count);
        printf("%u\n", s.pair_count);
        bench_out_free(&o);
        gjkb_destroy(ctx);
        bench_set_free(&s);
        return 0;
    }
    fprintf(stderr, "stages: unknown workload %s\n", argv[2]);
    return 2;
}
