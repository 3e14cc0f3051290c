/* manifold_box.inl - the contact manifold of two boxes across lanes, for a
 * given normal n (A's scaled frame, from A to B): A's face most aligned
 * with n and B's face most aligned with -n, B's projected along n onto
 * A's face plane and clipped against A's face there (Liang-Barsky per edge
 * of B's face, plus A's corners inside B's projection), each point's
 * separation along n kept up to a limit, reduced to at most four: the
 * deepest (snapped to the pair's distance), the farthest from it, then the
 * points adding the most area. The same rule as the reference's
 * (docs/contacts.md), written here for float lanes.
 *
 * The work is done in A's face frame: w along the face's axis k, then u, v
 * the next two axes cyclically, so every lane runs the same code whatever
 * its face. Every point carries the features that made it, packed as in
 * gjkb_manifolds: a vertex of one box over the other's face, or two
 * crossing edges. */

/* Candidates: four edges of B's face (a start and an exit each) and A's
 * four face corners. */
enum { MB_CANDS = 12 };
/* Two candidates closer than this (scaled units) are one point; a point
 * adding less area than MB_AREA_EPS (twice the area) spans nothing new:
 * the reference's M_SPAN_DIST and M_SPAN_AREA. */
#define MB_DIST_EPS 1e-6f
#define MB_AREA_EPS 1e-10f
/* Points up to this far above the deepest per unit of the manifold's
 * extent are kept: a face tilted by the feature angle of the reference
 * (REF_FACE_SIN) rises that much. */
#define MB_RISE 1.5e-3f
/* A candidate this close to the limit (scaled units: a few float roundings
 * of its separation) could fall on either side of it in double: the lane
 * goes to the reference, so that both count the same points. */
#define MB_SEP_EPS 4e-6f

/* Candidates: clipped in A's face plane (u, v), then seen along n in
 * an orthonormal frame of the plane perpendicular to n (mb_view), where
 * the reduction measures distances and areas as the reference does. */
typedef struct mb_cand {
    fw x[MB_CANDS], y[MB_CANDS], sep[MB_CANDS];
    iw key[MB_CANDS];
    mw ok[MB_CANDS];
} mb_cand;

/* The linear map from A's face plane (u, v) to the plane perpendicular
 * to n seen along n: rows (a, b) and (c, d), determinant n . A's face
 * normal (> 0.57). */
typedef struct mb_view {
    fw a, b, c, d, det;
} mb_view;

static GJKB_INLINE mb_view mb_view_of(v3w nf)
{
    /* p1: u with its part along n removed, p2 = n x p1 (unit) */
    fw len = fw_sqrt(fw_sub(fw_splat(1.0f), fw_mul(nf.y, nf.y)));
    fw inv = fw_div(fw_splat(1.0f), len);
    v3w p1 = v3_scale(v3_make(fw_neg(fw_mul(nf.y, nf.x)), fw_sub(fw_splat(1.0f), fw_mul(nf.y, nf.y)),
                              fw_neg(fw_mul(nf.y, nf.z))), inv);
    v3w p2 = v3_cross(nf, p1);
    mb_view v = { p1.y, p1.z, p2.y, p2.z, fw_zero() };
    v.det = fw_sub(fw_mul(v.a, v.d), fw_mul(v.b, v.c));
    return v;
}

static GJKB_INLINE void mb_to_view(const mb_view *v, mb_cand *c)
{
    for (int i = 0; i < MB_CANDS; i++) {
        fw x = c->x[i], y = c->y[i];
        c->x[i] = fw_add(fw_mul(v->a, x), fw_mul(v->b, y));
        c->y[i] = fw_add(fw_mul(v->c, x), fw_mul(v->d, y));
    }
}

/* A point of the view back in A's face plane: (u, v). */
static GJKB_INLINE void mb_from_view(const mb_view *v, fw x, fw y, fw *u, fw *w)
{
    fw inv = fw_div(fw_splat(1.0f), v->det);
    *u = fw_mul(fw_sub(fw_mul(v->d, x), fw_mul(v->b, y)), inv);
    *w = fw_mul(fw_sub(fw_mul(v->a, y), fw_mul(v->c, x)), inv);
}

