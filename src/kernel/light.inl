/* light.inl - the light loop: hit mode's proofs, distance mode's first steps.
 *
 * It keeps the same simplex as the closest-point loop (the cascade of
 * simplex.inl) but never forms the closest point while it runs: the next
 * direction is the kept feature's normal toward the origin (triple
 * products, as in the original GJK paper's simplex descent), with no
 * weights and no divisions. Hit mode stops a lane only on a proof: a
 * support plane beyond the touching band, an enclosing tetrahedron, or a
 * kept feature within the band (its plane or line distance, where the
 * origin projects inside it). A lane with no proof after GJKB_K_PROOF_STEPS
 * (near-touching or slow curved pairs) goes on to the closest-point loop
 * from the start, those steps counted in its iterations and its bound.
 * Distance mode stops a lane where the kept feature's duality gap has
 * closed (the closest-point loop's test multiplied through by |d|^2: no
 * division) and forms that feature's closest point once; lanes not
 * converged after GJKB_K_LIGHT_STEPS (curved pairs converge slowly) go on
 * in the closest-point loop from the simplex they reached. */

#ifndef GJKB_K_PROOF_STEPS
#define GJKB_K_PROOF_STEPS 16u
#endif
#ifndef GJKB_K_LIGHT_STEPS
#define GJKB_K_LIGHT_STEPS 32u
#endif
_Static_assert(GJKB_K_PROOF_STEPS > 0 && GJKB_K_LIGHT_STEPS > 0, "a light loop takes at least one step");
/* A first-pass bundle pauses when no more than 1/this of its lanes are
 * left: its few lanes wait for a dense bundle instead of holding this one
 * (changes time only; see docs/performance.md; build-time overridable). */
#ifndef GJKB_K_PAUSE
#define GJKB_K_PAUSE 4
#endif

/* The light loop's simplex: up to three kept points newest first, their
 * A parts (distance mode), their count, and the next search direction. */
typedef struct light_w {
    v3w q[3], qa[3];
    fw n;
    v3w d;
} light_w;

/* The state a lane carries between passes: the simplex and the lane's own
 * step count, so that lanes paused after different numbers of steps can
 * share a bundle when they resume. */
typedef struct lt_state {
    light_w s;
    iw steps;
} lt_state;

enum { LT_ROWS_HIT = 14, LT_ROWS_DIST = LT_ROWS_HIT + 9 };

static GJKB_INLINE void lt_save(const lt_state *st, float *out, const int witnesses)
{
    for (int i = 0; i < 3; i++)
        row_put3(&out, st->s.q[i]);
    row_put(&out, st->s.n);
    row_put3(&out, st->s.d);
    row_put(&out, fw_from_bits(st->steps));
    if (witnesses)
        for (int i = 0; i < 3; i++)
            row_put3(&out, st->s.qa[i]);
}

static GJKB_INLINE void lt_load(lt_state *st, const float *in, size_t stride, const int witnesses)
{
    for (int i = 0; i < 3; i++)
        st->s.q[i] = row_get3(&in, stride);
    st->s.n = row_get(&in, stride);
    st->s.d = row_get3(&in, stride);
    st->steps = fw_bits(row_get(&in, stride));
    if (witnesses)
        for (int i = 0; i < 3; i++)
            st->s.qa[i] = row_get3(&in, stride);
}

/* One light step with the new point a (A part aa, kept where witnesses):
 * the cascade and the next direction; *hit gets the lanes whose kept
 * feature is proven within the band sqrt(band2) of the origin (the origin
 * enclosed counts). */
static GJKB_INLINE light_w lt_step(const light_w *s, v3w a, v3w aa, mw active, fw band2, mw *hit, mw *enclosed,
                                   const int witnesses)
{
    cascade_w c = sx_cascade(s->q, s->qa, s->n, a, active, band2, witnesses, SX_LIGHT);
    *hit = mw_and(active, c.in_band);
    *enclosed = mw_and(active, c.enclosed);
    light_w r;
    sx_kept(&c, a, aa, r.q, r.qa, &r.n, witnesses);
    r.d = v3_sel(c.face, c.d_face, v3_sel(c.edge, c.d_edge, v3_neg(a)));
    return r;
}

