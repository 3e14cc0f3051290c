/* face_axis.inl - the exact axis of nearly touching cores where a flat
 * face or a straight edge touches: GJK's float axis is then off by up to
 * about 1e-3 rad (3e-7 of the extent over the core distance), which moves
 * the gap along it by that times the feature's reach, too far for the
 * manifold. A box's or a hull's face normal, or the cross of two edges
 * (a box's, a hull's or a capsule's segment), that lies within FA_NEAR
 * of the axis and along which the support gap meets GJK's distance (an
 * upper bound) to FA_GAP realizes the distance: it is the axis, good to
 * float's rounding (a face against a vertex, an edge or a face; an edge
 * across an edge). A vertex against a vertex or an edge moves the gap
 * only to second order: left as it was. */

#define FA_NEAR 2e-3f   /* GJK's axis error down to CT_NEAR_MIN (sine) */
#define FA_GAP 6e-6f    /* support gap below GJK's distance (scaled units) */

/* The normal (own frame) of side s's face most aligned with u (own
 * frame), or zero where s is not a box or a hull with faces. */
static GJKB_INLINE void fa_face_of(const gjkb__world *w, int kind, int32_t body, const float u[3], float c[3])
{
    c[0] = c[1] = c[2] = 0.0f;
    if (kind == GJKB_BOX) {
        int k = fabsf(u[1]) > fabsf(u[0]) ? 1 : 0;
        k = fabsf(u[2]) > fabsf(u[k]) ? 2 : k;
        c[k] = u[k] < 0.0f ? -1.0f : 1.0f;
        return;
    }
    if (kind != GJKB_HULL || !w->hull)
        return;
    const int32_t id = w->hull[body];
    const gjkb__face *f = w->face + w->face_first[id];
    float best = -INFINITY;
    for (int32_t i = 0; i < w->face_n[id]; i++) {
        float d = f[i].nx * u[0] + f[i].ny * u[1] + f[i].nz * u[2];
        if (d > best)
            best = d, c[0] = f[i].nx, c[1] = f[i].ny, c[2] = f[i].nz;
    }
}

enum { FA_EDGES = 4 };

static GJKB_INLINE void fa_put(float e[FA_EDGES][3], int *n, float x, float y, float z)
{
    if (*n < FA_EDGES)
        e[*n][0] = x, e[*n][1] = y, e[*n][2] = z, ++*n;
}

/* Side s's edge directions (own frame) within FA_NEAR of square to u:
 * a box's axes, a capsule's segment, a hull's loop edges (the first
 * FA_EDGES of them). */
static GJKB_INLINE int fa_edges_of(const gjkb__world *w, int kind, int32_t body, const float u[3],
                                   float e[FA_EDGES][3])
{
    int n = 0;
    if (kind == GJKB_BOX || kind == GJKB_CAPSULE)
        for (int k = kind == GJKB_BOX ? 0 : 2; k < 3; k++)
            if (fabsf(u[k]) <= FA_NEAR)
                fa_put(e, &n, k == 0, k == 1, k == 2);
    if (kind != GJKB_HULL || !w->hull)
        return n;
    const int32_t id = w->hull[body], first = w->hull_first[id];
    const gjkb__face *f = w->face + w->face_first[id];
    for (int32_t i = 0; i < w->face_n[id] && n < FA_EDGES; i++)
        for (int32_t j = 0; j < f[i].count; j++) {
            int32_t p = first + w->face_vertex[f[i].first + j];
            int32_t q = first + w->face_vertex[f[i].first + (j + 1 == f[i].count ? 0 : j + 1)];
            float d[3] = { w->hx[q] - w->hx[p], w->hy[q] - w->hy[p], w->hz[q] - w->hz[p] };
            float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (p < q && fabsf(d[0] * u[0] + d[1] * u[1] + d[2] * u[2]) <= FA_NEAR * len)
                fa_put(e, &n, d[0] / len, d[1] / len, d[2] / len);
        }
    return n;
}

/* The unit cross of an edge of A's (ea) and one of B's (eb, B's frame;
 * r B's rotation in A's, row major) most aligned with u, signed along
 * it; zero where there is none. */
static GJKB_INLINE void fa_cross_of(const float ea[FA_EDGES][3], int na, const float eb[FA_EDGES][3], int nb,
                                    const float r[9], const float u[3], float c[3])
{
    float best = 0.0f;
    c[0] = c[1] = c[2] = 0.0f;
    for (int j = 0; j < nb; j++) {
        const float b[3] = { r[0] * eb[j][0] + r[1] * eb[j][1] + r[2] * eb[j][2],
                             r[3] * eb[j][0] + r[4] * eb[j][1] + r[5] * eb[j][2],
                             r[6] * eb[j][0] + r[7] * eb[j][1] + r[8] * eb[j][2] };
        for (int i = 0; i < na; i++) {
            const float *a = ea[i];
            float x[3] = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
            float len = sqrtf(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), d = x[0] * u[0] + x[1] * u[1] + x[2] * u[2];
            if (len > 0.0f && fabsf(d) > best * len) {
                best = fabsf(d) / len;
                for (int k = 0; k < 3; k++)
                    c[k] = (d < 0.0f ? -x[k] : x[k]) / len;
            }
        }
    }
}

