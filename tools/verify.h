/* verify.h - checking a batch of answers against the reference backend,
 * for `gjkbatch batch` and `gjkbatch run --verify`: statuses, distances
 * and (contact mode, verify_contact.h) contacts, with the mismatches
 * counted, the first few shown on stderr, and the summary lines. The rules
 * are in docs/cli.md. */
#ifndef GJKB_TOOLS_VERIFY_H
#define GJKB_TOOLS_VERIFY_H

#include "gjkbatch.h"

#include <stdint.h>

/* Pairs to verify: the bodies, the pair list, and every body's bounding
 * radius, margin included (a pair's scale is the sum of its two). */
typedef struct pair_set {
    gjkb_bodies bodies;
    gjkb_pairs pairs;
    const double *radius;
} pair_set;

/* One comparison: the pairs, the mode and iteration bound they were asked
 * in, the tested context and the reference's (both hold the hulls), the
 * frame for the messages (0: a batch) and the warm axes, if any. */
typedef struct verify_job {
    pair_set ps;
    gjkb_mode mode;
    uint32_t max_iterations;
    gjkb_context *ctx, *ref_ctx;
    uint32_t frame;
    const double *warm_x, *warm_y, *warm_z; /* the axes the pairs started from (NULL: cold) */
} verify_job;

/* Contact mode adds: the pairs and points checked by contact_verify, and
 * its mismatches by check (contact[k] counts the check of bit 1 << k). */
enum { CONTACT_CHECKS = 4 };
typedef struct verify_counts {
    uint64_t checked, status_mismatch, distance_mismatch, near_touching, shown, reference_limits;
    uint64_t contact_pairs, contact_points, contact[CONTACT_CHECKS];
} verify_counts;

/* Compares the answers r against the reference answers ref, adding to vc. */
void verify(const verify_job *job, const gjkb_results *r, const gjkb_results *ref, verify_counts *vc);

/* Whether any mismatch that fails the check was counted. */
int verify_failed(const verify_counts *vc);

/* The summary lines (label width `width`). show_distance: print the
 * distance line (hit mode compares no distances); contact mode adds its
 * own checks. */
void print_verify_counts(const verify_counts *vc, int show_distance, gjkb_mode mode, int width);

#endif
