/* pairkey.inl - src/pairkey.h's classes and keys for W lanes, the same
 * numbers as the host functions of the same names (the broadphase test
 * checks every pair's info against gjkb__pair_info). Included by the
 * kernels that make them (bounds.inl, sweep.inl) after their wide_<isa>.h. */
#ifndef GJKB_KERNEL_PAIRKEY_INL
#define GJKB_KERNEL_PAIRKEY_INL

#include "pairkey.h"

/* x * c for a constant c, in shifts and adds: the wide ops have no int32
 * multiply, and c is known when compiling, so this unrolls to a few ops. */
static inline iw ky_times(iw x, unsigned c)
{
    iw r = iw_zero();
    for (int b = 0; (c >> b) != 0; b++)
        if ((c >> b) & 1u)
            r = iw_add(r, iw_shl(x, b));
    return r;
}

/* gjkb__hull_class of W hull sizes n >= 0. */
static inline iw ky_hull_class(iw n)
{
    iw c = iw_shr(iw_add(n, iw_splat((1 << GJKB_HULL_CLASS_SHIFT) - 1)), GJKB_HULL_CLASS_SHIFT);
    return iw_min(c, iw_splat(GJKB_HULL_CLASSES - 1));
}

/* gjkb__body_class of W bodies, given their hull classes (0 off hulls). */
static inline iw ky_body_class(iw kind, iw hull_class)
{
    return iw_add(kind, iw_shl(hull_class, GJKB_CLASS_KIND_BITS));
}

/* gjkb__analytic_index of W kinds. */
static inline iw ky_analytic_index(iw kind)
{
    return iw_sub(kind, iw_sel(iw_lt(iw_splat(GJKB_HULL), kind), iw_splat(1), iw_zero()));
}

/* gjkb__pair_key of W pairs. */
static inline iw ky_pair_key(iw ka, iw hca, iw kb, iw hcb)
{
    const iw hull = iw_splat(GJKB_HULL);
    iw ia = ky_analytic_index(ka), ib = ky_analytic_index(kb);
    iw analytic = iw_add(ky_times(iw_max(ia, ib), GJKB_ANALYTIC_KINDS), iw_min(ia, ib));
    iw hulls = iw_add(iw_max(hca, hcb), iw_splat(GJKB_KEY_HULL));
    return iw_sel(mw_or(iw_eq(ka, hull), iw_eq(kb, hull)), hulls, analytic);
}

/* gjkb__pair_info of W pairs from their bodies' classes. The parts do not
 * overlap: + is |. */
static inline iw ky_pair_info(iw ca, iw cb)
{
    const iw kind_mask = iw_splat((1 << GJKB_CLASS_KIND_BITS) - 1);
    iw ka = iw_and(ca, kind_mask), kb = iw_and(cb, kind_mask);
    iw key = ky_pair_key(ka, iw_shr(ca, GJKB_CLASS_KIND_BITS), kb, iw_shr(cb, GJKB_CLASS_KIND_BITS));
    return iw_add(key, iw_add(iw_shl(ka, GJKB_INFO_KIND_A_SHIFT), iw_shl(kb, GJKB_INFO_KIND_B_SHIFT)));
}

#endif
