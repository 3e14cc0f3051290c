/* fuzz_world.c - fuzzer bytes to a world (fuzz_world.h). The value tables
 * lean towards what breaks kernels: zeros of both signs, values around
 * GJKB_MAX_COORD, NaN and infinities, degenerate hulls; and half of the
 * inputs decode as a template world, many pairs of the same two kinds
 * placed nearly touching, whose neighbours differ only in a zeroed radius
 * or height (width-dependent bugs hide in such bundles). */
#include "fuzz_world.h"
#include "fuzz_bytes.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ---- values ------------------------------------------------------------ */

static const float size_special[] = {
    0.0f,  -0.0f, -1.0f, 1e-30f, 1e-7f,  1e-3f,  0x1p-149f, 1e-38f, 1e3f,  1e6f,         1e10f,
    1e15f, 1.1e15f, FLT_MAX, INFINITY, -INFINITY, NAN, 0.1f, 0.5f,   1.0f, 2.0f, 3.0f, 5e-4f, 100.0f,
    -1e-30f, 0x1p-24f, 1.0f + 0x1p-23f, 0.75f, 1e-20f, 4.0f, 1e7f,
};

/* Mostly multiples of 1/64 in [0, 3.5); the top of the byte range picks a
 * special value, and 255 takes raw bits. */
static float size_of(uint8_t b, fz_reader *r)
{
    if (b < 224)
        return (float)b / 64.0f;
    if (b == 255)
        return fz_f32_bits(r);
    return size_special[(b - 224) % (sizeof size_special / sizeof size_special[0])];
}

static float read_size(fz_reader *r)
{
    return size_of(fz_u8(r), r);
}

/* Most bodies get no margin even when the array is given. */
static float read_margin(fz_reader *r)
{
    return fz_u8(r) < 96 ? 0.0f : read_size(r);
}

static const double coord_special[] = {
    0.0, -0.0, 1e-300, -1e-9, 0x1p-1074, 1e15, -1e15, 1.5e15, 1e300, INFINITY, -INFINITY, NAN, DBL_MAX,
    0x1p24 + 1.0, 1e7 + 0.5,
};

/* Two bytes on a 1/2048 grid in [-15, 15), or a special value. */
static double read_coord(fz_reader *r)
{
    uint8_t b = fz_u8(r);
    if (b < 240)
        return ((double)b - 120.0) / 8.0 + (double)fz_u8(r) / 2048.0;
    if (b == 255)
        return fz_f64_bits(r);
    return coord_special[b - 240];
}

static const float quat_valid[][4] = {
    { 1, 0, 0, 0 },           { 0.70710678f, 0.70710678f, 0, 0 }, { 0.70710678f, 0, 0.70710678f, 0 },
    { 0.70710678f, 0, 0, 0.70710678f }, { 0, 1, 0, 0 },           { 0, 0, 1, 0 },
    { 0, 0, 0, 1 },           { 0.92387953f, 0, 0, 0.38268343f }, { 0.5f, 0.5f, 0.5f, 0.5f },
    { -1, 0, 0, 0 },          { 2, 0, 0, 0 },                     { 3, 4, 0, 0 },
    { 1e-7f, 0, 0, 0 },       { 0.92387953f, 0, 0.38268343f, 0 },
};
/* Zero, below and at the 1e-30 line, non-finite, beyond GJKB_MAX_COORD. */
static const float quat_odd[][4] = {
    { 0, 0, 0, 0 },         { 1e-16f, 1e-16f, 1e-16f, 1e-16f }, { 1e-15f, 1e-15f, 1e-15f, 1e-15f },
    { 1e-15f, 0, 0, 0 },    { NAN, 0, 0, 0 },                   { INFINITY, 0, 0, 0 },
    { 1e16f, 0, 0, 0 },     { -0.0f, -0.0f, -0.0f, -0.0f },
};

