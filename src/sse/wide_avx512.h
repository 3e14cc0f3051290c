/* wide_avx512.h - the wide-op vocabulary at 16 lanes on AVX-512 (F, VL, DQ,
 * BW), through SIMDe (real instructions with -mavx512f -mavx512vl
 * -mavx512dq -mavx512bw, emulated otherwise, e.g. on ARM).
 * Semantics are those of scalar/wide_scalar.h, lane by lane, bit for bit.
 * Masks are simde__mmask16 bit masks: bit i is lane i. */
#ifndef GJKB_WIDE_AVX512_H
#define GJKB_WIDE_AVX512_H

#ifdef GJKB_W
#error "only one wide_<isa>.h header may be included per translation unit"
#endif

#include <math.h>
#include <stdint.h>
#include <simde/x86/avx512.h>

#define GJKB_W 16
#define GJKB_WIDE_NAME "avx512"
#define GJKB_ALIGN 64

typedef simde__m512 fw;
typedef simde__mmask16 mw;
typedef simde__m512i iw;

/* ---- float lanes ---- */
static inline fw fw_zero(void) { return simde_mm512_setzero_ps(); }
static inline fw fw_splat(float x) { return simde_mm512_set1_ps(x); }
static inline fw fw_load(const float *p) { return simde_mm512_load_ps(p); }
static inline fw fw_loadu(const float *p) { return simde_mm512_loadu_ps(p); }
static inline void fw_store(float *p, fw v) { simde_mm512_store_ps(p, v); }
static inline void fw_storeu(float *p, fw v) { simde_mm512_storeu_ps(p, v); }

static inline fw fw_add(fw a, fw b) { return simde_mm512_add_ps(a, b); }
static inline fw fw_sub(fw a, fw b) { return simde_mm512_sub_ps(a, b); }
static inline fw fw_mul(fw a, fw b) { return simde_mm512_mul_ps(a, b); }
static inline fw fw_div(fw a, fw b) { return simde_mm512_div_ps(a, b); }
static inline fw fw_sqrt(fw a) { return simde_mm512_sqrt_ps(a); }
/* Sign-bit ops as integer logic: SIMDe's emulated abs_ps compares with
 * zero, which is wrong for -0 and NaN. */
static inline fw fw_neg(fw a)
{
    return simde_mm512_castsi512_ps(
        simde_mm512_xor_si512(simde_mm512_castps_si512(a), simde_mm512_set1_epi32(INT32_MIN)));
}
static inline fw fw_abs(fw a)
{
    return simde_mm512_castsi512_ps(
        simde_mm512_and_si512(simde_mm512_castps_si512(a), simde_mm512_set1_epi32(INT32_MAX)));
}
/* One vpternlogd: 0xCA is "first ? second : third" per bit. */
static inline fw fw_copysign(fw mag, fw sgn)
{
    return simde_mm512_castsi512_ps(simde_mm512_ternarylogic_epi32(
        simde_mm512_set1_epi32(INT32_MIN), simde_mm512_castps_si512(sgn), simde_mm512_castps_si512(mag), 0xCA));
}
/* vminps/vmaxps are exactly (a < b) ? a : b and (a > b) ? a : b. */
static inline fw fw_min(fw a, fw b) { return simde_mm512_min_ps(a, b); }
static inline fw fw_max(fw a, fw b) { return simde_mm512_max_ps(a, b); }
/* mask_blend takes the second source where the mask bit is set. */
static inline fw fw_sel(mw m, fw a, fw b) { return simde_mm512_mask_blend_ps(m, b, a); }

static inline mw fw_lt(fw a, fw b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ); }
static inline mw fw_le(fw a, fw b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LE_OQ); }
static inline mw fw_gt(fw a, fw b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GT_OQ); }
static inline mw fw_ge(fw a, fw b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GE_OQ); }
static inline mw fw_eq(fw a, fw b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_EQ_OQ); }
static inline mw fw_neq(fw a, fw b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_NEQ_UQ); }
static inline mw fw_isfinite(fw a)
{
    return simde_mm512_cmp_ps_mask(fw_abs(a), simde_mm512_set1_ps(INFINITY), SIMDE_CMP_LT_OQ);
}