/* Each lane's candidates along n: A's face normal, B's along -n (into
 * A's frame, negated: the axis from A to B), and an edge cross. */
static GJKB_INLINE void fa_candidates(const gjkb__world *w, size_t o, const pack_w *k, v3w n, mw m, v3w *ca, v3w *cb,
                                      v3w *ce)
{
    _Alignas(64) float nn[3][GJKB_W], ub[3][GJKB_W], oa[3][GJKB_W], ob[3][GJKB_W], oe[3][GJKB_W], r[9][GJKB_W];
    v3_store(nn[0], nn[1], nn[2], n);
    v3_store(ub[0], ub[1], ub[2], m3_mul_t(k->pose.r, v3_neg(n)));
    for (int c = 0; c < 9; c++)
        fw_store(r[c], k->pose.r[c]);
    for (int i = 0; i < GJKB_W; i++) {
        const float u[3] = { nn[0][i], nn[1][i], nn[2][i] }, v[3] = { ub[0][i], ub[1][i], ub[2][i] };
        float a[3] = { 0.0f, 0.0f, 0.0f }, b[3] = { 0.0f, 0.0f, 0.0f }, x[3] = { 0.0f, 0.0f, 0.0f };
        if (mw_bits(m) >> i & 1u) {
            const int ka = w->lane_ka[o + i], kb = w->lane_kb[o + i];
            const int32_t ba = w->lane_a[o + i], bb = w->lane_b[o + i];
            float ea[FA_EDGES][3], eb[FA_EDGES][3], rr[9];
            fa_face_of(w, ka, ba, u, a);
            fa_face_of(w, kb, bb, v, b);
            for (int c = 0; c < 9; c++)
                rr[c] = r[c][i];
            int na = fa_edges_of(w, ka, ba, u, ea), nb = na ? fa_edges_of(w, kb, bb, v, eb) : 0;
            fa_cross_of(ea, na, eb, nb, rr, u, x);
        }
        for (int c = 0; c < 3; c++)
            oa[c][i] = a[c], ob[c][i] = b[c], oe[c][i] = x[c];
    }
    *ca = v3_load(oa[0], oa[1], oa[2]);
    *cb = v3_neg(m3_mul(k->pose.r, v3_load(ob[0], ob[1], ob[2])));
    *ce = v3_load(oe[0], oe[1], oe[2]);
}

/* The support gap along unit c (lanes m): the cores' gap, the support
 * point of A's core in *pa. */
static GJKB_INLINE fw fa_gap(const gjkb__world *w, const pack_w *k, v3w c, mw m, v3w *pa)
{
    v3w pb;
    return fw_neg(v3_dot(c, sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, c, w, m, pa, &pb)));
}

/* Lanes m (the cores apart, GJK's axis n, its signed distance dist and
 * A's witness a, A's scaled frame): where a face's normal realizes the
 * distance, the answer along it, A's witness moved onto its support
 * plane; ok where it holds. */
static GJKB_INLINE cs_out fa_axis(const gjkb__world *w, size_t o, const pack_w *k, mw m, v3w n, fw dist, v3w a)
{
    cs_out r = { .dist = dist, .n = n, .a = a, .key = iw_zero(), .ok = mw_false() };
    v3w ca, cb, ce, pa, pb, pe;
    fa_candidates(w, o, k, n, m, &ca, &cb, &ce);
    const fw near = fw_splat(1.0f - 0.5f * FA_NEAR * FA_NEAR), floor = fw_sub(fw_add(dist, k->m), fw_splat(FA_GAP));
    mw ma = mw_and(m, fw_ge(v3_dot(ca, n), near)), mb = mw_and(m, fw_ge(v3_dot(cb, n), near));
    mw me = mw_and(m, fw_ge(v3_dot(ce, n), near));
    fw ga = fa_gap(w, k, ca, ma, &pa), gb = fa_gap(w, k, cb, mb, &pb), ge = fa_gap(w, k, ce, me, &pe);
    ma = mw_and(ma, fw_ge(ga, floor));
    mb = mw_and(mb, fw_ge(gb, floor));
    me = mw_and(me, fw_ge(ge, floor));
    /* the largest gap of those that realize the distance */
    mw take_b = mw_and(mb, mw_or(mw_not(ma), fw_gt(gb, ga)));
    fw gap = fw_sel(take_b, gb, ga);
    mw take_e = mw_and(me, mw_or(mw_not(mw_or(ma, mb)), fw_gt(ge, gap)));
    gap = fw_sel(take_e, ge, gap);
    r.ok = mw_or(mw_or(ma, mb), me);
    r.n = v3_sel(take_e, ce, v3_sel(take_b, cb, v3_sel(ma, ca, n)));
    v3w top = v3_sel(take_e, pe, v3_sel(take_b, pb, pa)), core_a = v3_madd(a, n, fw_neg(k->ma));
    /* A's core witness onto the support plane along the new axis */
    core_a = v3_madd(core_a, r.n, fw_sub(v3_dot(r.n, top), v3_dot(r.n, core_a)));
    r.a = v3_sel(r.ok, v3_madd(core_a, r.n, k->ma), a);
    r.dist = fw_sel(r.ok, fw_sub(gap, k->m), dist);
    return r;
}
