/* world.c - the moving scene behind `gjkbatch run`. */
#include "world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit.h"


/* Centres fill z in [-WORLD_HALF_Z, WORLD_HALF_Z] (about two bodies deep)
 * and an x-y square holding WORLD_PER_AREA bodies per unit of area. The
 * density is tuned so that the broadphase reports about 2.5 candidate
 * pairs per body (measured: docs/cli.md). */
#define WORLD_HALF_Z 2.0
#define WORLD_PER_AREA 0.8
/* One body in WORLD_STATIC_ONE_IN is static. */
#define WORLD_STATIC_ONE_IN 10
/* Speeds in units per second, spin rates in radians per second. */
#define WORLD_SPEED_MIN 0.5
#define WORLD_SPEED_MAX 3.0
#define WORLD_SPIN_MAX (2.0 * TOOLKIT_PI)

/* ---- quaternions ---------------------------------------------------------- */

/* r = a b */
static void quat_mul(const double a[4], const double b[4], double r[4])
{
    r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

/* v rotated by the unit quaternion q, or by its inverse when inverse != 0. */
static void quat_rotate(const double q[4], int inverse, const double v[3], double out[3])
{
    double s = inverse ? -1.0 : 1.0;
    double u[3] = { s * q[1], s * q[2], s * q[3] }, w = q[0];
    /* t = 2 u x v; out = v + w t + u x t */
    double t[3] = { 2.0 * (u[1] * v[2] - u[2] * v[1]), 2.0 * (u[2] * v[0] - u[0] * v[2]),
                    2.0 * (u[0] * v[1] - u[1] * v[0]) };
    out[0] = v[0] + w * t[0] + (u[1] * t[2] - u[2] * t[1]);
    out[1] = v[1] + w * t[1] + (u[2] * t[0] - u[0] * t[2]);
    out[2] = v[2] + w * t[2] + (u[0] * t[1] - u[1] * t[0]);
}

/* ---- building ---------------------------------------------------------- */

void world_free(world *w)
{
    if (!w)
        return;
    void *arrays[] = { TOOLKIT_BODY_ARRAYS(w), w->flags, w->radius, w->vx, w->vy, w->vz, w->rot[0], w->rot[1],
                       w->rot[2], w->rot[3], w->spin[0], w->spin[1], w->spin[2], w->spin[3] };
    free_each(arrays, sizeof arrays / sizeof arrays[0]);
    scene_free(&w->lib);
    memset(w, 0, sizeof *w);
}

/* Copies the double rotation of body i to the library's floats. */
static void store_rotation(world *w, uint32_t i)
{
    w->qw[i] = (float)w->rot[0][i];
    w->qx[i] = (float)w->rot[1][i];
    w->qy[i] = (float)w->rot[2][i];
    w->qz[i] = (float)w->rot[3][i];
}

/* Shape, pose and motion of body i. */
static void make_body(world *w, uint64_t *state, uint32_t i)
{
    w->radius[i] = scene_random_shape(TOOLKIT_SHAPE_COLUMNS(w), i, state, w->hull_radius);
    if (w->radius[i] > w->max_radius)
        w->max_radius = w->radius[i];

    double q[4];
    rng_rotation(state, q);
    for (int k = 0; k < 4; k++)
        w->rot[k][i] = q[k];
    store_rotation(w, i);
    w->px[i] = rng_uniform(state, -w->half[0], w->half[0]);
    w->py[i] = rng_uniform(state, -w->half[1], w->half[1]);
    w->pz[i] = rng_uniform(state, -w->half[2], w->half[2]);

    /* Every body draws its motion, static or not, so the static choice
     * does not shift the random stream of the bodies after it. */
    int is_static = rng_below(state, WORLD_STATIC_ONE_IN) == 0;
    double d[3], axis[3], speed = rng_uniform(state, WORLD_SPEED_MIN, WORLD_SPEED_MAX);
    double rate = rng_uniform(state, 0.0, WORLD_SPIN_MAX);
    rng_direction(state, d);
    rng_direction(state, axis);
    if (is_static)
        speed = rate = 0.0;
    w->flags[i] = is_static ? GJKB_BODY_STATIC : 0;
    w->static_count += (uint32_t)is_static;
    w->vx[i] = speed * d[0];
    w->vy[i] = speed * d[1];
    w->vz[i] = speed * d[2];
    double half_angle = 0.5 * rate * WORLD_DT, s = sin(half_angle);
    w->spin[0][i] = cos(half_angle);
    for (int k = 0; k < 3; k++)
        w->spin[1 + k][i] = s * axis[k];
}

int world_create(world *w, uint32_t count, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    if (count == 0)
        return -1;
    /* The hull library is the batch scene's (the same seed, no pairs). */
    if (scene_generate(&w->lib, 0, seed))
        return -1;
    int failed = 0;
    uint8_t **bytes[] = { &w->kind, &w->flags };
    double **doubles[] = { &w->px, &w->py, &w->pz, &w->radius, &w->vx, &w->vy, &w->vz, &w->rot[0], &w->rot[1],
                           &w->rot[2], &w->rot[3], &w->spin[0], &w->spin[1], &w->spin[2], &w->spin[3] };
    float **floats[] = { &w->qw, &w->qx, &w->qy, &w->qz, &w->sx, &w->sy, &w->sz, &w->margin };
    for (size_t k = 0; k < sizeof bytes / sizeof bytes[0]; k++)
        *bytes[k] = checked_alloc(count, 1, &failed);
    for (size_t k = 0; k < sizeof doubles / sizeof doubles[0]; k++)
        *doubles[k] = checked_alloc(count, sizeof(double), &failed);
    for (size_t k = 0; k < sizeof floats / sizeof floats[0]; k++)
        *floats[k] = checked_alloc(count, sizeof(float), &failed);
    w->hull = checked_alloc(count, sizeof *w->hull, &failed);
    if (failed) {
        world_free(w);
        return -1;
    }

    for (uint32_t h = 0; h < w->lib.hull_count; h++) {
        const float *p = w->lib.hull_xyz + 3 * (size_t)w->lib.hull_first[h];
        double rmax = 0.0;
        for (uint32_t j = 0; j < w->lib.hull_n[h]; j++) {
            double x = p[3 * j], y = p[3 * j + 1], z = p[3 * j + 2];
            rmax = fmax(rmax, sqrt(x * x + y * y + z * z));
        }
        w->hull_radius[h] = rmax;
    }

    double side = sqrt((double)count / WORLD_PER_AREA);
    w->half[0] = w->half[1] = fmax(0.5 * side, 1.0);
    w->half[2] = WORLD_HALF_Z;
    /* Another stream than the hull library's, unrelated for nearby seeds. */
    uint64_t state = seed ^ 0x5157A7E5C0FFEE11ull;
    state = rng_next(&state);
    for (uint32_t i = 0; i < count; i++)
        make_body(w, &state, i);
    w->count = count;
    return 0;
}

/* ---- library glue ------------------------------------------------------ */

gjkb_error world_register_hulls(const world *w, gjkb_context *ctx)
{
    return scene_register_hulls(&w->lib, ctx);
}

gjkb_bodies world_bodies(const world *w)
{
    return TOOLKIT_BODIES_VIEW(w, w->count);
}

/* ---- motion ------------------------------------------------------------ */

/* One axis of one body: move, and bounce off the walls at +-half (the
 * reflection keeps the distance travelled). */
static void move_axis(double *p, double *v, double half)
{
    double x = *p + *v * WORLD_DT;
    if (x > half) {
        x = 2.0 * half - x;
        *v = -*v;
    } else if (x < -half) {
        x = -2.0 * half - x;
        *v = -*v;
    }
    /* a step longer than the box: stay inside all the same */
    *p = fmin(fmax(x, -half), half);
}

void world_advance(world *w)
{
    for (uint32_t i = 0; i < w->count; i++) {
        if (w->flags[i] & GJKB_BODY_STATIC)
            continue;
        move_axis(&w->px[i], &w->vx[i], w->half[0]);
        move_axis(&w->py[i], &w->vy[i], w->half[1]);
        move_axis(&w->pz[i], &w->vz[i], w->half[2]);
        double q[4] = { w->rot[0][i], w->rot[1][i], w->rot[2][i], w->rot[3][i] };
        double s[4] = { w->spin[0][i], w->spin[1][i], w->spin[2][i], w->spin[3][i] }, r[4];
        quat_mul(s, q, r);
        /* renormalized every frame so rounding never drifts the length */
        double len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
        for (int k = 0; k < 4; k++)
            w->rot[k][i] = r[k] / len;
        store_rotation(w, i);
    }
}

/* ---- support points ------------------------------------------------------ */

static double sign_of(double v)
{
    return v < 0.0 ? -1.0 : 1.0;
}

/* Support of the core of body i in its local frame along the unit d. */
static void local_support(const world *w, uint32_t i, const double d[3], double s[3])
{
    double x = w->sx[i], y = w->sy[i], z = w->sz[i];
    double rxy = sqrt(d[0] * d[0] + d[1] * d[1]);
    /* the rim direction in x-y; any one when d is the axis */
    double ux = rxy > 0.0 ? d[0] / rxy : 1.0, uy = rxy > 0.0 ? d[1] / rxy : 0.0;
    switch ((gjkb_kind)w->kind[i]) {
    case GJKB_SPHERE:
        s[0] = x * d[0];
        s[1] = x * d[1];
        s[2] = x * d[2];
        break;
    case GJKB_CAPSULE:
        s[0] = x * d[0];
        s[1] = x * d[1];
        s[2] = x * d[2] + sign_of(d[2]) * z;
        break;
    case GJKB_BOX:
        s[0] = sign_of(d[0]) * x;
        s[1] = sign_of(d[1]) * y;
        s[2] = sign_of(d[2]) * z;
        break;
    case GJKB_CYLINDER:
        s[0] = x * ux;
        s[1] = x * uy;
        s[2] = sign_of(d[2]) * z;
        break;
    case GJKB_CONE:
        /* the apex or a point of the base rim, whichever is farther */
        if (z * d[2] >= x * rxy - z * d[2]) {
            s[0] = s[1] = 0.0;
            s[2] = z;
        } else {
            s[0] = x * ux;
            s[1] = x * uy;
            s[2] = -z;
        }
        break;
    default: {
        uint32_t h = w->hull[i];
        const float *p = w->lib.hull_xyz + 3 * (size_t)w->lib.hull_first[h];
        double best = -INFINITY;
        s[0] = s[1] = s[2] = 0.0;
        for (uint32_t j = 0; j < w->lib.hull_n[h]; j++) {
            double dot = p[3 * j] * d[0] + p[3 * j + 1] * d[1] + p[3 * j + 2] * d[2];
            if (dot > best) {
                best = dot;
                s[0] = p[3 * j];
                s[1] = p[3 * j + 1];
                s[2] = p[3 * j + 2];
            }
        }
        break;
    }
    }
}

void world_support(const world *w, uint32_t i, const double d[3], double out[3])
{
    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double u[3] = { d[0] / len, d[1] / len, d[2] / len };
    double q[4] = { w->rot[0][i], w->rot[1][i], w->rot[2][i], w->rot[3][i] };
    double local[3], s[3], ws[3];
    quat_rotate(q, 1, u, local);
    local_support(w, i, local, s);
    quat_rotate(q, 0, s, ws);
    double m = w->margin[i];
    out[0] = w->px[i] + ws[0] + m * u[0];
    out[1] = w->py[i] + ws[1] + m * u[1];
    out[2] = w->pz[i] + ws[2] + m * u[2];
}
