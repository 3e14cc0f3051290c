/* support.inl - support points of one side's core and of the pair's
 * Minkowski difference, W lanes, in the pair's scaled frame (pack.inl).
 * Analytic cores come from the shape core (shape.inl); hulls are scanned
 * here, two ways that give the same bits. */

/* One side in the pair's scaled frame: its core, its hull's points
 * [hf, hf + last] of the hull table (unscaled), and the bundle-wide flags
 * that let support skip blocks no lane needs. */
typedef struct shape_w {
    core_w c;
    iw hf, last;
    int any_round, any_cone, max_points;
} shape_w;

/* B's pose in A's frame: p_A = R p_B + t. */
typedef struct pose_w {
    fw r[9];
    v3w t;
} pose_w;

/* Hull support, two ways; both return the first point of largest d.p in
 * the hull's order (ties under ==), so they give the same bits and the
 * choice between them is only about speed (gjkb__world.within_from). */

/* Gather across lanes: point k of every lane's hull per step; lanes with
 * fewer points repeat their last one, which never wins. */
static GJKB_INLINE v3w sp_hull_gather(const shape_w *s, v3w d, const gjkb__world *w)
{
    fw best = fw_splat(-INFINITY);
    v3w bp = v3_zero();
    for (int k = 0; k < s->max_points; k++) {
        iw idx = iw_add(s->hf, iw_min(iw_splat(k), s->last));
        v3w q = v3_make(fw_gather(w->hx, idx), fw_gather(w->hy, idx), fw_gather(w->hz, idx));
        fw dot = v3_dot(q, d);
        mw better = fw_gt(dot, best);
        best = fw_sel(better, dot, best);
        bp = v3_sel(better, q, bp);
    }
    return bp;
}

/* The index of the first point of largest dot in one hull of last + 1
 * points from p, W points per step with aligned loads (hulls are stored
 * padded, see gjkb_hull_add), reduced across the W running maxima in
 * registers. */
static GJKB_INLINE int32_t sp_hull_pick(const float *px, const float *py, const float *pz, int32_t last, v3w di)
{
    /* Above -inf only: a NaN dot never wins, as in every later step. */
    fw best = fw_splat(-INFINITY), dot = v3_dot(v3_load(px, py, pz), di);
    best = fw_sel(fw_gt(dot, best), dot, best);
    if (last < GJKB_W)   /* one step: the index is the lane */
        return __builtin_ctz(mw_bits(fw_eq(best, fw_splat(fw_reduce_max(best)))) | (1u << (GJKB_W - 1)));
    if (last < 2 * GJKB_W) {
        /* two steps: the first point at the largest dot, from both
         * halves' masks (a NaN dot is -inf here: it never wins) */
        fw hi = v3_dot(v3_load(px + GJKB_W, py + GJKB_W, pz + GJKB_W), di), none = fw_splat(-INFINITY);
        hi = fw_sel(fw_gt(hi, none), hi, none);
        fw top = fw_splat(fw_reduce_max(fw_max(best, hi)));
        return __builtin_ctz(mw_bits(fw_eq(best, top)) | mw_bits(fw_eq(hi, top)) << GJKB_W);
    }
    iw index = iw_lane_index(), k = iw_add(index, iw_splat(GJKB_W));
    for (int32_t j = GJKB_W; j <= last; j += GJKB_W) {
        dot = v3_dot(v3_load(px + j, py + j, pz + j), di);
        mw better = fw_gt(dot, best);
        best = fw_sel(better, dot, best);
        index = iw_sel(better, k, index);
        k = iw_add(k, iw_splat(GJKB_W));
    }
    /* The first point of the largest dot: a lane's index where it alone
     * holds the maximum (nearly always), else the least index among the
     * lanes that tie. */
    unsigned top = mw_bits(fw_eq(best, fw_splat(fw_reduce_max(best))));
    if ((top & (top - 1u)) == 0) {
        _Alignas(64) int32_t at[GJKB_W];
        iw_store(at, index);
        return at[__builtin_ctz(top | (1u << (GJKB_W - 1)))];
    }
    return iw_reduce_min(iw_sel(mw_from_bits(top), index, iw_splat(INT32_MAX)));
}

/* Within a hull: the active hull lanes one at a time (sp_hull_pick).
 * Lanes that are not active (or not hulls) get the origin. */
static GJKB_INLINE v3w sp_hull_within(const shape_w *s, v3w d, const gjkb__world *w, mw active)
{
    _Alignas(64) float dx[GJKB_W], dy[GJKB_W], dz[GJKB_W];
    _Alignas(64) int32_t first[GJKB_W], last[GJKB_W];
    fw_store(dx, d.x);
    fw_store(dy, d.y);
    fw_store(dz, d.z);
    iw_store(first, s->hf);
    iw_store(last, s->last);
    v3w o = v3_zero();
    const iw lane = iw_lane_index();
    /* Finished lanes' answers are not used: their hulls are not scanned.
     * The active hull lanes in turn, by their bits (no branch per lane). */
    for (unsigned bits = mw_bits(mw_and(s->c.hull, active)); bits; bits &= bits - 1u) {
        const int i = __builtin_ctz(bits);
        const float *px = w->hx + first[i], *py = w->hy + first[i], *pz = w->hz + first[i];
        int32_t pick = sp_hull_pick(px, py, pz, last[i], v3_splat(dx[i], dy[i], dz[i]));
        /* The point itself, while the lane's hull is at hand (cheaper than
         * three gathers after the loop), put in its lane in registers (a
         * vector load of lanes just stored one by one would wait for them) */
        o = v3_sel(iw_eq(lane, iw_splat(i)), v3_splat(px[pick], py[pick], pz[pick]), o);
    }
    return o;
}

/* Support point of a side's core in local direction d (scaled frame). */
static GJKB_INLINE v3w sp_local(const shape_w *s, v3w d, const gjkb__world *w, fw inv_scale, mw active)
{
    v3w p = sh_support(&s->c, d, s->any_round, s->any_cone);
    if (s->max_points > 0) {
        v3w hp = s->max_points >= w->within_from ? sp_hull_within(s, d, w, active) : sp_hull_gather(s, d, w);
        p = v3_sel(s->c.hull, v3_scale(hp, inv_scale), p);
    }
    return p;
}

/* Support point of the cores' difference A - B in direction d (A's scaled
 * frame); *pa and *pb get its two parts. */
static GJKB_INLINE v3w sp_pair(const shape_w *sa, const shape_w *sb, const pose_w *pose, fw inv_scale, v3w d,
                               const gjkb__world *w, mw active, v3w *pa, v3w *pb)
{
    *pa = sp_local(sa, d, w, inv_scale, active);
    *pb = v3_add(m3_mul(pose->r, sp_local(sb, m3_mul_t(pose->r, v3_neg(d)), w, inv_scale, active)), pose->t);
    return v3_sub(*pa, *pb);
}
