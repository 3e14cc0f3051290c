/* fuzz_api.c - libFuzzer harness for the public API. The input decodes to
 * a small world (fuzz_world.c) that runs through gjkb_query_batch,
 * gjkb_query_pair, gjkb_bounds, gjkb_find_pairs and gjkb_step on every
 * available backend, in hit, distance or contact mode (with or without
 * max_distance and any subset of the manifold arrays).
 * Checked: every call returns a documented code with a message exactly
 * when it fails and the same code on every backend; statuses, distances,
 * boxes and pairs are what gjkbatch.h promises; contact answers keep their
 * invariants (a unit normal, b - a = distance * n, 1 to 4 points for an
 * overlap, none for a separated pair without max_distance, NaN slots past
 * the count, the first point at the distance); hit and distance modes leave
 * the manifold arrays alone; a batch without its invalid pairs gives the
 * others the same bits; gjkb_query_pair gives the reference backend's bits;
 * and every wide backend gives the width-1 scalar backend's bits, manifolds
 * included. A failed check prints the world as a pair file and aborts, so
 * libFuzzer keeps the input. */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "fuzz_world.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- failing ------------------------------------------------------------- */

#define FUZZ_NAME "fuzz_api"
#include "fuzz_check.h"

static const fw_world *current;   /* printed with every failure */
/* The pair a failed check was about (bodies), printed first; a frame's
 * pair is in no list the world prints. */
static uint32_t focus_a = UINT32_MAX, focus_b;

static void focus(uint32_t a, uint32_t b)
{
    focus_a = a, focus_b = b;
}

/* Printed after a failed check's message. */
static void fuzz_context(void)
{
    if (current && focus_a != UINT32_MAX) {
        fprintf(stderr, "# the pair concerned: bodies %u, %u\n", focus_a, focus_b);
        fw_print_bodies(stderr, current, focus_a, focus_b);
    }
    if (current)
        fw_print(stderr, current);
}

/* ---- contexts, made once per process -------------------------------------- */

/* One context to run a call on: a backend, with the default hull support
 * or, for the wide backends, the gather (GJKB_HULL_SUPPORT=gather). */
typedef struct slot {
    gjkb_context *ctx;
    gjkb_backend backend;
    char name[24];
    bool gather;
} slot;

#define MAX_SLOTS (2 * GJKB_BACKEND_COUNT)
static slot slots[MAX_SLOTS];
static int nslots, scalar_slot = -1;

static void add_slot(gjkb_backend b, bool gather)
{
    gjkb_config cfg = { b, 0 };
    slot *s = &slots[nslots];
    if (gjkb_create(&cfg, &s->ctx) != GJKB_OK || !s->ctx) {
        fprintf(stderr, "fuzz_api: cannot create a %s context\n", gjkb_backend_name(b));
        abort();
    }
    s->backend = b;
    s->gather = gather;
    snprintf(s->name, sizeof s->name, "%s%s", gjkb_backend_name(b), gather ? "/gather" : "");
    if (b == GJKB_BACKEND_SCALAR && !gather)
        scalar_slot = nslots;
    nslots++;
}

static void pregrow(const slot *s);

/* Slot 0 is the reference backend and the scalar one comes before every
 * other wide one, so each comparison has its baseline already. */
static void slots_make(void)
{
    for (int b = GJKB_BACKEND_REFERENCE; b < GJKB_BACKEND_COUNT; b++)
        if (gjkb_backend_available((gjkb_backend)b))
            add_slot((gjkb_backend)b, false);
    /* The hull strategy is read from the environment at creation. */
    setenv("GJKB_HULL_SUPPORT", "gather", 1);
    for (int b = GJKB_BACKEND_SCALAR; b < GJKB_BACKEND_COUNT; b++)
        if (gjkb_backend_available((gjkb_backend)b))
            add_slot((gjkb_backend)b, true);
    unsetenv("GJKB_HULL_SUPPORT");
    for (int s = 0; s < nslots; s++)
        pregrow(&slots[s]);
}

/* Hulls pile up in a context (none can be removed): start over now and
 * then so a long run's memory stays bounded. */
static void slots_ready(void)
{
    if (nslots && gjkb_hull_count(slots[0].ctx) < 3000)
        return;
    for (int s = 0; s < nslots; s++)
        gjkb_destroy(slots[s].ctx);
    nslots = 0;
    slots_make();
}

static bool slot_used(const fw_world *w, int s)
{
    return !slots[s].gather || w->gather;
}

static bool is_wide(const slot *s)
{
    return s->backend != GJKB_BACKEND_REFERENCE;
}

/* ---- errors -------------------------------------------------------------- */

/* A documented code (valid contexts, small inputs: never memory or an
 * unavailable backend), and a message exactly when the call failed. */
static void check_error(const slot *s, gjkb_error e, const char *call)
{
    const char *msg = gjkb_last_error(s->ctx);
    CHECK(e == GJKB_OK || e == GJKB_ERR_NULL || e == GJKB_ERR_RANGE || e == GJKB_ERR_KIND || e == GJKB_ERR_ARGUMENT,
          "%s on %s: error code %d", call, s->name, (int)e);
    CHECK(msg != NULL, "%s on %s: gjkb_last_error is NULL", call, s->name);
    if (e == GJKB_OK)
        CHECK(msg[0] == '\0', "%s on %s: OK, but gjkb_last_error says '%s'", call, s->name, msg);
    else
        CHECK(msg[0] != '\0', "%s on %s: error %d without a message", call, s->name, (int)e);
}

/* The same code on every backend, and the one the header demands. */
static void check_verdict(const slot *s, gjkb_error e, gjkb_error first, fw_args want, const char *call)
{
    CHECK(e == first, "%s: %s returns %d, %s returned %d", call, s->name, (int)e, slots[0].name, (int)first);
    CHECK(want != FW_ARGS_OK || e == GJKB_OK, "%s on %s: error %d (%s) for well-formed arguments", call, s->name,
          (int)e, gjkb_last_error(s->ctx));
    CHECK(want != FW_ARGS_BAD || e != GJKB_OK, "%s on %s: GJKB_OK for a documented misuse", call, s->name);
}

/* ---- world to API structs ------------------------------------------------- */

static uint32_t body_hull[FW_MAX_BODIES];   /* library hull ids of the bodies */

/* Registers the world's hulls on every context (all have the same
 * history, so the same ids) and gives each body its library id. Bodies
 * that are not hulls get junk ids: the library must not read them. */
static void register_hulls(const fw_world *w)
{
    uint32_t ids[FW_MAX_HULLS];
    for (int s = 0; s < nslots; s++) {
        for (uint32_t h = 0; h < w->nh; h++) {
            const fw_hull *hu = &w->hulls[h];
            uint32_t id = UINT32_MAX, before = gjkb_hull_count(slots[s].ctx);
            gjkb_error e = gjkb_hull_add(slots[s].ctx, hu->null_points ? NULL : hu->xyz, hu->n, &id);
            check_error(&slots[s], e, "gjkb_hull_add");
            CHECK(e == GJKB_OK && id == before && gjkb_hull_count(slots[s].ctx) == before + 1,
                  "gjkb_hull_add on %s: error %d, id %u after %u hulls", slots[s].name, (int)e, id, before);
            CHECK(s == 0 || id == ids[h], "gjkb_hull_add: %s gives id %u, %s gave %u", slots[s].name, id,
                  slots[0].name, ids[h]);
            ids[h] = id;
        }
    }
    uint32_t unregistered = gjkb_hull_count(slots[0].ctx);
    for (uint32_t i = 0; i < w->nb; i++) {
        if (w->kind[i] != GJKB_HULL)
            body_hull[i] = UINT32_MAX - i;
        else
            body_hull[i] = w->hull_ix[i] < w->nh ? ids[w->hull_ix[i]] : unregistered;
    }
}

static gjkb_bodies bodies_of(const fw_world *w, const uint32_t *hull_ids)
{
    gjkb_bodies b = { w->nb, w->kind, w->px, w->py, w->pz, w->qw, w->qx, w->qy, w->qz, w->sx, w->sy, w->sz,
                      w->margins ? w->margin : NULL, w->odd == FW_ODD_NO_HULL_IDS ? NULL : hull_ids };
    if (w->odd == FW_ODD_NO_SIZES)
        b.sx = NULL;
    return b;
}

