/* wide_check.h - data shared by the wide-op check (wide_check.inl, compiled
 * once per ISA variant) and its driver (test_wide.c).
 *
 * A variant runs every op over the same inputs and writes one 32-bit
 * pattern per lane and op, so the driver can memcmp any variant against the
 * width-1 one. Properties that depend on the width (horizontal ops, mask
 * bits, lane index) are checked inside the variant and counted as failures. */
#ifndef WIDE_CHECK_H
#define WIDE_CHECK_H

#include <stdint.h>

#define WCHK_N 4096       /* lanes of input; a multiple of every width */
#define WCHK_PAD 16       /* readable floats past the end (unaligned loads) */
#define WCHK_GATHER 509   /* size of the gather table */

/* Element-wise ops. Masks are written as 0 or 7: bit 0 from mw_bits, bit 1
 * from fw_sel(m, 1, 0), bit 2 from iw_sel(m, 1, 0), so all three views of
 * a mask are compared at once. */
#define WCHK_OPS(X) \
    X(F_ZERO) X(F_SPLAT) X(F_LOAD) X(F_LOADU) X(F_ADD) X(F_SUB) X(F_MUL) X(F_DIV) X(F_SQRT) \
    X(F_NEG) X(F_ABS) X(F_MIN) X(F_MAX) X(F_COPYSIGN) X(F_SEL) X(F_SEL_LT) X(F_FROM_IW)   \
    X(F_GATHER) X(M_LT) X(M_LE) X(M_GT) X(M_GE) X(M_EQ) X(M_NEQ) X(M_ISFINITE) X(M_TRUE)  \
    X(M_FALSE) X(M_AND) X(M_OR) X(M_XOR) X(M_NOT) X(M_ANDNOT) X(M_FROM_BITS) X(M_IW_LT)    \
    X(M_IW_EQ) X(I_ZERO) X(I_SPLAT) X(I_LOAD) X(I_LOADU) X(I_ADD) X(I_SUB) X(I_MIN)        \
    X(I_MAX) X(I_SEL) X(I_SEL_LT) X(I_SHL) X(I_SHR) X(V_DOT) X(V_LEN2) X(V_CROSS_X) X(V_CROSS_Y) X(V_CROSS_Z) \
    X(V_ADD_X) X(V_SUB_Y) X(V_NEG_Z) X(V_SCALE_X) X(V_SEL_Y)

#define WCHK_ENUM(name) WCHK_##name,
enum { WCHK_OPS(WCHK_ENUM) WCHK_OP_COUNT };
#undef WCHK_ENUM

typedef struct wchk_in {
    _Alignas(64) float a[WCHK_N + WCHK_PAD];
    _Alignas(64) float b[WCHK_N + WCHK_PAD];
    _Alignas(64) float c[WCHK_N + WCHK_PAD];
    _Alignas(64) int32_t ia[WCHK_N + WCHK_PAD];
    _Alignas(64) int32_t ib[WCHK_N + WCHK_PAD];
    _Alignas(64) float h[WCHK_N];         /* for horizontal ops: runs of zeros of both signs, NaNs */
    _Alignas(64) int32_t mask[WCHK_N];    /* 0 or 1: a mask input per lane */
    _Alignas(64) int32_t gidx[WCHK_N];    /* in [0, WCHK_GATHER) */
    float gtab[WCHK_GATHER];
} wchk_in;

typedef struct wchk_out {
    _Alignas(64) uint32_t r[WCHK_OP_COUNT][WCHK_N];
    int width;
    const char *name;       /* GJKB_WIDE_NAME */
    int failures;           /* width-dependent property checks that failed */
    char first_failure[256];
} wchk_out;

/* One variant per ISA build, named wchk_run<suffix>. */
#define WCHK_DECLARE(suffix) void wchk_run##suffix(const wchk_in *in, wchk_out *out);

#endif
