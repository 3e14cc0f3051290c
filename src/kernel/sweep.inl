/* sweep.inl - the one body of the wide sweep-and-prune kernel (Terdiman's
 * box pruning).
 *
 * Included by one tiny translation unit per instruction set, after its
 * wide_<isa>.h and with GJKB_FN(name) adding the width suffix to the
 * exported symbol.
 *
 * The boxes come sorted by their min along the sweep axis (gjkb__sorted).
 * Box i is tested against W later boxes per step, one block of the sorted
 * boxes (aligned loads at offsets known when compiling), from the block
 * holding i + 1 onwards (lanes up to i are masked off in that first one).
 * A later box overlaps on the sweep axis exactly when its min is <= i's max
 * (its min is already >= i's), and as the mins only grow, the first lane
 * that fails ends i's scan; the NaN sentinels after the last box fail
 * always, so the scan needs no bounds check. While a whole bundle passes,
 * that test needs no lane work: a scalar compare of its mask. The other two
 * axes take the closed-interval test a.min <= b.max && b.min <= a.max;
 * empty boxes were left out of the sorted set, so they never get here.
 *
 * The boxes are one band of the scene (broadphase.c cuts it across axis 1):
 * a pair whose boxes share several bands is reported only in the band
 * where the larger of their two mins on axis 1 lies, so box i tests that
 * of each candidate unless its own min already does (band_lo).
 *
 * Pairs come out in order of i, then of the later box, whatever the width.
 * Ids are looked up only for hits (or, with a compress instruction, for the
 * bundles that reach sw_emit), and the buffer's room is checked once per
 * bundle of W candidates. */

#include "dispatch.h"

/* Where the pairs go: the caller's buffer, its room kept in a local. */
typedef struct sw_out {
    gjkb__pairbuf *buf;
    uint32_t *a, *b;
    uint32_t count, room;
    const uint32_t *id;
} sw_out;

/* Where vpcompressd exists, every bundle goes through sw_emit, hits or
 * not: whether a bundle has hits is a coin toss that the branch predictor
 * loses, and packing the hits down costs a few instructions. Elsewhere a
 * bundle without hits is skipped and the hits are taken one by one. */
#ifdef GJKB_WIDE_COMPRESS
#define SW_EVERY_BUNDLE 1
#else
#define SW_EVERY_BUNDLE 0
#endif

/* The hits of box i among boxes j + lane: ids looked up, pairs of two
 * static bodies dropped (GJKB_SORTED_STATIC on both ids), a < b. Room for a
 * whole bundle is made first, once. */
static inline bool sw_emit(sw_out *o, uint32_t i, uint32_t j, unsigned hits)
{
    if (o->room < GJKB_W) {
        o->buf->count = o->count;
        if (!gjkb__pairbuf_reserve(o->buf, GJKB_W))
            return false;
        o->a = o->buf->a;
        o->b = o->buf->b;
        o->room = o->buf->cap - o->count;
    }
    uint32_t ia = o->id[i];
#ifdef GJKB_WIDE_COMPRESS
    /* The W candidates' ids ordered against ia, the hits packed down in
     * lane order and stored whole (room >= W). A static i drops the static
     * lanes: their ids are negative as int32. */
    iw raw = iw_load((const int32_t *)(const void *)(o->id + j));
    unsigned drop = (ia & GJKB_SORTED_STATIC) ? mw_bits(iw_lt(raw, iw_zero())) : 0u;
    iw ids = iw_and(raw, iw_splat(INT32_MAX)), me = iw_splat((int32_t)(ia & ~GJKB_SORTED_STATIC));
    mw m = mw_from_bits(hits & ~drop);
    iw_storeu((int32_t *)(void *)(o->a + o->count), iw_compress(m, iw_min(me, ids)));
    iw_storeu((int32_t *)(void *)(o->b + o->count), iw_compress(m, iw_max(me, ids)));
    uint32_t n = (uint32_t)__builtin_popcount(hits & ~drop);
    o->count += n;
    o->room -= n;
#else
    while (hits) {
        uint32_t ib = o->id[j + (uint32_t)__builtin_ctz(hits)];
        hits &= hits - 1u;
        if (ia & ib & GJKB_SORTED_STATIC)
            continue;
        uint32_t a = ia & ~GJKB_SORTED_STATIC, b = ib & ~GJKB_SORTED_STATIC;
        o->a[o->count] = a < b ? a : b;
        o->b[o->count] = a < b ? b : a;
        o->count++;
        o->room--;
    }
#endif
    return true;
}