/* The query with warm arrays or not; the batch call's (batch) also gets
 * the warm-group misuse when the world asks for it. */
static gjkb_query query_of(const fw_world *w, bool warm, bool batch)
{
    gjkb_query q = { (gjkb_mode)w->mode, w->max_iterations, w->tolerance, w->max_distance, NULL, NULL, NULL };
    if (warm) {
        q.warm_x = w->wx;
        q.warm_y = w->wy;
        q.warm_z = w->wz;
    }
    if (batch && w->odd == FW_ODD_WARM_GROUP)
        q.warm_x = w->wx, q.warm_y = NULL, q.warm_z = NULL;
    return q;
}

/* Result arrays big enough for a whole frame; the manifold's have
 * GJKB_MAX_CONTACTS slots per pair. */
#define MAX_SLOTS_OUT (FW_MAX_FRAME_PAIRS * GJKB_MAX_CONTACTS)
typedef struct outbuf {
    uint8_t status[FW_MAX_FRAME_PAIRS];
    uint32_t iterations[FW_MAX_FRAME_PAIRS];
    double v[10][FW_MAX_FRAME_PAIRS];   /* distance, ax ay az, bx by bz, nx ny nz */
    uint8_t count[FW_MAX_FRAME_PAIRS];  /* manifold */
    double m[7][MAX_SLOTS_OUT];         /* manifold ax ay az, bx by bz, separation */
    uint32_t feature[MAX_SLOTS_OUT];
    uint32_t a[FW_MAX_FRAME_PAIRS], b[FW_MAX_FRAME_PAIRS];   /* a frame's pairs */
} outbuf;

static outbuf outs[MAX_SLOTS], recheck;

/* The manifold arrays a FW_MAN_* choice gives (with a misuse when odd). */
static gjkb_manifolds manifolds_of(outbuf *o, int manifold, fw_odd odd)
{
    bool pts = manifold == FW_MAN_ALL || manifold == FW_MAN_POINTS;
    bool sep = manifold == FW_MAN_ALL || manifold == FW_MAN_SEPARATION;
    gjkb_manifolds m = { manifold != FW_MAN_NONE ? o->count : NULL,
                         pts ? o->m[0] : NULL, pts ? o->m[1] : NULL, pts ? o->m[2] : NULL,
                         pts ? o->m[3] : NULL, pts ? o->m[4] : NULL, pts ? o->m[5] : NULL,
                         sep ? o->m[6] : NULL, sep ? o->feature : NULL };
    if (odd == FW_ODD_MANIFOLD_GROUP)
        m.count = o->count, m.ax = o->m[0], m.ay = NULL, m.az = NULL;
    if (odd == FW_ODD_MANIFOLD_NO_COUNT)
        m.count = NULL, m.separation = o->m[6];
    return m;
}

static gjkb_results results_of(outbuf *o, int outputs, int manifold, fw_odd odd)
{
    bool scalars = outputs == FW_OUT_ALL || outputs == FW_OUT_SCALARS;
    bool pts = outputs == FW_OUT_ALL || outputs == FW_OUT_POINTS;
    gjkb_results r = { o->status,
                       scalars ? o->v[0] : NULL,
                       pts ? o->v[1] : NULL, pts ? o->v[2] : NULL, pts ? o->v[3] : NULL,
                       pts ? o->v[4] : NULL, pts ? o->v[5] : NULL, pts ? o->v[6] : NULL,
                       pts ? o->v[7] : NULL, pts ? o->v[8] : NULL, pts ? o->v[9] : NULL,
                       scalars ? o->iterations : NULL, manifolds_of(o, manifold, odd) };
    if (odd == FW_ODD_POINT_GROUP)
        r.ax = o->v[1], r.ay = NULL, r.az = NULL;
    if (odd == FW_ODD_NO_STATUS)
        r.status = NULL;
    return r;
}

/* The manifold arrays worth comparing: only contact mode writes them (the
 * other modes' are checked untouched where a sentinel is in them). */
static int manifold_compared(const fw_world *w)
{
    return w->mode == GJKB_CONTACT ? w->manifold : FW_MAN_NONE;
}

/* The arrays gjkb_step fills in the world's mode (gjkb_frame). */
static gjkb_results frame_results_of(outbuf *o, const fw_world *w)
{
    return results_of(o, w->mode == GJKB_HIT ? FW_OUT_SCALARS : FW_OUT_ALL,
                      w->mode == GJKB_CONTACT ? FW_MAN_ALL : FW_MAN_NONE, FW_ODD_NONE);
}

static void fields_of(const gjkb_results *r, const double *f[10])
{
    f[0] = r->distance;
    f[1] = r->ax, f[2] = r->ay, f[3] = r->az;
    f[4] = r->bx, f[5] = r->by, f[6] = r->bz;
    f[7] = r->nx, f[8] = r->ny, f[9] = r->nz;
}

static void manifold_fields_of(const gjkb_manifolds *m, const double *f[7])
{
    f[0] = m->ax, f[1] = m->ay, f[2] = m->az;
    f[3] = m->bx, f[4] = m->by, f[5] = m->bz;
    f[6] = m->separation;
}

/* The first n entries (and a few beyond) of every array get a pattern
 * that a call which must not write will leave behind. */
#define SENTINEL 0xA5
#define SENTINEL_SLACK 8u

static void sentinel_fill(outbuf *o, uint32_t n)
{
    n += SENTINEL_SLACK;
    memset(o->status, SENTINEL, n);
    memset(o->iterations, SENTINEL, n * sizeof o->iterations[0]);
    for (int k = 0; k < 10; k++)
        memset(o->v[k], SENTINEL, n * sizeof(double));
    memset(o->count, SENTINEL, n);
    for (int k = 0; k < 7; k++)
        memset(o->m[k], SENTINEL, n * GJKB_MAX_CONTACTS * sizeof(double));
    memset(o->feature, SENTINEL, n * GJKB_MAX_CONTACTS * sizeof(uint32_t));
}

static bool is_pattern(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != SENTINEL)
            return false;
    return true;
}

/* The manifold arrays alone: hit and distance modes must not write them. */
static bool manifold_intact(const outbuf *o, uint32_t n)
{
    n += SENTINEL_SLACK;
    bool intact = is_pattern(o->count, n) && is_pattern(o->feature, n * GJKB_MAX_CONTACTS * sizeof(uint32_t));
    for (int k = 0; intact && k < 7; k++)
        intact = is_pattern(o->m[k], n * GJKB_MAX_CONTACTS * sizeof(double));
    return intact;
}

static bool sentinel_intact(const outbuf *o, uint32_t n)
{
    bool intact = manifold_intact(o, n);
    n += SENTINEL_SLACK;
    intact = intact && is_pattern(o->status, n) && is_pattern(o->iterations, n * sizeof o->iterations[0]);
    for (int k = 0; intact && k < 10; k++)
        intact = is_pattern(o->v[k], n * sizeof(double));
    return intact;
}

/* Every static context's scratch starts grown for the largest input
 * (FW_MAX_BODIES bodies, a batch with a pair per body, a frame of
 * FW_MAX_FRAME_PAIRS pairs), so no input's answers depend on the inputs
 * before it: each finding reproduces from its input alone. Growth between
 * calls is checked on a fresh context per input (check_growth_*). */
