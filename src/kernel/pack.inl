/* pack.inl - a bundle's pairs in their lanes: both bodies loaded (from
 * their records or gathered), decoded by the shape core, and put in A's
 * local frame scaled to order one, with the tolerances every loop uses.
 * Lanes past the chunk's count read a real pair but stay invalid. */

/* Largest power of two <= x, for positive normal x (0 for 0). */
static GJKB_INLINE fw pk_pow2_floor(fw x)
{
    return fw_from_bits(iw_and(fw_bits(x), iw_splat(0x7F800000)));
}

/* A side's inputs: from the bodies' records where the pipeline made them
 * (one load per body, transposed), else gathered value by value. The hull
 * fields come only from records; without them pk_side gathers those
 * itself, and only for a bundle with hull lanes. */
typedef struct body_w {
    fw q[4];          /* gathered: the quaternion */
    fw r[9];          /* from a record: the rotation matrix, NaN R0 if invalid */
    fw s[3], m;
    fw hull_radius;
    iw hull_first, hull_n;
} body_w;

static GJKB_INLINE body_w pk_load_body(const gjkb__world *w, iw body)
{
    body_w b;
    if (w->records) {
        fw rec[GJKB_RECORD];
        fw_load_records(w->records, body, rec);
        for (int k = 0; k < 9; k++)
            b.r[k] = rec[GJKB_REC_R0 + k];
        for (int k = 0; k < 3; k++)
            b.s[k] = rec[GJKB_REC_SX + k];
        b.m = rec[GJKB_REC_MARGIN];
        b.hull_first = fw_bits(rec[GJKB_REC_HULL_FIRST]);
        b.hull_n = fw_bits(rec[GJKB_REC_HULL_N]);
        b.hull_radius = rec[GJKB_REC_HULL_RADIUS];
        return b;
    }
    b.q[0] = fw_gather(w->qw, body);
    b.q[1] = fw_gather(w->qx, body);
    b.q[2] = fw_gather(w->qy, body);
    b.q[3] = fw_gather(w->qz, body);
    b.s[0] = fw_gather(w->sx, body);
    b.s[1] = fw_gather(w->sy, body);
    b.s[2] = fw_gather(w->sz, body);
    b.m = w->margin ? fw_gather(w->margin, body) : fw_zero();
    b.hull_radius = fw_zero();
    b.hull_first = b.hull_n = iw_zero();
    return b;
}

/* One side's core from its body: the shape core's decode, the hull's
 * range and validity, its extent (bounding radius about its origin,
 * margin included) and its core's inner radius (a ball about its origin
 * inside the core, margin not included; -inf for a hull that holds no such
 * ball), unscaled. */
static GJKB_INLINE shape_w pk_side(const gjkb__world *w, const body_w *b, iw body, iw kind, mw *valid, fw *extent,
                                   fw *inner)
{
    const fw zero = fw_zero();
    shape_w r;
    r.c = sh_core(kind, b->s, b->m, valid);
    r.hf = r.last = iw_zero();
    r.any_round = r.any_cone = r.max_points = 0;   /* pk_scale_side settles them */
    fw hull_extent = zero, hull_inner = zero;
    mw hull = r.c.hull;
    if (w->hull && mw_any(hull)) {
        fw radius = b->hull_radius;
        iw first = b->hull_first, n = b->hull_n;
        /* Only hull lanes' ids are known to be registered. */
        iw id = iw_sel(hull, iw_gather(w->hull, body), iw_zero());
        hull_inner = fw_sel(hull, fw_gather(w->hull_inner, id), zero);
        if (!w->records) {
            radius = fw_gather(w->hull_radius, id);
            first = iw_gather(w->hull_first, id);
            n = iw_gather(w->hull_n, id);
        }
        *valid = mw_and(*valid, mw_or(mw_not(hull), fw_isfinite(radius)));
        r.hf = iw_sel(hull, first, iw_zero());
        r.last = iw_sel(hull, iw_sub(n, iw_splat(1)), iw_zero());
        hull_extent = fw_sel(hull, radius, zero);
    }
    *extent = fw_add(fw_add(sh_radius(&r.c), hull_extent), r.c.margin);
    *inner = fw_add(sh_inner(&r.c), hull_inner);
    return r;
}

