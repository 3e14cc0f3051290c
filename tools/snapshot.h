/* snapshot.h - one frame of `gjkbatch run` as an SVG picture: the world
 * seen from above (x right, y up, z dropped), every body as the outline of
 * its projection, static bodies shaded, bodies in an overlapping pair in
 * red with a blue line joining the centres of each overlapping pair, or in
 * contact mode the contact points as blue dots and each manifold's normal
 * as a green line. */
#ifndef GJKB_TOOLS_SNAPSHOT_H
#define GJKB_TOOLS_SNAPSHOT_H

#include "gjkbatch.h"
#include "world.h"

#include <stdio.h>

/* What the caption says about the frame. */
typedef struct snapshot_label {
    uint32_t frame, frames;
    const char *backend;
    int contacts;   /* contact mode: draw the manifolds */
} snapshot_label;

/* Writes the picture of w with the frame's candidate pairs and their
 * answers (GJKB_OVERLAP is highlighted; with label->contacts, the
 * manifolds and normals of res are drawn). Returns 0, or -1 when writing
 * failed or memory ran out. */
int snapshot_write(FILE *out, const world *w, const gjkb_pairs *pairs, const gjkb_results *res,
                   const snapshot_label *label);

#endif
