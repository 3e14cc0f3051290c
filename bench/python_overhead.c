/* python_overhead.c - the C side of bench/python_overhead.py, built by it
 * into a throwaway shared object (cc, no link to libgjkbatch: the timed
 * call goes through the very gjkb_query_batch the Python package loaded,
 * passed in as a function pointer, so both sides run one copy of the
 * library on one context).
 *
 * pyo_fill: the workloads.h pair set (box-box, seed 1: the benchmark
 * harness's pairs) as the harness lays it out: body 2i is pair i's shape A,
 * 2i+1 its shape B, each column of positions, rotations and sizes
 * contiguous (numpy's (n, k) arrays in Fortran order).
 * pyo_time: reps calls of the given gjkb_query_batch, timed in C. */
#include <time.h>
#include "gjkbatch.h"
#include "workloads.h"

typedef gjkb_error (*batch_fn)(gjkb_context *, const gjkb_bodies *, const gjkb_pairs *,
                               const gjkb_query *, gjkb_results *);

int pyo_fill(int workload, uint32_t pairs, uint64_t seed, uint8_t *kind, double *pos, float *quat,
             float *size, uint32_t *pa, uint32_t *pb);
double pyo_time(batch_fn fn, gjkb_context *ctx, const gjkb_bodies *b, const gjkb_pairs *p,
                const gjkb_query *q, gjkb_results *r, int reps, int *err);

int pyo_fill(int workload, uint32_t pairs, uint64_t seed, uint8_t *kind, double *pos, float *quat,
             float *size, uint32_t *pa, uint32_t *pb)
{
    wl_set wl;
    uint32_t n = 2 * pairs;
    if (workload != WL_BOX_BOX && workload != WL_SPHERE_SPHERE)
        return -1;   /* no hulls to register on this side */
    wl_make(&wl, workload, (int)pairs, seed);
    if (!wl.a || !wl.b) {
        wl_free(&wl);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        const wl_shape *sh = i % 2 ? &wl.b[i / 2] : &wl.a[i / 2];
        kind[i] = sh->kind == WL_BOX ? GJKB_BOX : GJKB_SPHERE;
        pos[i] = sh->pos.x;
        pos[n + i] = sh->pos.y;
        pos[2 * n + i] = sh->pos.z;
        quat[i] = (float)sh->rot.w;
        quat[n + i] = (float)sh->rot.x;
        quat[2 * n + i] = (float)sh->rot.y;
        quat[3 * n + i] = (float)sh->rot.z;
        size[i] = (float)(sh->kind == WL_BOX ? sh->half.x : sh->radius);
        size[n + i] = (float)(sh->kind == WL_BOX ? sh->half.y : 0);
        size[2 * n + i] = (float)(sh->kind == WL_BOX ? sh->half.z : 0);
    }
    for (uint32_t i = 0; i < pairs; i++) {
        pa[i] = 2 * i;
        pb[i] = 2 * i + 1;
    }
    wl_free(&wl);
    return 0;
}

double pyo_time(batch_fn fn, gjkb_context *ctx, const gjkb_bodies *b, const gjkb_pairs *p,
                const gjkb_query *q, gjkb_results *r, int reps, int *err)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < reps; i++)
        *err |= fn(ctx, b, p, q, r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}