static void pregrow(const slot *s)
{
    enum { N = FW_MAX_BODIES };
    static uint8_t kind[N];                       /* spheres */
    static double at[N];                          /* all at the origin */
    static float one[N], zero[N];
    static uint32_t a[N], b[N];
    for (uint32_t i = 0; i < N; i++)
        one[i] = 1.0f, a[i] = i, b[i] = (i + 1) % N;
    gjkb_bodies bodies = { N, kind, at, at, at, one, zero, zero, zero, one, one, one, NULL, NULL };
    gjkb_pairs pairs = { N, a, b };
    gjkb_query q = { GJKB_DISTANCE, 0, 0.0, 0.0, NULL, NULL, NULL };
    gjkb_results r = results_of(&recheck, FW_OUT_ALL, FW_MAN_NONE, FW_ODD_NONE);
    gjkb_frame f;
    CHECK(gjkb_query_batch(s->ctx, &bodies, &pairs, &q, &r) == GJKB_OK, "%s: pre-growing batch failed", s->name);
    CHECK(gjkb_step(s->ctx, &bodies, NULL, &q, &f) == GJKB_OK && f.pairs.count == FW_MAX_FRAME_PAIRS,
          "%s: pre-growing step failed", s->name);
    /* contact mode has scratch of its own (manifolds, its queues) */
    q.mode = GJKB_CONTACT;
    r = results_of(&recheck, FW_OUT_ALL, FW_MAN_ALL, FW_ODD_NONE);
    CHECK(gjkb_query_batch(s->ctx, &bodies, &pairs, &q, &r) == GJKB_OK, "%s: pre-growing contact batch failed",
          s->name);
    CHECK(gjkb_step(s->ctx, &bodies, NULL, &q, &f) == GJKB_OK && f.pairs.count == FW_MAX_FRAME_PAIRS,
          "%s: pre-growing contact step failed", s->name);
}

/* ---- results --------------------------------------------------------------- */

static const char *const field_name[10] = { "distance", "ax", "ay", "az", "bx", "by", "bz", "nx", "ny", "nz" };

/* What is wrong with one pair's answer by gjkb_status and gjkb_results'
 * rules, or NULL (checked for every pair: no formatting unless wrong). */
static const char *answer_problem(const fw_world *w, const gjkb_results *r, uint32_t i, uint32_t a, uint32_t b)
{
    uint8_t st = r->status[i];
    if (st > GJKB_INVALID)
        return "no such status";
    fw_verdict v = fw_pair_verdict(w, a, b);
    if (v == FW_INVALID && st != GJKB_INVALID)
        return "the header makes this pair invalid";
    if (v == FW_VALID && st == GJKB_INVALID)
        return "invalid, but the pair is valid";
    if (!r->distance)
        return NULL;
    double d = r->distance[i];
    if (st == GJKB_OVERLAP && d != 0.0 && w->mode != GJKB_CONTACT)
        return "overlap at a distance other than 0";
    if (st == GJKB_INVALID && !isnan(d))
        return "invalid with a distance other than NaN";
    if (w->mode == GJKB_HIT && (st == GJKB_SEPARATED || st == GJKB_LIMIT) && !isnan(d))
        return "hit mode: separated or limit with a distance other than NaN";
    if (w->mode != GJKB_HIT && st == GJKB_SEPARATED && !(d > 0.0))
        return "separated at a distance that is not above 0";
    return NULL;
}

/* ---- contact mode's promises (gjkb_results, gjkb_manifolds) ----------------- */

/* Where a contact check failed: a message with numbers, built only then. */
static char contact_why[256];

