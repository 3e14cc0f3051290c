/* epa.inl - the penetration depth of overlapping cores, per lane: the
 * expanding polytope algorithm (van den Bergen 2001) from the tetrahedron
 * that enclosed the origin in the contact loop (final_w).
 *
 * The polytope lives per lane in plain float (faces counter-clockwise seen
 * from outside, their unit normals, plane offsets and neighbours); the
 * support points of a bundle's lanes are taken together across lanes, each
 * along its own nearest face's normal. A step walks from the nearest face
 * across edges to the faces the new point sees, removes them, and closes
 * the hole with a fan over the horizon the walk traced (Bullet's gjkepa2
 * and van den Bergen's book walk the same way): only the seen faces and
 * their rim are tested, the region taken is always connected, and the fan
 * is linked to its neighbours as it is made. Lane by lane the same
 * operations whatever the width, so the bits are the same on every width.
 *
 * A lane is answered when the support plane along the nearest face's
 * normal lies within EP_GAP of that face: the depth of the cores is then
 * that face's offset to within EP_GAP. Anything float cannot settle (a
 * flat start, a degenerate face, the origin outside a new face, a horizon
 * that is not one loop, the budget or the polytope's capacity) leaves the
 * lane to the reference. */

/* Capacity of a lane's polytope and its steps. A polytope's faces are
 * 2V - 4 at most. */
enum { EP_VERTS = 40, EP_FACES = 2 * EP_VERTS - 4, EP_STEPS = EP_VERTS - 4 };
/* Converged: the support plane within this of the nearest face (scaled
 * units), a few float roundings of a coordinate near the extent. */
#define EP_GAP 1e-6f
/* A face sees a point up to this far below its plane (scaled units):
 * on a curved core the new point is nearly coplanar with the faces around
 * the nearest one, and a face rounding left unseen would make the fan
 * concave there (the origin outside a new face). */
#define EP_SEE 1e-7f
/* A face whose doubled area is below this (scaled units squared) has no
 * normal float can trust. */
#define EP_AREA 1e-12f

/* A face: its points counter-clockwise seen from outside, its unit normal
 * and offset, and across each edge k = (v[k], v[k+1]) the face adj[k],
 * where that edge is edge adj_edge[k]. gone marks the faces a step's walk
 * has taken. */
typedef struct ep_face {
    float n[3], d;
    uint8_t v[3], adj[3], adj_edge[3], gone;
} ep_face;

/* One lane's polytope: points of A - B and their A parts, and faces
 * 0..nf-1, all live (a step takes k faces and makes k + 2). */
typedef struct ep_poly {
    float p[EP_VERTS][3], pa[EP_VERTS][3];
    ep_face f[EP_FACES];
    float fd[EP_FACES];     /* the faces' offsets in one row, for the nearest */
    int nv, nf;
    int state;          /* 0 running, 1 converged, -1 left to the reference */
    int near;           /* the nearest face */
    int steps;
} ep_poly;

static GJKB_INLINE float ep_dot(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Face i of q gets points (a, b, c): its unit normal and offset; 0 where
 * its area is too small for a normal or the origin is outside it. */
static GJKB_INLINE int ep_face_set(ep_poly *q, int i, int a, int b, int c)
{
    const float *pa = q->p[a], *pb = q->p[b], *pc = q->p[c];
    float u[3] = { pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2] };
    float v[3] = { pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2] };
    float n[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
    float len2 = ep_dot(n, n);
    if (!(len2 > EP_AREA * EP_AREA))
        return 0;
    float inv = 1.0f / sqrtf(len2);
    ep_face *f = &q->f[i];
    f->v[0] = (uint8_t)a;
    f->v[1] = (uint8_t)b;
    f->v[2] = (uint8_t)c;
    f->gone = 0;
    for (int k = 0; k < 3; k++)
        f->n[k] = n[k] * inv;
    f->d = q->fd[i] = ep_dot(f->n, pa);
    /* the origin must stay inside every face (a few roundings of slack) */
    return f->d >= -EP_GAP;
}

/* Edge k of face i and edge m of face j are one edge. */
static GJKB_INLINE void ep_link(ep_poly *q, int i, int k, int j, int m)
{
    q->f[i].adj[k] = (uint8_t)j;
    q->f[i].adj_edge[k] = (uint8_t)m;
    q->f[j].adj[m] = (uint8_t)i;
    q->f[j].adj_edge[m] = (uint8_t)k;
}

