/* peers_ode.c - ODE's dCollide on the box-box pairs of a bench_set: its
 * box-box collider (separating axes, then face clipping culled to the
 * requested number of points), the manifold generator of many engines
 * derived from it, Bullet's btBoxBoxDetector among them. ODE is asked for
 * at most GJKB_MAX_CONTACTS points, as gjkbatch gives. Debian's ODE is
 * built in double. */
#include "peers.h"

#include <ode/ode.h>
#include <stdlib.h>

struct bench_ode {
    uint32_t pair_count;
    const uint32_t *pa, *pb;
    dGeomID *geom;   /* per body; NULL where the body is not a box */
    uint32_t body_count;
};

void bench_ode_free(bench_ode *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; i < p->body_count; i++)
        if (p->geom[i])
            dGeomDestroy(p->geom[i]);
    free(p->geom);
    free(p);
    dCloseODE();
}

/* A box geom for body i, placed; no rigid body (the pose is the geom's). */
static dGeomID ode_box(const bench_set *s, uint32_t i)
{
    dGeomID g = dCreateBox(0, 2 * (dReal)s->sx[i], 2 * (dReal)s->sy[i], 2 * (dReal)s->sz[i]);
    dQuaternion q = { s->qw[i], s->qx[i], s->qy[i], s->qz[i] };   /* ODE normalizes it */
    dGeomSetPosition(g, s->px[i], s->py[i], s->pz[i]);
    dGeomSetQuaternion(g, q);
    return g;
}

bench_ode *bench_ode_prepare(const bench_set *s)
{
    bench_ode *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    dInitODE2(0);   /* paired with dCloseODE in bench_ode_free */
    p->pair_count = s->pair_count;
    p->pa = s->pa;
    p->pb = s->pb;
    p->geom = calloc(s->body_count ? s->body_count : 1, sizeof *p->geom);
    if (!p->geom) {
        bench_ode_free(p);
        return NULL;
    }
    p->body_count = s->body_count;
    for (uint32_t i = 0; i < s->body_count; i++)
        if (s->kind[i] == GJKB_BOX)
            p->geom[i] = ode_box(s, i);
    return p;
}

uint32_t bench_ode_boxbox(const bench_ode *p, uint32_t n, double *depth, uint8_t *count)
{
    dContactGeom c[GJKB_MAX_CONTACTS];
    uint32_t hits = 0;
    for (uint32_t i = 0; i < n && i < p->pair_count; i++) {
        dGeomID a = p->geom[p->pa[i]], b = p->geom[p->pb[i]];
        int k = a && b ? dCollide(a, b, GJKB_MAX_CONTACTS, c, (int)sizeof c[0]) : 0;
        double deepest = 0;
        for (int j = 0; j < k; j++)
            deepest = c[j].depth > deepest ? c[j].depth : deepest;
        depth[i] = deepest;
        count[i] = (uint8_t)k;
        hits += k > 0;
    }
    return hits;
}