/* Up to four contact points: A's point, its separation along n, keys. */
typedef struct mb_out {
    iw count;
    v3w a[GJKB_MAX_CONTACTS];
    fw sep[GJKB_MAX_CONTACTS];
    iw key[GJKB_MAX_CONTACTS];
} mb_out;

/* The lanes' face axis k as two masks: k == 0, k == 1 (else 2). */
typedef struct mb_axis {
    mw k0, k1;
} mb_axis;

static GJKB_INLINE fw mb_pick(mb_axis ax, fw x, fw y, fw z)
{
    return fw_sel(ax.k0, x, fw_sel(ax.k1, y, z));
}

static GJKB_INLINE iw mb_ipick(mb_axis ax, int x, int y, int z)
{
    return iw_sel(ax.k0, iw_splat(x), iw_sel(ax.k1, iw_splat(y), iw_splat(z)));
}

/* (x, y, z) in the face frame (w, u, v) and back. */
static GJKB_INLINE v3w mb_to_face(mb_axis ax, v3w p)
{
    return v3_make(mb_pick(ax, p.x, p.y, p.z), mb_pick(ax, p.y, p.z, p.x), mb_pick(ax, p.z, p.x, p.y));
}

static GJKB_INLINE v3w mb_from_face(mb_axis ax, v3w f)
{
    return v3_make(mb_pick(ax, f.x, f.z, f.y), mb_pick(ax, f.y, f.x, f.z), mb_pick(ax, f.z, f.y, f.x));
}

/* The axis of largest |c| (ties to the lowest). */
static GJKB_INLINE mb_axis mb_largest(fw cx, fw cy, fw cz)
{
    fw x = fw_abs(cx), y = fw_abs(cy), z = fw_abs(cz);
    mb_axis ax;
    ax.k0 = mw_and(fw_ge(x, y), fw_ge(x, z));
    ax.k1 = mw_andnot(fw_ge(y, z), ax.k0);
    return ax;
}

/* Feature keys (gjkb_manifolds): type << 14 | index. */
static GJKB_INLINE iw mb_key(int type, iw index)
{
    return iw_add(iw_splat(type << 14), index);
}

/* A box's face on axis k (0..2), positive side or not. */
static GJKB_INLINE iw mb_face_key(iw k, mw positive)
{
    return mb_key(2, iw_add(iw_add(k, k), iw_sel(positive, iw_splat(1), iw_zero())));
}

/* The edge of a box along the axis of bit d (1, 2 or 4) through vertex
 * id (bit i set: coordinate i positive): 4 axis + the bits of the two
 * other axes in increasing order (the reference's packing). */
static GJKB_INLINE iw mb_edge_key(iw id, iw d)
{
    const iw one = iw_splat(1);
    mw x = iw_eq(d, one), y = iw_eq(d, iw_splat(2));
    mw z = mw_not(mw_or(x, y));
    iw b0 = iw_and(id, one), b1 = iw_and(iw_shr(id, 1), one), b2 = iw_and(iw_shr(id, 2), one);
    iw first = iw_sel(x, b1, b0), second = iw_sel(z, b1, b2);
    iw base = iw_sel(y, iw_splat(4), iw_sel(z, iw_splat(8), iw_zero()));
    return mb_key(1, iw_add(base, iw_add(first, iw_add(second, second))));
}

/* The two faces in A's face frame. */
typedef struct mb_faces {
    mb_axis ax;                 /* A's face axis k */
    fw s;                       /* its side: +-1 along k */
    v3w ha, np;                 /* A's half extents and n, face frame */
    fw nm;                      /* n . A's face normal (> 0) */
    iw a_face, a_base;          /* A's face key, the vertex bits of its side */
    iw a_edge[4];               /* A's face edges: u = -hu, u = +hu, v = -hv, v = +hv */
    iw a_vbit[2];               /* vertex bits of the u and v axes */
    fw x[4], y[4], sep[4];      /* B's face corners projected, and how far above */
    iw b_id[4], b_edge[4], b_face;
    v3w m;                      /* B's face normal (A's frame) and m . its centre */
    fw mc;
} mb_faces;

