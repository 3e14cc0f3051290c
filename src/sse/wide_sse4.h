/* wide_sse4.h - the wide-op vocabulary at 4 lanes on SSE4.1, through SIMDe
 * (real instructions with -msse4.1, emulated otherwise, e.g. on ARM).
 * Semantics are those of scalar/wide_scalar.h, lane by lane, bit for bit.
 * Masks are float vectors whose lanes are all ones or all zeros. */
#ifndef GJKB_WIDE_SSE4_H
#define GJKB_WIDE_SSE4_H

#ifdef GJKB_W
#error "only one wide_<isa>.h header may be included per translation unit"
#endif

#include <math.h>
#include <stdint.h>
#include <simde/x86/sse4.1.h>

#define GJKB_W 4
#define GJKB_WIDE_NAME "sse4"
#define GJKB_ALIGN 16

typedef simde__m128 fw;
typedef simde__m128 mw;
typedef simde__m128i iw;

/* ---- float lanes ---- */
static inline fw fw_zero(void) { return simde_mm_setzero_ps(); }
static inline fw fw_splat(float x) { return simde_mm_set1_ps(x); }
static inline fw fw_load(const float *p) { return simde_mm_load_ps(p); }
static inline fw fw_loadu(const float *p) { return simde_mm_loadu_ps(p); }
static inline void fw_store(float *p, fw v) { simde_mm_store_ps(p, v); }
static inline void fw_storeu(float *p, fw v) { simde_mm_storeu_ps(p, v); }

static inline fw fw_add(fw a, fw b) { return simde_mm_add_ps(a, b); }
static inline fw fw_sub(fw a, fw b) { return simde_mm_sub_ps(a, b); }
static inline fw fw_mul(fw a, fw b) { return simde_mm_mul_ps(a, b); }
static inline fw fw_div(fw a, fw b) { return simde_mm_div_ps(a, b); }
static inline fw fw_sqrt(fw a) { return simde_mm_sqrt_ps(a); }
static inline fw fw_neg(fw a) { return simde_mm_xor_ps(a, simde_mm_set1_ps(-0.0f)); }
static inline fw fw_abs(fw a) { return simde_mm_andnot_ps(simde_mm_set1_ps(-0.0f), a); }
static inline fw fw_copysign(fw mag, fw sgn)
{
    const simde__m128 sign = simde_mm_set1_ps(-0.0f);
    return simde_mm_or_ps(simde_mm_andnot_ps(sign, mag), simde_mm_and_ps(sign, sgn));
}
/* minps/maxps are exactly (a < b) ? a : b and (a > b) ? a : b. */
static inline fw fw_min(fw a, fw b) { return simde_mm_min_ps(a, b); }
static inline fw fw_max(fw a, fw b) { return simde_mm_max_ps(a, b); }
static inline fw fw_sel(mw m, fw a, fw b) { return simde_mm_blendv_ps(b, a, m); }

static inline mw fw_lt(fw a, fw b) { return simde_mm_cmplt_ps(a, b); }
static inline mw fw_le(fw a, fw b) { return simde_mm_cmple_ps(a, b); }
static inline mw fw_gt(fw a, fw b) { return simde_mm_cmpgt_ps(a, b); }
static inline mw fw_ge(fw a, fw b) { return simde_mm_cmpge_ps(a, b); }
static inline mw fw_eq(fw a, fw b) { return simde_mm_cmpeq_ps(a, b); }
static inline mw fw_neq(fw a, fw b) { return simde_mm_cmpneq_ps(a, b); }
static inline mw fw_isfinite(fw a) { return simde_mm_cmplt_ps(fw_abs(a), simde_mm_set1_ps(INFINITY)); }

/* ---- masks ---- */
static inline mw mw_true(void) { return simde_mm_castsi128_ps(simde_mm_set1_epi32(-1)); }
static inline mw mw_false(void) { return simde_mm_setzero_ps(); }
static inline mw mw_and(mw a, mw b) { return simde_mm_and_ps(a, b); }
static inline mw mw_or(mw a, mw b) { return simde_mm_or_ps(a, b); }
static inline mw mw_xor(mw a, mw b) { return simde_mm_xor_ps(a, b); }
static inline mw mw_not(mw a) { return simde_mm_xor_ps(a, mw_true()); }
static inline mw mw_andnot(mw a, mw b) { return simde_mm_andnot_ps(b, a); }
static inline int mw_any(mw m) { return simde_mm_movemask_ps(m) != 0; }
static inline int mw_all(mw m) { return simde_mm_movemask_ps(m) == 0xF; }
static inline unsigned mw_bits(mw m) { return (unsigned)simde_mm_movemask_ps(m); }
static inline mw mw_from_bits(unsigned bits)
{
    const simde__m128i lane_bit = simde_mm_setr_epi32(1, 2, 4, 8);
    simde__m128i v = simde_mm_and_si128(simde_mm_set1_epi32((int32_t)bits), lane_bit);
    return simde_mm_castsi128_ps(simde_mm_cmpeq_epi32(v, lane_bit));
}
static inline mw mw_first_n(int n)
{
    return simde_mm_castsi128_ps(simde_mm_cmpgt_epi32(simde_mm_set1_epi32(n), simde_mm_setr_epi32(0, 1, 2, 3)));
}