static const char *why(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static const char *why(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(contact_why, sizeof contact_why, fmt, ap);
    va_end(ap);
    return contact_why;
}

/* One pair's contact answer as the checks read it: NaN where the caller
 * did not ask for the array. */
typedef struct contact_view {
    uint8_t status;
    double d, a[3], b[3], n[3];
    int count;                      /* -1: no count array */
    double ca[4][3], cb[4][3], sep[4];
    uint32_t feature[4];            /* 0 without the array */
    bool has_d, has_ab, has_n, has_cpts, has_sep;   /* which arrays were given */
} contact_view;

static double at_or_nan(const double *v, size_t i)
{
    return v ? v[i] : NAN;
}

static contact_view view_of(const gjkb_results *r, uint32_t i)
{
    const gjkb_manifolds *m = &r->manifold;
    contact_view c = { r->status[i], at_or_nan(r->distance, i),
                       { at_or_nan(r->ax, i), at_or_nan(r->ay, i), at_or_nan(r->az, i) },
                       { at_or_nan(r->bx, i), at_or_nan(r->by, i), at_or_nan(r->bz, i) },
                       { at_or_nan(r->nx, i), at_or_nan(r->ny, i), at_or_nan(r->nz, i) },
                       m->count ? m->count[i] : -1, {{0}}, {{0}}, {0}, {0},
                       r->distance != NULL, r->ax != NULL && r->bx != NULL, r->nx != NULL, m->ax != NULL && m->bx != NULL,
                       m->separation != NULL };
    const double *f[7];
    manifold_fields_of(m, f);
    for (size_t k = 0; k < GJKB_MAX_CONTACTS; k++) {
        size_t at = (size_t)i * GJKB_MAX_CONTACTS + k;
        for (int j = 0; j < 3; j++) {
            c.ca[k][j] = at_or_nan(f[j], at);
            c.cb[k][j] = at_or_nan(f[3 + j], at);
        }
        c.sep[k] = at_or_nan(f[6], at);
        c.feature[k] = m->feature ? m->feature[at] : 0u;
    }
    return c;
}

static bool all_finite3(const double v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static bool all_nan3(const double v[3])
{
    return isnan(v[0]) && isnan(v[1]) && isnan(v[2]);
}

/* How far b - a is from s * n, and what float lanes may miss it by: 2e-5
 * of the pair's scale or of |s| (a speculative point may be farther than
 * the scale), plus a few ulps of the world coordinates (a and b are A's
 * position plus a local point, rounded to double), plus a few of float's
 * subnormal steps (the local point is a float: below float's normal range
 * its precision is absolute). */
static double line_miss(const double a[3], const double b[3], double s, const double n[3])
{
    double e = 0.0;
    for (int k = 0; k < 3; k++)
        e = fmax(e, fabs(b[k] - a[k] - s * n[k]));
    return e;
}

static double line_slack(const double a[3], const double b[3], double s, double scale)
{
    double mag = 0.0;
    for (int k = 0; k < 3; k++)
        mag = fmax(mag, fmax(fabs(a[k]), fabs(b[k])));
    return 2e-5 * fmax(scale, fabs(s)) + 8.0 * 0x1p-52 * mag + 4.0 * 0x1p-149;
}

/* The slots past the count: NaN, feature 0 (gjkb_manifolds). */
static const char *unused_slots_problem(const contact_view *c)
{
    for (int k = c->count; k < GJKB_MAX_CONTACTS; k++) {
        if (!all_nan3(c->ca[k]) || !all_nan3(c->cb[k]) || !isnan(c->sep[k]))
            return why("slot %d past the count %d is not NaN (separation %a)", k, c->count, c->sep[k]);
        if (c->feature[k] != 0)
            return why("slot %d past the count %d has feature %#x, not 0", k, c->count, c->feature[k]);
    }
    return NULL;
}

/* The used slots: finite, none deeper than the first, which is exactly
 * the distance; b - a along n by the separation; above 0 when speculative. */
static const char *used_slots_problem(const contact_view *c, double scale)
{
    bool have_points = c->has_cpts, have_sep = c->has_sep;
    for (int k = 0; k < c->count; k++) {
        if ((have_points && (!all_finite3(c->ca[k]) || !all_finite3(c->cb[k]))) || (have_sep && !isfinite(c->sep[k])))
            return why("contact %d of %d is not finite", k, c->count);
        if (!have_sep)
            continue;
        if (k == 0 && c->has_d && !(c->sep[0] == c->d))
            return why("the first contact's separation %a is not the distance %a", c->sep[0], c->d);
        if (c->status == GJKB_SEPARATED && !(c->sep[k] > 0.0))
            return why("speculative contact %d at separation %a", k, c->sep[k]);
        if (c->sep[k] < c->sep[0] - line_slack(c->ca[k], c->cb[k], c->sep[0], scale))
            return why("contact %d (separation %a) deeper than the first (%a)", k, c->sep[k], c->sep[0]);
        if (have_points && c->has_n &&
            line_miss(c->ca[k], c->cb[k], c->sep[k], c->n) > line_slack(c->ca[k], c->cb[k], c->sep[k], scale))
            return why("contact %d: b - a misses separation * n by %g (scale %g)", k,
                       line_miss(c->ca[k], c->cb[k], c->sep[k], c->n), scale);
    }
    return NULL;
}

/* How many points the status and max_distance allow: [lo, hi]. */
static void count_range(const fw_world *w, const contact_view *c, int *lo, int *hi)
{
    *lo = 0, *hi = 0;
    if (c->status == GJKB_OVERLAP)
        *lo = 1, *hi = GJKB_MAX_CONTACTS;
    else if (c->status == GJKB_SEPARATED && w->max_distance > 0.0)
        /* speculative within max_distance; the distance may be missing */
        *lo = c->has_d && c->d <= w->max_distance, *hi = GJKB_MAX_CONTACTS;
}

/* An overlapping pair: distance in the touching band or below, a unit
 * normal, b - a = distance * n. */
static const char *overlap_problem(const fw_world *w, const contact_view *c, double scale)
{
    double tol = w->tolerance != 0.0 ? w->tolerance : GJKB_DEFAULT_TOLERANCE;
    if (c->has_d && !(isfinite(c->d) && c->d <= (tol + 1e-4) * scale))
        return why("overlap at distance %a, above the touching band (scale %g)", c->d, scale);
    double nn = c->n[0] * c->n[0] + c->n[1] * c->n[1] + c->n[2] * c->n[2];
    if (c->has_n && (!all_finite3(c->n) || !(fabs(nn - 1.0) <= 2e-5)))
        return why("overlap with normal (%a, %a, %a), not unit", c->n[0], c->n[1], c->n[2]);
    if (c->has_ab && (!all_finite3(c->a) || !all_finite3(c->b)))
        return "overlap with witness points that are not finite";
    if (c->has_d && c->has_ab && c->has_n && line_miss(c->a, c->b, c->d, c->n) > line_slack(c->a, c->b, c->d, scale))
        return why("b - a misses distance * n by %g (scale %g)", line_miss(c->a, c->b, c->d, c->n), scale);
    return NULL;
}

static const char *contact_problem(const fw_world *w, const gjkb_results *r, uint32_t i, uint32_t a, uint32_t b)
{
    if (w->mode != GJKB_CONTACT || r->status[i] > GJKB_INVALID)
        return NULL;
    const contact_view c = view_of(r, i);
    double scale = fw_pair_scale(w, a, b);
    const char *p = c.status == GJKB_OVERLAP && fw_pair_verdict(w, a, b) != FW_INVALID
                        ? overlap_problem(w, &c, scale) : NULL;
    if (p || c.count < 0)
        return p;
    int lo, hi;
    count_range(w, &c, &lo, &hi);
    if (c.count < lo || c.count > hi)
        return why("%d contacts, %d to %d expected (distance %a, max_distance %g)", c.count, lo, hi, c.d,
                   w->max_distance);
    p = unused_slots_problem(&c);
    return p ? p : used_slots_problem(&c, scale);
}

static void check_answer(const fw_world *w, const gjkb_results *r, uint32_t i, uint32_t a, uint32_t b,
                         const char *what)
{
    const char *problem = answer_problem(w, r, i, a, b);
    if (!problem)
        problem = contact_problem(w, r, i, a, b);
    if (!problem)
        return;
    focus(a, b);
    fail("%s: pair %u (bodies %u, %u): %s (status %s, distance %a)", what, i, a, b, problem,
         gjkb_status_name((gjkb_status)r->status[i]), r->distance ? r->distance[i] : NAN);
}

static const char *const manifold_name[7] = { "contact ax", "contact ay", "contact az", "contact bx",
                                              "contact by", "contact bz", "separation" };

/* Pair j of y against pair i of the baseline x, bit for bit, in every
 * array x has (bodies a, b for the message). */
static void compare_manifold(const gjkb_results *x, uint32_t i, const gjkb_results *y, uint32_t j, uint32_t a,
                             uint32_t b, const char *what)
{
    const gjkb_manifolds *mx = &x->manifold, *my = &y->manifold;
    const double *fx[7], *fy[7];
    manifold_fields_of(mx, fx);
    manifold_fields_of(my, fy);
    CHECK(!mx->count || mx->count[i] == my->count[j], "%s: pair %u (bodies %u, %u): %u contacts, baseline %u",
          what, j, a, b, my->count[j], mx->count[i]);
    for (size_t k = 0; k < GJKB_MAX_CONTACTS; k++) {
        size_t si = (size_t)i * GJKB_MAX_CONTACTS + k, sj = (size_t)j * GJKB_MAX_CONTACTS + k;
        for (int f = 0; f < 7; f++)
            CHECK(!fx[f] || memcmp(&fx[f][si], &fy[f][sj], sizeof(double)) == 0,
                  "%s: pair %u (bodies %u, %u): slot %zu %s %a, baseline %a", what, j, a, b, k, manifold_name[f],
                  fy[f][sj], fx[f][si]);
        CHECK(!mx->feature || mx->feature[si] == my->feature[sj],
              "%s: pair %u (bodies %u, %u): slot %zu feature %#x, baseline %#x", what, j, a, b, k, my->feature[sj],
              mx->feature[si]);
    }
}

static void compare_pair(const gjkb_results *x, uint32_t i, const gjkb_results *y, uint32_t j, uint32_t a,
                         uint32_t b, const char *what)
{
    const double *fx[10], *fy[10];
    fields_of(x, fx);
    fields_of(y, fy);
    focus(a, b);
    CHECK(x->status[i] == y->status[j], "%s: pair %u (bodies %u, %u): status %s, baseline %s", what, j, a, b,
          gjkb_status_name((gjkb_status)y->status[j]), gjkb_status_name((gjkb_status)x->status[i]));
    CHECK(!x->iterations || x->iterations[i] == y->iterations[j],
          "%s: pair %u (bodies %u, %u): %u iterations, baseline %u", what, j, a, b, y->iterations[j],
          x->iterations[i]);
    for (int k = 0; k < 10; k++)
        CHECK(!fx[k] || memcmp(&fx[k][i], &fy[k][j], sizeof(double)) == 0,
              "%s: pair %u (bodies %u, %u): %s %a, baseline %a", what, j, a, b, field_name[k], fy[k][j], fx[k][i]);
    compare_manifold(x, i, y, j, a, b, what);
    focus(UINT32_MAX, 0);
}

/* Bit for bit: y against the baseline x, pair by pair. */
static void compare_results(const gjkb_results *x, const gjkb_results *y, uint32_t n, const uint32_t *pa,
                            const uint32_t *pb, const char *what)
{
    for (uint32_t i = 0; i < n; i++)
        compare_pair(x, i, y, i, pa[i], pb[i], what);
}

/* ---- gjkb_query_batch ------------------------------------------------------- */

static gjkb_error batch_on(const fw_world *w, int s, gjkb_error first)
{
    gjkb_bodies bodies = bodies_of(w, body_hull);
    gjkb_pairs pairs = { w->np, w->pa, w->pb };
    gjkb_query q = query_of(w, w->warm, true);
    sentinel_fill(&outs[s], w->np);
    gjkb_results r = results_of(&outs[s], w->outputs, w->manifold, w->odd);
    gjkb_error e = gjkb_query_batch(slots[s].ctx, &bodies, &pairs, &q, &r);
    check_error(&slots[s], e, "gjkb_query_batch");
    check_verdict(&slots[s], e, s == 0 ? e : first, fw_batch_args(w), "gjkb_query_batch");
    CHECK(w->odd != FW_ODD_MODE || e == GJKB_ERR_KIND, "gjkb_query_batch on %s: unknown mode gives %d", slots[s].name,
          (int)e);
    if (e != GJKB_OK || w->np == 0) {
        CHECK(sentinel_intact(&outs[s], w->np), "gjkb_query_batch on %s: results written by a call with %s",
              slots[s].name, e != GJKB_OK ? "an error" : "no pairs");
        return e;
    }
    CHECK(w->mode == GJKB_CONTACT || manifold_intact(&outs[s], w->np),
          "gjkb_query_batch on %s: manifold arrays written in %s mode", slots[s].name,
          w->mode == GJKB_HIT ? "hit" : "distance");
    char what[64];
    snprintf(what, sizeof what, "gjkb_query_batch on %s", slots[s].name);
    for (uint32_t i = 0; i < w->np; i++)
        check_answer(w, &r, i, w->pa[i], w->pb[i], what);
    if (is_wide(&slots[s]) && s != scalar_slot) {
        gjkb_results base = results_of(&outs[scalar_slot], w->outputs, w->manifold, w->odd);
        snprintf(what, sizeof what, "gjkb_query_batch: %s against scalar", slots[s].name);
        compare_results(&base, &r, w->np, w->pa, w->pb, what);
    }
    return e;
}

/* Returns whether every backend's batch succeeded. */
static bool check_batch(const fw_world *w)
{
    gjkb_error first = GJKB_OK;
    for (int s = 0; s < nslots; s++)
        if (slot_used(w, s))
            first = batch_on(w, s, first);
    return first == GJKB_OK;
}

/* ---- bad pairs leave their neighbours alone ------------------------------------
 * The batch again on one wide backend without the pairs it answered
 * invalid: every other pair must keep its bits ("leave every other pair as
 * it would be alone"), whatever the mode. */

static uint32_t kept_a[FW_MAX_PAIRS], kept_b[FW_MAX_PAIRS], kept_ix[FW_MAX_PAIRS];
static double kept_w[3][FW_MAX_PAIRS];

static uint32_t keep_valid(const fw_world *w, const outbuf *o)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < w->np; i++) {
        if (o->status[i] == GJKB_INVALID)
            continue;
        kept_a[n] = w->pa[i], kept_b[n] = w->pb[i], kept_ix[n] = i;
        kept_w[0][n] = w->wx[i], kept_w[1][n] = w->wy[i], kept_w[2][n] = w->wz[i];
        n++;
    }
    return n;
}