static void read_quat(fz_reader *r, float q[4])
{
    uint8_t b = fz_u8(r);
    const size_t nv = sizeof quat_valid / sizeof quat_valid[0], no = sizeof quat_odd / sizeof quat_odd[0];
    if (b < 112)
        memcpy(q, quat_valid[b % nv], 4 * sizeof(float));
    else if (b < 128)
        memcpy(q, quat_odd[b % no], 4 * sizeof(float));
    else if (b == 255)
        for (int k = 0; k < 4; k++)
            q[k] = fz_f32_bits(r);
    else  /* a general one, any length (zero when the bytes are) */
        for (int k = 0; k < 4; k++)
            q[k] = (float)fz_grid(r, 1.0 / 32.0);
}

/* Mostly a real kind; now and then one past the end. */
static uint8_t read_kind(fz_reader *r)
{
    uint8_t b = fz_u8(r);
    if (b < 252)
        return (uint8_t)(b % GJKB_KIND_COUNT);
    return b == 255 ? 255 : (uint8_t)(GJKB_KIND_COUNT + (b - 252));
}

/* A body index: mostly in range, now and then past the end. */
static uint32_t read_index(fz_reader *r, uint32_t nb)
{
    uint8_t b = fz_u8(r);
    if (b < 252)
        return b % nb;
    const uint32_t past[4] = { nb, nb + 1000u, (uint32_t)INT32_MAX, UINT32_MAX };
    return past[b - 252];
}

/* ---- shapes and hulls ----------------------------------------------------- */

/* One body's shape: kind, sizes, margin, rotation, hull. */
typedef struct shape_rec {
    uint8_t kind;
    float s[3], margin, q[4];
    uint32_t hull_ix;
} shape_rec;

static shape_rec shape_get(const fw_world *w, uint32_t i)
{
    shape_rec s = { w->kind[i], { w->sx[i], w->sy[i], w->sz[i] }, w->margin[i],
                    { w->qw[i], w->qx[i], w->qy[i], w->qz[i] }, w->hull_ix[i] };
    return s;
}

static void shape_put(fw_world *w, uint32_t i, const shape_rec *s)
{
    w->kind[i] = s->kind;
    w->sx[i] = s->s[0];
    w->sy[i] = s->s[1];
    w->sz[i] = s->s[2];
    w->margin[i] = s->margin;
    w->qw[i] = s->q[0];
    w->qx[i] = s->q[1];
    w->qy[i] = s->q[2];
    w->qz[i] = s->q[3];
    w->hull_ix[i] = s->hull_ix;
}

static void read_shape(fw_world *w, fz_reader *r, uint32_t i)
{
    shape_rec s = { read_kind(r), { 0, 0, 0 }, 0.0f, { 1, 0, 0, 0 }, 0 };
    for (int k = 0; k < 3; k++)
        s.s[k] = read_size(r);
    if (w->margins)
        s.margin = read_margin(r);
    read_quat(r, s.q);
    if (s.kind == GJKB_HULL) {
        uint8_t b = fz_u8(r);
        if (b == 255)
            s.hull_ix = FW_HULL_UNREGISTERED;
        else if (w->nh)
            s.hull_ix = b % w->nh;
        else
            s.kind = GJKB_CONE;   /* no hull to use: keep the batch valid */
    }
    shape_put(w, i, &s);
}

static void read_point(fz_reader *r, float p[3], double step)
{
    for (int k = 0; k < 3; k++)
        p[k] = (float)fz_grid(r, step);
}

/* One point of a hull in the cloud's style. */
static void hull_point(fz_reader *r, uint8_t style, const float base[3], const float dir[3], float p[3])
{
    switch (style % 8) {
    case 1: memcpy(p, base, 3 * sizeof(float)); break;                 /* all one point */
    case 2: {                                                            /* collinear */
        float t = (float)fz_grid(r, 1.0 / 32.0);
        for (int k = 0; k < 3; k++)
            p[k] = base[k] + t * dir[k];
        break;
    }
    case 3: read_point(r, p, 1.0 / 32.0); p[2] = base[2]; break;       /* coplanar */
    case 4: read_point(r, p, 1e-20); break;                             /* tiny */
    case 5: read_point(r, p, 1.0 / 32.0); p[0] += 5.0f; break;         /* origin outside */
    case 6: read_point(r, p, 1.0 / 4096.0); break;                      /* nearly one point */
    default: read_point(r, p, 1.0 / 32.0); break;                       /* a cloud */
    }
}

