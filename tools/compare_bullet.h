/* compare_bullet.h - `gjkbatch run --compare bullet` (compare_bullet.c):
 * the run's world stepped through gjkb_step and through Bullet's
 * btCollisionWorld side by side, frame by frame in one process. */
#ifndef GJKB_TOOLS_COMPARE_BULLET_H
#define GJKB_TOOLS_COMPARE_BULLET_H

#include "gjkbatch.h"
#include "options.h"
#include "world.h"

/* What the comparison runs on: the options, the world (advanced frame by
 * frame here), and contexts with the world's hulls: ctx in the run's
 * mode (its pair cache set), hit for the hit-mode frame beside it, ref on
 * the reference backend to decide disagreements. */
typedef struct compare_setup {
    const options *o;
    world *w;
    gjkb_context *ctx, *hit, *ref;
} compare_setup;

/* Runs the frames and prints the report; the exit status. */
int compare_bullet(const compare_setup *cs);

#endif
