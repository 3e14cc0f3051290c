// peers_bullet.cpp - Bullet's btGjkPairDetector, btGjkEpaSolver2 and
// btBoxBoxDetector on a bench_set.
//
// Margins: Bullet runs GJK on a shape's core and adds its collision margin
// afterwards. A sphere is a point core plus its radius as margin and a
// capsule a segment plus its radius, which is exact. Box, cylinder and hull
// default to a 0.04 margin (rounded, inflated shapes), so their margins are
// set to 0 here and every shape is the exact solid gjkbatch sees.
//
// bench_bullet_gjk attaches no penetration-depth solver, so the cost is GJK
// alone, as for gjkbatch's distance query ("without penetration solver" in
// the tables). Bullet hands two cases to that solver, and both count as
// overlap here: no result at all (the simplex enclosed the origin), and a
// core distance below gGjkEpaPenetrationTolerance, where Bullet's float GJK
// stops trusting its own distance (deep overlaps end there with a tiny
// positive distance). bench_bullet_gjk_epa attaches
// btGjkEpaPenetrationDepthSolver, as btConvexConvexAlgorithm does, and so
// pays EPA on those pairs. Bullet has no boolean-only GJK entry point
// (btGjkPairDetector in Bullet 3 runs an intersection pass and then always
// the distance GJK): its verdicts come from the distance query.
//
// Penetration: btGjkEpaSolver2::Penetration (GJK, then EPA) with margins,
// which makes a sphere or capsule its full rounded self; box-box manifolds:
// btBoxBoxDetector, the ODE-derived clipper Bullet's box-box algorithm
// runs, at most 4 points.
#include "peers.h"

#include <btBulletCollisionCommon.h>
#include <BulletCollision/CollisionDispatch/btBoxBoxDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <memory>
#include <new>
#include <vector>

// Defined in libBulletCollision (btGjkPairDetector.cpp), not declared in
// its headers.
extern btScalar gGjkEpaPenetrationTolerance;

struct bench_bullet {
    uint32_t pair_count = 0;
    const uint32_t *pa = nullptr, *pb = nullptr;
    std::vector<std::unique_ptr<btConvexShape>> owned;  // per-body shapes and shared hulls
    std::vector<const btConvexShape *> shape;           // per body
    std::vector<btScalar> margin;                       // per body
    std::vector<btTransform> xf;                        // per body
    std::vector<uint8_t> kind;                          // per body, gjkb_kind
};

static btConvexShape *bullet_shape(const bench_set *s, uint32_t i,
                                   const std::vector<btConvexShape *> &hulls)
{
    btConvexShape *sh;
    switch (s->kind[i]) {
    case GJKB_SPHERE:
        return new btSphereShape(s->sx[i]);
    case GJKB_CAPSULE:   // Bullet's height is the whole core segment
        return new btCapsuleShapeZ(s->sx[i], 2 * s->sz[i]);
    case GJKB_BOX:
        sh = new btBoxShape(btVector3(s->sx[i], s->sy[i], s->sz[i]));
        break;
    case GJKB_CYLINDER:
        sh = new btCylinderShapeZ(btVector3(s->sx[i], s->sx[i], s->sz[i]));
        break;
    default:
        return hulls[s->hull[i]];
    }
    sh->setMargin(0);   // keeps the outer extents, drops the rounding
    return sh;
}