static void read_hull(fw_hull *h, fz_reader *r)
{
    h->n = fz_u8(r) % (FW_MAX_POINTS + 1);
    uint8_t style = fz_u8(r);
    h->null_points = h->n == 0 && (style & 8);
    float base[3], dir[3];
    read_point(r, base, 1.0 / 32.0);
    read_point(r, dir, 1.0 / 32.0);
    for (uint32_t i = 0; i < h->n; i++)
        hull_point(r, style, base, dir, &h->xyz[3 * i]);
    /* One broken coordinate: non-finite or beyond GJKB_MAX_COORD. */
    if (h->n && (style & 16)) {
        static const float bad[4] = { NAN, INFINITY, -INFINITY, 2e15f };
        h->xyz[fz_u8(r) % (3 * h->n)] = bad[(style >> 5) & 3];
    }
}

/* ---- the two world styles -------------------------------------------------- */

static void read_free(fw_world *w, fz_reader *r)
{
    w->nb = 1 + fz_u8(r) % FW_MAX_BODIES;
    for (uint32_t i = 0; i < w->nb; i++) {
        read_shape(w, r, i);
        w->px[i] = read_coord(r);
        w->py[i] = read_coord(r);
        w->pz[i] = read_coord(r);
    }
    w->np = fz_u8(r) % (FW_MAX_PAIRS + 1);
    for (uint32_t i = 0; i < w->np; i++) {
        w->pa[i] = read_index(r, w->nb);
        w->pb[i] = read_index(r, w->nb);
    }
}

static double hull_support(const fw_world *w, uint32_t i, const double d[3])
{
    if (w->hull_ix[i] >= w->nh)
        return 0.0;
    const fw_hull *h = &w->hulls[w->hull_ix[i]];
    double best = h->n ? -INFINITY : 0.0;
    for (uint32_t k = 0; k < h->n; k++) {
        const float *p = &h->xyz[3 * k];
        best = fmax(best, p[0] * d[0] + p[1] * d[1] + p[2] * d[2]);
    }
    return best;
}

/* How far body i reaches along d (unit) from its origin, as if unrotated:
 * two bodies this far apart along d touch when both are axis aligned. */
static double support(const fw_world *w, uint32_t i, const double d[3])
{
    double x = w->sx[i], y = w->sy[i], z = w->sz[i], m = w->margin[i];
    double radial = sqrt(d[0] * d[0] + d[1] * d[1]);
    switch (w->kind[i]) {
    case GJKB_SPHERE: return x + m;
    case GJKB_CAPSULE: return x + z * fabs(d[2]) + m;
    case GJKB_BOX: return x * fabs(d[0]) + y * fabs(d[1]) + z * fabs(d[2]) + m;
    case GJKB_CYLINDER: return x * radial + z * fabs(d[2]) + m;
    case GJKB_CONE: return fmax(z * d[2], x * radial - z * d[2]) + m;
    case GJKB_HULL: return hull_support(w, i, d) + m;
    default: return 0.0;
    }
}

/* Per pair: zero a radius or a height on either side (a cone of radius 0
 * beside cones with a disk is how a width-dependent support once showed),
 * negative zeros, another rotation for B, or B of A's kind. */