static int growth_slot(const fw_world *w);

static void check_neighbours(const fw_world *w)
{
    int s = growth_slot(w);
    uint32_t n = keep_valid(w, &outs[s]);
    if (n == 0 || n == w->np)
        return;
    gjkb_bodies bodies = bodies_of(w, body_hull);
    gjkb_pairs pairs = { n, kept_a, kept_b };
    gjkb_query q = query_of(w, false, false);
    if (w->warm)
        q.warm_x = kept_w[0], q.warm_y = kept_w[1], q.warm_z = kept_w[2];
    gjkb_results r = results_of(&recheck, w->outputs, w->manifold, FW_ODD_NONE);
    CHECK(gjkb_query_batch(slots[s].ctx, &bodies, &pairs, &q, &r) == GJKB_OK,
          "gjkb_query_batch on %s without the invalid pairs: %s", slots[s].name, gjkb_last_error(slots[s].ctx));
    gjkb_results base = results_of(&outs[s], w->outputs, manifold_compared(w), w->odd);
    char what[96];
    snprintf(what, sizeof what, "gjkb_query_batch on %s without the invalid pairs, against with them",
             slots[s].name);
    for (uint32_t j = 0; j < n; j++)
        compare_pair(&base, kept_ix[j], &r, j, kept_a[j], kept_b[j], what);
}

/* ---- gjkb_query_pair ------------------------------------------------------------
 * The reference path one pair at a time, on any context: pair by pair the
 * reference backend's batch bits (slot 0), in every mode. */

static outbuf pair_out;

static gjkb_shape shape_of(const fw_world *w, uint32_t i)
{
    gjkb_shape s = { (gjkb_kind)w->kind[i], { w->sx[i], w->sy[i], w->sz[i] }, w->margins ? w->margin[i] : 0.0f,
                     body_hull[i], { w->px[i], w->py[i], w->pz[i] }, { w->qw[i], w->qx[i], w->qy[i], w->qz[i] } };
    return s;
}

/* A gjkb_result as the batch call stores it: slots past the count NaN. */
static void store_pair(outbuf *o, uint32_t i, const gjkb_result *res)
{
    o->status[i] = (uint8_t)res->status;
    o->iterations[i] = res->iterations;
    o->v[0][i] = res->distance;
    for (int k = 0; k < 3; k++)
        o->v[1 + k][i] = res->a[k], o->v[4 + k][i] = res->b[k], o->v[7 + k][i] = res->n[k];
    o->count[i] = (uint8_t)res->contact_count;
    for (uint32_t k = 0; k < GJKB_MAX_CONTACTS; k++) {
        size_t at = (size_t)i * GJKB_MAX_CONTACTS + k;
        bool used = k < res->contact_count;
        const gjkb_contact *c = &res->contacts[k];
        for (int j = 0; j < 3; j++)
            o->m[j][at] = used ? c->a[j] : NAN, o->m[3 + j][at] = used ? c->b[j] : NAN;
        o->m[6][at] = used ? c->separation : NAN;
        o->feature[at] = used ? c->feature : 0u;
    }
}

static void check_pair_calls(const fw_world *w)
{
    const slot *sl = &slots[w->filter_seed % nslots];
    gjkb_query q = query_of(w, false, false);
    for (uint32_t i = 0; i < w->np; i++) {
        gjkb_shape a = shape_of(w, w->pa[i]), b = shape_of(w, w->pb[i]);
        if (w->warm)
            q.warm_x = &w->wx[i], q.warm_y = &w->wy[i], q.warm_z = &w->wz[i];
        gjkb_result res;
        gjkb_error e = gjkb_query_pair(sl->ctx, &a, &b, &q, &res);
        check_error(sl, e, "gjkb_query_pair");
        focus(w->pa[i], w->pb[i]);
        CHECK(e == GJKB_OK, "gjkb_query_pair on %s, pair %u: error %d where the batch call succeeded", sl->name, i,
              (int)e);
        CHECK(res.contact_count <= GJKB_MAX_CONTACTS && (w->mode == GJKB_CONTACT || res.contact_count == 0),
              "gjkb_query_pair on %s, pair %u: %u contacts in mode %d", sl->name, i, res.contact_count, w->mode);
        store_pair(&pair_out, i, &res);
    }
    gjkb_results base = results_of(&outs[0], w->outputs, manifold_compared(w), w->odd);
    gjkb_results got = results_of(&pair_out, w->outputs, manifold_compared(w), FW_ODD_NONE);
    char what[96];
    snprintf(what, sizeof what, "gjkb_query_pair on %s against the reference batch", sl->name);
    compare_results(&base, &got, w->np, w->pa, w->pb, what);
}

/* ---- gjkb_bounds -------------------------------------------------------------- */

typedef struct boxbuf {
    float v[6][FW_MAX_BODIES];   /* min x, y, z, max x, y, z */
} boxbuf;

static boxbuf boxes[MAX_SLOTS];

static gjkb_aabbs aabbs_of(boxbuf *b, uint32_t n)
{
    gjkb_aabbs a = { n, b->v[0], b->v[1], b->v[2], b->v[3], b->v[4], b->v[5] };
    return a;
}

/* Empty for an invalid body; holding the position for a valid one whose
 * local origin is inside the shape (every kind but hull). */
static void check_box(const fw_world *w, const boxbuf *b, uint32_t i)
{
    fw_verdict v = fw_body_verdict(w, i);
    const double p[3] = { w->px[i], w->py[i], w->pz[i] };
    for (int k = 0; k < 3; k++) {
        float lo = b->v[k][i], hi = b->v[3 + k][i];
        CHECK(v != FW_INVALID || (lo == INFINITY && hi == -INFINITY),
              "gjkb_bounds: body %u is invalid, its box on axis %d is [%a, %a], not empty", i, k, lo, hi);
        CHECK(v != FW_VALID || lo <= hi, "gjkb_bounds: body %u: box on axis %d is [%a, %a]", i, k, lo, hi);
        CHECK(v != FW_VALID || w->kind[i] == GJKB_HULL || (lo <= p[k] && p[k] <= hi),
              "gjkb_bounds: body %u: box on axis %d [%a, %a] misses the position %a", i, k, lo, hi, p[k]);
    }
}

static void compare_boxes(const fw_world *w, const boxbuf *x, const boxbuf *y, const char *name)
{
    for (int k = 0; k < 6; k++)
        for (uint32_t i = 0; i < w->nb; i++)
            CHECK(memcmp(&x->v[k][i], &y->v[k][i], sizeof(float)) == 0,
                  "gjkb_bounds: %s against %s: body %u field %d: %a, baseline %a", name, slots[0].name, i, k,
                  y->v[k][i], x->v[k][i]);
}

/* Bounds on every backend: the same code, the same bits. Returns whether
 * they succeeded (the boxes are then in boxes[0]). */
