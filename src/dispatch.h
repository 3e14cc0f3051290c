/* dispatch.h - the wide kernels behind the host code: which of them this
 * build and CPU run (dispatch.c), and the broadphase kernels' interface
 * (what src/kernel/bounds.inl and sweep.inl include). */
#ifndef GJKB_DISPATCH_H
#define GJKB_DISPATCH_H

#include "internal.h"
#include "kernel/packed.h"
#include "shape.h"   /* the bounds kernel applies its rule */
#include "buffer.h"  /* the sweep kernels append to a gjkb__pairbuf */
#include "pairkey.h" /* and make each pair's info */

/* The kernel compiled for a backend (natively or through SIMDe emulation),
 * or NULL when this build has none. */
const gjkb__kernel *gjkb__kernel_for(gjkb_backend backend);
/* Whether the backend runs natively on this CPU (auto picks only these). */
int gjkb__kernel_native(gjkb_backend backend);
/* The widest backend this CPU runs natively; reference when none. */
gjkb_backend gjkb__backend_auto(void);

/* ---- the broadphase kernels (src/kernel/bounds.inl, src/kernel/sweep.inl)
 * One body each, compiled per width like the GJK kernel; the width-agnostic
 * rest (checks, sort, sentinels, buffers, threads) is src/broadphase.c. */

/* Boxes sorted by their min along the sweep axis (axis 0 here; 1 and 2 are
 * the other two), in 64-byte aligned blocks of the kernel's width W: block
 * b holds, W floats each, min0, max0, min1, max1, min2, max2 of boxes bW to
 * bW + W - 1 (GJKB_SORTED_AT), so a bundle is one block, read with aligned
 * loads at offsets known when compiling. count real boxes are followed by
 * sentinels up to a multiple of GJKB_PACK_ALIGN, at least one: every value
 * NaN, so a bundle that reaches them stops the scan (a <= against NaN is
 * false even against a max of +inf) and never reports them. */
typedef struct gjkb__sorted {
    uint32_t count;
    const float *box;
    /* Body id of each sorted box, with GJKB_SORTED_STATIC set when the
     * body is static and static pairs are dropped: the sweep tests that
     * bit of both ids, no lookup by body id (ids are below 2^31). */
    const uint32_t *id;
    /* gjkb_step on a wide backend: each body's class (gjkb__body_class), by
     * body id, so that the sweep writes each pair's gjkb__pair_info next to
     * it. NULL: no info. */
    const uint32_t *cls;
    /* One band of the sweep (broadphase.c): a pair is reported here only
     * where the larger of its two mins along axis 1 is >= band_lo (-inf in
     * the first band), so a pair whose boxes share several bands comes out
     * of exactly one. */
    float band_lo;
} gjkb__sorted;

#define GJKB_SORTED_STATIC 0x80000000u

enum { GJKB_SORTED_MIN0, GJKB_SORTED_MAX0, GJKB_SORTED_MIN1, GJKB_SORTED_MAX1, GJKB_SORTED_MIN2,
       GJKB_SORTED_MAX2, GJKB_SORTED_FIELDS };
/* Index of field f of sorted box j in gjkb__sorted.box, for width w. */
#define GJKB_SORTED_AT(j, f, w) \
    ((size_t)(j) / (w) * ((w) * GJKB_SORTED_FIELDS) + (size_t)(f) * (w) + (size_t)(j) % (w))

/* What the sort's key pass (sweep.inl) needs of the sweep plan
 * (broadphase.c): the caller's boxes, the axes, and the band edges. */
typedef struct gjkb__keyplan {
    const float *box[6];     /* min x, y, z, max x, y, z */
    int axis0, axis1;        /* the sweep axis; the one cut into bands */
    int bands;
    /* edge[k] starts band k: bands + 1 of them, never falling, edge[0] =
     * -inf and edge[bands] = NaN */
    const float *edge;
    /* (x - guess_lo) * guess_scale is about x's band: a guess only (the
     * kernel walks the edges from it to the exact band) */
    float guess_lo, guess_scale;
} gjkb__keyplan;

/* The band range of a box the sweep leaves out (min > max on an axis, or
 * NaN); any other is first band | last band << 8. */
#define GJKB_EMPTY_BOX 0xFFFFu

typedef struct gjkb__broad_kernel {
    const char *name;
    int width;
    /* Boxes of bodies [first, end) into out (arguments already checked:
     * kinds and hull ids in range), and unless cls is NULL each body's
     * gjkb__body_class into cls[i]. */
    void (*bounds)(const gjkb_context *ctx, const gjkb_bodies *bodies, uint32_t first, uint32_t end,
                   const gjkb_aabbs *out, uint32_t *cls);
    /* Appends the overlapping pairs of sorted boxes i in [first, end)
     * against every later box, in order of i then of the later box, and
     * when s->cls is set their info; false when the buffer cannot grow
     * (the pairs so far stay). */
    bool (*sweep)(const gjkb__sorted *s, uint32_t first, uint32_t end, gjkb__pairbuf *out);
    /* The sort's key pass over boxes [first, end): key[i - first] the
     * order-keeping unsigned key of the box's min along axis0 (-0 just
     * below +0), range[i - first] its band range or GJKB_EMPTY_BOX. */
    void (*keys)(const gjkb__keyplan *p, uint32_t first, uint32_t end, uint32_t *key, uint32_t *range);
    /* The sort's fill: slots [first, end) of the sorted blocks (box, id;
     * first and end multiples of W) where id[at] is set for at < live:
     * those slots get the fields of box id[at] & ~GJKB_SORTED_STATIC from
     * src (the caller's arrays in gjkb__sorted field order), the rest
     * sentinels (NaN, id 0). */
    void (*fill)(const float *const src[GJKB_SORTED_FIELDS], float *box, uint32_t *id, uint32_t first, uint32_t live,
                 uint32_t end);
} gjkb__broad_kernel;

/* The broad kernels at a backend's width (reference: width 1), with the
 * same availability as gjkb__kernel_for; NULL when this build has none. */
const gjkb__broad_kernel *gjkb__broad_for(gjkb_backend backend);

#endif
