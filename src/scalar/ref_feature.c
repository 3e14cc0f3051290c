/* ref_feature.c - the reference's supporting features: which part of a
 * core touches along a direction (a point, a segment or a polygon), with
 * ids that stay the same while the same part touches. Curved parts become
 * inscribed polygons or their support lines, so every point returned lies
 * on the core's surface. Box and polygon features are exact; hull features
 * are the hull's points within an angle-scaled band of the support plane
 * (ref_manifold.c checks that they are coplanar). */
#include "scalar/ref_geom.h"

#define REF_TAU 6.28318530717958647693

static ref_feature point_feature(ref_vec p, uint16_t id)
{
    ref_feature f;
    f.n = 1;
    f.p[0] = p;
    f.id[0] = id;
    f.key = ref_key(REF_VERTEX, id);
    return f;
}

static ref_feature segment_feature(ref_vec p0, uint16_t i0, ref_vec p1, uint16_t i1, uint16_t edge)
{
    ref_feature f;
    f.n = 2;
    f.p[0] = p0, f.p[1] = p1;
    f.id[0] = i0, f.id[1] = i1;
    f.key = ref_key(REF_EDGE, edge);
    return f;
}

/* Box vertex id: bit k set when coordinate k is positive. */
static ref_vec box_vertex(const ref_core *c, unsigned id)
{
    return vec(id & 1 ? c->sx : -c->sx, id & 2 ? c->sy : -c->sy, id & 4 ? c->sz : -c->sz);
}

/* Face k when u leans off axis k by at most the tolerance angle; else the
 * edge along axis k when u is that close to perpendicular to it; else the
 * vertex. */
static ref_feature box_feature(const ref_core *c, ref_vec u)
{
    double comp[3] = { u.x, u.y, u.z };
    unsigned base = (u.x > 0.0) | (u.y > 0.0) << 1 | (u.z > 0.0) << 2;
    for (unsigned k = 0; k < 3; k++) {
        double off = hypot(comp[(k + 1) % 3], comp[(k + 2) % 3]);
        if (off > REF_FACE_SIN)
            continue;
        /* the face: corners in order around it */
        unsigned i = 1u << (k + 1) % 3, j = 1u << (k + 2) % 3, face = base & ~(i | j);
        unsigned corner[4] = { face, face | i, face | i | j, face | j };
        ref_feature f;
        f.n = 4;
        for (int m = 0; m < 4; m++) {
            f.p[m] = box_vertex(c, corner[m]);
            f.id[m] = (uint16_t)corner[m];
        }
        f.key = ref_key(REF_FACE, 2 * k + (base >> k & 1u));
        return f;
    }
    for (unsigned k = 0; k < 3; k++) {
        if (fabs(comp[k]) > REF_FACE_SIN)
            continue;
        unsigned lo = base & ~(1u << k), hi = lo | 1u << k;
        return segment_feature(box_vertex(c, lo), (uint16_t)lo, box_vertex(c, hi), (uint16_t)hi,
                               gjkb__ref_edge_key(GJKB_BOX, (uint16_t)lo, (uint16_t)hi) & 0x3FFF);
    }
    return point_feature(box_vertex(c, base), (uint16_t)base);
}

/* The polygon inscribed in a disk of radius r at height z, vertex ids from
 * first. */
static ref_feature rim_polygon(double r, double z, uint16_t first, uint16_t face)
{
    ref_feature f;
    f.n = REF_RIM_POINTS;
    for (int k = 0; k < REF_RIM_POINTS; k++) {
        double t = REF_TAU * k / REF_RIM_POINTS;
        f.p[k] = vec(r * cos(t), r * sin(t), z);
        f.id[k] = (uint16_t)(first + k);
    }
    f.key = ref_key(REF_FACE, face);
    return f;
}

/* Cap facing u: the inscribed polygon; side facing u: the side line
 * through the rim point along u; else that rim point. Ids: cap k is
 * cap * M + k (M rim points, cap 1 on top), then 2M, 2M + 1 for the side
 * line's ends (bottom, top). */
