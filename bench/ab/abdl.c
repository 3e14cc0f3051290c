/* abdl.c - abdl A.so B.so BACKEND WORKLOAD MODE REPS: whole batches of two
 * builds of the library (drv.c, each its own shared object) alternated in
 * one process, REPS pairs; prints each build's Mpairs/s and the median
 * ratio of time A / time B with its quartiles (> 1: B is faster). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
typedef int (*setup_f)(const char *, const char *, int);
typedef double (*once_f)(void);
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv)
{
    if (argc < 7) return 2;
    void *h[2]; once_f once[2]; int n = 0;
    for (int k = 0; k < 2; k++) {
        h[k] = dlopen(argv[1 + k], RTLD_NOW | RTLD_LOCAL);
        if (!h[k]) { fprintf(stderr, "%s\n", dlerror()); return 1; }
        n = ((setup_f)dlsym(h[k], "drv_setup"))(argv[3], argv[4], atoi(argv[5]));
        if (n <= 0) { fprintf(stderr, "setup %d\n", n); return 1; }
        once[k] = (once_f)dlsym(h[k], "drv_once");
        once[k](); once[k]();
    }
    int reps = atoi(argv[6]);
    double *t[2] = { malloc(reps * sizeof(double)), malloc(reps * sizeof(double)) }, *r = malloc(reps * sizeof(double));
    for (int i = 0; i < reps; i++) {
        int first = i & 1;
        t[first][i] = once[first]();
        t[!first][i] = once[!first]();
        r[i] = t[0][i] / t[1][i];
    }
    qsort(t[0], reps, sizeof(double), cmp); qsort(t[1], reps, sizeof(double), cmp); qsort(r, reps, sizeof(double), cmp);
    printf("%s %s %s A %.3f B %.3f ratio %.4f q25 %.4f q75 %.4f\n", argv[3], argv[4], atoi(argv[5]) ? "dist" : "hit",
           n / t[0][reps / 2] * 1e-6, n / t[1][reps / 2] * 1e-6, r[reps / 2], r[reps / 4], r[3 * reps / 4]);
    return 0;
}
