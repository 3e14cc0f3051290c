/* paircache.c - gjkb_step's pair cache (paircache.h). Everything here is
 * a function of the frame's pair list and results, which are the same for
 * every thread count and wide backend, so the warm axes are too. */
#include "paircache.h"
#include "buffer.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The bytes per pair the header states: the entry and its index slot. */
_Static_assert(sizeof(gjkb__cached_pair) + sizeof(uint32_t) == 40, "gjkbatch.h states 40 bytes per kept pair");

void gjkb__paircache_free(gjkb__paircache *c)
{
    free(c->first);
    free(c->entry);
    free(c->index);
    free(c->last_feature);
    for (int k = 0; k < 3; k++)
        free(c->warm[k]);
    memset(c, 0, sizeof *c);
}

void gjkb__paircache_clear(gjkb__paircache *c)
{
    c->bodies = 0;
    c->count = 0;
}

static bool entries_reserve(gjkb__paircache *c, uint32_t n)
{
    void **arrays[2] = { (void **)&c->entry, (void **)&c->index };
    size_t elem[2] = { sizeof(gjkb__cached_pair), sizeof(uint32_t) };
    return gjkb__grow_arrays(arrays, elem, 2, &c->cap, n);
}

static bool warm_reserve(gjkb__paircache *c, uint32_t n)
{
    void **arrays[4] = { (void **)&c->warm[0], (void **)&c->warm[1], (void **)&c->warm[2],
                         (void **)&c->last_feature };
    size_t elem[4] = { sizeof(double), sizeof(double), sizeof(double), GJKB_MAX_CONTACTS * sizeof(uint32_t) };
    return gjkb__grow_arrays(arrays, elem, 4, &c->warm_cap, n);
}

/* The entry of pair (a, b), or UINT32_MAX: entry `hint` when it is the
 * pair, else through the index. The answer is the one entry of the pair
 * whatever the hint, which only saves the random reads. */
static inline uint32_t find_entry(const gjkb__paircache *c, uint32_t a, uint32_t b, uint32_t hint)
{
    if (hint < c->count && c->entry[hint].a == a && c->entry[hint].b == b)
        return hint;
    for (uint32_t k = c->first[a], end = c->first[a + 1]; k < end; k++) {
        uint32_t e = c->index[k];
        if (c->entry[e].b == b)
            return e;
    }
    return UINT32_MAX;
}

/* Pair i's warm axis and last keys from entry e (UINT32_MAX: cold); 1
 * when the axis can start GJK (finite, not zero). */
static inline uint32_t fill_pair(gjkb__paircache *c, uint32_t i, uint32_t e)
{
    uint32_t *keys = c->last_feature + (size_t)i * GJKB_MAX_CONTACTS;
    if (e == UINT32_MAX) {
        c->warm[0][i] = c->warm[1][i] = c->warm[2][i] = NAN;
        memset(keys, 0, GJKB_MAX_CONTACTS * sizeof *keys);
        return 0;
    }
    const gjkb__cached_pair *p = &c->entry[e];
    float x = p->axis[0], y = p->axis[1], z = p->axis[2];
    c->warm[0][i] = x;
    c->warm[1][i] = y;
    c->warm[2][i] = z;
    memcpy(keys, p->feature, sizeof p->feature);
    float len2 = x * x + y * y + z * z;
    return isfinite(len2) && len2 > 0.0f;
}

/* Where part t of n pairs in `parts` parts starts. */
static inline uint32_t part_start(uint32_t n, int t, int parts)
{
    return (uint32_t)((uint64_t)n * (uint64_t)t / (uint64_t)parts);
}

/* Pairs [from, to) looked up; their warm count. A part's first hint is
 * the entry at the same share of last frame's list. */
