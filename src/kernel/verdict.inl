/* verdict.inl - what a loop writes for its lanes: the lane verdicts, and
 * in distance mode the distance, witnesses and axis back in world scale and
 * orientation; plus what a loop's bundle call is given. */

/* Lane verdicts; K_REFINE asks the pipeline to answer the pair with the
 * double-precision reference, K_RETRY (inside the kernel only) asks the
 * scheduler for another pass (lanes.inl). */
enum { K_SEPARATED = 0, K_OVERLAP = 1, K_LIMIT = 2, K_INVALID = 3, K_REFINE = GJKB_K_STATUS_REFINE, K_RETRY };

/* The duality gap (|v|^2 - v.w) a lane that stopped without converging may
 * keep: a fraction of |v|^2 and, in distance and contact mode, at most the
 * distance it leaves open (the gap over |v| = len) the mode allows. Any
 * common unit squared. */
static GJKB_INLINE fw vd_open_gap(fw vv, fw len, const int distance_mode, const int final)
{
    fw gap = fw_mul(fw_splat(GJKB_K_REFINE), vv);
    if (!distance_mode)
        return gap;
    return fw_min(gap, fw_mul(fw_splat(final ? GJKB_K_WITNESS : GJKB_K_OPEN), len));
}

/* One bundle's call of a loop: the chunk (lanes [0, count) of w's and l's),
 * the bundle at lane o, the steps [start, start + cap) to run (light loops:
 * at most cap more, each lane within its budget of `budget` steps), the
 * steps `base` its lanes spent before this loop, and where the lanes' state
 * comes from (resume: rows `stride` floats apart, or NULL: from the start)
 * and goes (spill, hand_spill: rows GJKB_W apart). */
typedef struct loop_call {
    const gjkb__world *w;
    uint32_t count;
    const gjkb__lanes *l;
    size_t o;
    uint32_t start, cap, base, budget;
    const float *resume;
    size_t stride;
    float *spill, *hand_spill;
} loop_call;

/* A bundle step over `active`, for gjkb_stats. */
static GJKB_INLINE void count_step(gjkb__counts *c, mw active)
{
    c->bundle_steps++;
    c->lane_steps += (uint64_t)gjkb_popcount(mw_bits(active));
}

/* The lanes' status and iterations, and the call's step counts. */
static GJKB_INLINE void vd_store_status(const loop_call *c, iw status, iw iterations, const gjkb__counts *counts)
{
    iw_store(c->l->status + c->o, status);
    iw_store(c->l->iterations + c->o, iterations);
    c->l->counts->bundle_steps += counts->bundle_steps;
    c->l->counts->lane_steps += counts->lane_steps;
}

/* Hit mode's distance: 0 for overlap, NaN otherwise. */
static GJKB_INLINE void vd_store_hit(const loop_call *c, mw overlap)
{
    fw_store(c->l->dist + c->o, fw_sel(overlap, fw_zero(), fw_splat(NAN)));
}

/* What a distance-mode loop ends with, per lane. */
typedef struct vd_end {
    iw status;
    const simplex_w *sx;    /* the kept feature and its weights */
    v3w v;                  /* its closest point */
    fw vv;
    mw done_sep, done_core; /* stopped by a support plane; cores overlap */
    fw lower;               /* the plane's lower bound */
    v3w plane_a, plane_b;   /* its support points */
    mw limit;
} vd_end;

/* A bundle's answers in distance mode: distances (the support plane's
 * lower bound where one stopped the lane, the upper bound at the iteration
 * bound) and the witnesses, on the cores and then out along the axis by
 * each margin (stopped by a support plane: its support points, on the cores
 * and at least the reported distance apart; else the simplex's), back in
 * world scale and orientation (offsets from A's position). NaN lanes get
 * one fixed NaN, so bits never depend on which NaN an operation kept. */
static GJKB_INLINE void vd_store_distance(const loop_call *c, const pack_w *pk, const vd_end *e)
{
    const gjkb__lanes *ln = c->l;
    const size_t o = c->o;
    const fw zero = fw_zero(), one = fw_splat(1.0f), nan = fw_splat(NAN);
    mw sepd = iw_eq(e->status, iw_splat(K_SEPARATED)), ovl = iw_eq(e->status, iw_splat(K_OVERLAP));
    fw dcore = fw_sqrt(e->vv), gap = fw_sub(dcore, pk->m);
    fw dist = fw_sel(e->done_sep, e->lower, gap);
    dist = fw_sel(sepd, dist, fw_sel(ovl, zero, nan));
    dist = fw_sel(e->limit, gap, dist);
    dist = pk_world_dist(dist, pk->scale);
    fw_store(ln->dist + o, fw_sel(fw_eq(dist, dist), dist, nan));

    v3w wa, wb;
    sx_witness(e->sx, e->v, &wa, &wb);
    wa = v3_sel(e->done_sep, e->plane_a, wa);
    wb = v3_sel(e->done_sep, e->plane_b, wb);
    mw has = mw_and(pk->valid, mw_and(mw_not(e->done_core), fw_gt(e->vv, zero)));
    fw inv_len = fw_div(one, fw_sel(has, dcore, one));
    v3w n = v3_scale(v3_neg(e->v), inv_len);
    wa = v3_scale(m3_mul(pk->ra, v3_madd(wa, n, pk->ma)), pk->scale);
    wb = v3_scale(m3_mul(pk->ra, v3_madd(wb, n, fw_neg(pk->mb))), pk->scale);
    n = m3_mul(pk->ra, n);
    has = mw_and(has, mw_and(mw_and(fw_isfinite(v3_dot(wa, wa)), fw_isfinite(v3_dot(wb, wb))),
                             fw_isfinite(v3_dot(n, n))));
    v3w nanv = v3_make(nan, nan, nan);
    v3_store(ln->ax + o, ln->ay + o, ln->az + o, v3_sel(has, wa, nanv));
    v3_store(ln->bx + o, ln->by + o, ln->bz + o, v3_sel(has, wb, nanv));
    v3_store(ln->nx + o, ln->ny + o, ln->nz + o, v3_sel(has, n, nanv));
}

/* Contact mode: the bundle's final simplices (GJKB_K_FINAL_FIELDS); the
 * points only where a lane has them. */
static GJKB_INLINE void fin_store(const loop_call *c, const final_w *f)
{
    float *const *to = c->l->fin;
    fw_store(to[GJKB_K_FINAL_COUNT] + c->o, f->n);
    if (!mw_any(fw_ge(f->n, fw_splat(3.0f))))
        return;
    for (int i = 0; i < 4; i++) {
        v3_store(to[3 * i] + c->o, to[3 * i + 1] + c->o, to[3 * i + 2] + c->o, f->q[i]);
        v3_store(to[12 + 3 * i] + c->o, to[13 + 3 * i] + c->o, to[14 + 3 * i] + c->o, f->qa[i]);
    }
}
