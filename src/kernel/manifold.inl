/* manifold.inl - the contact manifold of the kind pairs the box closed
 * forms do not answer (rounded boxes, capsules, spheres, hulls, cylinders,
 * cones), one lane
 * at a time in plain float: the reference's rule (docs/contacts.md,
 * "Algorithm (reference)" step 4) written again for float, not shared
 * with src/scalar. For each side the feature most aligned with n (A) or
 * -n (B): a point, a segment or a convex polygon with vertex ids; both
 * projected along n onto the plane perpendicular to it and clipped there
 * (two polygons: Sutherland-Hodgman of B's against A's; a segment and a
 * polygon: Cyrus-Beck; a point, or two crossing segments: where they
 * meet); each clipped point lifted back onto both features, kept up
 * to max(keep, dist + 1.5e-3 * extent), reduced to at most four (the
 * deepest snapped to dist, the farthest, then the most added area, twins
 * within 1e-6 dropped).
 *
 * Float decides only what it decides clearly: wherever a quantity falls
 * within its float error of a threshold of the rule (a feature's tilt, a
 * hull face's planarity or a second face nearly as aligned, the
 * separation filter, the snap of the deepest, the twin distance, the area
 * floor) the lane is not answered here and goes to the reference. So do
 * parallel segments (their common stretch hangs on 1e-7 lateral offsets)
 * and hull bands that are not a single vertex; a lane with a cylinder or
 * a cone keeps its axis error (MG_CURVED_AXIS) from every threshold.
 *
 * Per lane, plain scalar float (no FMA, no libm beyond sqrtf): the same
 * bits at every width and on every target. */

#define MG_FACE_SIN 1.5e-3f   /* the strict rule's angle (sine) */
#define MG_ALIGN_D 0.5f       /* 1 - the aligned rule's cosine (60 degrees) */
#define MG_MARGIN_SHARE 0.1f  /* share of the band a rounded face may leave the surface by */
#define MG_SLACK 1e-4f        /* a sine (or cosine gap) this close to a threshold: the reference decides */
#define MG_FEAT_MAX 32        /* points of a feature (the reference's limit) */
#define MG_CANDS (2 * MG_FEAT_MAX + 2)
#define MG_SPAN_DIST 1e-6f    /* twins: the reference's M_SPAN_DIST */
#define MG_SPAN_AREA 5e-11f   /* least added area: M_SPAN_AREA, */
#define MG_SPAN_SLACK 1e-5f   /* ... or this share of the area so far */
/* Twin distances in this range, areas within MG_AREA_EPS * extent^2 of
 * the floor, separations within MG_SEP_EPS + MG_SEP_TILT * extent of the
 * limit (float rounding, and GJK's float axis: up to about 1e-5 rad where
 * the axis is trusted, times the lateral reach) are not decided here. */
#define MG_TWIN_LO 3e-7f
#define MG_TWIN_HI 3e-6f
#define MG_AREA_EPS 1e-6f
#define MG_SEP_EPS 4e-6f
#define MG_SEP_TILT 1e-5f
/* A lane with a cylinder or a cone: EPA's float axis on their curved
 * sides is only good to about 1e-3 rad (a polytope inscribed within its
 * 1e-6 gap), so every decision on that lane keeps this much (a sine)
 * from its threshold, and separations this much per unit of reach. */
#define MG_CURVED_AXIS 2e-3f
/* ... and its deepest point is snapped to the distance only this close:
 * the points then stay on the surfaces to within it */
#define MG_CURVED_SNAP 2e-6f
/* Clipping: a segment within MG_ALONG of a polygon edge's line (both
 * ends, scaled units), or clipped points spanning less than MG_SHORT, are
 * not decided here (features touching at a corner, rounded). */
#define MG_ALONG 1e-5f
#define MG_SHORT 1e-3f
/* Cosines of float unit normals: a few roundings. */
#define MG_COS_EPS 1e-6f
/* A hull this small against the pair's scale: its face planarity (1e-11
 * of the pair's unit in the reference) is not resolved by the host's
 * check (gjkb__face.exact). */
#define MG_HULL_MIN 2e-4f

enum { MG_VERTEX = 0, MG_EDGE = 1, MG_FACE = 2 };

static GJKB_INLINE uint16_t mg_key(int type, unsigned index)
{
    return (uint16_t)((unsigned)type << 14 | (index & 0x3FFFu));
}

/* A 14-bit mix of up to three ids, the header's hash of hull edges (ids
 * lo < hi, 0) and faces (their three lowest distinct ids, 0xFFFF for
 * missing ones). */
static GJKB_INLINE unsigned mg_mix(unsigned a, unsigned b, unsigned c)
{
    unsigned h = a * 2654435761u ^ (b + 0x9E37u) * 40503u ^ (c + 0x7F4Au) * 2246822519u;
    return (h ^ h >> 15 ^ h >> 28) & 0x3FFFu;
}

/* Box edge between corners lo and hi (one bit apart): 4 * axis + the other
 * two coordinates' bits in increasing axis order. */
static GJKB_INLINE unsigned mg_box_edge(unsigned i, unsigned j)
{
    unsigned lo = i < j ? i : j, d = i ^ j;
    unsigned axis = d == 1 ? 0 : d == 2 ? 1 : 2, a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2;
    return axis * 4 + ((lo >> a & 1u) | (lo >> b & 1u) << 1);
}

