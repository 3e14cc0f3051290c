/* wide_avx2.h - the wide-op vocabulary at 8 lanes on AVX2, through SIMDe
 * (real instructions with -mavx2, emulated otherwise, e.g. on ARM).
 * Semantics are those of scalar/wide_scalar.h, lane by lane, bit for bit.
 * Masks are float vectors whose lanes are all ones or all zeros. */
#ifndef GJKB_WIDE_AVX2_H
#define GJKB_WIDE_AVX2_H

#ifdef GJKB_W
#error "only one wide_<isa>.h header may be included per translation unit"
#endif

#include <math.h>
#include <stdint.h>
#include <simde/x86/avx2.h>

#define GJKB_W 8
#define GJKB_WIDE_NAME "avx2"
#define GJKB_ALIGN 32

typedef simde__m256 fw;
typedef simde__m256 mw;
typedef simde__m256i iw;

/* ---- float lanes ---- */
static inline fw fw_zero(void) { return simde_mm256_setzero_ps(); }
static inline fw fw_splat(float x) { return simde_mm256_set1_ps(x); }
static inline fw fw_load(const float *p) { return simde_mm256_load_ps(p); }
static inline fw fw_loadu(const float *p) { return simde_mm256_loadu_ps(p); }
static inline void fw_store(float *p, fw v) { simde_mm256_store_ps(p, v); }
static inline void fw_storeu(float *p, fw v) { simde_mm256_storeu_ps(p, v); }

static inline fw fw_add(fw a, fw b) { return simde_mm256_add_ps(a, b); }
static inline fw fw_sub(fw a, fw b) { return simde_mm256_sub_ps(a, b); }
static inline fw fw_mul(fw a, fw b) { return simde_mm256_mul_ps(a, b); }
static inline fw fw_div(fw a, fw b) { return simde_mm256_div_ps(a, b); }
static inline fw fw_sqrt(fw a) { return simde_mm256_sqrt_ps(a); }
static inline fw fw_neg(fw a) { return simde_mm256_xor_ps(a, simde_mm256_set1_ps(-0.0f)); }
static inline fw fw_abs(fw a) { return simde_mm256_andnot_ps(simde_mm256_set1_ps(-0.0f), a); }
static inline fw fw_copysign(fw mag, fw sgn)
{
    const simde__m256 sign = simde_mm256_set1_ps(-0.0f);
    return simde_mm256_or_ps(simde_mm256_andnot_ps(sign, mag), simde_mm256_and_ps(sign, sgn));
}
/* vminps/vmaxps are exactly (a < b) ? a : b and (a > b) ? a : b. */
static inline fw fw_min(fw a, fw b) { return simde_mm256_min_ps(a, b); }
static inline fw fw_max(fw a, fw b) { return simde_mm256_max_ps(a, b); }
static inline fw fw_sel(mw m, fw a, fw b) { return simde_mm256_blendv_ps(b, a, m); }

static inline mw fw_lt(fw a, fw b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ); }
static inline mw fw_le(fw a, fw b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ); }
static inline mw fw_gt(fw a, fw b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GT_OQ); }
static inline mw fw_ge(fw a, fw b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GE_OQ); }
static inline mw fw_eq(fw a, fw b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_EQ_OQ); }
static inline mw fw_neq(fw a, fw b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_NEQ_UQ); }
static inline mw fw_isfinite(fw a)
{
    return simde_mm256_cmp_ps(fw_abs(a), simde_mm256_set1_ps(INFINITY), SIMDE_CMP_LT_OQ);
}

