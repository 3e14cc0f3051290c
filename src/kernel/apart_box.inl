/* apart_box.inl - two separated boxes' distance from their separating
 * axes (contact_box.inl), without GJK. The axis of least overlap proves
 * the cores at least sep apart, since no plane separates them by more than
 * their distance. Where the features that reach furthest along it realize
 * that gap (a corner of one box over the other's face, or two edges whose
 * nearest points lie within both), the distance is sep and those points
 * are the witnesses. Elsewhere (a corner past the face's rim, an edge's
 * nearest point past its end, a badly conditioned axis) the loops decide.
 *
 * In A's scaled frame, as contact_box.inl: A's half extents ha at the
 * origin, B's hb at t with its axes the columns of r. */

/* A point counts as within a face or an edge only this many float errors
 * of the pair's lengths (CB_ERR of them) inside its rim: nearer, other
 * features may be nearer and float cannot tell. */
#define AB_INSIDE 16.0f

/* B's corner furthest along -n, its axis `skip` (a mask per lane) left at
 * the centre: B's support point along -n (an edge's midpoint where skip
 * is set). */
static GJKB_INLINE v3w ab_support_b(const pack_w *k, v3w n, const mw skip[3])
{
    const fw h[3] = { k->sb.c.h.x, k->sb.c.h.y, k->sb.c.h.z };
    v3w p = k->pose.t;
    for (int m = 0; m < 3; m++) {
        v3w c = m3_col(k->pose.r, m);
        fw s = fw_sel(skip[m], fw_zero(), fw_copysign(h[m], fw_neg(v3_dot(n, c))));
        p = v3_madd(p, c, s);
    }
    return p;
}

/* A's corner furthest along n, its axis `skip` left at the centre. */
static GJKB_INLINE v3w ab_support_a(const pack_w *k, v3w n, const mw skip[3])
{
    const v3w h = k->sa.c.h;
    return v3_make(fw_sel(skip[0], fw_zero(), fw_copysign(h.x, n.x)),
                   fw_sel(skip[1], fw_zero(), fw_copysign(h.y, n.y)),
                   fw_sel(skip[2], fw_zero(), fw_copysign(h.z, n.z)));
}

/* Whether |x| lies inside h by more than in. */
static GJKB_INLINE mw ab_within(fw x, fw h, fw in)
{
    return fw_lt(fw_abs(x), fw_sub(h, in));
}

/* A's face (axis number i < 3): B's corner over it. */
static GJKB_INLINE mw ab_face_a(const pack_w *k, v3w n, iw axis, fw in, v3w *a, v3w *b)
{
    const mw none[3] = { mw_false(), mw_false(), mw_false() };
    *b = ab_support_b(k, n, none);
    fw gap = fw_sub(v3_dot(n, *b), v3_dot(v3_make(fw_abs(n.x), fw_abs(n.y), fw_abs(n.z)), k->sa.c.h));
    *a = v3_madd(*b, n, fw_neg(gap));
    mw ok = mw_true();
    for (int c = 0; c < 3; c++)
        ok = mw_and(ok, mw_or(iw_eq(axis, iw_splat(c)), ab_within(cb_comp(*a, c), cb_comp(k->sa.c.h, c), in)));
    return ok;
}

/* B's face (axis number 3 + j): A's corner over it, seen in B's frame. */
static GJKB_INLINE mw ab_face_b(const pack_w *k, v3w n, iw axis, fw in, v3w *a, v3w *b)
{
    const mw none[3] = { mw_false(), mw_false(), mw_false() };
    *a = ab_support_a(k, n, none);
    v3w in_b = m3_mul_t(k->pose.r, v3_sub(*a, k->pose.t));
    fw top = v3_dot(n, k->pose.t);
    mw ok = mw_true();
    for (int m = 0; m < 3; m++) {
        fw hm = cb_comp(k->sb.c.h, m);
        top = fw_sub(top, fw_mul(fw_abs(v3_dot(n, m3_col(k->pose.r, m))), hm));
        ok = mw_and(ok, mw_or(iw_eq(axis, iw_splat(CB_AXIS_B + m)), ab_within(cb_comp(in_b, m), hm, in)));
    }
    *b = v3_madd(*a, n, fw_sub(top, v3_dot(n, *a)));
    return ok;
}

/* A's edge i across B's edge j (axis number 6 + 3 i + j): the nearest
 * points of their lines, each within its edge. */
