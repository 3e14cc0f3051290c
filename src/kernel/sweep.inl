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
 * bundle of W candidates.
 *
 * With body classes (gjkb_step on a wide backend), each pair's
 * gjkb__pair_info is written next to it, so that the narrowphase buckets
 * the pairs without reading any body: once the range is swept, W pairs at
 * a time from the classes of their ids, while the pairs are still in cache.
 * (Made per bundle in the compress path instead, from classes carried in
 * the sorted slots, it cost as much in the sweep and more in the sort: most
 * bundles hold no hit or one.) */

#include "dispatch.h"
#include "kernel/pairkey.inl"

#include <math.h>
#include <string.h>

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
    uint32_t n = gjkb_popcount(hits & ~drop);
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

/* The info of pairs [from, to) of buf from the classes by body id. */
static void sw_infos(gjkb__pairbuf *buf, uint32_t from, uint32_t to, const uint32_t *cls)
{
    const int32_t *const c = (const int32_t *)(const void *)cls;
    uint32_t k = from;
    for (; k + GJKB_W <= to; k += GJKB_W) {
        iw ca = iw_gather(c, iw_loadu((const int32_t *)(const void *)(buf->a + k)));
        iw cb = iw_gather(c, iw_loadu((const int32_t *)(const void *)(buf->b + k)));
        iw_storeu((int32_t *)(void *)(buf->info + k), ky_pair_info(ca, cb));
    }
    for (; k < to; k++)
        buf->info[k] = gjkb__pair_info(cls[buf->a[k]], cls[buf->b[k]]);
}

static bool sw_run(const gjkb__sorted *s, uint32_t first, uint32_t end, gjkb__pairbuf *out)
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

bool GJKB_FN(gjkb__sweep_run)(const gjkb__sorted *s, uint32_t first, uint32_t end, gjkb__pairbuf *out);
bool GJKB_FN(gjkb__sweep_run)(const gjkb__sorted *s, uint32_t first, uint32_t end, gjkb__pairbuf *out)
{
    uint32_t from = out->count;
    bool ok = sw_run(s, first, end, out);
    /* on failure too: the pairs so far stay, with their info */
    if (s->cls)
        sw_infos(out, from, out->count, s->cls);
    return ok;
}

/* ---- the sort's key pass --------------------------------------------------
 * W boxes at a time from the caller's arrays: whether the box is empty, its
 * key, and its band range. A box's first band is the last k with edge[k] <=
 * its min on axis 1, its last band the last with edge[k] <= its max: one
 * answer each, as the edges never fall, so a guess in [0, bands - 1] walked
 * up then down on the float edges gives exactly what broadphase.c's band
 * test does, whatever the guess. Mins and maxes of kept boxes are not NaN,
 * so the walk down stops at edge[0] = -inf and the walk up at edge[bands] =
 * NaN. The guess is almost always right: both guesses are checked with
 * gathers that do not wait on each other, and only a bundle with a lane
 * off walks (a loop of dependent gathers). */

/* x's band from the guess k in [0, bands - 1], on lanes `on`: the edges
 * either side of k (e0 = edge[k], e1 = edge[k + 1]) already gathered. A
 * lane that walks up had edge[k + 1] <= x, so e0 <= x too: it never walks
 * down. */
static inline iw sk_settle(const float *edge, iw k, fw e0, fw e1, fw x, mw on)
{
    const iw one = iw_splat(1);
    mw up = mw_and(on, fw_le(e1, x));
    while (mw_any(up)) {
        k = iw_add(k, iw_sel(up, one, iw_zero()));
        up = mw_and(on, fw_le(fw_gather(edge, iw_add(k, one)), x));
    }
    mw down = mw_andnot(on, fw_le(e0, x));
    while (mw_any(down)) {
        k = iw_sub(k, iw_sel(down, one, iw_zero()));
        down = mw_andnot(on, fw_le(fw_gather(edge, k), x));
    }
    return k;
}

/* The guess for x: about (x - lo) * scale rounded down, in [0, bands - 1]
 * (NaN to 0: max keeps its second operand). Made an integer by adding 2^23
 * to t - 0.5 (t is below 2^22, so the sum's bits end in it rounded to
 * nearest), which for t below 0.5 is -1: clamped again. */
static inline iw sk_guess(const gjkb__keyplan *p, fw x)
{
    fw t = fw_mul(fw_sub(x, fw_splat(p->guess_lo)), fw_splat(p->guess_scale));
    t = fw_min(fw_max(t, fw_zero()), fw_splat((float)(p->bands - 1)));
    iw k = iw_sub(fw_bits(fw_add(fw_sub(t, fw_splat(0.5f)), fw_splat(0x1p23f))), iw_splat(0x4B000000));
    return iw_max(k, iw_zero());
}

