/* wide_check.inl - every wide op run over the check inputs, written once on
 * the wide-op names. Include after one wide_<isa>.h, with WCHK_SUFFIX
 * defined (a token such as _avx2_native); defines wchk_run<suffix>. */
#ifndef GJKB_W
#error "include a wide_<isa>.h before wide_check.inl"
#endif
#ifndef WCHK_SUFFIX
#error "define WCHK_SUFFIX"
#endif

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wide_check.h"

#define WCHK_PASTE2(a, b) a##b
#define WCHK_PASTE(a, b) WCHK_PASTE2(a, b)
#define WCHK(name) WCHK_PASTE(name, WCHK_SUFFIX)

#define W GJKB_W
#define FULL_BITS ((unsigned)((1ull << W) - 1u))

static uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static void fail(wchk_out *o, const char *fmt, ...)
{
    if (o->failures++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(o->first_failure, sizeof o->first_failure, fmt, ap);
        va_end(ap);
    }
}

static void put_f(wchk_out *o, int op, int i, fw v)
{
    _Alignas(GJKB_ALIGN) float t[W];
    fw_store(t, v);
    memcpy(&o->r[op][i], t, sizeof t);
}

static void put_i(wchk_out *o, int op, int i, iw v)
{
    _Alignas(GJKB_ALIGN) int32_t t[W];
    iw_store(t, v);
    memcpy(&o->r[op][i], t, sizeof t);
}

/* Three views of one mask must agree lane by lane. */
static void put_m(wchk_out *o, int op, int i, mw m)
{
    _Alignas(GJKB_ALIGN) float fs[W];
    _Alignas(GJKB_ALIGN) int32_t is[W];
    unsigned bits = mw_bits(m);
    fw_store(fs, fw_sel(m, fw_splat(1.0f), fw_splat(0.0f)));
    iw_store(is, iw_sel(m, iw_splat(1), iw_splat(0)));
    if (bits & ~FULL_BITS)
        fail(o, "op %d lane %d: mw_bits 0x%x has bits past the width", op, i, bits);
    if (mw_any(m) != (bits != 0) || mw_all(m) != (bits == FULL_BITS))
        fail(o, "op %d lane %d: mw_any/mw_all disagree with mw_bits 0x%x", op, i, bits);
    for (int k = 0; k < W; k++)
        o->r[op][i + k] = ((bits >> k) & 1u) | (fs[k] == 1.0f ? 2u : 0u) | (is[k] == 1 ? 4u : 0u);
}

/* Horizontal references, written differently from wide_common.h. */
static float ref_hmax(const float *l)
{
    float best = -INFINITY;
    int pos_zero = 0;
    for (int k = 0; k < W; k++)
        if (isnan(l[k]))
            return l[k];
    for (int k = 0; k < W; k++) {
        best = l[k] > best ? l[k] : best;
        pos_zero |= l[k] == 0.0f && !signbit(l[k]);
    }
    return best == 0.0f && pos_zero ? 0.0f : best;
}

static float ref_hmin(const float *l)
{
    float best = INFINITY;
    int neg_zero = 0;
    for (int k = 0; k < W; k++)
        if (isnan(l[k]))
            return l[k];
    for (int k = 0; k < W; k++) {
        best = l[k] < best ? l[k] : best;
        neg_zero |= l[k] == 0.0f && signbit(l[k]);
    }
    return best == 0.0f && neg_zero ? -0.0f : best;
}

static void check_horizontal(wchk_out *o, const float *src, const char *what)
{
    for (int i = 0; i < WCHK_N; i += W) {
        fw v = fw_loadu(src + i);
        for (int k = 0; k < W; k++)
            if (bits_of(fw_lane(v, k)) != bits_of(src[i + k]))
                fail(o, "fw_lane(%s[%d..], %d) wrong", what, i, k);
        if (bits_of(fw_hmax(v)) != bits_of(ref_hmax(src + i)))
            fail(o, "fw_hmax(%s[%d..]) = %a, want %a", what, i, fw_hmax(v), ref_hmax(src + i));
        if (bits_of(fw_hmin(v)) != bits_of(ref_hmin(src + i)))
            fail(o, "fw_hmin(%s[%d..]) = %a, want %a", what, i, fw_hmin(v), ref_hmin(src + i));
    }
}

