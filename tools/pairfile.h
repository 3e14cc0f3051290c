/* pairfile.h - the pair file format, version 1 (docs/file-format.md): a
 * parser that reads a whole file into SoA bodies ready for
 * gjkb_query_batch, and the CSV writer for the answers. Shared by the
 * gjkbatch tool and its tests.
 *
 *   pairfile pf;
 *   pairfile_error err;
 *   if (pairfile_read(stdin, &pf, &err) != PAIRFILE_OK)
 *       fprintf(stderr, "<stdin>:%lu: %s\n", err.line, err.message);
 *   pairfile_register_hulls(&pf, ctx);
 *   gjkb_bodies bodies = pairfile_bodies(&pf);
 *   gjkb_pairs pairs = pairfile_pairs(&pf);
 *   ... gjkb_query_batch(ctx, &bodies, &pairs, &q, &res) ...
 *   pairfile_write_csv(stdout, pf.pair_count, &res);
 *   pairfile_free(&pf);
 */
#ifndef GJKB_TOOLS_PAIRFILE_H
#define GJKB_TOOLS_PAIRFILE_H

#include "gjkbatch.h"

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/* Pair i is body 2i (shape A) against body 2i + 1 (shape B). Hull bodies
 * hold, in hull[], the index of their hull in definition order until
 * pairfile_register_hulls turns it into the library's hull id. */
typedef struct pairfile {
    uint32_t pair_count;
    uint32_t body_count, body_cap;
    uint8_t *kind;
    double *px, *py, *pz;
    float *qw, *qx, *qy, *qz;
    float *sx, *sy, *sz;
    float *margin;
    uint32_t *hull;
    uint32_t *pair_a, *pair_b;      /* 2i and 2i + 1, filled on success */

    /* Hulls in definition order; hull h is points [hull_first[h],
     * hull_first[h] + hull_n[h]) of hull_xyz (x, y, z interleaved). */
    uint32_t hull_count, hull_cap;
    uint32_t *hull_file_id;         /* the ID the file gave it */
    unsigned long *hull_line;       /* where it was defined */
    size_t *hull_first;
    uint32_t *hull_n;
    float *hull_xyz;
    size_t point_count, point_cap;

    /* file ID -> definition index, open addressing (UINT32_MAX = empty) */
    uint32_t *map_key, *map_val;
    size_t map_cap;

    int registered;                 /* hull[] holds library ids */
} pairfile;

typedef enum pairfile_status {
    PAIRFILE_OK = 0,
    PAIRFILE_SYNTAX = 1,    /* a line does not parse; err says where and why */
    PAIRFILE_IO = 2,        /* reading failed (errno is set) */
    PAIRFILE_MEMORY = 3     /* allocation failed */
} pairfile_status;

typedef struct pairfile_error {
    unsigned long line;     /* 1-based; 0 when the error is not tied to a line */
    char message[256];
} pairfile_error;

/* Reads a whole pair file from in (lines ending in LF, CR LF or CR; a
 * leading UTF-8 byte-order mark skipped; numbers in the C locale whatever
 * the caller's). On success *pf owns the parsed data (free it with
 * pairfile_free). On failure *pf is left empty (nothing to free) and *err
 * says what happened. */
pairfile_status pairfile_read(FILE *in, pairfile *pf, pairfile_error *err);

void pairfile_free(pairfile *pf);

/* Registers every hull of the file with ctx (gjkb_hull_add) and rewrites
 * the bodies' hull indices to the ids the library returned. Call once, with
 * the context the queries will run on. */
gjkb_error pairfile_register_hulls(pairfile *pf, gjkb_context *ctx);

/* Views of the parsed data for gjkb_query_batch (no copies). */
gjkb_bodies pairfile_bodies(const pairfile *pf);
gjkb_pairs pairfile_pairs(const pairfile *pf);

/* The CSV header lines, without the newline: hit and distance mode, and
 * contact mode (the same 13 columns, then contacts and 4 slots of 7). */
extern const char pairfile_csv_header[];
extern const char pairfile_contact_csv_header[];

/* Writes the header and one row per pair, numbers in the C locale. Every
 * results array but status may be NULL; NULL columns print as nan
 * (iterations as 0). Returns 0, or -1 when writing failed (errno set by
 * stdio). */
int pairfile_write_csv(FILE *out, uint32_t count, const gjkb_results *res);

/* The same in the contact layout: after iterations, the manifold's point
 * count (0 when res->manifold.count is NULL) and for k = 1..4 the point on
 * A, the point on B and the separation of slot k, nan for every slot from
 * the count on. */
int pairfile_write_contact_csv(FILE *out, uint32_t count, const gjkb_results *res);

#endif