/* A's face most aligned with n: its frame, keys and edges. */
static GJKB_INLINE void mb_face_a(const pack_w *k, v3w n, mb_faces *f)
{
    f->ax = mb_largest(n.x, n.y, n.z);
    f->np = mb_to_face(f->ax, n);
    f->s = fw_copysign(fw_splat(1.0f), f->np.x);
    f->nm = fw_abs(f->np.x);
    f->ha = mb_to_face(f->ax, k->sa.c.h);
    mw pos = fw_gt(f->np.x, fw_zero());
    iw kbit = mb_ipick(f->ax, 1, 2, 4), ubit = mb_ipick(f->ax, 2, 4, 1), vbit = mb_ipick(f->ax, 4, 1, 2);
    f->a_face = mb_face_key(mb_ipick(f->ax, 0, 1, 2), pos);
    f->a_base = iw_sel(pos, kbit, iw_zero());
    f->a_vbit[0] = ubit;
    f->a_vbit[1] = vbit;
    f->a_edge[0] = mb_edge_key(f->a_base, vbit);
    f->a_edge[1] = mb_edge_key(iw_add(f->a_base, ubit), vbit);
    f->a_edge[2] = mb_edge_key(f->a_base, ubit);
    f->a_edge[3] = mb_edge_key(iw_add(f->a_base, vbit), ubit);
}

/* B's face most aligned with -n: its corners in order around it,
 * projected along n onto A's face plane, with their ids and edges. */
static GJKB_INLINE void mb_face_b(const pack_w *k, v3w n, mb_faces *f)
{
    const fw *r = k->pose.r;
    const v3w c0 = m3_col(r, 0), c1 = m3_col(r, 1), c2 = m3_col(r, 2), hb = k->sb.c.h;
    fw d0 = v3_dot(n, c0), d1 = v3_dot(n, c1), d2 = v3_dot(n, c2);
    mb_axis jx = mb_largest(d0, d1, d2);
    fw dj = mb_pick(jx, d0, d1, d2);
    mw up = fw_lt(dj, fw_zero());          /* B's face on the + side of axis j */
    v3w cj = v3_make(mb_pick(jx, c0.x, c1.x, c2.x), mb_pick(jx, c0.y, c1.y, c2.y), mb_pick(jx, c0.z, c1.z, c2.z));
    v3w cp = v3_make(mb_pick(jx, c1.x, c2.x, c0.x), mb_pick(jx, c1.y, c2.y, c0.y), mb_pick(jx, c1.z, c2.z, c0.z));
    v3w cq = v3_make(mb_pick(jx, c2.x, c0.x, c1.x), mb_pick(jx, c2.y, c0.y, c1.y), mb_pick(jx, c2.z, c0.z, c1.z));
    f->m = v3_scale(cj, fw_sel(up, fw_splat(1.0f), fw_splat(-1.0f)));
    v3w centre = v3_madd(k->pose.t, f->m, mb_pick(jx, hb.x, hb.y, hb.z));
    f->mc = v3_dot(f->m, centre);
    v3w p = v3_scale(cp, mb_pick(jx, hb.y, hb.z, hb.x)), q = v3_scale(cq, mb_pick(jx, hb.z, hb.x, hb.y));
    iw pbit = mb_ipick(jx, 2, 4, 1), qbit = mb_ipick(jx, 4, 1, 2);
    iw base = iw_sel(up, mb_ipick(jx, 1, 2, 4), iw_zero());
    f->b_face = mb_face_key(mb_ipick(jx, 0, 1, 2), up);
    static const float sp[4] = { 1, -1, -1, 1 }, sq[4] = { 1, 1, -1, -1 };
    for (int i = 0; i < 4; i++) {
        v3w corner = mb_to_face(f->ax, v3_madd(v3_madd(centre, p, fw_splat(sp[i])), q, fw_splat(sq[i])));
        fw sep = fw_div(fw_sub(fw_mul(f->s, corner.x), f->ha.x), f->nm);
        f->sep[i] = sep;
        f->x[i] = fw_sub(corner.y, fw_mul(f->np.y, sep));
        f->y[i] = fw_sub(corner.z, fw_mul(f->np.z, sep));
        f->b_id[i] = iw_add(base, iw_add(sp[i] > 0 ? pbit : iw_zero(), sq[i] > 0 ? qbit : iw_zero()));
    }
    /* edges 0 and 2 run along p, 1 and 3 along q */
    for (int i = 0; i < 4; i++)
        f->b_edge[i] = mb_edge_key(f->b_id[i], i % 2 ? qbit : pbit);
}

