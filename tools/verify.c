/* verify.c - answers against the reference backend (verify.h). */
#include "verify.h"

#include "progress.h"
#include "scene.h"
#include "verify_contact.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Relative distance tolerance, and the band around touching inside which
 * a separated/overlap disagreement is expected of float kernels and
 * counted but not failed. Both relative to the pair's scale (sum of
 * bounding radii). */
#define VERIFY_DISTANCE_TOL 1e-4
#define VERIFY_TOUCH_BAND 1e-4
#define VERIFY_SHOW 10

/* Iteration bound of the reference when it reached the run's own bound on a
 * pair the tested backend answered: the oracle settles it with more
 * (curved shapes near contact converge slowly, in double too). Rare since
 * the reference's own default bound is GJKB_REFERENCE_MAX_ITERATIONS. */
#define VERIFY_REFERENCE_ITERATIONS 4096u

static double pair_scale(const pair_set *ps, uint32_t i)
{
    return ps->radius[ps->pairs.a[i]] + ps->radius[ps->pairs.b[i]];
}

/* One pair on ctx in the given mode: its status, and its distance (NaN in
 * hit mode). */
static int pair_query(gjkb_context *ctx, const pair_set *ps, uint32_t i, gjkb_mode mode, uint32_t max_iterations,
                      double *distance)
{
    gjkb_pairs one = { 1, &ps->pairs.a[i], &ps->pairs.b[i] };
    gjkb_query q = { mode, max_iterations, 0.0, 0.0, NULL, NULL, NULL };
    uint8_t st = GJKB_INVALID;
    gjkb_results r;
    memset(&r, 0, sizeof r);
    r.status = &st;
    r.distance = distance;
    *distance = NAN;
    if (gjkb_query_batch(ctx, &ps->bodies, &one, &q, &r) != GJKB_OK)
        return GJKB_INVALID;
    return st;
}

/* Distance of one pair in distance mode on ctx (for classifying hit-mode
 * disagreements, which carry no distance). */
static double pair_distance(gjkb_context *ctx, const pair_set *ps, uint32_t i, uint32_t max_iterations)
{
    double d;
    return pair_query(ctx, ps, i, GJKB_DISTANCE, max_iterations, &d) == GJKB_SEPARATED ? d : NAN;
}

int verify_failed(const verify_counts *vc)
{
    uint64_t contact = 0;
    for (int k = 0; k < CONTACT_CHECKS; k++)
        contact += vc->contact[k];
    return vc->status_mismatch || vc->distance_mismatch || contact;
}

/* ---- mismatch lines ------------------------------------------------------- */

/* The start of one of the first VERIFY_SHOW mismatch lines, up to
 * "what: "; 0 when enough were shown. */
static int mismatch_prefix(verify_counts *vc, const verify_job *job, uint32_t i, const char *what)
{
    if (vc->shown++ >= VERIFY_SHOW)
        return 0;
    progress_clear();
    const pair_set *ps = &job->ps;
    uint32_t a = ps->pairs.a[i], b = ps->pairs.b[i];
    if (job->frame)
        fprintf(stderr, "  mismatch frame %lu pair %lu (bodies %lu and %lu, ", (unsigned long)job->frame,
                (unsigned long)i, (unsigned long)a, (unsigned long)b);
    else
        fprintf(stderr, "  mismatch pair %lu (", (unsigned long)i);
    fprintf(stderr, "%s-%s, scale %.6g): %s: ", gjkb_kind_name((gjkb_kind)ps->bodies.kind[a]),
            gjkb_kind_name((gjkb_kind)ps->bodies.kind[b]), pair_scale(ps, i), what);
    return 1;
}

static void show_mismatch(verify_counts *vc, const verify_job *job, uint32_t i, const char *what, int st, int rst,
                          double d, double rd)
{
    if (mismatch_prefix(vc, job, i, what))
        fprintf(stderr, "%s %.9g, reference %s %.9g\n", gjkb_status_name((gjkb_status)st), d,
                gjkb_status_name((gjkb_status)rst), rd);
}

/* The pair as a pair-file line, to ask again with `gjkbatch query` (a
 * hull's points are not repeated: its id is the scene's). */
static void show_pair_line(const gjkb_shape *a, const gjkb_shape *b)
{
    fputs("    pair ", stderr);
    scene_write_shape(stderr, a);
    fputs("   ", stderr);
    scene_write_shape(stderr, b);
    fputc('\n', stderr);
}

/* The axis the pair started from (a frame's warm start: gjkb_query's
 * warm_x/y/z gives the same answer again) and the tested normal. */
static void show_warm_axis(const verify_job *job, uint32_t i, const gjkb_result *got)
{
    if (job->warm_x && job->warm_x[i] == job->warm_x[i])
        fprintf(stderr, "    warm %.17g %.17g %.17g\n", job->warm_x[i], job->warm_y[i], job->warm_z[i]);
    fprintf(stderr, "    normal %.9g %.9g %.9g\n", got->n[0], got->n[1], got->n[2]);
}

/* ---- one pair --------------------------------------------------------------- */

/* Contact mode, pair i whose statuses agree: its contacts against the
 * reference's (asked again with more iterations where the batch's
 * reference stopped at its bound). */
