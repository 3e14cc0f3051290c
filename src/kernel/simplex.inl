/* simplex.inl - GJK's simplex, W lanes: the sub-distance cascade both loops
 * share (light.inl, closest.inl), the closest point of a kept feature, and
 * the final simplex a loop hands to whatever runs next.
 *
 * The cascade follows triple-product GJK (Gilbert, Johnson and Keerthi,
 * "A fast procedure for computing the distance between complex objects in
 * three-dimensional space", IEEE J. Robotics and Automation 4(2), 1988;
 * van den Bergen, "Collision Detection in Interactive 3D Environments",
 * 2003, for the newest-point rule): only features through the new point a
 * are considered, which in exact arithmetic always holds the closest one.
 * A tetrahedron that does not enclose the origin passes on its face through
 * a with the origin farthest outside, a triangle its edge through a or the
 * face, a segment its vertex a or itself. Region tests use signed volumes
 * and areas (in the spirit of Montanari, Petrinic and Barbieri, "Improving
 * the GJK algorithm for faster and more reliable distance queries between
 * convex objects", ACM TOG 36(3), 2017), so no differences of products of
 * dot products cancel on slivers. Every case is computed for all lanes and
 * selected by mask; a case no active lane has is skipped bundle-wide. */

/* x has the sign of the volume: positive where pos, negative where neg. */
static GJKB_INLINE mw sx_same_sign(fw x, mw pos, mw neg)
{
    return mw_or(mw_and(pos, fw_gt(x, fw_zero())), mw_and(neg, fw_lt(x, fw_zero())));
}

/* Up to three kept points of A - B, newest first, their A support points
 * (where the loop carries witnesses) and the weights of the current
 * closest point; unused slots weigh 0. */
typedef struct simplex_w {
    v3w q[3], qa[3];
    fw l[3];
    fw n;
} simplex_w;

/* The final simplex a loop hands on: up to four points of A - B with their
 * A parts (the B part of point i is qa[i] - q[i]; A parts only where the
 * loop carries witnesses); n = 4 where the origin was enclosed, the fourth
 * point being the one that enclosed it. A loop builds it (sx_final) where
 * the cascade reports `enclosed`, from its simplex before that step's
 * update and the new point: the place the depth solver (epa.inl) starts
 * from; n = 3 where a face was proven to hold the origin within the band
 * (a flat start, which the solver completes). Only the contact loop builds
 * it, so no other loop pays for it. */
typedef struct final_w {
    v3w q[4], qa[4];
    fw n;
} final_w;

/* The tetrahedron (a, q0, q1, q2) of lanes s3: whether it encloses the
 * origin (all four barycentric numerators of the volume's sign), else the
 * face through a with the origin farthest outside its plane, by squared
 * plane distances n^2/|x|^2 compared cross-multiplied (no divisions; faces
 * with the origin inside, or of zero area, never win). The kept triangle is
 * (a, b, c) with b = b_is_c ? q1 : q0 and c = c_is_e ? q2 : q1. */
typedef struct tetra_w {
    mw enclosed, b_is_c, c_is_e;
} tetra_w;

static GJKB_INLINE tetra_w sx_tetra_face(const v3w q[3], v3w a, mw s3)
{
    const fw zero = fw_zero();
    v3w ab = v3_sub(q[0], a), ac = v3_sub(q[1], a), ae = v3_sub(q[2], a), ao = v3_neg(a);
    v3w x1 = v3_cross(ac, ae), x2 = v3_cross(ae, ab), x3 = v3_cross(ab, ac);
    fw vol = v3_dot(ab, x1);
    fw nb = v3_dot(ao, x1), nc = v3_dot(ao, x2), ne = v3_dot(ao, x3);
    fw na = fw_sub(fw_sub(fw_sub(vol, nb), nc), ne);
    mw pos = fw_gt(vol, zero), neg = fw_lt(vol, zero);
    mw in_b = sx_same_sign(nb, pos, neg), in_c = sx_same_sign(nc, pos, neg), in_e = sx_same_sign(ne, pos, neg);
    tetra_w r;
    r.enclosed = mw_and(s3, mw_and(mw_and(sx_same_sign(na, pos, neg), in_b), mw_and(in_c, in_e)));
    fw m1 = v3_dot(x1, x1), m2 = v3_dot(x2, x2), m3 = v3_dot(x3, x3);
    fw s1 = fw_mul(nb, nb), s2 = fw_mul(nc, nc), s3d = fw_mul(ne, ne);
    mw out_b = mw_andnot(fw_gt(m1, zero), in_b), out_c = mw_andnot(fw_gt(m2, zero), in_c);
    mw out_e = mw_andnot(fw_gt(m3, zero), in_e);
    /* d3 >= d2 and d3 >= d1 (abc), else d2 >= d1 (abe), else ace. */
    mw abc = mw_and(out_e, mw_and(mw_or(mw_not(out_c), fw_ge(fw_mul(s3d, m2), fw_mul(s2, m3))),
                                  mw_or(mw_not(out_b), fw_ge(fw_mul(s3d, m1), fw_mul(s1, m3)))));
    mw abe = mw_andnot(mw_and(out_c, mw_or(mw_not(out_b), fw_ge(fw_mul(s2, m1), fw_mul(s1, m2)))), abc);
    r.b_is_c = mw_and(s3, mw_not(mw_or(abc, abe)));
    r.c_is_e = mw_andnot(s3, abc);
    return r;
}

