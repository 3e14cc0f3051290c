/* contact.inl - contact mode: depth, normal and manifold per lane.
 *
 * Two boxes without margins are answered in closed form: the
 * separating-axis test (contact_box.inl) gives an overlapping pair's depth
 * and normal, the face clipping (manifold_box.inl) its manifold. Every
 * other lane runs the distance loops (lanes.inl) from a queue; their
 * separated answers are contact mode's as they stand (distance mode's
 * numbers, no points), and those that need points (touching, or within
 * max_distance) get them along GJK's axis: two boxes by face clipping, a
 * sphere or a capsule's end touching a sphere, capsule or box as one
 * point. Lanes left (cores overlapping in other kinds, margins, float
 * that cannot decide) are answered by the double-precision reference
 * (K_REFINE), which the pipeline runs per pair. */

/* A lane's manifold slots to the lane arrays where m is set, world axes
 * and scale (a and b minus A's position); slots past the count NaN, key 0,
 * so that the pipeline copies every slot as it is. *written: the bundle's
 * lanes stored so far; the first store of a bundle gives its other lanes
 * the cleared slots (ct_clear_points) instead of reading them back. */
static GJKB_INLINE void ct_store_points(const gjkb__lanes *l, size_t o, mw m, const pack_w *k, v3w n,
                                        const mb_out *mf, mw *written)
{
    const fw nan = fw_splat(NAN);
    const int first = !mw_any(*written);
    *written = mw_or(*written, m);
    iw_store(l->mcount + o, iw_sel(m, mf->count, first ? iw_zero() : iw_load(l->mcount + o)));
    for (int s = 0; s < GJKB_MAX_CONTACTS; s++) {
        mw used = iw_lt(iw_splat(s), mf->count);
        v3w a = v3_scale(m3_mul(k->ra, mf->a[s]), k->scale);
        v3w b = v3_scale(m3_mul(k->ra, v3_madd(mf->a[s], n, mf->sep[s])), k->scale);
        const fw v[GJKB_K_POINT_FIELDS] = { a.x, a.y, a.z, b.x, b.y, b.z, pk_world_dist(mf->sep[s], k->scale) };
        for (int f = 0; f < GJKB_K_POINT_FIELDS; f++)
            fw_store(l->mpt[s][f] + o, fw_sel(m, fw_sel(used, v[f], nan), first ? nan : fw_load(l->mpt[s][f] + o)));
        iw key = iw_sel(used, mf->key[s], iw_zero());
        iw_store(l->mkey[s] + o, iw_sel(m, key, first ? iw_zero() : iw_load(l->mkey[s] + o)));
    }
}

/* A bundle's lanes without points: count 0, every slot NaN, key 0. */
static GJKB_INLINE void ct_clear_points(const gjkb__lanes *l, size_t o)
{
    const fw nan = fw_splat(NAN);
    iw_store(l->mcount + o, iw_zero());
    for (int s = 0; s < GJKB_MAX_CONTACTS; s++) {
        for (int f = 0; f < GJKB_K_POINT_FIELDS; f++)
            fw_store(l->mpt[s][f] + o, nan);
        iw_store(l->mkey[s] + o, iw_zero());
    }
}

/* A lane's status (and iterations) where m is set. */
static GJKB_INLINE void ct_store_status(const gjkb__lanes *l, size_t o, mw m, int status, int iterations)
{
    iw_store(l->status + o, iw_sel(m, iw_splat(status), iw_load(l->status + o)));
    iw_store(l->iterations + o, iw_sel(m, iw_splat(iterations), iw_load(l->iterations + o)));
}

/* The answer of overlapping boxes m: distance (negative), normal and
 * witnesses from the separating axis, the deepest contact point as the
 * witnesses. */
static GJKB_INLINE void ct_store_penetration(const gjkb__lanes *l, size_t o, mw m, const pack_w *k, v3w n, fw sep,
                                             const mb_out *mf, mw *written)
{
    ct_store_status(l, o, m, K_OVERLAP, 1);
    fw_store(l->dist + o, fw_sel(m, pk_world_dist(sep, k->scale), fw_load(l->dist + o)));
    v3w a = v3_scale(m3_mul(k->ra, mf->a[0]), k->scale);
    v3w b = v3_scale(m3_mul(k->ra, v3_madd(mf->a[0], n, sep)), k->scale);
    v3w nw = m3_mul(k->ra, n);
    float *const to[9] = { l->ax, l->ay, l->az, l->bx, l->by, l->bz, l->nx, l->ny, l->nz };
    const fw v[9] = { a.x, a.y, a.z, b.x, b.y, b.z, nw.x, nw.y, nw.z };
    for (int f = 0; f < 9; f++)
        fw_store(to[f] + o, fw_sel(m, v[f], fw_load(to[f] + o)));
    ct_store_points(l, o, m, k, n, mf, written);
}