extern "C" bench_bullet *bench_bullet_prepare(const bench_set *s)
{
    try {
        std::unique_ptr<bench_bullet> p(new bench_bullet);
        std::vector<btConvexShape *> hulls;
        p->pair_count = s->pair_count;
        p->pa = s->pa;
        p->pb = s->pb;
        for (uint32_t h = 0; h < s->hull_count; h++) {
            btConvexHullShape *hull = new btConvexHullShape();
            p->owned.emplace_back(hull);
            const float *xyz = s->hull_xyz[h];
            for (uint32_t k = 0; k < s->hull_n[h]; k++)
                hull->addPoint(btVector3(xyz[3 * k], xyz[3 * k + 1], xyz[3 * k + 2]), false);
            hull->recalcLocalAabb();
            hull->setMargin(0);
            hulls.push_back(hull);
        }
        p->shape.resize(s->body_count);
        p->xf.resize(s->body_count);
        p->margin.resize(s->body_count);
        p->kind.assign(s->kind, s->kind + s->body_count);
        for (uint32_t i = 0; i < s->body_count; i++) {
            btConvexShape *sh = bullet_shape(s, i, hulls);
            if (s->kind[i] != GJKB_HULL)
                p->owned.emplace_back(sh);
            p->shape[i] = sh;
            p->margin[i] = sh->getMargin();
            // btQuaternion takes x, y, z, w; the basis normalizes it
            p->xf[i] = btTransform(btQuaternion(s->qx[i], s->qy[i], s->qz[i], s->qw[i]),
                                   btVector3((btScalar)s->px[i], (btScalar)s->py[i],
                                             (btScalar)s->pz[i]));
        }
        return p.release();
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

extern "C" void bench_bullet_free(bench_bullet *p)
{
    delete p;
}

// One btGjkPairDetector per pair, with the given penetration solver (or
// none).
static uint32_t bullet_gjk_run(const bench_bullet *p, btConvexPenetrationDepthSolver *solver, uint8_t *hit,
                               double *dist)
{
    btVoronoiSimplexSolver simplex;   // reset by every query
    uint32_t hits = 0;
    for (uint32_t i = 0; i < p->pair_count; i++) {
        uint32_t a = p->pa[i], b = p->pb[i];
        btGjkPairDetector gjk(p->shape[a], p->shape[b], &simplex, solver);
        btGjkPairDetector::ClosestPointInput in;
        btPointCollector out;
        in.m_transformA = p->xf[a];
        in.m_transformB = p->xf[b];
        gjk.getClosestPoints(in, out, nullptr);
        btScalar core = out.m_distance + p->margin[a] + p->margin[b];
        bool h = !out.m_hasResult || out.m_distance <= 0 || core < gGjkEpaPenetrationTolerance;
        hit[i] = h;
        hits += h;
        if (dist)
            dist[i] = h ? 0.0 : (double)out.m_distance;
    }
    return hits;
}

extern "C" uint32_t bench_bullet_gjk(const bench_bullet *p, uint8_t *hit, double *dist)
{
    return bullet_gjk_run(p, nullptr, hit, dist);
}

extern "C" uint32_t bench_bullet_gjk_epa(const bench_bullet *p, uint8_t *hit, double *dist)
{
    btGjkEpaPenetrationDepthSolver epa;   // stateless
    return bullet_gjk_run(p, &epa, hit, dist);
}

extern "C" uint32_t bench_bullet_epa(const bench_bullet *p, uint32_t n, double *depth, uint8_t *count)
{
    uint32_t hits = 0;
    for (uint32_t i = 0; i < n && i < p->pair_count; i++) {
        uint32_t a = p->pa[i], b = p->pb[i];
        btGjkEpaSolver2::sResults r;
        // the guess Bullet's own btGjkEpaPenetrationDepthSolver passes
        btVector3 guess = p->xf[b].getOrigin() - p->xf[a].getOrigin();
        bool h = btGjkEpaSolver2::Penetration(p->shape[a], p->xf[a], p->shape[b], p->xf[b], guess, r);
        depth[i] = h ? -(double)r.distance : 0.0;   // distance is minus the depth
        count[i] = h;
        hits += h;
    }
    return hits;
}

namespace {
// Counts btBoxBoxDetector's points and keeps the deepest. Bullet passes
// each point's depth negated (negative: penetrating).
struct DeepestCollector : btDiscreteCollisionDetectorInterface::Result {
    int points = 0;
    double deepest = 0;
    void setShapeIdentifiersA(int, int) override {}
    void setShapeIdentifiersB(int, int) override {}
    void addContactPoint(const btVector3 &, const btVector3 &, btScalar d) override
    {
        if (points == 0 || -(double)d > deepest)
            deepest = -(double)d;
        points++;
    }
};
} // namespace

extern "C" uint32_t bench_bullet_boxbox(const bench_bullet *p, uint32_t n, double *depth, uint8_t *count)
{
    uint32_t hits = 0;
    for (uint32_t i = 0; i < n && i < p->pair_count; i++) {
        uint32_t a = p->pa[i], b = p->pb[i];
        depth[i] = 0;
        count[i] = 0;
        if (p->kind[a] != GJKB_BOX || p->kind[b] != GJKB_BOX)
            continue;
        btBoxBoxDetector det(static_cast<const btBoxShape *>(p->shape[a]),
                             static_cast<const btBoxShape *>(p->shape[b]));
        btDiscreteCollisionDetectorInterface::ClosestPointInput in;
        DeepestCollector out;
        in.m_transformA = p->xf[a];
        in.m_transformB = p->xf[b];
        det.getClosestPoints(in, out, nullptr);
        depth[i] = out.deepest;
        count[i] = (uint8_t)out.points;
        hits += out.points > 0;
    }
    return hits;
}
