/* contact_sphere.inl - a sphere against a sphere, a capsule, a box, a
 * cylinder or a cone in closed form, across lanes, for contact mode
 * (contact.inl) and distance mode's first pass (light.inl). The sphere's
 * core is its centre; the nearest point of the other core to it (inside:
 * the nearest point of its surface)
 * gives the signed distance, the normal and the one contact point
 * exactly, where the loops and EPA reach a curved side only slowly and
 * float's EPA stops with its normal up to about 1e-3 rad off (its depth is
 * second order in the angle), too far for the manifold's rules.
 *
 * A box is clamped per axis. The other cores are solids of revolution
 * about z (a capsule's, its segment: a cylinder of radius 0), so the work
 * is in their section, the half plane of (rho, z) through the centre (rho
 * >= 0, the distance from the axis), then turned back about the axis. Where two
 * sides are equally near, either normal meets the depth: the side listed
 * first below is taken only where strictly nearer. A centre on the axis
 * takes the direction along x, as does a centre on the other sphere's. */

/* Past a face or a side the normal is the face's, exact; past a rim or
 * an apex it is the way from that point to the centre, whose float
 * rounding (about 1e-7 of the extent) over its length turns it: a centre
 * nearer than this (scaled units) could tilt the normal off the point's
 * cone of normals by 1e-5, and the support gap along it by as much: the
 * loops (and the reference) answer it. */
#define CS_VERTEX 1e-2f

/* The core point nearest the centre in the section, the unit direction
 * from it out to the centre (inside: out of the nearest side), the signed
 * distance, the feature's key (the generic manifold's ids), and whether
 * float settled it. */
typedef struct cs_2d {
    fw qr, qz, ur, uz, core;
    iw key;
    mw ok;
} cs_2d;

/* Lanes m: past the vertex (vr, vz) of the section. */
static GJKB_INLINE void cs_vertex(cs_2d *s, mw m, fw rho, fw z, fw vr, fw vz)
{
    const fw one = fw_splat(1.0f);
    fw dr = fw_sub(rho, vr), dz = fw_sub(z, vz);
    fw d = fw_sqrt(fw_add(fw_mul(dr, dr), fw_mul(dz, dz)));
    fw inv = fw_div(one, fw_sel(fw_gt(d, fw_zero()), d, one));
    s->qr = fw_sel(m, vr, s->qr);
    s->qz = fw_sel(m, vz, s->qz);
    s->ur = fw_sel(m, fw_mul(dr, inv), s->ur);
    s->uz = fw_sel(m, fw_mul(dz, inv), s->uz);
    s->core = fw_sel(m, d, s->core);
    s->ok = mw_andnot(s->ok, mw_and(m, mw_not(fw_ge(d, fw_splat(CS_VERTEX)))));
}

/* Lanes m: along the side of unit outward normal (nr, nz) at signed
 * distance d (the nearest point the centre less d times the normal). */
static GJKB_INLINE void cs_side(cs_2d *s, mw m, fw rho, fw z, fw nr, fw nz, fw d)
{
    s->qr = fw_sel(m, fw_sub(rho, fw_mul(d, nr)), s->qr);
    s->qz = fw_sel(m, fw_sub(z, fw_mul(d, nz)), s->qz);
    s->ur = fw_sel(m, nr, s->ur);
    s->uz = fw_sel(m, nz, s->uz);
    s->core = fw_sel(m, d, s->core);
}

/* The manifold's aligned rule (docs/contacts.md): a feature whose tilt
 * has a cosine of at least max(0.5, 1 - 0.1 * band / margin) is taken. */
#define CS_ALIGN_COS 0.5f
#define CS_MARGIN_SHARE 0.1f
#define CS_FACE_SIN 1.5e-3f  /* the strict rule's angle (sine) */
#define CS_RULE_SLACK 1e-5f  /* a cosine this near a bound: the loops decide */

static GJKB_INLINE fw cs_min_cos(fw margin, fw band)
{
    const fw one = fw_splat(1.0f);
    mw round = fw_gt(margin, fw_zero());
    fw share = fw_sel(round, fw_div(fw_mul(fw_splat(CS_MARGIN_SHARE), band), fw_sel(round, margin, one)), one);
    return fw_max(fw_splat(CS_ALIGN_COS), fw_sub(one, share));
}

