// peers_bullet_broad.cpp - Bullet's broadphases on a broad_harness scene:
// btDbvtBroadphase (two dynamic AABB trees) and its sweep and prune,
// btAxisSweep3 (16-bit quantized edges, at most 16383 boxes) or
// bt32BitAxisSweep3 beyond that.
//
// Both are incremental: proxies are created once, then moved with setAabb
// each frame, and the pair cache (btHashedOverlappingPairCache, Bullet's
// default) holds the pairs from frame to frame. No dispatcher is given:
// with no collision algorithms in the pairs, Bullet needs none.
//
// What the pair cache holds is not exactly the set of overlapping boxes:
// - btDbvtBroadphase stores a moved box's tree leaf enlarged by a margin
//   (gDbvtMargin, 0.05) and reports pairs of overlapping leaves; pairs that
//   stopped overlapping leave the cache only a few per frame (its cleanup
//   pass visits m_cupdates = 10% of the pairs). Fresh leaves are exact.
// - the sweep and prune compares quantized edges, rounded outward, so boxes
//   closer than a quantum count as overlapping.
// bench_bullet_broad_exact counts the cached pairs whose boxes overlap, which
// is what a caller filtering the cache would get.
//
// btAxisSweep3's raycast accelerator (a btDbvtBroadphase shadowing every
// proxy, for ray queries only) is disabled: it would double the work.
#include "peers.h"

#include <btBulletCollisionCommon.h>

#include <cstdint>
#include <memory>
#include <new>
#include <vector>

struct bench_bullet_broad {
    int kind = BENCH_BT_DBVT;
    const char *impl = "";
    std::unique_ptr<btBroadphaseInterface> bp;
    std::vector<btBroadphaseProxy *> proxy;   // proxy i is box i
};

static btVector3 box_min(const bench_boxes *b, uint32_t i)
{
    return btVector3(b->min_x[i], b->min_y[i], b->min_z[i]);
}

static btVector3 box_max(const bench_boxes *b, uint32_t i)
{
    return btVector3(b->max_x[i], b->max_y[i], b->max_z[i]);
}

extern "C" bench_bullet_broad *bench_bullet_broad_new(int kind, uint32_t n, const float world_min[3],
                                                      const float world_max[3])
{
    try {
        std::unique_ptr<bench_bullet_broad> p(new bench_bullet_broad);
        btVector3 lo(world_min[0], world_min[1], world_min[2]), hi(world_max[0], world_max[1], world_max[2]);
        p->kind = kind;
        if (kind == BENCH_BT_DBVT) {
            p->impl = "btDbvtBroadphase";
            p->bp.reset(new btDbvtBroadphase());
        } else if (n <= BENCH_BT_SWEEP3_16BIT_MAX) {
            p->impl = "btAxisSweep3";
            p->bp.reset(new btAxisSweep3(lo, hi, (unsigned short)n, nullptr, true));
        } else {
            p->impl = "bt32BitAxisSweep3";
            p->bp.reset(new bt32BitAxisSweep3(lo, hi, n, nullptr, true));
        }
        p->proxy.reserve(n);
        return p.release();
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

extern "C" const char *bench_bullet_broad_impl(const bench_bullet_broad *p)
{
    return p->impl;
}

extern "C" int bench_bullet_broad_add(bench_bullet_broad *p, const bench_boxes *b)
{
    try {
        btBroadphaseInterface *bp = p->bp.get();
        for (uint32_t i = 0; i < b->count; i++) {
            // the user pointer carries the box index, for bench_bullet_broad_exact
            void *user = reinterpret_cast<void *>(static_cast<uintptr_t>(p->proxy.size()));
            p->proxy.push_back(bp->createProxy(box_min(b, i), box_max(b, i), BOX_SHAPE_PROXYTYPE, user,
                                               btBroadphaseProxy::DefaultFilter,
                                               btBroadphaseProxy::AllFilter, nullptr));
        }
        bp->calculateOverlappingPairs(nullptr);
        return 0;
    } catch (const std::bad_alloc &) {
        return -1;
    }
}

extern "C" void bench_bullet_broad_update(bench_bullet_broad *p, const bench_boxes *b)
{
    btBroadphaseInterface *bp = p->bp.get();
    const uint32_t n = b->count < p->proxy.size() ? b->count : (uint32_t)p->proxy.size();
    for (uint32_t i = 0; i < n; i++)
        bp->setAabb(p->proxy[i], box_min(b, i), box_max(b, i), nullptr);
    bp->calculateOverlappingPairs(nullptr);
}

extern "C" uint32_t bench_bullet_broad_pairs(const bench_bullet_broad *p)
{
    return (uint32_t)p->bp->getOverlappingPairCache()->getNumOverlappingPairs();
}

extern "C" uint32_t bench_bullet_broad_exact(const bench_bullet_broad *p, const bench_boxes *b)
{
    btOverlappingPairCache *cache = const_cast<btBroadphaseInterface *>(p->bp.get())->getOverlappingPairCache();
    const btBroadphasePairArray &pairs = cache->getOverlappingPairArray();
    uint32_t hits = 0;
    for (int k = 0; k < pairs.size(); k++) {
        uint32_t i = (uint32_t)reinterpret_cast<uintptr_t>(pairs[k].m_pProxy0->m_clientObject);
        uint32_t j = (uint32_t)reinterpret_cast<uintptr_t>(pairs[k].m_pProxy1->m_clientObject);
        hits += bench_broad_overlapping(b, &i, &j, 1);
    }
    return hits;
}

extern "C" void bench_bullet_broad_free(bench_bullet_broad *p)
{
    if (!p)
        return;
    if (p->kind == BENCH_BT_DBVT) {
        // btDbvtBroadphase allocates each proxy and frees it in destroyProxy,
        // which scans the whole pair cache for the proxy's pairs: emptied
        // first, from the back (O(1) a pair), teardown stays linear.
        btOverlappingPairCache *cache = p->bp->getOverlappingPairCache();
        btBroadphasePairArray &pairs = cache->getOverlappingPairArray();
        while (pairs.size() > 0) {
            const btBroadphasePair &last = pairs[pairs.size() - 1];
            cache->removeOverlappingPair(last.m_pProxy0, last.m_pProxy1, nullptr);
        }
        for (btBroadphaseProxy *proxy : p->proxy)
            p->bp->destroyProxy(proxy, nullptr);
    }
    // The sweep and prune keeps its handles in one array, freed with it.
    delete p;
}
