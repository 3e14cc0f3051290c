/* scene.h - the deterministic mixed pair scene `gjkbatch batch` times:
 * bodies of every kind with random orientations and some margins, a library
 * of shared hulls (which `gjkbatch run`'s world uses too), and the pairs to
 * test. Everything comes from one seed through splitmix64, so a seed names
 * the same scene on every platform.
 *
 * Bodies and pairs are kept apart (pairs index bodies), as
 * gjkb_query_batch takes them. */
#ifndef GJKB_TOOLS_SCENE_H
#define GJKB_TOOLS_SCENE_H

#include "gjkbatch.h"
#include "toolkit.h"

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* Hull library: SCENE_HULLS hulls of SCENE_HULL_MIN..SCENE_HULL_MAX points. */
#define SCENE_HULLS 64
#define SCENE_HULL_MIN 16
#define SCENE_HULL_MAX 64

typedef struct scene {
    /* bodies, SoA, in the layout gjkb_bodies views */
    uint32_t body_count;
    uint8_t *kind;
    double *px, *py, *pz;
    float *qw, *qx, *qy, *qz;
    float *sx, *sy, *sz;
    float *margin;
    uint32_t *hull;             /* index into the hull library */
    double *radius;             /* bounding radius about the position, margin included */

    /* pairs: body pa[i] (A) against body pb[i] (B) */
    uint32_t pair_count;
    uint32_t *pa, *pb;

    /* hull library: hull h is points [first[h], first[h] + n[h]) of xyz */
    uint32_t hull_count;
    uint32_t hull_first[SCENE_HULLS], hull_n[SCENE_HULLS];
    float *hull_xyz;
} scene;

/* Builds the default mixed batch: pair_count pairs, each a fresh A and B
 * (kinds uniform over all six), B placed near A so that about half of the
 * pairs overlap. Returns 0, or -1 when out of memory (s is then empty). */
int scene_generate(scene *s, uint32_t pair_count, uint64_t seed);

void scene_free(scene *s);

/* Registers the hull library with a context that has no hulls yet, so that
 * library ids equal the scene's hull indices (GJKB_ERR_ARGUMENT if it
 * already has some). */
gjkb_error scene_register_hulls(const scene *s, gjkb_context *ctx);

/* Draws a random shape of a random kind (sizes 0.25 to 1, a margin on a
 * quarter of them, a random library hull) into body i of c; returns its
 * bounding radius about its centre, margin included (hull_radius: each
 * library hull's). The scene and run's world draw their bodies alike. */
double scene_random_shape(shape_columns c, uint32_t i, uint64_t *state, const double *hull_radius);

gjkb_bodies scene_bodies(const scene *s);
gjkb_pairs scene_pairs(const scene *s);

/* Writes the scene as a pair file (docs/file-format.md) that `gjkbatch
 * query` answers exactly as the generated arrays: floats with 9 and
 * doubles with 17 significant digits, which round-trip. Returns 0, or -1
 * when writing failed. */
int scene_write_pairs(const scene *s, FILE *out);
/* One body of a pair-file line: kind, sizes, margin, position and
 * quaternion (a hull by its id). Negative on a write error. */
int scene_write_shape(FILE *out, const gjkb_shape *s);

/* The pair's scale: the sum of its two bounding radii, margins included
 * (the library's tolerances are relative to the same quantity). */
double scene_pair_scale(const scene *s, uint32_t pair);

#endif