/* What one call of the light loop tracks besides the lanes' state. */
typedef struct lt_lanes {
    mw active, hit, spent;
    /* distance mode: converged lanes (and their last support plane), lanes
     * a support plane put beyond the early-stop distance (its lower bound
     * and support points), lanes handed to the reference */
    mw conv, done_sep, unsure;
    fw last_da, last_dd, lower;
    v3w plane_a, plane_b;
    gjkb__counts counts;
    final_w fin;      /* contact mode: the tetrahedron that enclosed the origin */
} lt_lanes;

static GJKB_INLINE void lt_lanes_init(lt_lanes *t, const pack_w *pk)
{
    const fw nan = fw_splat(NAN);
    t->active = mw_andnot(mw_andnot(mw_andnot(pk->valid, pk->apart), pk->far), pk->deep);
    t->hit = pk->deep;
    t->spent = t->conv = t->done_sep = t->unsure = mw_false();
    t->last_da = t->last_dd = fw_zero();
    t->lower = nan;
    t->plane_a = t->plane_b = v3_make(nan, nan, nan);
    t->counts.bundle_steps = t->counts.lane_steps = 0;
    for (int i = 0; i < 4; i++)
        t->fin.q[i] = t->fin.qa[i] = v3_zero();
    t->fin.n = fw_zero();
}

/* A step's support point a (A part *pa) in the lanes' directions, and the
 * support-plane tests: a plane beyond the limit stops a lane; distance
 * mode also stops a lane whose kept feature's duality gap has closed. */
static GJKB_INLINE v3w lt_plane(const pack_w *pk, const gjkb__world *world, lt_state *st, lt_lanes *t, v3w *pa,
                                fw *da_out, fw *dd_out, const int distance_mode)
{
    const fw zero = fw_zero();
    count_step(&t->counts, t->active);
    v3w pb;
    v3w a = pk_support(pk, st->s.d, world, t->active, pa, &pb);
    st->steps = iw_sel(t->active, iw_add(st->steps, iw_splat(1)), st->steps);
    /* Support plane: -d.a / |d| is a lower bound on the core distance. */
    fw da = v3_dot(st->s.d, a), dd = v3_len2(st->s.d);
    mw sep = mw_and(t->active, mw_and(fw_lt(da, zero), fw_gt(fw_mul(da, da), fw_mul(pk->lim2, dd))));
    t->active = mw_andnot(t->active, sep);
    if (distance_mode) {
        const fw eps_rel = fw_splat(GJKB_K_EPS_REL), eps_abs = fw_splat(GJKB_K_EPS_ABS);
        t->done_sep = mw_or(t->done_sep, sep);
        t->lower = fw_sel(sep, fw_sub(fw_div(fw_neg(da), fw_sqrt(fw_sel(sep, dd, fw_splat(1.0f)))), pk->m), t->lower);
        t->plane_a = v3_sel(sep, *pa, t->plane_a);
        t->plane_b = v3_sel(sep, pb, t->plane_b);
        /* Duality gap of the kept feature (distance U = -d.q0 / |d|)
         * against the plane (L = -d.a / |d|), times |d|^2:
         * U (U - L) <= eps_rel U^2 + eps_abs. */
        fw dq = v3_dot(st->s.d, st->s.q[0]);
        mw c = mw_and(mw_and(t->active, fw_gt(st->s.n, zero)),
                      fw_le(fw_mul(fw_neg(dq), fw_sub(da, dq)), fw_add(fw_mul(eps_rel, fw_mul(dq, dq)), fw_mul(eps_abs, dd))));
        t->last_da = fw_sel(c, da, t->last_da);
        t->last_dd = fw_sel(c, dd, t->last_dd);
        t->conv = mw_or(t->conv, c);
        t->active = mw_andnot(t->active, c);
    }
    *da_out = da;
    *dd_out = dd;
    return a;
}

