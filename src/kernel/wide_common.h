/* wide_common.h - helpers written once on top of the wide-op names:
 * horizontal ops and 3-vectors of lanes. Every wide_<isa>.h includes this at
 * its end, so a kernel includes only its ISA header. */
#ifndef GJKB_WIDE_COMMON_H
#define GJKB_WIDE_COMMON_H

#ifndef GJKB_W
#error "include one wide_<isa>.h header; it includes wide_common.h itself"
#endif

#include <math.h>

/* Set bits of a lane mask's bits. SSE4.1 has no POPCNT (it came with
 * SSE4.2): without it GCC calls libgcc's table loop, so the bit count. */
static inline uint32_t gjkb_popcount(uint32_t x)
{
#if defined(__POPCNT__) || defined(__aarch64__)
    return (uint32_t)__builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
#endif
}

/* ---- records --------------------------------------------------------------
 * fw_load_records(base, idx, out): lane i of out[k] is base[16 idx_i + k],
 * k < 16: each lane's 64-byte aligned record, transposed into rows in
 * registers. The 8- and 16-lane ISAs define their own (GJKB_WIDE_RECORDS);
 * 4 lanes are four 4x4 blocks through the ISA's fw_transpose4. */
#define GJKB_RECORD 16
#if GJKB_W == 1
static inline void fw_load_records(const float *base, iw idx, fw out[GJKB_RECORD])
{
    for (int k = 0; k < GJKB_RECORD; k++)
        out[k] = base[(size_t)idx * GJKB_RECORD + (size_t)k];
}
#elif GJKB_W == 4
static inline void fw_load_records(const float *base, iw idx, fw out[GJKB_RECORD])
{
    _Alignas(GJKB_ALIGN) int32_t ix[4];
    iw_store(ix, idx);
    for (int blk = 0; blk < GJKB_RECORD / 4; blk++) {
        fw r[4];
        for (int i = 0; i < 4; i++)
            r[i] = fw_load(base + (size_t)ix[i] * GJKB_RECORD + (size_t)(4 * blk));
        fw_transpose4(r);
        for (int m = 0; m < 4; m++)
            out[4 * blk + m] = r[m];
    }
}
#endif
/* fw_store_records(base, rows): the inverse, W consecutive records from
 * base (64-byte aligned) on: base[16 i + k] is lane i of rows[k]. */
#if GJKB_W == 1
static inline void fw_store_records(float *base, const fw rows[GJKB_RECORD])
{
    for (int k = 0; k < GJKB_RECORD; k++)
        base[k] = rows[k];
}
#elif GJKB_W == 4
static inline void fw_store_records(float *base, const fw rows[GJKB_RECORD])
{
    for (int blk = 0; blk < GJKB_RECORD / 4; blk++) {
        fw r[4];
        for (int m = 0; m < 4; m++)
            r[m] = rows[4 * blk + m];
        fw_transpose4(r);
        for (int i = 0; i < 4; i++)
            fw_store(base + (size_t)i * GJKB_RECORD + (size_t)(4 * blk), r[i]);
    }
}
#elif !defined(GJKB_WIDE_RECORDS)
#error "this width needs its own fw_load_records and fw_store_records"
#endif

/* ---- horizontal ops (through memory: for use outside hot loops) ----
 * Defined on the lane values alone, so any lane order gives the same bits. */

static inline float fw_lane(fw v, int i)
{
    float lanes[GJKB_W];
    fw_storeu(lanes, v);
    return lanes[i];
}

/* Largest lane, +0 above -0; if a lane is NaN, the lowest such lane. */
static inline float fw_hmax(fw v)
{
    float lanes[GJKB_W];
    fw_storeu(lanes, v);
    float r = lanes[0];
    for (int i = 0; i < GJKB_W; i++) {
        float x = lanes[i];
        if (x != x)
            return x;
        if (x > r || (x == r && !signbit(x)))
            r = x;
    }
    return r;
}

/* Smallest lane, -0 below +0; if a lane is NaN, the lowest such lane. */
static inline float fw_hmin(fw v)
{
    float lanes[GJKB_W];
    fw_storeu(lanes, v);
    float r = lanes[0];
    for (int i = 0; i < GJKB_W; i++) {
        float x = lanes[i];
        if (x != x)
            return x;
        if (x < r || (x == r && signbit(x)))
            r = x;
    }
    return r;
}

/* ---- 3-vectors of lanes ----
 * The operation order is spelled out (no contraction is allowed by the
 * build), so every width rounds identically. */
typedef struct v3w {
    fw x, y, z;
} v3w;