/* Below this core distance (scaled units: a few hundredths of the pair's
 * extent) float GJK's axis may be off by more than the depth tolerance
 * allows along it: its error is about 3e-7 of the extent over the
 * distance, times the extent along it. */
#define CT_AXIS_MIN 3e-2f
/* Down to this core distance, float GJK's axis stays within the
 * manifold's loose slack (MG_CURVED_AXIS: 3e-7 / 1e-3 is a seventh of it). */
#define CT_NEAR_MIN 1e-3f
/* Two boxes closer than that take the separating axis as their normal
 * when it realizes the distance (face or edge contact), to this much. */
#define CT_AXIS_SAME 2e-6f

/* Points are kept up to the touching band, or max_distance when given. */
static GJKB_INLINE fw ct_keep(const gjkb__world *w, const pack_w *k)
{
    return w->speculative ? fw_max(k->tol, fw_mul(fw_splat(w->max_distance), k->inv_scale)) : k->tol;
}

/* Lanes that are two boxes without margins. */
static GJKB_INLINE mw ct_boxes(const gjkb__world *w, size_t o, const pack_w *k)
{
    const iw box = iw_splat(GJKB_BOX);
    mw m = mw_and(iw_eq(iw_load(w->lane_ka + o), box), iw_eq(iw_load(w->lane_kb + o), box));
    m = mw_and(m, mw_and(fw_eq(k->ma, fw_zero()), fw_eq(k->mb, fw_zero())));
    return mw_and(m, k->valid);
}

/* The lanes whose sides are both spheres: their cores are points, so
 * GJK's axis is B's centre from A's, good to float's rounding of that
 * offset at any core distance above 0. */
static GJKB_INLINE mw ct_spheres(const gjkb__world *w, size_t o)
{
    const iw sphere = iw_splat(GJKB_SPHERE);
    return mw_and(iw_eq(iw_load(w->lane_ka + o), sphere), iw_eq(iw_load(w->lane_kb + o), sphere));
}

/* The lanes m of a closed form (contact_sphere.inl, apart_box.inl):
 * status, distance, witnesses and normal as the loops give them, and,
 * where touching or within max_distance, the points of pts (NULL: the one
 * point c->a). */
static GJKB_INLINE void ct_store_closed(const gjkb__world *w, const gjkb__lanes *l, size_t o, mw m, const pack_w *k,
                                        const cs_out *c, const mb_out *pts, mw *written)
{
    mw touch = fw_le(c->dist, k->tol);
    ct_store_status(l, o, mw_and(m, touch), K_OVERLAP, 1);
    ct_store_status(l, o, mw_andnot(m, touch), K_SEPARATED, 1);
    fw_store(l->dist + o, fw_sel(m, pk_world_dist(c->dist, k->scale), fw_load(l->dist + o)));
    v3w a = v3_scale(m3_mul(k->ra, c->a), k->scale);
    v3w b = v3_scale(m3_mul(k->ra, v3_madd(c->a, c->n, c->dist)), k->scale);
    v3w nw = m3_mul(k->ra, c->n);
    float *const to[9] = { l->ax, l->ay, l->az, l->bx, l->by, l->bz, l->nx, l->ny, l->nz };
    const fw v[9] = { a.x, a.y, a.z, b.x, b.y, b.z, nw.x, nw.y, nw.z };
    for (int f = 0; f < 9; f++)
        fw_store(to[f] + o, fw_sel(m, v[f], fw_load(to[f] + o)));
    mb_out mf;
    if (!pts) {
        mf.count = iw_splat(1);
        for (int s = 0; s < GJKB_MAX_CONTACTS; s++) {
            mf.a[s] = c->a;
            mf.sep[s] = c->dist;
            mf.key[s] = c->key;
        }
        pts = &mf;
    }
    ct_store_points(l, o, mw_and(m, fw_le(c->dist, ct_keep(w, k))), k, c->n, pts, written);
}

/* Bare boxes m whose cores their axes show apart (n, sep, refine, axis
 * from cb_sat_axis): where the supporting features settle the distance
 * (apart_box.inl), the answer, with the face clipping's points where
 * touching or within max_distance; returns the lanes answered (the
 * others go to the loops, as do lanes whose points the clipping left to
 * the reference). */
static GJKB_INLINE mw ct_apart_boxes(const gjkb__world *w, const gjkb__lanes *l, size_t o, mw m, const pack_w *k,
                                     v3w n, fw sep, mw refine, iw axis, mw *written)
{
    cs_out c = ab_answer(k, m, n, sep, refine, axis);
    mw done = c.ok, near = mw_and(done, fw_le(c.dist, ct_keep(w, k)));
    mb_out mf;
    if (mw_any(near)) {
        mw none = mw_false();
        mb_manifold(k, n, c.dist, ct_keep(w, k), &mf, &none);
        done = mw_andnot(done, mw_and(near, none));
    }
    if (mw_any(done))
        ct_store_closed(w, l, o, done, k, &c, mw_any(near) ? &mf : NULL, written);
    return done;
}

