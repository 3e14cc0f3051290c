/* hull.h - the topology of a registered hull: the convex hull of its point
 * cloud (vertices, faces, edges, vertex adjacency), built once by
 * gjkb_hull_add and read by the code that needs faces (contacts) or
 * neighbours (hill-climbing supports).
 *
 * The build is deterministic (same input bytes, same output bytes on every
 * platform): the combinatorial decisions use exact int64 predicates on the
 * points snapped to a grid of 2^20 cells across the cloud's largest extent,
 * the geometry (normals, offsets, merging) plain double arithmetic without
 * contraction. Tolerances are relative to that extent:
 * - points closer than about a cell (~1e-6 of the extent) are merged, the
 *   first in input order kept;
 * - a cloud thinner than GJKB__HULL_FLAT_REL of the extent is flat, or
 *   collinear when its width is that small too;
 * - adjacent triangles whose vertices lie within GJKB__HULL_MERGE_REL of
 *   the extent of a face's plane join that face.
 * Every input point then lies inside every face plane within
 * GJKB__HULL_INSIDE_REL of the extent. */
#ifndef GJKB_HULL_H
#define GJKB_HULL_H

#include "gjkbatch.h"
#include <stdint.h>

#define GJKB__HULL_NONE UINT32_MAX
#define GJKB__HULL_FLAT_REL (2.0 / 1048576.0)
#define GJKB__HULL_MERGE_REL (2.0 / 1048576.0)
#define GJKB__HULL_INSIDE_REL (8.0 / 1048576.0)

/* One face: a convex polygon, its loop face_vertex[first .. first + count)
 * counter-clockwise seen from outside, n . x <= d inside (hull frame). */
typedef struct gjkb__hull_face {
    uint32_t first, count;
    double n[3], d;
} gjkb__hull_face;

/* The topology, in the hull's own frame. Vertices are numbered by their
 * first appearance in the input (source is ascending).
 * - solid: faces >= 4, every edge between two faces, V - E + F = 2;
 * - flat: two faces (the same polygon, opposite normals and loops), every
 *   edge between them;
 * - segment: 2 vertices, 1 edge, no faces (edge_face NONE);
 * - point: 1 vertex, nothing else;
 * - invalid hull: all counts 0. */
typedef struct gjkb__hull_topology {
    uint32_t vertex_count, face_count, edge_count;
    const uint32_t *source;      /* [V] input index of each vertex */
    const gjkb__hull_face *face; /* [F], sorted by their loops' first two vertices */
    const uint32_t *face_vertex; /* loops; each starts at its smallest vertex */
    const uint32_t *adj_first;   /* [V + 1] */
    const uint32_t *adj;         /* neighbours of v: adj[adj_first[v] .. adj_first[v + 1]), ascending */
    const uint32_t *adj_face;    /* the face whose loop runs v -> adj[k] (NONE for a segment) */
    const uint32_t *edge;        /* [2E] pairs v0 < v1, ascending */
    const uint32_t *edge_face;   /* [2E] the face running v0 -> v1, the face running v1 -> v0 */
    void *block;                 /* owns every array above */
} gjkb__hull_topology;

/* Builds the hull of n >= 1 points (xyz interleaved; each finite). Returns
 * GJKB_OK, GJKB_ERR_MEMORY, or GJKB_ERR_ARGUMENT when a consistency guard
 * trips (exact predicates make that unreachable); out is left empty on
 * failure. */
gjkb_error gjkb__hull_build(const float *xyz, uint32_t n, gjkb__hull_topology *out);

void gjkb__hull_topology_free(gjkb__hull_topology *t);

/* The topology of registered hull id (< gjkb_hull_count), owned by ctx;
 * valid until the next gjkb_hull_add or gjkb_destroy (context.c). */
const gjkb__hull_topology *gjkb__hull_topo(const gjkb_context *ctx, uint32_t id);

#endif
