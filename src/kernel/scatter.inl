/* scatter.inl - a chunk's lane answers back to their pairs: floats relative
 * to A's position become world doubles at the pairs' places in the
 * caller's arrays.
 *
 * One body, compiled per instruction set like the kernels (a unit
 * scatter_<isa>.c per backend, GJKB_FN adding the suffix) so that its
 * conversions and its non-temporal stores run at the backend's width; the
 * answers are exact conversions and sums, the same bits at every width.
 *
 * Lane j's pair is idx[j]. Where the chunk's pairs are consecutive (a
 * run: the order of a batch of one kind of pair) every store is
 * contiguous, and the same loops, compiled for that case, vectorize. */
#include "scatter.h"

#include <math.h>
#include <stdint.h>
#if GJKB_SCATTER_STREAMS
#include <immintrin.h>
#endif

/* The loops below must see `run` as a constant to be compiled for it. */
#if defined(__GNUC__)
#define SC_INLINE static inline __attribute__((always_inline))
#else
#define SC_INLINE static inline
#endif

/* Non-temporal stores of SC_STREAM doubles, the widest the unit's flags
 * give: whole lines with AVX-512 (gjkb__scatter's fence orders them). */
#if GJKB_SCATTER_STREAMS && defined(__AVX512F__)
#define SC_STREAM 8
#define sc_stream(d, v) _mm512_stream_pd(d, _mm512_loadu_pd(v))
#elif GJKB_SCATTER_STREAMS && defined(__AVX__)
#define SC_STREAM 4
#define sc_stream(d, v) _mm256_stream_pd(d, _mm256_loadu_pd(v))
#elif GJKB_SCATTER_STREAMS
#define SC_STREAM 2
#define sc_stream(d, v) _mm_stream_pd(d, _mm_loadu_pd(v))
#endif

/* v[0..n) into d[0..n): with `stream` and where the target has them,
 * aligned blocks by non-temporal stores, which fill whole lines without
 * reading them first. */
static void put_run(double *d, const double *v, size_t n, bool stream)
{
    size_t j = 0;
#if GJKB_SCATTER_STREAMS
    if (stream) {
        for (; j < n && ((uintptr_t)(d + j) & (SC_STREAM * sizeof(double) - 1)); j++)
            d[j] = v[j];
        for (; j + SC_STREAM <= n; j += SC_STREAM)
            sc_stream(d + j, v + j);
    }
#else
    (void)stream;
#endif
    for (; j < n; j++)
        d[j] = v[j];
}

/* Whether the chunk's pairs are idx[0], idx[0] + 1, ... */
static bool sc_is_run(const uint32_t *idx, uint32_t lanes)
{
    uint32_t off = 0;
    for (uint32_t j = 0; j < lanes; j++)
        off |= idx[j] - idx[0] - j;
    return off == 0;
}

/* Lane j's place in an array of `per` entries a pair that starts at
 * sc_base(): the pair's, or for a run its offset from the run's first pair
 * (size_t, so that the compiler knows the places are consecutive). */
SC_INLINE size_t sc_base(const uint32_t *idx, size_t per, bool run)
{
    return run ? (size_t)idx[0] * per : 0;
}
SC_INLINE size_t sc_at(const uint32_t *idx, size_t j, bool run)
{
    return run ? j : idx[j];
}

/* A lane value at its origin: a NaN (no answer, or a NaN position) comes
 * out as NAN, not as whichever operand's NaN this unit's compiled add
 * happens to keep. */
SC_INLINE double sc_place(double o, float v)
{
    double r = o + (double)v;
    return r == r ? r : (double)NAN;
}

/* One coordinate of the witnesses or the axis: origin[j] + lane value, or
 * the lane value alone. */
