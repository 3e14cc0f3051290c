/* sweep.inl - the one body of the wide sweep-and-prune kernel (Terdiman's
 * box pruning).
 *
 * Included by one tiny translation unit per instruction set, after its
 * wide_<isa>.h and with GJKB_FN(name) adding the width suffix to the
 * exported symbol.
 *
 * The boxes come sorted by their min along the sweep axis (gjkb__sorted).
 * Box i is tested against W later boxes per step, with aligned loads at
 * fixed offsets in the sorted blocks, from the bundle holding i + 1 onwards (lanes up to i are masked off in that
 * first bundle). A later box overlaps on the sweep axis exactly when its
 * min is <= i's max (its min is already >= i's), and as the mins only grow,
 * the first lane that fails ends i's scan; the NaN sentinels after the last
 * box fail always, so the scan needs no bounds check. The other two axes
 * take the closed-interval test a.min <= b.max && b.min <= a.max; empty
 * boxes were left out of the sorted set, so they never get here.
 *
 * Pairs come out in order of i, then of the later box, whatever the width.
 * Ids are looked up only for hits, and the buffer's room is checked once
 * per bundle of W candidates. */

#include "dispatch.h"

bool GJKB_FN(gjkb__sweep_run)(const gjkb__sorted *s, uint32_t first, uint32_t end, gjkb__pairbuf *out);
bool GJKB_FN(gjkb__sweep_run)(const gjkb__sorted *s, uint32_t first, uint32_t end, gjkb__pairbuf *out)
{
    /* Locals, so that the pair stores cannot make the compiler reload them. */
    const float *const box = s->box;
    const uint32_t *const id = s->id;
    const uint8_t *const flags = s->flags;
    const unsigned full = (1u << GJKB_W) - 1u;
    uint32_t *pa = out->a, *pb = out->b;
    uint32_t count = out->count, room = out->cap - out->count;
    for (uint32_t i = first; i < end; i++) {
        const fw hi0 = fw_splat(box[GJKB_SORTED_AT(i, GJKB_SORTED_MAX0)]);
        const fw lo1 = fw_splat(box[GJKB_SORTED_AT(i, GJKB_SORTED_MIN1)]);
        const fw hi1 = fw_splat(box[GJKB_SORTED_AT(i, GJKB_SORTED_MAX1)]);
        const fw lo2 = fw_splat(box[GJKB_SORTED_AT(i, GJKB_SORTED_MIN2)]);
        const fw hi2 = fw_splat(box[GJKB_SORTED_AT(i, GJKB_SORTED_MAX2)]);
        uint32_t j = (i + 1) & ~(uint32_t)(GJKB_W - 1);
        unsigned keep = full & ~((1u << (i + 1 - j)) - 1u);
        for (;; j += GJKB_W) {
            const float *c = box + GJKB_SORTED_AT(j, 0);
            mw go = fw_le(fw_load(c + 16 * GJKB_SORTED_MIN0), hi0);
            mw y = mw_and(fw_le(fw_load(c + 16 * GJKB_SORTED_MIN1), hi1), fw_le(lo1, fw_load(c + 16 * GJKB_SORTED_MAX1)));
            mw z = mw_and(fw_le(fw_load(c + 16 * GJKB_SORTED_MIN2), hi2), fw_le(lo2, fw_load(c + 16 * GJKB_SORTED_MAX2)));
            unsigned hits = mw_bits(mw_and(go, mw_and(y, z))) & keep;
            keep = full;
            if (hits) {
                if (room < GJKB_W) {
                    out->count = count;
                    if (!gjkb__pairbuf_reserve(out, GJKB_W))
                        return false;
                    pa = out->a;
                    pb = out->b;
                    room = out->cap - count;
                }
                uint32_t ia = id[i];
                do {
                    uint32_t ib = id[j + (uint32_t)__builtin_ctz(hits)];
                    hits &= hits - 1u;
                    if (flags && (flags[ia] & flags[ib] & GJKB_BODY_STATIC))
                        continue;
                    pa[count] = ia < ib ? ia : ib;
                    pb[count] = ia < ib ? ib : ia;
                    count++;
                    room--;
                } while (hits);
            }
            if (mw_bits(go) != full)
                break;
        }
    }
    out->count = count;
    return true;
}
