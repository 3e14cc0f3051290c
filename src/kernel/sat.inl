/* sat.inl - two boxes' separating axes: hit mode's verdict on a box pair
 * before any support (pack.inl), and distance mode's where the cores
 * overlap, from the 15 axes of the separating axis
 * theorem (A's 3 face normals, B's 3, and the 9 crosses of their edges).
 *
 * In the pair's scaled frame: A's box of half extents a at the origin, B's
 * of half extents b at t with axes the columns of r. Along an axis L the
 * cores' gap is |t.L| - sum a_i |L_i| - sum b_k |B_k.L|, unnormalized for
 * the edge crosses (their L are r's entries, exact). A lane is decided
 * only where float cannot have turned the verdict:
 *   apart    one axis's gap exceeds the margins and the touching band by
 *            SAT_SLACK of the pair's size (times |L|);
 *   overlap  every axis shows the cores overlapping by that slack plus
 *            `short`, an edge cross shorter than SAT_PARALLEL (nearly
 *            parallel edges: no axis float can trust) aside. Skipping one
 *            is sound: where A's axis i and B's axis k are parallel to
 *            sin s, along any direction d square to A's axis i, B's reach
 *            is a parallelogram's (its axes m, n other than k, projected)
 *            plus at most b_k s. The least overlap over such d is then at
 *            the edge normals of A's rectangle and that parallelogram (A's
 *            faces other than i, the crosses of A's axis i with B's axes m
 *            and n: long ones, since those axes are nearly square to A's
 *            axis i), less b_k s. So every other axis overlapping by more
 *            than b_k s (`short`, the largest over the skipped crosses)
 *            shows the skipped cross overlapping too.
 * The rest, near touching or with nearly parallel edges, run GJK as
 * before. B's face axes are r's columns, a rotation to a few ulps: what
 * that costs is within the slack. contact_box.inl runs the same axes for
 * contact mode's depth (the least overlap and its normal, with its own
 * error rule); this file only proves a verdict, so it needs neither
 * divisions nor a best axis. */

#define SAT_SLACK 0x1p-16f
#define SAT_PARALLEL 0x1p-12f

/* What the axes found so far: a proof of a gap, and whether every axis
 * so far shows the cores overlapping; per lane, the slack (SAT_SLACK of
 * |t| + the half extents + the margins) and the gap an apart axis needs
 * (the margins and the touching band, rounded up), each per unit of |L|. */
typedef struct sat_state {
    mw apart, overlap;
    fw err, need, deep;
} sat_state;

/* One axis of length len (0: untrusted, skipped) with the cores'
 * projections gap apart. */
static GJKB_INLINE void sat_axis(sat_state *s, fw gap, fw len)
{
    fw err = fw_mul(s->err, len);
    mw used = fw_gt(len, fw_zero());
    s->apart = mw_or(s->apart, mw_and(used, fw_gt(gap, fw_add(fw_mul(s->need, len), err))));
    s->overlap = mw_and(s->overlap, mw_or(mw_not(used), fw_lt(gap, fw_neg(fw_mul(s->deep, len)))));
}

/* The half extents' reach along L: sum h_i |L_i|. */
static GJKB_INLINE fw sat_reach(v3w h, v3w l)
{
    return fw_add(fw_add(fw_mul(h.x, fw_abs(l.x)), fw_mul(h.y, fw_abs(l.y))), fw_mul(h.z, fw_abs(l.z)));
}

/* v's components other than i, (i, j, k) a turn of (0, 1, 2): p = v_k,
 * q = v_j. A's axis i crossed with v is then L = q e_k - p e_j. */
static GJKB_INLINE void sat_pick(v3w v, int i, fw *p, fw *q)
{
    *p = i == 0 ? v.z : i == 1 ? v.x : v.y;
    *q = i == 0 ? v.y : i == 1 ? v.z : v.x;
}

/* x . (e_i x c) with c's picks (cp, cq): x_k cq - x_j cp. */
static GJKB_INLINE fw sat_dot_cross(v3w x, int i, fw cp, fw cq)
{
    fw xp, xq;
    sat_pick(x, i, &xp, &xq);
    return fw_sub(fw_mul(xp, cq), fw_mul(xq, cp));
}