static inline v3w v3_make(fw x, fw y, fw z)
{
    v3w r = {x, y, z};
    return r;
}
static inline v3w v3_zero(void) { return v3_make(fw_zero(), fw_zero(), fw_zero()); }
static inline v3w v3_splat(float x, float y, float z) { return v3_make(fw_splat(x), fw_splat(y), fw_splat(z)); }
/* Three aligned SoA arrays at the same offset. */
static inline v3w v3_load(const float *x, const float *y, const float *z)
{
    return v3_make(fw_load(x), fw_load(y), fw_load(z));
}
static inline void v3_store(float *x, float *y, float *z, v3w v)
{
    fw_store(x, v.x);
    fw_store(y, v.y);
    fw_store(z, v.z);
}
static inline v3w v3_add(v3w a, v3w b) { return v3_make(fw_add(a.x, b.x), fw_add(a.y, b.y), fw_add(a.z, b.z)); }
static inline v3w v3_sub(v3w a, v3w b) { return v3_make(fw_sub(a.x, b.x), fw_sub(a.y, b.y), fw_sub(a.z, b.z)); }
static inline v3w v3_neg(v3w a) { return v3_make(fw_neg(a.x), fw_neg(a.y), fw_neg(a.z)); }
static inline v3w v3_scale(v3w a, fw s) { return v3_make(fw_mul(a.x, s), fw_mul(a.y, s), fw_mul(a.z, s)); }
/* (x*x' + y*y') + z*z' */
static inline fw v3_dot(v3w a, v3w b)
{
    return fw_add(fw_add(fw_mul(a.x, b.x), fw_mul(a.y, b.y)), fw_mul(a.z, b.z));
}
static inline fw v3_len2(v3w a) { return v3_dot(a, a); }
static inline v3w v3_cross(v3w a, v3w b)
{
    return v3_make(fw_sub(fw_mul(a.y, b.z), fw_mul(a.z, b.y)),
                   fw_sub(fw_mul(a.z, b.x), fw_mul(a.x, b.z)),
                   fw_sub(fw_mul(a.x, b.y), fw_mul(a.y, b.x)));
}
/* m ? a : b per lane */
static inline v3w v3_sel(mw m, v3w a, v3w b)
{
    return v3_make(fw_sel(m, a.x, b.x), fw_sel(m, a.y, b.y), fw_sel(m, a.z, b.z));
}
/* a + b * s */
static inline v3w v3_madd(v3w a, v3w b, fw s)
{
    return v3_add(a, v3_scale(b, s));
}
/* v / |v| (one division, then three products) */
static inline v3w v3_unit(v3w v)
{
    return v3_scale(v, fw_div(fw_splat(1.0f), fw_sqrt(v3_dot(v, v))));
}

/* ---- 3x3 matrices of lanes, row major ---- */

/* r v */
static inline v3w m3_mul(const fw r[9], v3w v)
{
    return v3_make(fw_add(fw_add(fw_mul(r[0], v.x), fw_mul(r[1], v.y)), fw_mul(r[2], v.z)),
                   fw_add(fw_add(fw_mul(r[3], v.x), fw_mul(r[4], v.y)), fw_mul(r[5], v.z)),
                   fw_add(fw_add(fw_mul(r[6], v.x), fw_mul(r[7], v.y)), fw_mul(r[8], v.z)));
}
/* Column j of r, and row i. */
static inline v3w m3_col(const fw r[9], int j) { return v3_make(r[j], r[3 + j], r[6 + j]); }
static inline v3w m3_row(const fw r[9], int i) { return v3_make(r[3 * i], r[3 * i + 1], r[3 * i + 2]); }
/* r^T v */
static inline v3w m3_mul_t(const fw r[9], v3w v)
{
    return v3_make(fw_add(fw_add(fw_mul(r[0], v.x), fw_mul(r[3], v.y)), fw_mul(r[6], v.z)),
                   fw_add(fw_add(fw_mul(r[1], v.x), fw_mul(r[4], v.y)), fw_mul(r[7], v.z)),
                   fw_add(fw_add(fw_mul(r[2], v.x), fw_mul(r[5], v.y)), fw_mul(r[8], v.z)));
}

/* ---- rows of lanes: a loop's state saved and restored lane-wise ----
 * row_put stores W lanes and moves on a row (rows W floats apart);
 * row_get loads them from rows `stride` floats apart. */
static inline void row_put(float **out, fw x)
{
    fw_store(*out, x);
    *out += GJKB_W;
}
static inline void row_put3(float **out, v3w v)
{
    row_put(out, v.x);
    row_put(out, v.y);
    row_put(out, v.z);
}
static inline fw row_get(const float **in, size_t stride)
{
    fw x = fw_load(*in);
    *in += stride;
    return x;
}
static inline v3w row_get3(const float **in, size_t stride)
{
    fw x = row_get(in, stride), y = row_get(in, stride);
    return v3_make(x, y, row_get(in, stride));
}

/* Kernel helpers pass wide structs by value: they must inline. The
 * sanitizer builds leave it to the compiler (GJKB_NO_FORCE_INLINE): forced,
 * the instrumented kernel units take many minutes each to compile. */
#if defined(__GNUC__) && !defined(GJKB_NO_FORCE_INLINE)
#define GJKB_INLINE inline __attribute__((always_inline))
#else
#define GJKB_INLINE inline
#endif
/* A query's scheduler function takes in every call below it, the wide ops
 * and 3-vector helpers too: in a function that large GCC stops inlining
 * plain `inline` helpers, and one left out of line (m3_mul_t, a gather)
 * keeps the whole pack_w in memory. */
#if defined(__GNUC__) && !defined(GJKB_NO_FORCE_INLINE)
#define GJKB_FLATTEN __attribute__((flatten))
#else
#define GJKB_FLATTEN
#endif

#endif /* GJKB_WIDE_COMMON_H */
