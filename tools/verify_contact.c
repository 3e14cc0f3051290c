/* verify_contact.c - a contact-mode answer checked against the reference. */
#include "verify_contact.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* Iteration bound of the probes: generous, since a probe that stops at the
 * bound would blame the tested answer for the oracle's slowness
 * (converging pairs stop long before). */
#define PROBE_ITERATIONS 4096u
/* How far |n| may be from 1: float lanes round n to about 1e-7. */
#define UNIT_TOL 1e-5
/* Two normals within about 1.4e-3 rad (1 - cos) are the same normal. */
#define SAME_NORMAL 1e-6

void contact_result_get(const gjkb_results *r, uint32_t i, gjkb_result *out)
{
    memset(out, 0, sizeof *out);
    out->status = (gjkb_status)r->status[i];
    out->iterations = r->iterations ? r->iterations[i] : 0;
    out->distance = r->distance ? r->distance[i] : NAN;
    for (int k = 0; k < 3; k++) {
        const double *a[3] = { r->ax, r->ay, r->az }, *b[3] = { r->bx, r->by, r->bz }, *n[3] = { r->nx, r->ny, r->nz };
        out->a[k] = a[k] ? a[k][i] : NAN;
        out->b[k] = b[k] ? b[k][i] : NAN;
        out->n[k] = n[k] ? n[k][i] : NAN;
    }
    const gjkb_manifolds *m = &r->manifold;
    out->contact_count = m->count ? m->count[i] : 0;
    for (size_t k = 0; k < GJKB_MAX_CONTACTS; k++) {
        size_t s = (size_t)i * GJKB_MAX_CONTACTS + k;
        gjkb_contact *c = &out->contacts[k];
        const double *ca[3] = { m->ax, m->ay, m->az }, *cb[3] = { m->bx, m->by, m->bz };
        for (int d = 0; d < 3; d++) {
            c->a[d] = ca[d] ? ca[d][s] : NAN;
            c->b[d] = cb[d] ? cb[d][s] : NAN;
        }
        c->separation = m->separation ? m->separation[s] : NAN;
        c->feature = m->feature ? m->feature[s] : 0;
    }
}

void contact_shape_get(const gjkb_bodies *b, uint32_t i, gjkb_shape *out)
{
    memset(out, 0, sizeof *out);
    out->kind = (gjkb_kind)b->kind[i];
    out->size[0] = b->sx[i];
    out->size[1] = b->sy[i];
    out->size[2] = b->sz[i];
    out->margin = b->margin ? b->margin[i] : 0.0f;
    out->hull = b->hull && b->kind[i] == GJKB_HULL ? b->hull[i] : 0;
    out->pos[0] = b->px[i];
    out->pos[1] = b->py[i];
    out->pos[2] = b->pz[i];
    out->rot[0] = b->qw[i];
    out->rot[1] = b->qx[i];
    out->rot[2] = b->qy[i];
    out->rot[3] = b->qz[i];
}

const char *contact_check_name(contact_check check)
{
    switch (check) {
    case CONTACT_COUNT: return "contact count";
    case CONTACT_DEPTH: return "depth";
    case CONTACT_NORMAL: return "normal";
    default: return "contact point";
    }
}

/* The reference's signed distance of a and b (contact mode); NaN when it
 * reaches no verdict. */
static double signed_distance(gjkb_context *ref_ctx, const gjkb_shape *a, const gjkb_shape *b)
{
    gjkb_query q = { GJKB_CONTACT, PROBE_ITERATIONS, 0.0, 0.0, NULL, NULL, NULL };
    gjkb_result r;
    if (gjkb_query_pair(ref_ctx, a, b, &q, &r) != GJKB_OK)
        return NAN;
    return r.status == GJKB_SEPARATED || r.status == GJKB_OVERLAP ? r.distance : NAN;
}

/* Signed distance from point p to shape s: 0 on its surface. */
static double point_offset(gjkb_context *ref_ctx, const gjkb_shape *s, const double p[3])
{
    gjkb_shape pt = { GJKB_SPHERE, { 0.0f, 0.0f, 0.0f }, 0.0f, 0, { p[0], p[1], p[2] }, { 1.0f, 0.0f, 0.0f, 0.0f } };
    return signed_distance(ref_ctx, s, &pt);
}

/* Records a failed check (the first one described). */
static unsigned fail(contact_report *rep, unsigned failed, contact_check check, double got, double want)
{
    if (!failed) {
        rep->check = check;
        rep->got = got;
        rep->want = want;
    }
    return failed | check;
}

/* n is unit, and B moved back by the signed distance along n just touches
 * A: the shortest translation is what n and distance claim. */