/* Feature pair of a point: A's key above B's. */
static GJKB_INLINE iw mb_pair_key(iw ka, iw kb)
{
    return iw_add(iw_shl(ka, 16), kb);
}

/* Liang-Barsky: B's edge i (corner i to i + 1) within A's face
 * |u| <= hu, |v| <= hv; where it enters (or starts) and where it leaves
 * when before its end, into candidates 2i and 2i + 1. */
static GJKB_INLINE void mb_clip_edge(const mb_faces *f, int i, mb_cand *c)
{
    const int j = (i + 1) % 4;
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    fw dx = fw_sub(f->x[j], f->x[i]), dy = fw_sub(f->y[j], f->y[i]), ds = fw_sub(f->sep[j], f->sep[i]);
    const fw p[4] = { fw_neg(dx), dx, fw_neg(dy), dy };
    const fw q[4] = { fw_add(f->x[i], f->ha.y), fw_sub(f->ha.y, f->x[i]), fw_add(f->y[i], f->ha.z),
                      fw_sub(f->ha.z, f->y[i]) };
    fw t0 = zero, t1 = one;
    iw in = iw_zero(), out = iw_zero();
    mw miss = mw_false();
    for (int s = 0; s < 4; s++) {
        mw flat = fw_eq(p[s], zero);
        miss = mw_or(miss, mw_and(flat, fw_lt(q[s], zero)));
        fw r = fw_div(q[s], fw_sel(flat, one, p[s]));
        mw enter = mw_and(fw_lt(p[s], zero), fw_gt(r, t0)), leave = mw_and(fw_gt(p[s], zero), fw_lt(r, t1));
        t0 = fw_sel(enter, r, t0);
        in = iw_sel(enter, iw_splat(s), in);
        t1 = fw_sel(leave, r, t1);
        out = iw_sel(leave, iw_splat(s), out);
    }
    mw ok = mw_and(mw_not(miss), fw_le(t0, t1));
    iw a_in = iw_sel(iw_eq(in, iw_splat(0)), f->a_edge[0], iw_sel(iw_eq(in, iw_splat(1)), f->a_edge[1],
                     iw_sel(iw_eq(in, iw_splat(2)), f->a_edge[2], f->a_edge[3])));
    iw a_out = iw_sel(iw_eq(out, iw_splat(0)), f->a_edge[0], iw_sel(iw_eq(out, iw_splat(1)), f->a_edge[1],
                      iw_sel(iw_eq(out, iw_splat(2)), f->a_edge[2], f->a_edge[3])));
    mw start = fw_eq(t0, zero);
    c->x[2 * i] = fw_add(f->x[i], fw_mul(t0, dx));
    c->y[2 * i] = fw_add(f->y[i], fw_mul(t0, dy));
    c->sep[2 * i] = fw_add(f->sep[i], fw_mul(t0, ds));
    c->key[2 * i] = iw_sel(start, mb_pair_key(f->a_face, mb_key(0, f->b_id[i])), mb_pair_key(a_in, f->b_edge[i]));
    c->ok[2 * i] = ok;
    c->x[2 * i + 1] = fw_add(f->x[i], fw_mul(t1, dx));
    c->y[2 * i + 1] = fw_add(f->y[i], fw_mul(t1, dy));
    c->sep[2 * i + 1] = fw_add(f->sep[i], fw_mul(t1, ds));
    c->key[2 * i + 1] = mb_pair_key(a_out, f->b_edge[i]);
    c->ok[2 * i + 1] = mw_and(ok, mw_and(fw_lt(t1, one), fw_gt(t1, t0)));
}

/* A's face corners inside B's projected face (strictly: a corner on its
 * boundary is an edge's crossing already), into candidates 8..11. */
