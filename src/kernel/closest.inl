/* closest.inl - the closest-point loop, hit and distance mode.
 *
 * Classic GJK (Gilbert, Johnson and Keerthi 1988): at every step the kept
 * feature's closest point v (simplex.inl's cascade, then its weights) and
 * the next support point in -v; it stops on a support plane beyond the
 * limit, on the relative duality gap (|v|^2 - v.w <= eps |v|^2, as in
 * van den Bergen 2003 and MuJoCo's GJK), on cores that meet, or on no
 * progress (NaN-safe, with a few ties allowed on slivers). It takes the
 * lanes the light loop hands over (light.inl): near-touching pairs in hit
 * mode, slow curved pairs in distance mode. A lane that stopped without
 * converging, with a real gap left, goes to the double-precision reference
 * (GJKB_K_REFINE). */

/* The state a lane carries between passes; restored into a lane whose pair
 * is packed again, it continues the lane bit for bit. */
typedef struct cl_state {
    simplex_w sx;
    v3w v;          /* current closest point of A - B (at first only a direction) */
    fw vv;
    fw best_vv;     /* the least |v|^2 so far */
    fw ties;        /* steps since |v|^2 last reached a new low */
    fw last_vw;     /* v.w of the lane's last step */
} cl_state;

enum { CL_ROWS_HIT = 17, CL_ROWS_DIST = CL_ROWS_HIT + 12 };

static GJKB_INLINE void cl_save(const cl_state *st, float *out, const int witnesses)
{
    for (int i = 0; i < 3; i++)
        row_put3(&out, st->sx.q[i]);
    row_put(&out, st->sx.n);
    row_put3(&out, st->v);
    row_put(&out, st->vv);
    row_put(&out, st->best_vv);
    row_put(&out, st->ties);
    row_put(&out, st->last_vw);
    if (witnesses) {
        for (int i = 0; i < 3; i++)
            row_put3(&out, st->sx.qa[i]);
        for (int i = 0; i < 3; i++)
            row_put(&out, st->sx.l[i]);
    }
}

static GJKB_INLINE void cl_load(cl_state *st, const float *in, size_t stride, const int witnesses)
{
    for (int i = 0; i < 3; i++)
        st->sx.q[i] = row_get3(&in, stride);
    st->sx.n = row_get(&in, stride);
    st->v = row_get3(&in, stride);
    st->vv = row_get(&in, stride);
    st->best_vv = row_get(&in, stride);
    st->ties = row_get(&in, stride);
    st->last_vw = row_get(&in, stride);
    if (witnesses) {
        for (int i = 0; i < 3; i++)
            st->sx.qa[i] = row_get3(&in, stride);
        for (int i = 0; i < 3; i++)
            st->sx.l[i] = row_get(&in, stride);
    }
}

/* A step's answer: the new simplex, its closest point, and whether the new
 * tetrahedron encloses the origin. */
typedef struct step_w {
    simplex_w s;
    v3w v;
    fw vv;
    mw enclosed;
} step_w;

/* The cascade with the new point a (A part aa), and the kept feature's
 * closest point only: by signed areas for a face, clamped for an edge. */
static GJKB_INLINE step_w cl_step(const simplex_w *s, v3w a, v3w aa, mw active, const int witnesses)
{
    const fw one = fw_splat(1.0f);
    cascade_w c = sx_cascade(s->q, s->qa, s->n, a, active, fw_zero(), witnesses, SX_CLOSEST);
    step_w r;
    r.enclosed = c.enclosed;
    r.v = v3_sel(c.face, c.vf, v3_sel(c.edge, c.ve, a));
    r.vv = v3_dot(r.v, r.v);
    sx_kept(&c, a, aa, r.s.q, r.s.qa, &r.s.n, witnesses);
    r.s.l[0] = fw_sel(c.face, c.fl[0], fw_sub(one, c.t));
    r.s.l[1] = fw_sel(c.face, c.fl[1], c.t);
    r.s.l[2] = fw_sel(c.face, c.fl[2], fw_zero());
    return r;
}

/* What one call of the loop tracks besides the lanes' state. */
typedef struct cl_lanes {
    mw active;
    mw done_sep;      /* stopped by a support plane */
    mw done_core;     /* cores overlap: no witnesses */
    mw stalled;       /* stopped by the no-progress test */
    fw lower;         /* the plane's lower bound (distance early stop) */
    v3w plane_a, plane_b;
    iw iters;
    gjkb__counts counts;
    final_w fin;      /* contact mode: the tetrahedron that enclosed the origin */
} cl_lanes;