static unsigned check_normal(gjkb_context *ref_ctx, const gjkb_shape *a, const gjkb_shape *b, double tol,
                             const gjkb_result *got, contact_report *rep, unsigned failed)
{
    double len = sqrt(got->n[0] * got->n[0] + got->n[1] * got->n[1] + got->n[2] * got->n[2]);
    if (!(fabs(len - 1.0) <= UNIT_TOL))
        return fail(rep, failed, CONTACT_NORMAL, len, 1.0);
    gjkb_shape moved = *b;
    for (int k = 0; k < 3; k++)
        moved.pos[k] -= got->distance * got->n[k];
    double d = signed_distance(ref_ctx, a, &moved);
    return fabs(d) <= tol ? failed : fail(rep, failed, CONTACT_NORMAL, d, 0.0);
}

/* How far contact point c is from being right: its separation against
 * b - a along n, b - a against the normal line, a and b against their
 * surfaces (the largest of these). */
static double point_error(gjkb_context *ref_ctx, const gjkb_shape *a, const gjkb_shape *b, const gjkb_result *got,
                          const gjkb_contact *c)
{
    double ab[3] = { c->b[0] - c->a[0], c->b[1] - c->a[1], c->b[2] - c->a[2] };
    double along = ab[0] * got->n[0] + ab[1] * got->n[1] + ab[2] * got->n[2];
    double off = 0.0;
    for (int k = 0; k < 3; k++)
        off = fmax(off, fabs(ab[k] - c->separation * got->n[k]));
    double err = fmax(fabs(along - c->separation), off);
    if (!(err == err))  /* a NaN anywhere: never a pass */
        return INFINITY;
    double da = point_offset(ref_ctx, a, c->a), db = point_offset(ref_ctx, b, c->b);
    return (da == da && db == db) ? fmax(err, fmax(fabs(da), fabs(db))) : INFINITY;
}

static unsigned check_points(gjkb_context *ref_ctx, const gjkb_shape *a, const gjkb_shape *b, double tol,
                             const gjkb_result *got, contact_report *rep, unsigned failed)
{
    uint32_t n = got->contact_count < GJKB_MAX_CONTACTS ? got->contact_count : GJKB_MAX_CONTACTS;
    /* the first point is the deepest: its separation is the distance */
    if (n > 0 && !(fabs(got->contacts[0].separation - got->distance) <= tol))
        return fail(rep, failed, CONTACT_POINT, got->contacts[0].separation, got->distance);
    double worst = 0.0;
    for (uint32_t k = 0; k < n; k++)
        worst = fmax(worst, point_error(ref_ctx, a, b, got, &got->contacts[k]));
    return worst <= tol ? failed : fail(rep, failed, CONTACT_POINT, worst, 0.0);
}

/* The reference's contact count for the pair when its search starts from
 * the normal n (a warm start; NULL: its own start), or -1 when it does not
 * answer. */
static int count_from(gjkb_context *ref_ctx, const gjkb_shape *a, const gjkb_shape *b, const double *n)
{
    gjkb_query q = { GJKB_CONTACT, 0, 0.0, 0.0, n, n ? n + 1 : NULL, n ? n + 2 : NULL };
    gjkb_result r;
    if (gjkb_query_pair(ref_ctx, a, b, &q, &r) != GJKB_OK || r.status != GJKB_OVERLAP)
        return -1;
    return (int)r.contact_count;
}

unsigned contact_verify(gjkb_context *ref_ctx, const gjkb_shape *a, const gjkb_shape *b, double scale,
                        const gjkb_result *got, const gjkb_result *ref, contact_report *rep)
{
    double tol = VERIFY_CONTACT_TOL * scale;
    unsigned failed = 0;
    int overlap = got->status == GJKB_OVERLAP;
    /* Counts are compared where both answers have the same normal: where
     * the shortest translation is not unique (equal depths along two
     * axes), each normal is checked to meet the depth below, and the
     * faces most aligned with each may touch at different counts. */
    double along = got->n[0] * ref->n[0] + got->n[1] * ref->n[1] + got->n[2] * ref->n[2];
    bool same_normal = !(along < 1.0 - SAME_NORMAL);
    /* A feature on the rule's threshold (a segment tilted by about the
     * aligned angle) touches at one count or the other as the normal moves
     * within EPA's flat valley, so the reference's count depends on where
     * its search starts (a frame's warm axis): where the reference from its
     * own start or from our normal gives our count, both are its answers. */
    bool count_differs = same_normal && got->contact_count != ref->contact_count;
    if (count_differs && overlap && got->contact_count > 0)
        count_differs = count_from(ref_ctx, a, b, NULL) != (int)got->contact_count &&
                        count_from(ref_ctx, a, b, got->n) != (int)got->contact_count;
    if (count_differs || (overlap && got->contact_count == 0))
        failed = fail(rep, failed, CONTACT_COUNT, got->contact_count, ref->contact_count);
    if (overlap && !(fabs(got->distance - ref->distance) <= tol))
        failed = fail(rep, failed, CONTACT_DEPTH, got->distance, ref->distance);
    if (overlap || got->contact_count > 0) {
        failed = check_normal(ref_ctx, a, b, tol, got, rep, failed);
        failed = check_points(ref_ctx, a, b, tol, got, rep, failed);
    }
    return failed;
}
