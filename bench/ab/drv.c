/* drv.c - one build of the library behind three calls (setup, one timed
 * batch, done), loaded twice by abdl.c to alternate two builds. */
#define _POSIX_C_SOURCE 200809L
#include "gjkbatch.h"
#include "harness.h"
#include <string.h>
#include <time.h>
static bench_set s; static gjkb_context *ctx; static bench_out o; static gjkb_mode md;
int drv_setup(const char *backend, const char *workload, int mode)
{
    gjkb_backend be;
    if (gjkb_backend_parse(backend, &be) != GJKB_OK) return -1;
    int w = -1;
    for (int i = 0; i < WL_COUNT; i++) if (!strcmp(workload, bench_workload_name(i))) w = i;
    if (w < 0) return -2;
    bench_set_make(&s, w, BENCH_PAIRS, 1);
    if (bench_context_create(&s, be, &ctx) != GJKB_OK) return -3;
    bench_out_alloc(&o, s.pair_count);
    md = (gjkb_mode)mode;
    return (int)s.pair_count;
}
double drv_once(void)
{
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    bench_run(ctx, &s, md, &o);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    return (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
}
void drv_done(void) { bench_out_free(&o); gjkb_destroy(ctx); bench_set_free(&s); }
