/* roofline.c - what one core of this machine can do, measured, for the
 * performance budget in docs/performance.md: the core clock, how many
 * 256- and 512-bit float ops retire per cycle, and what a gather costs.
 *
 *   bench/roofline            (built with GJKB_BENCH on x86-64; pin it:
 *   taskset -c 1 build-bench/bench/roofline)
 *
 * Each figure is the best of five runs of a loop of independent
 * operations (throughput, not latency), except the clock, which is a chain
 * of dependent register adds (one per cycle on every x86 core since P6). */
#define _POSIX_C_SOURCE 200809L
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define REPS 5
#define TARGET __attribute__((target("avx2,avx512f,avx512dq"), noinline))

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Seconds per iteration of f(n), best of REPS. */
static double best_of(double (*f)(long), long n)
{
    double best = 1e30;
    for (int r = 0; r < REPS; r++) {
        double t = f(n) / (double)n;
        best = t < best ? t : best;
    }
    return best;
}

/* 10 dependent adds per iteration. A register operand: add-immediate
 * chains can be folded at rename on recent cores and run faster than 1/cycle. */
static double add_chain(long n)
{
    uint64_t x = 1, y = 3;
    double t0 = now();
    for (long i = 0; i < n; i++)
        __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                         : "+r"(x)
                         : "r"(y));
    return (now() - t0) / 10.0;
}

/* 12 independent chains, in named variables so that they stay in
 * registers: enough to cover latency 4 on 3 ports. */
#define THROUGHPUT(name, type, zero, op, one)                                               \
    TARGET static double name(long n)                                                       \
    {                                                                                       \
        const type k = one;                                                                 \
        type a0 = zero, a1 = zero, a2 = zero, a3 = zero, a4 = zero, a5 = zero;              \
        type a6 = zero, a7 = zero, a8 = zero, a9 = zero, a10 = zero, a11 = zero;            \
        double t0 = now();                                                                  \
        for (long i = 0; i < n; i++) {                                                      \
            a0 = op(a0, k), a1 = op(a1, k), a2 = op(a2, k), a3 = op(a3, k);                 \
            a4 = op(a4, k), a5 = op(a5, k), a6 = op(a6, k), a7 = op(a7, k);                 \
            a8 = op(a8, k), a9 = op(a9, k), a10 = op(a10, k), a11 = op(a11, k);             \
            __asm__ volatile("" : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5)); \
            __asm__ volatile("" : "+v"(a6), "+v"(a7), "+v"(a8), "+v"(a9), "+v"(a10), "+v"(a11)); \
        }                                                                                   \
        return (now() - t0) / 12.0;                                                         \
    }
/* A lane permutation (shuffle port only), in the shape of the others. */
__attribute__((target("avx512f"))) static inline __m512 permute(__m512 a, __m512 idx)
{
    return _mm512_permutexvar_ps(_mm512_castps_si512(idx), a);
}
THROUGHPUT(add_ymm, __m256, _mm256_setzero_ps(), _mm256_add_ps, _mm256_set1_ps(1.0f))
THROUGHPUT(add_zmm, __m512, _mm512_setzero_ps(), _mm512_add_ps, _mm512_set1_ps(1.0f))
THROUGHPUT(mul_zmm, __m512, _mm512_set1_ps(1.0f), _mm512_mul_ps, _mm512_set1_ps(1.0000001f))
THROUGHPUT(div_zmm, __m512, _mm512_set1_ps(1.0f), _mm512_div_ps, _mm512_set1_ps(1.0000001f))
THROUGHPUT(perm_zmm, __m512, _mm512_set1_ps(1.0f), permute, _mm512_set1_ps(0.0f))

/* Gathers of 16 floats (and 8 doubles) from two L1-resident lines each, as
 * the kernel's pack does for neighbouring bodies; the index registers pass
 * through an empty asm each time so that no gather is hoisted. */
static float ftab[4096] __attribute__((aligned(64)));
static double dtab[4096] __attribute__((aligned(64)));

#define GATHERS(name, acc_t, idx_t, zero, add, gather, base, lanes_idx)                       \
    TARGET static double name(long n)                                                       \
    {                                                                                       \
        acc_t a0 = zero, a1 = zero, a2 = zero, a3 = zero;                                   \
        idx_t i0 = lanes_idx, i1 = i0, i2 = i0, i3 = i0;                                    \
        double t0 = now();                                                                  \
        for (long i = 0; i < n; i++) {                                                      \
            __asm__ volatile("" : "+v"(i0), "+v"(i1), "+v"(i2), "+v"(i3));                 \
            a0 = add(a0, gather(i0, base, sizeof base[0]));                                 \
            a1 = add(a1, gather(i1, base, sizeof base[0]));                                 \
            a2 = add(a2, gather(i2, base, sizeof base[0]));                                 \
            a3 = add(a3, gather(i3, base, sizeof base[0]));                                 \
        }                                                                                   \
        double t = now() - t0;                                                              \
        __asm__ volatile("" : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3));                     \
        return t / 4.0;                                                                     \
    }
GATHERS(gather_f32, __m512, __m512i, _mm512_setzero_ps(), _mm512_add_ps, _mm512_i32gather_ps, ftab,
        _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30))
GATHERS(gather_f64, __m512d, __m256i, _mm512_setzero_pd(), _mm512_add_pd, _mm512_i32gather_pd, dtab,
        _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14))

int main(void)
{
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512dq")) {
        printf("roofline: this CPU has no AVX-512; nothing to measure\n");
        return 0;
    }
    for (int i = 0; i < 4096; i++) {
        ftab[i] = (float)i;
        dtab[i] = (double)i;
    }
    double cycle = best_of(add_chain, 50000000);
    double ghz = 1e-9 / cycle;
    printf("core clock                 %6.2f GHz (dependent integer adds)\n", ghz);
    struct {
        const char *name;
        double (*f)(long);
        int lanes;
    } ops[] = {
        { "vaddps ymm", add_ymm, 8 }, { "vaddps zmm", add_zmm, 16 },  { "vmulps zmm", mul_zmm, 16 },
        { "vdivps zmm", div_zmm, 16 }, { "vpermps zmm", perm_zmm, 16 }, { "vgatherdps zmm (16 f32)", gather_f32, 16 },
        { "vgatherdpd zmm (8 f64)", gather_f64, 8 },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        double t = best_of(ops[i].f, 20000000);
        printf("%-26s %6.2f per cycle  %6.2f cycles each  %6.1f G lanes/s\n", ops[i].name, cycle / t, t / cycle,
               ops[i].lanes / t * 1e-9);
    }
    return 0;
}
