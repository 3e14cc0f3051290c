/* shape.h - one shape's host-side facts, the same on every backend: the
 * validity rule, the core's bounding radius, and a body of a SoA set as a
 * gjkb_shape. Below the pipeline, the broadphase and the reference, which
 * all apply this rule (the wide kernels apply it in float lanes). */
#ifndef GJKB_SHAPE_H
#define GJKB_SHAPE_H

#include "internal.h"

#include <math.h>
#include <stdbool.h>

/* A coordinate, size, margin or quaternion component is usable when it is
 * finite and within GJKB_MAX_COORD: beyond it float lanes cannot hold the
 * products GJK forms. */
static inline bool gjkb__coord_ok(double v)
{
    return isfinite(v) && fabs(v) <= GJKB_MAX_COORD;
}

/* Geometric validity of one shape: gjkb__coord_ok for sizes, margin and
 * rotation; sizes and margin >= 0; a rotation whose squared length, summed
 * in float, is at least 1e-30; a hull that is valid. Kind and hull id must
 * already be in range. Positions are a property of the pair:
 * gjkb__offset_valid. */
bool gjkb__shape_valid(const gjkb_context *ctx, const gjkb_shape *s);

/* A body as the broadphase sees it: gjkb__shape_valid, and every position
 * coordinate within gjkb__coord_ok. */
bool gjkb__body_valid(const gjkb_context *ctx, const gjkb_shape *s);

/* A pair's positions are valid when B's offset from A, subtracted in double
 * and rounded to float (what the wide kernels see), is finite and within
 * GJKB_MAX_COORD in every component. */
bool gjkb__offset_valid(const double a[3], const double b[3]);

/* Bounding radius of a shape's core about its local origin, margin
 * excluded (the shape must be valid). */
double gjkb__core_radius(const gjkb_context *ctx, const gjkb_shape *s);

/* The kind and hull id of a body are known: GJKB_ERR_KIND, GJKB_ERR_NULL
 * (a hull body without hull ids: hull is NULL) or GJKB_ERR_RANGE, with the
 * message "<what> <body>: ..." on ctx. */
gjkb_error gjkb__check_kind(gjkb_context *ctx, unsigned kind, const uint32_t *hull, uint32_t body, const char *what);

/* Body i of a SoA body set as a gjkb_shape (no checks). */
gjkb_shape gjkb__body_shape(const gjkb_bodies *bodies, uint32_t i);

#endif
