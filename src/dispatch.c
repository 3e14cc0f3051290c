/* dispatch.c - which kernels this build has and which of them the CPU runs.
 * On x86 the SSE4.1/AVX2/AVX-512 units are compiled with their own flags and
 * run only where the CPU has the instructions; NEON runs through SIMDe
 * emulation (for testing). On aarch64 NEON is native and the x86 units are
 * emulated. The width-1 kernel runs everywhere. */
#include "dispatch.h"

#include <string.h>

#define KERNEL_DECL(isa)                                                                                     \
    void gjkb__gjk_run_##isa(const gjkb__world *w, const uint32_t *order, uint32_t count, const gjkb__lanes *l)
#define RECORDS_DECL(isa)                                                                                    \
    void gjkb__records_run_##isa(const gjkb__world *w, const uint8_t *kind, uint32_t hulls, uint32_t first, \
                                 uint32_t end, float *out)
KERNEL_DECL(scalar);
KERNEL_DECL(sse4);
KERNEL_DECL(avx2);
KERNEL_DECL(avx512);
KERNEL_DECL(neon);
RECORDS_DECL(scalar);
RECORDS_DECL(sse4);
RECORDS_DECL(avx2);
RECORDS_DECL(avx512);
RECORDS_DECL(neon);

static const gjkb__kernel kernels[GJKB_BACKEND_COUNT] = {
    [GJKB_BACKEND_SCALAR] = { "scalar", 1, gjkb__gjk_run_scalar, gjkb__records_run_scalar },
    [GJKB_BACKEND_SSE4] = { "sse4", 4, gjkb__gjk_run_sse4, gjkb__records_run_sse4 },
    [GJKB_BACKEND_AVX2] = { "avx2", 8, gjkb__gjk_run_avx2, gjkb__records_run_avx2 },
    [GJKB_BACKEND_AVX512] = { "avx512", 16, gjkb__gjk_run_avx512, gjkb__records_run_avx512 },
    [GJKB_BACKEND_NEON] = { "neon", 4, gjkb__gjk_run_neon, gjkb__records_run_neon },
};

#if defined(__x86_64__) || defined(__i386__)
#define GJKB_X86 1
#endif

int gjkb__kernel_native(gjkb_backend b)
{
    switch (b) {
    case GJKB_BACKEND_SCALAR: return 1;
#ifdef GJKB_X86
    case GJKB_BACKEND_SSE4: return __builtin_cpu_supports("sse4.1");
    case GJKB_BACKEND_AVX2: return __builtin_cpu_supports("avx2");
    case GJKB_BACKEND_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
#elif defined(__aarch64__)
    case GJKB_BACKEND_NEON: return 1;
#endif
    default: return 0;
    }
}

const gjkb__kernel *gjkb__kernel_for(gjkb_backend b)
{
    if ((unsigned)b >= GJKB_BACKEND_COUNT || !kernels[b].run)
        return NULL;
#ifdef GJKB_X86
    /* x86 units hold real instructions: only where the CPU has them. */
    if (b != GJKB_BACKEND_NEON && !gjkb__kernel_native(b))
        return NULL;
#endif
    return &kernels[b];
}

/* ---- names and the auto choice ------------------------------------------ */

static const char *const backend_names[GJKB_BACKEND_COUNT] = {
    "auto", "reference", "scalar", "sse4", "avx2", "avx512", "neon"
};

const char *gjkb_backend_name(gjkb_backend backend)
{
    return (unsigned)backend < GJKB_BACKEND_COUNT ? backend_names[backend] : "?";
}

gjkb_error gjkb_backend_parse(const char *name, gjkb_backend *out)
{
    if (!name || !out)
        return GJKB_ERR_NULL;
    for (int i = 0; i < GJKB_BACKEND_COUNT; i++) {
        if (strcmp(name, backend_names[i]) == 0) {
            *out = (gjkb_backend)i;
            return GJKB_OK;
        }
    }
    return GJKB_ERR_KIND;
}

int gjkb_backend_available(gjkb_backend backend)
{
    if (backend == GJKB_BACKEND_AUTO || backend == GJKB_BACKEND_REFERENCE)
        return 1;
    return (unsigned)backend < GJKB_BACKEND_COUNT && gjkb__kernel_for(backend) != NULL;
}

gjkb_backend gjkb__backend_auto(void)
{
    static const gjkb_backend order[] = {
        GJKB_BACKEND_AVX512, GJKB_BACKEND_AVX2, GJKB_BACKEND_SSE4, GJKB_BACKEND_NEON, GJKB_BACKEND_SCALAR
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (gjkb__kernel_native(order[i]))
            return order[i];
    return GJKB_BACKEND_REFERENCE;
}

/* ---- the broadphase kernels: the same widths and availability ---------- */

#define BROAD_DECL(isa)                                                                                     \
    void gjkb__bounds_run_##isa(const gjkb_context *ctx, const gjkb_bodies *bodies, uint32_t first,         \
                                uint32_t end, const gjkb_aabbs *out, uint32_t *cls);                       \
    bool gjkb__sweep_run_##isa(const gjkb__sorted *s, uint32_t first, uint32_t end, gjkb__pairbuf *out);   \
    void gjkb__keys_run_##isa(const gjkb__keyplan *p, uint32_t first, uint32_t end, uint32_t *key,          \
                              uint32_t *range);                                                            \
    void gjkb__fill_run_##isa(const float *const src[GJKB_SORTED_FIELDS], float *box, uint32_t *id,         \
                              uint32_t first, uint32_t live, uint32_t end)
BROAD_DECL(scalar);
BROAD_DECL(sse4);
BROAD_DECL(avx2);
BROAD_DECL(avx512);
BROAD_DECL(neon);

static const gjkb__broad_kernel broad_kernels[GJKB_BACKEND_COUNT] = {
    [GJKB_BACKEND_SCALAR] = { "scalar", 1, gjkb__bounds_run_scalar, gjkb__sweep_run_scalar, gjkb__keys_run_scalar,
                            gjkb__fill_run_scalar },
    [GJKB_BACKEND_SSE4] = { "sse4", 4, gjkb__bounds_run_sse4, gjkb__sweep_run_sse4, gjkb__keys_run_sse4,
                            gjkb__fill_run_sse4 },
    [GJKB_BACKEND_AVX2] = { "avx2", 8, gjkb__bounds_run_avx2, gjkb__sweep_run_avx2, gjkb__keys_run_avx2,
                            gjkb__fill_run_avx2 },
    [GJKB_BACKEND_AVX512] = { "avx512", 16, gjkb__bounds_run_avx512, gjkb__sweep_run_avx512, gjkb__keys_run_avx512,
                            gjkb__fill_run_avx512 },
    [GJKB_BACKEND_NEON] = { "neon", 4, gjkb__bounds_run_neon, gjkb__sweep_run_neon, gjkb__keys_run_neon,
                            gjkb__fill_run_neon },
};

const gjkb__broad_kernel *gjkb__broad_for(gjkb_backend b)
{
    /* The reference backend has no wide kernels of its own: width 1. */
    if (b == GJKB_BACKEND_REFERENCE)
        b = GJKB_BACKEND_SCALAR;
    return gjkb__kernel_for(b) ? &broad_kernels[b] : NULL;
}