static ref_feature cylinder_feature(const ref_core *c, ref_vec u)
{
    enum { M = REF_RIM_POINTS };
    double lat = hypot(u.x, u.y), r = c->sx, h = c->sz;
    unsigned top = u.z >= 0.0;
    double z = top ? h : -h;
    if (lat <= REF_FACE_SIN)
        return r > 0.0 ? rim_polygon(r, z, (uint16_t)(top * M), (uint16_t)top)
                       : point_feature(vec(0.0, 0.0, z), (uint16_t)(2 * M + top));
    ref_vec rim = vec(r * (u.x / lat), r * (u.y / lat), 0.0);
    if (fabs(u.z) <= REF_FACE_SIN && h > 0.0)
        return segment_feature(vec(rim.x, rim.y, -h), 2 * M, vec(rim.x, rim.y, h), 2 * M + 1, 2 * M);
    return point_feature(vec(rim.x, rim.y, z), (uint16_t)(2 * M + top));
}

/* Base facing u: its inscribed polygon (ids 0..M-1); a slant line facing
 * u: apex (id M) to the rim point along u (id M + 1); else the support
 * point (apex or that rim point). */
static ref_feature cone_feature(const ref_core *c, ref_vec u)
{
    enum { M = REF_RIM_POINTS };
    double lat = hypot(u.x, u.y), r = c->sx, h = c->sz;
    if (lat <= REF_FACE_SIN && u.z < 0.0 && r > 0.0)
        return rim_polygon(r, -h, 0, 0);
    ref_vec apex = vec(0.0, 0.0, h);
    ref_vec rim = lat > 0.0 ? vec(r * (u.x / lat), r * (u.y / lat), -h) : vec(0.0, 0.0, -h);
    if (lat > 0.0 && r > 0.0 && h > 0.0) {
        double slant = hypot(2.0 * h, r);
        ref_vec side = vec(2.0 * h * (u.x / lat) / slant, 2.0 * h * (u.y / lat) / slant, r / slant);
        if (length(cross(u, side)) <= REF_FACE_SIN && dot(u, side) > 0.0)
            return segment_feature(apex, M, rim, M + 1, M);
    }
    return dot(apex, u) >= dot(rim, u) ? point_feature(apex, M) : point_feature(rim, M + 1);
}

/* Whether the band's points are a face or an edge of the hull: a plane
 * through them (the one nearest u for an edge) has every hull point on or
 * below it. A band across a ridge fails and the feature is the support
 * point alone. */
static bool hull_band_supports(const ref_core *c, const ref_feature *f, ref_vec u)
{
    ref_vec s = f->p[0], m;
    int far = 1;
    for (int i = 2; i < f->n; i++)
        if (length(sub(f->p[i], s)) > length(sub(f->p[far], s)))
            far = i;
    ref_vec e = sub(f->p[far], s);
    if (f->n == 2) {
        e = scale(e, 1.0 / length(e));
        m = madd(u, e, -dot(u, e));
    } else {
        m = vec(0.0, 0.0, 0.0);
        for (int i = 1; i < f->n; i++) {
            ref_vec k = cross(e, sub(f->p[i], s));
            if (length(k) > length(m))
                m = dot(k, u) < 0.0 ? neg(k) : k;
        }
    }
    double len = length(m);
    if (!(len > 0.0))
        return false;
    m = scale(m, 1.0 / len);
    double top = dot(s, m);
    for (uint32_t i = 0; i < c->count; i++)
        if (dot(hull_point(c, i), m) > top + 1e-10)
            return false;
    return true;
}

/* The hull's points within the band of the support plane that a face
 * tilted by the tolerance angle would fill; too many: the support point. */