static void verify_contacts(const verify_job *job, uint32_t i, const gjkb_results *r, const gjkb_results *ref,
                            verify_counts *vc)
{
    const pair_set *ps = &job->ps;
    gjkb_shape a, b;
    gjkb_result got, want;
    contact_shape_get(&ps->bodies, ps->pairs.a[i], &a);
    contact_shape_get(&ps->bodies, ps->pairs.b[i], &b);
    contact_result_get(r, i, &got);
    contact_result_get(ref, i, &want);
    if (want.status == GJKB_LIMIT) {
        gjkb_query q = { GJKB_CONTACT, VERIFY_REFERENCE_ITERATIONS, 0.0, 0.0, NULL, NULL, NULL };
        if (gjkb_query_pair(job->ref_ctx, &a, &b, &q, &want) != GJKB_OK)
            want.status = GJKB_INVALID;
    }
    contact_report rep;
    unsigned failed = contact_verify(job->ref_ctx, &a, &b, pair_scale(ps, i), &got, &want, &rep);
    vc->contact_pairs += got.status == GJKB_OVERLAP || got.contact_count > 0;
    vc->contact_points += got.contact_count;
    for (int k = 0; k < CONTACT_CHECKS; k++)
        vc->contact[k] += (failed >> k) & 1u;
    if (failed && mismatch_prefix(vc, job, i, contact_check_name(rep.check))) {
        fprintf(stderr, "%.9g, want %.9g (%s, reference %s)\n", rep.got, rep.want, gjkb_status_name(got.status),
                gjkb_status_name(want.status));
        show_pair_line(&a, &b);
        show_warm_axis(job, i, &got);
    }
}

/* Whether statuses st (tested) and rst (reference) disagree beyond the
 * touching band; a disagreement within it is counted in vc. */
static int status_differs(const verify_job *job, uint32_t i, int st, int rst, double d, double rd,
                          verify_counts *vc)
{
    int touch = (st == GJKB_SEPARATED && rst == GJKB_OVERLAP) || (st == GJKB_OVERLAP && rst == GJKB_SEPARATED);
    if (!touch)
        return 1;
    /* The separated side's distance says how close to touching the pair
     * is (hit mode has none: the pair is asked again in distance mode). */
    double gap = st == GJKB_SEPARATED ? d : rd;
    if (job->mode == GJKB_HIT)
        gap = pair_distance(st == GJKB_SEPARATED ? job->ctx : job->ref_ctx, &job->ps, i, job->max_iterations);
    if (gap <= VERIFY_TOUCH_BAND * pair_scale(&job->ps, i)) {
        vc->near_touching++;
        return 0;
    }
    return 1;
}

void verify(const verify_job *job, const gjkb_results *r, const gjkb_results *ref, verify_counts *vc)
{
    const pair_set *ps = &job->ps;
    vc->checked += ps->pairs.count;
    for (uint32_t i = 0; i < ps->pairs.count; i++) {
        int st = r->status[i], rst = ref->status[i];
        double d = r->distance[i], rd = ref->distance[i];
        if (rst == GJKB_LIMIT && (st == GJKB_SEPARATED || st == GJKB_OVERLAP)) {
            vc->reference_limits++;
            rst = pair_query(job->ref_ctx, ps, i, job->mode, VERIFY_REFERENCE_ITERATIONS, &rd);
        }
        if (st != rst) {
            if (status_differs(job, i, st, rst, d, rd, vc)) {
                vc->status_mismatch++;
                show_mismatch(vc, job, i, "status", st, rst, d, rd);
            }
            continue;
        }
        if (job->mode != GJKB_HIT && st == GJKB_SEPARATED &&
            !(fabs(d - rd) <= VERIFY_DISTANCE_TOL * pair_scale(ps, i))) {
            vc->distance_mismatch++;
            show_mismatch(vc, job, i, "distance", st, rst, d, rd);
        }
        if (job->mode == GJKB_CONTACT && (st == GJKB_SEPARATED || st == GJKB_OVERLAP))
            verify_contacts(job, i, r, ref, vc);
    }
}

/* ---- summary ----------------------------------------------------------------- */

/* The contact-mode lines of the verification summary. */
static void print_contact_counts(const verify_counts *vc, int width)
{
    static const char *const label[CONTACT_CHECKS] = { "count mismatches:", "depth mismatches:",
                                                        "normal mismatches:", "point mismatches:" };
    static const char *const meaning[CONTACT_CHECKS] = {
        "contact counts differ from the reference along the same normal, or an overlap has none",
        "both overlap, depths differ by >",
        "n not unit, or B moved back by the distance along n not touching A within",
        "a contact point off its surface or its normal line by >",
    };
    printf("%-*s %llu pairs, %llu points (overlapping or with contact points)\n", width, "contacts checked:",
           (unsigned long long)vc->contact_pairs, (unsigned long long)vc->contact_points);
    for (int k = 0; k < CONTACT_CHECKS; k++)
        printf(k ? "%-*s %llu (%s %g x scale)\n" : "%-*s %llu (%s)\n", width, label[k],
               (unsigned long long)vc->contact[k], meaning[k], VERIFY_CONTACT_TOL);
}

void print_verify_counts(const verify_counts *vc, int show_distance, gjkb_mode mode, int width)
{
    printf("%-*s %llu (status differs from the reference backend)\n", width, "status mismatches:",
           (unsigned long long)vc->status_mismatch);
    if (show_distance)
        printf("%-*s %llu (both separated, distances differ by > %g x scale)\n", width, "distance mismatches:",
               (unsigned long long)vc->distance_mismatch, VERIFY_DISTANCE_TOL);
    if (mode == GJKB_CONTACT)
        print_contact_counts(vc, width);
    printf("%-*s %llu (separated vs overlap within %g x scale of contact; allowed)\n", width, "near touching:",
           (unsigned long long)vc->near_touching, VERIFY_TOUCH_BAND);
    /* Always shown: a re-ask means the oracle's own bound was too small. */
    printf("%-*s %llu (the reference reached its iteration bound; asked again with %u)\n", width,
           "reference re-asks:", (unsigned long long)vc->reference_limits, VERIFY_REFERENCE_ITERATIONS);
}