/* One bundle: boxes (overlapping, or apart where their axes settle the
 * distance), and a sphere against a sphere, a capsule, a box, a cylinder
 * or a cone, answered here; returns the lanes for the distance loops
 * (every other lane, invalid ones included). */
static GJKB_INLINE mw ct_bundle_lanes(const gjkb__world *w, uint32_t count, const gjkb__lanes *l, size_t o,
                                      mw *written)
{
    pack_w k;
    pk_bundle(w, count, o, 1, 0, &k);
    mw boxes = ct_boxes(w, o, &k), all = mw_first_n((int)(count - (uint32_t)o)), closed = cs_lanes(w, o, &k);
    if (mw_any(closed)) {
        cs_out c = cs_answer(w, o, &k);
        closed = mw_and(closed, c.ok);
        ct_store_closed(w, l, o, closed, &k, &c, NULL, written);
        all = mw_andnot(all, closed);
    }
    if (!mw_any(boxes))
        return all;
    fw sep;
    mw refine;
    iw axis;
    v3w n = cb_sat_axis(&k, &sep, &refine, &axis);
    mw inside = mw_and(boxes, fw_le(sep, fw_zero()));
    mw deep = mw_andnot(inside, refine);
    mw none = mw_false();
    if (mw_any(deep)) {
        mb_out mf;
        mb_manifold(&k, n, sep, ct_keep(w, &k), &mf, &none);
        ct_store_penetration(l, o, mw_andnot(deep, none), &k, n, sep, &mf, written);
    }
    mw to_ref = mw_and(inside, mw_or(refine, none));
    ct_store_status(l, o, to_ref, K_REFINE, 0);
    mw apart = mw_andnot(mw_andnot(boxes, inside), k.far);
    if (mw_any(apart))
        all = mw_andnot(all, ct_apart_boxes(w, l, o, apart, &k, n, sep, refine, axis, written));
    return mw_andnot(all, inside);
}

/* ct_bundle_lanes's lanes for the loops; a bundle that stored no points
 * gets every lane's slots cleared here. */
static GJKB_INLINE unsigned ct_bundle(const gjkb__world *w, uint32_t count, const gjkb__lanes *l, size_t o)
{
    mw written = mw_false();
    mw loops = ct_bundle_lanes(w, count, l, o, &written);
    if (!mw_any(written))
        ct_clear_points(l, o);
    return mw_bits(loops);
}

/* Whether lane j's distance-loop answer needs contact points: touching, or
 * separated within max_distance. */
static GJKB_INLINE int ct_needs_points(const gjkb__world *w, const gjkb__lanes *l, uint32_t j)
{
    return l->status[j] == K_OVERLAP ||
           (l->status[j] == K_SEPARATED && w->speculative && l->dist[j] <= w->max_distance);
}

/* Scratch lane arrays for the manifolds of a queue's lanes, and their
 * signed distances. */
typedef struct ct_points {
    _Alignas(64) int32_t count[LS_QCAP], key[GJKB_MAX_CONTACTS][LS_QCAP];
    _Alignas(64) float pt[GJKB_MAX_CONTACTS][GJKB_K_POINT_FIELDS][LS_QCAP];
    _Alignas(64) float dist[LS_QCAP], n[3][LS_QCAP];
    _Alignas(64) int32_t ok[LS_QCAP];
    _Alignas(64) int32_t wit[LS_QCAP];   /* the deepest point is the witnesses */
    _Alignas(64) int32_t status[LS_QCAP];  /* the status an exact axis's distance makes, or -1 */
} ct_points;

/* Key of the face of a box (no margin) most aligned with u, its frame's
 * direction: the reference's feature rule. */
static GJKB_INLINE iw ct_box_face(v3w u)
{
    mb_axis ax = mb_largest(u.x, u.y, u.z);
    return mb_face_key(mb_ipick(ax, 0, 1, 2), fw_gt(mb_pick(ax, u.x, u.y, u.z), fw_zero()));
}

/* The manifold's feature rule (docs/contacts.md), as far as the one-point
 * path needs it: a capsule's segment is its feature where it leans off
 * perpendicular to u by at most CS_FACE_SIN, or where its tilt's cosine
 * reaches the aligned rule's (cs_min_cos); the reference's own constants.
 * Within CT_RULE_SLACK of either bound the lane goes to the reference:
 * GJK's float axis must not decide. */
#define CT_RULE_SLACK 1e-4f

/* One side's feature along u (its own frame) for the one-point path:
 * known where the rule decides clearly; point (a sphere, a capsule's end)
 * or flat (a capsule's segment, a box's face); its key. */
typedef struct ct_side {
    mw known, point;
    iw key;
} ct_side;