static GJKB_INLINE mw ab_edges(const pack_w *k, v3w n, iw axis, fw err, v3w *a, v3w *b)
{
    mw ia[3], jb[3];
    for (int i = 0; i < 3; i++) {
        iw first = iw_splat(CB_AXIS_EDGES + 3 * i);
        ia[i] = mw_and(iw_lt(first, iw_add(axis, iw_splat(1))), iw_lt(axis, iw_add(first, iw_splat(3))));
    }
    iw j = iw_sub(iw_sub(axis, iw_splat(CB_AXIS_EDGES)),
                  iw_sel(ia[1], iw_splat(3), iw_sel(ia[2], iw_splat(6), iw_zero())));
    for (int m = 0; m < 3; m++)
        jb[m] = iw_eq(j, iw_splat(m));
    v3w u = ab_support_a(k, n, ia), v = ab_support_b(k, n, jb);
    const fw *r = k->pose.r;
    v3w dir = v3_sel(jb[0], m3_col(r, 0), v3_sel(jb[1], m3_col(r, 1), m3_col(r, 2)));
    v3w d0 = v3_sub(u, v);
    /* e_i . dir and e_i . d0; the lines' nearest points u + s e_i, v + w dir */
    fw c = fw_sel(ia[0], dir.x, fw_sel(ia[1], dir.y, dir.z));
    fw di = fw_sel(ia[0], d0.x, fw_sel(ia[1], d0.y, d0.z));
    fw den = fw_sub(v3_dot(dir, dir), fw_mul(c, c));
    mw fine = fw_gt(den, fw_zero());
    fw w = fw_div(fw_sub(v3_dot(d0, dir), fw_mul(di, c)), fw_sel(fine, den, fw_splat(1.0f)));
    fw s = fw_sub(fw_mul(w, c), di);
    fw in = fw_div(fw_mul(fw_splat(AB_INSIDE), err), fw_sel(fine, den, fw_splat(1.0f)));
    fw hi = fw_sel(ia[0], k->sa.c.h.x, fw_sel(ia[1], k->sa.c.h.y, k->sa.c.h.z));
    fw hj = fw_sel(jb[0], k->sb.c.h.x, fw_sel(jb[1], k->sb.c.h.y, k->sb.c.h.z));
    *a = v3_add(u, v3_make(fw_sel(ia[0], s, fw_zero()), fw_sel(ia[1], s, fw_zero()), fw_sel(ia[2], s, fw_zero())));
    *b = v3_madd(v, dir, w);
    return mw_and(fine, mw_and(ab_within(s, hi, in), ab_within(w, hj, in)));
}

/* Lanes m, two boxes, their least-overlap axis from cb_sat_axis (n, sep,
 * refine, axis): where it proves the cores apart and the supporting
 * features realize the gap, the answer as the closed forms give theirs
 * (contact_sphere.inl's cs_out: the cores' distance, less the margins, the
 * normal from A to B, A's witness); ok where it holds. */
static GJKB_INLINE cs_out ab_answer(const pack_w *k, mw m, v3w n, fw sep, mw refine, iw axis)
{
    cs_out c;
    c.n = n;
    c.key = iw_zero();
    m = mw_andnot(mw_and(m, fw_gt(sep, fw_zero())), refine);
    v3w a = v3_zero(), b = v3_zero();
    mw ok = mw_false();
    if (mw_any(m)) {
        fw err = cb_err(k), in = fw_mul(err, fw_splat(AB_INSIDE));
        mw face_a = iw_lt(axis, iw_splat(CB_AXIS_B)), edges = iw_lt(iw_splat(CB_AXIS_EDGES - 1), axis);
        mw face_b = mw_andnot(mw_not(face_a), edges);
        v3w fa, fb;
        if (mw_any(mw_and(m, face_a))) {
            mw got = ab_face_a(k, n, axis, in, &fa, &fb);
            a = v3_sel(face_a, fa, a), b = v3_sel(face_a, fb, b);
            ok = mw_or(ok, mw_and(face_a, got));
        }
        if (mw_any(mw_and(m, face_b))) {
            mw got = ab_face_b(k, n, axis, in, &fa, &fb);
            a = v3_sel(face_b, fa, a), b = v3_sel(face_b, fb, b);
            ok = mw_or(ok, mw_and(face_b, got));
        }
        if (mw_any(mw_and(m, edges))) {
            mw got = ab_edges(k, n, axis, err, &fa, &fb);
            a = v3_sel(edges, fa, a), b = v3_sel(edges, fb, b);
            ok = mw_or(ok, mw_and(edges, got));
        }
    }
    c.core = v3_dot(n, v3_sub(b, a));
    c.dist = fw_sub(c.core, k->m);
    c.a = v3_madd(a, n, k->ma);
    c.ok = mw_and(mw_and(m, ok), mw_and(fw_gt(c.core, fw_zero()), fw_isfinite(fw_add(c.core, v3_dot(c.a, c.a)))));
    return c;
}

/* The valid lanes that are two boxes. */
static GJKB_INLINE mw ab_lanes(const gjkb__world *w, size_t o, const pack_w *k)
{
    const iw box = iw_splat(GJKB_BOX);
    return mw_and(k->valid, mw_and(iw_eq(iw_load(w->lane_ka + o), box), iw_eq(iw_load(w->lane_kb + o), box)));
}