static bool check_bounds(const fw_world *w)
{
    gjkb_bodies bodies = bodies_of(w, body_hull);
    gjkb_error first = GJKB_OK;
    for (int s = 0; s < nslots; s++) {
        if (slots[s].gather)
            continue;
        gjkb_aabbs a = aabbs_of(&boxes[s], w->nb);
        gjkb_error e = gjkb_bounds(slots[s].ctx, &bodies, &a);
        check_error(&slots[s], e, "gjkb_bounds");
        check_verdict(&slots[s], e, s == 0 ? e : first, fw_bodies_args(w), "gjkb_bounds");
        first = s == 0 ? e : first;
        if (e == GJKB_OK && s > 0)
            compare_boxes(w, &boxes[0], &boxes[s], slots[s].name);
    }
    for (uint32_t i = 0; first == GJKB_OK && i < w->nb; i++)
        check_box(w, &boxes[0], i);
    return first == GJKB_OK;
}

/* ---- gjkb_find_pairs ------------------------------------------------------------ */

/* The filter keeps three pairs in four, by a hash of the pair and the
 * input, and logs every call. */
typedef struct filter_log {
    uint8_t seed;
    uint32_t n;
    uint32_t a[FW_MAX_FRAME_PAIRS], b[FW_MAX_FRAME_PAIRS];
    uint8_t kept[FW_MAX_FRAME_PAIRS];
} filter_log;

static filter_log logs[MAX_SLOTS];

static int filter(void *user, uint32_t a, uint32_t b)
{
    filter_log *log = user;
    int keep = (a * 31u + b * 17u + log->seed) % 4u != 0;
    CHECK(log->n < FW_MAX_FRAME_PAIRS, "pair filter: more calls than pairs of distinct bodies");
    log->a[log->n] = a;
    log->b[log->n] = b;
    log->kept[log->n++] = (uint8_t)keep;
    return keep;
}

static const gjkb_broadphase_options *options_of(const fw_world *w, filter_log *log,
                                                 gjkb_broadphase_options *opt)
{
    log->seed = w->filter_seed;
    log->n = 0;
    opt->flags = w->use_flags ? w->flags : NULL;
    opt->filter = w->use_filter ? filter : NULL;
    opt->user = log;
    return w->use_flags || w->use_filter ? opt : NULL;
}

/* Closed boxes overlap when every axis' intervals meet (NaN never does). */
static bool boxes_meet(const boxbuf *bx, uint32_t i, uint32_t j)
{
    for (int k = 0; k < 3; k++) {
        float li = bx->v[k][i], hi = bx->v[3 + k][i], lj = bx->v[k][j], hj = bx->v[3 + k][j];
        if (!(li <= hi && lj <= hj && li <= hj && lj <= hi))
            return false;
    }
    return true;
}

static bool flags_keep(const fw_world *w, uint32_t i, uint32_t j)
{
    return !w->use_flags || !(w->flags[i] & w->flags[j] & GJKB_BODY_STATIC);
}

/* The pairs the flags keep, as offered (to the filter, or as the output
 * without one): each overlapping pair once, a < b, none missing. */
static void check_offered(const fw_world *w, const boxbuf *bx, const uint32_t *a, const uint32_t *b, uint32_t n,
                          const char *what)
{
    static uint8_t seen[FW_MAX_BODIES][FW_MAX_BODIES];
    memset(seen, 0, sizeof seen);
    for (uint32_t p = 0; p < n; p++) {
        CHECK(a[p] < b[p] && b[p] < w->nb, "%s: pair %u is (%u, %u)", what, p, a[p], b[p]);
        CHECK(!seen[a[p]][b[p]]++, "%s: pair (%u, %u) twice", what, a[p], b[p]);
        CHECK(boxes_meet(bx, a[p], b[p]), "%s: pair (%u, %u) whose boxes do not overlap", what, a[p], b[p]);
        CHECK(flags_keep(w, a[p], b[p]), "%s: pair (%u, %u) of two static bodies", what, a[p], b[p]);
    }
    for (uint32_t i = 0; i < w->nb; i++)
        for (uint32_t j = i + 1; j < w->nb; j++)
            CHECK(seen[i][j] || !boxes_meet(bx, i, j) || !flags_keep(w, i, j),
                  "%s: overlapping pair (%u, %u) missing", what, i, j);
}

/* With a filter: it saw exactly the offered pairs, and the output is the
 * ones it kept, in the order it saw them. */
static void check_pair_list(const fw_world *w, const boxbuf *bx, const gjkb_pairs *got, const filter_log *log,
                            const char *what)
{
    if (!w->use_filter) {
        check_offered(w, bx, got->a, got->b, got->count, what);
        return;
    }
    check_offered(w, bx, log->a, log->b, log->n, what);
    uint32_t k = 0;
    for (uint32_t p = 0; p < log->n; p++) {
        if (!log->kept[p])
            continue;
        CHECK(k < got->count && got->a[k] == log->a[p] && got->b[k] == log->b[p],
              "%s: output pair %u is not the filter's %u-th kept pair (%u, %u)", what, k, k, log->a[p], log->b[p]);
        k++;
    }
    CHECK(k == got->count, "%s: %u pairs out, the filter kept %u", what, got->count, k);
}

/* An empty list's arrays may be NULL, which memcpy may not see. */
static void save_pairs(outbuf *o, const gjkb_pairs *p)
{
    if (p->count == 0)
        return;
    memcpy(o->a, p->a, p->count * sizeof(uint32_t));
    memcpy(o->b, p->b, p->count * sizeof(uint32_t));
}

