/* ref_feature.c - the reference's supporting features: which part of a
 * core touches along a direction (a point, a segment or a polygon), with
 * ids that stay the same while the same part touches. Curved parts become
 * inscribed polygons or their support lines, so every point returned lies
 * on the core's surface. Two rules (ref_feature_rule): strict, the part
 * within REF_FACE_SIN of perpendicular to u; aligned (the manifold), the
 * face or segment most aligned with u within the rule's angle, else the
 * strict one. Hull faces come from the points alone (the reference does
 * not read the hull topology): gift wrapping from the support point to a
 * face through it, then around that point to the face through it most
 * aligned with u. */
#include "scalar/ref_geom.h"

#define REF_TAU 6.28318530717958647693
/* Hull points this close to a plane (solver units) lie on it: far below
 * the float spacing of hull points near the unit, far above double
 * rounding; the manifold then finds the face planar (M_PLANAR, 1e-10). */
#define H_PLANE 1e-11
/* Faces around one hull point that are looked at; a point on more (a
 * fan of slivers) keeps the most aligned of these. */
#define H_AROUND 64
/* Hull points this share of the hull's radius or less below the support
 * point along u are tied with it (an edge across u, as in edge-edge
 * contact, has both ends at one height up to rounding): the aligned face
 * is then one through all of them, whichever rounding made the top. */
#define H_TIE 1e-3

ref_feature_rule gjkb__ref_aligned_rule(double margin, double band)
{
    ref_feature_rule r = { true, REF_ALIGN_COS };
    if (margin > 0.0)
        r.min_cos = fmax(REF_ALIGN_COS, 1.0 - REF_MARGIN_SHARE * band / margin);
    return r;
}

/* Whether the aligned rule takes a feature whose tilt against u has this
 * cosine. */
static bool takes(ref_feature_rule rule, double cos_tilt)
{
    return rule.aligned && cos_tilt >= rule.min_cos;
}

static ref_feature as_aligned(ref_feature f)
{
    f.aligned = true;
    return f;
}

static ref_feature point_feature(ref_vec p, uint16_t id)
{
    ref_feature f;
    f.n = 1;
    f.p[0] = p;
    f.id[0] = id;
    f.key = ref_key(REF_VERTEX, id);
    f.aligned = false;
    return f;
}

static ref_feature segment_feature(ref_vec p0, uint16_t i0, ref_vec p1, uint16_t i1, uint16_t edge)
{
    ref_feature f;
    f.n = 2;
    f.p[0] = p0, f.p[1] = p1;
    f.id[0] = i0, f.id[1] = i1;
    f.key = ref_key(REF_EDGE, edge);
    f.aligned = false;
    return f;
}

/* Box vertex id: bit k set when coordinate k is positive. */
static ref_vec box_vertex(const ref_core *c, unsigned id)
{
    return vec(id & 1 ? c->sx : -c->sx, id & 2 ? c->sy : -c->sy, id & 4 ? c->sz : -c->sz);
}

/* The face of axis k on the side of base's bit k (base: a vertex id),
 * corners in order around it. */
static ref_feature box_face(const ref_core *c, unsigned k, unsigned base)
{
    unsigned i = 1u << (k + 1) % 3, j = 1u << (k + 2) % 3, face = base & ~(i | j);
    unsigned corner[4] = { face, face | i, face | i | j, face | j };
    ref_feature f;
    f.n = 4;
    for (int m = 0; m < 4; m++) {
        f.p[m] = box_vertex(c, corner[m]);
        f.id[m] = (uint16_t)corner[m];
    }
    f.key = ref_key(REF_FACE, 2 * k + (base >> k & 1u));
    f.aligned = false;
    return f;
}

/* Aligned: the face k of largest |u_k| (the lowest k on a tie), when the
 * rule takes its tilt (a bare box always: |u_k| >= 1/sqrt 3). Else face k
 * when u leans off axis k by at most the tolerance angle; else the edge
 * along axis k when u is that close to perpendicular to it; else the
 * vertex. */
