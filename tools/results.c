/* results.c - result arrays in one block (results.h). */
#include "results.h"

#include <stdlib.h>
#include <string.h>

/* The manifold's double columns from d on (slots each); returns the end. */
static double *manifold_columns(gjkb_manifolds *m, double *d, size_t slots)
{
    double **cols[7] = { &m->ax, &m->ay, &m->az, &m->bx, &m->by, &m->bz, &m->separation };
    for (int k = 0; k < 7; k++, d += slots)
        *cols[k] = d;
    return d;
}

int results_alloc(result_buf *rb, uint32_t n, gjkb_mode mode)
{
    size_t m = n ? n : 1, slots = m * GJKB_MAX_CONTACTS;
    int points = mode != GJKB_HIT, contact = mode == GJKB_CONTACT;
    memset(rb, 0, sizeof *rb);
    if (m > SIZE_MAX / 512) /* more than the at most 330 bytes per pair */
        return -1;
    size_t doubles = m * (points ? 10 : 1) + (contact ? 7 * slots : 0);
    size_t words = m + (contact ? slots : 0), bytes = m * (contact ? 2 : 1);
    rb->block = malloc(doubles * sizeof(double) + words * sizeof(uint32_t) + bytes);
    if (!rb->block)
        return -1;
    /* doubles first, then the 4-byte and 1-byte columns: all aligned */
    double *d = rb->block;
    rb->r.distance = d;
    d += m;
    if (points) {
        double **cols[9] = { &rb->r.ax, &rb->r.ay, &rb->r.az, &rb->r.bx, &rb->r.by,
                             &rb->r.bz, &rb->r.nx, &rb->r.ny, &rb->r.nz };
        for (int k = 0; k < 9; k++, d += m)
            *cols[k] = d;
    }
    if (contact)
        d = manifold_columns(&rb->r.manifold, d, slots);
    uint32_t *w = rb->r.iterations = (uint32_t *)d;
    w += m;
    if (contact) {
        rb->r.manifold.feature = w;
        w += slots;
    }
    rb->r.status = (uint8_t *)w;
    if (contact)
        rb->r.manifold.count = rb->r.status + m;
    return 0;
}

uint64_t manifold_points(const gjkb_results *r, uint32_t count)
{
    uint64_t n = 0;
    for (uint32_t i = 0; r->manifold.count && i < count; i++)
        n += r->manifold.count[i];
    return n;
}
