/* refine.inl - EPA's normal on a cylinder's or a cone's curved core, made
 * exact across lanes. EPA's inscribed polytope meets the depth only to
 * second order in the angle, so on a curved core its normal stays about
 * 1e-3 rad off: too far for the manifold's rules. Here a straight feature
 * of either side (a box's edge or face, a capsule's segment, a cylinder's
 * side line or cap) gives a direction t the true normal is square to;
 * along the great circle of normals square to t the depth is least where
 * its slope changes sign, bisected down to float's grid. The answer
 * stands where the depth rises both ways along t as well (the straight
 * feature's kink), it is no deeper than EPA's, and one side touches at a
 * single point (the witnesses). */

#define RF_FREE 2e-3f   /* an axis this near square to the normal spans the feature (EPA's error is 1e-3) */
#define RF_SPAN 4e-3f   /* the search's half width along the circle (rad) */
#define RF_STEPS 20     /* halvings: 8e-3 rad down to float's grid of the normal */
#define RF_TILT 1e-5f   /* the tilt that checks the kink along t and a hull's single vertex */
#define RF_GAP 6e-6f    /* the refined depth at most this above EPA's (scaled units) */
#define RF_IN 1e-6f     /* a touching point this far out of a core still lies in it (scaled units) */

/* A side's straight feature along the unit u (own frame): a direction t
 * it spans (has_t), or that it touches at one point (pointed). A hull is
 * neither here: its vertex is checked by tilting (rf_hull_pointed). */
typedef struct rf_side {
    v3w t;
    mw has_t, pointed;
} rf_side;

static GJKB_INLINE rf_side rf_side_of(const core_w *c, v3w u)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f), free = fw_splat(RF_FREE);
    mw fx = mw_and(fw_lt(fw_abs(u.x), free), fw_gt(c->h.x, zero));
    mw fy = mw_and(fw_lt(fw_abs(u.y), free), fw_gt(c->h.y, zero));
    mw fz = mw_andnot(mw_and(fw_lt(fw_abs(u.z), free), fw_gt(c->h.z, zero)), c->cone);
    fw lat = fw_sqrt(fw_add(fw_mul(u.x, u.x), fw_mul(u.y, u.y)));
    /* a cap, a cone's base: flat where u is along the axis */
    mw flat = mw_and(mw_and(fw_gt(c->rd, zero), fw_lt(lat, free)), mw_or(mw_not(c->cone), fw_lt(u.z, zero)));
    /* a cone's slant line: its apex and rim point nearly level along u */
    fw apex = fw_mul(c->h.z, u.z), rim = fw_sub(fw_mul(c->rd, lat), apex);
    mw slant = mw_and(c->cone, fw_le(fw_abs(fw_sub(apex, rim)), fw_mul(free, fw_add(c->rd, c->h.z))));
    rf_side s;
    s.has_t = mw_or(mw_or(fx, fy), mw_or(fz, flat));
    s.t = v3_make(fw_sel(mw_or(fx, mw_andnot(flat, mw_or(fy, fz))), one, zero), fw_sel(mw_andnot(fy, fx), one, zero),
                  fw_sel(mw_andnot(mw_andnot(fz, fx), fy), one, zero));
    s.pointed = mw_andnot(mw_not(mw_or(s.has_t, slant)), c->hull);
    return s;
}

/* The depth's slope along the circle c + theta p (c, p unit and square):
 * its sign, as the support point's part along the circle's tangent. */
static GJKB_INLINE fw rf_slope(const pack_w *k, const gjkb__world *w, v3w c, v3w p, fw theta, mw m)
{
    v3w pa, pb, n = v3_madd(c, p, theta);
    v3w s = sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, n, w, m, &pa, &pb);
    return v3_dot(s, v3_sub(p, v3_scale(c, theta)));
}

static GJKB_INLINE v3w rf_unit(v3w v)
{
    return v3_scale(v, fw_div(fw_splat(1.0f), fw_sqrt(v3_dot(v, v))));
}

/* Whether the hull sides' support points at n stay the same when n tilts
 * by RF_TILT four ways in its plane (a single vertex, not an edge or a
 * face): *pa_one for A, *pb_one for B (true for other kinds). */
static GJKB_INLINE void rf_hull_pointed(const pack_w *k, const gjkb__world *w, v3w n, v3w pa, v3w pb, mw m,
                                        mw *pa_one, mw *pb_one)
{
    *pa_one = *pb_one = mw_true();
    if (!mw_any(mw_and(m, mw_or(k->sa.c.hull, k->sb.c.hull))))
        return;
    v3w helper = v3_sel(fw_lt(fw_abs(n.x), fw_splat(0.5f)), v3_splat(1.0f, 0.0f, 0.0f), v3_splat(0.0f, 1.0f, 0.0f));
    v3w e1 = rf_unit(v3_cross(n, helper));
    v3w e2 = v3_cross(n, e1);
    const fw tilt = fw_splat(RF_TILT);
    for (int i = 0; i < 4; i++) {
        v3w e = i < 2 ? e1 : e2, qa, qb;
        v3w d = v3_madd(n, e, (i & 1) ? fw_neg(tilt) : tilt);
        sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, d, w, m, &qa, &qb);
        *pa_one = mw_and(*pa_one, mw_and(mw_and(fw_eq(qa.x, pa.x), fw_eq(qa.y, pa.y)), fw_eq(qa.z, pa.z)));
        *pb_one = mw_and(*pb_one, mw_and(mw_and(fw_eq(qb.x, pb.x), fw_eq(qb.y, pb.y)), fw_eq(qb.z, pb.z)));
    }
    *pa_one = mw_or(*pa_one, mw_not(k->sa.c.hull));
    *pb_one = mw_or(*pb_one, mw_not(k->sb.c.hull));
}

