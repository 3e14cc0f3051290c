/* shape.c - the kinds' names, and the validity rule and core radius of
 * one shape (shape.h). */
#include "shape.h"

#include <string.h>

static const char *const kind_names[GJKB_KIND_COUNT] = {
    [GJKB_SPHERE] = "sphere", [GJKB_CAPSULE] = "capsule", [GJKB_BOX] = "box",
    [GJKB_CYLINDER] = "cylinder", [GJKB_CONE] = "cone", [GJKB_HULL] = "hull",
};

const char *gjkb_kind_name(gjkb_kind kind)
{
    return (unsigned)kind < GJKB_KIND_COUNT ? kind_names[kind] : "?";
}

gjkb_error gjkb_kind_parse(const char *name, gjkb_kind *out)
{
    if (!name || !out)
        return GJKB_ERR_NULL;
    for (int k = 0; k < GJKB_KIND_COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0) {
            *out = (gjkb_kind)k;
            return GJKB_OK;
        }
    return GJKB_ERR_KIND;
}

gjkb_shape gjkb__body_shape(const gjkb_bodies *bd, uint32_t i)
{
    gjkb_shape s = {
        .kind = (gjkb_kind)bd->kind[i],
        .size = { bd->sx[i], bd->sy[i], bd->sz[i] },
        .margin = bd->margin ? bd->margin[i] : 0.0f,
        .hull = bd->hull ? bd->hull[i] : 0,
        .pos = { bd->px[i], bd->py[i], bd->pz[i] },
        .rot = { bd->qw[i], bd->qx[i], bd->qy[i], bd->qz[i] },
    };
    return s;
}

gjkb_error gjkb__check_kind(gjkb_context *ctx, unsigned kind, const uint32_t *hull, uint32_t body, const char *what)
{
    if (kind >= GJKB_KIND_COUNT)
        return gjkb__fail(ctx, GJKB_ERR_KIND, "%s %u: unknown shape kind %u", what, body, kind);
    if (kind != GJKB_HULL)
        return GJKB_OK;
    if (!hull)
        return gjkb__fail(ctx, GJKB_ERR_NULL, "%s %u is a hull but no hull ids were given", what, body);
    if (*hull >= ctx->hull_count)
        return gjkb__fail(ctx, GJKB_ERR_RANGE, "%s %u: hull id %u is not registered (%u hulls)", what, body, *hull,
                          ctx->hull_count);
    return GJKB_OK;
}

bool gjkb__shape_valid(const gjkb_context *ctx, const gjkb_shape *s)
{
    for (int k = 0; k < 3; k++)
        if (!gjkb__coord_ok(s->size[k]) || !(s->size[k] >= 0.0f))
            return false;
    for (int k = 0; k < 4; k++)
        if (!gjkb__coord_ok(s->rot[k]))
            return false;
    /* Summed in float in the order the wide kernels use, so every backend
     * draws the line between a tiny and a zero rotation at the same place. */
    const float *q = s->rot;
    float qq = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
    if (!(qq >= 1e-30f))
        return false;
    if (!gjkb__coord_ok(s->margin) || !(s->margin >= 0.0f))
        return false;
    if (s->kind == GJKB_HULL)
        return ctx->hulls[s->hull].valid;
    return true;
}

bool gjkb__body_valid(const gjkb_context *ctx, const gjkb_shape *s)
{
    return gjkb__coord_ok(s->pos[0]) && gjkb__coord_ok(s->pos[1]) && gjkb__coord_ok(s->pos[2]) &&
           gjkb__shape_valid(ctx, s);
}

bool gjkb__offset_valid(const double a[3], const double b[3])
{
    for (int k = 0; k < 3; k++) {
        float d = (float)(b[k] - a[k]);
        if (!(fabsf(d) <= (float)GJKB_MAX_COORD))
            return false;
    }
    return true;
}

double gjkb__core_radius(const gjkb_context *ctx, const gjkb_shape *s)
{
    double x = s->size[0], y = s->size[1], z = s->size[2];
    switch (s->kind) {
    case GJKB_SPHERE: return 0.0;          /* a point; the radius is margin */
    case GJKB_CAPSULE: return z;           /* a segment; the radius is margin */
    case GJKB_BOX: return sqrt(x * x + y * y + z * z);
    case GJKB_CYLINDER:
    case GJKB_CONE: return sqrt(x * x + z * z);
    case GJKB_HULL: return ctx->hulls[s->hull].radius;
    default: return 0.0;
    }
}
