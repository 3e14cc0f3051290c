/* hit.inl - hit mode's boolean GJK: it proves overlap or separation
 * without ever solving for a closest point. Included by gjk.inl after the
 * pack, the support functions and the closest-point loop it falls back on.
 *
 * The simplex keeps its newest point a first. Each step runs the case of
 * every simplex size its lanes have, once, largest first, and a case that
 * drops a vertex hands the rest down: a tetrahedron that does not enclose
 * the origin passes on its face through a that faces the origin, a triangle
 * passes on an edge, a segment its vertex (the cascade of triple-product
 * GJK, with signed volumes and areas for the tests). The new search
 * direction is the normal of the kept feature toward the origin. A lane
 * stops only on a proof:
 *   - a support plane beyond the touching band: separated;
 *   - the origin strictly inside the tetrahedron: overlap;
 *   - a point of A - B within the band: overlap. Points of A - B are the
 *     support points, and the origin's projection on the kept edge or face
 *     where it lies inside it.
 * A lane that converges without a proof (the pair is within float noise of
 * the band), whose direction degenerates, or that reaches the step cap is
 * answered again by the closest-point loop, in bundles of such lanes. */

/* Steps of the boolean pass before a lane goes to the closest-point loop. */
#ifndef GJKB_K_HIT_CAP
#define GJKB_K_HIT_CAP 16u
#endif