/* The nearest face (the first of the least offset). */
static GJKB_INLINE int ep_nearest(const ep_poly *q)
{
    int best = 0;
    for (int i = 1; i < q->nf; i++)
        if (q->fd[i] < q->fd[best])
            best = i;
    return best;
}

/* The start: the four points of the enclosing tetrahedron (lane i of the
 * final simplex f), faces oriented by the volume's sign. */
static GJKB_INLINE void ep_start(ep_poly *q, const float fin[GJKB_K_FINAL_FIELDS][GJKB_W], int i)
{
    for (int v = 0; v < 4; v++)
        for (int k = 0; k < 3; k++) {
            q->p[v][k] = fin[3 * v + k][i];
            q->pa[v][k] = fin[12 + 3 * v + k][i];
        }
    q->nv = 4;
    q->nf = 4;
    q->near = 0;
    q->steps = 0;
    q->state = -1;
    if (fin[GJKB_K_FINAL_COUNT][i] != 4.0f)
        return;
    const float *p0 = q->p[0];
    float a[3], b[3], c[3];
    for (int k = 0; k < 3; k++) {
        a[k] = q->p[1][k] - p0[k];
        b[k] = q->p[2][k] - p0[k];
        c[k] = q->p[3][k] - p0[k];
    }
    float vol = a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
                a[2] * (b[0] * c[1] - b[1] * c[0]);
    /* positive volume: (0,2,1) (0,1,3) (0,3,2) (1,2,3) face outward;
     * negative: the same with points 1 and 2 swapped */
    int s = vol > 0.0f ? 1 : 2, t = 3 - s;
    if (vol != 0.0f && ep_face_set(q, 0, 0, t, s) && ep_face_set(q, 1, 0, s, 3) && ep_face_set(q, 2, 0, 3, t) &&
        ep_face_set(q, 3, s, t, 3)) {
        /* (0,t) (t,s) (s,0) | (0,s) (s,3) (3,0) | (0,3) (3,t) (t,0) | (s,t) (t,3) (3,s) */
        ep_link(q, 0, 0, 2, 2);
        ep_link(q, 0, 1, 3, 0);
        ep_link(q, 0, 2, 1, 0);
        ep_link(q, 1, 1, 3, 2);
        ep_link(q, 1, 2, 2, 0);
        ep_link(q, 2, 1, 3, 1);
        q->state = 0;
        q->near = ep_nearest(q);
    }
}

/* The horizon of point w: the faces it sees, walked from the nearest one
 * across their edges (so the taken region is connected), into gone[]; the
 * edges from a seen face to an unseen one, in order around the region, as
 * (unseen face, its edge) into out[] and out_edge[]. 0 where the lists
 * would overflow. */
typedef struct ep_horizon {
    uint8_t gone[EP_FACES], out[EP_FACES], out_edge[EP_FACES];
    int ngone, nout;
} ep_horizon;

static GJKB_INLINE int ep_sees(const ep_poly *q, int i, const float w[3])
{
    const ep_face *f = &q->f[i];
    const float *p0 = q->p[f->v[0]];
    float rel[3] = { w[0] - p0[0], w[1] - p0[1], w[2] - p0[2] };
    return ep_dot(f->n, rel) > -EP_SEE;
}

static GJKB_INLINE int ep_walk(ep_poly *q, const float w[3], ep_horizon *h)
{
    /* a face on the stack, the next of its edges to cross, and how many
     * are left (3 at the first face, 2 past the one it was entered by) */
    struct { uint8_t f, k, left; } st[EP_FACES];
    int top = 1;
    st[0].f = (uint8_t)q->near, st[0].k = 0, st[0].left = 3;
    q->f[q->near].gone = 1;
    h->gone[0] = (uint8_t)q->near;
    h->ngone = 1;
    h->nout = 0;
    while (top) {
        const int f = st[top - 1].f, k = st[top - 1].k;
        if (!st[top - 1].left--) {
            top--;
            continue;
        }
        st[top - 1].k = (uint8_t)(k == 2 ? 0 : k + 1);
        const int g = q->f[f].adj[k], m = q->f[f].adj_edge[k];
        if (q->f[g].gone)
            continue;
        if (ep_sees(q, g, w)) {
            q->f[g].gone = 1;
            h->gone[h->ngone++] = (uint8_t)g;
            st[top].f = (uint8_t)g, st[top].k = (uint8_t)(m == 2 ? 0 : m + 1), st[top].left = 2;
            top++;
        } else {
            if (h->nout == EP_FACES)
                return 0;
            h->out[h->nout] = (uint8_t)g;
            h->out_edge[h->nout++] = (uint8_t)m;
        }
    }
    return 1;
}