/* The length of the edge cross of A's axis i and B's axis k (column
 * col[k]), 0 where it is too short to trust; *l gets its length anyway. */
static GJKB_INLINE fw sat_cross_len(const v3w col[3], int i, int k, fw *l)
{
    fw cp, cq;
    sat_pick(col[k], i, &cp, &cq);
    fw l2 = fw_add(fw_mul(cp, cp), fw_mul(cq, cq));
    *l = fw_sqrt(l2);
    return fw_sel(fw_ge(l2, fw_splat(SAT_PARALLEL * SAT_PARALLEL)), *l, fw_zero());
}

/* The edge cross of A's axis i and B's axis k (column col[k]). */
static GJKB_INLINE void sat_edge(sat_state *s, v3w a, v3w b, const v3w col[3], v3w t, int i, int k, fw len)
{
    fw cp, cq, ap, aq;
    sat_pick(col[k], i, &cp, &cq);
    sat_pick(a, i, &ap, &aq);
    /* A's reach: a_j |L_j| + a_k |L_k| */
    fw reach = fw_add(fw_mul(aq, fw_abs(cp)), fw_mul(ap, fw_abs(cq)));
    const fw bh[3] = { b.x, b.y, b.z };
    for (int j = 0; j < 3; j++)
        if (j != k)   /* B_k . L = 0 */
            reach = fw_add(reach, fw_mul(bh[j], fw_abs(sat_dot_cross(col[j], i, cp, cq))));
    sat_axis(s, fw_sub(fw_abs(sat_dot_cross(t, i, cp, cq)), reach), len);
}

/* The lanes `lanes` (two boxes): *apart and *overlap where the axes decide
 * (m the margins' sum, tol the touching band, scaled). */
static GJKB_INLINE void sat_boxes(v3w a, v3w b, const fw r[9], v3w t, fw m, fw tol, mw lanes, mw *apart,
                                  mw *overlap)
{
    const fw one = fw_splat(1.0f);
    const v3w col[3] = { m3_col(r, 0), m3_col(r, 1), m3_col(r, 2) };
    const fw ta[3] = { t.x, t.y, t.z }, ah[3] = { a.x, a.y, a.z }, bh[3] = { b.x, b.y, b.z };
    fw size = fw_add(fw_add(fw_sqrt(v3_dot(t, t)), fw_add(fw_add(a.x, a.y), a.z)),
                     fw_add(fw_add(fw_add(b.x, b.y), b.z), m));
    sat_state s = { .apart = mw_false(), .overlap = lanes, .err = fw_mul(fw_splat(SAT_SLACK), size),
                    .need = fw_mul(fw_add(m, tol), fw_splat(1.0f + 0x1p-10f)) };
    /* The crosses' lengths, and what the skipped ones ask of the others:
     * b_k s, rounded up by the slack. */
    fw len[3][3], shorts = fw_zero();
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            fw l;
            len[i][k] = sat_cross_len(col, i, k, &l);
            shorts = fw_max(shorts, fw_sel(fw_eq(len[i][k], fw_zero()), fw_mul(bh[k], l), fw_zero()));
        }
    s.deep = fw_add(s.err, fw_mul(shorts, fw_splat(1.0f + 0x1p-10f)));
    for (int i = 0; i < 3; i++) {
        sat_axis(&s, fw_sub(fw_sub(fw_abs(ta[i]), ah[i]), sat_reach(b, m3_row(r, i))), one);
    }
    for (int k = 0; k < 3; k++)
        sat_axis(&s, fw_sub(fw_sub(fw_abs(v3_dot(t, col[k])), sat_reach(a, col[k])), bh[k]), one);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            sat_edge(&s, a, b, col, t, i, k, len[i][k]);
    *apart = mw_and(lanes, s.apart);
    *overlap = mw_andnot(mw_and(lanes, s.overlap), s.apart);
}