/* A capsule's feature along a way out of lean lat off its axis's
 * perpendicular plane (a cosine) and |uz| along its axis, half length h:
 * the lanes where the rule clearly takes its segment (it leans by at most
 * the rule's tilt, or lies within the strict angle of perpendicular), and
 * in *end those where it clearly takes the end; neither within slack. */
static GJKB_INLINE mw cs_segment_rule(fw lat, fw az, fw h, fw min_cos, fw slack, mw *end)
{
    const fw sin_face = fw_splat(CS_FACE_SIN);
    mw long_core = fw_gt(h, fw_zero());
    *end = mw_or(mw_not(long_core),
                 mw_and(fw_lt(lat, fw_sub(min_cos, slack)), fw_gt(az, fw_add(sin_face, slack))));
    return mw_and(long_core, mw_or(fw_ge(lat, fw_add(min_cos, slack)), fw_le(az, fw_sub(sin_face, slack))));
}

/* Whether a is clearly apart from b (by more than CS_RULE_SLACK). */
static GJKB_INLINE mw cs_clear(fw a, fw b)
{
    return fw_gt(fw_abs(fw_sub(a, b)), fw_splat(CS_RULE_SLACK));
}

/* Past the rim, the feature the reference's rule takes along the way out
 * (ur, uz), as its key: the cap where it is the more aligned and the
 * rule takes it (or the way is within the strict angle of the axis), the
 * side line likewise, else the rim point; a cosine near a bound is not
 * decided here. */
static GJKB_INLINE void cs_rim_key(cs_2d *s, mw rim, iw top, fw min_cos)
{
    enum { M = GJKB_CONTACT_RIM };
    const fw lat = fw_abs(s->ur), az = fw_abs(s->uz), sin_face = fw_splat(CS_FACE_SIN);
    mw cap_first = fw_ge(az, lat);
    mw cap = mw_or(mw_and(cap_first, fw_ge(az, min_cos)), fw_le(lat, sin_face));
    mw side = mw_or(mw_andnot(fw_ge(lat, min_cos), cap_first), fw_le(az, sin_face));
    iw key = iw_sel(cap, mb_key(2, top), iw_sel(side, mb_key(1, iw_splat(2 * M)), s->key));
    mw clear = mw_and(mw_and(cs_clear(az, lat), cs_clear(fw_sel(cap_first, az, lat), min_cos)),
                      mw_and(cs_clear(lat, sin_face), cs_clear(az, sin_face)));
    s->key = iw_sel(rim, key, s->key);
    s->ok = mw_andnot(s->ok, mw_andnot(rim, clear));
}

/* Past a cone's rim or apex (lanes m), the feature the reference's rule
 * takes along the way out (ur, uz), as its key: the base where it is more
 * aligned than the slant on the way's side and the rule takes it (or the
 * way is within the strict angle of the axis, downward), that slant line
 * likewise (or the way within the strict angle of its normal), else the
 * apex or the rim point, whichever is farther along the way; a cosine
 * near a bound is not decided here. */
static GJKB_INLINE void cs_cone_key(cs_2d *s, mw m, fw r, fw h, fw min_cos)
{
    enum { M = GJKB_CONTACT_RIM };
    const fw zero = fw_zero(), one = fw_splat(1.0f), sin_face = fw_splat(CS_FACE_SIN);
    const fw two_h = fw_add(h, h), len2 = fw_add(fw_mul(r, r), fw_mul(two_h, two_h));
    const fw inv_len = fw_div(one, fw_sqrt(fw_sel(fw_gt(len2, zero), len2, one)));
    const fw nr = fw_mul(two_h, inv_len), nz = fw_mul(r, inv_len);
    const fw lat = fw_abs(s->ur), uz = s->uz, down = fw_neg(uz);
    const fw slant_cos = fw_add(fw_mul(lat, nr), fw_mul(uz, nz));
    const fw off_slant = fw_abs(fw_sub(fw_mul(lat, nz), fw_mul(uz, nr)));
    const fw apex_far = fw_sub(fw_mul(uz, h), fw_sub(fw_mul(lat, r), fw_mul(uz, h)));
    mw has_slant = mw_and(fw_gt(lat, zero), mw_and(fw_gt(r, zero), fw_gt(h, zero)));
    mw base_first = fw_ge(down, slant_cos);
    mw base = mw_and(fw_gt(r, zero), mw_or(mw_and(base_first, fw_ge(down, min_cos)),
                                          mw_and(fw_le(lat, sin_face), fw_lt(uz, zero))));
    mw slant = mw_and(has_slant, mw_or(mw_andnot(fw_ge(slant_cos, min_cos), base_first),
                                       mw_and(fw_le(off_slant, sin_face), fw_gt(slant_cos, zero))));
    iw point = iw_sel(fw_ge(apex_far, zero), iw_splat(M), iw_splat(M + 1));
    iw key = iw_sel(base, mb_key(2, iw_zero()), iw_sel(slant, mb_key(1, iw_splat(M)), mb_key(0, point)));
    /* the signs of uz and of slant_cos count only with their strict clauses */
    mw uz_ok = mw_or(cs_clear(uz, zero), fw_gt(lat, fw_add(sin_face, fw_splat(CS_RULE_SLACK))));
    mw sc_ok = mw_or(cs_clear(slant_cos, zero), fw_gt(off_slant, fw_add(sin_face, fw_splat(CS_RULE_SLACK))));
    mw clear = mw_and(mw_and(cs_clear(down, slant_cos), cs_clear(fw_sel(base_first, down, slant_cos), min_cos)),
                      mw_and(mw_and(cs_clear(lat, sin_face), cs_clear(off_slant, sin_face)),
                             mw_and(mw_and(uz_ok, sc_ok), cs_clear(apex_far, zero))));
    s->key = iw_sel(m, key, s->key);
    s->ok = mw_andnot(s->ok, mw_andnot(m, clear));
}