static ref_feature box_feature(const ref_core *c, ref_vec u, ref_feature_rule rule)
{
    double comp[3] = { u.x, u.y, u.z };
    unsigned base = (u.x > 0.0) | (u.y > 0.0) << 1 | (u.z > 0.0) << 2;
    unsigned best = 0;
    for (unsigned k = 1; k < 3; k++)
        if (fabs(comp[k]) > fabs(comp[best]))
            best = k;
    if (takes(rule, fabs(comp[best])))
        return as_aligned(box_face(c, best, base));
    for (unsigned k = 0; k < 3; k++)
        if (gjkb__ref_hypot(comp[(k + 1) % 3], comp[(k + 2) % 3]) <= REF_FACE_SIN)
            return box_face(c, k, base);
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
    f.aligned = false;
    return f;
}

/* Aligned: the cap when it is more aligned with u than the side and the
 * rule takes its tilt, the side line when the side is (a generator line is
 * on the surface at any tilt). Else the cap facing u within the tolerance
 * angle: the inscribed polygon; the side facing u: the side line through
 * the rim point along u; else that rim point. Ids: cap k is cap * M + k (M
 * rim points, cap 1 on top), then 2M, 2M + 1 for the side line's ends
 * (bottom, top). */
static ref_feature cylinder_feature(const ref_core *c, ref_vec u, ref_feature_rule rule)
{
    enum { M = REF_RIM_POINTS };
    double lat = gjkb__ref_hypot(u.x, u.y), r = c->sx, h = c->sz;
    unsigned top = u.z >= 0.0;
    double z = top ? h : -h;
    bool cap_first = fabs(u.z) >= lat;
    bool cap = cap_first ? r > 0.0 && takes(rule, fabs(u.z)) : false;
    bool side = !cap_first && h > 0.0 && takes(rule, lat);
    if (cap || lat <= REF_FACE_SIN) {
        ref_feature f = r > 0.0 ? rim_polygon(r, z, (uint16_t)(top * M), (uint16_t)top)
                                : point_feature(vec(0.0, 0.0, z), (uint16_t)(2 * M + top));
        f.aligned = cap;
        return f;
    }
    ref_vec rim = vec(r * (u.x / lat), r * (u.y / lat), 0.0);
    if (side || (fabs(u.z) <= REF_FACE_SIN && h > 0.0)) {
        ref_feature f = segment_feature(vec(rim.x, rim.y, -h), 2 * M, vec(rim.x, rim.y, h), 2 * M + 1, 2 * M);
        f.aligned = side;
        return f;
    }
    return point_feature(vec(rim.x, rim.y, z), (uint16_t)(2 * M + top));
}

/* Aligned: the base when it is more aligned with u than the slant on u's
 * side and the rule takes its tilt; that slant line when it is the more
 * aligned (on the surface at any tilt). Else the base facing u within the
 * tolerance angle: its inscribed polygon (ids 0..M-1); a slant line facing
 * u: apex (id M) to the rim point along u (id M + 1); else the support
 * point (apex or that rim point). */
