/* refine.inl - EPA's normal on a cylinder's or a cone's curved core, made
 * exact across lanes. EPA's inscribed polytope meets the depth only to
 * second order in the angle, so on a curved core its normal stays about
 * 1e-3 rad off: too far for the manifold's rules. Here a straight feature
 * of either side (a box's edge or face, a capsule's segment, a cylinder's
 * side line or cap, a hull's edge) gives a direction t the true normal is
 * square to, and a cone's slant line a cone of normals about its axis;
 * along that circle of normals the depth is least where its slope
 * changes sign, bisected down to float's grid. The answer stands where
 * the depth rises both ways across the circle as well (the straight
 * feature's kink), it is no deeper than EPA's, and one side touches at a
 * single point the other holds, or two lines cross inside both (the
 * witnesses). */

#define RF_FREE 2e-3f   /* an axis this near square to the normal spans the feature (EPA's error is 1e-3) */
#define RF_SPAN 4e-3f   /* the search's half width along the circle (rad) */
#define RF_STEPS 20     /* halvings: 8e-3 rad down to float's grid of the normal */
#define RF_TILT 1e-5f   /* the tilt that checks the kink along t and a hull's single vertex */
#define RF_GAP 6e-6f    /* the refined depth at most this above EPA's (scaled units) */
#define RF_CROSS 1e-2f  /* two lines cross where the sine between them is above this */
#define RF_IN 1e-6f     /* a touching point this far out of a core still lies in it (scaled units) */

/* A side's straight feature along the unit u (own frame): a direction t
 * it spans (has_t; line where it is its only one), a cone's slant line
 * (slant: its unit direction g, and rise, the sine its normals make with
 * the plane square to the axis), or that it touches at one point
 * (pointed). A hull is none of these here: its feature is found by
 * tilting (rf_hull_ends). */
typedef struct rf_side {
    v3w t, g;
    fw rise;
    mw has_t, line, slant, pointed;
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
    rf_side s;
    s.slant = mw_and(mw_and(c->cone, fw_gt(lat, zero)),
                     fw_le(fw_abs(fw_sub(apex, rim)), fw_mul(free, fw_add(c->rd, c->h.z))));
    fw inv_lat = fw_div(one, fw_sel(s.slant, lat, one)), h2 = fw_add(c->h.z, c->h.z);
    fw sl = fw_sqrt(fw_add(fw_mul(h2, h2), fw_mul(c->rd, c->rd)));
    fw inv_sl = fw_div(one, fw_sel(fw_gt(sl, zero), sl, one));
    s.g = v3_scale(v3_make(fw_neg(fw_mul(fw_mul(c->rd, u.x), inv_lat)), fw_neg(fw_mul(fw_mul(c->rd, u.y), inv_lat)), h2),
                   inv_sl);
    s.rise = fw_mul(c->rd, inv_sl);
    s.has_t = mw_or(mw_or(fx, fy), mw_or(fz, flat));
    s.t = v3_make(fw_sel(mw_or(fx, mw_andnot(flat, mw_or(fy, fz))), one, zero), fw_sel(mw_andnot(fy, fx), one, zero),
                  fw_sel(mw_andnot(mw_andnot(fz, fx), fy), one, zero));
    /* one straight direction: an edge, a segment, a side line */
    s.line = mw_andnot(mw_xor(mw_xor(fx, fy), fz), mw_or(flat, mw_and(mw_and(fx, fy), fz)));
    s.pointed = mw_andnot(mw_not(mw_or(s.has_t, s.slant)), c->hull);
    return s;
}

/* A circle of unit normals: those at the sine h with the plane square to
 * t, through c (unit, square to t), turning along p = t x c; q the
 * cosine. */
typedef struct rf_circle {
    v3w t, c, p;
    fw h, q;
} rf_circle;

/* The circle's normal at theta (unnormalized within the plane: supports
 * take any length along it but not across). */
static GJKB_INLINE v3w rf_at(const rf_circle *o, fw theta)
{
    v3w d = v3_madd(o->c, o->p, theta);
    fw inv = fw_div(o->q, fw_sqrt(v3_dot(d, d)));
    return v3_madd(v3_scale(d, inv), o->t, o->h);
}

/* The sign of the depth's slope along the circle at theta: the support
 * point's part along the circle's tangent there. */
static GJKB_INLINE fw rf_slope(const pack_w *k, const gjkb__world *w, const rf_circle *o, fw theta, mw m)
{
    v3w pa, pb;
    v3w s = sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, rf_at(o, theta), w, m, &pa, &pb);
    return v3_dot(s, v3_sub(o->p, v3_scale(o->c, theta)));
}