/* Cylinder (radius r, half height h): over a cap, beside the side, or
 * past the rim; inside, the side before the cap. */
static GJKB_INLINE cs_2d cs_cylinder(fw rho, fw z, fw r, fw h)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    enum { M = GJKB_CONTACT_RIM };
    fw az = fw_abs(z), zs = fw_sel(fw_ge(z, zero), one, fw_neg(one));
    mw over_cap = fw_le(rho, r), beside = fw_le(az, h), inside = mw_and(over_cap, beside);
    fw to_side = fw_sub(rho, r), to_cap = fw_sub(az, h);
    mw side = mw_or(mw_and(inside, fw_gt(to_side, to_cap)), mw_andnot(beside, over_cap));
    mw cap = mw_or(mw_andnot(inside, side), mw_andnot(over_cap, beside));
    mw rim = mw_not(mw_or(over_cap, beside));
    cs_2d s = { zero, zero, zero, zero, zero, iw_zero(), mw_true() };
    cs_side(&s, side, rho, z, one, zero, to_side);
    cs_side(&s, cap, rho, z, zero, zs, to_cap);
    cs_vertex(&s, rim, rho, z, r, fw_mul(zs, h));
    const iw top = iw_sel(fw_ge(z, zero), iw_splat(1), iw_zero());
    s.key = mb_key(0, iw_add(iw_splat(2 * M), top));
    s.key = iw_sel(side, mb_key(1, iw_splat(2 * M)), s.key);
    s.key = iw_sel(cap, mb_key(2, top), s.key);
    return s;
}

/* Cone (base radius r at -h, apex at h): its section is the triangle of
 * the base's centre, its rim and the apex; past the base, the slant, the
 * rim or the apex; inside, the slant before the base. */
static GJKB_INLINE cs_2d cs_cone(fw rho, fw z, fw r, fw h)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f), two_h = fw_add(h, h);
    enum { M = GJKB_CONTACT_RIM };
    fw len2 = fw_add(fw_mul(r, r), fw_mul(two_h, two_h));
    fw div2 = fw_sel(fw_gt(len2, zero), len2, one), inv_len = fw_div(one, fw_sqrt(div2));
    fw zh = fw_add(z, h), dr = fw_sub(rho, r);
    /* signed distances to the slant's line (outward (2h, r) / len) and the base */
    fw nr = fw_mul(two_h, inv_len), nz = fw_mul(r, inv_len);
    fw slant = fw_add(fw_mul(dr, nr), fw_mul(zh, nz)), base = fw_neg(zh);
    mw inside = mw_and(fw_le(slant, zero), fw_le(base, zero));
    /* outside, by the regions of the section's edges and corners: t
     * along the slant from the rim (its perpendiculars at 0 and 1) */
    fw t = fw_div(fw_add(fw_mul(fw_neg(dr), r), fw_mul(zh, two_h)), div2);
    mw out = mw_not(inside);
    mw line = mw_and(mw_and(out, fw_gt(slant, zero)), mw_and(fw_gt(t, zero), fw_lt(t, one)));
    mw apex = mw_and(out, fw_ge(t, one));
    mw face = mw_andnot(mw_andnot(mw_and(out, mw_and(fw_gt(base, zero), fw_lt(rho, r))), line), apex);
    mw rim = mw_andnot(mw_andnot(mw_andnot(out, line), apex), face);
    line = mw_or(line, mw_and(inside, fw_gt(slant, base)));
    face = mw_or(face, mw_andnot(inside, line));
    cs_2d s = { zero, zero, zero, zero, zero, iw_zero(), fw_gt(len2, zero) };
    cs_side(&s, line, rho, z, nr, nz, slant);
    cs_side(&s, face, rho, z, zero, fw_neg(one), base);
    cs_vertex(&s, apex, rho, z, zero, h);
    cs_vertex(&s, rim, rho, z, r, fw_neg(h));
    s.key = mb_key(0, iw_splat(M + 1));
    s.key = iw_sel(apex, mb_key(0, iw_splat(M)), s.key);
    s.key = iw_sel(line, mb_key(1, iw_splat(M)), s.key);
    s.key = iw_sel(face, mb_key(2, iw_zero()), s.key);
    return s;
}

