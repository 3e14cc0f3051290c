/* gjk.inl - the one body of the wide GJK kernel: hit, distance, contact.
 *
 * Included by one tiny translation unit per instruction set, after its
 * wide_<isa>.h and with GJKB_FN(name) adding the width suffix to the
 * exported symbols. Everything else is static, so each unit gets its own
 * copy compiled for its own flags.
 *
 * Each lane is one pair, in A's local frame scaled to order one. All lanes
 * run in lockstep; a lane that has its answer is frozen: every state update
 * is a select on the lane's `active` mask, so a lane's result never depends
 * on its neighbours or on the width. Blocks that no active lane needs (a
 * simplex size, cones, hulls) are skipped bundle-wide, which changes time,
 * never bits. GJK runs on the cores (margins zero); margins are applied to
 * the answer.
 *
 * The parts, one concept a file, in the order they build on each other:
 *   shape.inl    the shape core: kinds, validity, rotation, analytic support
 *   support.inl  hull support; the support point of the pair's difference
 *   sat.inl      two boxes' separating axes: early verdicts (hit, distance)
 *   pack.inl     a bundle's pairs into their lanes, in the pair's frame
 *   simplex.inl  the simplex cascade both loops share, the final simplex
 *   verdict.inl  lane verdicts and the answers written back
 *   closest.inl  the closest-point loop (Gilbert, Johnson, Keerthi 1988)
 *   light.inl    the light loop: triple-product directions, no weights
 *   lanes.inl    the lane scheduler: passes, pauses, queues, hand-overs
 *   contact_box.inl, manifold_box.inl  two boxes' depth and manifold
 *   contact_sphere.inl   a sphere against a rounded kind, in closed form
 *   contact_curved.inl   a capsule or a box near a cylinder or a cone: exact axis
 *   refine.inl           EPA's normal on a cylinder or a cone, made exact
 *   epa.inl      the depth of overlapping cores, from the final simplex
 *   manifold.inl the contact points of every other kind pair, lane by lane
 *   contact.inl  contact mode: closed forms, the rest through the loops
 *   records.inl  per-body records
 * A query is a table of loop descriptors below (docs/extending.md). */

#include "gjkbatch.h"
#include "kernel/packed.h"

#include <math.h>
#include <string.h>

/* Relative duality gap at which a distance has converged, and the same as an
 * absolute floor (scaled units squared) for nearly touching cores. */
#define GJKB_K_EPS_REL 1e-6f
#define GJKB_K_EPS_ABS 1e-11f
/* Steps in a row whose |v|^2 only ties the previous one, before a lane stops. */
#define GJKB_K_TIES 6.0f
#define GJKB_K_TIE_SLACK 1e-6f
/* A lane that stopped without converging (no progress in float, or the
 * iteration bound) while its duality gap is still above this fraction of
 * |v|^2 is handed to the double-precision reference: curved shapes near
 * touching can stall float GJK well before the tolerance. Rare, and the
 * decision is per lane, so results stay bit-identical across widths. */
#define GJKB_K_REFINE 1e-4f
/* ... or while the distance it leaves open (the gap over |v|, scaled
 * units, at most the pair's scale) is above this: the documented accuracy
 * at any gap. Contact mode's witnesses must lie on the surfaces, which a
 * stalled lane's miss by up to that distance: there it is GJKB_K_WITNESS. */
#define GJKB_K_OPEN 1e-4f
#define GJKB_K_WITNESS 2e-6f
/* Steps per pass, hit and distance mode: most hit lanes are done in 4 (a
 * tetrahedron), most distance lanes in 6. Changes time only; build-time
 * overridable for tuning. */
#ifndef GJKB_K_HIT_CAP
#define GJKB_K_HIT_CAP 4u
#endif
#ifndef GJKB_K_DIST_CAP
#define GJKB_K_DIST_CAP 6u
#endif
_Static_assert(GJKB_K_HIT_CAP > 0 && GJKB_K_DIST_CAP > 0, "a pass takes at least one step");
/* |v|^2 below this (scaled units) means the cores overlap, unless the
 * pair's touching band is narrower still (zero-size shapes: their band is
 * zero, and any real gap separates them, as in the reference). */
#define GJKB_K_TINY 1e-12f
/* Distance mode: a pair whose offset exceeds this many times its extent is
 * answered by the double-precision reference. Float GJK's distance error
 * grows with the offset (about 2^-24 of it), so beyond 2^8 extents it could
 * leave the documented tolerance; a broadphase never hands over such pairs,
 * so the cost is only theirs. */
#define GJKB_K_FAR 0x1p8f

/* A face within the band proves only if its normal is well formed:
 * |ab x ac|^2 above this fraction of |ab|^2 |ac|^2 (an angle of about 1e-3
 * rad), so that a sliver's rounded plane cannot fake a contact. */
