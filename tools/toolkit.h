/* toolkit.h - small helpers the tool's generated scenes share: splitmix64
 * random numbers (identical on every platform, no libc rand) and checked
 * allocation. */
#ifndef GJKB_TOOLS_TOOLKIT_H
#define GJKB_TOOLS_TOOLKIT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define TOOLKIT_PI 3.14159265358979323846

static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* uniform in [0, 1) with 53 random bits */
static inline double rng_unit(uint64_t *state)
{
    return (double)(rng_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

static inline double rng_uniform(uint64_t *state, double lo, double hi)
{
    return lo + (hi - lo) * rng_unit(state);
}

/* uniform in [0, n) (the modulo bias is below 2^-58 for small n) */
static inline uint32_t rng_below(uint64_t *state, uint32_t n)
{
    return (uint32_t)(rng_next(state) % n);
}

/* A uniformly distributed direction (Archimedes: z uniform on [-1, 1]). */
static inline void rng_direction(uint64_t *state, double d[3])
{
    double z = rng_uniform(state, -1.0, 1.0), t = rng_uniform(state, 0.0, 2.0 * TOOLKIT_PI);
    double r = sqrt(1.0 - z * z);
    d[0] = r * cos(t);
    d[1] = r * sin(t);
    d[2] = z;
}

/* A uniformly distributed rotation, w x y z (Shoemake's subgroup algorithm). */
static inline void rng_rotation(uint64_t *state, double q[4])
{
    double u1 = rng_unit(state), u2 = rng_unit(state), u3 = rng_unit(state);
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    q[0] = b * cos(2.0 * TOOLKIT_PI * u3);
    q[1] = a * sin(2.0 * TOOLKIT_PI * u2);
    q[2] = a * cos(2.0 * TOOLKIT_PI * u2);
    q[3] = b * sin(2.0 * TOOLKIT_PI * u3);
}

/* malloc(n * sz), setting *failed instead of returning to a check per call. */
static inline void *checked_alloc(size_t n, size_t sz, int *failed)
{
    void *p = malloc(n * sz);
    if (!p)
        *failed = 1;
    return p;
}

/* Frees each of the n blocks p[k]. */
static inline void free_each(void *const p[], size_t n)
{
    for (size_t k = 0; k < n; k++)
        free(p[k]);
}

/* The body arrays of any struct s that holds them under the API's own
 * field names, as a list for an initializer (of void * for free_each). */
#define TOOLKIT_BODY_ARRAYS(s)                                                                     \
    (s)->kind, (s)->px, (s)->py, (s)->pz, (s)->qw, (s)->qx, (s)->qy, (s)->qz, (s)->sx, (s)->sy, \
        (s)->sz, (s)->margin, (s)->hull

/* The shape arrays of a body set, to be written (scene_random_shape). */
typedef struct shape_columns {
    uint8_t *kind;
    float *sx, *sy, *sz, *margin;
    uint32_t *hull;
} shape_columns;

/* The shape_columns of any struct s that holds them under the API's own
 * field names. */
#define TOOLKIT_SHAPE_COLUMNS(s) ((shape_columns){ (s)->kind, (s)->sx, (s)->sy, (s)->sz, (s)->margin, (s)->hull })

/* A gjkb_bodies view of any struct s that holds the body arrays under the
 * API's own field names, with n bodies. */
#define TOOLKIT_BODIES_VIEW(s, n)                                                                  \
    ((gjkb_bodies){ (n), (s)->kind, (s)->px, (s)->py, (s)->pz, (s)->qw, (s)->qx, (s)->qy, (s)->qz, \
                    (s)->sx, (s)->sy, (s)->sz, (s)->margin, (s)->hull })

#endif
