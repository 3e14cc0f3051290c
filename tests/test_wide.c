/* test_wide.c - the wide-op headers: the width-1 header against IEEE and
 * bit-level semantics written out here, then every ISA variant (native
 * where the CPU runs it, SIMDe-emulated always) bit for bit against width 1.
 * CMake says which variants exist (WCHK_VARIANTS, wchk_variants.h); their
 * widths and CPU checks are the backend table's (src/backends.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "backends.h"
#include "wchk_variants.h"
#include "wide_check.h"

WCHK_DECLARE(_scalar)
#define WCHK_DECLARE_VARIANT(suffix, backend, native) WCHK_DECLARE(_##suffix)
WCHK_VARIANTS(WCHK_DECLARE_VARIANT)
#undef WCHK_DECLARE_VARIANT

#define WCHK_NAME(name) #name,
static const char *const op_names[] = {WCHK_OPS(WCHK_NAME)};
#undef WCHK_NAME

static wchk_in *g_in;
static wchk_out *g_ref; /* width 1 */

static uint32_t fbits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static float bitsf(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static uint32_t rng_state = 0x9E3779B9u;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* Zeros, subnormals, normals near the ends of the range, Inf, and NaNs of
 * both signs, quiet and signalling, with payloads. */
static const uint32_t special_bits[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000003, 0x007fffff, 0x807fffff, 0x00400000,
    0x00800000, 0x80800000, 0x00800001, 0x3f800000, 0xbf800000, 0x3f000000, 0x3fc00000, 0xc0400000,
    0x40000000, 0x3dcccccd, 0xbdcccccd, 0x40490fdb, 0x4b800000, 0x4b800001, 0x7f7fffff, 0xff7fffff,
    0x7f000000, 0x7149f2ca, 0xf149f2ca, 0x0da24260, 0x8da24260, 0x7f800000, 0xff800000, 0x7fc00000,
    0xffc00000, 0x7fc12345, 0xffc54321, 0x7fa00001, 0xff800002, 0x5f000000, 0x1f800000, 0x3effffff,
};
#define NSPECIAL ((int)(sizeof special_bits / sizeof special_bits[0]))

static const int32_t special_ints[] = {
    0, 1, -1, 2, -2, 7, INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1,
    16777216, 16777217, 16777219, -16777217, 2147483520, 123456789, -987654321, 33554435,
};
#define NSPECIAL_INT ((int)(sizeof special_ints / sizeof special_ints[0]))

static float random_float(uint32_t kind)
{
    switch (kind % 4) {
    case 0: /* any bit pattern */
        return bitsf(rng());
    case 1: /* moderate, both signs */
        return ldexpf((float)(int32_t)rng(), -(int)(rng() % 40));
    case 2: /* wide exponent range, into overflow and subnormals */
        return ldexpf((float)(int32_t)(rng() | 1u), (int)(rng() % 300) - 180);
    default: /* small integers and halves: many exact ties and equalities */
        return (float)((int)(rng() % 9) - 4) * 0.5f;
    }
}

static void fill_inputs(wchk_in *in)
{
    memset(in, 0, sizeof *in);
    for (int j = 0; j < WCHK_N + WCHK_PAD; j++) {
        if (j < NSPECIAL * NSPECIAL) {
            in->a[j] = bitsf(special_bits[j / NSPECIAL]);
            in->b[j] = bitsf(special_bits[j % NSPECIAL]);
            in->c[j] = bitsf(special_bits[(j * 7 + 3) % NSPECIAL]);
        } else {
            in->a[j] = random_float((uint32_t)j);
            in->b[j] = random_float((uint32_t)j >> 2);
            in->c[j] = random_float(rng());
        }
        if (j < NSPECIAL_INT * NSPECIAL_INT) {
            in->ia[j] = special_ints[j / NSPECIAL_INT];
            in->ib[j] = special_ints[j % NSPECIAL_INT];
        } else {
            in->ia[j] = (j & 1) ? (int32_t)rng() : (int32_t)(rng() % 64) - 32;
            in->ib[j] = (j & 2) ? (int32_t)rng() : (int32_t)(rng() % 64) - 32;
        }
    }
    for (int j = 0; j < WCHK_N; j++) {
        in->mask[j] = (int32_t)(rng() & 1u);
        in->gidx[j] = (int32_t)(rng() % WCHK_GATHER);
    }
    /* Blocks of 16 (a bundle at every width) where the extreme is often a
     * zero of either sign, sometimes with a NaN or an infinity. */
    static const float low[] = {-0.0f, 0.0f, -1.0f, -INFINITY}, high[] = {0.0f, -0.0f, 1.0f, INFINITY};
    for (int j = 0; j < WCHK_N; j += 16) {
        uint32_t kind = rng() % 4;
        for (int k = 0; k < 16; k++) {
            uint32_t r = rng();
            float x = kind == 0 ? low[r % 4] : kind == 1 ? high[r % 4] : random_float(r);
            if (kind == 2 && r % 16 == 0)
                x = bitsf(r % 32 == 0 ? 0x7fc00000u : 0xffc54321u);
            in->h[j + k] = x;
        }
    }
    for (int j = 0; j < WCHK_GATHER; j++)
        in->gtab[j] = j < NSPECIAL ? bitsf(special_bits[j]) : random_float(rng());
}

static int group_setup(void **state)
{
    (void)state;
    g_in = aligned_alloc(64, sizeof *g_in);
    g_ref = aligned_alloc(64, sizeof *g_ref);
    if (!g_in || !g_ref)
        return -1;
    fill_inputs(g_in);
    wchk_run_scalar(g_in, g_ref);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    free(g_in);
    free(g_ref);
    return 0;
}

/* When two NaNs meet in one arithmetic op, IEEE leaves open whose payload
 * comes out, and compilers commute + and * freely, so only "a NaN" is
 * part of the contract there: for a single op when both operands are NaN,
 * for a chain of ops (the v3 helpers) whenever the result is NaN, since a
 * NaN made inside the chain (0 * inf) may meet one passed through. Every
 * other result is compared bit for bit. */
static int two_nans_meet(int op, int i)
{
    switch (op) {
    case WCHK_F_ADD:
    case WCHK_F_SUB:
    case WCHK_F_MUL:
    case WCHK_F_DIV:
        return isnan(g_in->a[i]) && isnan(g_in->b[i]);
    case WCHK_V_ADD_X:
        return isnan(g_in->a[i]) && isnan(g_in->b[i]);
    case WCHK_V_SUB_Y:
        return isnan(g_in->b[i]) && isnan(g_in->c[i]);
    case WCHK_V_SCALE_X:
        return isnan(g_in->a[i]) && isnan(g_in->c[i]);
    case WCHK_V_DOT:
    case WCHK_V_LEN2:
    case WCHK_V_CROSS_X:
    case WCHK_V_CROSS_Y:
    case WCHK_V_CROSS_Z:
        return 1;
    default:
        return 0;
    }
}

static int same_result(int op, int i, uint32_t got, uint32_t want)
{
    if (got == want)
        return 1;
    return two_nans_meet(op, i) && isnan(bitsf(got)) && isnan(bitsf(want));
}

/* ---- width 1 against semantics spelled out independently ---- */

/* IEEE result of a float op computed in double and rounded once: exact for
 * + - * / sqrt, since double has more than 2*24+2 bits. NaN: any NaN. */
static int ieee_same(float got, double want)
{
    if (isnan(want))
        return isnan(got);
    return fbits(got) == fbits((float)want);
}

static uint32_t mask_word(int truth) { return truth ? 7u : 0u; }

static void expect_op(int *bad, int op, int i, uint32_t got, uint32_t want)
{
    if (!same_result(op, i, got, want) && (*bad)++ < 10)
        print_error("scalar %s[%d]: got 0x%08x want 0x%08x (a=%a b=%a ia=%d ib=%d)\n", op_names[op], i,
                    (unsigned)got, (unsigned)want, (double)g_in->a[i], (double)g_in->b[i], (int)g_in->ia[i],
                    (int)g_in->ib[i]);
}

static void expect_ieee(int *bad, int op, int i, double want)
{
    float got = bitsf(g_ref->r[op][i]);
    if (!ieee_same(got, want) && (*bad)++ < 10)
        print_error("scalar %s[%d]: got %a want %a (a=%a b=%a)\n", op_names[op], i, (double)got, want,
                    (double)g_in->a[i], (double)g_in->b[i]);
}

static void test_scalar_semantics(void **state)
{
    (void)state;
    const wchk_out *o = g_ref;
    const wchk_in *in = g_in;
    int bad = 0;
    assert_int_equal(o->width, 1);
    assert_string_equal(o->name, "scalar");
    if (o->failures)
        print_error("%s\n", o->first_failure);
    assert_int_equal(o->failures, 0);

    for (int i = 0; i < WCHK_N; i++) {
        float a = in->a[i], b = in->b[i], c = in->c[i];
        uint32_t ua = fbits(a), ub = fbits(b);
        int32_t ia = in->ia[i], ib = in->ib[i];
        int m = in->mask[i] == 1;
        int lt = a < b;

        expect_op(&bad, WCHK_F_ZERO, i, o->r[WCHK_F_ZERO][i], 0u);
        expect_op(&bad, WCHK_F_SPLAT, i, o->r[WCHK_F_SPLAT][i], ua);
        expect_op(&bad, WCHK_F_LOAD, i, o->r[WCHK_F_LOAD][i], ua);
        expect_op(&bad, WCHK_F_LOADU, i, o->r[WCHK_F_LOADU][i], fbits(in->a[i + 1]));
        expect_ieee(&bad, WCHK_F_ADD, i, (double)a + (double)b);
        expect_ieee(&bad, WCHK_F_SUB, i, (double)a - (double)b);
        expect_ieee(&bad, WCHK_F_MUL, i, (double)a * (double)b);
        expect_ieee(&bad, WCHK_F_DIV, i, (double)a / (double)b);
        expect_ieee(&bad, WCHK_F_SQRT, i, sqrt((double)a));
        /* a NaN operand comes through quieted, payload kept */
        if (isnan(a) && !isnan(b)) {
            expect_op(&bad, WCHK_F_ADD, i, o->r[WCHK_F_ADD][i], ua | 0x00400000u);
            expect_op(&bad, WCHK_F_MUL, i, o->r[WCHK_F_MUL][i], ua | 0x00400000u);
            expect_op(&bad, WCHK_F_SQRT, i, o->r[WCHK_F_SQRT][i], ua | 0x00400000u);
        }
        expect_op(&bad, WCHK_F_NEG, i, o->r[WCHK_F_NEG][i], ua ^ 0x80000000u);
        expect_op(&bad, WCHK_F_ABS, i, o->r[WCHK_F_ABS][i], ua & 0x7fffffffu);
        expect_op(&bad, WCHK_F_MIN, i, o->r[WCHK_F_MIN][i], lt ? ua : ub);
        expect_op(&bad, WCHK_F_MAX, i, o->r[WCHK_F_MAX][i], b < a ? ua : ub);
        expect_op(&bad, WCHK_F_COPYSIGN, i, o->r[WCHK_F_COPYSIGN][i], (ua & 0x7fffffffu) | (ub & 0x80000000u));
        expect_op(&bad, WCHK_F_SEL, i, o->r[WCHK_F_SEL][i], m ? ua : ub);
        expect_op(&bad, WCHK_F_SEL_LT, i, o->r[WCHK_F_SEL_LT][i], lt ? ua : ub);
        expect_op(&bad, WCHK_F_FROM_IW, i, o->r[WCHK_F_FROM_IW][i], fbits((float)ia));
        expect_op(&bad, WCHK_F_GATHER, i, o->r[WCHK_F_GATHER][i], fbits(in->gtab[in->gidx[i]]));

        int unordered = isnan(a) || isnan(b);
        expect_op(&bad, WCHK_M_LT, i, o->r[WCHK_M_LT][i], mask_word(!unordered && a < b));
        expect_op(&bad, WCHK_M_LE, i, o->r[WCHK_M_LE][i], mask_word(!unordered && !(b < a)));
        expect_op(&bad, WCHK_M_GT, i, o->r[WCHK_M_GT][i], mask_word(!unordered && b < a));
        expect_op(&bad, WCHK_M_GE, i, o->r[WCHK_M_GE][i], mask_word(!unordered && !(a < b)));
        expect_op(&bad, WCHK_M_EQ, i, o->r[WCHK_M_EQ][i], mask_word(!unordered && !(a < b) && !(b < a)));
        expect_op(&bad, WCHK_M_NEQ, i, o->r[WCHK_M_NEQ][i], mask_word(unordered || a < b || b < a));
        expect_op(&bad, WCHK_M_ISFINITE, i, o->r[WCHK_M_ISFINITE][i],
                  mask_word((ua & 0x7f800000u) != 0x7f800000u));
        expect_op(&bad, WCHK_M_TRUE, i, o->r[WCHK_M_TRUE][i], 7u);
        expect_op(&bad, WCHK_M_FALSE, i, o->r[WCHK_M_FALSE][i], 0u);
        expect_op(&bad, WCHK_M_AND, i, o->r[WCHK_M_AND][i], mask_word(lt && m));
        expect_op(&bad, WCHK_M_OR, i, o->r[WCHK_M_OR][i], mask_word(lt || m));
        expect_op(&bad, WCHK_M_XOR, i, o->r[WCHK_M_XOR][i], mask_word(lt != m));
        expect_op(&bad, WCHK_M_NOT, i, o->r[WCHK_M_NOT][i], mask_word(!lt));
        expect_op(&bad, WCHK_M_ANDNOT, i, o->r[WCHK_M_ANDNOT][i], mask_word(lt && !m));
        expect_op(&bad, WCHK_M_FROM_BITS, i, o->r[WCHK_M_FROM_BITS][i], mask_word(m));
        expect_op(&bad, WCHK_M_IW_LT, i, o->r[WCHK_M_IW_LT][i], mask_word(ia < ib));
        expect_op(&bad, WCHK_M_IW_EQ, i, o->r[WCHK_M_IW_EQ][i], mask_word(ia == ib));

        uint32_t ua_i = (uint32_t)ia, ub_i = (uint32_t)ib;
        expect_op(&bad, WCHK_I_ZERO, i, o->r[WCHK_I_ZERO][i], 0u);
        expect_op(&bad, WCHK_I_SPLAT, i, o->r[WCHK_I_SPLAT][i], ua_i);
        expect_op(&bad, WCHK_I_LOAD, i, o->r[WCHK_I_LOAD][i], ua_i);
        expect_op(&bad, WCHK_I_LOADU, i, o->r[WCHK_I_LOADU][i], (uint32_t)in->ia[i + 1]);
        expect_op(&bad, WCHK_I_ADD, i, o->r[WCHK_I_ADD][i], ua_i + ub_i);
        expect_op(&bad, WCHK_I_SUB, i, o->r[WCHK_I_SUB][i], ua_i - ub_i);
        expect_op(&bad, WCHK_I_MIN, i, o->r[WCHK_I_MIN][i], ia < ib ? ua_i : ub_i);
        expect_op(&bad, WCHK_I_MAX, i, o->r[WCHK_I_MAX][i], ia < ib ? ub_i : ua_i);
        expect_op(&bad, WCHK_I_SEL, i, o->r[WCHK_I_SEL][i], m ? ua_i : ub_i);
        expect_op(&bad, WCHK_I_SEL_LT, i, o->r[WCHK_I_SEL_LT][i], ia < ib ? ua_i : ub_i);
        expect_op(&bad, WCHK_I_SHL, i, o->r[WCHK_I_SHL][i], ua_i << 5);
        expect_op(&bad, WCHK_I_SHR, i, o->r[WCHK_I_SHR][i], ua_i >> 7);

        /* p = (a, b, c), q = (b, c, a) */
        float dot = a * b + b * c;
        dot = dot + c * a;
        float len2 = a * a + b * b;
        len2 = len2 + c * c;
        expect_op(&bad, WCHK_V_DOT, i, o->r[WCHK_V_DOT][i], fbits(dot));
        expect_op(&bad, WCHK_V_LEN2, i, o->r[WCHK_V_LEN2][i], fbits(len2));
        expect_op(&bad, WCHK_V_CROSS_X, i, o->r[WCHK_V_CROSS_X][i], fbits(b * a - c * c));
        expect_op(&bad, WCHK_V_CROSS_Y, i, o->r[WCHK_V_CROSS_Y][i], fbits(c * b - a * a));
        expect_op(&bad, WCHK_V_CROSS_Z, i, o->r[WCHK_V_CROSS_Z][i], fbits(a * c - b * b));
        expect_op(&bad, WCHK_V_ADD_X, i, o->r[WCHK_V_ADD_X][i], fbits(a + b));
        expect_op(&bad, WCHK_V_SUB_Y, i, o->r[WCHK_V_SUB_Y][i], fbits(b - c));
        expect_op(&bad, WCHK_V_NEG_Z, i, o->r[WCHK_V_NEG_Z][i], fbits(c) ^ 0x80000000u);
        expect_op(&bad, WCHK_V_SCALE_X, i, o->r[WCHK_V_SCALE_X][i], fbits(a * c));
        expect_op(&bad, WCHK_V_SEL_Y, i, o->r[WCHK_V_SEL_Y][i], fbits(m ? b : c));
    }
    assert_int_equal(bad, 0);
}

/* The contract's corner cases, spelled out (these inputs are in the set). */
static void test_scalar_corner_cases(void **state)
{
    (void)state;
    int found = 0;
    for (int i = 0; i < NSPECIAL * NSPECIAL; i++) {
        uint32_t ua = fbits(g_in->a[i]), ub = fbits(g_in->b[i]);
        if (ua == 0x7fc00000u && ub == 0x3f800000u) { /* min/max(NaN, 1) = 1 */
            assert_int_equal(g_ref->r[WCHK_F_MIN][i], 0x3f800000u);
            assert_int_equal(g_ref->r[WCHK_F_MAX][i], 0x3f800000u);
            assert_int_equal(g_ref->r[WCHK_M_NEQ][i], 7u);
            assert_int_equal(g_ref->r[WCHK_M_EQ][i], 0u);
            found++;
        }
        if (ua == 0x3f800000u && ub == 0x7fc00000u) { /* min/max(1, NaN) = NaN */
            assert_int_equal(g_ref->r[WCHK_F_MIN][i], 0x7fc00000u);
            assert_int_equal(g_ref->r[WCHK_F_MAX][i], 0x7fc00000u);
            found++;
        }
        if (ua == 0x80000000u && ub == 0x00000000u) { /* min/max(-0, +0) = +0 */
            assert_int_equal(g_ref->r[WCHK_F_MIN][i], 0x00000000u);
            assert_int_equal(g_ref->r[WCHK_F_MAX][i], 0x00000000u);
            assert_int_equal(g_ref->r[WCHK_M_EQ][i], 7u);
            found++;
        }
        if (ua == 0x00000001u && ub == 0x80000000u) { /* copysign of a subnormal */
            assert_int_equal(g_ref->r[WCHK_F_COPYSIGN][i], 0x80000001u);
            found++;
        }
        if (ua == 0xffc54321u && ub == 0x00000000u) { /* abs/neg of a NaN: sign only */
            assert_int_equal(g_ref->r[WCHK_F_ABS][i], 0x7fc54321u);
            assert_int_equal(g_ref->r[WCHK_F_NEG][i], 0x7fc54321u);
            assert_int_equal(g_ref->r[WCHK_M_ISFINITE][i], 0u);
            found++;
        }
        if (ua == 0x007fffffu && ub == 0x00000000u) { /* subnormals are finite, kept */
            assert_int_equal(g_ref->r[WCHK_M_ISFINITE][i], 7u);
            assert_int_equal(g_ref->r[WCHK_F_ADD][i], 0x007fffffu);
            found++;
        }
    }
    assert_int_equal(found, 6);
}

/* ---- every variant bit for bit against width 1 ---- */

typedef struct variant {
    void (*run)(const wchk_in *, wchk_out *);
    gjkb_backend backend;
    int native;       /* built with the ISA's flags: needs the CPU */
} variant;

#define WIDTH_ROW(id_, isa_, w_, arch_, cpu_) [id_] = w_,
static const int widths[GJKB_BACKEND_COUNT] = { GJKB_WIDE_BACKENDS(WIDTH_ROW) };

/* The backend table's CPU check of the variant's ISA. */
#define CPU_CASE(id_, isa_, w_, arch_, cpu_) \
    case id_: return GJKB_ON_##arch_(cpu_);
static int cpu_has(gjkb_backend backend)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    __builtin_cpu_init();
#endif
    switch (backend) {
    GJKB_WIDE_BACKENDS(CPU_CASE)
    default: return 0;
    }
}