static GJKB_INLINE ct_side ct_side_of(const pack_w *k, const shape_w *sh, iw kind, v3w u, fw slack)
{
    const fw zero = fw_zero();
    mw sphere = iw_eq(kind, iw_splat(GJKB_SPHERE)), capsule = iw_eq(kind, iw_splat(GJKB_CAPSULE));
    mw box = mw_and(iw_eq(kind, iw_splat(GJKB_BOX)), fw_eq(sh->c.margin, zero));
    fw lean = fw_sqrt(fw_add(fw_mul(u.x, u.x), fw_mul(u.y, u.y))), uz = fw_abs(u.z);
    mw end, segment = cs_segment_rule(lean, uz, sh->c.h.z, cs_min_cos(sh->c.margin, k->tol), slack, &end);
    ct_side r;
    r.point = mw_or(sphere, mw_and(capsule, end));
    r.known = mw_or(mw_or(sphere, box), mw_and(capsule, mw_or(segment, end)));
    iw cap_key = iw_sel(end, mb_key(0, iw_sel(fw_ge(u.z, zero), iw_splat(1), iw_zero())), mb_key(1, iw_zero()));
    r.key = iw_sel(box, ct_box_face(u), iw_sel(capsule, cap_key, iw_zero()));
    return r;
}

/* One point where either feature is a point (a sphere, a capsule's end)
 * and the other is known, the rules' angles decided to within slack: the
 * witnesses a (A's frame, scaled) and the signed distance, keyed by the
 * two features. */
static GJKB_INLINE void ct_one_point(const pack_w *k, const gjkb__world *w, size_t o, v3w n, v3w a, fw dist, fw slack,
                                     mb_out *mf, mw *ok)
{
    ct_side sa = ct_side_of(k, &k->sa, iw_load(w->lane_ka + o), n, slack);
    ct_side sb = ct_side_of(k, &k->sb, iw_load(w->lane_kb + o), m3_mul_t(k->pose.r, v3_neg(n)), slack);
    *ok = mw_and(mw_and(sa.known, sb.known), mw_or(sa.point, sb.point));
    iw key = iw_add(iw_shl(sa.key, 16), sb.key);
    mf->count = iw_splat(1);
    for (int s = 0; s < GJKB_MAX_CONTACTS; s++) {
        mf->a[s] = a;
        mf->sep[s] = dist;
        mf->key[s] = key;
    }
}

/* No points (count 0, zeros). */
static GJKB_INLINE void ct_no_points(mb_out *mf)
{
    mf->count = iw_zero();
    for (int s = 0; s < GJKB_MAX_CONTACTS; s++) {
        mf->a[s] = v3_zero();
        mf->sep[s] = fw_zero();
        mf->key[s] = iw_zero();
    }
}

/* The lanes m of `from` into mf. */
static GJKB_INLINE void ct_take_points(mb_out *mf, const mb_out *from, mw m)
{
    mf->count = iw_sel(m, from->count, mf->count);
    for (int s = 0; s < GJKB_MAX_CONTACTS; s++) {
        mf->a[s] = v3_sel(m, from->a[s], mf->a[s]);
        mf->sep[s] = fw_sel(m, from->sep[s], mf->sep[s]);
        mf->key[s] = iw_sel(m, from->key[s], mf->key[s]);
    }
}

/* GJK's float axis settles the distance to second order in its angle, so
 * near a feature's edge the angle can stay up to a few 1e-5 rad off and
 * the gap along it first-order short of the distance. The lanes m whose
 * support planes along n are not the distance apart (to CT_AXIS_GAP,
 * scaled): the reference answers them. */
#define CT_AXIS_GAP 6e-6f
static GJKB_INLINE mw ct_axis_off(const gjkb__world *w, const pack_w *k, v3w n, fw dist, mw m)
{
    if (!mw_any(m))
        return mw_false();
    v3w pa, pb;
    fw gap = fw_neg(v3_dot(n, sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, n, w, m, &pa, &pb)));
    return mw_and(m, mw_not(fw_le(fw_abs(fw_sub(gap, fw_add(dist, k->m))), fw_splat(CT_AXIS_GAP))));
}

/* A bundle's queued lanes as ct_points_of holds them: axis and A's
 * witness (A's scaled frame), the axis in world axes, the signed
 * distance scaled and in world scale. */
typedef struct ct_lane {
    v3w n, a, nw;
    fw dist, dist_w;
} ct_lane;

/* The lanes m of an exact answer c into *ln. */
static GJKB_INLINE void ct_take_axis(ct_lane *ln, const pack_w *k, const cs_out *c, mw m)
{
    ln->n = v3_sel(m, c->n, ln->n), ln->a = v3_sel(m, c->a, ln->a), ln->dist = fw_sel(m, c->dist, ln->dist);
    ln->dist_w = fw_sel(m, pk_world_dist(c->dist, k->scale), ln->dist_w);
    ln->nw = v3_sel(m, v3_unit(m3_mul(k->ra, c->n)), ln->nw);
}