/* A hull side's feature at n, found by tilting n by `by` four ways in
 * its plane: one vertex (the support point stays), or an edge (one other
 * vertex shows up: *other). Lanes of other kinds: neither. */
typedef struct rf_end {
    mw one, line;
    v3w other;
} rf_end;

static GJKB_INLINE void rf_end_see(rf_end *e, v3w p, v3w q, mw *seen, mw *more)
{
    mw moved = mw_not(mw_and(mw_and(fw_eq(q.x, p.x), fw_eq(q.y, p.y)), fw_eq(q.z, p.z)));
    mw again = mw_and(mw_and(fw_eq(q.x, e->other.x), fw_eq(q.y, e->other.y)), fw_eq(q.z, e->other.z));
    *more = mw_or(*more, mw_and(mw_and(moved, *seen), mw_not(again)));
    e->other = v3_sel(mw_andnot(moved, *seen), q, e->other);
    *seen = mw_or(*seen, moved);
}

static GJKB_INLINE void rf_hull_ends(const pack_w *k, const gjkb__world *w, v3w n, v3w pa, v3w pb, mw m, float by,
                                     rf_end *ea, rf_end *eb)
{
    mw seen_a = mw_false(), seen_b = mw_false(), more_a = mw_false(), more_b = mw_false();
    ea->other = pa, eb->other = pb;
    if (mw_any(mw_and(m, mw_or(k->sa.c.hull, k->sb.c.hull)))) {
        v3w helper = v3_sel(fw_lt(fw_abs(n.x), fw_splat(0.5f)), v3_splat(1.0f, 0.0f, 0.0f), v3_splat(0.0f, 1.0f, 0.0f));
        v3w e1 = v3_unit(v3_cross(n, helper)), e2 = v3_cross(n, e1);
        const fw tilt = fw_splat(by);
        for (int i = 0; i < 4; i++) {
            v3w qa, qb, d = v3_madd(n, i < 2 ? e1 : e2, (i & 1) ? fw_neg(tilt) : tilt);
            sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, d, w, m, &qa, &qb);
            rf_end_see(ea, pa, qa, &seen_a, &more_a);
            rf_end_see(eb, pb, qb, &seen_b, &more_b);
        }
    }
    ea->one = mw_andnot(k->sa.c.hull, seen_a), ea->line = mw_andnot(mw_and(k->sa.c.hull, seen_a), more_a);
    eb->one = mw_andnot(k->sb.c.hull, seen_b), eb->line = mw_andnot(mw_and(k->sb.c.hull, seen_b), more_b);
}

/* The least depth along the circle of unit normals at the sine h with
 * the plane square to t, from n0's nearest (A's scaled frame): its
 * normal, or lanes dropped from *m where the slope does not change sign
 * within RF_SPAN. */
