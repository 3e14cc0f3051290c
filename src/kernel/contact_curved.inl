/* contact_curved.inl - a capsule's segment or a box's nearest feature
 * near a cylinder or a cone (a capsule's also in it), across lanes: the
 * nearest points, to float's rounding. GJK's float axis stops at its
 * duality gap, which on a curved side is second order in the angle (up to
 * about 1e-4 rad off), and EPA's inscribed polytope about 1e-3 rad: too
 * far for the manifold's rules (a side line, a rim point or a cap). Here
 * the signed distance from a segment's point at t to the curved core
 * (contact_sphere.inl's section forms) is convex in t, so the sign of its
 * slope, the outward direction there along the segment, is bisected down
 * to the float grid of t; the nearest point's direction is then as good
 * as its rounding over the distance. A box offers the edge or corner
 * that float's axis faces (a corner is an edge of length 0), or a face,
 * whose normal is the answer where the curved core's support point lies
 * over it. */

/* Halvings of the segment: 2^-24 of its length, float's grid. */
#define CC_STEPS 24
/* A least inside that is flat: the segment's far end no further along n
 * than this (scaled units) */
#define CC_FLAT 5e-7f

/* A box's axis is free (its nearest feature spans it) where float's axis
 * leans off square to it by less than this, well past GJK's float error:
 * a feature larger than the true one holds it (an edge its corners), and
 * the support gap check (ct_axis_off) throws out a wrong guess. */
#define CC_FREE 2e-3f
/* A cap or a side this near parallel to a box's face over its span
 * (scaled units): any of its points is nearest to within it. */
#define CC_PLANE 1e-6f
/* Cores nearer than this (scaled units) leave the exact axis to the
 * reference: the rounding of the nearest points, about 1e-7, over the
 * distance turns it by more than the flat kinds' 1e-5 (MG_SEP_TILT). */
#define CC_CORE_MIN 1e-2f

static GJKB_INLINE mw cc_curved(iw kind)
{
    return mw_or(iw_eq(kind, iw_splat(GJKB_CYLINDER)), iw_eq(kind, iw_splat(GJKB_CONE)));
}

/* The lanes that are a capsule (*box: or a box) and a cylinder or a cone,
 * either way. */
static GJKB_INLINE mw cc_lanes(const gjkb__world *w, size_t o, mw *box)
{
    const iw ka = iw_load(w->lane_ka + o), kb = iw_load(w->lane_kb + o);
    const iw straight_a = iw_sel(cc_curved(ka), kb, ka);
    const mw one_curved = mw_xor(cc_curved(ka), cc_curved(kb));
    *box = mw_and(one_curved, iw_eq(straight_a, iw_splat(GJKB_BOX)));
    return mw_and(one_curved, mw_or(*box, iw_eq(straight_a, iw_splat(GJKB_CAPSULE))));
}

/* A segment c + t e, |t| <= half, in the curved core's frame (radius r,
 * half height h; lanes cone a cone). */
typedef struct cc_pair {
    v3w c, e;
    fw r, h;
    mw cone;
} cc_pair;

/* The section's outward direction (turned back by lx, ly) along e. */
static GJKB_INLINE fw cc_along(const cs_2d *s, fw lx, fw ly, v3w e)
{
    return fw_add(fw_mul(s->ur, fw_add(fw_mul(lx, e.x), fw_mul(ly, e.y))), fw_mul(s->uz, e.z));
}

/* The slope of the distance at t: the outward direction at the segment's
 * point, along e. */
static GJKB_INLINE fw cc_slope(const cc_pair *q, fw t)
{
    fw lx, ly;
    cs_2d s = cs_revolved(v3_madd(q->c, q->e, t), q->r, q->h, q->cone, &lx, &ly);
    return cc_along(&s, lx, ly, q->e);
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

/* The straight side's feature in its own frame (u toward the curved
 * core): a capsule's segment; a box's edge or corner (half 0) facing u,
 * or where two axes are free (*face) the face of the third (unit normal
 * *nf, c its centre). */
typedef struct cc_feature {
    v3w c, e, nf;
    fw half;
    mw face;
} cc_feature;

static GJKB_INLINE mw cc_free(fw ui)
{
    return fw_lt(fw_abs(ui), fw_splat(CC_FREE));
}

static GJKB_INLINE cc_feature cc_box(v3w h, v3w u)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    mw fx = cc_free(u.x), fy = cc_free(u.y), fz = cc_free(u.z);
    cc_feature f;
    f.c = v3_make(fw_sel(fx, zero, fw_copysign(h.x, u.x)), fw_sel(fy, zero, fw_copysign(h.y, u.y)),
                  fw_sel(fz, zero, fw_copysign(h.z, u.z)));
    /* one free axis: the edge along it; none: the corner */
    f.e = v3_make(fw_sel(fx, one, zero), fw_sel(mw_andnot(fy, fx), one, zero), fw_sel(mw_andnot(mw_andnot(fz, fx), fy), one, zero));
    f.half = fw_sel(fx, h.x, fw_sel(fy, h.y, fw_sel(fz, h.z, zero)));
    f.face = mw_or(mw_or(mw_and(fx, fy), mw_and(fx, fz)), mw_and(fy, fz));
    f.nf = v3_make(fw_sel(fx, zero, fw_copysign(one, u.x)), fw_sel(fy, zero, fw_copysign(one, u.y)),
                   fw_sel(fz, zero, fw_copysign(one, u.z)));
    f.e = v3_sel(mw_or(f.face, fw_gt(v3_dot(f.e, f.e), zero)), f.e, v3_make(one, zero, zero));
    return f;
}