/* Scales a side into the pair's frame and settles its bundle-wide flags. */
static GJKB_INLINE void pk_scale_side(shape_w *s, fw inv, mw valid)
{
    s->c.h = v3_scale(s->c.h, inv);
    s->c.rd = fw_mul(s->c.rd, inv);
    s->c.margin = fw_mul(s->c.margin, inv);
    s->c.hull = mw_and(s->c.hull, valid);
    s->c.cone = mw_and(s->c.cone, valid);
    s->any_round = mw_any(mw_and(valid, fw_gt(s->c.rd, fw_zero())));
    s->any_cone = mw_any(s->c.cone);
    /* The bundle's longest hull bounds the gather loop: the largest last
     * index of its hull lanes, as a minimum of negatives (reduced in
     * registers; a branch per lane mispredicted). */
    s->max_points = 0;
    if (mw_any(s->c.hull))
        s->max_points = 1 - iw_reduce_min(iw_sub(iw_zero(), iw_sel(s->c.hull, s->last, iw_splat(-1))));
}

/* Whether a body's rotation is valid, with what its matrix needs: a
 * record holds the matrix sh_quat_rotation made, NaN in R0 where it was
 * invalid; a quaternion is checked here (*qq its squared length) and
 * turned into a matrix only where a lane needs the pair's frame. */
static GJKB_INLINE mw pk_rotation_ok(const gjkb__world *w, const body_w *b, fw *qq)
{
    if (w->records) {
        *qq = fw_splat(1.0f);
        return fw_isfinite(b->r[0]);
    }
    mw ok = sh_quat_ok(b->q[0], b->q[1], b->q[2], b->q[3], qq);
    *qq = fw_sel(ok, *qq, fw_splat(1.0f));
    return ok;
}

/* A body's rotation matrix (pk_rotation_ok's qq). */
static GJKB_INLINE void pk_rotation(const gjkb__world *w, const body_w *b, fw qq, fw m[9])
{
    if (w->records) {
        for (int k = 0; k < 9; k++)
            m[k] = b->r[k];
        return;
    }
    sh_quat_matrix(b->q[0], b->q[1], b->q[2], b->q[3], fw_div(fw_splat(2.0f), qq), m);
}

/* What every loop starts from. Margins, tolerance and limits are in the
 * pair's scaled frame. */
typedef struct pack_w {
    shape_w sa, sb;
    pose_w pose;        /* B in A's frame */
    fw ra[9];           /* A's rotation, for answers back in world axes */
    fw scale, inv_scale;
    fw ma, mb, m;       /* margins and their sum */
    fw tol;             /* touching tolerance */
    fw lim2;            /* a support plane farther than sqrt(lim2) decides */
    fw touch2;          /* within sqrt(touch2) counts as touching */
    fw core2;           /* |v|^2 at or below this: the cores overlap */
    v3w dir;            /* first search direction */
    mw valid;
    mw apart;           /* hit mode: bounding spheres apart beyond the band */
    mw deep;            /* hit mode: inner balls overlapping; distance mode:
                           the cores' inner balls or a box pair's axes */
    mw far;             /* distance mode: too far apart for float (GJKB_K_FAR) */
} pack_w;

/* The pair's scale: the shapes' extent (the offset for two points), kept
 * within 2^40 of the offset tl so squares and volumes of far-apart tiny
 * shapes stay finite, and at least float's least normal 2^-126 (its inverse
 * 2^126 still finite: shapes below float's normal range are answered in
 * units of 2^-126, not in subnormals); a power of two, so scaling is exact. */
static GJKB_INLINE fw pk_scale(fw extent, fw tl)
{
    fw scale = pk_pow2_floor(fw_sel(fw_gt(extent, fw_zero()), extent, tl));
    scale = fw_max(scale, fw_mul(pk_pow2_floor(tl), fw_splat(0x1p-40f)));
    return fw_max(scale, fw_splat(0x1p-126f));
}

/* A scaled distance or separation in world units (times the pair's
 * scale): a positive one stays positive, where below float's normal range
 * the product would round to 0 and contradict a separated verdict. */
static GJKB_INLINE fw pk_world_dist(fw d, fw scale)
{
    fw w = fw_mul(d, scale);
    return fw_sel(fw_gt(d, fw_zero()), fw_max(w, fw_splat(0x1p-149f)), w);
}