static GJKB_INLINE v3w rf_search(const pack_w *k, const gjkb__world *w, v3w n0, v3w t, fw h, mw *m)
{
    rf_circle o = { t, v3_unit(v3_sub(n0, v3_scale(t, v3_dot(n0, t)))), v3_zero(), h,
                    fw_sqrt(fw_sub(fw_splat(1.0f), fw_mul(h, h))) };
    o.p = v3_cross(t, o.c);
    fw lo = fw_splat(-RF_SPAN), hi = fw_splat(RF_SPAN);
    const fw zero = fw_zero(), half = fw_splat(0.5f);
    *m = mw_and(*m, mw_and(fw_lt(rf_slope(k, w, &o, lo, *m), zero), fw_gt(rf_slope(k, w, &o, hi, *m), zero)));
    for (int i = 0; i < RF_STEPS && mw_any(*m); i++) {
        fw mid = fw_mul(fw_add(lo, hi), half);
        mw down = fw_lt(rf_slope(k, w, &o, mid, *m), zero);
        lo = fw_sel(down, mid, lo);
        hi = fw_sel(down, hi, mid);
    }
    return v3_unit(rf_at(&o, fw_mul(fw_add(lo, hi), half)));
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

/* Whether x (A's frame) lies in B's analytic core. */
static GJKB_INLINE mw rf_in_b(const pack_w *k, v3w x)
{
    return rf_inside(&k->sb.c, m3_mul_t(k->pose.r, v3_sub(x, k->pose.t)));
}

/* Whether x lies on a hull's edge from p to e->other, to within RF_IN. */
static GJKB_INLINE mw rf_on_edge(const rf_end *e, v3w p, v3w x)
{
    v3w d = v3_sub(e->other, p), r = v3_sub(x, p);
    fw dd = v3_dot(d, d), s = fw_div(v3_dot(r, d), fw_sel(e->line, dd, fw_splat(1.0f)));
    v3w off = v3_sub(r, v3_scale(d, s));
    fw in = fw_splat(RF_IN), len = fw_sqrt(dd), along = fw_mul(s, len);
    mw ok = mw_and(fw_ge(along, fw_neg(in)), fw_le(along, fw_add(len, in)));
    return mw_and(e->line, mw_and(ok, fw_le(v3_dot(off, off), fw_mul(in, in))));
}

/* A side's line at the answer (A's frame): an analytic side's one
 * direction or a cone's slant line, or a hull's edge from p to its other
 * end (*len long). */
static GJKB_INLINE mw rf_line_of(const rf_side *s, const rf_end *e, const fw *r, v3w p, v3w *dir, fw *len)
{
    v3w own = v3_sel(s->slant, s->g, s->t), t = r ? m3_mul(r, own) : own, edge = v3_sub(e->other, p);
    *len = fw_sqrt(v3_dot(edge, edge));
    *dir = v3_sel(e->line, v3_scale(edge, fw_div(fw_splat(1.0f), fw_sel(e->line, *len, fw_splat(1.0f)))), t);
    return mw_or(mw_or(s->line, s->slant), e->line);
}

/* Two lines crossing clearly (their sine over RF_CROSS) at a point inside
 * both sides: the lanes, A's point in *at. */
static GJKB_INLINE mw rf_lines(const pack_w *k, v3w n, fw depth, v3w pa, v3w pb, const rf_side *a, const rf_side *b,
                               const rf_end *ea, const rf_end *eb, v3w *at)
{
    v3w da, db;
    fw la, lb;
    mw m = mw_and(rf_line_of(a, ea, NULL, pa, &da, &la), rf_line_of(b, eb, k->pose.r, pb, &db, &lb));
    fw den = v3_dot(v3_cross(da, db), n), in = fw_splat(RF_IN);
    m = mw_and(m, fw_gt(fw_abs(den), fw_splat(RF_CROSS)));
    fw s = fw_div(v3_dot(v3_cross(v3_sub(pb, pa), db), n), fw_sel(m, den, fw_splat(1.0f)));
    *at = v3_madd(pa, da, s);
    v3w under = v3_madd(*at, n, fw_neg(depth));
    fw u = v3_dot(v3_sub(under, pb), db);
    mw in_a = mw_or(rf_inside(&k->sa.c, *at), mw_and(ea->line, mw_and(fw_ge(s, fw_neg(in)), fw_le(s, fw_add(la, in)))));
    mw in_b = mw_or(rf_in_b(k, under), mw_and(eb->line, mw_and(fw_ge(u, fw_neg(in)), fw_le(u, fw_add(lb, in)))));
    return mw_and(m, mw_and(in_a, in_b));
}

/* Where a lane's search runs: the circle of normals square to t (h 0)
 * or at the sine h about a slant line's axis t (slant_a, slant_b: whose);
 * ok where there is one. */
typedef struct rf_plan {
    v3w t;
    fw h;
    mw slant_a, slant_b, ok;
} rf_plan;

/* At EPA's normal n0: a straight feature of either side, else a cone's
 * slant line, else a hull's edge (EPA's normal is as far off square to it
 * as to an analytic side's). */
static GJKB_INLINE rf_plan rf_plan_of(const gjkb__world *w, const pack_w *k, mw m, v3w n0)
{
    rf_side a = rf_side_of(&k->sa.c, n0), b = rf_side_of(&k->sb.c, m3_mul_t(k->pose.r, v3_neg(n0)));
    const v3w z = v3_splat(0.0f, 0.0f, 1.0f);
    mw straight = mw_or(a.has_t, b.has_t);
    rf_plan o;
    o.slant_a = mw_andnot(a.slant, straight);
    o.slant_b = mw_andnot(mw_andnot(b.slant, straight), a.slant);
    o.t = v3_sel(a.has_t, a.t, v3_sel(b.has_t, m3_mul(k->pose.r, b.t), v3_sel(o.slant_a, z, m3_mul(k->pose.r, z))));
    o.h = fw_sel(o.slant_a, a.rise, fw_sel(o.slant_b, fw_neg(b.rise), fw_zero()));
    o.ok = mw_and(m, mw_or(straight, mw_or(o.slant_a, o.slant_b)));
    mw edge = mw_andnot(m, o.ok);
    if (mw_any(mw_and(edge, mw_or(k->sa.c.hull, k->sb.c.hull)))) {
        v3w pa, pb;
        rf_end ea, eb;
        sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, n0, w, edge, &pa, &pb);
        rf_hull_ends(k, w, n0, pa, pb, edge, 2.0f * RF_FREE, &ea, &eb);
        o.t = v3_sel(mw_and(edge, ea.line), v3_unit(v3_sub(ea.other, pa)),
                     v3_sel(mw_and(edge, eb.line), v3_unit(v3_sub(eb.other, pb)), o.t));
        o.ok = mw_or(o.ok, mw_and(edge, mw_or(ea.line, eb.line)));
    }
    return o;
}