/* Distance mode: the new feature must be nearer (U'^2 < U^2, cross-
 * multiplied). Where rounding picked one that is not, or the lane's budget
 * is spent, it stops on the feature it has: settled if its gap is within
 * the closest-point loop's refine threshold (as that loop settles a stalled
 * lane); else a stalled lane goes to the reference and a lane out of
 * budget on to the closest-point loop (at the iteration bound: LIMIT). */
static GJKB_INLINE void lt_distance_guard(const lt_state *st, const light_w *next, mw h, fw da, fw dd, iw last,
                                          lt_lanes *t, const int final)
{
    const fw zero = fw_zero(), eps_abs = fw_splat(GJKB_K_EPS_ABS);
    fw dq = v3_dot(st->s.d, st->s.q[0]), nq = v3_dot(next->d, next->q[0]);
    mw going = mw_and(mw_andnot(t->active, h), fw_gt(st->s.n, zero));
    mw stall = mw_andnot(going, fw_lt(fw_mul(fw_mul(nq, nq), dd), fw_mul(fw_mul(dq, dq), v3_len2(next->d))));
    mw out = mw_andnot(mw_andnot(going, stall), iw_lt(st->steps, last));
    mw stop = mw_or(stall, out);
    if (!mw_any(stop))
        return;
    fw open = vd_open_gap(fw_mul(dq, dq), fw_mul(fw_abs(dq), fw_sqrt(dd)), 1, final);
    mw close = fw_le(fw_mul(fw_neg(dq), fw_sub(da, dq)), fw_add(open, fw_mul(eps_abs, dd)));
    mw settled = mw_and(stop, close);
    t->last_da = fw_sel(settled, da, t->last_da);
    t->last_dd = fw_sel(settled, dd, t->last_dd);
    t->conv = mw_or(t->conv, settled);
    t->unsure = mw_or(t->unsure, mw_andnot(stall, close));
    t->spent = mw_or(t->spent, mw_andnot(out, close));
    t->active = mw_andnot(t->active, stop);
}

/* The step after the plane tests: the cascade, the guards, the new state
 * of the lanes still going, and the budget. */
static GJKB_INLINE void lt_advance(lt_state *st, lt_lanes *t, v3w a, v3w aa, fw band2, fw da, fw dd, iw last,
                                   const int distance_mode, const int final)
{
    mw h, enc;
    light_w next = lt_step(&st->s, a, aa, t->active, band2, &h, &enc, distance_mode);
    if (final && mw_any(enc))
        fin_take(&t->fin, enc, sx_final(st->s.q, st->s.qa, st->s.n, enc, a, aa));
    /* a face proven to hold the origin (within the band): the depth
     * solver starts from it, flat (epa.inl completes it) */
    mw flat = mw_andnot(mw_and(h, fw_eq(next.n, fw_splat(3.0f))), enc);
    if (final && mw_any(flat))
        fin_take(&t->fin, flat, sx_final(next.q, next.qa, next.n, mw_false(), a, aa));
    if (distance_mode)
        lt_distance_guard(st, &next, h, da, dd, last, t, final);
    for (int i = 0; i < 3; i++) {
        st->s.q[i] = v3_sel(t->active, next.q[i], st->s.q[i]);
        if (distance_mode)
            st->s.qa[i] = v3_sel(t->active, next.qa[i], st->s.qa[i]);
    }
    st->s.n = fw_sel(t->active, next.n, st->s.n);
    st->s.d = v3_sel(t->active, next.d, st->s.d);
    t->hit = mw_or(t->hit, h);
    t->active = mw_andnot(t->active, h);
    mw out = mw_andnot(t->active, iw_lt(st->steps, last));
    t->spent = mw_or(t->spent, out);
    t->active = mw_andnot(t->active, out);
}

/* Distance mode's verdicts: the kept feature's closest point (a lane
 * stopped by a support plane reports along its search direction); a lane
 * converged outside the touching band with the plane's lower bound inside
 * it has neither verdict proven in float, and goes to the reference as in
 * the closest-point loop, as do stalled lanes, far pairs, and lanes a
 * support plane stopped with a lower bound that rounds into the band. */