static void vary_pair(fw_world *w, fz_reader *r, uint32_t a, uint32_t b)
{
    uint8_t v = fz_u8(r);
    float zero = v & 128 ? -0.0f : 0.0f;
    if (v & 1)
        w->sx[a] = zero;
    if (v & 2)
        w->sz[a] = zero;
    if (v & 4)
        w->sx[b] = zero;
    if (v & 8)
        w->sz[b] = zero;
    if (v & 16) {
        float q[4];
        read_quat(r, q);
        w->qw[b] = q[0], w->qx[b] = q[1], w->qy[b] = q[2], w->qz[b] = q[3];
    }
    if (v & 32) {
        w->kind[b] = w->kind[a];
        w->hull_ix[b] = w->hull_ix[a];
    }
    if (v & 64)   /* one float step larger: a near tie with the neighbours */
        w->sx[a] = nextafterf(w->sx[a], INFINITY);
}

/* A at x on the x axis, B along one of a few directions at the distance
 * where they would touch, give or take a small gap. */
static void place_pair(fw_world *w, fz_reader *r, uint32_t a, uint32_t b, double x)
{
    static const double dirs[8][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 },
                                       { 0, 0, -1 }, { 0.57735026918962573, 0.57735026918962573, 0.57735026918962573 },
                                       { 0.6, 0, 0.8 } };
    static const double gaps[16] = { 0.0,     0.0,  1e-7, -1e-7, 1e-3,  -1e-3, 0.1, -0.1,
                                     0x1p-20, -0x1p-20, 1e-12, 0.5, 2.0, -0.5, 1e-5, 5.0 };
    uint8_t c = fz_u8(r);
    const double *d = dirs[c % 8];
    const double back[3] = { -d[0], -d[1], -d[2] };
    double t = support(w, a, d) + support(w, b, back) + gaps[(c >> 3) % 16];
    w->px[a] = x, w->py[a] = 0.0, w->pz[a] = 0.0;
    w->px[b] = x + t * d[0], w->py[b] = t * d[1], w->pz[b] = t * d[2];
}

static void read_template(fw_world *w, fz_reader *r)
{
    w->np = 1 + fz_u8(r) % FW_MAX_PAIRS;
    read_shape(w, r, 0);
    read_shape(w, r, 1);
    const shape_rec pa = shape_get(w, 0), pb = shape_get(w, 1);
    /* Pairs apart, each touching its neighbours, or all at one place (so
     * gjkb_step finds them all against all: fewer, or the frame is huge). */
    static const double spacings[4] = { 64.0, 64.0, 3.0, 0.0 };
    double spacing = spacings[fz_u8(r) & 3];
    if (spacing == 0.0 && w->np > 12)
        w->np = 12;
    w->nb = 2 * w->np;
    for (uint32_t i = 0; i < w->np; i++) {
        uint32_t a = 2 * i, b = a + 1;
        shape_put(w, a, &pa);
        shape_put(w, b, &pb);
        vary_pair(w, r, a, b);
        place_pair(w, r, a, b, spacing * i);
        w->pa[i] = a;
        w->pb[i] = b;
    }
}

/* ---- query, options, edits ---------------------------------------------- */

static void read_odd(fw_world *w, fz_reader *r)
{
    uint8_t b = fz_u8(r);
    static const double tol[4] = { -1e-3, NAN, 1.0, INFINITY };
    w->odd = (fw_odd)(b % FW_ODD_COUNT);
    if (w->odd == FW_ODD_MODE)
        w->mode = b & 16 ? 3 : -1;
    else if (w->odd == FW_ODD_TOLERANCE)
        w->tolerance = tol[(b >> 4) & 3];
    else if (w->odd == FW_ODD_MAX_DISTANCE)
        w->max_distance = b & 16 ? -1.0 : NAN;
}

