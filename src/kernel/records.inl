/* records.inl - per-body records: where bodies recur in a batch, the
 * pipeline has the kernel write each body's rotation matrix, sizes, margin
 * and hull table entry once, in one 64-byte record (packed.h), and pack
 * loads a bundle's records with one transposed load per side instead of a
 * gather per value (pack.inl, pk_load_body). */

/* The record rows of W bodies whose arrays start at the given pointers:
 * the rotation as pack would make it, the sizes and margin as they are
 * (pack validates them), and for a hull body with a registered id its hull
 * table entry (0 otherwise). */
static GJKB_INLINE void rc_rows(const gjkb__world *w, const float *const q[4], const float *const sz[3],
                               const float *margin, const int32_t *kind, const int32_t *hull, uint32_t hulls,
                               fw rows[GJKB_RECORD])
{
    const fw zero = fw_zero();
    mw ok = sh_quat_rotation(fw_loadu(q[0]), fw_loadu(q[1]), fw_loadu(q[2]), fw_loadu(q[3]), rows + GJKB_REC_R0);
    rows[GJKB_REC_R0] = fw_sel(ok, rows[GJKB_REC_R0], fw_splat(NAN));
    for (int k = 0; k < 3; k++)
        rows[GJKB_REC_SX + k] = fw_loadu(sz[k]);
    rows[GJKB_REC_MARGIN] = margin ? fw_loadu(margin) : zero;
    iw hf = iw_zero(), hn = iw_zero();
    fw hr = zero;
    if (hull) {
        /* registered: 0 <= id < hulls as int32 (ids past INT32_MAX are not) */
        iw id = iw_loadu(hull);
        mw reg = mw_and(iw_eq(iw_loadu(kind), iw_splat(GJKB_HULL)),
                        mw_andnot(iw_lt(id, iw_splat((int32_t)hulls)), iw_lt(id, iw_zero())));
        if (mw_any(reg)) {
            id = iw_sel(reg, id, iw_zero());
            hf = iw_sel(reg, iw_gather(w->hull_first, id), iw_zero());
            hn = iw_sel(reg, iw_gather(w->hull_n, id), iw_zero());
            hr = fw_sel(reg, fw_gather(w->hull_radius, id), zero);
        }
    }
    rows[GJKB_REC_HULL_FIRST] = fw_from_bits(hf);
    rows[GJKB_REC_HULL_N] = fw_from_bits(hn);
    rows[GJKB_REC_HULL_RADIUS] = hr;
}

/* Bodies' records, a bundle at a time, transposed into records in
 * registers; a short tail through a padded copy (its extra lanes are
 * made and dropped), so every record comes from the same code. */
void GJKB_FN(gjkb__records_run)(const gjkb__world *w, const uint8_t *kind, uint32_t hulls, uint32_t first,
                                uint32_t end, float *out);
void GJKB_FN(gjkb__records_run)(const gjkb__world *w, const uint8_t *kind, uint32_t hulls, uint32_t first,
                                uint32_t end, float *out)
{
    for (uint32_t i = first; i < end; i += GJKB_W) {
        const uint32_t n = end - i < GJKB_W ? end - i : GJKB_W;
        _Alignas(GJKB_ALIGN) float pad[8][GJKB_W];
        _Alignas(GJKB_ALIGN) int32_t k[GJKB_W], hid[GJKB_W];
        const float *q[4] = { w->qw + i, w->qx + i, w->qy + i, w->qz + i };
        const float *sz[3] = { w->sx + i, w->sy + i, w->sz + i };
        const float *margin = w->margin ? w->margin + i : NULL;
        const int32_t *hull = w->hull ? w->hull + i : NULL;
        for (uint32_t l = 0; l < GJKB_W; l++)
            k[l] = l < n ? kind[i + l] : 0;
        if (n < GJKB_W) {
            const float *src[8] = { q[0], q[1], q[2], q[3], sz[0], sz[1], sz[2], margin };
            for (int f = 0; f < 8; f++)
                for (uint32_t l = 0; l < GJKB_W; l++)
                    pad[f][l] = l < n && src[f] ? src[f][l] : 0.0f;
            for (int f = 0; f < 4; f++)
                q[f] = pad[f];
            for (int f = 0; f < 3; f++)
                sz[f] = pad[4 + f];
            margin = margin ? pad[7] : NULL;
            if (hull) {
                for (uint32_t l = 0; l < GJKB_W; l++)
                    hid[l] = l < n ? hull[l] : 0;
                hull = hid;
            }
        }
        fw rows[GJKB_RECORD];
        rc_rows(w, q, sz, margin, k, hull, hulls, rows);
        if (n == GJKB_W) {
            fw_store_records(out + (size_t)i * GJKB_RECORD, rows);
        } else {
            _Alignas(64) float tail[GJKB_W * GJKB_RECORD];
            fw_store_records(tail, rows);
            memcpy(out + (size_t)i * GJKB_RECORD, tail, (size_t)n * GJKB_RECORD * sizeof(float));
        }
    }
}