/* A capsule near or in a cylinder or a cone, a box near one, lanes m: the
 * axis GJK only approached, or EPA's inscribed polytope (lanes by_epa),
 * exactly (contact_curved.inl), into *ln; the lanes it holds for. */
static GJKB_INLINE mw ct_exact_axis(const gjkb__world *w, size_t o, const pack_w *k, mw m, mw by_epa, ct_lane *ln)
{
    mw box, exact = mw_and(m, cc_lanes(w, o, &box));
    exact = mw_andnot(exact, mw_and(box, by_epa));
    if (!mw_any(exact))
        return exact;
    cs_out c = cc_answer(w, o, k, exact, ln->n);
    fw core = fw_add(c.dist, k->m);
    mw deep = mw_and(by_epa, fw_lt(core, fw_zero()));
    exact = mw_and(c.ok, mw_or(deep, mw_andnot(fw_ge(core, fw_splat(CC_CORE_MIN)), by_epa)));
    ct_take_axis(ln, k, &c, exact);
    return exact;
}

/* The lanes with a sphere or a capsule: a point or a segment core, whose
 * GJK axis ct_axis_off's check is enough for. */
static GJKB_INLINE mw ct_ball(const gjkb__world *w, size_t o)
{
    iw ka = iw_load(w->lane_ka + o), kb = iw_load(w->lane_kb + o);
    return mw_or(mw_or(iw_eq(ka, iw_splat(GJKB_SPHERE)), iw_eq(kb, iw_splat(GJKB_SPHERE))),
                 mw_or(iw_eq(ka, iw_splat(GJKB_CAPSULE)), iw_eq(kb, iw_splat(GJKB_CAPSULE))));
}

/* Lanes m with a cylinder or a cone, EPA's (by_epa) or GJK's with the
 * cores apart (the least of the support gap over normals is the distance
 * as the least depth is the penetration, so the same search makes GJK's
 * float axis exact): the normal made exact (refine.inl) into *ln; the
 * lanes it holds for. */
static GJKB_INLINE mw ct_refined_axis(const gjkb__world *w, size_t o, const pack_w *k, mw m, mw by_epa, ct_lane *ln)
{
    mw apart = mw_andnot(fw_gt(fw_add(ln->dist, k->m), fw_zero()), ct_ball(w, o));
    m = mw_and(m, mw_or(by_epa, apart));
    m = mw_and(m, mw_or(cc_curved(iw_load(w->lane_ka + o)), cc_curved(iw_load(w->lane_kb + o))));
    if (!mw_any(m))
        return m;
    cs_out c = rf_refine(w, k, m, ln->n, ln->dist);
    ct_take_axis(ln, k, &c, c.ok);
    return c.ok;
}

/* Lanes m with the cores nearly touching (two bare boxes aside: they
 * take the separating axis): where a face or two edges touch, their exact
 * axis (face_axis.inl) into *ln, the lanes in *snapped; the others keep
 * GJK's axis, off by up to MG_CURVED_AXIS, and are returned. */
static GJKB_INLINE mw ct_near_axis(const gjkb__world *w, size_t o, const pack_w *k, mw m, ct_lane *ln, mw *snapped)
{
    mw near = mw_andnot(mw_and(m, fw_ge(fw_add(ln->dist, k->m), fw_splat(CT_NEAR_MIN))), ct_boxes(w, o, k));
    *snapped = mw_false();
    if (!mw_any(near))
        return near;
    cs_out c = fa_axis(w, o, k, mw_and(near, k->valid), ln->n, ln->dist, ln->a);
    ct_take_axis(ln, k, &c, c.ok);
    *snapped = c.ok;
    return mw_andnot(near, c.ok);
}

/* The lanes the box manifold did not answer (`ok`): a single point where
 * the kinds make one (ct_one_point), else the generic manifold
 * (manifold.inl) on the lanes whose axis is trusted, except on a curved
 * core where the axis is GJK's float one. Lanes `near` have GJK's axis
 * with the cores nearly touching: off by up to MG_CURVED_AXIS, so both
 * decide with that slack. *one gets the lanes answered, *wit those whose
 * deepest point is the witnesses. */