static void read_query(fw_world *w, fz_reader *r, uint8_t style)
{
    static const double tol[8] = { 0.0, 0.0, 1e-6, 1e-3, 0.25, 1e-12, 0x1p-1074, 0.5 };
    static const double maxd[8] = { 0.0, 0.0, 0.01, 0.5, 2.0, 1e-9, 1e30, INFINITY };
    w->mode = style & 2 ? GJKB_DISTANCE : GJKB_HIT;
    w->warm = style & 4;
    w->margins = style & 8;
    w->use_flags = style & 16;
    w->use_filter = style & 32;
    w->gather = style & 128;
    w->max_iterations = fz_u8(r) % 65u;
    uint8_t b = fz_u8(r);
    w->tolerance = tol[b & 7];
    w->max_distance = maxd[(b >> 3) & 7];
    w->outputs = (uint8_t)((b >> 6) % FW_OUT_COUNT);
    if (style & 64)
        read_odd(w, r);
}

static void read_warm(fw_world *w, fz_reader *r)
{
    static const double axes[8][3] = { { 1, 0, 0 },    { 0, -2, 0 }, { 0, 0, 1e-3 }, { 1, 1, 1 },
                                       { -3, 0.5, 2 }, { 0, 0, -1 }, { 1e-300, 0, 0 }, { 0, 0, 0 } };
    static const double odd[4] = { NAN, INFINITY, 1e300, -0.0 };
    for (uint32_t i = 0; i < w->np; i++) {
        uint8_t b = fz_u8(r);
        if (b < 200) {
            w->wx[i] = axes[b % 8][0], w->wy[i] = axes[b % 8][1], w->wz[i] = axes[b % 8][2];
        } else if (b < 250) {
            w->wx[i] = fz_grid(r, 1.0 / 16.0), w->wy[i] = fz_grid(r, 1.0 / 16.0), w->wz[i] = fz_grid(r, 1.0 / 16.0);
        } else {
            w->wx[i] = odd[b % 4], w->wy[i] = 1.0, w->wz[i] = 1.0;
        }
    }
}

/* Read last, so inputs made before contact mode decode as they did (a
 * read past the end is 0: the style's mode, no manifold arrays). Bit 0
 * turns the mode into contact; the rest picks the manifold arrays, which
 * hit and distance modes get too (and must leave alone). */
static void read_contact(fw_world *w, fz_reader *r)
{
    uint8_t c = fz_u8(r);
    if ((c & 1) && w->odd != FW_ODD_MODE)
        w->mode = GJKB_CONTACT;
    w->manifold = (uint8_t)((c >> 1) % FW_MAN_KINDS);
}

/* Boxes find_pairs must cope with although gjkb_bounds never makes them. */
static void read_edits(fw_world *w, fz_reader *r)
{
    static const float odd[8] = { NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 3e38f, -3e38f, 1e-45f };
    uint8_t b = fz_u8(r);
    w->nedits = b < 192 ? 0 : b % (FW_MAX_EDITS + 1);
    for (uint32_t k = 0; k < w->nedits; k++) {
        w->edit_body[k] = fz_u8(r) % w->nb;
        w->edit_field[k] = fz_u8(r) % 6;
        uint8_t v = fz_u8(r);
        w->edit_value[k] = v < 8 ? odd[v] : (float)fz_grid(r, 1.0 / 8.0);
    }
}

/* The whole world moved: offsets stay small while positions grow, so the
 * double subtraction and float rounding of B - A are exercised. */
static void shift_world(fw_world *w, uint8_t b)
{
    static const double shift[12] = { 0, 0, 0, 0, 1e3, -1e6, 1e9, 1e12, 3e14, 1e16, -1e20, 0.1 };
    double s = shift[b % 12];
    for (uint32_t i = 0; s != 0.0 && i < w->nb; i++) {
        w->px[i] += s;
        w->py[i] -= s;
    }
}

void fw_decode(fw_world *w, const uint8_t *data, size_t size)
{
    fz_reader r = { data, size, 0 };
    memset(w, 0, sizeof *w);
    uint8_t style = fz_u8(&r);
    read_query(w, &r, style);
    uint8_t shift = fz_u8(&r);
    w->nh = fz_u8(&r) % (FW_MAX_HULLS + 1);
    for (uint32_t h = 0; h < w->nh; h++)
        read_hull(&w->hulls[h], &r);
    if (style & 1)
        read_template(w, &r);
    else
        read_free(w, &r);
    shift_world(w, shift);
    if (w->warm)
        read_warm(w, &r);
    for (uint32_t i = 0; w->use_flags && i < w->nb; i++)
        w->flags[i] = fz_u8(&r);
    w->filter_seed = fz_u8(&r);
    read_edits(w, &r);
    read_contact(w, &r);
}

