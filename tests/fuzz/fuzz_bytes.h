/* fuzz_bytes.h - reads a fuzzer's input a field at a time. Past the end
 * every read gives zeros, so any input, even an empty one, decodes to
 * something and a mutation near the end never shifts what came before. */
#ifndef GJKB_FUZZ_BYTES_H
#define GJKB_FUZZ_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fz_reader {
    const uint8_t *data;
    size_t size, at;
} fz_reader;

static inline uint8_t fz_u8(fz_reader *r)
{
    return r->at < r->size ? r->data[r->at++] : 0;
}

/* Little endian, so the same bytes mean the same value on every host. */
static inline uint32_t fz_u32(fz_reader *r)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++)
        v |= (uint32_t)fz_u8(r) << (8 * k);
    return v;
}

static inline uint64_t fz_u64(fz_reader *r)
{
    uint64_t lo = fz_u32(r);
    return lo | (uint64_t)fz_u32(r) << 32;
}

/* Raw bit patterns: every NaN payload, subnormal and infinity can come up. */
static inline float fz_f32_bits(fz_reader *r)
{
    uint32_t u = fz_u32(r);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline double fz_f64_bits(fz_reader *r)
{
    uint64_t u = fz_u64(r);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* A signed byte scaled: small grid values, exact in float and double. */
static inline double fz_grid(fz_reader *r, double step)
{
    return (double)(int8_t)fz_u8(r) * step;
}

#endif