/* Whether the depth rises tilting n by RF_TILT either way along kt (the
 * straight feature's kink across the circle). */
static GJKB_INLINE mw rf_kink(const gjkb__world *w, const pack_w *k, v3w n, v3w kt, mw m)
{
    const fw tilt = fw_splat(RF_TILT), zero = fw_zero();
    v3w qa, qb;
    fw up = v3_dot(sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, v3_madd(n, kt, tilt), w, m, &qa, &qb), kt);
    fw down = v3_dot(sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, v3_madd(n, kt, fw_neg(tilt)), w, m, &qa, &qb), kt);
    return mw_and(fw_gt(up, zero), fw_lt(down, zero));
}

/* At the answer n (depth, support points pa and pb): one side touches at
 * a single point the other holds on its support plane, or two lines cross
 * inside both; the lanes, A's core point there in *at. */
static GJKB_INLINE mw rf_witness(const gjkb__world *w, const pack_w *k, v3w n, fw depth, v3w pa, v3w pb,
                                 const rf_side *a, const rf_side *b, mw m, v3w *at)
{
    rf_end ea, eb;
    rf_hull_ends(k, w, n, pa, pb, m, RF_TILT, &ea, &eb);
    v3w over_b = v3_madd(pb, n, depth), under_a = v3_madd(pa, n, fw_neg(depth)), cross_a;
    mw by_b = mw_and(mw_or(b->pointed, eb.one), mw_or(rf_inside(&k->sa.c, over_b), rf_on_edge(&ea, pa, over_b)));
    mw by_a = mw_and(mw_or(a->pointed, ea.one), mw_or(rf_in_b(k, under_a), rf_on_edge(&eb, pb, under_a)));
    by_a = mw_andnot(by_a, by_b);
    mw by_lines = mw_andnot(rf_lines(k, n, depth, pa, pb, a, b, &ea, &eb, &cross_a), mw_or(by_a, by_b));
    *at = v3_sel(by_b, over_b, v3_sel(by_a, pa, cross_a));
    return mw_and(m, mw_or(mw_or(by_a, by_b), by_lines));
}

/* Lanes m (EPA's, with a cylinder or a cone): the refined answer (signed
 * distance, unit normal from A to B, A's witness, A's scaled frame) from
 * EPA's normal n0 and depth (-dist0 - margins); ok where it holds. */
static GJKB_INLINE cs_out rf_refine(const gjkb__world *w, const pack_w *k, mw m, v3w n0, fw dist0)
{
    rf_plan o = rf_plan_of(w, k, m, n0);
    cs_out r;
    r.ok = o.ok;
    r.key = iw_zero();
    r.n = n0, r.a = v3_zero(), r.dist = dist0;
    if (!mw_any(r.ok))
        return r;
    r.n = rf_search(k, w, n0, o.t, o.h, &r.ok);
    v3w pa, pb, at;
    fw depth = v3_dot(sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, r.n, w, r.ok, &pa, &pb), r.n);
    r.ok = mw_and(r.ok, fw_le(depth, fw_add(fw_neg(fw_add(dist0, k->m)), fw_splat(RF_GAP))));
    /* the features again at the answer: a slant line must still be one */
    rf_side a = rf_side_of(&k->sa.c, r.n), b = rf_side_of(&k->sb.c, m3_mul_t(k->pose.r, v3_neg(r.n)));
    r.ok = mw_and(r.ok, mw_and(mw_or(a.slant, mw_not(o.slant_a)), mw_or(b.slant, mw_not(o.slant_b))));
    v3w kt = v3_sel(o.slant_a, a.g, v3_sel(o.slant_b, m3_mul(k->pose.r, b.g), o.t));
    r.ok = mw_and(r.ok, rf_kink(w, k, r.n, kt, r.ok));
    r.ok = rf_witness(w, k, r.n, depth, pa, pb, &a, &b, r.ok, &at);
    r.a = v3_madd(at, r.n, k->ma);
    r.dist = fw_sub(fw_neg(depth), k->m);
    r.ok = mw_and(r.ok, fw_isfinite(fw_add(r.dist, v3_dot(r.a, r.a))));
    return r;
}