/* The triangle (a, b, c) of lanes tri: its normal, the signed areas of
 * the origin's projection (the weights of a, b and c, times |nrm|^2), and
 * whether that projection is inside (face); else the edge through a to go
 * on with: a-c where the origin is beyond that edge and ahead of a along it
 * (to_c), else a-b. */
typedef struct tri_w {
    v3w ab, ac, nrm;
    fw wa, wb, wc;
    mw face, to_c;
} tri_w;

static GJKB_INLINE tri_w sx_tri_region(v3w a, v3w b, v3w c, mw tri)
{
    const fw zero = fw_zero();
    tri_w r;
    r.ab = v3_sub(b, a);
    r.ac = v3_sub(c, a);
    r.nrm = v3_cross(r.ab, r.ac);
    r.wa = v3_dot(r.nrm, v3_cross(b, c));
    r.wb = v3_dot(r.nrm, v3_cross(c, a));
    r.wc = v3_dot(r.nrm, v3_cross(a, b));
    mw out_c = fw_lt(r.wb, zero), out_b = fw_lt(r.wc, zero);
    r.to_c = mw_and(out_c, fw_lt(v3_dot(r.ac, a), zero));
    r.face = mw_andnot(tri, mw_or(mw_or(out_c, out_b), mw_not(mw_and(fw_ge(r.wa, zero),
                                                                      fw_gt(v3_dot(r.nrm, r.nrm), zero)))));
    return r;
}

/* The two loops walk the same cascade and differ only in what they take
 * from the kept feature while its terms are at hand: the closest-point loop
 * its closest point (weights), the light loop its normal toward the origin
 * and whether it lies within the band. */
enum { SX_CLOSEST, SX_LIGHT };

/* The cascade's answer for the new point a: which feature through a is
 * kept, and what the loop takes from it. */
typedef struct cascade_w {
    mw enclosed;              /* the tetrahedron encloses the origin */
    v3w tb, tc, tba, tca;     /* the triangle (a, tb, tc) and its A parts */
    mw face;                  /* lanes keeping that face */
    v3w lb, lba;              /* the segment (a, lb) */
    mw edge;                  /* lanes keeping that segment */
    /* SX_CLOSEST: the face's weights and closest point, the segment's
     * parameter and closest point */
    fw fl[3], t;
    v3w vf, ve;
    /* SX_LIGHT: the face's and the segment's directions toward the origin,
     * and the lanes whose feature is proven within the band */
    v3w d_face, d_edge;
    mw in_band;
} cascade_w;

/* The face (a, tb, tc) of lanes c->face (regions f): the closest point by
 * signed areas, no differences of products of dot products. */
static GJKB_INLINE void sx_face_closest(cascade_w *c, const tri_w *f, v3w a)
{
    const fw one = fw_splat(1.0f);
    fw inv = fw_div(one, fw_sel(c->face, fw_add(fw_add(f->wa, f->wb), f->wc), one));
    c->fl[0] = fw_mul(f->wa, inv);
    c->fl[1] = fw_mul(f->wb, inv);
    c->fl[2] = fw_mul(f->wc, inv);
    c->vf = v3_add(v3_add(v3_scale(a, c->fl[0]), v3_scale(c->tb, c->fl[1])), v3_scale(c->tc, c->fl[2]));
}

/* The face's normal toward the origin, and a proof where the origin's
 * plane distance is within the band: nrm.a is the plane's offset times
 * |nrm|, the origin on the side of -nrm.a; slivers never prove. */
static GJKB_INLINE void sx_face_normal(cascade_w *c, const tri_w *f, v3w a, fw band2)
{
    fw pn = v3_dot(f->nrm, a), nn = v3_dot(f->nrm, f->nrm);
    c->d_face = v3_sel(fw_gt(pn, fw_zero()), v3_neg(f->nrm), f->nrm);
    mw formed = fw_gt(nn, fw_mul(fw_splat(GJKB_K_SLIVER), fw_mul(v3_len2(f->ab), v3_len2(f->ac))));
    c->in_band = mw_or(c->in_band, mw_and(mw_and(c->face, formed), fw_le(fw_mul(pn, pn), fw_mul(band2, nn))));
}

