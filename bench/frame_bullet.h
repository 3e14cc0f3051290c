/* frame_bullet.h - Bullet's whole collision world on gjkbatch's bodies
 * (frame_bullet.cpp), for `gjkbatch run --compare bullet`: a C interface
 * so that the tool stays C and the library free of C++. Built only when
 * Bullet is found (GJKB_HAVE_BULLET). */
#ifndef GJKB_BENCH_FRAME_BULLET_H
#define GJKB_BENCH_FRAME_BULLET_H

#include "gjkbatch.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The broadphases compared: btDbvtBroadphase, and the sweep and prune
 * (btAxisSweep3, bt32BitAxisSweep3 past its 16-bit handle limit). */
enum { FRAME_BT_DBVT = 0, FRAME_BT_SWEEP = 1, FRAME_BT_KINDS = 2 };

/* The hull library: hull h is n[h] points (x, y, z) from xyz + 3 * first[h]. */
typedef struct frame_bullet_hulls {
    uint32_t count;
    const float *xyz;
    const uint32_t *first, *n;
} frame_bullet_hulls;

/* A frame's outcome: stage times (seconds: AABB update, broadphase pairs,
 * narrowphase dispatch; their sum is performDiscreteCollisionDetection),
 * the broadphase's pair count, and the touching pairs (a manifold point at
 * distance <= 0), a < b, sorted by (a, b), each with its deepest point's
 * distance and its manifold's point count. Valid until the next step. */
typedef struct frame_bullet_out {
    double seconds[3];
    uint32_t candidates;
    uint32_t touching;
    const uint32_t *a, *b;
    const double *distance;
    const uint8_t *points;
} frame_bullet_out;

typedef struct frame_bullet frame_bullet;

/* A btCollisionWorld (default collision configuration) holding one
 * collision object per body, shaped as gjkbatch sees it (see the .cpp);
 * bodies flagged GJKB_BODY_STATIC never pair with each other. lo and hi
 * bound the centres (the sweep and prune's world box). NULL when out of
 * memory. */
frame_bullet *frame_bullet_new(int kind, const gjkb_bodies *bodies, const uint8_t *flags,
                               const frame_bullet_hulls *hulls, const double lo[3], const double hi[3]);
/* "btDbvtBroadphase", "btAxisSweep3" or "bt32BitAxisSweep3". */
const char *frame_bullet_name(const frame_bullet *fb);
/* Moves every object to its body's pose (untimed), then runs the world's
 * collision detection (timed); 0, or -1 when out of memory. */
int frame_bullet_step(frame_bullet *fb, const gjkb_bodies *bodies, frame_bullet_out *out);
void frame_bullet_free(frame_bullet *fb);

#ifdef __cplusplus
}
#endif
#endif