/* ---- what the header promises --------------------------------------------- */

static bool coord_ok(double v)
{
    return isfinite(v) && fabs(v) <= GJKB_MAX_COORD;
}

static bool size_ok(float v)
{
    return coord_ok(v) && v >= 0.0f;
}

static bool hull_ok(const fw_hull *h)
{
    if (h->n == 0)
        return false;
    for (uint32_t k = 0; k < 3 * h->n; k++)
        if (!coord_ok(h->xyz[k]))
            return false;
    return true;
}

/* The sizes a kind reads, as bits x, y, z ("The three size values"). */
static unsigned sizes_used(uint8_t kind)
{
    switch (kind) {
    case GJKB_SPHERE: return 1;
    case GJKB_BOX: return 7;
    case GJKB_CAPSULE:
    case GJKB_CYLINDER:
    case GJKB_CONE: return 5;
    default: return 0;
    }
}

/* A quaternion is invalid when non-finite, too large, or its squared
 * length summed in float (in this order) is below 1e-30. */
static bool quat_ok(const float q[4])
{
    for (int k = 0; k < 4; k++)
        if (!coord_ok(q[k]))
            return false;
    float qq = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
    return qq >= 1e-30f;
}

static fw_verdict shape_verdict(const fw_world *w, uint32_t i)
{
    const shape_rec s = shape_get(w, i);
    bool bad = !quat_ok(s.q) || !size_ok(s.margin), bad_ignored = false;
    for (int k = 0; k < 3; k++) {
        if (size_ok(s.s[k]))
            continue;
        if (sizes_used(s.kind) >> k & 1)
            bad = true;
        else
            bad_ignored = true;
    }
    if (s.kind == GJKB_HULL && s.hull_ix < w->nh && !hull_ok(&w->hulls[s.hull_ix]))
        bad = true;
    return bad ? FW_INVALID : bad_ignored ? FW_UNSAID : FW_VALID;
}

/* B - A in double, rounded to float, finite and within GJKB_MAX_COORD. */
static bool offset_ok(double a, double b)
{
    double d = b - a;
    if (!isfinite(d) || fabs(d) > FLT_MAX)
        return false;
    return fabsf((float)d) <= (float)GJKB_MAX_COORD;
}

fw_verdict fw_pair_verdict(const fw_world *w, uint32_t a, uint32_t b)
{
    fw_verdict va = shape_verdict(w, a), vb = shape_verdict(w, b);
    if (va == FW_INVALID || vb == FW_INVALID || !offset_ok(w->px[a], w->px[b]) ||
        !offset_ok(w->py[a], w->py[b]) || !offset_ok(w->pz[a], w->pz[b]))
        return FW_INVALID;
    return va == FW_VALID && vb == FW_VALID ? FW_VALID : FW_UNSAID;
}

fw_verdict fw_body_verdict(const fw_world *w, uint32_t i)
{
    const double p[3] = { w->px[i], w->py[i], w->pz[i] };
    fw_verdict v = shape_verdict(w, i);
    for (int k = 0; k < 3; k++)
        if (!isfinite(p[k]))
            return FW_INVALID;
    for (int k = 0; v == FW_VALID && k < 3; k++)
        if (fabs(p[k]) > GJKB_MAX_COORD)
            return FW_UNSAID;
    return v;
}

/* gjkb__core_radius (src/shape.c) in double, plus the margin (a sphere's
 * and a capsule's radius count as margin, as in the reference). */
