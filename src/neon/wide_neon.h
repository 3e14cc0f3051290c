/* wide_neon.h - the wide-op vocabulary at 4 lanes on AArch64 NEON, through
 * SIMDe (real instructions on aarch64, emulated elsewhere, e.g. on x86).
 * Semantics are those of scalar/wide_scalar.h, lane by lane, bit for bit.
 * Masks are uint32x4_t whose lanes are all ones or all zeros. */
#ifndef GJKB_WIDE_NEON_H
#define GJKB_WIDE_NEON_H

#ifdef GJKB_W
#error "only one wide_<isa>.h header may be included per translation unit"
#endif

#include <math.h>
#include <stdint.h>
#include <simde/arm/neon.h>

#define GJKB_W 4
#define GJKB_WIDE_NAME "neon"
#define GJKB_ALIGN 16

typedef simde_float32x4_t fw;
typedef simde_uint32x4_t mw;
typedef simde_int32x4_t iw;

/* ---- float lanes ---- */
static inline fw fw_zero(void) { return simde_vdupq_n_f32(0.0f); }
static inline fw fw_splat(float x) { return simde_vdupq_n_f32(x); }
static inline fw fw_load(const float *p) { return simde_vld1q_f32(p); }
static inline fw fw_loadu(const float *p) { return simde_vld1q_f32(p); }
static inline void fw_store(float *p, fw v) { simde_vst1q_f32(p, v); }
static inline void fw_storeu(float *p, fw v) { simde_vst1q_f32(p, v); }

static inline fw fw_add(fw a, fw b) { return simde_vaddq_f32(a, b); }
static inline fw fw_sub(fw a, fw b) { return simde_vsubq_f32(a, b); }
static inline fw fw_mul(fw a, fw b) { return simde_vmulq_f32(a, b); }
/* SIMDe 0.7 has no vdivq_f32/vsqrtq_f32: the intrinsics on AArch64, a lane
 * loop (IEEE division and sqrtf) when emulated. */
static inline fw fw_div(fw a, fw b)
{
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vdivq_f32(a, b);
#else
    float x[4], y[4];
    simde_vst1q_f32(x, a);
    simde_vst1q_f32(y, b);
    for (int i = 0; i < 4; i++)
        x[i] = x[i] / y[i];
    return simde_vld1q_f32(x);
#endif
}
static inline fw fw_sqrt(fw a)
{
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vsqrtq_f32(a);
#else
    float x[4];
    simde_vst1q_f32(x, a);
    for (int i = 0; i < 4; i++)
        x[i] = sqrtf(x[i]);
    return simde_vld1q_f32(x);
#endif
}
/* fneg and fabs only touch the sign bit, NaNs included. */
static inline fw fw_neg(fw a) { return simde_vnegq_f32(a); }
static inline fw fw_abs(fw a) { return simde_vabsq_f32(a); }
static inline fw fw_copysign(fw mag, fw sgn) { return simde_vbslq_f32(simde_vdupq_n_u32(0x80000000u), sgn, mag); }
/* Not vminq/vmaxq: those return NaN for a NaN operand and order -0 < +0,
 * while the contract is the x86 (a < b) ? a : b. */
static inline fw fw_min(fw a, fw b) { return simde_vbslq_f32(simde_vcltq_f32(a, b), a, b); }
static inline fw fw_max(fw a, fw b) { return simde_vbslq_f32(simde_vcgtq_f32(a, b), a, b); }
static inline fw fw_sel(mw m, fw a, fw b) { return simde_vbslq_f32(m, a, b); }

static inline mw fw_lt(fw a, fw b) { return simde_vcltq_f32(a, b); }
static inline mw fw_le(fw a, fw b) { return simde_vcleq_f32(a, b); }
static inline mw fw_gt(fw a, fw b) { return simde_vcgtq_f32(a, b); }
static inline mw fw_ge(fw a, fw b) { return simde_vcgeq_f32(a, b); }
static inline mw fw_eq(fw a, fw b) { return simde_vceqq_f32(a, b); }
static inline mw fw_neq(fw a, fw b) { return simde_vmvnq_u32(simde_vceqq_f32(a, b)); }
static inline mw fw_isfinite(fw a) { return simde_vcltq_f32(simde_vabsq_f32(a), simde_vdupq_n_f32(INFINITY)); }

/* ---- masks ---- */
static inline mw mw_true(void) { return simde_vdupq_n_u32(0xFFFFFFFFu); }
static inline mw mw_false(void) { return simde_vdupq_n_u32(0u); }
static inline mw mw_and(mw a, mw b) { return simde_vandq_u32(a, b); }
static inline mw mw_or(mw a, mw b) { return simde_vorrq_u32(a, b); }
static inline mw mw_xor(mw a, mw b) { return simde_veorq_u32(a, b); }
static inline mw mw_not(mw a) { return simde_vmvnq_u32(a); }
static inline mw mw_andnot(mw a, mw b) { return simde_vbicq_u32(a, b); }
static inline int mw_any(mw m) { return simde_vmaxvq_u32(m) != 0; }
static inline int mw_all(mw m) { return simde_vminvq_u32(m) != 0; }
static inline simde_uint32x4_t gjkb__neon_lane_bits(void)
{
    static const uint32_t lane_bit[4] = {1, 2, 4, 8};
    return simde_vld1q_u32(lane_bit);
}
static inline unsigned mw_bits(mw m) { return simde_vaddvq_u32(simde_vandq_u32(m, gjkb__neon_lane_bits())); }
static inline mw mw_from_bits(unsigned bits) { return simde_vtstq_u32(simde_vdupq_n_u32(bits), gjkb__neon_lane_bits()); }