static GJKB_INLINE void ct_other_points(const gjkb__world *w, const gjkb__world *rw, size_t o, const pack_w *k,
                                        const ct_lane *ln, mw trusted, mw ok, mw not_gjk, mw exact, mw near,
                                        mb_out *mf, mw *one, mw *wit)
{
    mb_out ms;
    fw slack = fw_sel(near, fw_splat(MG_CURVED_AXIS), fw_splat(CT_RULE_SLACK));
    ct_one_point(k, rw, o, ln->n, ln->a, ln->dist, slack, &ms, one);
    *one = mw_and(mw_andnot(*one, ok), trusted);
    ct_take_points(mf, &ms, *one);
    mw rest = mw_andnot(trusted, mw_or(ok, *one)), gen;
    /* on a cylinder's or cone's curved core, GJK's float axis is off by up
     * to about 1e-4 rad, to first order in the gap along it where an edge
     * or a rim touches; EPA's meets its depth. Against a sphere's or a
     * capsule's core (a point or a segment) ct_axis_off's check is enough */
    mw curved = mw_or(fw_gt(k->sa.c.rd, fw_zero()), fw_gt(k->sb.c.rd, fw_zero()));
    rest = mw_andnot(rest, mw_andnot(curved, mw_or(not_gjk, ct_ball(rw, o))));
    if (!mw_any(rest))
        return;
    mw curved_kind = mw_or(cc_curved(iw_load(rw->lane_ka + o)), cc_curved(iw_load(rw->lane_kb + o)));
    mg_manifold(rw, o, k, ln->n, ln->dist, ln->a, ct_keep(w, k), rest, mw_or(mw_andnot(curved_kind, exact), near),
                &ms, &gen);
    ct_take_points(mf, &ms, gen);
    *one = mw_or(*one, gen);
    /* the deepest point lies on both features; EPA's witnesses only within
     * its float weights (on a curved core, an inscribed polytope's) */
    *wit = gen;
}

/* Manifolds along GJK's axis for the queued lanes `in` that need them:
 * two boxes by face clipping, one point from the witnesses where a sphere
 * or a capsule's end touches, the rest to the reference. Touching lanes' distance comes from their
 * witnesses (the loops answer 0 for overlap). */
static GJKB_INLINE void ct_points_of(const gjkb__world *w, const gjkb__lanes *l, const lane_queue *in,
                                     const int32_t *solved, ct_points *p)
{
    ls_chunk ch;
    gjkb__world rw = ls_chunk_world(w, in, 0, &ch);
    gjkb__lanes pl = { .mcount = p->count };
    for (int s = 0; s < GJKB_MAX_CONTACTS; s++) {
        pl.mkey[s] = p->key[s];
        for (int f = 0; f < GJKB_K_POINT_FIELDS; f++)
            pl.mpt[s][f] = p->pt[s][f];
    }
    for (uint32_t o = 0; o < in->n; o += GJKB_W) {
        pack_w k;
        pk_bundle(&rw, in->n, o, 1, 0, &k);
        mw lanes = mw_first_n((int)(in->n - o));
        iw j = iw_sel(lanes, iw_loadu((const int32_t *)(const void *)(in->lane + o)), iw_zero());
        v3w nw = v3_make(fw_gather(l->nx, j), fw_gather(l->ny, j), fw_gather(l->nz, j));
        v3w aw = v3_make(fw_gather(l->ax, j), fw_gather(l->ay, j), fw_gather(l->az, j));
        v3w bw = v3_make(fw_gather(l->bx, j), fw_gather(l->by, j), fw_gather(l->bz, j));
        mw touch = iw_eq(iw_gather(l->status, j), iw_splat(K_OVERLAP));
        fw dist = fw_sel(touch, v3_dot(v3_sub(bw, aw), nw), fw_gather(l->dist, j));
        fw dist_w = dist;
        dist = fw_mul(dist, k.inv_scale);
        v3w n = m3_mul_t(k.ra, nw), a = v3_scale(m3_mul_t(k.ra, aw), k.inv_scale);
        mw fine = fw_isfinite(fw_add(v3_dot(n, n), fw_add(v3_dot(aw, aw), dist)));
        mw by_epa = mw_andnot(lanes, iw_eq(iw_loadu(solved + o), iw_zero()));
        ct_lane ln = { n, a, nw, dist, dist_w };
        mw exact = ct_exact_axis(&rw, o, &k, mw_and(lanes, k.valid), by_epa, &ln);
        exact = mw_or(exact, ct_refined_axis(&rw, o, &k, mw_andnot(mw_and(lanes, k.valid), exact), by_epa, &ln));
        n = ln.n, a = ln.a, nw = ln.nw, dist = ln.dist;
        fw_store(p->dist + o, ln.dist_w);
        /* GJK's axis is a direction only where the cores are clearly apart
         * (or are two points): nearly touching boxes take the separating
         * axis instead. */
        mw axis = mw_or(fw_ge(fw_add(dist, k.m), fw_splat(CT_AXIS_MIN)),
                        mw_and(ct_spheres(&rw, o), fw_gt(fw_add(dist, k.m), fw_zero())));
        axis = mw_or(axis, mw_andnot(exact, by_epa));
        mw snapped, near = ct_near_axis(&rw, o, &k, mw_andnot(lanes, mw_or(axis, by_epa)), &ln, &snapped);
        axis = mw_or(axis, mw_or(near, snapped));
        exact = mw_or(exact, snapped);
        n = ln.n, a = ln.a, nw = ln.nw, dist = ln.dist;
        fw_store(p->dist + o, ln.dist_w);
        /* a distance from an exact axis decides the status as the loops'
         * did theirs: touching within the band */
        iw banded = iw_sel(fw_le(dist, k.tol), iw_splat(K_OVERLAP), iw_splat(K_SEPARATED));
        iw_store(p->status + o, iw_sel(exact, banded, iw_splat(-1)));
        /* the exact lanes too: a box's feature is float's guess */
        fine = mw_or(fine, exact);
        fine = mw_andnot(fine, ct_axis_off(&rw, &k, n, dist, mw_andnot(mw_and(axis, lanes), by_epa)));
        exact = mw_and(exact, fine);
        axis = mw_or(axis, by_epa);
        mb_out mf;
        ct_no_points(&mf);
        mw none = mw_true(), boxes = mw_and(ct_boxes(&rw, o, &k), fine), one = mw_false(), wit = mw_false();
        if (mw_any(mw_andnot(boxes, axis))) {
            fw sep;
            mw refine;
            v3w sat = cb_sat(&k, &sep, &refine);
            mw same = mw_andnot(fw_le(fw_abs(fw_sub(sep, dist)), fw_splat(CT_AXIS_SAME)), refine);
            n = v3_sel(axis, n, sat);
            ln.n = n;
            boxes = mw_andnot(boxes, mw_andnot(mw_not(same), axis));
        }
        if (mw_any(boxes))
            mb_manifold(&k, n, dist, ct_keep(w, &k), &mf, &none);
        mw ok = mw_andnot(boxes, none);
        if (!mw_all(mw_or(ok, mw_not(lanes))))
            ct_other_points(w, &rw, o, &k, &ln, mw_and(mw_and(fine, axis), mw_and(k.valid, lanes)), ok,
                            mw_or(by_epa, exact), exact, near, &mf, &one, &wit);
        iw_store(p->ok + o, iw_sel(mw_or(ok, one), iw_splat(1), iw_zero()));
        /* a snapped axis moved the witnesses too */
        wit = mw_or(wit, mw_and(snapped, one));
        iw_store(p->wit + o, iw_sel(wit, iw_splat(1), iw_zero()));
        /* the loops' axis as it was; a separating axis back to world */
        v3w sat_w = v3_unit(m3_mul(k.ra, n));
        v3_store(p->n[0] + o, p->n[1] + o, p->n[2] + o, v3_sel(axis, nw, sat_w));
        mw written = mw_false();
        ct_store_points(&pl, o, mw_true(), &k, n, &mf, &written);
    }
}

