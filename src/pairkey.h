/* pairkey.h - a pair's bucket key, on the host. The wide half, the same
 * numbers for W lanes, is src/kernel/pairkey.inl.
 *
 * The pipeline sorts pairs by key so that a bundle's lanes need the same
 * support code and about as many steps: a pair of two analytic kinds by
 * its two kinds (either order), a pair with a hull by its larger hull's
 * size class. Nothing here depends on where GJKB_HULL sits among the kinds:
 * analytic kinds are numbered without it (gjkb__analytic_index).
 *
 * A body's class (gjkb_step makes one per body with its box) is its kind in
 * the low GJKB_CLASS_KIND_BITS bits and, for a hull, its hull's size class
 * above them. A pair's info (made in the sweep) packs its key and the two
 * kinds: key | kind_a << 8 | kind_b << 16. */
#ifndef GJKB_PAIRKEY_H
#define GJKB_PAIRKEY_H

#include "gjkbatch.h"

#include <stdbool.h>
#include <stdint.h>

enum {
    /* every kind but the hull has a closed-form support */
    GJKB_ANALYTIC_KINDS = GJKB_KIND_COUNT - 1,
    /* keys below this are analytic pairs, hi * GJKB_ANALYTIC_KINDS + lo of
     * their analytic indices; a pair with a hull is this plus its class */
    GJKB_KEY_HULL = GJKB_ANALYTIC_KINDS * GJKB_ANALYTIC_KINDS,
    /* Hull size classes of 2^3 = 8 points: a bundle's hull loop runs as
     * long as its longest hull, so lanes within 8 points of each other
     * waste little. 33 classes reach 264 points; larger hulls share the
     * last, which keeps the key a byte and the counting sort's counters
     * (4 x GJKB_KEYS per part) small. */
    GJKB_HULL_CLASS_SHIFT = 3,
    GJKB_HULL_CLASSES = 34,
    GJKB_KEYS = GJKB_KEY_HULL + GJKB_HULL_CLASSES,
    GJKB_CLASS_KIND_BITS = 8,
    /* where a pair's info keeps its key and kinds */
    GJKB_INFO_KIND_A_SHIFT = 8,
    GJKB_INFO_KIND_B_SHIFT = 16
};
_Static_assert(GJKB_KEYS <= 256 && GJKB_KIND_COUNT <= 256, "a key and a kind are a byte each in a pair's info");

/* The size class of a hull of n >= 0 points. */
static inline unsigned gjkb__hull_class(int32_t n)
{
    int32_t c = (n + (1 << GJKB_HULL_CLASS_SHIFT) - 1) >> GJKB_HULL_CLASS_SHIFT;
    return (unsigned)(c < GJKB_HULL_CLASSES - 1 ? c : GJKB_HULL_CLASSES - 1);
}

/* An analytic kind's place among the analytic kinds (the hull skipped). */
static inline unsigned gjkb__analytic_index(unsigned kind)
{
    return kind - (kind > GJKB_HULL);
}

/* Whether kind ka or kb (< GJKB_KIND_COUNT) is a hull. With the hull the
 * last kind (a constant condition) that is the larger kind, which the key
 * needs anyway: one comparison instead of two. */
static inline bool gjkb__any_hull(unsigned ka, unsigned kb)
{
    if (GJKB_HULL == GJKB_KIND_COUNT - 1)
        return (ka > kb ? ka : kb) == GJKB_HULL;
    return (ka == GJKB_HULL) | (kb == GJKB_HULL);
}

/* The key of a pair of analytic kinds ka and kb. No branch on which kind is
 * larger: that is a coin toss the predictor loses. */
static inline unsigned gjkb__analytic_key(unsigned ka, unsigned kb)
{
    unsigned ia = gjkb__analytic_index(ka), ib = gjkb__analytic_index(kb);
    unsigned hi = ia > ib ? ia : ib, lo = ia > ib ? ib : ia;
    return hi * GJKB_ANALYTIC_KINDS + lo;
}

/* The key of a pair with a hull, from the size classes of its hulls (0 for
 * a side that is no hull). */
static inline unsigned gjkb__hull_key(unsigned hca, unsigned hcb)
{
    return GJKB_KEY_HULL + (hca > hcb ? hca : hcb);
}

/* The key of a pair of kinds ka and kb (< GJKB_KIND_COUNT), with the size
 * classes of their hulls (0 for a side that is no hull). */
static inline unsigned gjkb__pair_key(unsigned ka, unsigned hca, unsigned kb, unsigned hcb)
{
    return gjkb__any_hull(ka, kb) ? gjkb__hull_key(hca, hcb) : gjkb__analytic_key(ka, kb);
}

/* The class of a body of kind `kind` (< GJKB_KIND_COUNT) whose hull, for a
 * hull body, has n points. */
static inline unsigned gjkb__body_class(unsigned kind, int32_t n)
{
    return kind == GJKB_HULL ? kind | gjkb__hull_class(n) << GJKB_CLASS_KIND_BITS : kind;
}

/* A pair's info from its bodies' classes. */
static inline uint32_t gjkb__pair_info(unsigned class_a, unsigned class_b)
{
    const unsigned kind_mask = (1u << GJKB_CLASS_KIND_BITS) - 1u;
    unsigned ka = class_a & kind_mask, kb = class_b & kind_mask;
    unsigned key = gjkb__pair_key(ka, class_a >> GJKB_CLASS_KIND_BITS, kb, class_b >> GJKB_CLASS_KIND_BITS);
    return key | ka << GJKB_INFO_KIND_A_SHIFT | kb << GJKB_INFO_KIND_B_SHIFT;
}

/* The parts of a pair's info. */
static inline unsigned gjkb__info_key(uint32_t info) { return info & 0xFFu; }
static inline int32_t gjkb__info_kind_a(uint32_t info) { return (int32_t)(info >> GJKB_INFO_KIND_A_SHIFT & 0xFFu); }
static inline int32_t gjkb__info_kind_b(uint32_t info) { return (int32_t)(info >> GJKB_INFO_KIND_B_SHIFT); }

#endif