static void test_variant(void **state)
{
    const variant *v = *state;
    const char *name = gjkb_backend_name(v->backend);
    if (v->native && !cpu_has(v->backend)) {
        print_message("this CPU lacks %s: native variant skipped\n", name);
        skip();
    }
    wchk_out *o = aligned_alloc(64, sizeof *o);
    assert_non_null(o);
    v->run(g_in, o);
    assert_int_equal(o->width, widths[v->backend]);
    assert_string_equal(o->name, name);
    if (o->failures)
        print_error("%s: %d failures, first: %s\n", name, o->failures, o->first_failure);
    int failures = o->failures;

    int differing_ops = 0;
    for (int op = 0; op < WCHK_OP_COUNT; op++) {
        if (!memcmp(o->r[op], g_ref->r[op], sizeof o->r[op]))
            continue;
        for (int i = 0; i < WCHK_N; i++)
            if (!same_result(op, i, o->r[op][i], g_ref->r[op][i])) {
                differing_ops++;
                print_error("%s %s[%d]: 0x%08x, width 1 gives 0x%08x (a=0x%08x b=0x%08x c=0x%08x ia=%d ib=%d)\n",
                            name, op_names[op], i, (unsigned)o->r[op][i], (unsigned)g_ref->r[op][i],
                            (unsigned)fbits(g_in->a[i]), (unsigned)fbits(g_in->b[i]),
                            (unsigned)fbits(g_in->c[i]), (int)g_in->ia[i], (int)g_in->ib[i]);
                break;
            }
    }
    free(o);
    assert_int_equal(failures, 0);
    assert_int_equal(differing_ops, 0);
}

#define VARIANT_TEST(suffix, backend, native) \
    { #suffix, test_variant, NULL, NULL, &(variant){ wchk_run_##suffix, backend, native } },

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalar_semantics),
        cmocka_unit_test(test_scalar_corner_cases),
        WCHK_VARIANTS(VARIANT_TEST)
    };
    return cmocka_run_group_tests_name("wide ops", tests, group_setup, group_teardown);
}