/* Verdicts before any support, from balls about the bodies' origins (tr
 * the offset's length, in_a and in_b the cores' inner radii, unscaled).
 * Hit mode: where the bounding spheres are apart by more than the touching
 * band, the gap (at least tr - extent) decides; where the inner balls
 * (margins added) overlap, so do the shapes. Distance mode: where the
 * cores' inner balls overlap, so do the cores, and the answer is distance
 * 0 without witnesses, as the loops would find it. Contact mode needs the
 * loops' simplex for the depth. The extra 2^-10 covers the float rounding
 * of both sides many times over. */
static GJKB_INLINE void pk_early(const gjkb__world *world, fw extent, fw in_a, fw in_b, fw tr,
                                 const int distance_mode, pack_w *k)
{
    const fw slack = fw_splat(1.0f + 0x1p-10f);
    k->apart = k->deep = mw_false();
    if (distance_mode && world->contact)
        return;
    if (distance_mode) {
        k->deep = mw_and(k->valid, fw_lt(fw_mul(tr, slack), fw_add(in_a, in_b)));
        return;
    }
    fw inner = fw_add(fw_add(in_a, k->sa.c.margin), fw_add(in_b, k->sb.c.margin));
    k->apart = mw_and(k->valid, fw_gt(tr, fw_mul(extent, fw_splat(1.0f + 0x1p-10f + world->tolerance))));
    k->deep = mw_and(k->valid, fw_lt(fw_mul(tr, slack), inner));
}

/* The limits of the loops, from the pair's extent, B's offset length tl
 * and the margins (k->m and scale set). */
static GJKB_INLINE void pk_limits(const gjkb__world *world, fw extent, fw tl, const int distance_mode, pack_w *k)
{
    k->tol = fw_mul(fw_mul(fw_splat(world->tolerance), extent), k->inv_scale);
    /* A support plane proves the cores apart by more than `lim`: hit mode
     * stops at the touching band, distance mode at the early-stop distance
     * but never inside the band (an early stop there would call a touching
     * pair separated on a plane's rounding). */
    fw lim = fw_add(k->m, distance_mode ? fw_max(fw_mul(fw_splat(world->max_distance), k->inv_scale), k->tol) : k->tol);
    k->lim2 = fw_mul(lim, lim);
    fw touch = fw_add(k->m, k->tol);
    k->touch2 = fw_mul(touch, touch);
    k->core2 = fw_min(fw_splat(GJKB_K_TINY), k->touch2);
    k->far = distance_mode ? mw_and(k->valid, fw_gt(tl, fw_mul(extent, fw_splat(GJKB_K_FAR)))) : mw_false();
}

/* Search direction: the warm axis where usable, else the centre offset t,
 * else any axis. */
static GJKB_INLINE v3w pk_direction(const gjkb__world *world, size_t o, const fw ra[9], v3w t, fw tl)
{
    v3w dir = v3_sel(fw_gt(tl, fw_zero()), t, v3_splat(1.0f, 0.0f, 0.0f));
    if (world->lane_wx) {
        v3w warm = v3_load(world->lane_wx + o, world->lane_wy + o, world->lane_wz + o);
        v3w wl = m3_mul_t(ra, warm);
        fw wl2 = v3_dot(wl, wl);
        dir = v3_sel(mw_and(fw_gt(wl2, fw_zero()), fw_isfinite(wl2)), wl, dir);
    }
    return dir;
}

/* The pair's frame for lanes that run a loop: both rotations, B's pose in
 * A's frame, the scale, the sides scaled and the limits. */
static GJKB_INLINE void pk_frame(const gjkb__world *world, size_t o, const body_w *ba, const body_w *bb, fw qa,
                                 fw qb, v3w r, fw extent, const int distance_mode, pack_w *k)
{
    fw rb[9];
    pk_rotation(world, ba, qa, k->ra);
    pk_rotation(world, bb, qb, rb);
    const fw *ra = k->ra;
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++)
            k->pose.r[3 * row + col] = fw_add(fw_add(fw_mul(ra[row], rb[col]), fw_mul(ra[3 + row], rb[3 + col])),
                                              fw_mul(ra[6 + row], rb[6 + col]));
    v3w t = m3_mul_t(ra, r);
    fw tl = fw_sqrt(v3_dot(t, t));
    fw scale = pk_scale(extent, tl);
    /* 1/scale, exact: the exponent mirrored about the bias. */
    fw inv_scale = fw_from_bits(iw_sub(iw_splat(0x7F000000), fw_bits(scale)));
    pk_scale_side(&k->sa, inv_scale, k->valid);
    pk_scale_side(&k->sb, inv_scale, k->valid);
    k->pose.t = v3_scale(t, inv_scale);
    k->scale = scale;
    k->inv_scale = inv_scale;
    k->ma = k->sa.c.margin;
    k->mb = k->sb.c.margin;
    k->m = fw_add(k->ma, k->mb);
    pk_limits(world, extent, tl, distance_mode, k);
    k->dir = pk_direction(world, o, ra, t, tl);
}

