/* fuzz_world.h - a small gjkbatch world decoded from fuzzer bytes (bodies,
 * hulls, pairs, a query and the broadphase options), what the public
 * header promises about it (which pairs are valid, which calls must
 * succeed), and a printer in the pair-file format so a finding can be
 * replayed with `gjkbatch query`. */
#ifndef GJKB_FUZZ_WORLD_H
#define GJKB_FUZZ_WORLD_H

#include "gjkbatch.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define FW_MAX_BODIES 80u
#define FW_MAX_PAIRS 40u
#define FW_MAX_HULLS 3u
#define FW_MAX_POINTS 40u
#define FW_MAX_EDITS 8u
/* gjkb_step on FW_MAX_BODIES bodies finds at most this many pairs. */
#define FW_MAX_FRAME_PAIRS (FW_MAX_BODIES * (FW_MAX_BODIES - 1u) / 2u)

/* A hull body's hull_ix: an id no context has registered. */
#define FW_HULL_UNREGISTERED UINT32_MAX

/* Arguments that break a documented rule on purpose (fw_world.odd). */
typedef enum fw_odd {
    FW_ODD_NONE = 0,
    FW_ODD_MODE,          /* a mode that is none of hit, distance, contact */
    FW_ODD_TOLERANCE,     /* tolerance outside (0, 1): negative, NaN, 1 */
    FW_ODD_MAX_DISTANCE,  /* negative or NaN */
    FW_ODD_NO_HULL_IDS,   /* bodies.hull NULL */
    FW_ODD_POINT_GROUP,   /* results ax without ay, az */
    FW_ODD_NO_STATUS,     /* results.status NULL */
    FW_ODD_WARM_GROUP,    /* warm_x without warm_y, warm_z */
    FW_ODD_NO_SIZES,      /* bodies.sx NULL */
    FW_ODD_STEP_WARM,     /* warm-start arrays given to gjkb_step */
    FW_ODD_MANIFOLD_GROUP,    /* manifold ax without ay, az */
    FW_ODD_MANIFOLD_NO_COUNT, /* manifold separation without count */
    FW_ODD_COUNT
} fw_odd;

/* Which result arrays the batch call gets besides status. */
enum { FW_OUT_ALL, FW_OUT_STATUS, FW_OUT_SCALARS, FW_OUT_POINTS, FW_OUT_COUNT };
/* Which manifold arrays (gjkb_results.manifold) it gets, in every mode:
 * contact mode fills them, hit and distance modes must leave them alone. */
enum { FW_MAN_NONE, FW_MAN_ALL, FW_MAN_COUNT, FW_MAN_POINTS, FW_MAN_SEPARATION, FW_MAN_KINDS };

typedef struct fw_hull {
    uint32_t n;
    bool null_points;            /* n == 0 registered with xyz NULL */
    float xyz[3 * FW_MAX_POINTS];
} fw_hull;

typedef struct fw_world {
    uint32_t nb, nh, np;
    uint8_t kind[FW_MAX_BODIES];
    double px[FW_MAX_BODIES], py[FW_MAX_BODIES], pz[FW_MAX_BODIES];
    float qw[FW_MAX_BODIES], qx[FW_MAX_BODIES], qy[FW_MAX_BODIES], qz[FW_MAX_BODIES];
    float sx[FW_MAX_BODIES], sy[FW_MAX_BODIES], sz[FW_MAX_BODIES];
    float margin[FW_MAX_BODIES];
    uint32_t hull_ix[FW_MAX_BODIES];   /* index into hulls[], or FW_HULL_UNREGISTERED */
    uint8_t flags[FW_MAX_BODIES];      /* GJKB_BODY_* and junk bits */
    fw_hull hulls[FW_MAX_HULLS];
    uint32_t pa[FW_MAX_PAIRS], pb[FW_MAX_PAIRS];

    int mode;                          /* raw: may be none of hit, distance, contact */
    uint32_t max_iterations;
    double tolerance, max_distance;
    bool warm;
    double wx[FW_MAX_PAIRS], wy[FW_MAX_PAIRS], wz[FW_MAX_PAIRS];

    bool margins, use_flags, use_filter, gather;
    uint8_t filter_seed, outputs, manifold;
    fw_odd odd;

    /* find_pairs is also run on the bounds with these boxes overwritten:
     * field 0-2 min x, y, z, 3-5 max x, y, z */
    uint32_t nedits;
    uint32_t edit_body[FW_MAX_EDITS];
    uint8_t edit_field[FW_MAX_EDITS];
    float edit_value[FW_MAX_EDITS];
} fw_world;

void fw_decode(fw_world *w, const uint8_t *data, size_t size);

/* What the header promises about a pair or a body: definitely valid,
 * definitely invalid, or not said (a NaN in a size the kind ignores; a
 * finite position beyond GJKB_MAX_COORD for the bounds). */
typedef enum fw_verdict { FW_VALID, FW_INVALID, FW_UNSAID } fw_verdict;

fw_verdict fw_pair_verdict(const fw_world *w, uint32_t a, uint32_t b);
fw_verdict fw_body_verdict(const fw_world *w, uint32_t i);
/* The pair's scale as the library takes it (gjkbatch.h, Conventions): the
 * sum of the two bodies' bounding radii about their origins, margins
 * included. Meaningful for pairs that are not invalid. */
double fw_pair_scale(const fw_world *w, uint32_t a, uint32_t b);

/* What the header says a call must return for the world's arguments:
 * GJKB_OK (all well formed), an error (a documented misuse), or nothing
 * (tolerance or max_distance out of range: no range is documented). */
typedef enum fw_args { FW_ARGS_OK, FW_ARGS_BAD, FW_ARGS_UNSAID } fw_args;

fw_args fw_batch_args(const fw_world *w);    /* gjkb_query_batch on the pairs */
fw_args fw_bodies_args(const fw_world *w);   /* gjkb_bounds on every body */
fw_args fw_step_args(const fw_world *w);     /* gjkb_step */

/* The world as a pair file (hulls, then one line per pair), with the
 * query and what a pair file cannot say in comments. */
void fw_print(FILE *out, const fw_world *w);
/* Bodies a and b as one pair line (a pair of a frame, say). */
void fw_print_bodies(FILE *out, const fw_world *w, uint32_t a, uint32_t b);

#endif