static void check_masks(wchk_out *o)
{
    if (mw_bits(mw_true()) != FULL_BITS || mw_bits(mw_false()) != 0)
        fail(o, "mw_true/mw_false bits wrong");
    /* every bit pattern of the width (all 65536 at W = 16), plus bits
     * beyond the width that must be ignored */
    for (unsigned x = 0; x <= FULL_BITS; x++) {
        unsigned junk = x | (0xA5A5A5A5u & ~FULL_BITS);
        if (mw_bits(mw_from_bits(x)) != x || mw_bits(mw_from_bits(junk)) != x)
            fail(o, "mw_bits(mw_from_bits(0x%x)) = 0x%x", x, mw_bits(mw_from_bits(x)));
        if (x == FULL_BITS)
            break;
    }
    const int ns[] = {INT32_MIN, -1000, -3, -2, -1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 1000, INT32_MAX};
    for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
        int n = ns[j];
        unsigned want = n <= 0 ? 0u : n >= W ? FULL_BITS : (1u << n) - 1u;
        if (mw_bits(mw_first_n(n)) != want)
            fail(o, "mw_first_n(%d) = 0x%x, want 0x%x", n, mw_bits(mw_first_n(n)), want);
    }
    _Alignas(GJKB_ALIGN) int32_t lanes[W];
    iw_store(lanes, iw_lane_index());
    for (int k = 0; k < W; k++)
        if (lanes[k] != k)
            fail(o, "iw_lane_index lane %d = %d", k, (int)lanes[k]);
#ifdef GJKB_WIDE_COMPRESS
    /* iw_compress (where the ISA has it): the set lanes in order, then
     * zeros, for every mask (all 2^W up to 8 lanes, a spread at 16). */
    int32_t src[W], got[W + 1];
    for (int k = 0; k < W; k++)
        src[k] = 1000 + 7 * k;
    for (unsigned x = 0;; x = W <= 8 ? x + 1 : x * 3 + 1) {
        unsigned bits = x & FULL_BITS;
        iw_storeu(got + 1, iw_compress(mw_from_bits(bits), iw_loadu(src)));
        int n = 0;
        for (int k = 0; k < W; k++)
            if ((bits >> k) & 1u && got[1 + n++] != src[k])
                fail(o, "iw_compress(0x%x) lane %d = %d, want %d", bits, n - 1, (int)got[n], (int)src[k]);
        for (int k = n; k < W; k++)
            if (got[1 + k] != 0)
                fail(o, "iw_compress(0x%x) lane %d = %d, want 0", bits, k, (int)got[1 + k]);
        if (bits == FULL_BITS || x > FULL_BITS)
            break;
    }
#endif
    /* iw_storeu: any address, exactly W lanes. */
    int32_t row[W + 2];
    for (int k = 0; k < W + 2; k++)
        row[k] = -1;
    iw_storeu(row + 1, iw_lane_index());
    if (row[0] != -1 || row[W + 1] != -1)
        fail(o, "iw_storeu wrote outside its W lanes");
    for (int k = 0; k < W; k++)
        if (row[1 + k] != k)
            fail(o, "iw_storeu lane %d = %d", k, (int)row[1 + k]);
}