static GJKB_INLINE iw lt_distance_status(const pack_w *pk, const lt_state *st, const lt_lanes *t, mw *limit,
                                         simplex_w *sx, v3w *v, fw *vv)
{
    *sx = sx_feature_closest(st->s.q, st->s.qa, st->s.n, pk->valid, v);
    *v = v3_sel(t->done_sep, v3_neg(st->s.d), *v);
    *vv = v3_len2(*v);
    mw touching = mw_or(t->hit, fw_le(fw_sub(fw_sqrt(*vv), pk->m), pk->tol));
    *limit = mw_andnot(*limit, touching);
    iw status = iw_sel(touching, iw_splat(K_OVERLAP), iw_splat(K_SEPARATED));
    status = iw_sel(mw_andnot(t->done_sep, t->hit), iw_splat(K_SEPARATED), status);
    status = iw_sel(*limit, iw_splat(K_LIMIT), status);
    mw straddle = mw_andnot(t->conv, touching);
    straddle = mw_and(straddle, mw_or(fw_ge(t->last_da, fw_zero()),
                                      fw_le(fw_mul(t->last_da, t->last_da), fw_mul(pk->touch2, t->last_dd))));
    mw thin = mw_andnot(mw_andnot(t->done_sep, t->hit), fw_gt(t->lower, pk->tol));
    return iw_sel(mw_or(mw_or(straddle, t->unsure), mw_or(thin, pk->far)), iw_splat(K_REFINE), status);
}

/* The end of a light pass: verdicts, answers, and the state of the lanes
 * that go on (to another pass, or handed to the closest-point loop, which
 * in distance mode goes on from this simplex as if it had run these steps
 * itself). */
static GJKB_INLINE unsigned lt_finish(const loop_call *c, const pack_w *pk, const lt_state *st, const lt_lanes *t,
                                      unsigned *handover, const int distance_mode, const int final)
{
    const int bounded = c->budget >= c->w->max_iterations;
    mw left = mw_and(t->active, pk->valid);
    mw limit = bounded ? t->spent : mw_false();
    iw status;
    simplex_w sx;
    v3w v;
    fw vv;
    if (!distance_mode) {
        status = iw_sel(t->hit, iw_splat(K_OVERLAP), iw_splat(K_SEPARATED));
        status = iw_sel(limit, iw_splat(K_LIMIT), status);
    } else {
        status = lt_distance_status(pk, st, t, &limit, &sx, &v, &vv);
    }
    status = iw_sel(left, iw_splat(K_RETRY), status);
    status = iw_sel(mw_andnot(t->spent, limit), bounded ? status : iw_splat(K_RETRY), status);
    status = iw_sel(pk->valid, status, iw_splat(K_INVALID));
    vd_store_status(c, status, st->steps, &t->counts);
    if (distance_mode) {
        vd_end e = { .status = status, .sx = &sx, .v = v, .vv = vv, .done_sep = t->done_sep, .done_core = t->hit,
                     .lower = t->lower, .plane_a = t->plane_a, .plane_b = t->plane_b, .limit = limit };
        vd_store_distance(c, pk, &e);
    } else {
        vd_store_hit(c, t->hit);
    }
    *handover = bounded ? 0u : mw_bits(mw_and(t->spent, pk->valid));
    if (distance_mode && *handover) {
        cl_state hand = { .sx = sx, .v = v, .vv = vv, .best_vv = vv, .ties = fw_zero(),
                          .last_vw = fw_splat(-INFINITY) };
        cl_save(&hand, c->hand_spill, 1);
    }
    if (final)
        fin_store(c, &t->fin);
    unsigned bits = mw_bits(left);
    if (bits)
        lt_save(st, c->spill, distance_mode);
    return bits;
}

/* Lanes whose closed form float settled. */
static GJKB_INLINE mw lt_closed_ok(const cs_out *cs)
{
    return mw_and(cs->ok, fw_isfinite(cs->core));
}

/* Distance mode's sphere lanes m answered in closed form
 * (contact_sphere.inl): the loops' verdicts and outputs. Cores that
 * overlap leave no witnesses, as in the loops. */
