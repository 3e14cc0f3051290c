/* dispatch.c - which kernels this build has and which of them the CPU runs,
 * the backends' names and the auto choice, all from the rows of
 * backends.h. On x86 the SSE4.1/AVX2/AVX-512 units are compiled with their
 * own flags and run only where the CPU has the instructions; NEON runs
 * through SIMDe emulation (for testing). On aarch64 NEON is native and the
 * x86 units are emulated. The width-1 kernel runs everywhere. */
#include "dispatch.h"
#include "backends.h"

#include <string.h>

/* The units' symbols, and the kernel table by backend. (Parameters end in
 * _ so that none of them stands for a field name in the rows.) */
#define KERNEL_DECL(id_, isa_, w_, arch_, cpu_)                                                              \
    void gjkb__gjk_run_##isa_(const gjkb__world *w, uint32_t count, const gjkb__lanes *l);                       \
    void gjkb__records_run_##isa_(const gjkb__world *w, const uint8_t *kind, uint32_t hulls, uint32_t first,     \
                                  uint32_t end, float *out);                                                  \
    void gjkb__scatter_##isa_(const gjkb__lanes *l, const uint32_t *idx, uint32_t lanes, const gjkb_bodies *bd, \
                              const gjkb_pairs *pr, gjkb_mode mode, gjkb_results *out, bool stream);
GJKB_WIDE_BACKENDS(KERNEL_DECL)

#define KERNEL_ROW(id_, isa_, w_, arch_, cpu_)                                                       \
    [id_] = { .name = #isa_, .width = w_, .run = gjkb__gjk_run_##isa_, .records = gjkb__records_run_##isa_, \
              .scatter = gjkb__scatter_##isa_ },
static const gjkb__kernel kernels[GJKB_BACKEND_COUNT] = { GJKB_WIDE_BACKENDS(KERNEL_ROW) };

/* Built through SIMDe on this build: runs on any CPU. */
#define EMULATED_ROW(id_, isa_, w_, arch_, cpu_) [id_] = !GJKB_ARCH_##arch_,
static const bool emulated[GJKB_BACKEND_COUNT] = { GJKB_WIDE_BACKENDS(EMULATED_ROW) };

#define NATIVE_CASE(id_, isa_, w_, arch_, cpu_) \
    case id_: return GJKB_ON_##arch_(cpu_);
int gjkb__kernel_native(gjkb_backend b)
{
    switch (b) {
    GJKB_WIDE_BACKENDS(NATIVE_CASE)
    default: return 0;
    }
}

const gjkb__kernel *gjkb__kernel_for(gjkb_backend b)
{
    if ((unsigned)b >= GJKB_BACKEND_COUNT || !kernels[b].run)
        return NULL;
    /* A unit with real instructions runs only where the CPU has them. */
    if (!emulated[b] && !gjkb__kernel_native(b))
        return NULL;
    return &kernels[b];
}

/* ---- names and the auto choice ------------------------------------------ */

#define NAME_ROW(id_, isa_, w_, arch_, cpu_) [id_] = #isa_,
static const char *const backend_names[GJKB_BACKEND_COUNT] = {
    [GJKB_BACKEND_AUTO] = "auto", [GJKB_BACKEND_REFERENCE] = "reference", GJKB_WIDE_BACKENDS(NAME_ROW)
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

#define AUTO_ROW(id_, isa_, w_, arch_, cpu_) id_,
gjkb_backend gjkb__backend_auto(void)
{
    static const gjkb_backend order[] = { GJKB_WIDE_BACKENDS(AUTO_ROW) };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (gjkb__kernel_native(order[i]))
            return order[i];
    return GJKB_BACKEND_REFERENCE;
}

/* ---- the broadphase kernels: the same widths and availability ---------- */

#define BROAD_DECL(id_, isa_, w_, arch_, cpu_)                                                              \
    void gjkb__bounds_run_##isa_(const gjkb_context *ctx, const gjkb_bodies *bodies, uint32_t first,         \
                                 uint32_t end, const gjkb_aabbs *out, uint32_t *cls);                       \
    bool gjkb__sweep_run_##isa_(const gjkb__sorted *s, uint32_t first, uint32_t end, gjkb__pairbuf *out);   \
    void gjkb__keys_run_##isa_(const gjkb__keyplan *p, uint32_t first, uint32_t end, uint32_t *key,          \
                               uint32_t *range);                                                            \
    void gjkb__fill_run_##isa_(const float *const src[GJKB_SORTED_FIELDS], float *box, uint32_t *id,         \
                               uint32_t first, uint32_t live, uint32_t end);
GJKB_WIDE_BACKENDS(BROAD_DECL)

#define BROAD_ROW(id_, isa_, w_, arch_, cpu_)                                                                \
    [id_] = { .name = #isa_, .width = w_, .bounds = gjkb__bounds_run_##isa_, .sweep = gjkb__sweep_run_##isa_, \
              .keys = gjkb__keys_run_##isa_, .fill = gjkb__fill_run_##isa_ },
static const gjkb__broad_kernel broad_kernels[GJKB_BACKEND_COUNT] = { GJKB_WIDE_BACKENDS(BROAD_ROW) };

const gjkb__broad_kernel *gjkb__broad_for(gjkb_backend b)
{
    /* The reference backend has no wide kernels of its own: width 1. */
    if (b == GJKB_BACKEND_REFERENCE)
        b = GJKB_BACKEND_SCALAR;
    return gjkb__kernel_for(b) ? &broad_kernels[b] : NULL;
}
