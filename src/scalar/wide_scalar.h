/* wide_scalar.h - the wide-op vocabulary at width 1, in plain C.
 *
 * This header is the definition of every op's semantics: each other
 * wide_<isa>.h gives, lane by lane, exactly the bits these functions give.
 * fw is a float, iw an int32_t, mw a bool.
 *
 * One exception to bit-identity: when two NaNs meet in one arithmetic op
 * (two NaN operands, or a NaN made inside a chain such as 0 * inf meeting
 * one passed through), whose payload comes out is not part of the contract:
 * IEEE leaves it open and compilers commute + and * freely. The result is
 * always a NaN; code that stores NaNs and compares bits should write a
 * canonical NaN. Selections (min, max, sel, copysign, abs, neg) are exact.
 *
 * Include exactly one wide_<isa>.h per translation unit; it pulls in
 * kernel/wide_common.h (horizontal ops, 3-vectors) at its end. */
#ifndef GJKB_WIDE_SCALAR_H
#define GJKB_WIDE_SCALAR_H

#ifdef GJKB_W
#error "only one wide_<isa>.h header may be included per translation unit"
#endif

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define GJKB_W 1
#define GJKB_WIDE_NAME "scalar"
#define GJKB_ALIGN 4

typedef float fw;
typedef bool mw;
typedef int32_t iw;

/* ---- float lanes ---- */
static inline fw fw_zero(void) { return 0.0f; }
static inline fw fw_splat(float x) { return x; }
static inline fw fw_load(const float *p) { return *p; }
static inline fw fw_loadu(const float *p) { return *p; }
static inline void fw_store(float *p, fw v) { *p = v; }
static inline void fw_storeu(float *p, fw v) { *p = v; }

static inline fw fw_add(fw a, fw b) { return a + b; }
static inline fw fw_sub(fw a, fw b) { return a - b; }
static inline fw fw_mul(fw a, fw b) { return a * b; }
static inline fw fw_div(fw a, fw b) { return a / b; }
static inline fw fw_sqrt(fw a) { return sqrtf(a); }
/* neg, abs and copysign touch only the sign bit, NaNs included. */
static inline fw fw_neg(fw a) { return -a; }
static inline fw fw_abs(fw a) { return fabsf(a); }
static inline fw fw_copysign(fw mag, fw sgn) { return copysignf(mag, sgn); }

/* minps/maxps rule: the second operand unless the first compares strictly
 * smaller (larger), so a NaN in either operand gives b, and min(-0, +0) = +0. */
static inline fw fw_min(fw a, fw b) { return a < b ? a : b; }
static inline fw fw_max(fw a, fw b) { return a > b ? a : b; }
static inline fw fw_sel(mw m, fw a, fw b) { return m ? a : b; }

/* Ordered compares are false when either operand is NaN; neq is true. */
static inline mw fw_lt(fw a, fw b) { return a < b; }
static inline mw fw_le(fw a, fw b) { return a <= b; }
static inline mw fw_gt(fw a, fw b) { return a > b; }
static inline mw fw_ge(fw a, fw b) { return a >= b; }
static inline mw fw_eq(fw a, fw b) { return a == b; }
static inline mw fw_neq(fw a, fw b) { return a != b; }
/* |a| < inf is false exactly for Inf and NaN. */
static inline mw fw_isfinite(fw a) { return fabsf(a) < INFINITY; }

/* ---- masks (bitwise, so no short-circuit branches) ---- */
static inline mw mw_true(void) { return true; }
static inline mw mw_false(void) { return false; }
static inline mw mw_and(mw a, mw b) { return a & b; }
static inline mw mw_or(mw a, mw b) { return a | b; }
static inline mw mw_xor(mw a, mw b) { return a ^ b; }
static inline mw mw_not(mw a) { return !a; }
static inline mw mw_andnot(mw a, mw b) { return a & !b; }
static inline int mw_any(mw m) { return m; }
static inline int mw_all(mw m) { return m; }
static inline unsigned mw_bits(mw m) { return m ? 1u : 0u; }
static inline mw mw_from_bits(unsigned bits) { return (bits & 1u) != 0; }
static inline mw mw_first_n(int n) { return n > 0; }

/* ---- int32 lanes (add and sub wrap around) ---- */
static inline iw iw_zero(void) { return 0; }
static inline iw iw_splat(int32_t x) { return x; }
static inline iw iw_load(const int32_t *p) { return *p; }
static inline iw iw_loadu(const int32_t *p) { return *p; }
static inline void iw_store(int32_t *p, iw v) { *p = v; }
static inline void iw_storeu(int32_t *p, iw v) { *p = v; }
static inline iw iw_add(iw a, iw b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline iw iw_sub(iw a, iw b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static inline iw iw_min(iw a, iw b) { return a < b ? a : b; }
static inline iw iw_max(iw a, iw b) { return a > b ? a : b; }
static inline iw iw_sel(mw m, iw a, iw b) { return m ? a : b; }
static inline mw iw_lt(iw a, iw b) { return a < b; }
static inline mw iw_eq(iw a, iw b) { return a == b; }
static inline iw iw_lane_index(void) { return 0; }

/* lane i = base[idx[i]]; indices must be >= 0 and in range. */
static inline fw fw_gather(const float *base, iw idx) { return base[idx]; }
/* Round to nearest even, as cvtdq2ps and vcvtq_f32_s32 do. */
static inline fw fw_from_iw(iw a) { return (float)a; }

/* Reinterpretation of a lane's bits, int32 bit ops and int32 gathers. */
static inline iw fw_bits(fw a)
{
    iw r;
    memcpy(&r, &a, sizeof r);
    return r;
}
static inline fw fw_from_bits(iw a)
{
    fw r;
    memcpy(&r, &a, sizeof r);
    return r;
}
static inline iw iw_and(iw a, iw b) { return a & b; }
static inline iw iw_gather(const int32_t *base, iw idx) { return base[idx]; }

/* Horizontal max of float lanes and min of int32 lanes, in registers. The
 * result is the same whatever the reduction order (max/min are exact; a
 * caller that compares with == does not mind -0 against +0). */
static inline float fw_reduce_max(fw a) { return a; }
static inline int32_t iw_reduce_min(iw a) { return a; }

/* ---- int32 shifts by a count 0..31 (the bucket keys of gjkb_step: the
 * bounds kernel's body classes, the sweep's pair info) ---- */
static inline iw iw_shl(iw a, int n) { return (int32_t)((uint32_t)a << n); }
static inline iw iw_shr(iw a, int n) { return (int32_t)((uint32_t)a >> n); }   /* logical */

#include "../kernel/wide_common.h"

#endif /* GJKB_WIDE_SCALAR_H */