SC_INLINE void put_coord(double *dst, const float *src, const double *origin, const uint32_t *idx,
                         uint32_t lanes, bool run, bool stream)
{
    dst += sc_base(idx, 1, run);
    if (run && stream) {
        double v[GJKB_SCATTER_LANES];
        for (size_t j = 0; j < lanes; j++)
            v[j] = origin ? sc_place(origin[j], src[j]) : src[j];
        put_run(dst, v, lanes, true);
        return;
    }
    if (origin) {
        for (size_t j = 0; j < lanes; j++)
            dst[sc_at(idx, j, run)] = sc_place(origin[j], src[j]);
    } else {
        for (size_t j = 0; j < lanes; j++)
            dst[sc_at(idx, j, run)] = src[j];
    }
}

/* One coordinate of the manifolds' points, GJKB_MAX_CONTACTS slots a pair:
 * origin[j] (0 for the separations) + the slot's lane value. The kernel
 * made unused slots NaN, which stay NaN. */
SC_INLINE void put_points(double *dst, const float *const src[GJKB_MAX_CONTACTS], const double *origin,
                          const uint32_t *idx, uint32_t lanes, bool run, bool stream)
{
    dst += sc_base(idx, GJKB_MAX_CONTACTS, run);
    if (run && stream) {
        double v[GJKB_SCATTER_LANES * GJKB_MAX_CONTACTS];
        for (size_t j = 0; j < lanes; j++)
            for (int s = 0; s < GJKB_MAX_CONTACTS; s++)
                v[j * GJKB_MAX_CONTACTS + s] = sc_place(origin ? origin[j] : 0.0, src[s][j]);
        put_run(dst, v, lanes * GJKB_MAX_CONTACTS, true);
        return;
    }
    for (size_t j = 0; j < lanes; j++) {
        const double o = origin ? origin[j] : 0.0;
        double *const d = dst + sc_at(idx, j, run) * GJKB_MAX_CONTACTS;
        for (int s = 0; s < GJKB_MAX_CONTACTS; s++)
            d[s] = sc_place(o, src[s][j]);
    }
}

/* The manifolds (contact mode): counts, points and feature keys. */
SC_INLINE void put_manifolds(const gjkb__lanes *l, const double *const origin[3], const uint32_t *idx,
                             uint32_t lanes, bool run, bool stream, const gjkb_manifolds *m)
{
    if (!m->count)
        return;
    uint8_t *const count = m->count + sc_base(idx, 1, run);
    for (size_t j = 0; j < lanes; j++)
        count[sc_at(idx, j, run)] = (uint8_t)l->mcount[j];
    double *const to[GJKB_K_POINT_FIELDS] = { m->ax, m->ay, m->az, m->bx, m->by, m->bz, m->separation };
    for (int f = 0; f < GJKB_K_POINT_FIELDS; f++) {
        if (!to[f])
            continue;
        const float *src[GJKB_MAX_CONTACTS];
        for (int s = 0; s < GJKB_MAX_CONTACTS; s++)
            src[s] = l->mpt[s][f];
        put_points(to[f], src, f < 6 ? origin[f % 3] : NULL, idx, lanes, run, stream);
    }
    if (!m->feature)
        return;
    uint32_t *const feature = m->feature + sc_base(idx, GJKB_MAX_CONTACTS, run);
    for (size_t j = 0; j < lanes; j++) {
        uint32_t *const d = feature + sc_at(idx, j, run) * GJKB_MAX_CONTACTS;
        for (int s = 0; s < GJKB_MAX_CONTACTS; s++)
            d[s] = (uint32_t)l->mkey[s][j];
    }
}

/* A's position per lane into origin[3] (read once for every point of the
 * pair). */
SC_INLINE void put_origins(double *const origin[3], const uint32_t *idx, uint32_t lanes, const gjkb_bodies *bd,
                           const gjkb_pairs *pr, bool run)
{
    const uint32_t *const pair_a = pr->a + sc_base(idx, 1, run);
    for (size_t j = 0; j < lanes; j++) {
        uint32_t a = pair_a[sc_at(idx, j, run)];
        origin[0][j] = bd->px[a];
        origin[1][j] = bd->py[a];
        origin[2][j] = bd->pz[a];
    }
}