#define GJKB_K_SLIVER 1e-6f
#include "kernel/shape.inl"
#include "kernel/support.inl"
#include "kernel/sat.inl"
#include "kernel/pack.inl"
#include "kernel/simplex.inl"
#include "kernel/verdict.inl"
#include "kernel/manifold_box.inl"
#include "kernel/contact_sphere.inl"
#include "kernel/contact_box.inl"
#include "kernel/apart_box.inl"
#include "kernel/closest.inl"
#include "kernel/light.inl"
#include "kernel/lanes.inl"
#include "kernel/contact_curved.inl"
#include "kernel/refine.inl"
#include "kernel/face_axis.inl"
#include "kernel/epa.inl"
#include "kernel/manifold.inl"
#include "kernel/contact.inl"
#include "kernel/records.inl"

/* ---- the queries: their loops, in the scheduler's terms --------------- */

/* One bundle function per loop and mode, so hit mode carries no witness
 * state at all. */
static GJKB_INLINE unsigned proof_bundle(const loop_call *c, unsigned *handover)
{
    return lt_bundle(c, handover, 0, 0);
}
static GJKB_INLINE unsigned light_bundle(const loop_call *c, unsigned *handover)
{
    return lt_bundle(c, handover, 1, 0);
}
static GJKB_INLINE unsigned contact_light_bundle(const loop_call *c, unsigned *handover)
{
    return lt_bundle(c, handover, 1, 1);
}
static GJKB_INLINE unsigned hit_bundle(const loop_call *c, unsigned *handover)
{
    *handover = 0;
    return cl_bundle(c, 0, 0);
}
static GJKB_INLINE unsigned distance_bundle(const loop_call *c, unsigned *handover)
{
    *handover = 0;
    return cl_bundle(c, 1, 0);
}
static GJKB_INLINE unsigned contact_bundle(const loop_call *c, unsigned *handover)
{
    *handover = 0;
    return cl_bundle(c, 1, 1);
}

/* Hit mode: the proof loop, then the closest-point loop afresh for the
 * lanes it could not prove (their proof steps counted). */
static const loop_desc k_hit_loops[] = {
    { .bundle = proof_bundle, .rows = LT_ROWS_HIT, .witnesses = 0, .cap = GJKB_K_HIT_CAP,
      .steps = GJKB_K_PROOF_STEPS, .next = 1, .hand_rows = 0 },
    { .bundle = hit_bundle, .rows = CL_ROWS_HIT, .witnesses = 0, .cap = GJKB_K_HIT_CAP, .next = -1 },
};

/* Distance mode: the light loop, then the closest-point loop from the
 * simplex it reached. */
static const loop_desc k_distance_loops[] = {
    { .bundle = light_bundle, .rows = LT_ROWS_DIST, .witnesses = 1, .cap = GJKB_K_DIST_CAP,
      .steps = GJKB_K_LIGHT_STEPS, .next = 1, .hand_rows = CL_ROWS_DIST },
    { .bundle = distance_bundle, .rows = CL_ROWS_DIST, .witnesses = 1, .cap = GJKB_K_DIST_CAP, .next = -1 },
};

/* Contact mode: distance mode's loops, each handing its final simplex to
 * the depth solver where the cores overlap. */
static const loop_desc k_contact_loops[] = {
    { .bundle = contact_light_bundle, .rows = LT_ROWS_DIST, .witnesses = 1, .final = 1, .cap = GJKB_K_DIST_CAP,
      .steps = GJKB_K_LIGHT_STEPS, .next = 1, .hand_rows = CL_ROWS_DIST },
    { .bundle = contact_bundle, .rows = CL_ROWS_DIST, .witnesses = 1, .final = 1, .cap = GJKB_K_DIST_CAP,
      .next = -1 },
};

/* One scheduler per query, each a function of its own (so that neither's
 * registers are planned around the other's). */
__attribute__((noinline)) GJKB_FLATTEN static void run_hit(const gjkb__world *w, uint32_t count,
                                                           const gjkb__lanes *l)
{
    ls_run(w, count, l, k_hit_loops);
}

__attribute__((noinline)) GJKB_FLATTEN static void run_distance(const gjkb__world *w, uint32_t count,
                                                                const gjkb__lanes *l)
{
    ls_run(w, count, l, k_distance_loops);
}

__attribute__((noinline)) GJKB_FLATTEN static void run_contact(const gjkb__world *w, uint32_t count,
                                                               const gjkb__lanes *l)
{
    ct_run(w, count, l, k_contact_loops);
}

/* The exported entry: the lanes [0, count) of a chunk. */
void GJKB_FN(gjkb__gjk_run)(const gjkb__world *w, uint32_t count, const gjkb__lanes *l);
void GJKB_FN(gjkb__gjk_run)(const gjkb__world *w, uint32_t count, const gjkb__lanes *l)
{
    if (w->contact)
        run_contact(w, count, l);
    else if (w->distance_mode)
        run_distance(w, count, l);
    else
        run_hit(w, count, l);
}