/* ---- int32 lanes ---- */
static inline iw iw_zero(void) { return simde_vdupq_n_s32(0); }
static inline iw iw_splat(int32_t x) { return simde_vdupq_n_s32(x); }
static inline iw iw_load(const int32_t *p) { return simde_vld1q_s32(p); }
static inline iw iw_loadu(const int32_t *p) { return simde_vld1q_s32(p); }
static inline void iw_store(int32_t *p, iw v) { simde_vst1q_s32(p, v); }
static inline void iw_storeu(int32_t *p, iw v) { simde_vst1q_s32(p, v); }
static inline iw iw_add(iw a, iw b) { return simde_vaddq_s32(a, b); }
static inline iw iw_sub(iw a, iw b) { return simde_vsubq_s32(a, b); }
static inline iw iw_min(iw a, iw b) { return simde_vminq_s32(a, b); }
static inline iw iw_max(iw a, iw b) { return simde_vmaxq_s32(a, b); }
static inline iw iw_sel(mw m, iw a, iw b) { return simde_vbslq_s32(m, a, b); }
static inline mw iw_lt(iw a, iw b) { return simde_vcltq_s32(a, b); }
static inline mw iw_eq(iw a, iw b) { return simde_vceqq_s32(a, b); }
static inline iw iw_lane_index(void)
{
    static const int32_t lane[4] = {0, 1, 2, 3};
    return simde_vld1q_s32(lane);
}
static inline mw mw_first_n(int n) { return simde_vcltq_s32(iw_lane_index(), simde_vdupq_n_s32(n)); }

/* r[i] lane k becomes r[k] lane i. */
static inline void fw_transpose4(fw r[4])
{
    simde_float32x4x2_t p = simde_vtrnq_f32(r[0], r[1]), q = simde_vtrnq_f32(r[2], r[3]);
    r[0] = simde_vcombine_f32(simde_vget_low_f32(p.val[0]), simde_vget_low_f32(q.val[0]));
    r[1] = simde_vcombine_f32(simde_vget_low_f32(p.val[1]), simde_vget_low_f32(q.val[1]));
    r[2] = simde_vcombine_f32(simde_vget_high_f32(p.val[0]), simde_vget_high_f32(q.val[0]));
    r[3] = simde_vcombine_f32(simde_vget_high_f32(p.val[1]), simde_vget_high_f32(q.val[1]));
}

/* No gather instruction: four lane loads. */
static inline fw fw_gather(const float *base, iw idx)
{
    fw r = simde_vdupq_n_f32(base[simde_vgetq_lane_s32(idx, 0)]);
    r = simde_vld1q_lane_f32(base + simde_vgetq_lane_s32(idx, 1), r, 1);
    r = simde_vld1q_lane_f32(base + simde_vgetq_lane_s32(idx, 2), r, 2);
    r = simde_vld1q_lane_f32(base + simde_vgetq_lane_s32(idx, 3), r, 3);
    return r;
}
static inline fw fw_from_iw(iw a) { return simde_vcvtq_f32_s32(a); }

/* Reinterpretation of a lane's bits, int32 bit ops and int32 gathers. */
static inline iw fw_bits(fw a) { return simde_vreinterpretq_s32_f32(a); }
static inline fw fw_from_bits(iw a) { return simde_vreinterpretq_f32_s32(a); }
static inline iw iw_and(iw a, iw b) { return simde_vandq_s32(a, b); }
static inline iw iw_gather(const int32_t *base, iw idx)
{
    iw r = simde_vdupq_n_s32(base[simde_vgetq_lane_s32(idx, 0)]);
    r = simde_vld1q_lane_s32(base + simde_vgetq_lane_s32(idx, 1), r, 1);
    r = simde_vld1q_lane_s32(base + simde_vgetq_lane_s32(idx, 2), r, 2);
    r = simde_vld1q_lane_s32(base + simde_vgetq_lane_s32(idx, 3), r, 3);
    return r;
}

/* Horizontal max of float lanes and min of int32 lanes, in registers. The
 * result is the same whatever the reduction order (max/min are exact; a
 * caller that compares with == does not mind -0 against +0). Lanes hold no
 * NaN where these are used. */
static inline float fw_reduce_max(fw a) { return simde_vmaxvq_f32(a); }
static inline int32_t iw_reduce_min(iw a) { return simde_vminvq_s32(a); }

/* ---- int32 shifts by a count 0..31 (the bucket keys of gjkb_step: the
 * bounds kernel's body classes, the sweep's pair info); by a register, as
 * the immediate forms need a constant the compiler may not see ---- */
static inline iw iw_shl(iw a, int n)   /* unsigned: bits may shift into the sign (feature keys) */
{
    return simde_vreinterpretq_s32_u32(simde_vshlq_u32(simde_vreinterpretq_u32_s32(a), simde_vdupq_n_s32(n)));
}
static inline iw iw_shr(iw a, int n)   /* logical: a negative count shifts right */
{
    return simde_vreinterpretq_s32_u32(simde_vshlq_u32(simde_vreinterpretq_u32_s32(a), simde_vdupq_n_s32(-n)));
}

#include "../kernel/wide_common.h"

#endif /* GJKB_WIDE_NEON_H */