/* Answers one bundle; returns the bits of its lanes left to retry. */
static GJKB_INLINE unsigned hit_bundle(const gjkb__world *world, const uint32_t *order, uint32_t count,
                                       const gjkb__lanes *ln, size_t o, uint32_t cap)
{
    const fw zero = fw_zero(), one = fw_splat(1.0f), two = fw_splat(2.0f), three = fw_splat(3.0f);
    const fw eps_rel = fw_splat(GJKB_K_EPS_REL), eps_abs = fw_splat(GJKB_K_EPS_ABS);
    pack_w pk;
    pack_bundle(world, order, count, o, 0, &pk);
    const fw touch2 = pk.touch2;   /* hit mode: also the support plane's limit */

    v3w d = pk.dir;                /* search direction: toward the origin */
    v3w q0 = v3_zero(), q1 = q0, q2 = q0;   /* the simplex, newest first */
    fw n = zero;                   /* its size */
    mw active = pk.valid, hit = mw_false(), retry = mw_false();
    iw iters = iw_zero();
    for (uint32_t it = 0; it < cap && mw_any(active); it++) {
        v3w pa, pb;
        v3w a = support_pair(&pk, d, world, &pa, &pb);
        iters = iw_sel(active, iw_splat((int32_t)it + 1), iters);
        fw ad = v3_dot(a, d), dd = v3_dot(d, d);
        /* The support plane: all of A - B lies at or below a.d along d. */
        mw sep = mw_and(fw_lt(ad, zero), fw_gt(fw_mul(ad, ad), fw_mul(touch2, dd)));
        mw near = fw_le(v3_dot(a, a), touch2);
        /* No gain along d over the simplex's newest point: converged, with
         * the pair within float noise of the band and no proof either way. */
        fw qd = v3_dot(q0, d), gain = fw_sub(ad, qd);
        mw conv = mw_and(fw_ge(n, one), mw_or(fw_le(gain, fw_mul(eps_rel, fw_abs(qd))),
                                              fw_le(fw_mul(gain, gain), fw_mul(eps_abs, dd))));
        hit = mw_or(hit, mw_and(active, near));
        retry = mw_or(retry, mw_and(active, mw_andnot(mw_andnot(conv, sep), near)));
        active = mw_andnot(active, mw_or(mw_or(sep, near), conv));
        if (!mw_any(active))
            break;

        mw s3 = mw_and(active, fw_eq(n, three));
        mw tri = mw_and(active, fw_eq(n, two));
        mw line = mw_and(active, fw_eq(n, one));
        v3w tb = q0, tc = q1;      /* the triangle case's (a, tb, tc) */
        if (mw_any(s3)) {
            /* Tetrahedron (a, q0, q1, q2): barycentric numerators of the
             * origin; all of the volume's sign means enclosed. */
            v3w ab = v3_sub(q0, a), ac = v3_sub(q1, a), ae = v3_sub(q2, a), ao = v3_neg(a);
            fw vol = det3(ab, ac, ae);
            fw nb = det3(ao, ac, ae), nc = det3(ab, ao, ae), ne = det3(ab, ac, ao);
            fw na = fw_sub(fw_sub(fw_sub(vol, nb), nc), ne);
            mw pos = fw_gt(vol, zero), neg = fw_lt(vol, zero);
            mw in_a = same_sign(na, pos, neg), in_b = same_sign(nb, pos, neg);
            mw in_c = same_sign(nc, pos, neg), in_e = same_sign(ne, pos, neg);
            mw enclosed = mw_and(s3, mw_and(mw_and(in_a, in_b), mw_and(in_c, in_e)));
            /* The first face through a with the origin outside it (a flat
             * tetrahedron has none inside: its first face). The origin
             * outside only the old face has no descent left here. */
            mw abc = mw_not(in_e), abe = mw_andnot(in_e, in_c);
            mw stuck = mw_andnot(mw_and(s3, mw_and(mw_and(in_b, in_c), in_e)), enclosed);
            tb = v3_sel(mw_and(s3, mw_not(mw_or(abc, abe))), q1, tb);
            tc = v3_sel(mw_andnot(s3, abc), q2, tc);
            hit = mw_or(hit, enclosed);
            retry = mw_or(retry, stuck);
            active = mw_andnot(active, mw_or(enclosed, stuck));
            tri = mw_or(tri, mw_and(s3, active));
        }

        v3w lb = q0;               /* the segment case's (a, lb) */
        mw face = mw_false(), face_in = mw_false();
        v3w dface = d;
        if (mw_any(tri)) {
            /* Triangle (a, tb, tc): signed areas of the origin's projection. */
            v3w nrm = v3_cross(v3_sub(tb, a), v3_sub(tc, a));
            fw la = v3_dot(nrm, v3_cross(tb, tc));
            fw lb_ = v3_dot(nrm, v3_cross(tc, a));
            fw lc = v3_dot(nrm, v3_cross(a, tb));
            /* Beyond edge a-tc (tb's weight negative) with the origin ahead
             * of a along it: that edge; else beyond either edge: edge a-tb
             * or the vertex, as the segment case decides; else the face. */
            mw out_c = fw_lt(lb_, zero), out_b = fw_lt(lc, zero);
            mw to_c = mw_and(out_c, fw_lt(v3_dot(v3_sub(tc, a), a), zero));
            face = mw_andnot(tri, mw_or(mw_or(out_c, out_b), mw_not(fw_gt(v3_dot(nrm, nrm), zero))));
            mw down = mw_andnot(tri, face);
            lb = v3_sel(mw_and(down, to_c), tc, v3_sel(down, tb, lb));
            line = mw_or(line, down);
            dface = v3_sel(fw_lt(v3_dot(nrm, a), zero), nrm, v3_neg(nrm));
            face_in = mw_and(mw_and(fw_ge(la, zero), fw_ge(lb_, zero)), fw_ge(lc, zero));
        }

        mw edge = mw_false(), edge_in = mw_false();
        v3w dedge = d;
        if (mw_any(line)) {
            /* Segment (a, lb): the edge while the origin is ahead of a. */
            v3w e = v3_sub(lb, a);
            fw t = fw_neg(v3_dot(e, a)), ee = v3_dot(e, e);
            edge = mw_and(line, fw_gt(t, zero));
            dedge = v3_sub(v3_scale(v3_neg(a), ee), v3_scale(e, t));
            edge_in = fw_le(t, ee);
        }

        /* The kept feature and the direction from it toward the origin. */
        v3w nd = v3_sel(face, dface, v3_sel(edge, dedge, v3_neg(a)));
        q2 = v3_sel(face, tc, q2);
        q1 = v3_sel(face, tb, v3_sel(edge, lb, q1));
        q0 = v3_sel(active, a, q0);
        n = fw_sel(active, fw_sel(face, three, fw_sel(edge, two, one)), n);
        d = v3_sel(active, nd, d);
        /* The origin's distance to the feature's span is |a.d| / |d|; where
         * its projection lies in the feature that is a point of A - B. */
        fw a_d = v3_dot(a, nd), ndd = v3_dot(nd, nd);
        mw inside = mw_or(mw_or(mw_and(face, face_in), mw_and(edge, edge_in)), mw_not(mw_or(face, edge)));
        mw close = mw_and(mw_and(active, inside), fw_le(fw_mul(a_d, a_d), fw_mul(touch2, ndd)));
        hit = mw_or(hit, close);
        active = mw_andnot(active, close);
        /* A vanished or non-finite direction has no proof left to find. */
        mw degenerate = mw_andnot(active, mw_and(fw_gt(ndd, zero), fw_isfinite(ndd)));
        retry = mw_or(retry, degenerate);
        active = mw_andnot(active, degenerate);
    }
    retry = mw_or(retry, active);

    iw status = iw_splat(K_SEPARATED);
    status = iw_sel(hit, iw_splat(K_OVERLAP), status);
    status = iw_sel(retry, iw_splat(K_RETRY), status);
    status = iw_sel(pk.valid, status, iw_splat(K_INVALID));
    iw_store(ln->status + o, status);
    iw_store(ln->iterations + o, iters);
    fw_store(ln->dist + o, fw_sel(iw_eq(status, iw_splat(K_OVERLAP)), zero, fw_splat(NAN)));
    /* The retry starts from the last search direction, in world axes. */
    v3_store(ln->nx + o, ln->ny + o, ln->nz + o, mat_mul(pk.ra, d));
    return mw_bits(mw_and(retry, pk.valid));
}

