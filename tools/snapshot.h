/* snapshot.h - one frame of `gjkbatch run` as an SVG picture: the world
 * seen from above (x right, y up, z dropped), every body as the outline of
 * its projection, static bodies shaded, bodies in an overlapping pair in
 * red with a blue line joining the centres of each overlapping pair. */
#ifndef GJKB_TOOLS_SNAPSHOT_H
#define GJKB_TOOLS_SNAPSHOT_H

#include "gjkbatch.h"
#include "world.h"

#include <stdio.h>

/* What the caption says about the frame. */
typedef struct snapshot_label {
    uint32_t frame, frames;
    const char *backend;
} snapshot_label;

/* Writes the picture of w with the frame's candidate pairs and their
 * statuses (GJKB_OVERLAP is highlighted). Returns 0, or -1 when writing
 * failed or memory ran out. */
int snapshot_write(FILE *out, const world *w, const gjkb_pairs *pairs, const uint8_t *status,
                   const snapshot_label *label);

#endif
