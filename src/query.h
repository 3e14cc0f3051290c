/* query.h - a query's arguments and answers (query.c). */
#ifndef GJKB_QUERY_H
#define GJKB_QUERY_H

#include "internal.h"

/* Checks mode and fills defaults; query may be NULL (distance mode). */
gjkb_error gjkb__params_resolve(gjkb_context *ctx, const gjkb_query *query, gjkb__params *out);

/* The results: status set, each point's x, y and z all set or all NULL. */
gjkb_error gjkb__check_results(gjkb_context *ctx, const gjkb_results *r);

/* A batch's pairs: bodies in range, kinds known, hulls registered; the
 * first offending pair gets the message. */
gjkb_error gjkb__check_pairs(gjkb_context *ctx, const gjkb_bodies *bodies, const gjkb_pairs *pairs);

/* One pair's answer into entry i of the caller's arrays (those not NULL). */
void gjkb__store_result(const gjkb_results *r, uint32_t i, const gjkb_result *res);

/* Contact mode: one pair's manifold into entry i of the caller's manifold
 * arrays (those not NULL; nothing without count). Slots from the pair's
 * count on: NaN, feature 0. */
void gjkb__store_manifold(const gjkb_results *r, uint32_t i, const gjkb_result *res);

/* Pair i's warm-start axis copied into axis, or NULL without warm axes. */
const double *gjkb__warm_axis(const gjkb_query *warm, uint32_t i, double axis[3]);

/* The answer of an invalid pair: GJKB_INVALID, NaN everywhere. */
gjkb_result gjkb__invalid_result(void);

#endif