/* A bundle answered early: the frame's values defined, none used. */
static GJKB_INLINE void pk_no_frame(pack_w *k)
{
    const fw zero = fw_zero();
    for (int i = 0; i < 9; i++)
        k->ra[i] = k->pose.r[i] = zero;
    k->pose.t = k->dir = v3_zero();
    k->scale = k->inv_scale = k->ma = k->mb = k->m = zero;
    k->tol = k->lim2 = k->touch2 = k->core2 = zero;
}

/* Pack: the lanes' bodies, kinds and B's offset from A (laid out by the
 * pipeline), their validity and, on the lanes' first pass (`first`), the
 * early verdicts (pk_early); the pair's frame only where some lane needs
 * it (a bundle answered early leaves it zero), and then on a first pass
 * the box pairs decided by their separating axes (sat.inl): hit mode both
 * ways, distance mode where the cores overlap. Later passes hold only
 * lanes the first left open: the same verdicts would find nothing. */
static GJKB_INLINE void pk_bundle(const gjkb__world *world, uint32_t count, size_t o, const int distance_mode,
                                  const int first, pack_w *k)
{
    iw ia = iw_load(world->lane_a + o), ib = iw_load(world->lane_b + o);
    iw ka = iw_load(world->lane_ka + o), kb = iw_load(world->lane_kb + o);
    v3w r = v3_load(world->lane_dx + o, world->lane_dy + o, world->lane_dz + o);
    fw rr = v3_dot(r, r), qa, qb;
    mw valid = mw_and(mw_first_n((int)(count - (uint32_t)o)), sh_coords_ok(r.x, r.y, r.z, r.z, rr));
    body_w ba = pk_load_body(world, ia), bb = pk_load_body(world, ib);
    valid = mw_and(valid, mw_and(pk_rotation_ok(world, &ba, &qa), pk_rotation_ok(world, &bb, &qb)));
    fw ext_a, ext_b, in_a, in_b;
    k->sa = pk_side(world, &ba, ia, ka, &valid, &ext_a, &in_a);
    k->sb = pk_side(world, &bb, ib, kb, &valid, &ext_b, &in_b);
    k->valid = valid;
    k->far = mw_false();
    fw extent = fw_add(ext_a, ext_b);
    if (first)
        pk_early(world, extent, in_a, in_b, fw_sqrt(rr), distance_mode, k);
    else
        k->apart = k->deep = mw_false();
    mw go = mw_andnot(mw_andnot(valid, k->apart), k->deep);
    if (!mw_any(go)) {
        pk_no_frame(k);
        return;
    }
    pk_frame(world, o, &ba, &bb, qa, qb, r, extent, distance_mode, k);
    mw boxes = mw_and(go, mw_and(iw_eq(ka, iw_splat(GJKB_BOX)), iw_eq(kb, iw_splat(GJKB_BOX))));
    if (first && !(distance_mode && world->contact) && mw_any(boxes)) {
        mw apart, overlap;
        sat_boxes(k->sa.c.h, k->sb.c.h, k->pose.r, k->pose.t, k->m, k->tol, boxes, &apart, &overlap);
        if (!distance_mode)   /* distance mode needs the gap's length */
            k->apart = mw_or(k->apart, apart);
        k->deep = mw_or(k->deep, overlap);
    }
}

/* Support point of the pair's difference in direction d (support.inl). */
static GJKB_INLINE v3w pk_support(const pack_w *k, v3w d, const gjkb__world *w, mw active, v3w *pa, v3w *pb)
{
    return sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, d, w, active, pa, pb);
}