void WCHK(wchk_run)(const wchk_in *in, wchk_out *out);
void WCHK(wchk_run)(const wchk_in *in, wchk_out *out)
{
    memset(out, 0, sizeof *out);
    out->width = W;
    out->name = GJKB_WIDE_NAME;
    if (GJKB_ALIGN < 4 || GJKB_ALIGN < (int)(W * sizeof(float)))
        fail(out, "GJKB_ALIGN %d too small", GJKB_ALIGN);

    for (int i = 0; i < WCHK_N; i += W) {
        fw a = fw_load(in->a + i), b = fw_load(in->b + i), c = fw_load(in->c + i);
        iw ia = iw_load(in->ia + i), ib = iw_load(in->ib + i);
        mw m = iw_eq(iw_load(in->mask + i), iw_splat(1));
        mw lt = fw_lt(a, b);

        put_f(out, WCHK_F_ZERO, i, fw_zero());
        for (int k = 0; k < W; k++) {
            /* each lane of a splat, so every lane gets checked */
            _Alignas(GJKB_ALIGN) float t[W];
            fw_store(t, fw_splat(in->a[i + k]));
            for (int j = 0; j < W; j++)
                if (bits_of(t[j]) != bits_of(in->a[i + k]))
                    fail(out, "fw_splat(a[%d]) lane %d differs", i + k, j);
            out->r[WCHK_F_SPLAT][i + k] = bits_of(t[k]);
        }
        put_f(out, WCHK_F_LOAD, i, a);
        {
            float t[W];
            fw_storeu(t, fw_loadu(in->a + i + 1));
            memcpy(&out->r[WCHK_F_LOADU][i], t, sizeof t);
        }
        put_f(out, WCHK_F_ADD, i, fw_add(a, b));
        put_f(out, WCHK_F_SUB, i, fw_sub(a, b));
        put_f(out, WCHK_F_MUL, i, fw_mul(a, b));
        put_f(out, WCHK_F_DIV, i, fw_div(a, b));
        put_f(out, WCHK_F_SQRT, i, fw_sqrt(a));
        put_f(out, WCHK_F_NEG, i, fw_neg(a));
        put_f(out, WCHK_F_ABS, i, fw_abs(a));
        put_f(out, WCHK_F_MIN, i, fw_min(a, b));
        put_f(out, WCHK_F_MAX, i, fw_max(a, b));
        put_f(out, WCHK_F_COPYSIGN, i, fw_copysign(a, b));
        put_f(out, WCHK_F_SEL, i, fw_sel(m, a, b));
        put_f(out, WCHK_F_SEL_LT, i, fw_sel(lt, a, b));
        put_f(out, WCHK_F_FROM_IW, i, fw_from_iw(ia));
        put_f(out, WCHK_F_GATHER, i, fw_gather(in->gtab, iw_load(in->gidx + i)));

        put_m(out, WCHK_M_LT, i, lt);
        put_m(out, WCHK_M_LE, i, fw_le(a, b));
        put_m(out, WCHK_M_GT, i, fw_gt(a, b));
        put_m(out, WCHK_M_GE, i, fw_ge(a, b));
        put_m(out, WCHK_M_EQ, i, fw_eq(a, b));
        put_m(out, WCHK_M_NEQ, i, fw_neq(a, b));
        put_m(out, WCHK_M_ISFINITE, i, fw_isfinite(a));
        put_m(out, WCHK_M_TRUE, i, mw_true());
        put_m(out, WCHK_M_FALSE, i, mw_false());
        put_m(out, WCHK_M_AND, i, mw_and(lt, m));
        put_m(out, WCHK_M_OR, i, mw_or(lt, m));
        put_m(out, WCHK_M_XOR, i, mw_xor(lt, m));
        put_m(out, WCHK_M_NOT, i, mw_not(lt));
        put_m(out, WCHK_M_ANDNOT, i, mw_andnot(lt, m));
        {
            unsigned bits = 0;
            for (int k = 0; k < W; k++)
                bits |= (unsigned)in->mask[i + k] << k;
            put_m(out, WCHK_M_FROM_BITS, i, mw_from_bits(bits));
        }
        put_m(out, WCHK_M_IW_LT, i, iw_lt(ia, ib));
        put_m(out, WCHK_M_IW_EQ, i, iw_eq(ia, ib));

        put_i(out, WCHK_I_ZERO, i, iw_zero());
        for (int k = 0; k < W; k++) {
            _Alignas(GJKB_ALIGN) int32_t t[W];
            iw_store(t, iw_splat(in->ia[i + k]));
            for (int j = 0; j < W; j++)
                if (t[j] != in->ia[i + k])
                    fail(out, "iw_splat(ia[%d]) lane %d differs", i + k, j);
            out->r[WCHK_I_SPLAT][i + k] = (uint32_t)t[k];
        }
        put_i(out, WCHK_I_LOAD, i, ia);
        put_i(out, WCHK_I_LOADU, i, iw_loadu(in->ia + i + 1));
        put_i(out, WCHK_I_ADD, i, iw_add(ia, ib));
        put_i(out, WCHK_I_SUB, i, iw_sub(ia, ib));
        put_i(out, WCHK_I_MIN, i, iw_min(ia, ib));
        put_i(out, WCHK_I_MAX, i, iw_max(ia, ib));
        put_i(out, WCHK_I_SEL, i, iw_sel(m, ia, ib));
        put_i(out, WCHK_I_SEL_LT, i, iw_sel(iw_lt(ia, ib), ia, ib));
        put_i(out, WCHK_I_SHL, i, iw_shl(ia, 5));
        put_i(out, WCHK_I_SHR, i, iw_shr(ia, 7));

        v3w p = v3_make(a, b, c), q = v3_load(in->b + i, in->c + i, in->a + i);
        v3w x = v3_cross(p, q);
        put_f(out, WCHK_V_DOT, i, v3_dot(p, q));
        put_f(out, WCHK_V_LEN2, i, v3_len2(p));
        put_f(out, WCHK_V_CROSS_X, i, x.x);
        put_f(out, WCHK_V_CROSS_Y, i, x.y);
        put_f(out, WCHK_V_CROSS_Z, i, x.z);
        put_f(out, WCHK_V_ADD_X, i, v3_add(p, q).x);
        put_f(out, WCHK_V_SUB_Y, i, v3_sub(p, q).y);
        put_f(out, WCHK_V_NEG_Z, i, v3_neg(p).z);
        put_f(out, WCHK_V_SCALE_X, i, v3_scale(p, c).x);
        put_f(out, WCHK_V_SEL_Y, i, v3_sel(m, p, q).y);
    }
    /* v3_store round trip */
    {
        _Alignas(GJKB_ALIGN) float x[W], y[W], z[W];
        v3w s = v3_splat(1.5f, -2.0f, 0.25f);
        v3_store(x, y, z, v3_add(s, v3_zero()));
        for (int k = 0; k < W; k++)
            if (x[k] != 1.5f || y[k] != -2.0f || z[k] != 0.25f)
                fail(out, "v3_store lane %d", k);
    }

    /* records: W rows stored as W records, then loaded back in reverse
     * lane order (value 100 k + lane + 0.5: field k of record lane) */
    {
        _Alignas(64) float rec[W * GJKB_RECORD];
        _Alignas(GJKB_ALIGN) float row[W];
        _Alignas(GJKB_ALIGN) int32_t rev[W];
        fw rows[GJKB_RECORD], back[GJKB_RECORD];
        for (int k = 0; k < GJKB_RECORD; k++) {
            for (int l = 0; l < W; l++)
                row[l] = 100.0f * (float)k + (float)l + 0.5f;
            rows[k] = fw_load(row);
        }
        fw_store_records(rec, rows);
        for (int l = 0; l < W; l++)
            for (int k = 0; k < GJKB_RECORD; k++)
                if (rec[l * GJKB_RECORD + k] != 100.0f * (float)k + (float)l + 0.5f)
                    fail(out, "fw_store_records: record %d field %d", l, k);
        for (int l = 0; l < W; l++)
            rev[l] = W - 1 - l;
        fw_load_records(rec, iw_load(rev), back);
        for (int k = 0; k < GJKB_RECORD; k++) {
            fw_store(row, back[k]);
            for (int l = 0; l < W; l++)
                if (row[l] != 100.0f * (float)k + (float)(W - 1 - l) + 0.5f)
                    fail(out, "fw_load_records: lane %d field %d", l, k);
        }
    }

    check_masks(out);
    check_horizontal(out, in->a, "a");
    check_horizontal(out, in->b, "b");
    check_horizontal(out, in->c, "c");
    check_horizontal(out, in->h, "h");
}

#undef W
#undef FULL_BITS