/* Whether chunk lane j is a capsule against a box (either side): a
 * segment is a box of half extents (0, 0, h), so the separating-axis test
 * settles their cores' penetration as it does two boxes'. */
static GJKB_INLINE int ct_segment_box(const gjkb__world *w, uint32_t j)
{
    const int32_t ka = w->lane_ka[j], kb = w->lane_kb[j];
    return (ka == GJKB_CAPSULE && kb == GJKB_BOX) || (ka == GJKB_BOX && kb == GJKB_CAPSULE);
}

/* The queued capsule-box lanes `in`, cores overlapping, by the
 * separating-axis test (contact_box.inl) instead of EPA, a bundle at a
 * time: depth, normal and A's core point on the witnesses' line (the
 * capsule's end along the normal, or the box's plane below B's end);
 * ok[i] = 1 where in->lane[i] got them, 0 where the axes disagree with
 * GJK's overlap or a badly conditioned axis could decide. */
static GJKB_INLINE void ct_sat_run(const gjkb__world *w, const gjkb__lanes *l, const lane_queue *in, int32_t *ok)
{
    ls_chunk ch;
    gjkb__world rw = ls_chunk_world(w, in, 0, &ch);
    const fw zero = fw_zero();
    for (uint32_t o = 0; o < in->n; o += GJKB_W) {
        pack_w k;
        pk_bundle(&rw, in->n, o, 1, 0, &k);
        fw sep;
        mw refine;
        v3w n = cb_sat(&k, &sep, &refine);
        mw done = mw_andnot(mw_and(mw_and(mw_first_n((int)(in->n - o)), k.valid), fw_le(sep, zero)), refine);
        v3w ea = v3_make(zero, zero, fw_sel(fw_gt(n.z, zero), k.sa.c.h.z, fw_neg(k.sa.c.h.z)));
        fw nbz = v3_dot(m3_col(k.pose.r, 2), n);
        v3w eb = v3_add(v3_scale(m3_col(k.pose.r, 2), fw_sel(fw_gt(nbz, zero), fw_neg(k.sb.c.h.z), k.sb.c.h.z)),
                        k.pose.t);
        v3w a = v3_sel(iw_eq(iw_load(rw.lane_ka + o), iw_splat(GJKB_CAPSULE)), ea, v3_madd(eb, n, fw_neg(sep)));
        _Alignas(64) float nn[3][GJKB_W], depth[GJKB_W], ac[3][GJKB_W];
        _Alignas(64) int32_t steps[GJKB_W];
        v3_store(nn[0], nn[1], nn[2], n);
        v3_store(ac[0], ac[1], ac[2], a);
        fw_store(depth, fw_neg(sep));
        iw_store(steps, iw_splat(1));
        const unsigned good = mw_bits(done);
        for (int i = 0; i < GJKB_W; i++)
            ok[o + (uint32_t)i] = (int32_t)(good >> i & 1u);
        if (good)
            ep_store(l, &k, in->lane + o, good, nn, depth, ac, steps);
    }
}

