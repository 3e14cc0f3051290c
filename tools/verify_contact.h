/* verify_contact.h - checks one pair's contact-mode answer (signed
 * distance, normal, manifold) against the double-precision reference, for
 * `gjkbatch batch` and `gjkbatch run --verify`. The rules are in
 * docs/cli.md ("Contact mode"). Status agreement is the caller's (as in the
 * other modes); these checks run on pairs whose statuses agree.
 *
 * The reference is asked twice over: its own answer for the pair is
 * compared (counts, depth), and it probes the tested answer's geometry
 * with gjkb_query_pair in contact mode: the pair with B moved back by the
 * distance along n must just touch, and every contact point must lie on
 * its shape's surface (a zero-size sphere there has signed distance 0). */
#ifndef GJKB_TOOLS_VERIFY_CONTACT_H
#define GJKB_TOOLS_VERIFY_CONTACT_H

#include "gjkbatch.h"

#include <stdint.h>

/* Every check's tolerance, relative to the pair's scale (the sum of the two
 * bounding radii, margins included): the library's documented accuracy. */
#define VERIFY_CONTACT_TOL 1e-4

/* The checks, one bit each. */
typedef enum contact_check {
    CONTACT_COUNT = 1,   /* contact counts differ, or an overlap has none */
    CONTACT_DEPTH = 2,   /* both overlap and the signed distances differ */
    CONTACT_NORMAL = 4,  /* n not unit, or B moved by -distance along n does not just touch A */
    CONTACT_POINT = 8    /* a point off its surface, or not matching its separation and n */
} contact_check;

/* The first failed check, with its value and what it should be. */
typedef struct contact_report {
    contact_check check;
    double got, want;
} contact_report;

/* Pair i of batch results r as one gjkb_result (missing arrays give NaN
 * and no contacts). */
void contact_result_get(const gjkb_results *r, uint32_t i, gjkb_result *out);

/* Body i of b as a gjkb_shape for gjkb_query_pair. */
void contact_shape_get(const gjkb_bodies *b, uint32_t i, gjkb_shape *out);

/* Checks got against the reference's answer ref for the same pair (a, b
 * with the given scale); ref_ctx answers the probes and holds the hulls
 * the shapes name. Returns the failed checks' bits (0: all passed) and
 * describes the first in *rep. */
unsigned contact_verify(gjkb_context *ref_ctx, const gjkb_shape *a, const gjkb_shape *b, double scale,
                        const gjkb_result *got, const gjkb_result *ref, contact_report *rep);

/* A short name of a check ("contact count", "depth", "normal", "contact
 * point"). */
const char *contact_check_name(contact_check check);

#endif