/* Box (half extents h): inside, the nearest face (the first of equals);
 * past one face, its normal; past an edge or a corner, the way from it.
 * Keyed by the face most aligned with the normal, as the one-point path
 * keys a box. In the box's frame: the core point q, unit direction u out
 * to the centre, signed distance, key, settled. */
typedef struct cs_3d {
    v3w q, u;
    fw core;
    iw key;
    mw ok;
} cs_3d;

static GJKB_INLINE cs_3d cs_box(v3w p, v3w h)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    v3w d = v3_make(fw_sub(fw_abs(p.x), h.x), fw_sub(fw_abs(p.y), h.y), fw_sub(fw_abs(p.z), h.z));
    v3w s = v3_make(fw_sel(fw_ge(p.x, zero), one, fw_neg(one)), fw_sel(fw_ge(p.y, zero), one, fw_neg(one)),
                    fw_sel(fw_ge(p.z, zero), one, fw_neg(one)));
    mw ox = fw_gt(d.x, zero), oy = fw_gt(d.y, zero), oz = fw_gt(d.z, zero);
    mw corner = mw_or(mw_or(mw_and(ox, oy), mw_and(ox, oz)), mw_and(oy, oz));
    /* the face of the largest d: the one past, or inside the nearest */
    mb_axis f;
    f.k0 = mw_and(fw_ge(d.x, d.y), fw_ge(d.x, d.z));
    f.k1 = mw_andnot(fw_ge(d.y, d.z), f.k0);
    mw kz = mw_not(mw_or(f.k0, f.k1));
    v3w nf = v3_make(fw_sel(f.k0, s.x, zero), fw_sel(f.k1, s.y, zero), fw_sel(kz, s.z, zero));
    v3w qf = v3_make(fw_sel(f.k0, fw_mul(s.x, h.x), p.x), fw_sel(f.k1, fw_mul(s.y, h.y), p.y),
                     fw_sel(kz, fw_mul(s.z, h.z), p.z));
    /* past an edge or a corner: from the clamped point */
    v3w qc = v3_make(fw_min(fw_max(p.x, fw_neg(h.x)), h.x), fw_min(fw_max(p.y, fw_neg(h.y)), h.y),
                     fw_min(fw_max(p.z, fw_neg(h.z)), h.z));
    v3w v = v3_sub(p, qc);
    fw dv = fw_sqrt(v3_dot(v, v));
    cs_3d c;
    c.q = v3_sel(corner, qc, qf);
    c.u = v3_sel(corner, v3_scale(v, fw_div(one, fw_sel(fw_gt(dv, zero), dv, one))), nf);
    c.core = fw_sel(corner, dv, mb_pick(f, d.x, d.y, d.z));
    c.ok = mw_or(mw_not(corner), fw_ge(dv, fw_splat(CS_VERTEX)));
    mb_axis top = mb_largest(c.u.x, c.u.y, c.u.z);
    c.key = mb_face_key(mb_ipick(top, 0, 1, 2), fw_gt(mb_pick(top, c.u.x, c.u.y, c.u.z), zero));
    return c;
}

/* A lane's answer in A's scaled frame: signed distance (margins
 * included), unit normal from A to B, A's witness, the key of the two
 * features, and whether float settled it; cs_answer also gives the
 * cores' signed distance. */