static double body_radius(const fw_world *w, uint32_t i)
{
    double x = w->sx[i], z = w->sz[i], r = 0.0;
    switch (w->kind[i]) {
    case GJKB_SPHERE: r = x; break;
    case GJKB_CAPSULE: r = z + x; break;
    case GJKB_BOX: r = sqrt(x * x + (double)w->sy[i] * w->sy[i] + z * z); break;
    case GJKB_CYLINDER:
    case GJKB_CONE: r = sqrt(x * x + z * z); break;
    case GJKB_HULL:
        for (uint32_t k = 0; w->hull_ix[i] < w->nh && k < w->hulls[w->hull_ix[i]].n; k++) {
            const float *p = &w->hulls[w->hull_ix[i]].xyz[3 * k];
            r = fmax(r, sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]));
        }
        break;
    default: break;
    }
    return r + (w->margins ? w->margin[i] : 0.0);
}

double fw_pair_scale(const fw_world *w, uint32_t a, uint32_t b)
{
    return body_radius(w, a) + body_radius(w, b);
}

static bool body_args_ok(const fw_world *w, uint32_t i)
{
    if (w->kind[i] >= GJKB_KIND_COUNT)
        return false;
    return w->kind[i] != GJKB_HULL || (w->odd != FW_ODD_NO_HULL_IDS && w->hull_ix[i] < w->nh);
}

static fw_args query_args(const fw_world *w)
{
    if (w->odd == FW_ODD_MODE)
        return FW_ARGS_BAD;
    /* The header gives no range for these two beyond their meaning. */
    if (w->odd == FW_ODD_TOLERANCE || w->odd == FW_ODD_MAX_DISTANCE)
        return FW_ARGS_UNSAID;
    return FW_ARGS_OK;
}

static fw_args worse(fw_args x, fw_args y)
{
    return x == FW_ARGS_BAD || y == FW_ARGS_BAD ? FW_ARGS_BAD : x == FW_ARGS_OK ? y : x;
}

fw_args fw_batch_args(const fw_world *w)
{
    fw_args v = query_args(w);
    if (w->odd == FW_ODD_NO_STATUS || w->odd == FW_ODD_POINT_GROUP || w->odd == FW_ODD_WARM_GROUP ||
        w->odd == FW_ODD_MANIFOLD_GROUP || w->odd == FW_ODD_MANIFOLD_NO_COUNT)
        return FW_ARGS_BAD;
    if (w->np > 0 && w->odd == FW_ODD_NO_SIZES)
        return FW_ARGS_BAD;
    for (uint32_t i = 0; i < w->np; i++)
        if (w->pa[i] >= w->nb || w->pb[i] >= w->nb || !body_args_ok(w, w->pa[i]) || !body_args_ok(w, w->pb[i]))
            return FW_ARGS_BAD;
    return v;
}

fw_args fw_bodies_args(const fw_world *w)
{
    if (w->odd == FW_ODD_NO_SIZES)
        return FW_ARGS_BAD;
    for (uint32_t i = 0; i < w->nb; i++)
        if (!body_args_ok(w, i))
            return FW_ARGS_BAD;
    return FW_ARGS_OK;
}

fw_args fw_step_args(const fw_world *w)
{
    fw_args v = worse(fw_bodies_args(w), query_args(w));
    return w->odd == FW_ODD_STEP_WARM ? FW_ARGS_BAD : v;
}

/* ---- as a pair file ------------------------------------------------------- */

static const char *const kind_name[GJKB_KIND_COUNT] = { "sphere", "capsule", "box", "cylinder", "cone", "hull" };