static GJKB_INLINE void lt_store_closed(const loop_call *c, const pack_w *pk, mw m, const cs_out *cs)
{
    const gjkb__lanes *ln = c->l;
    const size_t o = c->o;
    const fw nan = fw_splat(NAN);
    mw touch = fw_le(cs->dist, pk->tol);
    iw status = iw_sel(touch, iw_splat(K_OVERLAP), iw_splat(K_SEPARATED));
    iw_store(ln->status + o, iw_sel(m, status, iw_load(ln->status + o)));
    fw dist = fw_sel(touch, fw_zero(), pk_world_dist(cs->dist, pk->scale));
    fw_store(ln->dist + o, fw_sel(m, dist, fw_load(ln->dist + o)));
    mw has = mw_not(fw_le(fw_mul(cs->core, cs->core), pk->core2));
    has = mw_and(has, fw_gt(cs->core, fw_zero()));
    v3w a = v3_scale(m3_mul(pk->ra, cs->a), pk->scale);
    v3w b = v3_scale(m3_mul(pk->ra, v3_madd(cs->a, cs->n, cs->dist)), pk->scale);
    v3w n = m3_mul(pk->ra, cs->n), none = v3_make(nan, nan, nan);
    float *const to[9] = { ln->ax, ln->ay, ln->az, ln->bx, ln->by, ln->bz, ln->nx, ln->ny, ln->nz };
    const fw v[9] = { a.x, a.y, a.z, b.x, b.y, b.z, n.x, n.y, n.z };
    const fw nv[3] = { none.x, none.y, none.z };
    for (int f = 0; f < 9; f++)
        fw_store(to[f] + o, fw_sel(m, fw_sel(has, v[f], nv[f % 3]), fw_load(to[f] + o)));
}

/* Lanes m's closed forms: sphere pairs (contact_sphere.inl) and separated
 * boxes their axes settle (apart_box.inl; contact mode answers its bare
 * boxes before the loops, and its rounded ones keep them); *closed the
 * lanes answered. */
static GJKB_INLINE cs_out lt_closed(const loop_call *c, const pack_w *pk, mw m, mw *closed)
{
    mw spheres = mw_and(m, cs_lanes(c->w, c->o, pk));
    mw boxes = c->w->contact ? mw_false() : mw_and(m, ab_lanes(c->w, c->o, pk));
    cs_out cs = { fw_zero(), fw_zero(), v3_zero(), v3_zero(), iw_zero(), mw_false() };
    if (mw_any(spheres)) {
        cs = cs_answer(c->w, c->o, pk);
        spheres = mw_and(spheres, lt_closed_ok(&cs));
    }
    if (mw_any(boxes)) {
        fw sep;
        mw refine;
        iw axis;
        v3w n = cb_sat_axis(pk, &sep, &refine, &axis);
        cs_out bx = ab_answer(pk, boxes, n, sep, refine, axis);
        boxes = mw_and(boxes, bx.ok);
        cs.dist = fw_sel(boxes, bx.dist, cs.dist), cs.core = fw_sel(boxes, bx.core, cs.core);
        cs.n = v3_sel(boxes, bx.n, cs.n), cs.a = v3_sel(boxes, bx.a, cs.a);
    }
    *closed = mw_or(spheres, boxes);
    return cs;
}

/* A closed answer parked in memory while the loop runs (the loop's
 * stores overwrite every lane; kept in registers it would take the loop's). */
enum { LT_PARKED = 8 };

static GJKB_INLINE void lt_park(const cs_out *cs, float parked[LT_PARKED][GJKB_W])
{
    const fw v[LT_PARKED] = { cs->dist, cs->core, cs->n.x, cs->n.y, cs->n.z, cs->a.x, cs->a.y, cs->a.z };
    for (int f = 0; f < LT_PARKED; f++)
        fw_store(parked[f], v[f]);
}

static GJKB_INLINE cs_out lt_unpark(const float parked[LT_PARKED][GJKB_W])
{
    cs_out cs;
    cs.dist = fw_load(parked[0]);
    cs.core = fw_load(parked[1]);
    cs.n = v3_load(parked[2], parked[3], parked[4]);
    cs.a = v3_load(parked[5], parked[6], parked[7]);
    cs.key = iw_zero();
    cs.ok = mw_true();
    return cs;
}