static GJKB_INLINE void mb_corners(const mb_faces *f, v3w n, mb_cand *c)
{
    const fw zero = fw_zero();
    fw area = zero;
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        area = fw_add(area, fw_sub(fw_mul(f->x[i], f->y[j]), fw_mul(f->x[j], f->y[i])));
    }
    fw orient = fw_copysign(fw_splat(1.0f), area);
    fw mn = v3_dot(f->m, n);
    static const float su[4] = { -1, 1, 1, -1 }, sv[4] = { -1, -1, 1, 1 };
    for (int k = 0; k < 4; k++) {
        fw px = fw_mul(f->ha.y, fw_splat(su[k])), py = fw_mul(f->ha.z, fw_splat(sv[k]));
        mw inside = mw_true();
        for (int i = 0; i < 4; i++) {
            int j = (i + 1) % 4;
            fw cr = fw_sub(fw_mul(fw_sub(f->x[j], f->x[i]), fw_sub(py, f->y[i])),
                           fw_mul(fw_sub(f->y[j], f->y[i]), fw_sub(px, f->x[i])));
            inside = mw_and(inside, fw_gt(fw_mul(cr, orient), zero));
        }
        v3w a = mb_from_face(f->ax, v3_make(fw_mul(f->s, f->ha.x), px, py));
        iw id = iw_add(f->a_base, iw_add(su[k] > 0 ? f->a_vbit[0] : iw_zero(), sv[k] > 0 ? f->a_vbit[1] : iw_zero()));
        c->x[8 + k] = px;
        c->y[8 + k] = py;
        c->sep[8 + k] = fw_div(fw_sub(f->mc, v3_dot(f->m, a)), mn);
        c->key[8 + k] = mb_pair_key(mb_key(0, id), f->b_face);
        c->ok[8 + k] = inside;
    }
}

/* A chosen point: where in the face plane, its separation and keys. */
typedef struct mb_pt {
    fw x, y, sep;
    iw key;
} mb_pt;

static GJKB_INLINE mb_pt mb_take(mw m, const mb_cand *c, int i, mb_pt p)
{
    p.x = fw_sel(m, c->x[i], p.x);
    p.y = fw_sel(m, c->y[i], p.y);
    p.sep = fw_sel(m, c->sep[i], p.sep);
    p.key = iw_sel(m, c->key[i], p.key);
    return p;
}

static GJKB_INLINE fw mb_cross(mb_pt o, mb_pt a, fw bx, fw by)
{
    return fw_sub(fw_mul(fw_sub(a.x, o.x), fw_sub(by, o.y)), fw_mul(fw_sub(a.y, o.y), fw_sub(bx, o.x)));
}

/* Twice the area of the convex hull of p0, p1, p2 and (x, y): the largest
 * of the three quadrilateral orders and the four triangles. a012 is
 * cross(p0, p1, p2). A cross with two points swapped is the negated cross
 * exactly (the same products, subtracted the other way), so three crosses
 * with (x, y) give all seven. */
static GJKB_INLINE fw mb_area4(mb_pt p0, mb_pt p1, mb_pt p2, fw a012, fw x, fw y)
{
    fw b = mb_cross(p0, p1, x, y), c = mb_cross(p0, p2, x, y), e = mb_cross(p1, p2, x, y);
    /* shoelace of the orders 0 1 2 3, 0 1 3 2 and 0 3 1 2 */
    fw q0 = fw_abs(fw_add(a012, c)), q1 = fw_abs(fw_sub(b, c)), q2 = fw_abs(fw_sub(a012, b));
    fw t = fw_max(fw_max(fw_abs(a012), fw_abs(b)), fw_max(fw_abs(c), fw_abs(e)));
    return fw_max(fw_max(q0, q1), fw_max(q2, t));
}

/* The deepest kept candidate; none left: *none. */
static GJKB_INLINE mb_pt mb_deepest(const mb_cand *c, mw *none)
{
    mb_pt p = { fw_zero(), fw_zero(), fw_splat(INFINITY), iw_zero() };
    mw any = mw_false();
    for (int i = 0; i < MB_CANDS; i++) {
        mw better = mw_and(c->ok[i], mw_or(mw_not(any), fw_lt(c->sep[i], p.sep)));
        p = mb_take(better, c, i, p);
        any = mw_or(any, c->ok[i]);
    }
    *none = mw_not(any);
    return p;
}

/* The candidates' largest spread, squared: the largest of their pairwise
 * distances. A candidate not kept stands on the deepest point (one of the
 * kept), which adds no distance the kept do not have, so the pairs need no
 * masks; a NaN distance never wins. */