static void print_body(FILE *out, const fw_world *w, uint32_t i)
{
    uint8_t k = w->kind[i];
    if (k == GJKB_SPHERE)
        fprintf(out, "sphere %.9g", w->sx[i]);
    else if (k == GJKB_BOX)
        fprintf(out, "box %.9g %.9g %.9g", w->sx[i], w->sy[i], w->sz[i]);
    else if (k == GJKB_HULL)
        fprintf(out, "hull %lu", (unsigned long)w->hull_ix[i]);
    else
        fprintf(out, "%s %.9g %.9g", kind_name[k], w->sx[i], w->sz[i]);
    if (w->margins)
        fprintf(out, " margin %.9g", w->margin[i]);
    fprintf(out, "  %.17g %.17g %.17g  %.9g %.9g %.9g %.9g", w->px[i], w->py[i], w->pz[i], w->qw[i], w->qx[i],
            w->qy[i], w->qz[i]);
}

/* Sizes the kind ignores do not appear in a pair file, yet the library
 * checks them: say which are not zero. */
static void print_ignored(FILE *out, const fw_world *w, uint32_t i)
{
    unsigned used = sizes_used(w->kind[i]);
    const float s[3] = { w->sx[i], w->sy[i], w->sz[i] };
    for (int k = 0; k < 3; k++)
        if (!(used >> k & 1) && (s[k] != 0.0f || signbit(s[k])))
            fprintf(out, "#   body %lu: ignored size %c = %.9g\n", (unsigned long)i, "xyz"[k], s[k]);
}

void fw_print_bodies(FILE *out, const fw_world *w, uint32_t a, uint32_t b)
{
    if (a >= w->nb || b >= w->nb || w->kind[a] >= GJKB_KIND_COUNT || w->kind[b] >= GJKB_KIND_COUNT) {
        fprintf(out, "#   not expressible: index out of range or unknown kind\n");
        return;
    }
    print_ignored(out, w, a);
    print_ignored(out, w, b);
    fputs("pair ", out);
    print_body(out, w, a);
    fputs("   ", out);
    print_body(out, w, b);
    fputc('\n', out);
}

static void print_pair(FILE *out, const fw_world *w, uint32_t p)
{
    uint32_t a = w->pa[p], b = w->pb[p];
    fprintf(out, "# pair %lu: bodies %lu, %lu\n", (unsigned long)p, (unsigned long)a, (unsigned long)b);
    if (w->warm)
        fprintf(out, "#   warm axis %.17g %.17g %.17g\n", w->wx[p], w->wy[p], w->wz[p]);
    fw_print_bodies(out, w, a, b);
}

void fw_print(FILE *out, const fw_world *w)
{
    const char *mode = w->mode == GJKB_HIT        ? "hit"
                       : w->mode == GJKB_DISTANCE ? "distance"
                       : w->mode == GJKB_CONTACT  ? "contact"
                                                  : "(unknown)";
    fprintf(out, "# fuzz_api world: %lu bodies, %lu hulls, %lu pairs; odd argument %d\n", (unsigned long)w->nb,
            (unsigned long)w->nh, (unsigned long)w->np, (int)w->odd);
    fprintf(out, "# query: mode %s, max_iterations %lu, tolerance %.17g, max_distance %.17g, warm start %s\n", mode,
            (unsigned long)w->max_iterations, w->tolerance, w->max_distance, w->warm ? "yes" : "no");
    fprintf(out, "# manifold arrays: %d (FW_MAN_*)\n", (int)w->manifold);
    fprintf(out, "# replay: gjkbatch query --mode %s --max-iterations %lu", mode, (unsigned long)w->max_iterations);
    if (w->mode != GJKB_HIT && isfinite(w->max_distance) && w->max_distance > 0.0)
        fprintf(out, " --max-distance %.17g", w->max_distance);
    fputs(" --backend NAME FILE -\n# (tolerance and warm axes have no option: defaults there)\n", out);
    for (uint32_t h = 0; h < w->nh; h++) {
        fprintf(out, "hull %lu", (unsigned long)h);
        for (uint32_t k = 0; k < 3 * w->hulls[h].n; k++)
            fprintf(out, "%s%.9g", k % 3 ? " " : "   ", w->hulls[h].xyz[k]);
        fputc('\n', out);
    }
    for (uint32_t p = 0; p < w->np; p++)
        print_pair(out, w, p);
}