static GJKB_INLINE void cl_start(const pack_w *pk, cl_state *st, cl_lanes *t)
{
    const fw zero = fw_zero(), nan = fw_splat(NAN);
    /* At first v is only a direction: the centre of A - B is -t, so search
     * toward +t. */
    st->v = v3_neg(pk->dir);
    st->vv = v3_dot(st->v, st->v);
    for (int i = 0; i < 3; i++) {
        st->sx.q[i] = st->sx.qa[i] = v3_zero();
        st->sx.l[i] = zero;
    }
    st->sx.n = zero;
    st->ties = zero;
    st->best_vv = fw_splat(INFINITY);
    st->last_vw = fw_splat(-INFINITY);
    t->active = pk->valid;
    t->done_sep = t->done_core = t->stalled = mw_false();
    t->lower = nan;
    t->plane_a = t->plane_b = v3_make(nan, nan, nan);
    t->iters = iw_zero();
    t->counts.bundle_steps = t->counts.lane_steps = 0;
    for (int i = 0; i < 4; i++)
        t->fin.q[i] = t->fin.qa[i] = v3_zero();
    t->fin.n = zero;
}

/* Step `it` (counted from the loop's start, base steps before it): the
 * support point w (A part *pa) in -v and the support-plane and duality-gap
 * tests. */
static GJKB_INLINE v3w cl_plane(const pack_w *pk, const gjkb__world *world, cl_state *st, cl_lanes *t, uint32_t it,
                                uint32_t base, v3w *pa)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    count_step(&t->counts, t->active);
    v3w pb;
    v3w w = pk_support(pk, v3_neg(st->v), world, t->active, pa, &pb);
    fw vw = v3_dot(st->v, w);
    t->iters = iw_sel(t->active, iw_splat((int32_t)(base + it) + 1), t->iters);
    st->last_vw = fw_sel(t->active, vw, st->last_vw);
    /* Support plane test: v.w / |v| is a lower bound on the core distance. */
    mw sep = mw_and(t->active, mw_and(fw_gt(vw, zero), fw_gt(fw_mul(vw, vw), fw_mul(pk->lim2, st->vv))));
    t->done_sep = mw_or(t->done_sep, sep);
    t->lower = fw_sel(sep, fw_sub(fw_div(vw, fw_sqrt(fw_sel(sep, st->vv, one))), pk->m), t->lower);
    t->plane_a = v3_sel(sep, *pa, t->plane_a);
    t->plane_b = v3_sel(sep, pb, t->plane_b);
    t->active = mw_andnot(t->active, sep);
    /* Duality gap: v is the closest point to within the tolerance. On the
     * first step v is only a direction, so this test waits. */
    if (it > 0) {
        fw gap = fw_sub(st->vv, vw);
        mw conv = mw_and(t->active, fw_le(gap, fw_add(fw_mul(fw_splat(GJKB_K_EPS_REL), st->vv),
                                                      fw_splat(GJKB_K_EPS_ABS))));
        t->active = mw_andnot(t->active, conv);
    }
    return w;
}

/* The simplex with w, and the guards: cores that meet stop a lane; a step
 * that is not nearer keeps the previous, consistent state (NaN-safe), but
 * one that only ties the best |v|^2 within float noise may be real
 * progress on a sliver simplex (curved shapes converge slowly), so a few
 * such steps since the last new low are taken. */
static GJKB_INLINE void cl_advance(const pack_w *pk, cl_state *st, cl_lanes *t, v3w w, v3w pa, uint32_t it,
                                   const int distance_mode, const int final)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    step_w c = cl_step(&st->sx, w, pa, t->active, distance_mode);
    mw core = mw_and(t->active, mw_or(c.enclosed, fw_le(c.vv, pk->core2)));
    if (final) {
        mw enc = mw_and(t->active, c.enclosed);
        if (mw_any(enc))
            fin_take(&t->fin, enc, sx_final(st->sx.q, st->sx.qa, st->sx.n, enc, w, pa));
    }
    mw stall = mw_andnot(t->active, core);
    if (it > 0) {
        mw progress = fw_lt(c.vv, st->best_vv);
        mw tie = mw_andnot(mw_and(fw_le(c.vv, fw_mul(st->best_vv, fw_splat(1.0f + GJKB_K_TIE_SLACK))),
                                  fw_lt(st->ties, fw_splat(GJKB_K_TIES))),
                           progress);
        stall = mw_and(stall, mw_not(mw_or(progress, tie)));
        st->ties = fw_sel(t->active, fw_sel(tie, fw_add(st->ties, one), zero), st->ties);
    } else {
        stall = mw_and(stall, mw_not(fw_isfinite(c.vv)));
    }
    mw commit = mw_andnot(mw_andnot(t->active, core), stall);
    st->sx = sx_sel(commit, &c.s, &st->sx, distance_mode);
    st->v = v3_sel(commit, c.v, st->v);
    st->vv = fw_sel(commit, c.vv, st->vv);
    st->best_vv = fw_min(st->best_vv, fw_sel(commit, st->vv, st->best_vv));
    t->done_core = mw_or(t->done_core, core);
    t->stalled = mw_or(t->stalled, stall);
    t->active = mw_andnot(t->active, mw_or(core, stall));
    /* Hit mode: inside the touching band is a verdict. */
    if (!distance_mode)
        t->active = mw_andnot(t->active, fw_le(st->vv, pk->touch2));
}

