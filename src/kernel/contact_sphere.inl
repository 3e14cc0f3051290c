/* contact_sphere.inl - a sphere against a cylinder in closed form, across
 * lanes. The sphere's core is its centre; the nearest point of the
 * cylinder's core to it (inside: the nearer of its side and its cap) gives
 * the signed distance, the normal and the one contact point exactly. The
 * loops and EPA reach a curved side only slowly, and float's EPA stops
 * with its normal up to about 1e-3 rad off there (its depth is second
 * order in the angle): those lanes went to the reference.
 *
 * Work is in the cylinder's scaled frame (axis z, core radius r, half
 * height h), then back into A's. Where the side and the cap are equally
 * near, either normal meets the depth; the side is taken only where it is
 * strictly nearer. A centre on the axis takes the side along x. */

/* A centre this close to the core from outside (scaled units) has no
 * direction float can trust: the loops (and the reference) answer it. */
#define CS_NEAR 1e-5f

/* A lane's answer in A's scaled frame: signed distance (margins
 * included), unit normal from A to B, A's witness, the key of the two
 * features, and whether float settled it. */
typedef struct cs_out {
    fw dist;
    v3w n, a;
    iw key;
    mw ok;
} cs_out;

/* The valid lanes that are a sphere and a cylinder, either way round. */
static GJKB_INLINE mw cs_lanes(const gjkb__world *w, size_t o, const pack_w *k)
{
    const iw ka = iw_load(w->lane_ka + o), kb = iw_load(w->lane_kb + o);
    const iw sphere = iw_splat(GJKB_SPHERE), cylinder = iw_splat(GJKB_CYLINDER);
    mw m = mw_or(mw_and(iw_eq(ka, sphere), iw_eq(kb, cylinder)), mw_and(iw_eq(ka, cylinder), iw_eq(kb, sphere)));
    return mw_and(m, k->valid);
}

/* The cylinder's feature at its core point q: a cap's face where the
 * sphere is over the cap, the side line where it is beside the side, the
 * rim point past both; the ids of the generic manifold's cylinder. */
static GJKB_INLINE iw cs_key(mw over_cap, mw beside, fw z)
{
    const iw top = iw_sel(fw_ge(z, fw_zero()), iw_splat(1), iw_zero());
    const iw rim = iw_splat(2 * GJKB_CONTACT_RIM);
    iw key = mb_key(0, iw_add(rim, top));
    key = iw_sel(beside, mb_key(1, rim), key);
    return iw_sel(over_cap, mb_key(2, top), key);
}

static GJKB_INLINE cs_out cs_answer(const gjkb__world *w, size_t o, const pack_w *k)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f);
    const mw cyl_a = iw_eq(iw_load(w->lane_ka + o), iw_splat(GJKB_CYLINDER));
    const fw r = fw_sel(cyl_a, k->sa.c.rd, k->sb.c.rd), h = fw_sel(cyl_a, k->sa.c.h.z, k->sb.c.h.z);
    const fw mc = fw_sel(cyl_a, k->ma, k->mb), ms = fw_sel(cyl_a, k->mb, k->ma);
    /* the sphere's centre in the cylinder's frame */
    const v3w p = v3_sel(cyl_a, k->pose.t, m3_mul_t(k->pose.r, v3_neg(k->pose.t)));
    fw rho = fw_sqrt(fw_add(fw_mul(p.x, p.x), fw_mul(p.y, p.y))), az = fw_abs(p.z);
    fw zs = fw_sel(fw_ge(p.z, zero), one, fw_neg(one));
    mw has_lat = fw_gt(rho, zero);
    fw inv_rho = fw_div(one, fw_sel(has_lat, rho, one));
    v3w lat = v3_make(fw_sel(has_lat, fw_mul(p.x, inv_rho), one), fw_mul(p.y, fw_sel(has_lat, inv_rho, zero)), zero);
    mw over_cap = fw_le(rho, r), beside = fw_le(az, h);
    mw inside = mw_and(over_cap, beside);
    /* outside: the nearest core point and the way to the centre */
    v3w q = v3_make(fw_sel(over_cap, p.x, fw_mul(lat.x, r)), fw_sel(over_cap, p.y, fw_mul(lat.y, r)),
                    fw_sel(beside, p.z, fw_mul(zs, h)));
    v3w v = v3_sub(p, q);
    fw dv = fw_sqrt(v3_dot(v, v));
    v3w u = v3_scale(v, fw_div(one, fw_sel(fw_gt(dv, zero), dv, one)));
    fw core = dv;
    /* inside: the side where strictly nearer, else the cap */
    mw side = mw_and(inside, fw_lt(fw_sub(r, rho), fw_sub(h, az)));
    mw cap = mw_andnot(inside, side);
    u = v3_sel(side, lat, v3_sel(cap, v3_make(zero, zero, zs), u));
    q = v3_sel(side, v3_make(fw_mul(lat.x, r), fw_mul(lat.y, r), p.z), v3_sel(cap, v3_make(p.x, p.y, fw_mul(zs, h)), q));
    core = fw_sel(side, fw_sub(rho, r), fw_sel(cap, fw_sub(az, h), core));
    cs_out c;
    c.dist = fw_sub(core, fw_add(mc, ms));
    c.ok = mw_or(inside, fw_ge(dv, fw_splat(CS_NEAR)));
    c.key = cs_key(mw_or(cap, mw_andnot(over_cap, inside)), mw_or(side, mw_andnot(beside, inside)), p.z);
    /* the sphere's key is 0: the cylinder's goes on its side of the pair */
    c.key = iw_sel(cyl_a, iw_shl(c.key, 16), c.key);
    /* into A's frame: n from A to B */
    v3w on_sphere = v3_sub(p, v3_scale(u, ms)), on_cylinder = v3_madd(q, u, mc);
    c.n = v3_sel(cyl_a, u, v3_neg(m3_mul(k->pose.r, u)));
    c.a = v3_sel(cyl_a, on_cylinder, v3_add(m3_mul(k->pose.r, on_sphere), k->pose.t));
    c.ok = mw_and(c.ok, fw_isfinite(fw_add(c.dist, v3_dot(c.a, c.a))));
    return c;
}