static bool same_pairs(const uint32_t *a1, const uint32_t *b1, const uint32_t *a2, const uint32_t *b2, uint32_t n)
{
    return n == 0 || (!memcmp(a1, a2, n * sizeof(uint32_t)) && !memcmp(b1, b2, n * sizeof(uint32_t)));
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* A pair's group as the header promises it, for pairs without a hull: the
 * two kinds, either order (a hull's group also depends on its size). */
static int kind_group(const fw_world *w, uint32_t a, uint32_t b)
{
    unsigned ka = w->kind[a], kb = w->kind[b];
    if (ka == GJKB_HULL || kb == GJKB_HULL)
        return -1;
    return (int)(ka < kb ? ka * GJKB_KIND_COUNT + kb : kb * GJKB_KIND_COUNT + ka);
}

/* gjkb_step's pairs (fa, fb) against find_pairs' (ra, rb), n each: the
 * same pairs, and those of each hull-free group in one run and in
 * find_pairs' order. */
static bool grouped_pairs(const fw_world *w, const uint32_t *fa, const uint32_t *fb, const uint32_t *ra,
                          const uint32_t *rb, uint32_t n)
{
    static uint64_t x[FW_MAX_FRAME_PAIRS], y[FW_MAX_FRAME_PAIRS];
    if (n > sizeof x / sizeof x[0])
        return false;
    for (uint32_t i = 0; i < n; i++) {
        x[i] = (uint64_t)fa[i] << 32 | fb[i];
        y[i] = (uint64_t)ra[i] << 32 | rb[i];
    }
    qsort(x, n, sizeof x[0], cmp_u64);
    qsort(y, n, sizeof y[0], cmp_u64);
    if (n > 0 && memcmp(x, y, n * sizeof x[0]))
        return false;
    for (int g = 0; g < GJKB_KIND_COUNT * GJKB_KIND_COUNT; g++) {
        uint32_t j = 0, last = 0, seen = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (kind_group(w, fa[i], fb[i]) != g)
                continue;
            if (seen++ && i != last + 1)
                return false;   /* not one run */
            last = i;
            while (j < n && kind_group(w, ra[j], rb[j]) != g)
                j++;
            if (j == n || ra[j] != fa[i] || rb[j] != fb[i])
                return false;   /* not find_pairs' order */
            j++;
        }
    }
    return true;
}

/* find_pairs on the given boxes on every backend: valid lists, the same
 * on all (the sweep's order is documented as backend independent). The
 * lists land in outs[s].a, .b; returns the count. */
static uint32_t check_find_pairs(const fw_world *w, boxbuf *bx, const char *label)
{
    uint32_t count = 0;
    for (int s = 0; s < nslots; s++) {
        if (slots[s].gather)
            continue;
        char what[96];
        snprintf(what, sizeof what, "gjkb_find_pairs (%s) on %s", label, slots[s].name);
        gjkb_broadphase_options opt;
        const gjkb_broadphase_options *po = options_of(w, &logs[s], &opt);
        gjkb_aabbs a = aabbs_of(bx, w->nb);
        gjkb_pairs got = { 0, NULL, NULL };
        gjkb_error e = gjkb_find_pairs(slots[s].ctx, &a, po, &got);
        check_error(&slots[s], e, "gjkb_find_pairs");
        CHECK(e == GJKB_OK, "%s: error %d", what, (int)e);
        check_pair_list(w, bx, &got, &logs[s], what);
        save_pairs(&outs[s], &got);
        CHECK(s == 0 || (got.count == count && same_pairs(outs[0].a, outs[0].b, outs[s].a, outs[s].b, count)),
              "%s: other pairs than %s's", what, slots[0].name);
        count = got.count;
    }
    return count;
}

/* find_pairs must cope with boxes bounds never makes (NaN, inverted,
 * infinite): the world's edits on a copy of the bounds. */
static void check_edited_pairs(const fw_world *w)
{
    static boxbuf edited;
    edited = boxes[0];
    for (uint32_t k = 0; k < w->nedits; k++)
        edited.v[w->edit_field[k]][w->edit_body[k]] = w->edit_value[k];
    check_find_pairs(w, &edited, "edited boxes");
}

/* ---- gjkb_step ------------------------------------------------------------------ */

/* The pairs find_pairs made of this input's bounds (when they succeeded). */
static const uint32_t *ref_a, *ref_b;
static uint32_t ref_count;
static bool ref_valid;

/* The frame into outs[s]: its arrays live only until the context's next call. */
static gjkb_results frame_save(const fw_world *w, int s, const gjkb_frame *f)
{
    outbuf *o = &outs[s];
    uint32_t n = f->pairs.count;
    save_pairs(o, &f->pairs);
    gjkb_results r = frame_results_of(o, w);
    const double *src[10], *dst[10], *msrc[7], *mdst[7];
    fields_of(&f->results, src);
    fields_of(&r, dst);
    memcpy(o->status, f->results.status, n);
    memcpy(o->iterations, f->results.iterations, n * sizeof(uint32_t));
    for (int k = 0; k < 10; k++)
        if (dst[k])
            memcpy((double *)dst[k], src[k], n * sizeof(double));
    if (w->mode != GJKB_CONTACT)
        return r;
    manifold_fields_of(&f->results.manifold, msrc);
    manifold_fields_of(&r.manifold, mdst);
    memcpy(o->count, f->results.manifold.count, n);
    memcpy(o->feature, f->results.manifold.feature, n * GJKB_MAX_CONTACTS * sizeof(uint32_t));
    for (int k = 0; k < 7; k++)
        memcpy((double *)mdst[k], msrc[k], n * GJKB_MAX_CONTACTS * sizeof(double));
    return r;
}

/* The frame's shape: arrays present as documented, hits counted right. */
static void check_frame_shape(const fw_world *w, const slot *sl, const gjkb_frame *f)
{
    const gjkb_results *r = &f->results;
    const gjkb_manifolds *m = &r->manifold;
    bool pts = w->mode != GJKB_HIT, contact = w->mode == GJKB_CONTACT;
    CHECK(f->pairs.count <= FW_MAX_FRAME_PAIRS, "gjkb_step on %s: %u pairs", sl->name, f->pairs.count);
    CHECK(r->status && r->distance && r->iterations, "gjkb_step on %s: a status, distance or iterations array "
          "is NULL", sl->name);
    CHECK(!r->ax == !pts && !r->bz == !pts && !r->nx == !pts, "gjkb_step on %s: point arrays %s in %s mode",
          sl->name, r->ax ? "given" : "NULL", pts ? "distance or contact" : "hit");
    CHECK(!m->count == !contact && !m->ax == !contact && !m->bz == !contact && !m->separation == !contact &&
              !m->feature == !contact, "gjkb_step on %s: manifold arrays %s in %s mode", sl->name,
          m->count ? "given" : "NULL", contact ? "contact" : "another");
    uint32_t hits = 0;
    for (uint32_t i = 0; i < f->pairs.count; i++)
        hits += r->status[i] == GJKB_OVERLAP;
    CHECK(hits == f->hits, "gjkb_step on %s: hits %u, %u overlaps", sl->name, f->hits, hits);
}

/* The frame's answers are gjkb_query_batch's on the frame's own pairs. */
static void check_frame_batch(const fw_world *w, int s, const gjkb_results *got, uint32_t n)
{
    gjkb_bodies bodies = bodies_of(w, body_hull);
    gjkb_pairs pairs = { n, outs[s].a, outs[s].b };
    gjkb_query q = query_of(w, false, false);
    gjkb_results r = frame_results_of(&recheck, w);
    gjkb_error e = gjkb_query_batch(slots[s].ctx, &bodies, &pairs, &q, &r);
    check_error(&slots[s], e, "gjkb_query_batch");
    CHECK(e == GJKB_OK, "gjkb_query_batch on %s, a frame's pairs: error %d", slots[s].name, (int)e);
    char what[96];
    snprintf(what, sizeof what, "gjkb_step on %s against its gjkb_query_batch", slots[s].name);
    compare_results(&r, got, n, pairs.a, pairs.b, what);
}

static void frame_checks(const fw_world *w, int s, const gjkb_frame *f)
{
    uint32_t n = f->pairs.count;
    char what[96];
    check_frame_shape(w, &slots[s], f);
    gjkb_results got = frame_save(w, s, f);
    snprintf(what, sizeof what, "gjkb_step on %s", slots[s].name);
    CHECK(ref_valid, "%s: OK where gjkb_bounds failed on the same bodies", what);
    CHECK(n == ref_count && grouped_pairs(w, outs[s].a, outs[s].b, ref_a, ref_b, n),
          "%s: %u pairs, not the %u gjkb_find_pairs gives for the bounds, grouped", what, n, ref_count);
    for (uint32_t i = 0; i < n; i++)
        check_answer(w, &got, i, outs[s].a[i], outs[s].b[i], what);
    if (is_wide(&slots[s]) && s != scalar_slot) {
        gjkb_results base = frame_results_of(&outs[scalar_slot], w);
        snprintf(what, sizeof what, "gjkb_step: %s against scalar", slots[s].name);
        compare_results(&base, &got, n, outs[s].a, outs[s].b, what);
    }
    check_frame_batch(w, s, &got, n);
}

static gjkb_error step_on(const fw_world *w, int s, gjkb_error first)
{
    gjkb_bodies bodies = bodies_of(w, body_hull);
    gjkb_query q = query_of(w, w->odd == FW_ODD_STEP_WARM, false);
    gjkb_broadphase_options opt;
    const gjkb_broadphase_options *po = options_of(w, &logs[s], &opt);
    gjkb_frame f;
    memset(&f, 0, sizeof f);
    gjkb_error e = gjkb_step(slots[s].ctx, &bodies, po, &q, &f);
    check_error(&slots[s], e, "gjkb_step");
    check_verdict(&slots[s], e, s == 0 ? e : first, fw_step_args(w), "gjkb_step");
    CHECK(w->odd != FW_ODD_MODE || e == GJKB_ERR_KIND, "gjkb_step on %s: unknown mode gives %d", slots[s].name, (int)e);
    CHECK(w->odd != FW_ODD_STEP_WARM || e == GJKB_ERR_ARGUMENT, "gjkb_step on %s: warm arrays give %d",
          slots[s].name, (int)e);
    if (e == GJKB_OK)
        frame_checks(w, s, &f);
    return e;
}

/* Returns whether every backend's step succeeded. */
static bool check_step(const fw_world *w)
{
    gjkb_error first = GJKB_OK;
    for (int s = 0; s < nslots; s++)
        if (slot_used(w, s))
            first = step_on(w, s, first);
    return first == GJKB_OK;
}

/* ---- scratch growth between calls --------------------------------------------------
 * A fresh context of one wide backend answers the bodies' first half, then
 * all of them, in a batch and in a step: its scratch grows between the two
 * calls, and the second must give the bits the pre-grown contexts gave. */

static gjkb_context *fresh;
static int fresh_slot;
static uint32_t fresh_hull[FW_MAX_BODIES];   /* ids on the fresh context */

/* The input picks a backend with several lanes (records, bundles), or
 * scalar when the CPU has none (also the neighbour check's backend). */
static int growth_slot(const fw_world *w)
{
    int wide[MAX_SLOTS], n = 0;
    for (int s = 0; s < nslots; s++)
        if (!slots[s].gather && slots[s].backend > GJKB_BACKEND_SCALAR)
            wide[n++] = s;
    return n ? wide[w->filter_seed % n] : scalar_slot;
}

static void fresh_make(const fw_world *w)
{
    fresh_slot = growth_slot(w);
    gjkb_config cfg = { slots[fresh_slot].backend, 0 };
    CHECK(gjkb_create(&cfg, &fresh) == GJKB_OK, "gjkb_create(%s) failed", slots[fresh_slot].name);
    for (uint32_t h = 0; h < w->nh; h++) {
        const fw_hull *hu = &w->hulls[h];
        uint32_t id = UINT32_MAX;
        gjkb_error e = gjkb_hull_add(fresh, hu->null_points ? NULL : hu->xyz, hu->n, &id);
        CHECK(e == GJKB_OK && id == h, "gjkb_hull_add on a fresh %s context: error %d, id %u for hull %u",
              slots[fresh_slot].name, (int)e, id, h);
    }
    for (uint32_t i = 0; i < w->nb; i++)
        fresh_hull[i] = w->kind[i] != GJKB_HULL ? UINT32_MAX - i : w->hull_ix[i] < w->nh ? w->hull_ix[i] : w->nh;
}

static uint32_t grow_a[FW_MAX_PAIRS + FW_MAX_BODIES], grow_b[FW_MAX_PAIRS + FW_MAX_BODIES];
static double grow_w[3][FW_MAX_PAIRS + FW_MAX_BODIES];

/* The input's pairs (or none), then each of the first `bodies` bodies
 * against itself: at least a pair per body, so the pipeline lays out its
 * per-body records. Self pairs get a zero warm axis (the offset). */
static gjkb_pairs growth_pairs(const fw_world *w, uint32_t bodies, bool input)
{
    uint32_t n = 0;
    for (uint32_t i = 0; input && i < w->np; i++, n++) {
        grow_a[n] = w->pa[i], grow_b[n] = w->pb[i];
        grow_w[0][n] = w->wx[i], grow_w[1][n] = w->wy[i], grow_w[2][n] = w->wz[i];
    }
    for (uint32_t i = 0; i < bodies; i++, n++) {
        grow_a[n] = grow_b[n] = i;
        grow_w[0][n] = grow_w[1][n] = grow_w[2][n] = 0.0;
    }
    gjkb_pairs p = { n, grow_a, grow_b };
    return p;
}

/* FUZZ_API_NO_GROWTH=1 leaves the growth checks out: to fuzz past a
 * known growth bug until it is fixed. */
static bool growth_wanted(void)
{
    static int wanted = -1;
    if (wanted < 0)
        wanted = getenv("FUZZ_API_NO_GROWTH") == NULL;
    return wanted;
}

static void check_growth_batch(const fw_world *w)
{
    fresh = NULL;
    if (!growth_wanted() || fw_batch_args(w) != FW_ARGS_OK || fw_bodies_args(w) != FW_ARGS_OK)
        return;
    fresh_make(w);
    const char *name = slots[fresh_slot].name;
    gjkb_bodies all = bodies_of(w, fresh_hull), half = all;
    half.count = (w->nb + 1) / 2;
    gjkb_query q = query_of(w, false, false);
    if (w->warm)
        q.warm_x = grow_w[0], q.warm_y = grow_w[1], q.warm_z = grow_w[2];
    gjkb_results r = results_of(&recheck, w->outputs, w->manifold, FW_ODD_NONE);
    gjkb_pairs p = growth_pairs(w, half.count, false);
    CHECK(gjkb_query_batch(fresh, &half, &p, &q, &r) == GJKB_OK, "gjkb_query_batch on a fresh %s context, "
          "half the bodies: %s", name, gjkb_last_error(fresh));
    p = growth_pairs(w, w->nb, true);
    CHECK(gjkb_query_batch(fresh, &all, &p, &q, &r) == GJKB_OK, "gjkb_query_batch on a fresh %s context, all "
          "bodies: %s", name, gjkb_last_error(fresh));
    gjkb_results base = results_of(&outs[scalar_slot], w->outputs, manifold_compared(w), FW_ODD_NONE);
    char what[96];
    snprintf(what, sizeof what, "gjkb_query_batch on a fresh %s context, grown, against scalar", name);
    compare_results(&base, &r, w->np, w->pa, w->pb, what);
}

static void check_growth_step(const fw_world *w, bool frame_ok)
{
    if (!fresh)
        return;
    if (frame_ok) {
        static filter_log log;
        const char *name = slots[fresh_slot].name;
        gjkb_bodies all = bodies_of(w, fresh_hull), half = all;
        half.count = (w->nb + 1) / 2;
        gjkb_query q = query_of(w, false, false);
        gjkb_broadphase_options opt;
        const gjkb_broadphase_options *po = options_of(w, &log, &opt);
        gjkb_frame f;
        CHECK(gjkb_step(fresh, &half, po, &q, &f) == GJKB_OK, "gjkb_step on a fresh %s context, half the "
              "bodies: %s", name, gjkb_last_error(fresh));
        po = options_of(w, &log, &opt);
        CHECK(gjkb_step(fresh, &all, po, &q, &f) == GJKB_OK, "gjkb_step on a fresh %s context, all bodies: %s",
              name, gjkb_last_error(fresh));
        char what[96];
        snprintf(what, sizeof what, "gjkb_step on a fresh %s context, grown, against scalar", name);
        CHECK(f.pairs.count == ref_count && grouped_pairs(w, f.pairs.a, f.pairs.b, ref_a, ref_b, ref_count),
              "%s: %u pairs, not the %u of the bounds, grouped", what, f.pairs.count, ref_count);
        gjkb_results base = frame_results_of(&outs[scalar_slot], w);
        compare_results(&base, &f.results, f.pairs.count, f.pairs.a, f.pairs.b, what);
    }
    gjkb_destroy(fresh);
    fresh = NULL;
}

/* ---- stats ------------------------------------------------------------------------ */

/* The width of each backend, and never more lane steps than lanes. */
static void check_stats(void)
{
    static const uint32_t width[GJKB_BACKEND_COUNT] = { 0, 0, 1, 4, 8, 16, 4 };
    for (int s = 0; s < nslots; s++) {
        gjkb_stats st;
        CHECK(gjkb_stats_get(slots[s].ctx, &st) == GJKB_OK, "gjkb_stats_get on %s failed", slots[s].name);
        CHECK(st.width == width[slots[s].backend], "gjkb_stats_get on %s: width %u", slots[s].name, st.width);
        CHECK(st.lane_steps <= st.bundle_steps * (uint64_t)st.width, "gjkb_stats on %s: %llu lane steps in %llu "
              "bundle steps", slots[s].name, (unsigned long long)st.lane_steps, (unsigned long long)st.bundle_steps);
        gjkb_stats_reset(slots[s].ctx);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fw_world w;
    fw_decode(&w, data, size);
    current = &w;
    /* FUZZ_API_PRINT=1 build-fuzz/tests/fuzz/fuzz_api FILE: the world FILE decodes to */
    static int print = -1;
    if (print < 0)
        print = getenv("FUZZ_API_PRINT") != NULL;
    if (print)
        fw_print(stdout, &w);
    slots_ready();
    register_hulls(&w);
    if (check_batch(&w) && w.np > 0) {
        check_pair_calls(&w);
        check_neighbours(&w);
    }
    check_growth_batch(&w);
    ref_valid = check_bounds(&w);
    if (ref_valid) {
        /* the pairs of the unedited bounds, for gjkb_step to match */
        static outbuf ref;
        ref_count = check_find_pairs(&w, &boxes[0], "bounds");
        save_pairs(&ref, &(gjkb_pairs){ ref_count, outs[0].a, outs[0].b });
        ref_a = ref.a, ref_b = ref.b;
        if (w.nedits)
            check_edited_pairs(&w);
    }
    bool frame_ok = check_step(&w);
    check_growth_step(&w, frame_ok && ref_valid);
    check_stats();
    current = NULL;
    focus_a = UINT32_MAX;
    return 0;
}