/* ---- masks (plain integer ops; the compiler keeps them in k registers
 * where that pays) ---- */
static inline mw mw_true(void) { return (mw)0xFFFFu; }
static inline mw mw_false(void) { return (mw)0u; }
static inline mw mw_and(mw a, mw b) { return (mw)(a & b); }
static inline mw mw_or(mw a, mw b) { return (mw)(a | b); }
static inline mw mw_xor(mw a, mw b) { return (mw)(a ^ b); }
static inline mw mw_not(mw a) { return (mw)(~a & 0xFFFFu); }
static inline mw mw_andnot(mw a, mw b) { return (mw)(a & ~b & 0xFFFFu); }
static inline int mw_any(mw m) { return m != 0; }
static inline int mw_all(mw m) { return m == 0xFFFFu; }
static inline unsigned mw_bits(mw m) { return (unsigned)m; }
static inline mw mw_from_bits(unsigned bits) { return (mw)(bits & 0xFFFFu); }

/* ---- int32 lanes ---- */
static inline iw iw_zero(void) { return simde_mm512_setzero_si512(); }
static inline iw iw_splat(int32_t x) { return simde_mm512_set1_epi32(x); }
static inline iw iw_load(const int32_t *p) { return simde_mm512_load_si512(p); }
static inline iw iw_loadu(const int32_t *p) { return simde_mm512_loadu_si512(p); }
static inline void iw_store(int32_t *p, iw v) { simde_mm512_store_si512(p, v); }
static inline void iw_storeu(int32_t *p, iw v) { simde_mm512_storeu_si512(p, v); }
static inline iw iw_add(iw a, iw b) { return simde_mm512_add_epi32(a, b); }
static inline iw iw_sub(iw a, iw b) { return simde_mm512_sub_epi32(a, b); }
static inline iw iw_min(iw a, iw b) { return simde_mm512_min_epi32(a, b); }
static inline iw iw_max(iw a, iw b) { return simde_mm512_max_epi32(a, b); }
static inline iw iw_sel(mw m, iw a, iw b) { return simde_mm512_mask_blend_epi32(m, b, a); }
static inline mw iw_lt(iw a, iw b) { return simde_mm512_cmpgt_epi32_mask(b, a); }
static inline mw iw_eq(iw a, iw b) { return simde_mm512_cmpeq_epi32_mask(a, b); }
/* A load from a table: GCC builds setr_epi32 lane by lane here. */
static inline iw iw_lane_index(void)
{
    static const _Alignas(64) int32_t lane[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    return simde_mm512_load_si512(lane);
}

static inline mw mw_first_n(int n) { return simde_mm512_cmpgt_epi32_mask(simde_mm512_set1_epi32(n), iw_lane_index()); }

/* The lanes of a where m is set, moved down in order (vpcompressd); the
 * lanes above them are zero. Optional: only an ISA with the instruction
 * defines it (emulated through memory it loses to a branch). */
#define GJKB_WIDE_COMPRESS 1
static inline iw iw_compress(mw m, iw a) { return simde_mm512_maskz_compress_epi32(m, a); }

/* Sixteen records, one 64-byte load or store each, transposed in
 * registers: pairs of rows interleaved, then quads, then 128-bit blocks in
 * two rounds (64 shuffles for what would be 16 gathers). A 16x16 transpose
 * is its own inverse, so loading and storing share it. */
#define GJKB_WIDE_RECORDS 1
static inline void gjkb_transpose16(const fw r[16], fw out[16])
{
    fw t[16], u[16];
    for (int j = 0; j < 8; j++) {
        t[2 * j] = simde_mm512_unpacklo_ps(r[2 * j], r[2 * j + 1]);
        t[2 * j + 1] = simde_mm512_unpackhi_ps(r[2 * j], r[2 * j + 1]);
    }
    /* u[4g + m], 128-bit block L: element 4L + m of rows 4g .. 4g + 3 */
    for (int g = 0; g < 4; g++) {
        u[4 * g] = simde_mm512_shuffle_ps(t[4 * g], t[4 * g + 2], 0x44);
        u[4 * g + 1] = simde_mm512_shuffle_ps(t[4 * g], t[4 * g + 2], 0xEE);
        u[4 * g + 2] = simde_mm512_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0x44);
        u[4 * g + 3] = simde_mm512_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0xEE);
    }
    for (int m = 0; m < 4; m++) {
        fw v0 = simde_mm512_shuffle_f32x4(u[m], u[4 + m], 0x88), v1 = simde_mm512_shuffle_f32x4(u[m], u[4 + m], 0xDD);
        fw v2 = simde_mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0x88);
        fw v3 = simde_mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0xDD);
        out[m] = simde_mm512_shuffle_f32x4(v0, v2, 0x88);
        out[8 + m] = simde_mm512_shuffle_f32x4(v0, v2, 0xDD);
        out[4 + m] = simde_mm512_shuffle_f32x4(v1, v3, 0x88);
        out[12 + m] = simde_mm512_shuffle_f32x4(v1, v3, 0xDD);
    }
}
static inline void fw_load_records(const float *base, iw idx, fw out[16])
{
    _Alignas(64) int32_t ix[16];
    simde_mm512_store_si512(ix, idx);
    fw r[16];
    for (int i = 0; i < 16; i++)
        r[i] = simde_mm512_load_ps(base + (size_t)ix[i] * 16);
    gjkb_transpose16(r, out);
}
static inline void fw_store_records(float *base, const fw rows[16])
{
    fw r[16];
    gjkb_transpose16(rows, r);
    for (int i = 0; i < 16; i++)
        simde_mm512_store_ps(base + (size_t)i * 16, r[i]);
}