typedef struct cs_out {
    fw dist, core;
    v3w n, a;
    iw key;
    mw ok;
} cs_out;

/* Whether kind is a capsule, a box, a cylinder or a cone. */
static GJKB_INLINE mw cs_round(iw kind)
{
    return mw_and(mw_not(iw_eq(kind, iw_splat(GJKB_SPHERE))), mw_not(iw_eq(kind, iw_splat(GJKB_HULL))));
}

/* The valid lanes that are a sphere and a sphere, a capsule, a box, a
 * cylinder or a cone, either way round. */
static GJKB_INLINE mw cs_lanes(const gjkb__world *w, size_t o, const pack_w *k)
{
    const iw ka = iw_load(w->lane_ka + o), kb = iw_load(w->lane_kb + o);
    const iw sphere = iw_splat(GJKB_SPHERE);
    mw ball_a = iw_eq(ka, sphere), ball_b = iw_eq(kb, sphere);
    mw m = mw_or(mw_and(ball_a, mw_or(ball_b, cs_round(kb))), mw_and(cs_round(ka), ball_b));
    return mw_and(m, k->valid);
}

/* The other core a point too (lanes m): the way to the centre p, along x
 * where p is the point itself. Every direction is a normal of a point, so
 * the float rounding of p tilts the normal without moving the depth by
 * more than second order: no CS_VERTEX limit here. */
static GJKB_INLINE void cs_point(cs_3d *c, mw m, v3w p)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    fw len = fw_sqrt(v3_dot(p, p));
    mw some = fw_gt(len, zero);
    v3w u = v3_scale(p, fw_div(one, fw_sel(some, len, one)));
    c->q = v3_sel(m, v3_zero(), c->q);
    c->u = v3_sel(m, v3_sel(some, u, v3_splat(1.0f, 0.0f, 0.0f)), c->u);
    c->core = fw_sel(m, len, c->core);
    c->key = iw_sel(m, iw_zero(), c->key);
    c->ok = mw_or(m, c->ok);
}

/* The nearest point of a cylinder's or (lanes cone) a cone's core (radius
 * r, half height h) to p, its frame: in the section, with the unit way
 * (lx, ly) from the axis toward p that turns it back (x where p is on
 * the axis). Only the kinds the bundle has are worked. */
static GJKB_INLINE cs_2d cs_revolved(v3w p, fw r, fw h, mw cone, fw *lx, fw *ly)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    fw rho = fw_sqrt(fw_add(fw_mul(p.x, p.x), fw_mul(p.y, p.y)));
    mw has_lat = fw_gt(rho, zero);
    fw inv_rho = fw_div(one, fw_sel(has_lat, rho, one));
    *lx = fw_sel(has_lat, fw_mul(p.x, inv_rho), one);
    *ly = fw_mul(p.y, fw_sel(has_lat, inv_rho, zero));
    if (!mw_any(cone))
        return cs_cylinder(rho, p.z, r, h);
    cs_2d cn = cs_cone(rho, p.z, r, h);
    if (mw_all(cone))
        return cn;
    cs_2d s = cs_cylinder(rho, p.z, r, h);
    s.qr = fw_sel(cone, cn.qr, s.qr), s.qz = fw_sel(cone, cn.qz, s.qz);
    s.ur = fw_sel(cone, cn.ur, s.ur), s.uz = fw_sel(cone, cn.uz, s.uz);
    s.core = fw_sel(cone, cn.core, s.core);
    s.key = iw_sel(cone, cn.key, s.key);
    s.ok = mw_or(mw_and(cone, cn.ok), mw_andnot(s.ok, cone));
    return s;
}

/* A solid of revolution's core (cylinder, cone, capsule: radius r, half
 * height h) against the centre p, in its frame: the section's answer
 * turned back about the axis. */