/* The queued lanes *a through the distance loops from the start, then the
 * points of those that need them. */
static GJKB_INLINE void ct_distance(const gjkb__world *w, const gjkb__lanes *l, lane_queue q[3], const loop_desc *loops)
{
    uint32_t ids[LS_QCAP], n = q[0].n;
    memcpy(ids, q[0].lane, n * sizeof ids[0]);
    q[2].n = 0;
    ls_drain(w, l, loops, &q[0], &q[1], &q[2], 1);
    /* cores overlapping: capsule-box lanes by their axes, the rest by EPA */
    lane_queue *deep = &q[1], *axes = &q[2];
    deep->n = axes->n = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = ids[i];
        if (l->status[j] == K_LIMIT)
            l->status[j] = K_REFINE;
        else if (l->status[j] == K_OVERLAP && l->fin[GJKB_K_FINAL_COUNT][j] >= 3.0f) {
            lane_queue *to = ct_segment_box(w, j) ? axes : deep;
            to->lane[to->n++] = j;
        }
    }
    _Alignas(64) int32_t solved_deep[LS_QCAP], solved_axes[LS_QCAP], solved[LS_QROW];
    if (deep->n > 0)
        ep_run(w, l, deep, solved_deep);
    if (axes->n > 0)
        ct_sat_run(w, l, axes, solved_axes);
    lane_queue *need = &q[0];
    need->n = 0;
    for (uint32_t i = 0, d = 0, x = 0; i < n; i++) {
        uint32_t j = ids[i];
        int by_epa = d < deep->n && deep->lane[d] == j, by_axes = x < axes->n && axes->lane[x] == j;
        int is_deep = by_epa || by_axes;
        if (is_deep && !(by_epa ? solved_deep[d++] : solved_axes[x++])) {
            l->status[j] = K_REFINE;
        } else if (l->status[j] != K_REFINE && ct_needs_points(w, l, j)) {
            solved[need->n] = is_deep;
            need->lane[need->n++] = j;
        }
    }
    if (need->n == 0)
        return;
    memset(solved + need->n, 0, GJKB_W * sizeof solved[0]);
    ct_points p;
    ct_points_of(w, l, need, solved, &p);
    for (uint32_t i = 0; i < need->n; i++) {
        uint32_t j = need->lane[i];
        if (!p.ok[i]) {
            l->status[j] = K_REFINE;
            continue;
        }
        l->mcount[j] = p.count[i];
        l->dist[j] = p.dist[i];
        if (p.status[i] >= 0)
            l->status[j] = p.status[i];
        if (p.wit[i]) {
            float *const to[6] = { l->ax, l->ay, l->az, l->bx, l->by, l->bz };
            for (int f = 0; f < 6; f++)
                to[f][j] = p.pt[0][f][i];
        }
        l->nx[j] = p.n[0][i];
        l->ny[j] = p.n[1][i];
        l->nz[j] = p.n[2][i];
        /* moved out of the band by its exact axis, and not asked for
         * speculative points: none */
        const int keep = ct_needs_points(w, l, j);
        l->mcount[j] = keep ? l->mcount[j] : 0;
        for (int s = 0; s < GJKB_MAX_CONTACTS; s++) {
            l->mkey[s][j] = keep ? p.key[s][i] : 0;
            for (int f = 0; f < GJKB_K_POINT_FIELDS; f++)
                l->mpt[s][f][j] = keep ? p.pt[s][f][i] : NAN;
        }
        /* the deepest point is at the pair's distance: the same float, also
         * where scaling it there and back lost bits below float's normal
         * range */
        if (keep && l->mcount[j] > 0)
            l->mpt[0][GJKB_K_POINT_FIELDS - 1][j] = l->dist[j];
    }
}

/* A chunk in contact mode: bundle by bundle the closed forms, the other
 * lanes queued for the distance loops (`loops`) a queue at a time. */
static GJKB_INLINE void ct_run(const gjkb__world *w, uint32_t count, const gjkb__lanes *l, const loop_desc *loops)
{
    lane_queue q[3];
    q[0].n = 0;
    for (uint32_t o = 0; o < count; o += GJKB_W) {
        unsigned bits = ct_bundle(w, count, l, o);
        ls_push(&q[0], NULL, bits, NULL, o, 0);
        if (q[0].n > 0 && (q[0].n + GJKB_W > LS_QCAP || o + GJKB_W >= count)) {
            ct_distance(w, l, q, loops);
            q[0].n = 0;
        }
    }
}
