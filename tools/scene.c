/* scene.c - the deterministic mixed pair scene behind `gjkbatch batch`
 * (scene.h), and the hull library `gjkbatch run`'s world shares. */
#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit.h"


/* ---- building ---------------------------------------------------------- */

void scene_free(scene *s)
{
    if (!s)
        return;
    void *arrays[] = { TOOLKIT_BODY_ARRAYS(s), s->radius, s->pa, s->pb, s->hull_xyz };
    free_each(arrays, sizeof arrays / sizeof arrays[0]);
    memset(s, 0, sizeof *s);
}

/* Hulls are point clouds on ellipsoids (semi-axes 0.25..1), with about one
 * point in eight pulled inside so that not every point is a vertex. */
static void make_hulls(scene *s, uint64_t *state, double *hull_radius)
{
    uint32_t first = 0;
    for (uint32_t h = 0; h < SCENE_HULLS; h++) {
        uint32_t n = SCENE_HULL_MIN + rng_below(state, SCENE_HULL_MAX - SCENE_HULL_MIN + 1);
        double e[3] = { rng_uniform(state, 0.25, 1.0), rng_uniform(state, 0.25, 1.0), rng_uniform(state, 0.25, 1.0) };
        double rmax = 0.0;
        for (uint32_t i = 0; i < n; i++) {
            double d[3], in = rng_below(state, 8) == 0 ? rng_uniform(state, 0.3, 0.9) : 1.0, rr = 0.0;
            rng_direction(state, d);
            for (int k = 0; k < 3; k++) {
                float c = (float)(d[k] * e[k] * in);
                s->hull_xyz[3 * (first + i) + (uint32_t)k] = c;
                rr += (double)c * c;
            }
            if (sqrt(rr) > rmax)
                rmax = sqrt(rr);
        }
        s->hull_first[h] = first;
        s->hull_n[h] = n;
        hull_radius[h] = rmax;
        first += n;
    }
    s->hull_count = SCENE_HULLS;
}

double scene_random_shape(shape_columns c, uint32_t i, uint64_t *state, const double *hull_radius)
{
    gjkb_kind kind = (gjkb_kind)rng_below(state, GJKB_KIND_COUNT);
    double x = rng_uniform(state, 0.25, 1.0), y = rng_uniform(state, 0.25, 1.0), z = rng_uniform(state, 0.25, 1.0);
    c.kind[i] = (uint8_t)kind;
    c.sx[i] = (float)x;
    c.sy[i] = kind == GJKB_BOX ? (float)y : 0.0f;
    c.sz[i] = kind == GJKB_SPHERE || kind == GJKB_HULL ? 0.0f : (float)z;
    c.hull[i] = kind == GJKB_HULL ? rng_below(state, SCENE_HULLS) : 0;
    c.margin[i] = rng_below(state, 4) == 0 ? (float)rng_uniform(state, 0.02, 0.25) : 0.0f;
    /* from the stored floats, so the scale matches what the library sees */
    double fx = c.sx[i], fy = c.sy[i], fz = c.sz[i], r;
    switch (kind) {
    case GJKB_SPHERE: r = fx; break;
    case GJKB_CAPSULE: r = fx + fz; break;
    case GJKB_BOX: r = sqrt(fx * fx + fy * fy + fz * fz); break;
    case GJKB_CYLINDER:
    case GJKB_CONE: r = sqrt(fx * fx + fz * fz); break;
    default: r = hull_radius[c.hull[i]]; break;
    }
    return r + c.margin[i];
}

/* A random body of a random kind at the origin; returns its bounding
 * radius, margin included. */
static double make_body(scene *s, uint64_t *state, uint32_t i, const double *hull_radius)
{
    double r = scene_random_shape(TOOLKIT_SHAPE_COLUMNS(s), i, state, hull_radius);
    double q[4];
    rng_rotation(state, q);
    s->qw[i] = (float)q[0];
    s->qx[i] = (float)q[1];
    s->qy[i] = (float)q[2];
    s->qz[i] = (float)q[3];
    return r;
}

