/* contact_capsule.inl - a capsule near or in a cylinder or a cone, across
 * lanes: the nearest points of the capsule's segment and the other core
 * (cores overlapping: the segment's deepest point), to float's rounding.
 * GJK's float axis stops at its duality gap, which on a curved side is
 * second order in the angle (up to about 1e-4 rad off), and EPA's
 * inscribed polytope about 1e-3 rad: too far for the manifold's rules (a
 * side line, a rim point or a cap). Here the signed distance from the
 * segment's point at t to the other core (contact_sphere.inl's section
 * forms) is convex in t, so the sign of its slope, the outward direction
 * there along the segment, is bisected down to the float grid of t; the
 * nearest point's direction is then as good as its rounding over the
 * distance. */

/* Halvings of the segment: 2^-24 of its length, float's grid. */
#define CC_STEPS 24
/* A least inside that is flat: the segment's far end no further along n
 * than this (scaled units) */
#define CC_FLAT 5e-7f

/* The lanes that are a capsule and a cylinder or a cone, either way. */
static GJKB_INLINE mw cc_lanes(const gjkb__world *w, size_t o)
{
    const iw ka = iw_load(w->lane_ka + o), kb = iw_load(w->lane_kb + o), cap = iw_splat(GJKB_CAPSULE);
    mw curved_a = mw_or(iw_eq(ka, iw_splat(GJKB_CYLINDER)), iw_eq(ka, iw_splat(GJKB_CONE)));
    mw curved_b = mw_or(iw_eq(kb, iw_splat(GJKB_CYLINDER)), iw_eq(kb, iw_splat(GJKB_CONE)));
    return mw_or(mw_and(iw_eq(ka, cap), curved_b), mw_and(curved_a, iw_eq(kb, cap)));
}

/* The capsule's segment c + t e, |t| <= its half length, in the other
 * core's frame (radius r, half height h; lanes cone a cone). */
typedef struct cc_pair {
    v3w c, e;
    fw r, h;
    mw cone;
} cc_pair;

/* The slope of the distance at t: the outward direction at the segment's
 * point, along e. */
static GJKB_INLINE fw cc_slope(const cc_pair *q, fw t)
{
    fw lx, ly;
    cs_2d s = cs_revolved(v3_madd(q->c, q->e, t), q->r, q->h, q->cone, &lx, &ly);
    return fw_add(fw_mul(s.ur, fw_add(fw_mul(lx, q->e.x), fw_mul(ly, q->e.y))), fw_mul(s.uz, q->e.z));
}

/* The t of the nearest point: an end whose slope points out of the
 * segment (*end set), else the bisected sign change. */
static GJKB_INLINE fw cc_nearest_t(const cc_pair *q, fw half, mw m, mw *end)
{
    const fw zero = fw_zero(), mid_of = fw_splat(0.5f);
    fw lo = fw_neg(half), hi = half;
    mw at_lo = fw_ge(cc_slope(q, lo), zero), at_hi = mw_andnot(fw_le(cc_slope(q, hi), zero), at_lo);
    mw run = mw_andnot(m, mw_or(at_lo, at_hi));
    for (int i = 0; i < CC_STEPS && mw_any(run); i++) {
        fw mid = fw_mul(fw_add(lo, hi), mid_of);
        mw down = fw_lt(cc_slope(q, mid), zero);
        lo = fw_sel(down, mid, lo);
        hi = fw_sel(down, hi, mid);
    }
    fw t = fw_mul(fw_add(lo, hi), mid_of);
    *end = mw_or(at_lo, at_hi);
    return fw_sel(at_lo, fw_neg(half), fw_sel(at_hi, half, t));
}

/* Lanes m (cc_lanes, valid): the signed distance (margins included), the
 * unit normal from A to B and A's witness, A's scaled frame, as
 * cs_answer's; ok where float settled it. The caller still asks for the
 * cores some way apart: the rounding over the distance turns n. */
static GJKB_INLINE cs_out cc_answer(const gjkb__world *w, size_t o, const pack_w *k, mw m)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    const mw cap_a = iw_eq(iw_load(w->lane_ka + o), iw_splat(GJKB_CAPSULE));
    const iw kind = iw_sel(cap_a, iw_load(w->lane_kb + o), iw_load(w->lane_ka + o));
    const v3w z = v3_make(zero, zero, one);
    cc_pair q;
    q.cone = iw_eq(kind, iw_splat(GJKB_CONE));
    q.r = fw_sel(cap_a, k->sb.c.rd, k->sa.c.rd);
    q.h = fw_sel(cap_a, k->sb.c.h.z, k->sa.c.h.z);
    q.c = v3_sel(cap_a, m3_mul_t(k->pose.r, v3_neg(k->pose.t)), k->pose.t);
    q.e = v3_sel(cap_a, m3_mul_t(k->pose.r, z), m3_mul(k->pose.r, z));
    const fw half = fw_sel(cap_a, k->sa.c.h.z, k->sb.c.h.z);
    const fw mc = fw_sel(cap_a, k->mb, k->ma), ms = fw_sel(cap_a, k->ma, k->mb);
    mw end;
    fw t = cc_nearest_t(&q, half, m, &end), lx, ly;
    cs_2d s = cs_revolved(v3_madd(q.c, q.e, t), q.r, q.h, q.cone, &lx, &ly);
    /* cores apart, the distance is smooth and its least is the answer;
     * inside, at a kink of the depth (two sides equally near) no side's
     * normal moves the whole segment out by the depth: only a flat least
     * (the segment square to n, to within CC_FLAT over its half length)
     * or an end is */
    fw slope = fw_add(fw_mul(s.ur, fw_add(fw_mul(lx, q.e.x), fw_mul(ly, q.e.y))), fw_mul(s.uz, q.e.z));
    mw flat = mw_or(end, fw_le(fw_mul(fw_abs(slope), half), fw_splat(CC_FLAT)));
    s.ok = mw_and(s.ok, mw_or(flat, fw_gt(s.core, zero)));
    v3w qc = v3_make(fw_mul(s.qr, lx), fw_mul(s.qr, ly), s.qz), u = v3_make(fw_mul(s.ur, lx), fw_mul(s.ur, ly), s.uz);
    cs_out c;
    c.dist = fw_sub(s.core, fw_add(mc, ms));
    c.key = iw_zero();
    /* n from A to B: out of the other core where it is A; the capsule's
     * point (0, 0, t) of its own frame where it is A */
    v3w n_cap = v3_neg(m3_mul(k->pose.r, u));
    c.n = v3_sel(cap_a, n_cap, u);
    c.a = v3_sel(cap_a, v3_madd(v3_make(zero, zero, t), n_cap, ms), v3_madd(qc, u, mc));
    c.ok = mw_and(m, s.ok);
    c.ok = mw_and(c.ok, fw_isfinite(fw_add(c.dist, v3_dot(c.a, c.a))));
    return c;
}