static GJKB_INLINE fw mb_extent2(const mb_cand *c, mb_pt deep)
{
    fw x[MB_CANDS], y[MB_CANDS];
    for (int i = 0; i < MB_CANDS; i++) {
        x[i] = fw_sel(c->ok[i], c->x[i], deep.x);
        y[i] = fw_sel(c->ok[i], c->y[i], deep.y);
    }
    fw extent2 = fw_zero();
    for (int i = 0; i < MB_CANDS; i++)
        for (int j = i + 1; j < MB_CANDS; j++) {
            fw dx = fw_sub(x[i], x[j]), dy = fw_sub(y[i], y[j]);
            extent2 = fw_max(fw_add(fw_mul(dx, dx), fw_mul(dy, dy)), extent2);
        }
    return extent2;
}

/* Whether the bounds decide every candidate of every lane without the
 * spread itself: near2, the largest squared distance from the deepest
 * point, is one of the pairwise distances, so lo (the limit from it) is at
 * most the limit; the spread is at most twice its root (the triangle
 * inequality, with room for float's rounding of the distances), so hi is
 * at least the limit. Rounding is monotone, so a candidate whose float
 * difference below lo is 2 MB_SEP_EPS or more is kept and not unsure, one
 * as far above hi dropped and not unsure, exactly as the limit itself
 * would decide; a NaN is neither, and the spread decides. */
static GJKB_INLINE mw mb_bounds_decide(const mb_cand *c, mb_pt deep, fw dist, fw keep, fw *lo)
{
    fw near2 = fw_zero();
    for (int i = 0; i < MB_CANDS; i++) {
        fw dx = fw_sub(c->x[i], deep.x), dy = fw_sub(c->y[i], deep.y);
        fw d2 = fw_add(fw_mul(dx, dx), fw_mul(dy, dy));
        near2 = fw_sel(mw_and(c->ok[i], fw_gt(d2, near2)), d2, near2);
    }
    fw near = fw_sqrt(near2), margin = fw_splat(2.0f * MB_SEP_EPS);
    *lo = fw_max(keep, fw_add(dist, fw_mul(fw_splat(MB_RISE), near)));
    fw hi = fw_max(keep, fw_add(dist, fw_mul(fw_splat(2.0f * MB_RISE * (1.0f + 0x1p-10f)), near)));
    mw all = mw_true();
    for (int i = 0; i < MB_CANDS; i++) {
        mw below = fw_ge(fw_sub(*lo, c->sep[i]), margin), above = fw_ge(fw_sub(c->sep[i], hi), margin);
        all = mw_and(all, mw_or(mw_not(c->ok[i]), mw_or(below, above)));
    }
    return all;
}

/* Keeps the candidates at most max(keep, dist + MB_RISE * extent) apart
 * along n, extent the candidates' largest spread (as the reference: a
 * measure that does not depend on which of two equally deep points is
 * taken); returns the deepest. The spread costs 66 distances; bounds from
 * 12 decide most bundles with the same outcome. */
static GJKB_INLINE mb_pt mb_filter(mb_cand *c, fw dist, fw keep, mw *none)
{
    mb_pt deep = mb_deepest(c, none);
    fw lo;
    if (mw_all(mb_bounds_decide(c, deep, dist, keep, &lo))) {
        for (int i = 0; i < MB_CANDS; i++)
            c->ok[i] = mw_and(c->ok[i], fw_le(c->sep[i], lo));
        return deep;
    }
    fw limit = fw_max(keep, fw_add(dist, fw_mul(fw_splat(MB_RISE), fw_sqrt(mb_extent2(c, deep)))));
    mw unsure = mw_false();
    for (int i = 0; i < MB_CANDS; i++) {
        unsure = mw_or(unsure, mw_and(c->ok[i], fw_le(fw_abs(fw_sub(c->sep[i], limit)), fw_splat(MB_SEP_EPS))));
        c->ok[i] = mw_and(c->ok[i], fw_le(c->sep[i], limit));
    }
    /* a point at the limit within float's rounding: the reference decides */
    *none = mw_or(*none, unsure);
    return deep;
}

/* Whether candidate i is apart from point p (not its twin). */
static GJKB_INLINE mw mb_apart(const mb_cand *c, int i, mb_pt p)
{
    fw dx = fw_sub(c->x[i], p.x), dy = fw_sub(c->y[i], p.y);
    return fw_gt(fw_add(fw_mul(dx, dx), fw_mul(dy, dy)), fw_splat(MB_DIST_EPS * MB_DIST_EPS));
}