/* The least depth along the circle of unit normals square to t through
 * n0 (A's scaled frame): its normal, or lanes dropped from *m where the
 * slope does not change sign within RF_SPAN. */
static GJKB_INLINE v3w rf_search(const pack_w *k, const gjkb__world *w, v3w n0, v3w t, mw *m)
{
    v3w c = rf_unit(v3_sub(n0, v3_scale(t, v3_dot(n0, t))));
    v3w p = v3_cross(t, c);
    fw lo = fw_splat(-RF_SPAN), hi = fw_splat(RF_SPAN);
    const fw zero = fw_zero(), half = fw_splat(0.5f);
    *m = mw_and(*m, mw_and(fw_lt(rf_slope(k, w, c, p, lo, *m), zero), fw_gt(rf_slope(k, w, c, p, hi, *m), zero)));
    for (int i = 0; i < RF_STEPS && mw_any(*m); i++) {
        fw mid = fw_mul(fw_add(lo, hi), half);
        mw down = fw_lt(rf_slope(k, w, c, p, mid, *m), zero);
        lo = fw_sel(down, mid, lo);
        hi = fw_sel(down, hi, mid);
    }
    return rf_unit(v3_madd(c, p, fw_mul(fw_add(lo, hi), half)));
}

/* Whether the point x (own frame) lies in the analytic core c, to within
 * RF_IN (a hull: never, here). */
static GJKB_INLINE mw rf_inside(const core_w *c, v3w x)
{
    const fw in = fw_splat(RF_IN), zero = fw_zero(), one = fw_splat(1.0f);
    fw rho = fw_sqrt(fw_add(fw_mul(x.x, x.x), fw_mul(x.y, x.y)));
    /* a cone's disk narrows from its base (z = -h) to its apex (z = h) */
    fw narrow = fw_mul(fw_splat(0.5f), fw_sub(one, fw_div(x.z, fw_sel(fw_gt(c->h.z, zero), c->h.z, one))));
    fw rd = fw_sel(c->cone, fw_mul(c->rd, narrow), c->rd);
    /* a box (a capsule's segment, a sphere's point) or a disk's sweep */
    mw box = mw_and(fw_le(fw_abs(x.x), fw_add(c->h.x, in)), fw_le(fw_abs(x.y), fw_add(c->h.y, in)));
    mw round = fw_gt(c->rd, zero);
    mw across = mw_or(mw_and(round, fw_le(rho, fw_add(rd, in))), mw_andnot(box, round));
    mw ok = mw_and(fw_le(fw_abs(x.z), fw_add(c->h.z, in)), across);
    return mw_andnot(ok, c->hull);
}

/* Lanes m (EPA's, with a cylinder or a cone): the refined answer (signed
 * distance, unit normal from A to B, A's witness, A's scaled frame) from
 * EPA's normal n0 and depth (-dist0 - margins); ok where it holds. */
static GJKB_INLINE cs_out rf_refine(const gjkb__world *w, const pack_w *k, mw m, v3w n0, fw dist0)
{
    rf_side a = rf_side_of(&k->sa.c, n0), b = rf_side_of(&k->sb.c, m3_mul_t(k->pose.r, v3_neg(n0)));
    v3w t = v3_sel(a.has_t, a.t, m3_mul(k->pose.r, b.t));
    cs_out r;
    r.ok = mw_and(m, mw_or(a.has_t, b.has_t));
    r.key = iw_zero();
    if (!mw_any(r.ok)) {
        r.n = n0, r.a = v3_zero(), r.dist = dist0;
        return r;
    }
    r.n = rf_search(k, w, n0, t, &r.ok);
    v3w pa, pb, qa, qb;
    fw depth = v3_dot(sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, r.n, w, r.ok, &pa, &pb), r.n);
    /* the kink along t: the depth rises tilting either way */
    const fw tilt = fw_splat(RF_TILT), zero = fw_zero();
    fw up = v3_dot(sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, v3_madd(r.n, t, tilt), w, r.ok, &qa, &qb), t);
    fw down = v3_dot(sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, v3_madd(r.n, t, fw_neg(tilt)), w, r.ok, &qa, &qb), t);
    r.ok = mw_and(r.ok, mw_and(fw_gt(up, zero), fw_lt(down, zero)));
    r.ok = mw_and(r.ok, fw_le(depth, fw_add(fw_neg(fw_add(dist0, k->m)), fw_splat(RF_GAP))));
    /* one side touches at a single point at the answer; the other holds
     * that point on its support plane */
    a = rf_side_of(&k->sa.c, r.n);
    b = rf_side_of(&k->sb.c, m3_mul_t(k->pose.r, v3_neg(r.n)));
    mw a_one, b_one;
    rf_hull_pointed(k, w, r.n, pa, pb, r.ok, &a_one, &b_one);
    a_one = mw_and(a_one, mw_or(a.pointed, k->sa.c.hull));
    b_one = mw_and(b_one, mw_or(b.pointed, k->sb.c.hull));
    v3w over_b = v3_madd(pb, r.n, depth), under_a = v3_madd(pa, r.n, fw_neg(depth));
    mw by_b = mw_and(b_one, rf_inside(&k->sa.c, over_b));
    mw by_a = mw_andnot(mw_and(a_one, rf_inside(&k->sb.c, m3_mul_t(k->pose.r, v3_sub(under_a, k->pose.t)))), by_b);
    r.ok = mw_and(r.ok, mw_or(by_a, by_b));
    r.a = v3_madd(v3_sel(by_b, over_b, pa), r.n, k->ma);
    r.dist = fw_sub(fw_neg(depth), k->m);
    r.ok = mw_and(r.ok, fw_isfinite(fw_add(r.dist, v3_dot(r.a, r.a))));
    return r;
}
