/* reference.h - the independent reference GJK (reference.c). */
#ifndef GJKB_REFERENCE_H
#define GJKB_REFERENCE_H

#include "internal.h"

/* Answers one valid pair in double precision, in A's local frame. a and b
 * must have passed gjkb__shape_valid; warm is an optional world axis (NULL,
 * zero or non-finite: use the centre offset). */
gjkb_result gjkb__ref_query(const gjkb_context *ctx, const gjkb_shape *a, const gjkb_shape *b,
                            const gjkb__params *p, const double warm[3]);

#endif