/* Where the straight side is A: its own frame to the curved core's, a
 * point and a direction; else the other way. */
static GJKB_INLINE v3w cc_point_in(const pose_w *p, mw straight_a, v3w x)
{
    return v3_sel(straight_a, m3_mul_t(p->r, v3_sub(x, p->t)), v3_add(m3_mul(p->r, x), p->t));
}

/* The other way: a point of the curved core's frame to the straight
 * side's own. */
static GJKB_INLINE v3w cc_point_out(const pose_w *p, mw straight_a, v3w x)
{
    return v3_sel(straight_a, v3_add(m3_mul(p->r, x), p->t), m3_mul_t(p->r, v3_sub(x, p->t)));
}

static GJKB_INLINE v3w cc_dir_in(const pose_w *p, mw straight_a, v3w d)
{
    return v3_sel(straight_a, m3_mul_t(p->r, d), m3_mul(p->r, d));
}

/* The curved side's core of each lane. */
static GJKB_INLINE core_w cc_core(const pack_w *k, mw straight_a)
{
    core_w c;
    c.h = v3_sel(straight_a, k->sb.c.h, k->sa.c.h);
    c.rd = fw_sel(straight_a, k->sb.c.rd, k->sa.c.rd);
    c.margin = fw_sel(straight_a, k->sb.c.margin, k->sa.c.margin);
    c.cone = mw_or(mw_and(straight_a, k->sb.c.cone), mw_andnot(k->sa.c.cone, straight_a));
    c.hull = mw_false();
    return c;
}

/* The nearest points in the curved core's frame: the straight side's P
 * (in its own frame: p_own), the core's Q, the unit u out of the core
 * toward P, the core distance; ok where settled. */
typedef struct cc_near {
    v3w p_own, q, u;
    fw core;
    mw ok;
} cc_near;

/* Lanes m: by the segment (c, e, half of f, own frame). Cores apart the
 * distance is smooth and its least is the answer; inside, at a kink of
 * the depth (two sides equally near) no side's normal moves the whole
 * segment out by the depth: only a flat least (the segment square to n,
 * to within CC_FLAT over its half length) or an end is. */
static GJKB_INLINE cc_near cc_by_segment(const pack_w *k, mw straight_a, const cc_feature *f, mw m)
{
    const fw zero = fw_zero();
    const core_w cc = cc_core(k, straight_a);
    cc_pair q = { cc_point_in(&k->pose, straight_a, f->c), cc_dir_in(&k->pose, straight_a, f->e), cc.rd, cc.h.z,
                  cc.cone };
    mw end;
    fw t = cc_nearest_t(&q, f->half, m, &end), lx, ly;
    cs_2d s = cs_revolved(v3_madd(q.c, q.e, t), q.r, q.h, q.cone, &lx, &ly);
    fw slope = cc_along(&s, lx, ly, q.e);
    mw flat = mw_or(end, fw_le(fw_mul(fw_abs(slope), f->half), fw_splat(CC_FLAT)));
    cc_near r;
    r.p_own = v3_madd(f->c, f->e, t);
    r.q = v3_make(fw_mul(s.qr, lx), fw_mul(s.qr, ly), s.qz);
    r.u = v3_make(fw_mul(s.ur, lx), fw_mul(s.ur, ly), s.uz);
    r.core = s.core;
    r.ok = mw_and(s.ok, mw_or(flat, fw_gt(s.core, zero)));
    return r;
}

/* Lanes of a box face (f->face): the curved core's support point toward
 * the face's plane, answered where it lies over the face. */