/* Optional, native only (SIMDe has no embedded rounding): the float next
 * to p + d outward, for W doubles p (unaligned) and float lanes d, exactly.
 * The rounding mode rides in the instructions, and rounding the double sum
 * down then to float down is rounding the exact sum down. An exact zero sum
 * comes out as round to nearest gives it (+0 unless both are -0), which
 * rounding down alone would not. And the lanes where |p| <= bound (NaN
 * false). */
#if defined(SIMDE_X86_AVX512F_NATIVE)
#define GJKB_WIDE_ROUNDED_ADD 1
static inline __m512d gjkb_f64_half(fw d, int upper)
{
    return _mm512_cvtps_pd(upper ? _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(d), 1))
                                 : _mm512_castps512_ps256(d));
}
static inline fw fw_add_f64_down(const double *p, fw d)
{
    __m256 h[2];
    for (int k = 0; k < 2; k++) {
        __m512d a = _mm512_loadu_pd(p + 8 * k), b = gjkb_f64_half(d, k);
        __m512d s = _mm512_add_round_pd(a, b, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        s = _mm512_mask_add_pd(s, _mm512_cmp_pd_mask(s, _mm512_setzero_pd(), _CMP_EQ_OQ), a, b);
        h[k] = _mm512_cvt_roundpd_ps(s, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    }
    return _mm512_insertf32x8(_mm512_castps256_ps512(h[0]), h[1], 1);
}
static inline fw fw_add_f64_up(const double *p, fw d)
{
    __m256 h[2];
    for (int k = 0; k < 2; k++) {
        __m512d s = _mm512_add_round_pd(_mm512_loadu_pd(p + 8 * k), gjkb_f64_half(d, k),
                                        _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
        h[k] = _mm512_cvt_roundpd_ps(s, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
    }
    return _mm512_insertf32x8(_mm512_castps256_ps512(h[0]), h[1], 1);
}
static inline mw mw_f64_abs_le(const double *p, double bound)
{
    __m512d b = _mm512_set1_pd(bound);
    unsigned lo = _mm512_cmp_pd_mask(_mm512_abs_pd(_mm512_loadu_pd(p)), b, _CMP_LE_OQ);
    unsigned hi = _mm512_cmp_pd_mask(_mm512_abs_pd(_mm512_loadu_pd(p + 8)), b, _CMP_LE_OQ);
    return (mw)(lo | hi << 8);
}
#endif

/* SIMDe 0.7 has no 512-bit gather or int->float conversion: use the
 * intrinsics when native, a lane loop when emulated. */
static inline fw fw_gather(const float *base, iw idx)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_i32gather_ps(idx, base, 4);
#else
    int32_t ix[16];
    float r[16];
    simde_mm512_storeu_si512(ix, idx);
    for (int i = 0; i < 16; i++)
        r[i] = base[ix[i]];
    return simde_mm512_loadu_ps(r);
#endif
}
static inline fw fw_from_iw(iw a)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_cvtepi32_ps(a);
#else
    int32_t ia[16];
    float r[16];
    simde_mm512_storeu_si512(ia, a);
    for (int i = 0; i < 16; i++)
        r[i] = (float)ia[i];
    return simde_mm512_loadu_ps(r);
#endif
}

/* Reinterpretation of a lane's bits, int32 bit ops and int32 gathers. */
static inline iw fw_bits(fw a) { return simde_mm512_castps_si512(a); }
static inline fw fw_from_bits(iw a) { return simde_mm512_castsi512_ps(a); }
static inline iw iw_and(iw a, iw b) { return simde_mm512_and_si512(a, b); }
static inline iw iw_gather(const int32_t *base, iw idx)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_i32gather_epi32(idx, base, 4);
#else
    int32_t ix[16], r[16];
    simde_mm512_storeu_si512(ix, idx);
    for (int i = 0; i < 16; i++)
        r[i] = base[ix[i]];
    return simde_mm512_loadu_si512(r);
#endif
}

/* Horizontal max of float lanes and min of int32 lanes, in registers. The
 * result is the same whatever the reduction order (max/min are exact; a
 * caller that compares with == does not mind -0 against +0). */
static inline float fw_reduce_max(fw a)
{
    simde__m256 h = simde_mm256_max_ps(simde_mm512_castps512_ps256(a),
                                       simde_mm256_castpd_ps(simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(a), 1)));
    simde__m128 m = simde_mm_max_ps(simde_mm256_castps256_ps128(h), simde_mm256_extractf128_ps(h, 1));
    m = simde_mm_max_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
    m = simde_mm_max_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm_cvtss_f32(m);
}
static inline int32_t iw_reduce_min(iw a)
{
    simde__m256i h = simde_mm256_min_epi32(simde_mm512_castsi512_si256(a), simde_mm512_extracti64x4_epi64(a, 1));
    simde__m128i m = simde_mm_min_epi32(simde_mm256_castsi256_si128(h), simde_mm256_extracti128_si256(h, 1));
    m = simde_mm_min_epi32(m, simde_mm_shuffle_epi32(m, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
    m = simde_mm_min_epi32(m, simde_mm_shuffle_epi32(m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm_cvtsi128_si32(m);
}

/* ---- int32 shifts by a count 0..31 (the bucket keys of gjkb_step: the
 * bounds kernel's body classes, the sweep's pair info); the count form,
 * which a constant count folds to the immediate one ---- */
static inline iw iw_shl(iw a, int n) { return simde_mm512_sll_epi32(a, simde_mm_cvtsi32_si128(n)); }
static inline iw iw_shr(iw a, int n) { return simde_mm512_srl_epi32(a, simde_mm_cvtsi32_si128(n)); }   /* logical */

#include "../kernel/wide_common.h"

#endif /* GJKB_WIDE_AVX512_H */