/* The segment (a, lb) of lanes `line`: kept while the origin is ahead of a
 * (and it has length). SX_CLOSEST: its closest point, clamped; SX_LIGHT:
 * its normal toward the origin, and a proof where the line distance
 * |e x a| / |e| is within the band and the origin projects short of lb. */
static GJKB_INLINE void sx_segment(cascade_w *c, mw line, v3w a, fw band2, const int loop)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    v3w e = v3_sub(c->lb, a);
    fw num = fw_neg(v3_dot(e, a)), ee = v3_len2(e);
    c->edge = mw_and(line, mw_and(fw_gt(num, zero), fw_gt(ee, zero)));
    if (loop == SX_CLOSEST) {
        c->t = fw_sel(c->edge, fw_min(fw_div(num, fw_sel(c->edge, ee, one)), one), zero);
        c->ve = v3_add(a, v3_scale(e, c->t));
    } else {
        v3w x = v3_cross(e, a);
        c->d_edge = v3_cross(e, x);
        c->in_band = mw_or(c->in_band, mw_and(mw_and(c->edge, fw_lt(num, ee)), fw_le(v3_len2(x), fw_mul(band2, ee))));
    }
}

/* The tetrahedron's step: enclosed lanes, and for the others the face
 * through a to go on with (into c->tb, c->tc); returns the lanes at it. */
static GJKB_INLINE mw sx_tetra_step(cascade_w *c, const v3w q[3], const v3w qa[3], v3w a, mw s3,
                                    const int witnesses)
{
    tetra_w t = sx_tetra_face(q, a, s3);
    c->enclosed = t.enclosed;
    c->tb = v3_sel(t.b_is_c, q[1], c->tb);
    c->tc = v3_sel(t.c_is_e, q[2], c->tc);
    if (witnesses) {
        c->tba = v3_sel(t.b_is_c, qa[1], c->tba);
        c->tca = v3_sel(t.c_is_e, qa[2], c->tca);
    }
    return mw_andnot(s3, t.enclosed);
}

/* The cascade for the new point a over the simplex (q, qa, n), newest
 * first; band2 is the light loop's band. */
static GJKB_INLINE cascade_w sx_cascade(const v3w q[3], const v3w qa[3], fw n, v3w a, mw active, fw band2,
                                        const int witnesses, const int loop)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f), two = fw_splat(2.0f), three = fw_splat(3.0f);
    cascade_w c;
    mw tri = mw_and(active, fw_eq(n, two)), line = mw_and(active, fw_eq(n, one));
    mw s3 = mw_and(active, fw_eq(n, three));
    c.tb = q[0], c.tc = q[1], c.tba = qa[0], c.tca = qa[1];
    c.enclosed = mw_false();
    /* The new point itself within the band. */
    c.in_band = loop == SX_LIGHT ? fw_le(v3_len2(a), band2) : mw_false();
    if (mw_any(s3)) {
        tri = mw_or(tri, sx_tetra_step(&c, q, qa, a, s3, witnesses));
        c.in_band = mw_or(c.in_band, c.enclosed);
    }
    c.lb = q[0], c.lba = qa[0];
    c.face = mw_false();
    if (loop == SX_CLOSEST) {
        c.vf = a;
        c.fl[0] = one, c.fl[1] = c.fl[2] = zero;
    } else {
        c.d_face = a;
    }
    if (mw_any(tri)) {
        tri_w f = sx_tri_region(a, c.tb, c.tc, tri);
        c.face = f.face;
        if (loop == SX_CLOSEST)
            sx_face_closest(&c, &f, a);
        else
            sx_face_normal(&c, &f, a, band2);
        mw down = mw_andnot(tri, c.face), down_c = mw_and(down, f.to_c);
        c.lb = v3_sel(down_c, c.tc, v3_sel(down, c.tb, c.lb));
        if (witnesses)
            c.lba = v3_sel(down_c, c.tca, v3_sel(down, c.tba, c.lba));
        line = mw_or(line, down);
    }
    c.edge = mw_false();
    if (loop == SX_CLOSEST) {
        c.ve = a;
        c.t = zero;
    } else {
        c.d_edge = a;
    }
    if (mw_any(line))
        sx_segment(&c, line, a, band2, loop);
    return c;
}