/* The least area a point must add to `area`: MB_AREA_EPS, or more than the
 * float rounding of areas that large. */
static GJKB_INLINE fw mb_floor(fw area)
{
    return fw_add(area, fw_max(fw_splat(MB_AREA_EPS), fw_mul(area, fw_splat(1e-5f))));
}

/* After the deepest p0: the farthest from it, then the points adding the
 * most area (first of equals), each only when it adds something and is
 * no twin of a point taken. */
static GJKB_INLINE iw mb_spread(const mb_cand *c, mb_pt pt[GJKB_MAX_CONTACTS])
{
    const fw eps2 = fw_splat(MB_DIST_EPS * MB_DIST_EPS);
    fw best1 = eps2, best2 = mb_floor(fw_zero());
    mw apart[MB_CANDS];   /* apart from pt[0], then from pt[1] too */
    for (int i = 0; i < MB_CANDS; i++) {
        fw dx = fw_sub(c->x[i], pt[0].x), dy = fw_sub(c->y[i], pt[0].y);
        fw d2 = fw_add(fw_mul(dx, dx), fw_mul(dy, dy));
        mw better = mw_and(c->ok[i], fw_gt(d2, best1));
        apart[i] = mw_and(c->ok[i], fw_gt(d2, eps2));
        best1 = fw_sel(better, d2, best1);
        pt[1] = mb_take(better, c, i, pt[1]);
    }
    mw has1 = fw_gt(best1, eps2);
    for (int i = 0; i < MB_CANDS; i++) {
        fw area = fw_abs(mb_cross(pt[0], pt[1], c->x[i], c->y[i]));
        apart[i] = mw_and(apart[i], mb_apart(c, i, pt[1]));
        mw better = mw_and(apart[i], fw_gt(area, best2));
        best2 = fw_sel(better, area, best2);
        pt[2] = mb_take(better, c, i, pt[2]);
    }
    mw has2 = mw_and(has1, fw_gt(best2, mb_floor(fw_zero())));
    fw floor3 = mb_floor(best2), best3 = floor3;
    fw a012 = mb_cross(pt[0], pt[1], pt[2].x, pt[2].y);
    for (int i = 0; i < MB_CANDS; i++) {
        fw area = mb_area4(pt[0], pt[1], pt[2], a012, c->x[i], c->y[i]);
        mw better = mw_and(mw_and(apart[i], mb_apart(c, i, pt[2])), fw_gt(area, best3));
        best3 = fw_sel(better, area, best3);
        pt[3] = mb_take(better, c, i, pt[3]);
    }
    mw has3 = mw_and(has2, fw_gt(best3, floor3));
    const iw one = iw_splat(1);
    return iw_add(one, iw_add(iw_sel(has1, one, iw_zero()), iw_add(iw_sel(has2, one, iw_zero()),
                                                                   iw_sel(has3, one, iw_zero()))));
}

/* Two boxes' manifold along n at distance dist (both in A's scaled frame),
 * keeping points up to `keep` apart; lanes left without a point come back
 * in *none. */
static GJKB_INLINE void mb_manifold(const pack_w *k, v3w n, fw dist, fw keep, mb_out *out, mw *none)
{
    mb_faces f;
    mb_cand c;
    mb_face_a(k, n, &f);
    mb_face_b(k, n, &f);
    for (int i = 0; i < 4; i++)
        mb_clip_edge(&f, i, &c);
    mb_corners(&f, n, &c);
    mb_view view = mb_view_of(f.np);
    mb_to_view(&view, &c);
    mb_pt pt[GJKB_MAX_CONTACTS];
    pt[0] = mb_filter(&c, dist, keep, none);
    pt[0].sep = dist;   /* the deepest is at the pair's distance */
    for (int i = 1; i < GJKB_MAX_CONTACTS; i++)
        pt[i] = pt[0];
    out->count = iw_sel(*none, iw_zero(), mb_spread(&c, pt));
    for (int i = 0; i < GJKB_MAX_CONTACTS; i++) {
        fw u, v;
        mb_from_view(&view, pt[i].x, pt[i].y, &u, &v);
        out->a[i] = mb_from_face(f.ax, v3_make(fw_mul(f.s, f.ha.x), u, v));
        out->sep[i] = pt[i].sep;
        out->key[i] = pt[i].key;
    }
}
