/* backends.h - the wide backends in one table, read by dispatch.c (kernel
 * tables, CPU checks, names, the auto order) and the tests.
 *
 * GJKB_WIDE_BACKENDS(X) calls X(id, isa, width, arch, cpu) once per wide
 * backend, in the order the auto choice tries them (widest first):
 *   id     its gjkb_backend value
 *   isa    its name (gjkb_backend_name) and the suffix of its units'
 *          symbols: gjkb__gjk_run_<isa> and gjkb__records_run_<isa> in
 *          kernel_<isa>.c, gjkb__scatter_<isa> in scatter_<isa>.c,
 *          gjkb__bounds_run_<isa> and the rest of the broad kernel table
 *          in broad_<isa>.c
 *   width  lanes per bundle (GJKB_W of its wide_<isa>.h)
 *   arch   where its units hold real instructions: X86, AARCH64 or ANY.
 *          Elsewhere they are built through SIMDe emulation: they run on
 *          any CPU (for testing) and auto never picks them.
 *   cpu    on that arch, whether this CPU has the instructions: an
 *          expression, compiled only there
 * The units' compile flags are the row's gjkb_isa() in CMakeLists.txt. A
 * new instruction set is its wide_<isa>.h, its two units, a row here and
 * its gjkb_isa() there. (The reference backend and auto are no rows: they
 * have no wide kernels.) */
#ifndef GJKB_BACKENDS_H
#define GJKB_BACKENDS_H

#include "gjkbatch.h"

#define GJKB_WIDE_BACKENDS(X)                                                                         \
    X(GJKB_BACKEND_AVX512, avx512, 16, X86,                                                           \
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&                       \
          __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw"))                    \
    X(GJKB_BACKEND_AVX2, avx2, 8, X86, __builtin_cpu_supports("avx2"))                                \
    X(GJKB_BACKEND_SSE4, sse4, 4, X86, __builtin_cpu_supports("sse4.1"))                              \
    X(GJKB_BACKEND_NEON, neon, 4, AARCH64, 1)                                                         \
    X(GJKB_BACKEND_SCALAR, scalar, 1, ANY, 1)

/* GJKB_ARCH_<arch>: whether this build targets the arch; GJKB_ON_<arch>(cpu):
 * the row's CPU check there, 0 elsewhere. */
#if defined(__x86_64__) || defined(__i386__)
#define GJKB_ARCH_X86 1
#define GJKB_ON_X86(cpu) (cpu)
#else
#define GJKB_ARCH_X86 0
#define GJKB_ON_X86(cpu) 0
#endif
#if defined(__aarch64__)
#define GJKB_ARCH_AARCH64 1
#define GJKB_ON_AARCH64(cpu) (cpu)
#else
#define GJKB_ARCH_AARCH64 0
#define GJKB_ON_AARCH64(cpu) 0
#endif
#define GJKB_ARCH_ANY 1
#define GJKB_ON_ANY(cpu) (cpu)

#endif