/* Boxes at b[f] + 0 .. W - 1: keys and ranges stored unaligned. */
static inline void sk_bundle(const gjkb__keyplan *p, const float *const b[6], uint32_t *key, uint32_t *range)
{
    fw v[6];
    for (int f = 0; f < 6; f++)
        v[f] = fw_loadu(b[f]);
    /* min <= max on every axis, false for NaN */
    mw ok = mw_and(mw_and(fw_le(v[0], v[3]), fw_le(v[1], v[4])), fw_le(v[2], v[5]));
    /* float_key: negative floats flipped whole (~u = -1 - u), the others
     * get the sign bit (u + 2^31, wrapping) */
    iw u = fw_bits(v[p->axis0]);
    iw k = iw_sel(iw_lt(u, iw_zero()), iw_sub(iw_splat(-1), u), iw_add(u, iw_splat(INT32_MIN)));
    iw_storeu((int32_t *)(void *)key, k);
    iw r = iw_zero();
    if (p->bands > 1) {
        const iw one = iw_splat(1);
        fw lo = v[p->axis1], hi = v[3 + p->axis1];
        iw first = sk_guess(p, lo), last = sk_guess(p, hi);
        fw f0 = fw_gather(p->edge, first), f1 = fw_gather(p->edge, iw_add(first, one));
        fw l0 = fw_gather(p->edge, last), l1 = fw_gather(p->edge, iw_add(last, one));
        first = sk_settle(p->edge, first, f0, f1, lo, ok);
        last = sk_settle(p->edge, last, l0, l1, hi, ok);
        r = iw_add(first, iw_shl(last, 8));
    }
    iw_storeu((int32_t *)(void *)range, iw_sel(ok, r, iw_splat(GJKB_EMPTY_BOX)));
}

void GJKB_FN(gjkb__keys_run)(const gjkb__keyplan *p, uint32_t first, uint32_t end, uint32_t *key, uint32_t *range);
void GJKB_FN(gjkb__keys_run)(const gjkb__keyplan *p, uint32_t first, uint32_t end, uint32_t *key, uint32_t *range)
{
    uint32_t i = first;
    for (; i + GJKB_W <= end; i += GJKB_W) {
        const float *const b[6] = { p->box[0] + i, p->box[1] + i, p->box[2] + i,
                                    p->box[3] + i, p->box[4] + i, p->box[5] + i };
        sk_bundle(p, b, key + (i - first), range + (i - first));
    }
    if (i < end) {
        /* the tail through a copy padded with empty boxes */
        float pad[6][GJKB_W];
        uint32_t kt[GJKB_W], rt[GJKB_W], left = end - i;
        for (int f = 0; f < 6; f++)
            for (uint32_t l = 0; l < GJKB_W; l++)
                pad[f][l] = l < left ? p->box[f][i + l] : NAN;
        const float *const b[6] = { pad[0], pad[1], pad[2], pad[3], pad[4], pad[5] };
        sk_bundle(p, b, kt, rt);
        memcpy(key + (i - first), kt, sizeof(uint32_t) * left);
        memcpy(range + (i - first), rt, sizeof(uint32_t) * left);
    }
}

/* ---- the sort's fill ---------------------------------------------------------
 * The deal (broadphase.c) leaves each slot's box index in its id; here a
 * block at a time, the fields gathered from the caller's arrays and stored
 * whole, aligned. Blocks past the live slots are sentinels; the one block
 * that straddles takes its live lanes' indices (the other ids are not set)
 * and NaN elsewhere. */
void GJKB_FN(gjkb__fill_run)(const float *const src[GJKB_SORTED_FIELDS], float *box, uint32_t *id, uint32_t first,
                             uint32_t live, uint32_t end);
void GJKB_FN(gjkb__fill_run)(const float *const src[GJKB_SORTED_FIELDS], float *box, uint32_t *id, uint32_t first,
                             uint32_t live, uint32_t end)
{
    const iw index = iw_splat(INT32_MAX);
    const fw nan = fw_splat(NAN);
    uint32_t at = first;
    for (; at + GJKB_W <= live; at += GJKB_W) {
        float *blk = box + (size_t)at * GJKB_SORTED_FIELDS;
        iw ix = iw_and(iw_load((const int32_t *)(const void *)(id + at)), index);
        for (int f = 0; f < GJKB_SORTED_FIELDS; f++)
            fw_store(blk + f * GJKB_W, fw_gather(src[f], ix));
    }
    if (at < live && at < end) {
        float *blk = box + (size_t)at * GJKB_SORTED_FIELDS;
        mw on = mw_first_n((int)(live - at));
        iw raw = iw_sel(on, iw_load((const int32_t *)(const void *)(id + at)), iw_zero());
        iw ix = iw_and(raw, index);
        for (int f = 0; f < GJKB_SORTED_FIELDS; f++)
            fw_store(blk + f * GJKB_W, fw_sel(on, fw_gather(src[f], ix), nan));
        iw_store((int32_t *)(void *)(id + at), raw);
        at += GJKB_W;
    }
    for (; at < end; at += GJKB_W) {
        float *blk = box + (size_t)at * GJKB_SORTED_FIELDS;
        for (int f = 0; f < GJKB_SORTED_FIELDS; f++)
            fw_store(blk + f * GJKB_W, nan);
        iw_store((int32_t *)(void *)(id + at), iw_zero());
    }
}