/* The kept feature's points, newest first, into q, qa and n. */
static GJKB_INLINE void sx_kept(const cascade_w *c, v3w a, v3w aa, v3w q[3], v3w qa[3], fw *n, const int witnesses)
{
    const fw one = fw_splat(1.0f), two = fw_splat(2.0f), three = fw_splat(3.0f);
    q[0] = a;
    q[1] = v3_sel(c->face, c->tb, c->lb);
    q[2] = c->tc;
    qa[0] = aa;
    qa[1] = witnesses ? v3_sel(c->face, c->tba, c->lba) : aa;
    qa[2] = witnesses ? c->tca : aa;
    *n = fw_sel(c->face, three, fw_sel(c->edge, two, one));
}

/* Keeps b where m, else a's slots. */
static GJKB_INLINE simplex_w sx_sel(mw m, const simplex_w *b, const simplex_w *a, const int witnesses)
{
    simplex_w r;
    for (int i = 0; i < 3; i++) {
        r.q[i] = v3_sel(m, b->q[i], a->q[i]);
        r.qa[i] = witnesses ? v3_sel(m, b->qa[i], a->qa[i]) : a->qa[i];
        r.l[i] = fw_sel(m, b->l[i], a->l[i]);
    }
    r.n = fw_sel(m, b->n, a->n);
    return r;
}

/* Witness points on A's and B's cores from the simplex weights. */
static GJKB_INLINE void sx_witness(const simplex_w *s, v3w v, v3w *wa, v3w *wb)
{
    v3w a = v3_scale(s->qa[0], s->l[0]);
    for (int i = 1; i < 3; i++)
        a = v3_madd(a, s->qa[i], s->l[i]);
    *wa = a;
    *wb = v3_sub(a, v);
}

/* The closest point *v of a kept feature (a point, a segment or a
 * triangle, newest first) and its weights: the segment clamped, the
 * triangle by signed areas. */
static GJKB_INLINE simplex_w sx_feature_closest(const v3w q[3], const v3w qa[3], fw n, mw lanes, v3w *v)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f), two = fw_splat(2.0f), three = fw_splat(3.0f);
    /* Only the lanes in use decide which blocks run: a queue's lanes past
     * its count hold rows never written. */
    mw face = mw_and(lanes, fw_eq(n, three)), seg = mw_and(lanes, fw_eq(n, two));
    simplex_w r;
    for (int i = 0; i < 3; i++) {
        r.q[i] = q[i];
        r.qa[i] = qa[i];
    }
    r.n = n;
    v3w a = q[0];
    fw t = zero;
    if (mw_any(seg)) {
        v3w e = v3_sub(q[1], a);
        fw num = fw_neg(v3_dot(e, a)), ee = v3_len2(e);
        mw in = mw_and(seg, mw_and(fw_gt(num, zero), fw_gt(ee, zero)));
        t = fw_sel(in, fw_min(fw_div(num, fw_sel(in, ee, one)), one), zero);
    }
    r.l[0] = fw_sub(one, t);
    r.l[1] = t;
    r.l[2] = zero;
    if (mw_any(face)) {
        tri_w f = sx_tri_region(a, q[1], q[2], face);
        fw sum = fw_add(fw_add(f.wa, f.wb), f.wc);
        mw ok = mw_and(face, fw_gt(sum, zero));
        fw inv = fw_div(one, fw_sel(ok, sum, one));
        r.l[0] = fw_sel(ok, fw_mul(f.wa, inv), r.l[0]);
        r.l[1] = fw_sel(ok, fw_mul(f.wb, inv), r.l[1]);
        r.l[2] = fw_sel(ok, fw_mul(f.wc, inv), r.l[2]);
    }
    *v = v3_add(v3_add(v3_scale(a, r.l[0]), v3_scale(q[1], r.l[1])), v3_scale(q[2], r.l[2]));
    return r;
}

/* The final simplex of lanes whose kept points are q, qa (count n), with
 * the enclosing point (enc, enc_a) where the origin was enclosed. */
static GJKB_INLINE final_w sx_final(const v3w q[3], const v3w qa[3], fw n, mw enclosed, v3w enc, v3w enc_a)
{
    final_w f;
    for (int i = 0; i < 3; i++) {
        f.q[i] = q[i];
        f.qa[i] = qa[i];
    }
    f.q[3] = enc;
    f.qa[3] = enc_a;
    f.n = fw_sel(enclosed, fw_splat(4.0f), n);
    return f;
}

/* f takes g's lanes m. */
static GJKB_INLINE void fin_take(final_w *f, mw m, final_w g)
{
    for (int i = 0; i < 4; i++) {
        f->q[i] = v3_sel(m, g.q[i], f->q[i]);
        f->qa[i] = v3_sel(m, g.qa[i], f->qa[i]);
    }
    f->n = fw_sel(m, g.n, f->n);
}