/* Point w (A part wa) joins q: the faces it sees go, a fan from it over
 * their horizon comes in their places (and two more), and q->near is the
 * new nearest face. 0 where that cannot be done in float or in q's
 * capacity, or the horizon is not one loop. */
static GJKB_INLINE int ep_expand(ep_poly *q, const float w[3], const float wa[3])
{
    ep_horizon h;
    if (q->nv == EP_VERTS || !ep_walk(q, w, &h))
        return 0;
    const int ne = h.nout, v = q->nv;
    if (ne != h.ngone + 2 || q->nf + 2 > EP_FACES)
        return 0;
    q->nv++;
    for (int k = 0; k < 3; k++) {
        q->p[v][k] = w[k];
        q->pa[v][k] = wa[k];
    }
    uint8_t at[EP_FACES];
    for (int i = 0; i < ne; i++)
        at[i] = (uint8_t)(i < h.ngone ? h.gone[i] : q->nf + i - h.ngone);
    q->nf += 2;
    for (int i = 0; i < ne; i++) {
        /* the unseen face's edge (b, a) is the new face's (a, b) */
        const ep_face *g = &q->f[h.out[i]];
        const int m = h.out_edge[i], a = g->v[m == 2 ? 0 : m + 1], b = g->v[m];
        if (!ep_face_set(q, at[i], a, b, v))
            return 0;
        ep_link(q, at[i], 0, h.out[i], m);
    }
    for (int i = 0; i < ne; i++) {
        const int next = at[i + 1 < ne ? i + 1 : 0];
        if (q->f[at[i]].v[1] != q->f[next].v[0])
            return 0;
        ep_link(q, at[i], 1, next, 2);
    }
    q->near = ep_nearest(q);
    return 1;
}

/* One step of lane q with its support point w (A part wa) along its
 * nearest face's normal: converged, or the polytope expanded. */
static GJKB_INLINE void ep_step(ep_poly *q, const float w[3], const float wa[3])
{
    const ep_face *f = &q->f[q->near];
    q->steps++;
    float h = ep_dot(f->n, w);
    if (!(h == h)) {
        q->state = -1;
    } else if (h - f->d <= EP_GAP) {
        q->state = 1;
    } else if (!ep_expand(q, w, wa)) {
        q->state = -1;
    } else if (q->steps == EP_STEPS) {
        q->state = -1;
    }
}

/* The barycentric weights of point x in face f of q (unclamped); 0 where
 * the face is too thin for them. */
static GJKB_INLINE int ep_weights(const ep_poly *q, const ep_face *f, const float x[3], float l[3])
{
    const float *p0 = q->p[f->v[0]], *p1 = q->p[f->v[1]], *p2 = q->p[f->v[2]];
    float u[3], v[3], r[3];
    for (int k = 0; k < 3; k++) {
        u[k] = p1[k] - p0[k];
        v[k] = p2[k] - p0[k];
        r[k] = x[k] - p0[k];
    }
    float uu = ep_dot(u, u), uv = ep_dot(u, v), vv = ep_dot(v, v), ru = ep_dot(r, u), rv = ep_dot(r, v);
    float det = uu * vv - uv * uv;
    if (!(det > 0.0f))
        return 0;
    l[1] = (vv * ru - uv * rv) / det;
    l[2] = (uu * rv - uv * ru) / det;
    l[0] = 1.0f - l[1] - l[2];
    return 1;
}

static GJKB_INLINE float ep_min3(const float l[3])
{
    float m = l[0] < l[1] ? l[0] : l[1];
    return m < l[2] ? m : l[2];
}

/* A converged lane's answer on the cores: the nearest face's offset (the
 * depth), normal, and A's point from the barycentric weights of the
 * origin's projection x = d n. x lies in the polytope, so in a face as near
 * as the nearest: where faces tie (two triangles of one facet of A - B:
 * x on both planes), the one holding x best (the largest least weight)
 * gives the weights.
 * 0 where no face has weights. */