/* The first pass's lanes with a closed form (far pairs keep the
 * reference): taken out of the loop, one step each, their answers parked.
 * Where every lane is closed (a batch of sphere pairs) the bundle is
 * stored here and *all set: no loop to run or end. */
static GJKB_INLINE mw lt_take_closed(const loop_call *c, const pack_w *pk, lt_state *st, lt_lanes *t, int *all,
                                     float parked[LT_PARKED][GJKB_W])
{
    mw closed;
    cs_out cs = lt_closed(c, pk, mw_andnot(t->active, pk->far), &closed);
    if (!mw_any(closed))
        return closed;
    t->active = mw_andnot(t->active, closed);
    st->steps = iw_sel(closed, iw_splat(1), st->steps);
    t->counts.lane_steps += gjkb_popcount(mw_bits(closed));
    if (t->counts.bundle_steps == 0)
        t->counts.bundle_steps = 1;
    *all = mw_all(mw_or(closed, mw_not(mw_first_n((int)(c->count - (uint32_t)c->o)))));
    if (*all) {
        vd_store_status(c, iw_splat(K_SEPARATED), st->steps, &t->counts);
        lt_store_closed(c, pk, mw_true(), &cs);
    } else {
        lt_park(&cs, parked);
    }
    return closed;
}

/* Runs at most c->cap light steps of the bundle's lanes, each lane within
 * its own budget of c->budget steps, from the start or from the state in
 * c->resume. On a first pass a bundle whose active lanes fall to 1/
 * GJKB_K_PAUSE of its width pauses early (a lane's answer does not depend
 * on where it pauses). Lanes still going get K_RETRY and their state in
 * c->spill (returned bits); lanes that spent the budget get K_LIMIT where
 * it is the iteration bound, else K_RETRY too and go on to the closest-
 * point loop (*handover; distance mode: with that loop's state in
 * c->hand_spill). */
static GJKB_INLINE unsigned lt_bundle(const loop_call *c, unsigned *handover, const int distance_mode,
                                      const int final)
{
    pack_w pk;
    pk_bundle(c->w, c->count, c->o, distance_mode, !c->resume, &pk);
    /* Hit mode settles within the touching band; distance mode only where
     * the cores meet (the closest-point loop's rule). */
    const fw band2 = distance_mode ? pk.core2 : pk.touch2;
    lt_state st;
    for (int i = 0; i < 3; i++)
        st.s.q[i] = st.s.qa[i] = v3_zero();
    st.s.n = fw_zero();
    st.s.d = pk.dir;
    st.steps = iw_zero();
    /* The call's fields in locals: the loop's stores could alias them. */
    const float *const resume = c->resume;
    const uint32_t cap = c->cap;
    if (resume)
        lt_load(&st, resume, c->stride, distance_mode);
    const iw last = iw_splat((int32_t)c->budget);
    lt_lanes t;
    lt_lanes_init(&t, &pk);
    /* distance mode's first pass: sphere lanes and separated boxes in
     * closed form (lt_closed) */
    mw closed = mw_false();
    int all_closed = 0;
    _Alignas(64) float parked[LT_PARKED][GJKB_W] = { { 0.0f } };
    if (distance_mode && !final && !resume)
        closed = lt_take_closed(c, &pk, &st, &t, &all_closed, parked);
    if (all_closed) {
        *handover = 0;
        return 0;
    }
    for (uint32_t n = 0; n < cap && mw_any(t.active); n++) {
        v3w pa;
        fw da, dd;
        v3w a = lt_plane(&pk, c->w, &st, &t, &pa, &da, &dd, distance_mode);
        if (!mw_any(t.active))
            break;
        lt_advance(&st, &t, a, pa, band2, da, dd, last, distance_mode, final);
        if (!resume && (int)gjkb_popcount(mw_bits(t.active)) * GJKB_K_PAUSE <= GJKB_W)
            break;
    }
    unsigned bits = lt_finish(c, &pk, &st, &t, handover, distance_mode, final);
    if (mw_any(closed)) {
        cs_out cs = lt_unpark(parked);
        lt_store_closed(c, &pk, closed, &cs);
    }
    return bits;
}