/* The bundle at c: lanes that overlap box i on the other two axes, and in
 * *go those whose min is within i's extent on the sweep axis. Unless box i
 * starts in the band itself, a lane must (band: else the pair belongs to an
 * earlier band); when it does, band is -inf, which every real box passes
 * (the lanes past the scan's end are never hits), and there is no branch
 * on it. */
static inline unsigned sw_bundle(const float *c, fw hi0, fw lo1, fw hi1, fw lo2, fw hi2, fw band, unsigned *go)
{
    const float *min0 = c + GJKB_W * GJKB_SORTED_MIN0;
    const float *min1 = c + GJKB_W * GJKB_SORTED_MIN1, *max1 = c + GJKB_W * GJKB_SORTED_MAX1;
    const float *min2 = c + GJKB_W * GJKB_SORTED_MIN2, *max2 = c + GJKB_W * GJKB_SORTED_MAX2;
    *go = mw_bits(fw_le(fw_load(min0), hi0));
    fw m1 = fw_load(min1);
    mw y = mw_and(mw_and(fw_le(m1, hi1), fw_ge(m1, band)), fw_le(lo1, fw_load(max1)));
    mw z = mw_and(fw_le(fw_load(min2), hi2), fw_le(lo2, fw_load(max2)));
    return mw_bits(mw_and(y, z));
}

bool GJKB_FN(gjkb__sweep_run)(const gjkb__sorted *s, uint32_t first, uint32_t end, gjkb__pairbuf *out);
bool GJKB_FN(gjkb__sweep_run)(const gjkb__sorted *s, uint32_t first, uint32_t end, gjkb__pairbuf *out)
{
    const float *const box = s->box;
    const unsigned full = (1u << GJKB_W) - 1u;
    sw_out o = { out, out->a, out->b, out->count, out->cap - out->count, s->id };
    for (uint32_t i = first; i < end; i++) {
        const fw hi0 = fw_splat(box[GJKB_SORTED_AT(i, GJKB_SORTED_MAX0, GJKB_W)]);
        const fw lo1 = fw_splat(box[GJKB_SORTED_AT(i, GJKB_SORTED_MIN1, GJKB_W)]);
        const fw hi1 = fw_splat(box[GJKB_SORTED_AT(i, GJKB_SORTED_MAX1, GJKB_W)]);
        const fw lo2 = fw_splat(box[GJKB_SORTED_AT(i, GJKB_SORTED_MIN2, GJKB_W)]);
        const fw hi2 = fw_splat(box[GJKB_SORTED_AT(i, GJKB_SORTED_MAX2, GJKB_W)]);
        const float need = box[GJKB_SORTED_AT(i, GJKB_SORTED_MIN1, GJKB_W)] >= s->band_lo ? -INFINITY : s->band_lo;
        const fw band = fw_splat(need);
        /* The first bundle holds i + 1 and maybe boxes up to i, masked off. */
        uint32_t j = (i + 1) & ~(uint32_t)(GJKB_W - 1);
        const float *c = box + (size_t)j * GJKB_SORTED_FIELDS;
        unsigned go, hits = sw_bundle(c, hi0, lo1, hi1, lo2, hi2, band, &go) & (full << (i + 1 - j)) & full;
        /* The lanes past the scan's end (go false) are never hits; while a
         * whole bundle goes on, its y and z overlaps are the hits. */
        while (go == full) {
            if ((SW_EVERY_BUNDLE || hits) && !sw_emit(&o, i, j, hits))
                return false;
            j += GJKB_W;
            c += GJKB_W * GJKB_SORTED_FIELDS;
            hits = sw_bundle(c, hi0, lo1, hi1, lo2, hi2, band, &go);
        }
        hits &= go;
        if ((SW_EVERY_BUNDLE || hits) && !sw_emit(&o, i, j, hits))
            return false;
    }
    out->count = o.count;
    return true;
}