static GJKB_INLINE cc_near cc_by_face(const pack_w *k, mw straight_a, const cc_feature *f, v3w h)
{
    const core_w cc = cc_core(k, straight_a);
    v3w d = cc_dir_in(&k->pose, straight_a, f->nf);
    cc_near r;
    r.q = sh_support(&cc, v3_neg(d), 1, 1);
    r.u = v3_neg(d);
    /* a cap or a cylinder's side parallel to the face to within CC_PLANE
     * over its span: its point nearest the face's centre stands for it */
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    v3w mid = cc_point_in(&k->pose, straight_a, f->c);
    fw lat = fw_sqrt(fw_add(fw_mul(d.x, d.x), fw_mul(d.y, d.y))), far = fw_sqrt(fw_add(fw_mul(mid.x, mid.x), fw_mul(mid.y, mid.y)));
    mw cap = fw_le(fw_mul(lat, cc.rd), fw_splat(CC_PLANE));
    fw in = fw_sel(fw_gt(far, cc.rd), fw_div(cc.rd, fw_sel(fw_gt(far, zero), far, one)), one);
    r.q.x = fw_sel(cap, fw_mul(mid.x, in), r.q.x);
    r.q.y = fw_sel(cap, fw_mul(mid.y, in), r.q.y);
    mw side = mw_andnot(fw_le(fw_mul(fw_abs(d.z), cc.h.z), fw_splat(CC_PLANE)), cc.cone);
    r.q.z = fw_sel(side, fw_min(fw_max(mid.z, fw_neg(cc.h.z)), cc.h.z), r.q.z);
    r.core = v3_dot(v3_sub(r.q, cc_point_in(&k->pose, straight_a, f->c)), d);
    /* back in the box's frame, onto the face's plane */
    v3w p = cc_point_out(&k->pose, straight_a, r.q);
    mw free_x = fw_eq(f->nf.x, fw_zero()), free_y = fw_eq(f->nf.y, fw_zero()), free_z = fw_eq(f->nf.z, fw_zero());
    r.p_own = v3_make(fw_sel(free_x, p.x, f->c.x), fw_sel(free_y, p.y, f->c.y), fw_sel(free_z, p.z, f->c.z));
    mw over = mw_and(mw_and(mw_or(mw_not(free_x), fw_le(fw_abs(p.x), h.x)), mw_or(mw_not(free_y), fw_le(fw_abs(p.y), h.y))),
                     mw_or(mw_not(free_z), fw_le(fw_abs(p.z), h.z)));
    r.ok = mw_and(over, fw_gt(r.core, fw_zero()));
    return r;
}

/* Lanes m (cc_lanes, valid; box lanes only with the cores apart): the
 * signed distance (margins included), the unit normal from A to B and
 * A's witness, A's scaled frame, as cs_answer's, from n (float's axis);
 * ok where float settled it. The caller still asks for the cores some
 * way apart: the rounding over the distance turns n. */
static GJKB_INLINE cs_out cc_answer(const gjkb__world *w, size_t o, const pack_w *k, mw m, v3w n)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    const mw straight_a = mw_not(cc_curved(iw_load(w->lane_ka + o)));
    const mw box = iw_eq(iw_sel(straight_a, iw_load(w->lane_ka + o), iw_load(w->lane_kb + o)), iw_splat(GJKB_BOX));
    const v3w hs = v3_sel(straight_a, k->sa.c.h, k->sb.c.h);
    cc_feature f = { v3_zero(), v3_make(zero, zero, one), v3_zero(), hs.z, mw_false() };
    if (mw_any(box)) {
        /* toward the curved core in the box's frame */
        cc_feature fb = cc_box(hs, v3_sel(straight_a, n, m3_mul_t(k->pose.r, v3_neg(n))));
        f.c = v3_sel(box, fb.c, f.c), f.e = v3_sel(box, fb.e, f.e), f.nf = fb.nf;
        f.half = fw_sel(box, fb.half, f.half);
        f.face = mw_and(box, fb.face);
    }
    cc_near r = cc_by_segment(k, straight_a, &f, mw_andnot(m, f.face));
    if (mw_any(f.face)) {
        cc_near rf = cc_by_face(k, straight_a, &f, hs);
        r.p_own = v3_sel(f.face, rf.p_own, r.p_own), r.q = v3_sel(f.face, rf.q, r.q), r.u = v3_sel(f.face, rf.u, r.u);
        r.core = fw_sel(f.face, rf.core, r.core);
        r.ok = mw_or(mw_and(f.face, rf.ok), mw_andnot(r.ok, f.face));
    }
    const fw mc = fw_sel(straight_a, k->mb, k->ma), ms = fw_sel(straight_a, k->ma, k->mb);
    cs_out c;
    c.dist = fw_sub(r.core, fw_add(mc, ms));
    c.key = iw_zero();
    /* n from A to B: out of the curved core where it is A; the straight
     * side's point of its own frame where that is A */
    v3w n_straight = v3_neg(m3_mul(k->pose.r, r.u));
    c.n = v3_sel(straight_a, n_straight, r.u);
    c.a = v3_sel(straight_a, v3_madd(r.p_own, n_straight, ms), v3_madd(r.q, r.u, mc));
    c.ok = mw_and(m, r.ok);
    c.ok = mw_and(c.ok, fw_isfinite(fw_add(c.dist, v3_dot(c.a, c.a))));
    return c;
}
