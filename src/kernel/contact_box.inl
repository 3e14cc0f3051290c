/* contact_box.inl - penetration of two boxes across lanes by the
 * separating-axis test (Gottschalk, Lin, Manocha 1996: OBBTree): the 15
 * candidate axes (3 face normals of each box, 9 edge-edge crosses) contain
 * the direction of the shortest translation of two overlapping boxes, so
 * the least overlap over them is the exact penetration depth.
 *
 * In A's scaled frame: A's half extents a, B's b, B's axes the columns of
 * R (pose.r), B's centre t. Edge axes are computed unnormalized and divided
 * by their length, so a nearly parallel pair of edges (short cross) carries
 * float error divided by that length: such an axis that could be the
 * answer sends the lane to the double-precision reference. */

/* Float error of an axis' separation, per unit of the lengths involved
 * (|t| and the half extents), before the division by the axis length. */
#define CB_ERR 1e-7f
/* An axis whose separation may be off by more than this (scaled units)
 * must not decide: the answer's depth is promised within 1e-5 of the
 * pair's scale. */
#define CB_ERR_MAX 4e-6f
/* Crosses shorter than this (squared) are parallel edges: no axis. */
#define CB_PARALLEL 1e-12f

/* The best axis so far: its separation, its unit direction from A to B,
 * which of the 15 it is (CB_AXIS_*), and whether a badly conditioned axis
 * came within its error of it. */
typedef struct cb_best {
    fw sep;
    v3w n;
    iw axis;
    fw err_top;     /* largest sep + err of the badly conditioned axes */
} cb_best;

/* The axes' numbers: A's face normal i is i, B's j is 3 + j, the cross of
 * A's edge i and B's edge j is 6 + 3 i + j. */
enum { CB_AXIS_B = 3, CB_AXIS_EDGES = 6 };

/* Axis L (unnormalized, 1 / its length inv, ok where it has one) with
 * separation numerator num (|t.L| - r_A - r_B) and error bound err: kept
 * when it separates more. */
static GJKB_INLINE void cb_take_inv(cb_best *b, int axis, v3w l, fw tl, fw num, mw ok, fw inv, fw err)
{
    fw sep = fw_mul(num, inv), e = fw_mul(err, inv);
    mw bad = fw_gt(e, fw_splat(CB_ERR_MAX));
    b->err_top = fw_sel(mw_and(ok, bad), fw_max(b->err_top, fw_add(sep, e)), b->err_top);
    mw better = mw_and(mw_and(ok, mw_not(bad)), fw_gt(sep, b->sep));
    /* from A toward B: the sign of t.L (+ when t is across the axis) */
    fw s = fw_mul(fw_copysign(fw_splat(1.0f), tl), inv);
    b->sep = fw_sel(better, sep, b->sep);
    b->n = v3_sel(better, v3_scale(l, s), b->n);
    b->axis = iw_sel(better, iw_splat(axis), b->axis);
}

/* The same for an axis of length len (none where len is 0). */
static GJKB_INLINE void cb_take(cb_best *b, int axis, v3w l, fw tl, fw num, fw len, fw err)
{
    mw ok = fw_gt(len, fw_zero());
    cb_take_inv(b, axis, l, tl, num, ok, fw_div(fw_splat(1.0f), fw_sel(ok, len, fw_splat(1.0f))), err);
}

static GJKB_INLINE fw cb_comp(v3w v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : v.z;
}

/* The float error of an axis' separation numerator: CB_ERR of the pair's
 * lengths (|t| and the half extents). */
static GJKB_INLINE fw cb_err(const pack_w *k)
{
    const v3w a = k->sa.c.h, b = k->sb.c.h, t = k->pose.t;
    fw scale = fw_add(fw_sqrt(v3_dot(t, t)), fw_add(fw_add(fw_add(a.x, a.y), a.z), fw_add(fw_add(b.x, b.y), b.z)));
    return fw_mul(scale, fw_splat(CB_ERR));
}

/* The least-overlap axis of the boxes: *sep its separation (> 0: apart,
 * the depth is -sep otherwise), the unit normal, and in *axis (when
 * given) its number; lanes where a badly conditioned edge axis could
 * decide come back in *refine. */
static GJKB_INLINE v3w cb_sat_axis(const pack_w *k, fw *sep, mw *refine, iw *axis)
{
    const fw *r = k->pose.r;
    const v3w a = k->sa.c.h, b = k->sb.c.h, t = k->pose.t;
    const fw ab[3] = { a.x, a.y, a.z }, bb[3] = { b.x, b.y, b.z };
    fw abs_r[9];
    for (int i = 0; i < 9; i++)
        abs_r[i] = fw_abs(r[i]);
    fw err = cb_err(k);
    cb_best best = { fw_splat(-INFINITY), v3_splat(1.0f, 0.0f, 0.0f), iw_zero(), fw_splat(-INFINITY) };
    /* A's faces */
    for (int i = 0; i < 3; i++) {
        fw rb = fw_add(fw_add(fw_mul(bb[0], abs_r[3 * i]), fw_mul(bb[1], abs_r[3 * i + 1])), fw_mul(bb[2], abs_r[3 * i + 2]));
        fw ti = cb_comp(t, i);
        v3w l = v3_make(fw_splat(i == 0), fw_splat(i == 1), fw_splat(i == 2));
        cb_take_inv(&best, i, l, ti, fw_sub(fw_abs(ti), fw_add(ab[i], rb)), mw_true(), fw_splat(1.0f), err);
    }
    /* B's faces */
    for (int j = 0; j < 3; j++) {
        v3w l = m3_col(r, j);
        fw ra = fw_add(fw_add(fw_mul(ab[0], abs_r[j]), fw_mul(ab[1], abs_r[3 + j])), fw_mul(ab[2], abs_r[6 + j]));
        fw tl = v3_dot(t, l);
        cb_take(&best, CB_AXIS_B + j, l, tl, fw_sub(fw_abs(tl), fw_add(ra, bb[j])), fw_sqrt(v3_dot(l, l)), err);
    }
    /* edge i of A across edge j of B: L = e_i x R_j */
    for (int i = 0; i < 3; i++) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            v3w l = v3_cross(v3_make(fw_splat(i == 0), fw_splat(i == 1), fw_splat(i == 2)), m3_col(r, j));
            fw tl = v3_dot(t, l);
            fw ra = fw_add(fw_mul(ab[i1], abs_r[3 * i2 + j]), fw_mul(ab[i2], abs_r[3 * i1 + j]));
            fw rb = fw_add(fw_mul(bb[j1], abs_r[3 * i + j2]), fw_mul(bb[j2], abs_r[3 * i + j1]));
            fw len2 = v3_dot(l, l);
            fw len = fw_sel(fw_gt(len2, fw_splat(CB_PARALLEL)), fw_sqrt(len2), fw_zero());
            cb_take(&best, CB_AXIS_EDGES + 3 * i + j, l, tl, fw_sub(fw_abs(tl), fw_add(ra, rb)), len, err);
        }
    }
    *sep = best.sep;
    *refine = fw_ge(best.err_top, best.sep);
    if (axis)
        *axis = best.axis;
    return best.n;
}

static GJKB_INLINE v3w cb_sat(const pack_w *k, fw *sep, mw *refine)
{
    return cb_sat_axis(k, sep, refine, NULL);
}
