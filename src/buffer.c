/* buffer.c - growable arrays (buffer.h). */
#include "buffer.h"

#include <stdlib.h>
#include <string.h>

uint32_t gjkb__grown(uint32_t cap, uint32_t need)
{
    uint64_t c = cap ? cap : 64;
    while (c < need)
        c *= 2;
    return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

bool gjkb__resize(void **p, size_t bytes)
{
    void *q = realloc(*p, bytes ? bytes : 1);
    if (!q)
        return false;
    *p = q;
    return true;
}

bool gjkb__grow_arrays(void **arrays[], const size_t elem[], int n, uint32_t *cap, uint32_t need)
{
    if (need <= *cap)
        return true;
    uint32_t c = gjkb__grown(*cap, need);
    for (int k = 0; k < n; k++)
        if (!gjkb__resize(arrays[k], elem[k] * c))
            return false;
    *cap = c;
    return true;
}

bool gjkb__pairbuf_reserve(gjkb__pairbuf *buf, uint32_t more)
{
    if (buf->cap - buf->count >= more)
        return true;
    if (more > UINT32_MAX - buf->count)
        return false;
    uint32_t cap = gjkb__grown(buf->cap, buf->count + more);
    if (!gjkb__resize((void **)&buf->a, sizeof(uint32_t) * cap) ||
        !gjkb__resize((void **)&buf->b, sizeof(uint32_t) * cap) ||
        !gjkb__resize((void **)&buf->info, sizeof(uint32_t) * cap))
        return false;
    buf->cap = cap;
    return true;
}

void gjkb__pairbuf_free(gjkb__pairbuf *buf)
{
    free(buf->a);
    free(buf->b);
    free(buf->info);
    memset(buf, 0, sizeof *buf);
}