static GJKB_INLINE int ep_answer(const ep_poly *q, float n[3], float *depth, float a[3])
{
    const ep_face *f = &q->f[q->near];
    const float x[3] = { f->d * f->n[0], f->d * f->n[1], f->d * f->n[2] };
    float l[3], best = -INFINITY;
    int at = -1;
    for (int i = 0; i < q->nf; i++) {
        const ep_face *g = &q->f[i];
        float li[3];
        /* x on g's plane: a face opposite the nearest at the same
         * offset (a point at a box's centre) does not hold x */
        if (fabsf(ep_dot(g->n, x) - g->d) > EP_GAP || !ep_weights(q, g, x, li) || !(ep_min3(li) > best))
            continue;
        best = ep_min3(li);
        at = i;
        for (int k = 0; k < 3; k++)
            l[k] = li[k];
    }
    if (at < 0)
        return 0;
    for (int k = 0; k < 3; k++)
        l[k] = l[k] < 0.0f ? 0.0f : l[k];
    const float s = l[0] + l[1] + l[2];
    const ep_face *g = &q->f[at];
    const float *a0 = q->pa[g->v[0]], *a1 = q->pa[g->v[1]], *a2 = q->pa[g->v[2]];
    for (int k = 0; k < 3; k++) {
        n[k] = f->n[k];
        a[k] = (l[0] * a0[k] + l[1] * a1[k] + l[2] * a2[k]) / s;
    }
    *depth = f->d;
    return 1;
}

/* A bundle's running lanes one step: each its support point along its
 * nearest face's normal, taken across lanes, then its own step. */
static GJKB_INLINE unsigned ep_steps(const gjkb__world *w, const pack_w *k, ep_poly *q, unsigned run)
{
    _Alignas(64) float d[3][GJKB_W], p[3][GJKB_W], pa[3][GJKB_W];
    for (int i = 0; i < GJKB_W; i++)
        for (int c = 0; c < 3; c++)
            d[c][i] = run >> i & 1u ? q[i].f[q[i].near].n[c] : 0.0f;
    v3w sa, sb;
    v3w s = sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, v3_load(d[0], d[1], d[2]), w, mw_from_bits(run), &sa, &sb);
    v3_store(p[0], p[1], p[2], s);
    v3_store(pa[0], pa[1], pa[2], sa);
    for (unsigned bits = run; bits; bits &= bits - 1u) {
        const int i = __builtin_ctz(bits);
        const float wp[3] = { p[0][i], p[1][i], p[2][i] }, wa[3] = { pa[0][i], pa[1][i], pa[2][i] };
        ep_step(&q[i], wp, wa);
        if (q[i].state != 0)
            run &= ~(1u << i);
    }
    return run;
}

/* The converged lanes' answers (`good`: the cores' depth, normal and A's
 * core point, `steps` more iterations) into the chunk lanes: distance
 * minus both margins, witnesses out along n by them, in world scale and
 * axes as the loops write theirs (offsets from A's position). */
static GJKB_INLINE void ep_store(const gjkb__lanes *l, const pack_w *k, const uint32_t *lane, unsigned good,
                                 const float n[3][GJKB_W], const float depth[GJKB_W], const float a[3][GJKB_W],
                                 const int32_t steps[GJKB_W])
{
    v3w nv = v3_load(n[0], n[1], n[2]);
    fw dist = fw_neg(fw_add(fw_load(depth), k->m));
    v3w as = v3_madd(v3_load(a[0], a[1], a[2]), nv, k->ma);
    v3w bs = v3_madd(as, nv, dist);
    _Alignas(64) float out[10][GJKB_W];
    fw_store(out[0], pk_world_dist(dist, k->scale));
    v3w aw = v3_scale(m3_mul(k->ra, as), k->scale), bw = v3_scale(m3_mul(k->ra, bs), k->scale);
    v3w nw = m3_mul(k->ra, nv);
    v3_store(out[1], out[2], out[3], aw);
    v3_store(out[4], out[5], out[6], bw);
    v3_store(out[7], out[8], out[9], nw);
    float *const to[10] = { l->dist, l->ax, l->ay, l->az, l->bx, l->by, l->bz, l->nx, l->ny, l->nz };
    for (unsigned bits = good; bits; bits &= bits - 1u) {
        const int i = __builtin_ctz(bits);
        const uint32_t j = lane[i];
        for (int f = 0; f < 10; f++)
            to[f][j] = out[f][i];
        l->iterations[j] += steps[i];
    }
}

/* The lanes `flat` of fin hold a face with the origin on it (within the
 * band): each gets its fourth point, the support along the face's normal
 * on the origin's side, across lanes. The origin is then inside the
 * tetrahedron or on its face, which ep_face_set allows within EP_GAP. */
