/* world.h - the moving scene `gjkbatch run` steps frame by frame: mixed
 * bodies (every kind, shared hulls, some margins) flying through a flat box
 * at constant velocity, bouncing off its walls and spinning at constant
 * angular velocity; a tenth of them static. Everything comes from one seed
 * through splitmix64, so a seed names the same world on every platform.
 *
 * The box is a slab, wide in x and y and a few bodies deep in z, so that
 * the x-y picture of tools/snapshot.c shows every body. Its width grows
 * with the body count to keep the density, and with it the candidate pairs
 * per body, the same at any size. */
#ifndef GJKB_TOOLS_WORLD_H
#define GJKB_TOOLS_WORLD_H

#include "gjkbatch.h"
#include "scene.h"

#include <stdint.h>

/* Time step of one frame, seconds. */
#define WORLD_DT (1.0 / 60.0)

typedef struct world {
    /* bodies, SoA, in the layout gjkb_bodies views */
    uint32_t count, static_count;
    uint8_t *kind;
    uint8_t *flags;                 /* GJKB_BODY_STATIC or 0 */
    double *px, *py, *pz;
    float *qw, *qx, *qy, *qz;       /* the library's copy of rot */
    float *sx, *sy, *sz;
    float *margin;
    uint32_t *hull;
    double *radius;                 /* bounding radius about the position, margin included */

    /* motion: velocity, the rotation (double, the float copy is rounded
     * from it) and the rotation one frame applies, world frame */
    double *vx, *vy, *vz;
    double *rot[4];                 /* w, x, y, z */
    double *spin[4];

    /* Centres stay within [-half, half] on each axis (bodies may reach
     * their radius beyond). */
    double half[3];
    double max_radius;

    /* the hull library (a scene of no pairs), with each hull's radius */
    scene lib;
    double hull_radius[SCENE_HULLS];
} world;

/* Builds the world of `count` bodies (at least 1) for `seed`. Returns 0, or
 * -1 when out of memory (w is then empty). */
int world_create(world *w, uint32_t count, uint64_t seed);
void world_free(world *w);

/* Registers the hull library with a context that has no hulls yet (hull
 * ids then equal the library's indices). */
gjkb_error world_register_hulls(const world *w, gjkb_context *ctx);

gjkb_bodies world_bodies(const world *w);

/* Moves every body by one frame (WORLD_DT). */
void world_advance(world *w);

/* The point of body i farthest along the world direction d (any nonzero
 * length), margin included. */
void world_support(const world *w, uint32_t i, const double d[3], double out[3]);

#endif