static ref_feature hull_feature(const ref_core *c, ref_vec u)
{
    uint32_t best = 0;
    double top = -INFINITY;
    for (uint32_t i = 0; i < c->count; i++) {
        double d = dot(hull_point(c, i), u);
        if (d > top)
            top = d, best = i;
    }
    ref_vec s = hull_point(c, best);
    ref_feature f;
    f.n = 0;
    for (uint32_t i = 0; i < c->count; i++) {
        ref_vec p = hull_point(c, i), d = sub(p, s);
        double lateral = length(madd(d, u, -dot(d, u)));
        if (top - dot(p, u) > REF_FACE_SIN * lateral + 1e-12)
            continue;
        if (f.n == REF_FEATURE_MAX)
            return point_feature(s, (uint16_t)(best & 0x3FFF));
        f.p[f.n] = p;
        f.id[f.n++] = (uint16_t)(i & 0x3FFF);
        if (i == best && f.n > 1) { /* the support point first */
            ref_vec t = f.p[0];
            uint16_t ti = f.id[0];
            f.p[0] = f.p[f.n - 1], f.id[0] = f.id[f.n - 1];
            f.p[f.n - 1] = t, f.id[f.n - 1] = ti;
        }
    }
    if (f.n <= 1 || !hull_band_supports(c, &f, u))
        return point_feature(s, (uint16_t)(best & 0x3FFF));
    f.key = f.n == 2 ? gjkb__ref_edge_key(GJKB_HULL, f.id[0], f.id[1]) : gjkb__ref_hull_face_key(f.id, f.n);
    return f;
}

ref_feature gjkb__ref_feature(const ref_core *c, ref_vec u)
{
    switch (c->kind) {
    case GJKB_CAPSULE:
        if (fabs(u.z) <= REF_FACE_SIN && c->sz > 0.0)
            return segment_feature(vec(0.0, 0.0, -c->sz), 0, vec(0.0, 0.0, c->sz), 1, 0);
        return point_feature(vec(0.0, 0.0, u.z >= 0.0 ? c->sz : -c->sz), u.z >= 0.0);
    case GJKB_BOX:
        return box_feature(c, u);
    case GJKB_CYLINDER:
        return cylinder_feature(c, u);
    case GJKB_CONE:
        return cone_feature(c, u);
    case GJKB_HULL:
        return hull_feature(c, u);
    default:
        return point_feature(vec(0.0, 0.0, 0.0), 0);
    }
}

/* A 14-bit mix of up to three ids (sorted first: order free). */
static unsigned mix_ids(unsigned a, unsigned b, unsigned c)
{
    unsigned h = a * 2654435761u ^ (b + 0x9E37u) * 40503u ^ (c + 0x7F4Au) * 2246822519u;
    return (h ^ h >> 15 ^ h >> 28) & 0x3FFFu;
}

uint16_t gjkb__ref_edge_key(gjkb_kind kind, uint16_t i, uint16_t j)
{
    enum { M = REF_RIM_POINTS };
    unsigned lo = i < j ? i : j, hi = i < j ? j : i, d = lo ^ hi;
    if (kind == GJKB_BOX && (d == 1 || d == 2 || d == 4)) {
        unsigned axis = d == 1 ? 0 : d == 2 ? 1 : 2, a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2;
        return ref_key(REF_EDGE, axis * 4 + ((lo >> a & 1u) | (lo >> b & 1u) << 1));
    }
    bool ring = (kind == GJKB_CYLINDER && hi < 2 * M && lo / M == hi / M) || (kind == GJKB_CONE && hi < M);
    if (ring && (hi - lo == 1 || hi - lo == M - 1))
        return ref_key(REF_EDGE, hi - lo == 1 ? lo : hi);
    if ((kind == GJKB_CYLINDER && lo == 2 * M) || (kind == GJKB_CONE && lo == M) || kind == GJKB_CAPSULE)
        return ref_key(REF_EDGE, kind == GJKB_CAPSULE ? 0 : lo);
    return ref_key(REF_EDGE, mix_ids(lo, hi, 0));
}

uint16_t gjkb__ref_hull_face_key(const uint16_t *id, int n)
{
    unsigned low[3] = { 0xFFFFu, 0xFFFFu, 0xFFFFu };
    for (int k = 0; k < n; k++) {
        unsigned v = id[k];
        if (v < low[0])
            low[2] = low[1], low[1] = low[0], low[0] = v;
        else if (v < low[1] && v != low[0])
            low[2] = low[1], low[1] = v;
        else if (v < low[2] && v != low[0] && v != low[1])
            low[2] = v;
    }
    return ref_key(REF_FACE, mix_ids(low[0], low[1], low[2]));
}