static GJKB_INLINE float mg_dot(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static GJKB_INLINE float mg_len(const float a[3])
{
    return sqrtf(mg_dot(a, a));
}

static GJKB_INLINE void mg_cross(const float a[3], const float b[3], float o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* 1: s is clearly within lim (taken), -1: clearly beyond, 0: too close. */
static GJKB_INLINE int mg_within(float s, float lim, float slack)
{
    return s <= lim - slack ? 1 : s > lim + slack ? -1 : 0;
}

/* One side of a lane: kind, core (scaled), margin; a hull's points
 * (unscaled, times inv) and faces. */
typedef struct mg_side {
    int kind;
    float h[3], rd, margin, inv;   /* rd: a cylinder's or cone's radius */
    float slack;                   /* the lane's axis error (a sine) */
    const float *px, *py, *pz;
    int32_t npts, nface;
    const gjkb__face *face;
    const int32_t *fv;
    const int32_t *ring, *ring_at, *ring_n;   /* per point: the faces around it */
    float radius;   /* the hull's radius, scaled */
    int side;       /* a capsule touching along its side (mg_side_contact) */
} mg_side;

/* A feature: 1 point, 2 (a segment) or a convex polygon; its points (own
 * frame, then A's), where they fall in the plane, ids and key; a
 * polygon's plane m . p = c (A's frame, unit m). */
typedef struct mg_feat {
    int n, kind;
    float slack;
    float blur;     /* how far the axis error may move a point in the plane */
    float drift[2]; /* a segment's ends: how far they move with the axis (a generator) */
    float p[MG_FEAT_MAX][3];
    float x[MG_FEAT_MAX], y[MG_FEAT_MAX];
    uint16_t id[MG_FEAT_MAX];
    uint16_t key;
    float m[3], c;
    /* a rim polygon (cap, base): the true rim's support point along u,
     * and how far u leans off the rim's axis (a sine; 0 for others) */
    float deep[3], deep_lat, deep_r;
} mg_feat;

static GJKB_INLINE void mg_put(mg_feat *f, int i, float x, float y, float z, unsigned id)
{
    f->p[i][0] = x;
    f->p[i][1] = y;
    f->p[i][2] = z;
    f->id[i] = (uint16_t)(id & 0x3FFFu);
}

/* The aligned rule's largest tilt as a sine: cosine 1 - d, d = 0.5, or
 * for a rounded core the share of the band over the margin if less. */
static GJKB_INLINE float mg_max_sin(float margin, float band)
{
    float d = MG_ALIGN_D;
    if (margin > 0.0f && MG_MARGIN_SHARE * band / margin < d)
        d = MG_MARGIN_SHARE * band / margin;
    return sqrtf(d * (2.0f - d));
}

static GJKB_INLINE void mg_point(mg_feat *f, float x, float y, float z, unsigned id)
{
    f->n = 1;
    mg_put(f, 0, x, y, z, id);
    f->key = mg_key(MG_VERTEX, id);
}

static GJKB_INLINE void mg_line(mg_feat *f, const float p[3], unsigned i, const float q[3], unsigned j, unsigned edge)
{
    f->n = 2;
    mg_put(f, 0, p[0], p[1], p[2], i);
    mg_put(f, 1, q[0], q[1], q[2], j);
    f->key = mg_key(MG_EDGE, edge);
    f->drift[0] = f->drift[1] = 0.0f;
}

static GJKB_INLINE void mg_box_corner(const mg_side *s, unsigned id, float o[3])
{
    o[0] = id & 1u ? s->h[0] : -s->h[0];
    o[1] = id & 2u ? s->h[1] : -s->h[1];
    o[2] = id & 4u ? s->h[2] : -s->h[2];
}

/* The box face of axis k on the side of base's bit k, corners in order. */
static GJKB_INLINE void mg_box_face(const mg_side *s, unsigned k, unsigned base, mg_feat *f)
{
    unsigned i = 1u << (k + 1) % 3, j = 1u << (k + 2) % 3, face = base & ~(i | j);
    const unsigned corner[4] = { face, face | i, face | i | j, face | j };
    f->n = 4;
    for (int c = 0; c < 4; c++) {
        float p[3];
        mg_box_corner(s, corner[c], p);
        mg_put(f, c, p[0], p[1], p[2], corner[c]);
    }
    f->key = mg_key(MG_FACE, 2 * k + (base >> k & 1u));
}

/* Box: the face of largest |u_k| where the rule takes it (the lowest k on
 * a tie: a near tie is not decided here); else strictly a face, an edge
 * or the vertex. */
static GJKB_INLINE int mg_box(const mg_side *s, const float u[3], float max_sin, mg_feat *f)
{
    /* a flat box's faces have no area: the reference's point (its
     * deepest corner), not decided here */
    if (!(s->h[0] > 0.0f && s->h[1] > 0.0f && s->h[2] > 0.0f))
        return 0;
    float len = mg_len(u), a[3] = { fabsf(u[0]) / len, fabsf(u[1]) / len, fabsf(u[2]) / len }, lat[3];
    unsigned base = (u[0] > 0.0f) | (u[1] > 0.0f) << 1 | (u[2] > 0.0f) << 2, best = 0;
    for (unsigned k = 0; k < 3; k++) {
        lat[k] = sqrtf(a[(k + 1) % 3] * a[(k + 1) % 3] + a[(k + 2) % 3] * a[(k + 2) % 3]);
        if (a[k] > a[best])
            best = k;
    }
    int taken = mg_within(lat[best], max_sin, s->slack);
    if (taken > 0) {
        for (unsigned k = 0; k < 3; k++)
            if (k != best && a[k] >= a[best] - s->slack)
                return 0;
        mg_box_face(s, best, base, f);
        return 1;
    }
    if (taken == 0)
        return 0;
    for (unsigned k = 0; k < 3; k++) {
        int face = mg_within(lat[k], MG_FACE_SIN, s->slack);
        if (face == 0)
            return 0;
        if (face > 0) {
            mg_box_face(s, k, base, f);
            return 1;
        }
    }
    for (unsigned k = 0; k < 3; k++) {
        int edge = mg_within(a[k], MG_FACE_SIN, s->slack);
        if (edge == 0)
            return 0;
        if (edge < 0)
            continue;
        unsigned lo = base & ~(1u << k), hi = lo | 1u << k;
        float p[3], q[3];
        mg_box_corner(s, lo, p);
        mg_box_corner(s, hi, q);
        mg_line(f, p, lo, q, hi, mg_box_edge(lo, hi));
        return 1;
    }
    float p[3];
    mg_box_corner(s, base, p);
    mg_point(f, p[0], p[1], p[2], base);
    return 1;
}

/* Capsule: its segment where the rule takes its tilt or it is strictly
 * perpendicular to u; else the end along u. */
static GJKB_INLINE int mg_capsule(const mg_side *s, const float u[3], float max_sin, mg_feat *f)
{
    float len = mg_len(u), tilt = fabsf(u[2]) / len;
    int taken = mg_within(tilt, max_sin, s->slack), strict = mg_within(tilt, MG_FACE_SIN, s->slack);
    if (s->h[2] > 0.0f && (taken > 0 || strict > 0 || s->side)) {
        const float lo[3] = { 0.0f, 0.0f, -s->h[2] }, hi[3] = { 0.0f, 0.0f, s->h[2] };
        mg_line(f, lo, 0, hi, 1, 0);
        return 1;
    }
    /* the end: known when the segment is clearly not taken (or is a
     * point) and u's side of it is clear */
    if ((s->h[2] > 0.0f && (taken == 0 || strict == 0)) || tilt < s->slack)
        return 0;
    unsigned top = u[2] >= 0.0f;
    mg_point(f, 0.0f, 0.0f, top ? s->h[2] : -s->h[2], top);
    return 1;
}

static GJKB_INLINE void mg_hull_point(const mg_side *s, int32_t i, float o[3])
{
    o[0] = s->px[i] * s->inv;
    o[1] = s->py[i] * s->inv;
    o[2] = s->pz[i] * s->inv;
}

/* The header's hull face key: the mix of its three lowest distinct ids. */
static GJKB_INLINE uint16_t mg_hull_face_key(const mg_feat *f)
{
    unsigned low[3] = { 0xFFFFu, 0xFFFFu, 0xFFFFu };
    for (int k = 0; k < f->n; k++) {
        unsigned v = f->id[k];
        if (v < low[0])
            low[2] = low[1], low[1] = low[0], low[0] = v;
        else if (v < low[1] && v != low[0])
            low[2] = low[1], low[1] = v;
        else if (v < low[2] && v != low[0] && v != low[1])
            low[2] = v;
    }
    return mg_key(MG_FACE, mg_mix(low[0], low[1], low[2]));
}

static GJKB_INLINE float mg_face_dot(const mg_side *s, int32_t i, const float u[3])
{
    const gjkb__face *g = &s->face[i];
    return g->nx * u[0] + g->ny * u[1] + g->nz * u[2];
}

static GJKB_INLINE float mg_point_dot(const mg_side *s, int32_t i, const float u[3])
{
    float p[3];
    mg_hull_point(s, i, p);
    return mg_dot(p, u);
}

enum { MG_NO_FACE = -1, MG_UNSURE = -2, MG_NO_HOLD = -3 };

/* Faces around one hull point followed here; more: the reference's. */
#define MG_RING 64

/* The faces around hull point v in turn (the host walked them across the
 * edges leaving v: context.c) into *ring. Their count; 0 where there are
 * none, more than MG_RING - 1, or one the reference may not find (not
 * exact: the host leaves such rings empty). */
static GJKB_INLINE int mg_ring(const mg_side *s, int32_t v, const int32_t **ring)
{
    const int32_t n = s->ring_n[v];
    *ring = s->ring + s->ring_at[v];
    return n < MG_RING ? n : 0;
}

/* The face through hull point v most aligned with u, when clearly so: the
 * axis error (slack, a sine) moves two faces' cosines apart by at most it
 * times their normals' difference. MG_NO_FACE when none can be within
 * the rule's tilt. The faces are ranked by their normals' dots with u
 * (len = |u| > 0 keeps the cosines' order, and a tie the division would
 * make is unsure either way); a face whose dot falls short of the best by
 * MG_SURE is clearly apart without its cosine (unit normals differ by at
 * most 2, and the cosines' roundings are far below 1e-6). */
#define MG_SURE(slack) (2.0002f * (slack) + MG_COS_EPS + 1e-6f)

static GJKB_INLINE int32_t mg_face_around(const mg_side *s, int32_t v, const float u[3], float len, float max_sin)
{
    const int32_t *ring;
    const int n = mg_ring(s, v, &ring);
    if (n == 0)
        return MG_UNSURE;
    float dot[MG_RING], hi = dot[0] = mg_face_dot(s, ring[0], u);
    int32_t best = 0;
    for (int i = 1; i < n; i++) {
        dot[i] = mg_face_dot(s, ring[i], u);
        if (dot[i] > hi)
            best = i, hi = dot[i];
    }
    const float top = hi / len;
    if (!(top > 0.0f) || mg_within(sqrtf(fmaxf(1.0f - top * top, 0.0f)), max_sin, s->slack) < 0)
        return MG_NO_FACE;
    const gjkb__face *g = &s->face[ring[best]];
    const float sure = MG_SURE(s->slack) * len;
    for (int i = 0; i < n; i++) {
        if (i == best || hi - dot[i] > sure)
            continue;
        const gjkb__face *h = &s->face[ring[i]];
        float dn[3] = { g->nx - h->nx, g->ny - h->ny, g->nz - h->nz };
        if (!(top - dot[i] / len > s->slack * mg_len(dn) + MG_COS_EPS))
            return MG_UNSURE;
    }
    return ring[best];
}

/* Whether hull face i has every point of tied[0..n) among its vertices. */
static GJKB_INLINE int mg_face_holds(const mg_side *s, int32_t i, const int32_t *tied, int n)
{
    const gjkb__face *g = &s->face[i];
    for (int t = 0; t < n; t++) {
        int32_t k = 0;
        while (k < g->count && s->fv[g->first + k] != tied[t])
            k++;
        if (k == g->count)
            return 0;
    }
    return 1;
}

/* The face most aligned with u of those around tied[0] that hold every
 * tied point (the reference's: the faces through a tied top), when
 * clearly so; MG_NO_HOLD where none holds them. */
static GJKB_INLINE int32_t mg_face_through(const mg_side *s, const int32_t *tied, int n, const float u[3], float len,
                                           float max_sin)
{
    const int32_t *ring;
    const int nr = mg_ring(s, tied[0], &ring);
    int32_t held[MG_RING];
    float dot[MG_RING];
    int nh = 0, best = 0;
    for (int i = 0; i < nr; i++)
        if (mg_face_holds(s, ring[i], tied, n)) {
            held[nh] = ring[i];
            dot[nh] = mg_face_dot(s, ring[i], u);
            best = dot[nh] > dot[best] ? nh : best;
            nh++;
        }
    if (nh == 0)
        return MG_NO_HOLD;
    const float top = dot[best] / len;
    if (!(top > 0.0f) || mg_within(sqrtf(fmaxf(1.0f - top * top, 0.0f)), max_sin, s->slack) < 0)
        return MG_NO_FACE;
    const gjkb__face *g = &s->face[held[best]];
    for (int i = 0; i < nh; i++) {
        const gjkb__face *h = &s->face[held[i]];
        float dn[3] = { g->nx - h->nx, g->ny - h->ny, g->nz - h->nz };
        if (i != best && !(top - dot[i] / len > s->slack * mg_len(dn) + MG_COS_EPS))
            return MG_UNSURE;
    }
    return held[best];
}

/* Hull points tied with the top along u, as the reference ties them
 * (within MG_TIE of the radius, its H_TIE); points near the top looked
 * at, at most. */
#define MG_TIE 1e-3f
#define MG_NEAR 16

/* The face every point that may be the top gives (the same face or
 * none): the reference's where no face holds its ties, and where the
 * ties cannot be told (held) when it holds every point that may be tied,
 * since the reference's face then holds its ties and is the most aligned
 * around its top. */
static GJKB_INLINE int32_t mg_face_of_tops(const mg_side *s, const int32_t *near, const float *below, int n, float err,
                                           int held, const float u[3], float len, float max_sin)
{
    int32_t face = MG_UNSURE;
    for (int i = 0; i < n; i++) {
        if (!(below[i] <= err))
            continue;
        int32_t f = mg_face_around(s, near[i], u, len, max_sin);
        if (f == MG_UNSURE || (face != MG_UNSURE && f != face))
            return MG_UNSURE;
        face = f;
    }
    if (face == MG_NO_FACE) /* the faces through the ties are no more aligned */
        return face;
    for (int i = 0; i < n && face >= 0 && held; i++)
        if (!mg_face_holds(s, face, &near[i], 1))
            return MG_UNSURE;
    return face;
}

/* The face the reference takes along u: of those through its support
 * point, or through every point tied with it. In float the axis error
 * (slack, over the hull's diameter) moves a point's depth below the top
 * by up to err: a point is surely tied, surely not, or may be. */
static GJKB_INLINE int32_t mg_top_face(const mg_side *s, const float u[3], float len, float max_sin)
{
    float top = -INFINITY;
    for (int32_t i = 0; i < s->npts; i++) {
        float d = mg_point_dot(s, i, u);
        top = d > top ? d : top; /* fmaxf's answer, without its libm call */
    }
    const float err = (2.0f * s->slack + MG_COS_EPS) * s->radius * len, tie = MG_TIE * s->radius * len;
    int32_t near[MG_NEAR];
    float below[MG_NEAR];
    int n = 0, told = 1; /* told: every point near the top surely tied */
    for (int32_t i = 0; i < s->npts; i++) {
        float b = top - mg_point_dot(s, i, u);
        if (!(b <= tie + err))
            continue;
        if (n == MG_NEAR)
            return MG_UNSURE;
        near[n] = i;
        below[n++] = b;
        told = told && b < tie - err;
    }
    if (n == 1) /* the top, tied with no other */
        return mg_face_around(s, near[0], u, len, max_sin);
    if (!told)
        return mg_face_of_tops(s, near, below, n, err, 1, u, len, max_sin);
    int32_t face = mg_face_through(s, near, n, u, len, max_sin);
    return face == MG_NO_HOLD ? mg_face_of_tops(s, near, below, n, err, 0, u, len, max_sin) : face;
}

/* The hull's face the reference takes along u (from the topology; the
 * reference finds it from the points): 1 when the rule takes its tilt
 * and it is surely the reference's; not taken: -1; undecided: 0. */
static GJKB_INLINE int mg_hull_face(const mg_side *s, const float u[3], float max_sin, mg_feat *f)
{
    if (s->nface == 0)
        return -1;
    float len = mg_len(u);
    int32_t at = mg_top_face(s, u, len, max_sin);
    if (at < 0)
        return at == MG_NO_FACE ? -1 : 0;
    const gjkb__face *g = &s->face[at];
    float m[3] = { g->nx, g->ny, g->nz }, c[3];
    mg_cross(m, u, c);
    int taken = mg_within(mg_len(c) / len, max_sin, s->slack);
    if (taken <= 0 || g->count > MG_FEAT_MAX)
        return taken < 0 ? -1 : 0;
    f->n = g->count;
    for (int32_t i = 0; i < g->count; i++) {
        int32_t v = s->fv[g->first + i];
        float p[3];
        mg_hull_point(s, v, p);
        mg_put(f, i, p[0], p[1], p[2], (unsigned)v);
    }
    f->key = mg_hull_face_key(f);
    return 1;
}

/* The strict rule's band about hull point `top` (the support point along
 * un): MG_NO_FACE where no other point is in it, the other where one is
 * (its depth below top in *below), MG_UNSURE where more are or one lies
 * on the band's edge. */
static GJKB_INLINE int32_t mg_band_other(const mg_side *s, const float un[3], int32_t top, float *below)
{
    float t[3];
    mg_hull_point(s, top, t);
    int32_t other = MG_NO_FACE;
    for (int32_t i = 0; i < s->npts; i++) {
        float p[3], d[3];
        mg_hull_point(s, i, p);
        for (int k = 0; k < 3; k++)
            d[k] = p[k] - t[k];
        float b = -mg_dot(d, un);
        float lat[3] = { d[0] + b * un[0], d[1] + b * un[1], d[2] + b * un[2] };
        float reach = mg_len(lat);
        if (i == top || b > (MG_FACE_SIN + s->slack) * reach + MG_SEP_EPS)
            continue;
        if (other >= 0 || !(b < (MG_FACE_SIN - s->slack) * reach - MG_SEP_EPS))
            return MG_UNSURE;
        other = i;
        *below = b;
    }
    return other;
}

/* The strict band's edge from the support point `best` (at top) to
 * `other`, where the plane through it nearest u clearly holds every hull
 * point below (the reference's check that the band is the hull's edge). */
static GJKB_INLINE int mg_hull_edge(const mg_side *s, const float un[3], const float top[3], int32_t best, int32_t other,
                                    mg_feat *f)
{
    float q[3], e[3];
    mg_hull_point(s, other, q);
    for (int k = 0; k < 3; k++)
        e[k] = q[k] - top[k];
    float el = mg_len(e), along = mg_dot(un, e) / (el * el);
    float m[3] = { un[0] - along * e[0], un[1] - along * e[1], un[2] - along * e[2] };
    float ml = mg_len(m), h = mg_dot(top, m);
    for (int32_t i = 0; i < s->npts; i++)
        if (i != best && i != other && !(mg_point_dot(s, i, m) < h - MG_SEP_EPS * ml))
            return 0;
    unsigned lo = (unsigned)(best < other ? best : other) & 0x3FFFu, hi = (unsigned)(best < other ? other : best) & 0x3FFFu;
    mg_line(f, top, (unsigned)best, q, (unsigned)other, mg_mix(lo, hi, 0));
    return 1;
}

/* Hull: the aligned face; else the support point when no other point is
 * in the strict rule's band, or the edge when one other is (a band of
 * more points, a tilted face, is not decided here). */
static GJKB_INLINE int mg_hull(const mg_side *s, const float u[3], float max_sin, mg_feat *f)
{
    if (!(s->radius >= MG_HULL_MIN))
        return 0;
    int face = mg_hull_face(s, u, max_sin, f);
    if (face >= 0)
        return face;
    float len = mg_len(u), un[3] = { u[0] / len, u[1] / len, u[2] / len }, top[3];
    int32_t best = 0;
    float topd = -INFINITY;
    for (int32_t i = 0; i < s->npts; i++) {
        float p[3];
        mg_hull_point(s, i, p);
        if (mg_dot(p, un) > topd)
            topd = mg_dot(p, un), best = i;
    }
    mg_hull_point(s, best, top);
    float below = 0.0f;
    int32_t other = mg_band_other(s, un, best, &below);
    if (other == MG_UNSURE)
        return 0;
    if (other < 0) {
        mg_point(f, top[0], top[1], top[2], (unsigned)best);
        return 1;
    }
    /* an edge square to u within rounding: either end may be the
     * reference's top, and the band is measured from it */
    if (below <= MG_SEP_EPS && mg_band_other(s, un, other, &below) != best)
        return 0;
    return mg_hull_edge(s, un, top, best, other, f);
}

/* The axis error of a lane of slack `slack` (a sine): a curved lane's
 * own, else the flat kinds' tilt (an exact axis is good to it). */
static GJKB_INLINE float mg_axis_err(float slack)
{
    return slack > MG_SLACK ? slack : MG_SEP_TILT;
}

/* The rim polygon of a disk of radius r at height z (the header's
 * GJKB_CONTACT_RIM points at angles 2 pi k / RIM), ids from first; the
 * true rim's support point along the unit un. */
_Static_assert(GJKB_CONTACT_RIM == 8, "mg_rim's table holds 8 rim points");
static GJKB_INLINE void mg_rim(float r, float z, unsigned first, uint16_t key, const float un[3], mg_feat *f)
{
    static const float c[8] = { 1.0f, 0.70710678f, 0.0f, -0.70710678f, -1.0f, -0.70710678f, 0.0f, 0.70710678f };
    f->n = GJKB_CONTACT_RIM;
    for (int k = 0; k < GJKB_CONTACT_RIM; k++)
        mg_put(f, k, r * c[k], r * c[(k + 6) % 8], z, first + (unsigned)k);
    f->key = key;
    float lat = sqrtf(un[0] * un[0] + un[1] * un[1]);
    f->deep_lat = lat;
    f->deep_r = r;
    f->deep[0] = lat > 0.0f ? r * (un[0] / lat) : 0.0f;
    f->deep[1] = lat > 0.0f ? r * (un[1] / lat) : 0.0f;
    f->deep[2] = z;
}

/* Cylinder (radius rd, half height h[2]; the reference's ids: cap k's rim
 * points k * M + i, 2M and 2M + 1 the side line's ends): the cap where it
 * is more aligned than the side and taken, or strictly facing u; the side
 * line where taken or strictly facing u; else the rim point along u.
 * Every choice made here is clear of the rule's thresholds. */
static GJKB_INLINE int mg_cylinder(const mg_side *s, const float u[3], float max_sin, mg_feat *f)
{
    enum { M = GJKB_CONTACT_RIM };
    float len = mg_len(u), ux = u[0] / len, uy = u[1] / len, uz = u[2] / len;
    float lat = sqrtf(ux * ux + uy * uy), r = s->rd, h = s->h[2], az = fabsf(uz);
    if (!(r >= MG_HULL_MIN || r == 0.0f) || fabsf(az - lat) <= s->slack)
        return 0;
    unsigned top = uz >= 0.0f;
    float z = top ? h : -h;
    if (az > lat) {
        int taken = r > 0.0f ? mg_within(lat, max_sin, s->slack) : -1, strict = mg_within(lat, MG_FACE_SIN, s->slack);
        if (taken == 0 || (taken < 0 && strict == 0))
            return 0;
        if (taken > 0 || strict > 0) {
            if (r > 0.0f)
                mg_rim(r, z, top * M, mg_key(MG_FACE, top), (const float[3]){ ux, uy, uz }, f);
            else
                mg_point(f, 0.0f, 0.0f, z, 2 * M + top);
            return 1;
        }
    }
    const float rim[3] = { r * (ux / lat), r * (uy / lat), z };
    int side = az < lat && h > 0.0f ? mg_within(az, max_sin, s->slack) : -1;
    int strict = h > 0.0f ? mg_within(az, MG_FACE_SIN, s->slack) : -1;
    if (side == 0 || (side < 0 && strict == 0))
        return 0;
    if (side > 0 || strict > 0) {
        const float lo[3] = { rim[0], rim[1], -h }, hi[3] = { rim[0], rim[1], h };
        mg_line(f, lo, 2 * M, hi, 2 * M + 1, 2 * M);
        /* the side line is the one under u: the axis error turns it about
         * the core's axis by up to itself over lat */
        f->drift[0] = f->drift[1] = r * mg_axis_err(s->slack) / lat;
        return 1;
    }
    mg_point(f, rim[0], rim[1], rim[2], 2 * M + top);
    return 1;
}

/* Cone (base radius rd at -h[2], apex at +h[2]; the reference's ids: base
 * rim points 0..M-1, apex M, the rim point along u M + 1): the base where
 * it is more aligned than the slant on u's side and taken, or strictly
 * facing u; that slant line (apex to the rim point) where taken or
 * strictly facing u; else the apex or the rim point, the farther along u. */
static GJKB_INLINE int mg_cone(const mg_side *s, const float u[3], float max_sin, mg_feat *f)
{
    enum { M = GJKB_CONTACT_RIM };
    float len = mg_len(u), un[3] = { u[0] / len, u[1] / len, u[2] / len };
    float lat = sqrtf(un[0] * un[0] + un[1] * un[1]), r = s->rd, h = s->h[2];
    if (!(r >= MG_HULL_MIN || r == 0.0f) || !(h >= MG_HULL_MIN || h == 0.0f))
        return 0;
    if (lat <= s->slack) {
        /* straight down: the base; up: the apex where no slant can be
         * taken (else the slant on u's side, which is not resolved) */
        if (un[2] < 0.0f && r > 0.0f) {
            mg_rim(r, -h, 0, mg_key(MG_FACE, 0), un, f);
            return 1;
        }
        float sl = sqrtf(4.0f * h * h + r * r);
        if (!(un[2] > 0.0f && h > 0.0f) ||
            (r > 0.0f && (mg_within(2.0f * h / sl, max_sin, s->slack) >= 0 ||
                          mg_within(2.0f * h / sl, MG_FACE_SIN, s->slack) >= 0)))
            return 0;
        mg_point(f, 0.0f, 0.0f, h, M);
        return 1;
    }
    const float apex[3] = { 0.0f, 0.0f, h }, rim[3] = { r * (un[0] / lat), r * (un[1] / lat), -h };
    int has_slant = r > 0.0f && h > 0.0f;
    float slant_cos = -INFINITY, slant_sin = 1.0f;
    if (has_slant) {
        float sl = sqrtf(4.0f * h * h + r * r), side[3] = { 2.0f * h * (un[0] / lat) / sl, 2.0f * h * (un[1] / lat) / sl, r / sl }, c[3];
        slant_cos = mg_dot(un, side);
        mg_cross(un, side, c);
        slant_sin = mg_len(c);
    }
    if (fabsf(-un[2] - slant_cos) <= s->slack)
        return 0;
    int base_first = -un[2] > slant_cos;
    int base = base_first && -un[2] > 0.0f ? mg_within(lat, max_sin, s->slack) : -1;
    int strict = un[2] < 0.0f ? mg_within(lat, MG_FACE_SIN, s->slack) : -1;
    if (r > 0.0f && (base == 0 || (base < 0 && strict == 0)))
        return 0;
    if (r > 0.0f && (base > 0 || strict > 0)) {
        mg_rim(r, -h, 0, mg_key(MG_FACE, 0), un, f);
        return 1;
    }
    int slant = has_slant && !base_first && slant_cos > 0.0f ? mg_within(slant_sin, max_sin, s->slack) : -1;
    int strict_slant = has_slant && slant_cos > 0.0f ? mg_within(slant_sin, MG_FACE_SIN, s->slack) : -1;
    if (slant == 0 || (slant < 0 && strict_slant == 0))
        return 0;
    if (slant > 0 || strict_slant > 0) {
        mg_line(f, apex, M, rim, M + 1, M);
        /* the slant line turns about the axis with u: its rim end moves */
        f->drift[1] = r * mg_axis_err(s->slack) / lat;
        return 1;
    }
    float da = mg_dot(apex, un), dr = mg_dot(rim, un);
    if (fabsf(da - dr) <= s->slack * (r + h))
        return 0;
    if (da > dr)
        mg_point(f, apex[0], apex[1], apex[2], M);
    else
        mg_point(f, rim[0], rim[1], rim[2], M + 1);
    return 1;
}

/* A side's feature along u (its own frame); 0: not decided here. */
static GJKB_INLINE int mg_feature(const mg_side *s, const float u[3], float band, mg_feat *f)
{
    float max_sin = mg_max_sin(s->margin, band);
    f->kind = s->kind;
    f->slack = s->slack;
    f->deep_lat = 0.0f;
    switch (s->kind) {
    case GJKB_SPHERE:
        mg_point(f, 0.0f, 0.0f, 0.0f, 0);
        return 1;
    case GJKB_CAPSULE:
        return mg_capsule(s, u, max_sin, f);
    case GJKB_BOX:
        return mg_box(s, u, max_sin, f);
    case GJKB_CYLINDER:
        return mg_cylinder(s, u, max_sin, f);
    case GJKB_CONE:
        return mg_cone(s, u, max_sin, f);
    case GJKB_HULL:
        return mg_hull(s, u, max_sin, f);
    default:
        return 0;
    }
}

/* The plane perpendicular to n: the reference's basis (u = n x the axis of
 * n's smallest component, normalized; v = n x u). */
typedef struct mg_plane {
    float n[3], u[3], v[3];
} mg_plane;

static GJKB_INLINE void mg_plane_of(const float n[3], mg_plane *pl)
{
    float ax = fabsf(n[0]), ay = fabsf(n[1]), az = fabsf(n[2]);
    float e[3] = { 0.0f, 0.0f, 0.0f };
    e[ax <= ay && ax <= az ? 0 : ay <= az ? 1 : 2] = 1.0f;
    for (int k = 0; k < 3; k++)
        pl->n[k] = n[k];
    mg_cross(n, e, pl->u);
    float inv = 1.0f / mg_len(pl->u);
    for (int k = 0; k < 3; k++)
        pl->u[k] *= inv;
    mg_cross(n, pl->u, pl->v);
}

/* B's point p into A's frame: r p + t. */
static GJKB_INLINE void mg_to_a(const float *r, const float *t, float p[3])
{
    float q[3] = { p[0], p[1], p[2] };
    for (int k = 0; k < 3; k++)
        p[k] = r[3 * k] * q[0] + r[3 * k + 1] * q[1] + r[3 * k + 2] * q[2] + t[k];
}

/* The feature's points into A's frame (B: r p + t), onto the plane, in the
 * reference's order: a segment by x then y, a polygon counter-clockwise
 * from its least (x, y); a polygon's plane. */
static GJKB_INLINE void mg_place(mg_feat *f, const float *r, const float *t, const mg_plane *pl, const float m[3])
{
    for (int i = 0; i < f->n; i++) {
        float *p = f->p[i];
        if (r)
            mg_to_a(r, t, p);
        f->x[i] = mg_dot(p, pl->u);
        f->y[i] = mg_dot(p, pl->v);
    }
    if (r && f->deep_lat > 0.0f)
        mg_to_a(r, t, f->deep);
    if (f->n < 2)
        return;
    float area = 0.0f;
    int low = 0;
    for (int i = 0; i < f->n; i++) {
        int j = (i + 1) % f->n;
        area += f->x[i] * f->y[j] - f->x[j] * f->y[i];
        if (f->x[i] < f->x[low] || (f->x[i] == f->x[low] && f->y[i] < f->y[low]))
            low = i;
    }
    mg_feat g = *f;
    int back = f->n > 2 && area < 0.0f;
    for (int i = 0; i < f->n; i++) {
        int from = back ? (low - i + f->n) % f->n : (low + i) % f->n;
        for (int k = 0; k < 3; k++)
            f->p[i][k] = g.p[from][k];
        f->x[i] = g.x[from];
        f->y[i] = g.y[from];
        f->id[i] = g.id[from];
        if (f->n == 2)
            f->drift[i] = g.drift[from];
    }
    if (f->n > 2) {
        for (int k = 0; k < 3; k++)
            f->m[k] = m[k];
        f->c = mg_dot(m, f->p[0]);
    }
}

/* A clipped point: where in the plane, its features on A and B, and how
 * far the axis error may move it along a segment it crosses an edge on. */
typedef struct mg_cand {
    float x, y;
    uint16_t ka, kb;
    float move;
} mg_cand;

static GJKB_INLINE mg_cand mg_cand_of(float x, float y, uint16_t ka, uint16_t kb)
{
    mg_cand c = { x, y, ka, kb, 0.0f };
    return c;
}

static GJKB_INLINE uint16_t mg_vertex_key(const mg_feat *f, int i)
{
    return mg_key(MG_VERTEX, f->id[i]);
}

static GJKB_INLINE uint16_t mg_edge_key(const mg_feat *f, int i)
{
    if (f->n == 2)
        return f->key;
    unsigned a = f->id[i], b = f->id[(i + 1) % f->n];
    if (f->kind == GJKB_BOX)
        return mg_key(MG_EDGE, mg_box_edge(a, b));
    if (f->kind == GJKB_CYLINDER || f->kind == GJKB_CONE) {
        /* a rim: the edge from point k to k + 1 is k's, the closing one M - 1's */
        unsigned lo = a < b ? a : b, hi = a < b ? b : a;
        return mg_key(MG_EDGE, hi - lo == 1 ? lo : hi);
    }
    return mg_key(MG_EDGE, mg_mix(a < b ? a : b, a < b ? b : a, 0));
}

static GJKB_INLINE float mg_cross2(float ax, float ay, float bx, float by)
{
    return ax * by - ay * bx;
}

/* Two segments: crossing (clearly not parallel) gives no points, the
 * witnesses stand for it; nearly parallel is the reference's (-1). */
static GJKB_INLINE int mg_clip_segments(const mg_feat *a, const mg_feat *b)
{
    float dx = a->x[1] - a->x[0], dy = a->y[1] - a->y[0], ex = b->x[1] - b->x[0], ey = b->y[1] - b->y[0];
    float la = sqrtf(dx * dx + dy * dy), lb = sqrtf(ex * ex + ey * ey);
    float s = fabsf(mg_cross2(dx, dy, ex, ey)) / (la * lb);
    return s > MG_FACE_SIN + a->slack ? 0 : -1;
}

/* Clipped points closer than this are a corner over an edge, decided by
 * rounding or by the axis error. */
static GJKB_INLINE float mg_short(const mg_feat *f)
{
    return MG_SHORT > 4.0f * f->blur ? MG_SHORT : 4.0f * f->blur;
}

/* Whether a vertex of p lies within d of q's boundary. */
static GJKB_INLINE int mg_near_boundary(const mg_feat *p, const mg_feat *q, float d)
{
    for (int i = 0; i < p->n; i++)
        for (int j = 0; j < q->n; j++) {
            int k = (j + 1) % q->n;
            float ex = q->x[k] - q->x[j], ey = q->y[k] - q->y[j], px = p->x[i] - q->x[j], py = p->y[i] - q->y[j];
            float ll = ex * ex + ey * ey, t = ll > 0.0f ? (px * ex + py * ey) / ll : 0.0f;
            t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
            float dx = px - t * ex, dy = py - t * ey;
            if (dx * dx + dy * dy <= d * d)
                return 1;
        }
    return 0;
}

/* A segment s against a polygon p (Cyrus-Beck): the stretch of s inside
 * p, its ends each s's vertex or edge against p's face or edge; MG_MISS
 * where s misses p by MG_SHORT. */
#define MG_MISS (-2)
static GJKB_INLINE int mg_clip_segment_polygon(const mg_feat *s, const mg_feat *p, int s_is_a, mg_cand *out)
{
    float tmin = 0.0f, tmax = 1.0f, umin = 0.0f, umax = 0.0f;
    int emin = -1, emax = -1, near0 = -1, near1 = -1;
    float sx = s->x[1] - s->x[0], sy = s->y[1] - s->y[0], len = sqrtf(sx * sx + sy * sy);
    for (int j = 0; j < p->n; j++) {
        int k = (j + 1) % p->n;
        float ex = p->x[k] - p->x[j], ey = p->y[k] - p->y[j], el = sqrtf(ex * ex + ey * ey);
        float f0 = mg_cross2(ex, ey, s->x[0] - p->x[j], s->y[0] - p->y[j]);
        float f1 = mg_cross2(ex, ey, s->x[1] - p->x[j], s->y[1] - p->y[j]);
        if (f0 < 0.0f && f1 < 0.0f)
            return f0 < -MG_SHORT * el && f1 < -MG_SHORT * el ? MG_MISS : 0;
        /* along the edge's line: in or out is float's rounding (or the
         * axis error, which moves each end by the blur and its drift) */
        float m0 = p->blur + s->drift[0], m1 = p->blur + s->drift[1];
        int on0 = fabsf(f0) <= (MG_ALONG > m0 ? MG_ALONG : m0) * el, on1 = fabsf(f1) <= (MG_ALONG > m1 ? MG_ALONG : m1) * el;
        if (on0 && on1)
            return -1;
        /* one end on the line: the edge it lies on (-2: on two) */
        near0 = on0 ? (near0 == -1 ? j : -2) : near0;
        near1 = on1 ? (near1 == -1 ? j : -2) : near1;
        /* the axis error moves the crossing along s by its shift there
         * over the sine of the angle s crosses the edge at (in t: shift
         * el / df); a generator's drift makes that angle itself move */
        float df = fabsf(f0 - f1), tc = f0 / (f0 - f1);
        float shift = p->blur + (1.0f - tc) * s->drift[0] + tc * s->drift[1];
        float ut = shift > 0.0f ? shift * el / df : 0.0f;
        if (f0 < 0.0f && tc > tmin)
            tmin = tc, emin = j, umin = ut;
        else if (f1 < 0.0f && tc < tmax)
            tmax = tc, emax = j, umax = ut;
    }
    if (tmax < tmin)
        return mg_near_boundary(p, s, MG_SHORT) || mg_near_boundary(s, p, MG_SHORT) ? 0 : MG_MISS;
    /* an end on an edge's line that the stretch starts (or stops) at, or
     * that only this edge could cut: whether the point there is that end
     * (a vertex over the face) or the crossing (two edges) is rounding */
    if ((near0 != -1 && (emin < 0 || emin == near0 || near0 == -2)) ||
        (near1 != -1 && (emax < 0 || emax == near1 || near1 == -2)))
        return -1;
    /* a stretch the axis error could close (or open) is not decided here */
    if (tmax - tmin < 4.0f * (umin + umax))
        return -1;
    int count = 0;
    const float t[2] = { tmin, tmax }, u[2] = { umin, umax };
    const int e[2] = { emin, emax };
    /* A segment through a corner of the polygon (its deepest point over a
     * vertex) either misses it or runs in: a short stretch is rounding,
     * and so is a stretch of zero (double may find two points there). */
    float stretch = (tmax - tmin) * len;
    if (len > 0.0f && stretch < mg_short(p))
        return -1;
    for (int i = 0; i < 2; i++) {
        if (i == 1 && stretch <= 1e-12f)
            break;
        uint16_t ks = e[i] < 0 ? mg_vertex_key(s, i) : s->key, kp = e[i] < 0 ? p->key : mg_edge_key(p, e[i]);
        float x = s->x[0] + t[i] * sx, y = s->y[0] + t[i] * sy;
        out[count] = s_is_a ? mg_cand_of(x, y, ks, kp) : mg_cand_of(x, y, kp, ks);
        out[count++].move = u[i] * len;
    }
    return count;
}

/* A vertex of the polygon being clipped, with the edge leaving it: B's
 * edge e (e >= 0) or A's edge j (e = -1 - j), which names crossings. */
typedef struct mg_shv {
    mg_cand c;
    int edge;
} mg_shv;

/* One Sutherland-Hodgman step: the part of in[0..n) left of A's edge j;
 * crossings keyed by the two edges (or A's vertex where two of A's edges
 * meet). */
static GJKB_INLINE int mg_clip_edge(const mg_feat *a, const mg_feat *b, int j, const mg_shv *in, int n, mg_shv *out)
{
    int k = (j + 1) % a->n, count = 0;
    float ex = a->x[k] - a->x[j], ey = a->y[k] - a->y[j], slack = -1e-12f * sqrtf(ex * ex + ey * ey);
    for (int i = 0; i < n && count < MG_CANDS - 1; i++) {
        const mg_shv *cur = &in[i], *next = &in[(i + 1) % n];
        float fc = mg_cross2(ex, ey, cur->c.x - a->x[j], cur->c.y - a->y[j]);
        float fn = mg_cross2(ex, ey, next->c.x - a->x[j], next->c.y - a->y[j]);
        int cin = fc >= slack, nin = fn >= slack;
        if (cin)
            out[count++] = *cur;
        if (cin != nin) {
            float t = fc / (fc - fn);
            mg_shv x;
            x.c.x = cur->c.x + t * (next->c.x - cur->c.x);
            x.c.y = cur->c.y + t * (next->c.y - cur->c.y);
            x.c.move = 0.0f;
            if (cur->edge >= 0) {
                x.c.ka = mg_edge_key(a, j);
                x.c.kb = mg_edge_key(b, cur->edge);
            } else {
                int e = -1 - cur->edge, v = (e + 1) % a->n == j ? j : (j + 1) % a->n == e ? e : j;
                x.c.ka = mg_vertex_key(a, v);
                x.c.kb = b->key;
            }
            x.edge = cin ? -1 - j : cur->edge;
            out[count++] = x;
        }
    }
    return count;
}

static GJKB_INLINE int mg_clip_polygons(const mg_feat *a, const mg_feat *b, mg_cand *out)
{
    /* a corner the axis error could move across the other's edge: the
     * clipped points are not decided here */
    if (a->blur > 0.0f && (mg_near_boundary(a, b, a->blur) || mg_near_boundary(b, a, a->blur)))
        return -1;
    mg_shv buf[2][MG_CANDS];
    int n = b->n, cur = 0;
    for (int i = 0; i < n; i++) {
        buf[0][i].c = mg_cand_of(b->x[i], b->y[i], a->key, mg_vertex_key(b, i));
        buf[0][i].edge = i;
    }
    for (int j = 0; j < a->n && n > 0; j++) {
        n = mg_clip_edge(a, b, j, buf[cur], n, buf[1 - cur]);
        cur = 1 - cur;
    }
    for (int i = 0; i < n; i++)
        out[i] = buf[cur][i].c;
    return n;
}

/* A lane with a cylinder or a cone whose axis came exact (the flat
 * kinds' slack): its witnesses are the nearest points, on both surfaces
 * to float's rounding, where a crossing of two nearly parallel lines
 * lifts onto them only to the axis error over the angle. */
static GJKB_INLINE int mg_exact_curved(const mg_feat *fa, const mg_feat *fb)
{
    int curved = fa->kind == GJKB_CYLINDER || fa->kind == GJKB_CONE || fb->kind == GJKB_CYLINDER ||
                 fb->kind == GJKB_CONE;
    return curved && !(fa->slack > MG_SLACK);
}

/* The clipped points (none where either feature is a point, or two
 * segments cross); -1: not decided here. */
static GJKB_INLINE int mg_clip(const mg_feat *fa, const mg_feat *fb, mg_cand *c)
{
    if (fa->n < 2 || fb->n < 2)
        return 0;
    if (fa->n == 2 && fb->n == 2)
        return mg_clip_segments(fa, fb);
    /* Nothing left of a polygon's clip: float's rounding cut a corner's
     * stretch away, or the features miss each other and the reference
     * takes the witnesses; either way not decided here. */
    int n = fa->n == 2 ? mg_clip_segment_polygon(fa, fb, 1, c)
            : fb->n == 2 ? mg_clip_segment_polygon(fb, fa, 0, c) : mg_clip_polygons(fa, fb, c);
    /* clearly apart on an exact curved lane: its witnesses, the nearest
     * points (mg_one), as the reference takes its own */
    if (n == MG_MISS)
        return mg_exact_curved(fa, fb) ? 0 : -1;
    return n == 0 ? -1 : n;
}

/* The point of f over (x, y) of the plane, along n. */
static GJKB_INLINE void mg_lift(const mg_feat *f, const mg_plane *pl, float x, float y, float o[3])
{
    if (f->n == 1) {
        for (int k = 0; k < 3; k++)
            o[k] = f->p[0][k];
        return;
    }
    if (f->n == 2) {
        float dx = f->x[1] - f->x[0], dy = f->y[1] - f->y[0], ll = dx * dx + dy * dy;
        float s = ll > 0.0f ? ((x - f->x[0]) * dx + (y - f->y[0]) * dy) / ll : 0.0f;
        s = s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
        for (int k = 0; k < 3; k++)
            o[k] = f->p[0][k] + (f->p[1][k] - f->p[0][k]) * s;
        return;
    }
    float base[3];
    for (int k = 0; k < 3; k++)
        base[k] = pl->u[k] * x + pl->v[k] * y;
    float h = (f->c - mg_dot(f->m, base)) / mg_dot(f->m, pl->n);
    for (int k = 0; k < 3; k++)
        o[k] = base[k] + pl->n[k] * h;
}

/* One lane's answer. */
typedef struct mg_res {
    int count;
    float a[GJKB_MAX_CONTACTS][3], sep[GJKB_MAX_CONTACTS];
    uint32_t key[GJKB_MAX_CONTACTS];
} mg_res;

/* What a lane holds for the reduction: candidates, A's lifted points
 * (moved by A's margin along n) and separations. */
typedef struct mg_pts {
    int n;
    mg_cand c[MG_CANDS];
    float a[MG_CANDS][3], sep[MG_CANDS];
    float extent;
    float tilt;     /* the lane's axis error, per unit of reach */
} mg_pts;

/* Twice the area of the convex hull of up to four candidates (the
 * reference's: the largest of the quadrilateral orders and triangles),
 * about the first. */
static GJKB_INLINE float mg_area(const mg_cand *c, const int *pick, int n)
{
    if (n < 3)
        return 0.0f;
    float x[4], y[4], best = 0.0f;
    for (int k = 0; k < n; k++)
        x[k] = c[pick[k]].x - c[pick[0]].x, y[k] = c[pick[k]].y - c[pick[0]].y;
    static const int orders[3][4] = { { 0, 1, 2, 3 }, { 0, 1, 3, 2 }, { 0, 3, 1, 2 } };
    for (int o = 0; o < (n == 4 ? 3 : 1); o++) {
        float s = 0.0f;
        for (int k = 0; k < n; k++) {
            int p = orders[o][k], q = orders[o][(k + 1) % n];
            s += mg_cross2(x[p], y[p], x[q], y[q]);
        }
        s = fabsf(s);
        best = s > best ? s : best;
    }
    for (int skip = 0; n == 4 && skip < 4; skip++) {
        int t[3], m = 0;
        for (int k = 0; k < 4; k++)
            if (k != skip)
                t[m++] = k;
        float s = fabsf(mg_cross2(x[t[1]] - x[t[0]], y[t[1]] - y[t[0]], x[t[2]] - x[t[0]], y[t[2]] - y[t[0]]));
        best = s > best ? s : best;
    }
    return best;
}

/* Whether candidate i is a twin of a point picked (1; a point picked is
 * its own), apart (0), or too near the twin distance to tell (-1). */
static GJKB_INLINE int mg_twin(const mg_cand *c, const int *pick, int count, int i, float blur)
{
    int twin = 0;
    for (int k = 0; k < count; k++) {
        if (pick[k] == i)
            return 1;
        float dx = c[i].x - c[pick[k]].x, dy = c[i].y - c[pick[k]].y, d = sqrtf(dx * dx + dy * dy);
        float b = k == 0 ? blur : 0.0f;
        if (d > MG_TWIN_LO - b && d < MG_TWIN_HI + b)
            return -1;
        twin |= d <= MG_SPAN_DIST;
    }
    return twin;
}

/* After the deepest (pick[0], known to within blur in the plane): the
 * farthest, then the points adding the most area, each no twin of a
 * point picked and above the floor; the count, 0 when float cannot tell. */
static GJKB_INLINE int mg_spread(const mg_pts *p, float blur, int pick[GJKB_MAX_CONTACTS])
{
    const float aeps = 2.0f * MG_AREA_EPS * (p->extent * p->extent + 1e-6f) + blur * p->extent;
    int count = 1;
    while (count < GJKB_MAX_CONTACTS) {
        int best = -1;
        float area = 0.5f * mg_area(p->c, pick, count), floor = MG_SPAN_AREA;
        if (MG_SPAN_SLACK * area > floor)
            floor = MG_SPAN_SLACK * area;
        float best_score = count == 1 ? MG_SPAN_DIST : area + floor, least = best_score;
        for (int i = 0; i < p->n; i++) {
            int twin = mg_twin(p->c, pick, count, i, blur);
            if (twin < 0)
                return 0;
            if (twin)
                continue;
            pick[count] = i;
            float dx = p->c[i].x - p->c[pick[0]].x, dy = p->c[i].y - p->c[pick[0]].y;
            float score = count == 1 ? sqrtf(dx * dx + dy * dy) : 0.5f * mg_area(p->c, pick, count + 1);
            if (count > 1 && fabsf(score - least) <= aeps)
                return 0;
            if (score > best_score)
                best_score = score, best = i;
        }
        if (best < 0)
            break;
        pick[count++] = best;
    }
    return count;
}

/* The separation of the features over (x, y), margins apart; A's point
 * over it in la. */
static GJKB_INLINE float mg_gap(const mg_feat *fa, const mg_feat *fb, const mg_plane *pl, float x, float y, float la[3])
{
    float lb[3], d[3];
    mg_lift(fa, pl, x, y, la);
    mg_lift(fb, pl, x, y, lb);
    for (int k = 0; k < 3; k++)
        d[k] = lb[k] - la[k];
    return mg_dot(d, pl->n);
}

/* How fast the separation changes along the segment of a segment and a
 * polygon (per unit in the plane; 0 for other pairs of features): a
 * crossing the axis error moves along it changes its separation so. */
static GJKB_INLINE float mg_gap_slope(const mg_feat *fa, const mg_feat *fb, const mg_plane *pl)
{
    if (fa->n < 2 || fb->n < 2 || (fa->n == 2) == (fb->n == 2))
        return 0.0f;
    const mg_feat *s = fa->n == 2 ? fa : fb;
    float la[3], dx = s->x[1] - s->x[0], dy = s->y[1] - s->y[0], len = sqrtf(dx * dx + dy * dy);
    float g = mg_gap(fa, fb, pl, s->x[1], s->y[1], la) - mg_gap(fa, fb, pl, s->x[0], s->y[0], la);
    return len > 0.0f ? fabsf(g) / len : 0.0f;
}

/* Lifts the candidates onto both features, keeps those up to the limit;
 * 0 when one is too near it to tell. */
static GJKB_INLINE int mg_keep(const mg_feat *fa, const mg_feat *fb, const mg_plane *pl, float ma, float mb,
                               float dist, float keep, mg_pts *p)
{
    float extent = 0.0f;
    for (int i = 0; i < p->n; i++)
        for (int j = i + 1; j < p->n; j++) {
            float dx = p->c[i].x - p->c[j].x, dy = p->c[i].y - p->c[j].y, d = sqrtf(dx * dx + dy * dy);
            extent = d > extent ? d : extent;
        }
    float limit = dist + MG_FACE_SIN * extent + 1e-9f, eps = MG_SEP_EPS + p->tilt * extent;
    limit = keep > limit ? keep : limit;
    float slope = fa->blur > 0.0f ? mg_gap_slope(fa, fb, pl) : 0.0f;
    int kept = 0;
    for (int i = 0; i < p->n; i++) {
        float la[3];
        float sep = mg_gap(fa, fb, pl, p->c[i].x, p->c[i].y, la) - ma - mb;
        if (fabsf(sep - limit) <= eps + slope * p->c[i].move)
            return 0;
        if (!(sep <= limit))
            continue;
        p->c[kept] = p->c[i];
        p->sep[kept] = sep;
        for (int k = 0; k < 3; k++)
            p->a[kept][k] = la[k] + pl->n[k] * ma;
        kept++;
    }
    p->n = kept;
    p->extent = extent;
    /* Two points that near each other but no twins: a corner of one
     * feature over an edge of the other, where rounding cuts slivers. */
    for (int i = 0; i < kept; i++)
        for (int j = i + 1; j < kept; j++) {
            float dx = p->c[i].x - p->c[j].x, dy = p->c[i].y - p->c[j].y, d = sqrtf(dx * dx + dy * dy);
            if (d > MG_TWIN_LO && d < mg_short(fa))
                return 0;
        }
    return 1;
}

/* Where the features meet at one point, (x, y) in the plane: a point
 * feature's own point, or where two segments cross. 1; 0 where the
 * crossing is not clearly inside both segments; -1 for neither case. */
static GJKB_INLINE int mg_meet(const mg_feat *fa, const mg_feat *fb, float *x, float *y)
{
    if (fa->n == 1 || fb->n == 1) {
        const mg_feat *f = fa->n == 1 ? fa : fb;
        *x = f->x[0];
        *y = f->y[0];
        return 1;
    }
    if (fa->n != 2 || fb->n != 2)
        return -1;
    float dx = fa->x[1] - fa->x[0], dy = fa->y[1] - fa->y[0], ex = fb->x[1] - fb->x[0], ey = fb->y[1] - fb->y[0];
    float gx = fb->x[0] - fa->x[0], gy = fb->y[0] - fa->y[0], den = mg_cross2(dx, dy, ex, ey);
    float s = mg_cross2(gx, gy, ex, ey) / den, t = mg_cross2(gx, gy, dx, dy) / den;
    if (!(s > MG_SLACK && s < 1.0f - MG_SLACK && t > MG_SLACK && t < 1.0f - MG_SLACK))
        return 0;
    *x = fa->x[0] + dx * s;
    *y = fa->y[0] + dy * s;
    return 1;
}

/* Whether (x, y) lies over feature f at least `by` inside its edges or
 * ends (a point feature: always). */
static GJKB_INLINE int mg_over(const mg_feat *f, float x, float y, float by)
{
    if (f->n == 1)
        return 1;
    if (f->n == 2) {
        float dx = f->x[1] - f->x[0], dy = f->y[1] - f->y[0], len = sqrtf(dx * dx + dy * dy);
        float t = (x - f->x[0]) * dx + (y - f->y[0]) * dy;
        return t >= by * len && t <= len * len - by * len;
    }
    for (int j = 0; j < f->n; j++) {
        int k = (j + 1) % f->n;
        float ex = f->x[k] - f->x[j], ey = f->y[k] - f->y[j];
        if (!(mg_cross2(ex, ey, x - f->x[j], y - f->y[j]) >= by * sqrtf(ex * ex + ey * ey)))
            return 0;
    }
    return 1;
}

/* The single point of a lane whose clipping left none: where the features
 * meet, lifted onto both (exactly on the surfaces, where the loops'
 * witnesses are only as good as their float convergence), kept when its
 * separation is the distance; else (a clip that kept nothing, segments
 * crossing near an end) the witnesses. 0: the reference's. */
static GJKB_INLINE int mg_one(const mg_feat *fa, const mg_feat *fb, const mg_plane *pl, float ma, float mb, float dist,
                              const float wa[3], mg_pts *p)
{
    float x, y, la[3], lb[3], d[3];
    int meet = mg_meet(fa, fb, &x, &y);
    p->n = 1;
    p->sep[0] = dist;
    if (meet <= 0 || mg_exact_curved(fa, fb)) {
        /* the reference takes the witnesses wherever the clip left none;
         * a crossing near a segment's end is at them. EPA's witnesses on
         * a curved side are points of an inscribed polytope, inside the
         * surface by up to its gap's sagitta */
        if (fa->slack > MG_SLACK)
            return 0;
        p->c[0] = mg_cand_of(mg_dot(wa, pl->u), mg_dot(wa, pl->v), fa->key, fb->key);
        for (int k = 0; k < 3; k++)
            p->a[0][k] = wa[k];
        return 1;
    }
    /* the axis error may move the point off a feature it lifts onto */
    if (fa->blur > 0.0f && !(mg_over(fa, x, y, fa->blur) && mg_over(fb, x, y, fb->blur)))
        return 0;
    mg_lift(fa, pl, x, y, la);
    mg_lift(fb, pl, x, y, lb);
    for (int k = 0; k < 3; k++)
        d[k] = lb[k] - la[k];
    /* scaled units: the shapes span at most about 2; on a curved lane the
     * points must also face each other along n (a point over a segment
     * meets it only where the axis is right) */
    float along = mg_dot(d, pl->n), lat[3] = { d[0] - along * pl->n[0], d[1] - along * pl->n[1], d[2] - along * pl->n[2] };
    float tol = p->tilt > MG_SEP_TILT ? MG_CURVED_SNAP : MG_SEP_EPS + 2.0f * MG_SEP_TILT;
    if (!(fabsf(along - ma - mb - dist) <= tol) || (p->tilt > MG_SEP_TILT && !(mg_len(lat) <= tol)))
        return 0;
    p->c[0] = mg_cand_of(x, y, fa->key, fb->key);
    for (int k = 0; k < 3; k++)
        p->a[0][k] = la[k] + pl->n[k] * ma;
    return 1;
}

/* A polygon feature's unit normal from its first three points, turned by
 * r (row major) when given; zero for a point or a segment. 0 where the
 * points span no normal. */
static GJKB_INLINE int mg_poly_normal(const mg_feat *f, const float *r, float m[3])
{
    m[0] = m[1] = m[2] = 0.0f;
    if (f->n <= 2)
        return 1;
    float e1[3], e2[3], c[3];
    for (int k = 0; k < 3; k++)
        e1[k] = f->p[1][k] - f->p[0][k], e2[k] = f->p[2][k] - f->p[0][k];
    mg_cross(e1, e2, c);
    for (int k = 0; k < 3; k++)
        m[k] = r ? r[3 * k] * c[0] + r[3 * k + 1] * c[1] + r[3 * k + 2] * c[2] : c[k];
    float l = mg_len(m);
    if (!(l > 0.0f))
        return 0;
    for (int k = 0; k < 3; k++)
        m[k] = m[k] / l;
    return 1;
}

/* A cap's or a base's inscribed rim polygon (its deepest point:
 * mg_rim_deepest). */
static GJKB_INLINE int mg_rim_polygon(const mg_feat *f)
{
    return (f->kind == GJKB_CYLINDER || f->kind == GJKB_CONE) && f->n >= 3;
}

/* A rim polygon's deepest clipped point. The reference snaps it to the
 * distance where it is within 1e-9 of it, or within its M_RIM_GAP where
 * the rim is flat against n (M_RIM_FLAT); else it replaces it by the
 * witnesses, which past flat are the true rim's support point (f->deep).
 * On a flat rim float decides the gap (by MG_RIM_GAP_SLACK). Past flat, float
 * cannot tell snapped from replaced, so it spreads the points both ways
 * and answers only where the counts agree: snapped where float sees the
 * point at the distance, else at the support point lifted onto both
 * features, where that is at the distance too (float's axis can miss the
 * support point by the axis error over the lean) and n leans off the
 * rim's axis by MG_RIM_LAT (where the reference's witness is the support
 * point to well within the spread's margins). 0: the reference's. */
#define MG_RIM_FLAT 1e-5f
#define MG_RIM_FLAT_SLACK 5e-6f
#define MG_RIM_GAP 8e-7f
#define MG_RIM_GAP_SLACK 4e-7f
#define MG_RIM_LAT 0.05f
static GJKB_INLINE int mg_rim_deepest(const mg_feat *fa, const mg_feat *fb, const mg_plane *pl, float ma, float mb,
                                      float dist, float gap, float snap, mg_pts *p, int pick[GJKB_MAX_CONTACTS],
                                      int *count)
{
    const int snapped = gap <= snap;
    const mg_feat *f = mg_rim_polygon(fa) ? fa : fb;
    float lat = f->deep_lat;
    const int deep = pick[0];
    if (lat <= MG_RIM_FLAT - MG_RIM_FLAT_SLACK)
        return gap <= MG_RIM_GAP - MG_RIM_GAP_SLACK;
    if (!(lat > MG_RIM_FLAT + MG_RIM_FLAT_SLACK) || !(snapped || lat >= MG_RIM_LAT))
        return 0;
    const mg_cand c = p->c[deep];
    const float a0[3] = { p->a[deep][0], p->a[deep][1], p->a[deep][2] };
    float la[3], lb[3], d[3];
    p->c[deep].x = mg_dot(f->deep, pl->u);
    p->c[deep].y = mg_dot(f->deep, pl->v);
    mg_lift(fa, pl, p->c[deep].x, p->c[deep].y, la);
    mg_lift(fb, pl, p->c[deep].x, p->c[deep].y, lb);
    for (int k = 0; k < 3; k++)
        d[k] = lb[k] - la[k];
    /* the axis error turns the support point along the rim: it can leave
     * the other feature (past a face's edge, beside a segment) */
    float along = mg_dot(d, pl->n), off[3] = { d[0] - along * pl->n[0], d[1] - along * pl->n[1], d[2] - along * pl->n[2] };
    const mg_feat *g = f == fa ? fb : fa;
    if (!snapped && !(fabsf(along - ma - mb - dist) <= snap && mg_len(off) <= snap &&
                      mg_over(g, p->c[deep].x, p->c[deep].y, -snap)))
        return 0;
    for (int k = 0; k < 3; k++)
        p->a[deep][k] = la[k] + pl->n[k] * ma;
    /* the axis error (the slack on a curved lane, else the flat kinds'
     * tilt) moves the support point along the rim by up to r err / lat:
     * areas about it are that uncertain */
    float err = mg_axis_err(f->slack);
    int moved[GJKB_MAX_CONTACTS] = { deep, 0, 0, 0 };
    if (mg_spread(p, f->deep_r * err / lat, moved) != *count)
        return 0;
    if (snapped) {
        p->c[deep] = c;
        for (int k = 0; k < 3; k++)
            p->a[deep][k] = a0[k];
        return 1;
    }
    for (int s = 0; s < *count; s++)
        pick[s] = moved[s];
    return 1;
}

/* One lane: sides sa, sb, B's pose (r row major, t), the normal n, signed
 * distance, A's witness wa (all A's scaled frame), keep limit and band.
 * 1 with the manifold in *out; 0: the reference's. */
__attribute__((noinline)) static int mg_lane(const mg_side *sa, const mg_side *sb, const float r[9], const float t[3],
                               const float n[3], float dist, const float wa[3], float keep, float band, mg_res *out)
{
    mg_feat fa, fb;
    const float nb[3] = { -(r[0] * n[0] + r[3] * n[1] + r[6] * n[2]), -(r[1] * n[0] + r[4] * n[1] + r[7] * n[2]),
                          -(r[2] * n[0] + r[5] * n[1] + r[8] * n[2]) };
    if (!mg_feature(sa, n, band, &fa) || !mg_feature(sb, nb, band, &fb))
        return 0;
    mg_plane pl;
    mg_plane_of(n, &pl);
    float ma_[3], mb_[3];
    if (!mg_poly_normal(&fa, NULL, ma_) || !mg_poly_normal(&fb, r, mb_))
        return 0;
    mg_place(&fa, NULL, NULL, &pl, ma_);
    mg_place(&fb, r, t, &pl, mb_);
    mg_pts p;
    p.tilt = sa->slack > MG_SLACK ? MG_CURVED_AXIS : MG_SEP_TILT;
    /* the axis error moves the features' shadows apart by up to itself
     * times the depth */
    fa.blur = fb.blur = sa->slack > MG_SLACK ? MG_CURVED_AXIS * (fabsf(dist) + MG_SHORT) : 0.0f;
    p.n = mg_clip(&fa, &fb, p.c);
    if (p.n < 0 || !mg_keep(&fa, &fb, &pl, sa->margin, sb->margin, dist, keep, &p))
        return 0;
    if (p.n == 0 && !mg_one(&fa, &fb, &pl, sa->margin, sb->margin, dist, wa, &p))
        return 0;
    int deep = 0;
    for (int i = 1; i < p.n; i++)
        if (p.sep[i] < p.sep[deep])
            deep = i;
    /* the deepest is at the distance: snapped; a clipped point that misses
     * the deepest spot (the reference then takes the witnesses) is its,
     * but on a rim polygon, where both are answered */
    /* an exact curved lane's points stay on the surfaces as a curved one's */
    int on_surface = p.tilt > MG_SEP_TILT || mg_exact_curved(&fa, &fb);
    float snap = on_surface ? MG_CURVED_SNAP : MG_SEP_EPS + MG_SEP_TILT * p.extent;
    float gap = fabsf(p.sep[deep] - dist);
    int snapped = gap <= snap, rim_a = mg_rim_polygon(&fa), rim_b = mg_rim_polygon(&fb);
    if (rim_a && rim_b)
        return 0;
    if (!snapped && !rim_a && !rim_b)
        return 0;
    p.sep[deep] = dist;
    int pick[GJKB_MAX_CONTACTS] = { deep, 0, 0, 0 };
    int count = mg_spread(&p, 0.0f, pick);
    if (count == 0)
        return 0;
    if ((rim_a || rim_b) && !mg_rim_deepest(&fa, &fb, &pl, sa->margin, sb->margin, dist, gap, snap, &p, pick,
                                           &count))
        return 0;
    out->count = count;
    for (int s = 0; s < count; s++) {
        int i = pick[s];
        for (int k = 0; k < 3; k++)
            out->a[s][k] = p.a[i][k];
        out->sep[s] = p.sep[i];
        out->key[s] = (uint32_t)p.c[i].ka << 16 | p.c[i].kb;
    }
    return 1;
}

/* A side's per-lane inputs from the bundle's stored values. */
static GJKB_INLINE void mg_side_of(const gjkb__world *w, int kind, int32_t body, const float h[4], float margin,
                                   float inv, int32_t hf, int32_t last, mg_side *s)
{
    s->kind = kind;
    for (int k = 0; k < 3; k++)
        s->h[k] = h[k];
    s->rd = h[3];
    s->margin = margin;
    s->inv = inv;
    s->npts = s->nface = 0;
    s->side = 0;
    s->radius = 0.0f;
    s->px = s->py = s->pz = w->hx;
    s->face = w->face;
    s->fv = w->face_vertex;
    if (kind != GJKB_HULL || !w->hull)
        return;
    int32_t id = w->hull[body];
    s->px = w->hx + hf;
    s->py = w->hy + hf;
    s->pz = w->hz + hf;
    s->ring = w->ring_face;
    s->ring_at = w->point_ring + hf;
    s->ring_n = w->point_ring_n + hf;
    s->npts = last + 1;
    s->face = w->face + w->face_first[id];
    s->nface = w->face_n[id];
    s->fv = w->face_vertex;
    s->radius = w->hull_radius[id] * inv;
}

/* Whether a capsule's core witness (z along its segment, own frame) lies
 * clearly between the ends (by MG_SIDE_IN of the half length and
 * MG_SHORT): then n is exactly across the segment for the reference too,
 * whatever float's axis error (only a witness at an end can tilt it), and
 * the segment is its feature. */
#define MG_SIDE_IN 0.05f
static GJKB_INLINE int mg_side_contact(const mg_side *s, float z)
{
    return s->kind == GJKB_CAPSULE && fabsf(z) < (1.0f - MG_SIDE_IN) * s->h[2] - MG_SHORT;
}

/* The bundle's lanes `want` (valid, finite, trusted axis n): their
 * manifolds into *out where *ok comes back set. dist, a (A's witness) and
 * keep as ct_points_of has them, A's scaled frame. Lanes `loose` have
 * float's axis off by up to MG_CURVED_AXIS (its approach to a curved
 * side, or to nearly touching cores) and decide with that slack; the
 * others keep the flat kinds' slack. */
static GJKB_INLINE void mg_manifold(const gjkb__world *w, size_t o, const pack_w *k, v3w n, fw dist, v3w a, fw keep,
                                    mw want, mw loose, mb_out *out, mw *ok)
{
    enum { F_N = 0, F_A = 3, F_HA = 6, F_HB = 10, F_R = 14, F_T = 23, F_DIST = 26, F_KEEP, F_TOL, F_MA, F_MB, F_INV,
           F_COUNT };
    _Alignas(64) float v[F_COUNT][GJKB_W];
    _Alignas(64) int32_t iv[4][GJKB_W];
    const fw fields[F_COUNT] = {
        n.x, n.y, n.z, a.x, a.y, a.z, k->sa.c.h.x, k->sa.c.h.y, k->sa.c.h.z, k->sa.c.rd, k->sb.c.h.x, k->sb.c.h.y, k->sb.c.h.z,
        k->sb.c.rd,
        k->pose.r[0], k->pose.r[1], k->pose.r[2], k->pose.r[3], k->pose.r[4], k->pose.r[5], k->pose.r[6],
        k->pose.r[7], k->pose.r[8], k->pose.t.x, k->pose.t.y, k->pose.t.z, dist, keep, k->tol, k->ma, k->mb,
        k->inv_scale };
    for (int f = 0; f < F_COUNT; f++)
        fw_store(v[f], fields[f]);
    iw_store(iv[0], k->sa.hf);
    iw_store(iv[1], k->sa.last);
    iw_store(iv[2], k->sb.hf);
    iw_store(iv[3], k->sb.last);
    _Alignas(64) float oa[GJKB_MAX_CONTACTS][3][GJKB_W], osep[GJKB_MAX_CONTACTS][GJKB_W];
    _Alignas(64) int32_t okey[GJKB_MAX_CONTACTS][GJKB_W], ocount[GJKB_W], ook[GJKB_W];
    memset(oa, 0, sizeof oa);
    memset(osep, 0, sizeof osep);
    memset(okey, 0, sizeof okey);
    memset(ocount, 0, sizeof ocount);
    memset(ook, 0, sizeof ook);
    const unsigned loose_bits = mw_bits(loose);
    for (unsigned bits = mw_bits(want); bits; bits &= bits - 1u) {
        const int i = __builtin_ctz(bits);
        mg_side sa, sb;
        const float ha[4] = { v[F_HA][i], v[F_HA + 1][i], v[F_HA + 2][i], v[F_HA + 3][i] };
        const float hb[4] = { v[F_HB][i], v[F_HB + 1][i], v[F_HB + 2][i], v[F_HB + 3][i] };
        mg_side_of(w, w->lane_ka[o + i], w->lane_a[o + i], ha, v[F_MA][i], v[F_INV][i], iv[0][i], iv[1][i], &sa);
        mg_side_of(w, w->lane_kb[o + i], w->lane_b[o + i], hb, v[F_MB][i], v[F_INV][i], iv[2][i], iv[3][i], &sb);
        sa.slack = sb.slack = (loose_bits >> i) & 1u ? MG_CURVED_AXIS : MG_SLACK;
        float r[9], t[3], nn[3], wa[3], cb[3];
        for (int c = 0; c < 9; c++)
            r[c] = v[F_R + c][i];
        for (int c = 0; c < 3; c++)
            t[c] = v[F_T + c][i], nn[c] = v[F_N + c][i], wa[c] = v[F_A + c][i];
        /* the cores' witnesses: A's in its frame, B's moved into its own */
        for (int c = 0; c < 3; c++)
            cb[c] = wa[c] + (v[F_DIST][i] + sb.margin) * nn[c] - t[c];
        sa.side = mg_side_contact(&sa, wa[2] - sa.margin * nn[2]);
        sb.side = mg_side_contact(&sb, r[2] * cb[0] + r[5] * cb[1] + r[8] * cb[2]);
        mg_res res;
        if (!mg_lane(&sa, &sb, r, t, nn, v[F_DIST][i], wa, v[F_KEEP][i], v[F_TOL][i], &res))
            continue;
        ook[i] = -1;
        ocount[i] = res.count;
        for (int s = 0; s < res.count; s++) {
            for (int c = 0; c < 3; c++)
                oa[s][c][i] = res.a[s][c];
            osep[s][i] = res.sep[s];
            okey[s][i] = (int32_t)res.key[s];
        }
    }
    *ok = mw_and(want, iw_eq(iw_load(ook), iw_splat(-1)));
    out->count = iw_load(ocount);
    for (int s = 0; s < GJKB_MAX_CONTACTS; s++) {
        out->a[s] = v3_load(oa[s][0], oa[s][1], oa[s][2]);
        out->sep[s] = fw_load(osep[s]);
        out->key[s] = iw_load(okey[s]);
    }
}