static uint32_t lookup_range(gjkb__paircache *c, uint32_t bodies, const gjkb_pairs *pairs, bool have, uint32_t from,
                             uint32_t to)
{
    uint32_t sum = 0;
    uint32_t hint = pairs->count ? (uint32_t)((uint64_t)from * c->count / pairs->count) : 0;
    for (uint32_t i = from; i < to; i++) {
        uint32_t a = pairs->a[i], b = pairs->b[i];
        uint32_t e = have && a < bodies ? find_entry(c, a, b, hint) : UINT32_MAX;
        hint = e + 1;   /* UINT32_MAX + 1 = 0: a poor hint, never a wrong answer */
        sum += fill_pair(c, i, e);
    }
    return sum;
}

bool gjkb__paircache_lookup(gjkb__paircache *c, uint32_t bodies, const gjkb_pairs *pairs, int threads,
                            uint32_t *warm)
{
    *warm = 0;
    if (!warm_reserve(c, pairs->count ? pairs->count : 1)) {
        gjkb__paircache_clear(c);
        return false;
    }
    /* Another world (or none yet): every pair starts cold. */
    const bool have = c->bodies == bodies && c->count > 0;
    const uint32_t n = pairs->count;
    const int parts = threads > 1 && n >= 4096 ? threads : 1;
    uint32_t sum = 0;
    GJKB_OMP(omp parallel for num_threads(parts) schedule(static, 1) reduction(+ : sum) if (parts > 1))
    for (int t = 0; t < parts; t++)
        sum += lookup_range(c, bodies, pairs, have, part_start(n, t, parts), part_start(n, t + 1, parts));
    *warm = sum;
    return true;
}

/* The entries' offsets by body a: counts, then their prefix sums. */
static void count_firsts(gjkb__paircache *c, uint32_t bodies, const gjkb_pairs *pairs)
{
    memset(c->first, 0, ((size_t)bodies + 1) * sizeof *c->first);
    for (uint32_t i = 0; i < pairs->count; i++)
        c->first[pairs->a[i] + 1]++;
    for (uint32_t a = 0; a < bodies; a++)
        c->first[a + 1] += c->first[a];
}

/* Pair i of the frame into entry e. */
static inline void put_entry(gjkb__paircache *c, uint32_t e, uint32_t i, const gjkb_pairs *pairs,
                             const gjkb_results *r)
{
    gjkb__cached_pair *p = &c->entry[e];
    p->a = pairs->a[i];
    p->b = pairs->b[i];
    p->axis[0] = r->nx ? (float)r->nx[i] : NAN;
    p->axis[1] = r->ny ? (float)r->ny[i] : NAN;
    p->axis[2] = r->nz ? (float)r->nz[i] : NAN;
    if (r->manifold.feature)
        memcpy(p->feature, r->manifold.feature + (size_t)i * GJKB_MAX_CONTACTS, sizeof p->feature);
    else
        memset(p->feature, 0, sizeof p->feature);
}

bool gjkb__paircache_store(gjkb__paircache *c, uint32_t bodies, const gjkb_pairs *pairs, const gjkb_results *r)
{
    gjkb__paircache_clear(c);
    if (bodies == UINT32_MAX)
        return true;   /* no room for the offsets: stay cold */
    if (!entries_reserve(c, pairs->count ? pairs->count : 1) ||
        !gjkb__grow_arrays((void **[]){ (void **)&c->first }, (size_t[]){ sizeof(uint32_t) }, 1, &c->first_cap,
                           bodies + 1))
        return false;
    count_firsts(c, bodies, pairs);
    /* Placing moves first[a] to a's end, the start of a + 1; shifting
     * back restores the starts. Stable: a's entries in pair order. */
    for (uint32_t i = 0; i < pairs->count; i++) {
        put_entry(c, i, i, pairs, r);
        c->index[c->first[pairs->a[i]]++] = i;
    }
    memmove(c->first + 1, c->first, (size_t)bodies * sizeof *c->first);
    c->first[0] = 0;
    c->bodies = bodies;
    c->count = pairs->count;
    return true;
}