static ref_feature cone_feature(const ref_core *c, ref_vec u, ref_feature_rule rule)
{
    enum { M = REF_RIM_POINTS };
    double lat = gjkb__ref_hypot(u.x, u.y), r = c->sx, h = c->sz;
    ref_vec apex = vec(0.0, 0.0, h);
    ref_vec rim = lat > 0.0 ? vec(r * (u.x / lat), r * (u.y / lat), -h) : vec(0.0, 0.0, -h);
    bool has_slant = lat > 0.0 && r > 0.0 && h > 0.0;
    double slant = gjkb__ref_hypot(2.0 * h, r), slant_cos = -INFINITY;
    ref_vec side = vec(0.0, 0.0, 0.0); /* the slant's outward normal on u's side */
    if (has_slant) {
        side = vec(2.0 * h * (u.x / lat) / slant, 2.0 * h * (u.y / lat) / slant, r / slant);
        slant_cos = dot(u, side);
    }
    bool base_first = -u.z >= slant_cos;
    if (r > 0.0 && ((base_first && takes(rule, -u.z)) || (lat <= REF_FACE_SIN && u.z < 0.0))) {
        ref_feature f = rim_polygon(r, -h, 0, 0);
        f.aligned = base_first && takes(rule, -u.z);
        return f;
    }
    bool slant_taken = has_slant && !base_first && takes(rule, slant_cos);
    if (slant_taken || (has_slant && length(cross(u, side)) <= REF_FACE_SIN && slant_cos > 0.0)) {
        ref_feature f = segment_feature(apex, M, rim, M + 1, M);
        f.aligned = slant_taken;
        return f;
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

/* Index of the hull's first point farthest along u. */
static uint32_t hull_support(const ref_core *c, ref_vec u)
{
    uint32_t best = 0;
    for (uint32_t i = 1; i < c->count; i++)
        if (dot(hull_point(c, i), u) > dot(hull_point(c, best), u))
            best = i;
    return best;
}

/* Gift wrapping's step. The plane through s with unit normal *m (every
 * hull point on or below it) holds the line through s perpendicular to
 * *m and to o (unit); turned about that line toward o, it meets a point d
 * = p - s below it (height y = d.m < 0, reach x = d.o) at the angle whose
 * cotangent is x / -y, and a point on it beyond the line (x > 0) at once.
 * The least turn gives the new normal in *m, the point met in *hit. False
 * when no point is met before the plane turns over (a flat hull's rim). */
static bool hull_turn(const ref_core *c, ref_vec s, ref_vec *m, ref_vec o, uint32_t *hit)
{
    double best = -INFINITY;
    for (uint32_t i = 0; i < c->count; i++) {
        ref_vec d = sub(hull_point(c, i), s);
        double x = dot(d, o), y = dot(d, *m);
        if (y >= -H_PLANE) {
            if (x > H_PLANE) {
                *hit = i;
                return true;
            }
            continue;
        }
        if (x / -y > best)
            best = x / -y, *hit = i;
    }
    if (best == -INFINITY)
        return false;
    ref_vec r = add(scale(*m, best), o);
    *m = scale(r, 1.0 / length(r));
    return true;
}

/* Turns the plane (normal *m, through s) about the line through s along
 * e (any length) toward whichever side of it is given; the normal is
 * first made exactly perpendicular to e. */
static bool hull_turn_about(const ref_core *c, ref_vec s, ref_vec e, ref_vec *m, double side, uint32_t *hit)
{
    e = scale(e, 1.0 / length(e));
    ref_vec k = madd(*m, e, -dot(*m, e));
    *m = scale(k, 1.0 / length(k));
    return hull_turn(c, s, m, scale(cross(e, *m), side), hit);
}

/* A face through s, the support point along u: the support plane turned
 * about a line through s until it holds a second point, then about the
 * line through both until it holds a third. False without a face. */
static bool hull_first_face(const ref_core *c, ref_vec s, ref_vec u, ref_vec *m)
{
    ref_vec t = cross(u, fabs(u.x) < 0.5 ? vec(1.0, 0.0, 0.0) : vec(0.0, 1.0, 0.0));
    uint32_t hit;
    *m = u;
    if (!hull_turn_about(c, s, t, m, 1.0, &hit) && !hull_turn_about(c, s, t, m, -1.0, &hit))
        return false;
    ref_vec e = sub(hull_point(c, hit), s);
    if (!(length(e) > H_PLANE))
        return false;
    ref_vec keep = *m;
    if (hull_turn_about(c, s, e, m, 1.0, &hit))
        return true;
    *m = keep;
    return hull_turn_about(c, s, e, m, -1.0, &hit);
}

/* The hull points on the plane through q with normal m; 0 when more than
 * a feature holds. */
static int hull_plane_points(const ref_core *c, ref_vec q, ref_vec m, ref_feature *f)
{
    f->n = 0;
    for (uint32_t i = 0; i < c->count; i++) {
        ref_vec p = hull_point(c, i);
        if (!(fabs(dot(sub(p, q), m)) <= H_PLANE))
            continue;
        if (f->n == REF_FEATURE_MAX)
            return f->n = 0;
        f->p[f->n] = p;
        f->id[f->n++] = (uint16_t)(i & 0x3FFF);
    }
    return f->n;
}

/* Whether unit normal q is one of found's (to rounding: a face reached
 * over two of its edges comes out a few ulps apart). */
static bool hull_known(const ref_vec *found, int n, ref_vec q)
{
    for (int i = 0; i < n; i++)
        if (length(sub(found[i], q)) < 1e-9)
            return true;
    return false;
}

/* Whether the plane through s with unit normal m holds every hull point
 * tied with s along u (within tie of top; see H_TIE). */
static bool hull_holds_ties(const ref_core *c, ref_vec u, double top, double tie, ref_vec s, ref_vec m)
{
    for (uint32_t i = 0; i < c->count; i++) {
        ref_vec p = hull_point(c, i);
        if (top - dot(p, u) <= tie && !(fabs(dot(sub(p, s), m)) <= H_PLANE))
            return false;
    }
    return true;
}

/* The face through hull point s most aligned with u, from the face *m
 * through s: each face around s is reached from one found before by
 * turning its plane about an edge through s (every other point of the
 * face with s is tried: across a chord the plane is met at once and comes
 * out the same). Only faces through every point tied with s (top, tie)
 * compete, unless none is; ties go to the face found first. The faces
 * through the support point are the ones that hold the deepest point: a
 * face only more aligned elsewhere would not, and a climb from face to
 * face would end at whichever local best it met first. */
static void hull_around(const ref_core *c, ref_vec u, ref_vec s, double top, double tie, ref_vec *m)
{
    ref_vec found[H_AROUND], best = *m;
    int n = 1;
    bool held = hull_holds_ties(c, u, top, tie, s, *m);
    found[0] = *m;
    for (int at = 0; at < n; at++) {
        ref_feature f;
        int k = hull_plane_points(c, s, found[at], &f);
        for (int i = 0; i < k; i++) {
            ref_vec e = sub(f.p[i], s);
            for (double side = -1.0; side <= 1.0 && length(e) > H_PLANE; side += 2.0) {
                ref_vec q = found[at];
                uint32_t hit;
                if (n == H_AROUND || !hull_turn_about(c, s, e, &q, side, &hit) || hull_known(found, n, q))
                    continue;
                found[n++] = q;
                bool holds = hull_holds_ties(c, u, top, tie, s, q);
                if ((holds && !held) || (holds == held && dot(q, u) > dot(best, u)))
                    best = q, held = holds;
            }
        }
    }
    *m = best;
}

/* The hull's radius about its origin (solver units). */
static double hull_radius(const ref_core *c)
{
    double r = 0.0;
    for (uint32_t i = 0; i < c->count; i++)
        r = fmax(r, length(hull_point(c, i)));
    return r;
}

/* The hull face most aligned with u, when the rule takes its tilt and it
 * has at most REF_FEATURE_MAX points. */
static bool hull_aligned_face(const ref_core *c, ref_vec u, ref_feature_rule rule, ref_feature *f)
{
    if (!rule.aligned || c->count < 3)
        return false;
    ref_vec s = hull_point(c, hull_support(c, u)), m;
    if (!hull_first_face(c, s, u, &m))
        return false;
    hull_around(c, u, s, dot(s, u), H_TIE * hull_radius(c), &m);
    if (!takes(rule, dot(m, u)) || hull_plane_points(c, s, m, f) < 3)
        return false;
    f->key = gjkb__ref_hull_face_key(f->id, f->n);
    f->aligned = true;
    return true;
}

/* Aligned: the face most aligned with u (above). Else the hull's points
 * within the band of the support plane that a face tilted by the tolerance
 * angle would fill; too many: the support point. */
static ref_feature hull_feature(const ref_core *c, ref_vec u, ref_feature_rule rule)
{
    ref_feature f;
    if (hull_aligned_face(c, u, rule, &f))
        return f;
    uint32_t best = hull_support(c, u);
    double top = dot(hull_point(c, best), u);
    ref_vec s = hull_point(c, best);
    f.n = 0;
    f.aligned = false;
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

/* Its segment when the rule takes its tilt (the cosine is the segment's
 * perpendicular against u) or it is perpendicular to u within the
 * tolerance angle; else the end along u. */
static ref_feature capsule_feature(const ref_core *c, ref_vec u, ref_feature_rule rule)
{
    bool taken = takes(rule, gjkb__ref_hypot(u.x, u.y));
    if ((taken || fabs(u.z) <= REF_FACE_SIN) && c->sz > 0.0) {
        ref_feature f = segment_feature(vec(0.0, 0.0, -c->sz), 0, vec(0.0, 0.0, c->sz), 1, 0);
        f.aligned = taken;
        return f;
    }
    return point_feature(vec(0.0, 0.0, u.z >= 0.0 ? c->sz : -c->sz), u.z >= 0.0);
}

ref_feature gjkb__ref_feature(const ref_core *c, ref_vec u, ref_feature_rule rule)
{
    switch (c->kind) {
    case GJKB_CAPSULE:
        return capsule_feature(c, u, rule);
    case GJKB_BOX:
        return box_feature(c, u, rule);
    case GJKB_CYLINDER:
        return cylinder_feature(c, u, rule);
    case GJKB_CONE:
        return cone_feature(c, u, rule);
    case GJKB_HULL:
        return hull_feature(c, u, rule);
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