static GJKB_INLINE cs_3d cs_round_core(v3w p, fw r, fw h, mw cone, mw capsule, fw min_cos)
{
    const fw zero = fw_zero();
    fw lx, ly;
    cs_2d s = cs_revolved(p, r, h, cone, &lx, &ly);
    const iw top = iw_sel(fw_ge(p.z, zero), iw_splat(1), iw_zero());
    /* a cylinder's rim point: the feature the rule takes there */
    mw rim = mw_andnot(mw_andnot(iw_eq(s.key, mb_key(0, iw_add(iw_splat(2 * GJKB_CONTACT_RIM), top))), cone), capsule);
    if (mw_any(rim))
        cs_rim_key(&s, rim, top, min_cos);
    /* a cone's apex or rim point likewise */
    mw corner = mw_and(cone, mw_or(iw_eq(s.key, mb_key(0, iw_splat(GJKB_CONTACT_RIM))),
                                   iw_eq(s.key, mb_key(0, iw_splat(GJKB_CONTACT_RIM + 1)))));
    if (mw_any(corner))
        cs_cone_key(&s, corner, r, h, min_cos);
    /* a capsule's segment where the rule takes it along the way out (the
     * way leaning off perpendicular to the axis by at most the rule's
     * tilt, or within the strict angle of it), else its end */
    if (mw_any(capsule)) {
        mw end, segment = cs_segment_rule(fw_abs(s.ur), fw_abs(s.uz), h, min_cos, fw_splat(CS_RULE_SLACK), &end);
        s.key = iw_sel(capsule, iw_sel(segment, mb_key(1, iw_zero()), mb_key(0, top)), s.key);
        s.ok = mw_andnot(s.ok, mw_andnot(capsule, mw_or(segment, end)));
    }
    s.ok = mw_and(s.ok, fw_gt(fw_add(r, h), zero));
    cs_3d t = { v3_make(fw_mul(s.qr, lx), fw_mul(s.qr, ly), s.qz), v3_make(fw_mul(s.ur, lx), fw_mul(s.ur, ly), s.uz),
                s.core, s.key, s.ok };
    return t;
}

static GJKB_INLINE cs_out cs_answer(const gjkb__world *w, size_t o, const pack_w *k)
{
    const iw ka = iw_load(w->lane_ka + o);
    const mw round_a = mw_not(iw_eq(ka, iw_splat(GJKB_SPHERE)));
    const iw kind = iw_sel(round_a, ka, iw_load(w->lane_kb + o));
    const mw cone = iw_eq(kind, iw_splat(GJKB_CONE)), capsule = iw_eq(kind, iw_splat(GJKB_CAPSULE));
    const mw box = iw_eq(kind, iw_splat(GJKB_BOX)), ball = iw_eq(kind, iw_splat(GJKB_SPHERE));
    const fw r = fw_sel(round_a, k->sa.c.rd, k->sb.c.rd), h = fw_sel(round_a, k->sa.c.h.z, k->sb.c.h.z);
    const fw mc = fw_sel(round_a, k->ma, k->mb), ms = fw_sel(round_a, k->mb, k->ma);
    /* the sphere's centre in the other core's frame; only the kinds the
     * bundle has are worked */
    const v3w p = v3_sel(round_a, k->pose.t, m3_mul_t(k->pose.r, v3_neg(k->pose.t)));
    cs_3d t = { v3_zero(), v3_zero(), fw_zero(), iw_zero(), mw_false() };
    if (mw_any(mw_not(mw_or(box, ball))))
        t = cs_round_core(p, r, h, cone, capsule, cs_min_cos(mc, k->tol));
    if (mw_any(box)) {
        cs_3d b = cs_box(p, v3_sel(round_a, k->sa.c.h, k->sb.c.h));
        t.q = v3_sel(box, b.q, t.q), t.u = v3_sel(box, b.u, t.u);
        t.core = fw_sel(box, b.core, t.core);
        t.key = iw_sel(box, b.key, t.key);
        t.ok = mw_or(mw_and(box, b.ok), mw_andnot(t.ok, box));
    }
    if (mw_any(ball))
        cs_point(&t, ball, p);
    const v3w q = t.q, u = t.u;
    cs_out c;
    c.core = t.core;
    c.dist = fw_sub(t.core, fw_add(mc, ms));
    c.ok = t.ok;
    /* the sphere's key is 0: the other's goes on its side of the pair */
    c.key = iw_sel(round_a, iw_shl(t.key, 16), t.key);
    /* into A's frame: n from A to B */
    v3w on_sphere = v3_sub(p, v3_scale(u, ms)), on_round = v3_madd(q, u, mc);
    c.n = v3_sel(round_a, u, v3_neg(m3_mul(k->pose.r, u)));
    c.a = v3_sel(round_a, on_round, v3_add(m3_mul(k->pose.r, on_sphere), k->pose.t));
    c.ok = mw_and(c.ok, fw_isfinite(fw_add(c.dist, v3_dot(c.a, c.a))));
    return c;
}