int scene_generate(scene *s, uint32_t pair_count, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    if (pair_count > UINT32_MAX / 2)
        return -1;
    uint32_t nb = 2 * pair_count;
    size_t nbody = nb ? nb : 1, npair = pair_count ? pair_count : 1;
    int failed = 0;
    s->kind = checked_alloc(nbody, sizeof *s->kind, &failed);
    s->px = checked_alloc(nbody, sizeof *s->px, &failed);
    s->py = checked_alloc(nbody, sizeof *s->py, &failed);
    s->pz = checked_alloc(nbody, sizeof *s->pz, &failed);
    s->qw = checked_alloc(nbody, sizeof *s->qw, &failed);
    s->qx = checked_alloc(nbody, sizeof *s->qx, &failed);
    s->qy = checked_alloc(nbody, sizeof *s->qy, &failed);
    s->qz = checked_alloc(nbody, sizeof *s->qz, &failed);
    s->sx = checked_alloc(nbody, sizeof *s->sx, &failed);
    s->sy = checked_alloc(nbody, sizeof *s->sy, &failed);
    s->sz = checked_alloc(nbody, sizeof *s->sz, &failed);
    s->margin = checked_alloc(nbody, sizeof *s->margin, &failed);
    s->hull = checked_alloc(nbody, sizeof *s->hull, &failed);
    s->radius = checked_alloc(nbody, sizeof *s->radius, &failed);
    s->pa = checked_alloc(npair, sizeof *s->pa, &failed);
    s->pb = checked_alloc(npair, sizeof *s->pb, &failed);
    s->hull_xyz = checked_alloc((size_t)SCENE_HULLS * SCENE_HULL_MAX * 3, sizeof *s->hull_xyz, &failed);
    if (failed) {
        scene_free(s);
        return -1;
    }

    /* Mixing the seed first keeps nearby seeds' streams unrelated. */
    uint64_t state = seed;
    state = rng_next(&state);
    double hull_radius[SCENE_HULLS];
    make_hulls(s, &state, hull_radius);

    for (uint32_t i = 0; i < pair_count; i++) {
        uint32_t a = 2 * i, b = 2 * i + 1;
        double ra = make_body(s, &state, a, hull_radius);
        double rb = make_body(s, &state, b, hull_radius);
        s->radius[a] = ra;
        s->radius[b] = rb;
        /* A anywhere in a 100-unit cube; B at a random direction from A,
         * t (RA + RB) away. With t in [0.3, 1.2] about half the pairs
         * overlap (measured: 49.9% and 50.4% of 20000 pairs for seeds 1
         * and 3); t > 1 keeps some clearly separated pairs in the mix. */
        double d[3], t = rng_uniform(&state, 0.3, 1.2);
        s->px[a] = rng_uniform(&state, -50.0, 50.0);
        s->py[a] = rng_uniform(&state, -50.0, 50.0);
        s->pz[a] = rng_uniform(&state, -50.0, 50.0);
        rng_direction(&state, d);
        s->px[b] = s->px[a] + d[0] * t * (ra + rb);
        s->py[b] = s->py[a] + d[1] * t * (ra + rb);
        s->pz[b] = s->pz[a] + d[2] * t * (ra + rb);
        s->pa[i] = a;
        s->pb[i] = b;
    }
    s->body_count = nb;
    s->pair_count = pair_count;
    return 0;
}

/* ---- library glue ------------------------------------------------------ */

gjkb_error scene_register_hulls(const scene *s, gjkb_context *ctx)
{
    if (!s || !ctx)
        return GJKB_ERR_NULL;
    if (gjkb_hull_count(ctx) != 0)
        return GJKB_ERR_ARGUMENT;
    for (uint32_t h = 0; h < s->hull_count; h++) {
        uint32_t id;
        gjkb_error e = gjkb_hull_add(ctx, s->hull_xyz + 3 * (size_t)s->hull_first[h], s->hull_n[h], &id);
        if (e != GJKB_OK)
            return e;
        if (id != h)
            return GJKB_ERR_ARGUMENT;
    }
    return GJKB_OK;
}

gjkb_bodies scene_bodies(const scene *s)
{
    return TOOLKIT_BODIES_VIEW(s, s->body_count);
}

gjkb_pairs scene_pairs(const scene *s)
{
    gjkb_pairs p = { s->pair_count, s->pa, s->pb };
    return p;
}

double scene_pair_scale(const scene *s, uint32_t pair)
{
    return s->radius[s->pa[pair]] + s->radius[s->pb[pair]];
}

/* ---- pair file output ------------------------------------------------------ */

int scene_write_shape(FILE *out, const gjkb_shape *s)
{
    fputs(gjkb_kind_name(s->kind), out);
    switch (s->kind) {
    case GJKB_SPHERE: fprintf(out, " %.9g", s->size[0]); break;
    case GJKB_BOX: fprintf(out, " %.9g %.9g %.9g", s->size[0], s->size[1], s->size[2]); break;
    case GJKB_CAPSULE:
    case GJKB_CYLINDER:
    case GJKB_CONE: fprintf(out, " %.9g %.9g", s->size[0], s->size[2]); break;
    default: fprintf(out, " %lu", (unsigned long)s->hull); break;
    }
    if (s->margin != 0.0f)
        fprintf(out, " margin %.9g", s->margin);
    return fprintf(out, "  %.17g %.17g %.17g  %.9g %.9g %.9g %.9g", s->pos[0], s->pos[1], s->pos[2], s->rot[0],
                   s->rot[1], s->rot[2], s->rot[3]) < 0 ? -1 : 0;
}

static int write_body(const scene *s, FILE *out, uint32_t i)
{
    gjkb_shape sh = { .kind = (gjkb_kind)s->kind[i], .size = { s->sx[i], s->sy[i], s->sz[i] },
                      .margin = s->margin[i], .hull = s->hull[i], .pos = { s->px[i], s->py[i], s->pz[i] },
                      .rot = { s->qw[i], s->qx[i], s->qy[i], s->qz[i] } };
    return scene_write_shape(out, &sh);
}

int scene_write_pairs(const scene *s, FILE *out)
{
    fprintf(out, "# gjkbatch run scene: %lu pairs, %lu hulls\n", (unsigned long)s->pair_count,
            (unsigned long)s->hull_count);
    for (uint32_t h = 0; h < s->hull_count; h++) {
        fprintf(out, "hull %lu", (unsigned long)h);
        const float *p = s->hull_xyz + 3 * (size_t)s->hull_first[h];
        for (uint32_t i = 0; i < s->hull_n[h]; i++)
            fprintf(out, "  %.9g %.9g %.9g", p[3 * i], p[3 * i + 1], p[3 * i + 2]);
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < s->pair_count; i++) {
        fputs("pair ", out);
        write_body(s, out, s->pa[i]);
        fputs("   ", out);
        write_body(s, out, s->pb[i]);
        if (fputc('\n', out) == EOF)
            return -1;
    }
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