static GJKB_INLINE void ep_complete(const gjkb__world *w, const pack_w *k, float fin[GJKB_K_FINAL_FIELDS][GJKB_W],
                                    unsigned flat)
{
    _Alignas(64) float d[3][GJKB_W];
    for (int i = 0; i < GJKB_W; i++) {
        float u[3], v[3], m[3];
        for (int c = 0; c < 3; c++) {
            u[c] = fin[3 + c][i] - fin[c][i];
            v[c] = fin[6 + c][i] - fin[c][i];
        }
        m[0] = u[1] * v[2] - u[2] * v[1];
        m[1] = u[2] * v[0] - u[0] * v[2];
        m[2] = u[0] * v[1] - u[1] * v[0];
        const float p0[3] = { fin[0][i], fin[1][i], fin[2][i] };
        float len = sqrtf(ep_dot(m, m)), s = ep_dot(m, p0) > 0.0f ? -1.0f : 1.0f;
        for (int c = 0; c < 3; c++)
            d[c][i] = flat >> i & 1u && len > 0.0f ? s * m[c] / len : 0.0f;
    }
    v3w sa, sb;
    v3w p = sp_pair(&k->sa, &k->sb, &k->pose, k->inv_scale, v3_load(d[0], d[1], d[2]), w, mw_from_bits(flat), &sa, &sb);
    _Alignas(64) float pp[3][GJKB_W], pa[3][GJKB_W];
    v3_store(pp[0], pp[1], pp[2], p);
    v3_store(pa[0], pa[1], pa[2], sa);
    for (unsigned bits = flat; bits; bits &= bits - 1u) {
        const int i = __builtin_ctz(bits);
        for (int c = 0; c < 3; c++) {
            fin[9 + c][i] = pp[c][i];
            fin[21 + c][i] = pa[c][i];
        }
        fin[GJKB_K_FINAL_COUNT][i] = 4.0f;
    }
}

/* EPA for n <= W lanes of a bundle (chunk lanes `lane`); ok[i] = 1 where
 * lane i was answered. */
__attribute__((noinline)) static void ep_bundle(const gjkb__world *w, const pack_w *k, const gjkb__lanes *l, const uint32_t *lane,
                                  int n, int32_t *ok)
{
    _Alignas(64) float fin[GJKB_K_FINAL_FIELDS][GJKB_W];
    ep_poly q[GJKB_W];
    unsigned run = 0, flat = 0;
    for (int i = 0; i < GJKB_W; i++)
        for (int f = 0; f < GJKB_K_FINAL_FIELDS; f++)
            fin[f][i] = i < n ? l->fin[f][lane[i]] : 0.0f;
    for (int i = 0; i < n; i++)
        flat |= (fin[GJKB_K_FINAL_COUNT][i] == 3.0f ? 1u : 0u) << i;
    if (flat)
        ep_complete(w, k, fin, flat);
    for (int i = 0; i < n; i++) {
        ep_start(&q[i], fin, i);
        run |= (q[i].state == 0 ? 1u : 0u) << i;
    }
    for (int s = 0; s < EP_STEPS && run; s++)
        run = ep_steps(w, k, q, run);
    _Alignas(64) float nn[3][GJKB_W], depth[GJKB_W], a[3][GJKB_W];
    int32_t steps[GJKB_W];
    unsigned good = 0;
    for (int i = 0; i < GJKB_W; i++) {
        steps[i] = i < n ? q[i].steps : 0;
        float ni[3] = { 0.0f, 0.0f, 1.0f }, ai[3] = { 0.0f, 0.0f, 0.0f }, di = 0.0f;
        int done = i < n && q[i].state == 1 && ep_answer(&q[i], ni, &di, ai);
        good |= (done ? 1u : 0u) << i;
        ok[i] = done;
        for (int c = 0; c < 3; c++) {
            nn[c][i] = ni[c];
            a[c][i] = ai[c];
        }
        depth[i] = di;
    }
    if (good)
        ep_store(l, k, lane, good, nn, depth, a, steps);
}

/* The queued lanes `in` (cores overlapping, final simplex in l->fin)
 * through EPA, a bundle at a time; ok[i] = 1 where in->lane[i] got its
 * depth, normal and witnesses. */
static GJKB_INLINE void ep_run(const gjkb__world *w, const gjkb__lanes *l, const lane_queue *in, int32_t *ok)
{
    ls_chunk ch;
    gjkb__world rw = ls_chunk_world(w, in, 0, &ch);
    for (uint32_t o = 0; o < in->n; o += GJKB_W) {
        pack_w k;
        pk_bundle(&rw, in->n, o, 1, 0, &k);
        const int n = in->n - o < GJKB_W ? (int)(in->n - o) : GJKB_W;
        ep_bundle(&rw, &k, l, in->lane + o, n, ok + o);
    }
}