/* ---- masks ---- */
static inline mw mw_true(void) { return simde_mm256_castsi256_ps(simde_mm256_set1_epi32(-1)); }
static inline mw mw_false(void) { return simde_mm256_setzero_ps(); }
static inline mw mw_and(mw a, mw b) { return simde_mm256_and_ps(a, b); }
static inline mw mw_or(mw a, mw b) { return simde_mm256_or_ps(a, b); }
static inline mw mw_xor(mw a, mw b) { return simde_mm256_xor_ps(a, b); }
static inline mw mw_not(mw a) { return simde_mm256_xor_ps(a, mw_true()); }
static inline mw mw_andnot(mw a, mw b) { return simde_mm256_andnot_ps(b, a); }
static inline int mw_any(mw m) { return simde_mm256_movemask_ps(m) != 0; }
static inline int mw_all(mw m) { return simde_mm256_movemask_ps(m) == 0xFF; }
static inline unsigned mw_bits(mw m) { return (unsigned)simde_mm256_movemask_ps(m); }
static inline mw mw_from_bits(unsigned bits)
{
    const simde__m256i lane_bit = simde_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    simde__m256i v = simde_mm256_and_si256(simde_mm256_set1_epi32((int32_t)bits), lane_bit);
    return simde_mm256_castsi256_ps(simde_mm256_cmpeq_epi32(v, lane_bit));
}
static inline mw mw_first_n(int n)
{
    return simde_mm256_castsi256_ps(
        simde_mm256_cmpgt_epi32(simde_mm256_set1_epi32(n), simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
}

/* ---- int32 lanes ---- */
static inline iw iw_zero(void) { return simde_mm256_setzero_si256(); }
static inline iw iw_splat(int32_t x) { return simde_mm256_set1_epi32(x); }
static inline iw iw_load(const int32_t *p) { return simde_mm256_load_si256((const simde__m256i *)(const void *)p); }
static inline iw iw_loadu(const int32_t *p) { return simde_mm256_loadu_si256((const simde__m256i *)(const void *)p); }
static inline void iw_store(int32_t *p, iw v) { simde_mm256_store_si256((simde__m256i *)(void *)p, v); }
static inline void iw_storeu(int32_t *p, iw v) { simde_mm256_storeu_si256((simde__m256i *)(void *)p, v); }
static inline iw iw_add(iw a, iw b) { return simde_mm256_add_epi32(a, b); }
static inline iw iw_sub(iw a, iw b) { return simde_mm256_sub_epi32(a, b); }
static inline iw iw_min(iw a, iw b) { return simde_mm256_min_epi32(a, b); }
static inline iw iw_max(iw a, iw b) { return simde_mm256_max_epi32(a, b); }
static inline iw iw_sel(mw m, iw a, iw b)
{
    return simde_mm256_castps_si256(
        simde_mm256_blendv_ps(simde_mm256_castsi256_ps(b), simde_mm256_castsi256_ps(a), m));
}
static inline mw iw_lt(iw a, iw b) { return simde_mm256_castsi256_ps(simde_mm256_cmpgt_epi32(b, a)); }
static inline mw iw_eq(iw a, iw b) { return simde_mm256_castsi256_ps(simde_mm256_cmpeq_epi32(a, b)); }
static inline iw iw_lane_index(void) { return simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7); }

static inline fw fw_gather(const float *base, iw idx) { return simde_mm256_i32gather_ps(base, idx, 4); }

/* Eight records as two 8x8 blocks (their halves), each transposed in
 * registers: pairs of rows interleaved, then quads, then 128-bit halves.
 * An 8x8 transpose is its own inverse: loading and storing share it. */
#define GJKB_WIDE_RECORDS 1
static inline void gjkb_transpose8(const fw r[8], fw out[8])
{
    fw t[8], u[8];
    for (int j = 0; j < 4; j++) {
        t[2 * j] = simde_mm256_unpacklo_ps(r[2 * j], r[2 * j + 1]);
        t[2 * j + 1] = simde_mm256_unpackhi_ps(r[2 * j], r[2 * j + 1]);
    }
    /* u[4g + m], 128-bit half L: element 4L + m of rows 4g .. 4g + 3 */
    for (int g = 0; g < 2; g++) {
        u[4 * g] = simde_mm256_shuffle_ps(t[4 * g], t[4 * g + 2], 0x44);
        u[4 * g + 1] = simde_mm256_shuffle_ps(t[4 * g], t[4 * g + 2], 0xEE);
        u[4 * g + 2] = simde_mm256_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0x44);
        u[4 * g + 3] = simde_mm256_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0xEE);
    }
    for (int m = 0; m < 4; m++) {
        out[m] = simde_mm256_permute2f128_ps(u[m], u[4 + m], 0x20);
        out[4 + m] = simde_mm256_permute2f128_ps(u[m], u[4 + m], 0x31);
    }
}
static inline void fw_load_records(const float *base, iw idx, fw out[16])
{
    _Alignas(32) int32_t ix[8];
    simde_mm256_store_si256((simde__m256i *)(void *)ix, idx);
    for (int half = 0; half < 2; half++) {
        fw r[8];
        for (int i = 0; i < 8; i++)
            r[i] = simde_mm256_load_ps(base + (size_t)ix[i] * 16 + (size_t)(8 * half));
        gjkb_transpose8(r, out + 8 * half);
    }
}
static inline void fw_store_records(float *base, const fw rows[16])
{
    for (int half = 0; half < 2; half++) {
        fw r[8];
        gjkb_transpose8(rows + 8 * half, r);
        for (int i = 0; i < 8; i++)
            simde_mm256_store_ps(base + (size_t)i * 16 + (size_t)(8 * half), r[i]);
    }
}
static inline fw fw_from_iw(iw a) { return simde_mm256_cvtepi32_ps(a); }

/* Reinterpretation of a lane's bits, int32 bit ops and int32 gathers. */
static inline iw fw_bits(fw a) { return simde_mm256_castps_si256(a); }
static inline fw fw_from_bits(iw a) { return simde_mm256_castsi256_ps(a); }
static inline iw iw_and(iw a, iw b) { return simde_mm256_and_si256(a, b); }
static inline iw iw_gather(const int32_t *base, iw idx) { return simde_mm256_i32gather_epi32(base, idx, 4); }

/* Horizontal max of float lanes and min of int32 lanes, in registers. The
 * result is the same whatever the reduction order (max/min are exact; a
 * caller that compares with == does not mind -0 against +0). */
static inline float fw_reduce_max(fw a)
{
    simde__m128 m = simde_mm_max_ps(simde_mm256_castps256_ps128(a), simde_mm256_extractf128_ps(a, 1));
    m = simde_mm_max_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
    m = simde_mm_max_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm_cvtss_f32(m);
}
static inline int32_t iw_reduce_min(iw a)
{
    simde__m128i m = simde_mm_min_epi32(simde_mm256_castsi256_si128(a), simde_mm256_extracti128_si256(a, 1));
    m = simde_mm_min_epi32(m, simde_mm_shuffle_epi32(m, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
    m = simde_mm_min_epi32(m, simde_mm_shuffle_epi32(m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm_cvtsi128_si32(m);
}

/* ---- int32 shifts by a count 0..31 (the bucket keys of gjkb_step: the
 * bounds kernel's body classes, the sweep's pair info); the count form,
 * which a constant count folds to the immediate one ---- */
static inline iw iw_shl(iw a, int n) { return simde_mm256_sll_epi32(a, simde_mm_cvtsi32_si128(n)); }
static inline iw iw_shr(iw a, int n) { return simde_mm256_srl_epi32(a, simde_mm_cvtsi32_si128(n)); }   /* logical */

#include "../kernel/wide_common.h"

#endif /* GJKB_WIDE_AVX2_H */