/* ---- int32 lanes ---- */
static inline iw iw_zero(void) { return simde_mm_setzero_si128(); }
static inline iw iw_splat(int32_t x) { return simde_mm_set1_epi32(x); }
static inline iw iw_load(const int32_t *p) { return simde_mm_load_si128((const simde__m128i *)(const void *)p); }
static inline iw iw_loadu(const int32_t *p) { return simde_mm_loadu_si128((const simde__m128i *)(const void *)p); }
static inline void iw_store(int32_t *p, iw v) { simde_mm_store_si128((simde__m128i *)(void *)p, v); }
static inline void iw_storeu(int32_t *p, iw v) { simde_mm_storeu_si128((simde__m128i *)(void *)p, v); }
static inline iw iw_add(iw a, iw b) { return simde_mm_add_epi32(a, b); }
static inline iw iw_sub(iw a, iw b) { return simde_mm_sub_epi32(a, b); }
static inline iw iw_min(iw a, iw b) { return simde_mm_min_epi32(a, b); }
static inline iw iw_max(iw a, iw b) { return simde_mm_max_epi32(a, b); }
static inline iw iw_sel(mw m, iw a, iw b)
{
    return simde_mm_castps_si128(simde_mm_blendv_ps(simde_mm_castsi128_ps(b), simde_mm_castsi128_ps(a), m));
}
static inline mw iw_lt(iw a, iw b) { return simde_mm_castsi128_ps(simde_mm_cmplt_epi32(a, b)); }
static inline mw iw_eq(iw a, iw b) { return simde_mm_castsi128_ps(simde_mm_cmpeq_epi32(a, b)); }
static inline iw iw_lane_index(void) { return simde_mm_setr_epi32(0, 1, 2, 3); }

/* r[i] lane k becomes r[k] lane i. */
static inline void fw_transpose4(fw r[4])
{
    fw t0 = simde_mm_unpacklo_ps(r[0], r[1]), t1 = simde_mm_unpackhi_ps(r[0], r[1]);
    fw t2 = simde_mm_unpacklo_ps(r[2], r[3]), t3 = simde_mm_unpackhi_ps(r[2], r[3]);
    r[0] = simde_mm_movelh_ps(t0, t2);
    r[1] = simde_mm_movehl_ps(t2, t0);
    r[2] = simde_mm_movelh_ps(t1, t3);
    r[3] = simde_mm_movehl_ps(t3, t1);
}

/* No gather instruction before AVX2: four scalar loads. */
static inline fw fw_gather(const float *base, iw idx)
{
    return simde_mm_setr_ps(base[simde_mm_extract_epi32(idx, 0)], base[simde_mm_extract_epi32(idx, 1)],
                            base[simde_mm_extract_epi32(idx, 2)], base[simde_mm_extract_epi32(idx, 3)]);
}
static inline fw fw_from_iw(iw a) { return simde_mm_cvtepi32_ps(a); }

/* Reinterpretation of a lane's bits, int32 bit ops and int32 gathers. */
static inline iw fw_bits(fw a) { return simde_mm_castps_si128(a); }
static inline fw fw_from_bits(iw a) { return simde_mm_castsi128_ps(a); }
static inline iw iw_and(iw a, iw b) { return simde_mm_and_si128(a, b); }
static inline iw iw_gather(const int32_t *base, iw idx)
{
    return simde_mm_setr_epi32(base[simde_mm_extract_epi32(idx, 0)], base[simde_mm_extract_epi32(idx, 1)],
                               base[simde_mm_extract_epi32(idx, 2)], base[simde_mm_extract_epi32(idx, 3)]);
}

/* Horizontal max of float lanes and min of int32 lanes, in registers. The
 * result is the same whatever the reduction order (max/min are exact; a
 * caller that compares with == does not mind -0 against +0). */
static inline float fw_reduce_max(fw a)
{
    fw m = simde_mm_max_ps(a, simde_mm_shuffle_ps(a, a, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
    m = simde_mm_max_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm_cvtss_f32(m);
}
static inline int32_t iw_reduce_min(iw a)
{
    iw m = simde_mm_min_epi32(a, simde_mm_shuffle_epi32(a, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
    m = simde_mm_min_epi32(m, simde_mm_shuffle_epi32(m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm_cvtsi128_si32(m);
}

/* ---- int32 shifts by a count 0..31 (the bucket keys of gjkb_step: the
 * bounds kernel's body classes, the sweep's pair info); the count form,
 * which a constant count folds to the immediate one ---- */
static inline iw iw_shl(iw a, int n) { return simde_mm_sll_epi32(a, simde_mm_cvtsi32_si128(n)); }
static inline iw iw_shr(iw a, int n) { return simde_mm_srl_epi32(a, simde_mm_cvtsi32_si128(n)); }   /* logical */

#include "../kernel/wide_common.h"

#endif /* GJKB_WIDE_SSE4_H */