/* The witnesses a and b (offsets from A's position in the lanes) and the
 * axis n; NaN in hit mode, which has none. */
SC_INLINE void put_witnesses(const gjkb__lanes *l, const double *const origin[3], const uint32_t *idx,
                             uint32_t lanes, gjkb_mode mode, const gjkb_results *out, bool run, bool stream)
{
    enum { POINT_COORDS = 6, COORDS = 9 };
    double *const pt[COORDS] = { out->ax, out->ay, out->az, out->bx, out->by, out->bz, out->nx, out->ny, out->nz };
    const float *const lp[COORDS] = { l->ax, l->ay, l->az, l->bx, l->by, l->bz, l->nx, l->ny, l->nz };
    for (int k = 0; k < COORDS; k++) {
        if (!pt[k])
            continue;
        if (mode == GJKB_HIT && run && stream) {
            double v[GJKB_SCATTER_LANES];
            for (size_t j = 0; j < lanes; j++)
                v[j] = NAN;
            put_run(pt[k] + sc_base(idx, 1, run), v, lanes, true);
        } else if (mode == GJKB_HIT) {
            double *const d = pt[k] + sc_base(idx, 1, run);
            for (size_t j = 0; j < lanes; j++)
                d[sc_at(idx, j, run)] = NAN;
        } else {
            put_coord(pt[k], lp[k], k < POINT_COORDS ? origin[k % 3] : NULL, idx, lanes, run, stream);
        }
    }
}

/* The chunk's answers, field by field. */
SC_INLINE void put_chunk(const gjkb__lanes *l, const uint32_t *idx, uint32_t lanes, const gjkb_bodies *bd,
                         const gjkb_pairs *pr, gjkb_mode mode, gjkb_results *out, bool run, bool stream)
{
    /* Pointers in locals: the status bytes may alias anything. */
    uint8_t *const status = out->status + sc_base(idx, 1, run);
    const int32_t *const ls = l->status;
    for (size_t j = 0; j < lanes; j++)
        status[sc_at(idx, j, run)] = (uint8_t)ls[j];
    if (out->iterations) {
        uint32_t *const iterations = out->iterations + sc_base(idx, 1, run);
        for (size_t j = 0; j < lanes; j++)
            iterations[sc_at(idx, j, run)] = (uint32_t)l->iterations[j];
    }
    if (out->distance)
        put_coord(out->distance, l->dist, NULL, idx, lanes, run, stream);
    double ox[GJKB_SCATTER_LANES], oy[GJKB_SCATTER_LANES], oz[GJKB_SCATTER_LANES];
    double *const origin[3] = { ox, oy, oz };
    if (mode != GJKB_HIT)
        put_origins(origin, idx, lanes, bd, pr, run);
    const double *const from[3] = { ox, oy, oz };
    put_witnesses(l, from, idx, lanes, mode, out, run, stream);
    if (mode == GJKB_CONTACT)
        put_manifolds(l, from, idx, lanes, run, stream, &out->manifold);
}

void GJKB_FN(gjkb__scatter)(const gjkb__lanes *l, const uint32_t *idx, uint32_t lanes, const gjkb_bodies *bd,
                            const gjkb_pairs *pr, gjkb_mode mode, gjkb_results *out, bool stream);
void GJKB_FN(gjkb__scatter)(const gjkb__lanes *l, const uint32_t *idx, uint32_t lanes, const gjkb_bodies *bd,
                            const gjkb_pairs *pr, gjkb_mode mode, gjkb_results *out, bool stream)
{
    if (!sc_is_run(idx, lanes))
        put_chunk(l, idx, lanes, bd, pr, mode, out, false, false);
    else if (stream)
        put_chunk(l, idx, lanes, bd, pr, mode, out, true, true);
    else
        put_chunk(l, idx, lanes, bd, pr, mode, out, true, false);
#if GJKB_SCATTER_STREAMS
    if (stream)
        _mm_sfence();
#endif
}