/* Verdicts. Lanes still active hit the iteration bound (or, short of it,
 * retry in another pass); if even their upper bound is within the touching
 * band they overlap all the same. Unsure lanes go to the reference:
 * stopped without converging with a real gap left and not already proven
 * touching (an overlap's verdict is settled whatever the remaining gap), or
 * settled near contact with the upper bound outside the touching band but
 * the lower bound v.w/|v| within it, so neither verdict is proven; in
 * distance mode also a lane a support plane stopped whose lower bound
 * rounds into the band (a tolerance finer than float resolves): reported,
 * it would be a separated pair at a distance within the band. */
static GJKB_INLINE iw cl_status(const pack_w *pk, const cl_state *st, const cl_lanes *t, mw retry, mw *limit,
                                const int distance_mode, const int final)
{
    const fw zero = fw_zero();
    fw gap = fw_sub(fw_sqrt(st->vv), pk->m);
    mw touching = mw_or(t->done_core, fw_le(gap, pk->tol));
    *limit = mw_andnot(t->active, touching);
    iw status = iw_splat(K_SEPARATED);
    status = iw_sel(touching, iw_splat(K_OVERLAP), status);
    status = iw_sel(mw_andnot(t->done_sep, t->done_core), iw_splat(K_SEPARATED), status);
    status = iw_sel(*limit, iw_splat(K_LIMIT), status);
    mw unsure = mw_andnot(mw_or(t->stalled, t->active), mw_or(touching, t->done_sep));
    fw open = vd_open_gap(st->vv, fw_sqrt(st->vv), distance_mode, final);
    unsure = mw_and(unsure, fw_gt(fw_sub(st->vv, st->last_vw), fw_add(open, fw_splat(GJKB_K_EPS_ABS))));
    mw straddle = mw_andnot(pk->valid, mw_or(mw_or(touching, t->done_sep), t->done_core));
    straddle = mw_and(straddle, mw_or(fw_le(st->last_vw, zero),
                                      fw_le(fw_mul(st->last_vw, st->last_vw), fw_mul(pk->touch2, st->vv))));
    unsure = mw_or(unsure, straddle);
    if (distance_mode)
        unsure = mw_or(unsure, mw_andnot(mw_andnot(t->done_sep, t->done_core), fw_gt(t->lower, pk->tol)));
    status = iw_sel(unsure, iw_splat(K_REFINE), status);
    status = iw_sel(retry, iw_splat(K_RETRY), status);
    return iw_sel(pk->valid, status, iw_splat(K_INVALID));
}

/* Runs steps [start, start + cap) of the bundle's lanes within the
 * iteration bound less the `base` steps the lanes spent before this loop,
 * from the start or from the state in c->resume. Lanes still going after
 * the last step, short of the bound, get K_RETRY and their state in
 * c->spill; returns their bits. */
static GJKB_INLINE unsigned cl_bundle(const loop_call *c, const int distance_mode, const int final)
{
    pack_w pk;
    pk_bundle(c->w, c->count, c->o, distance_mode, 0, &pk);
    cl_state st;
    cl_lanes t;
    cl_start(&pk, &st, &t);
    if (c->resume)
        cl_load(&st, c->resume, c->stride, distance_mode);
    const uint32_t bound = c->w->max_iterations - c->base;
    const uint32_t end = c->cap < bound - c->start ? c->start + c->cap : bound;
    for (uint32_t it = c->start; it < end && mw_any(t.active); it++) {
        v3w pa;
        v3w w = cl_plane(&pk, c->w, &st, &t, it, c->base, &pa);
        if (!mw_any(t.active))
            break;
        cl_advance(&pk, &st, &t, w, pa, it, distance_mode, final);
    }
    mw retry = end < bound ? mw_and(t.active, pk.valid) : mw_false();
    mw limit;
    iw status = cl_status(&pk, &st, &t, retry, &limit, distance_mode, final);
    vd_store_status(c, status, t.iters, &t.counts);
    unsigned bits = mw_bits(retry);
    if (bits)
        cl_save(&st, c->spill, distance_mode);
    if (!distance_mode) {
        vd_store_hit(c, iw_eq(status, iw_splat(K_OVERLAP)));
        return bits;
    }
    vd_end e = { .status = status, .sx = &st.sx, .v = st.v, .vv = st.vv, .done_sep = t.done_sep,
                 .done_core = t.done_core, .lower = t.lower, .plane_a = t.plane_a, .plane_b = t.plane_b,
                 .limit = limit };
    vd_store_distance(c, &pk, &e);
    if (final)
        fin_store(c, &t.fin);
    return bits;
}
