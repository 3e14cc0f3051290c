// frame_bullet.cpp - Bullet's btCollisionWorld on the bodies of a
// gjkbatch frame (frame_bullet.h).
//
// Shapes are the same solids gjkbatch sees. A gjkbatch body is a core
// rounded by its margin m; Bullet's collision margin is that same rounding
// (its GJK runs on the core and adds the margin), so each shape gets the
// body's margin (0 for most, as bench/peers_bullet.cpp sets it) instead of
// Bullet's default 0.04:
//   sphere    btSphereShape(r + m)               point core, radius as margin
//   capsule   btCapsuleShapeZ(r + m, 2 h)        segment core
//   box       btBoxShape(h), margin 0; rounded (m > 0): the btConvexHullShape
//             of its 8 corners with margin m (Bullet's box-box detector
//             treats a box's margin as part of a sharp box, a larger solid)
//   cylinder  btCylinderShapeZ(r + m, h + m), m  setMargin keeps the outer
//                                                extents: core r, h rounded by m
//   cone      btConeShapeZ(r, 2 h), margin m     apex at +h, base at -h
//   hull      btConvexHullShape, margin m        one per (hull, margin)
// Axes: gjkbatch's capsule, cylinder and cone axes are local z, hence the
// Z variants. Bodies flagged static are in the static filter group, which
// never pairs with itself (gjkbatch's GJKB_BODY_STATIC).
//
// Bullet pads every box by gContactBreakingThreshold (0.02) and its
// persistent manifolds keep points from earlier frames (refreshed to the
// current poses): both are part of what its world does per frame, so both
// stay as they are.
#include "frame_bullet.h"

#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <new>
#include <utility>
#include <vector>

struct frame_bullet {
    const char *name = "";
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btCollisionObject>> objects;
    std::unique_ptr<btDefaultCollisionConfiguration> config;
    std::unique_ptr<btCollisionDispatcher> dispatcher;
    std::unique_ptr<btBroadphaseInterface> broadphase;
    std::unique_ptr<btCollisionWorld> world;
    // the last frame's touching pairs, sorted
    std::vector<std::pair<uint64_t, std::pair<double, uint8_t>>> touch;
    std::vector<uint32_t> ta, tb;
    std::vector<double> td;
    std::vector<uint8_t> tp;
};

static double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A shape with the rounding m as Bullet's margin (see the top).
static btCollisionShape *rounded(btConvexInternalShape *sh, float m)
{
    sh->setMargin(m);
    return sh;
}

static btCollisionShape *analytic_shape(uint8_t kind, float x, float y, float z, float m)
{
    switch (kind) {
    case GJKB_SPHERE:
        return new btSphereShape(x + m);
    case GJKB_CAPSULE:   // Bullet's height is the whole core segment
        return new btCapsuleShapeZ(x + m, 2 * z);
    case GJKB_BOX:
        if (m > 0) {
            btConvexHullShape *box = new btConvexHullShape();
            for (int k = 0; k < 8; k++)
                box->addPoint(btVector3(k & 1 ? x : -x, k & 2 ? y : -y, k & 4 ? z : -z), false);
            box->recalcLocalAabb();
            return rounded(box, m);
        }
        return rounded(new btBoxShape(btVector3(x, y, z)), 0);
    case GJKB_CYLINDER:
        return rounded(new btCylinderShapeZ(btVector3(x + m, x + m, z + m)), m);
    default:
        return rounded(new btConeShapeZ(x, 2 * z), m);
    }
}

static btCollisionShape *hull_shape(const frame_bullet_hulls *h, uint32_t id, float m)
{
    btConvexHullShape *hull = new btConvexHullShape();
    const float *p = h->xyz + 3 * (size_t)h->first[id];
    for (uint32_t k = 0; k < h->n[id]; k++)
        hull->addPoint(btVector3(p[3 * k], p[3 * k + 1], p[3 * k + 2]), false);
    hull->recalcLocalAabb();
    hull->setMargin(m);
    return hull;
}

static btTransform pose(const gjkb_bodies *b, uint32_t i)
{
    // btQuaternion takes x, y, z, w; the basis normalizes it
    return btTransform(btQuaternion(b->qx[i], b->qy[i], b->qz[i], b->qw[i]),
                       btVector3((btScalar)b->px[i], (btScalar)b->py[i], (btScalar)b->pz[i]));
}

// Every body's shape; hulls shared per (hull, margin).
static void make_shapes(frame_bullet *fb, const gjkb_bodies *b, const frame_bullet_hulls *h,
                        std::vector<btCollisionShape *> &of)
{
    std::map<std::pair<uint32_t, float>, btCollisionShape *> hulls;
    of.resize(b->count);
    for (uint32_t i = 0; i < b->count; i++) {
        float m = b->margin ? b->margin[i] : 0.0f;
        btCollisionShape *sh;
        if (b->kind[i] == GJKB_HULL) {
            auto key = std::make_pair(b->hull[i], m);
            auto it = hulls.find(key);
            if (it != hulls.end()) {
                of[i] = it->second;
                continue;
            }
            sh = hull_shape(h, b->hull[i], m);
            hulls[key] = sh;
        } else {
            sh = analytic_shape(b->kind[i], b->sx[i], b->sy[i], b->sz[i], m);
        }
        fb->shapes.emplace_back(sh);
        of[i] = sh;
    }
}

static btBroadphaseInterface *make_broadphase(frame_bullet *fb, int kind, uint32_t n, const double lo[3],
                                              const double hi[3])
{
    if (kind == FRAME_BT_DBVT) {
        fb->name = "btDbvtBroadphase";
        return new btDbvtBroadphase();
    }
    // The sweep's quantization box: the centres' box grown by the largest
    // reach a body can have; its ray accelerator (a second, Dbvt copy of
    // every proxy, for ray casts only) is off.
    btVector3 a((btScalar)lo[0], (btScalar)lo[1], (btScalar)lo[2]), z((btScalar)hi[0], (btScalar)hi[1], (btScalar)hi[2]);
    if (n < 16383) {
        fb->name = "btAxisSweep3";
        return new btAxisSweep3(a, z, (unsigned short)(n + 1), nullptr, true);
    }
    fb->name = "bt32BitAxisSweep3";
    return new bt32BitAxisSweep3(a, z, n + 1, nullptr, true);
}

extern "C" frame_bullet *frame_bullet_new(int kind, const gjkb_bodies *bodies, const uint8_t *flags,
                                          const frame_bullet_hulls *hulls, const double lo[3], const double hi[3])
{
    try {
        std::unique_ptr<frame_bullet> fb(new frame_bullet);
        std::vector<btCollisionShape *> of;
        make_shapes(fb.get(), bodies, hulls, of);
        fb->config.reset(new btDefaultCollisionConfiguration());
        fb->dispatcher.reset(new btCollisionDispatcher(fb->config.get()));
        fb->broadphase.reset(make_broadphase(fb.get(), kind, bodies->count, lo, hi));
        fb->world.reset(new btCollisionWorld(fb->dispatcher.get(), fb->broadphase.get(), fb->config.get()));
        fb->objects.reserve(bodies->count);
        for (uint32_t i = 0; i < bodies->count; i++) {
            fb->objects.emplace_back(new btCollisionObject());
            btCollisionObject &o = *fb->objects.back();
            o.setCollisionShape(of[i]);
            o.setWorldTransform(pose(bodies, i));
            o.setUserIndex((int)i);
            bool st = flags && (flags[i] & GJKB_BODY_STATIC);
            if (st)
                o.setCollisionFlags(o.getCollisionFlags() | btCollisionObject::CF_STATIC_OBJECT);
            int group = st ? btBroadphaseProxy::StaticFilter : btBroadphaseProxy::DefaultFilter;
            int mask = st ? btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter
                          : btBroadphaseProxy::AllFilter;
            fb->world->addCollisionObject(&o, group, mask);
        }
        return fb.release();
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

extern "C" const char *frame_bullet_name(const frame_bullet *fb)
{
    return fb->name;
}

// The manifolds' touching pairs, sorted, into the out arrays.
static void collect_touching(frame_bullet *fb, frame_bullet_out *out)
{
    btDispatcher *d = fb->world->getDispatcher();
    fb->touch.clear();
    for (int k = 0; k < d->getNumManifolds(); k++) {
        const btPersistentManifold *m = d->getManifoldByIndexInternal(k);
        int n = m->getNumContacts();
        if (n == 0)
            continue;
        double deepest = m->getContactPoint(0).getDistance();
        for (int j = 1; j < n; j++)
            deepest = std::min(deepest, (double)m->getContactPoint(j).getDistance());
        if (!(deepest <= 0.0))
            continue;
        uint32_t a = (uint32_t)m->getBody0()->getUserIndex(), b = (uint32_t)m->getBody1()->getUserIndex();
        if (a > b)
            std::swap(a, b);
        fb->touch.push_back({ (uint64_t)a << 32 | b, { deepest, (uint8_t)n } });
    }
    std::sort(fb->touch.begin(), fb->touch.end());
    size_t n = fb->touch.size();
    fb->ta.resize(n);
    fb->tb.resize(n);
    fb->td.resize(n);
    fb->tp.resize(n);
    for (size_t i = 0; i < n; i++) {
        fb->ta[i] = (uint32_t)(fb->touch[i].first >> 32);
        fb->tb[i] = (uint32_t)fb->touch[i].first;
        fb->td[i] = fb->touch[i].second.first;
        fb->tp[i] = fb->touch[i].second.second;
    }
    out->touching = (uint32_t)n;
    out->a = fb->ta.data();
    out->b = fb->tb.data();
    out->distance = fb->td.data();
    out->points = fb->tp.data();
}

extern "C" int frame_bullet_step(frame_bullet *fb, const gjkb_bodies *bodies, frame_bullet_out *out)
{
    try {
        for (uint32_t i = 0; i < bodies->count; i++)
            fb->objects[i]->setWorldTransform(pose(bodies, i));
        // performDiscreteCollisionDetection's three calls, timed one by one
        btCollisionWorld *w = fb->world.get();
        double t0 = now_s();
        w->updateAabbs();
        double t1 = now_s();
        w->computeOverlappingPairs();
        double t2 = now_s();
        w->getDispatcher()->dispatchAllCollisionPairs(w->getPairCache(), w->getDispatchInfo(), w->getDispatcher());
        double t3 = now_s();
        out->seconds[0] = t1 - t0;
        out->seconds[1] = t2 - t1;
        out->seconds[2] = t3 - t2;
        out->candidates = (uint32_t)w->getPairCache()->getNumOverlappingPairs();
        collect_touching(fb, out);
        return 0;
    } catch (const std::bad_alloc &) {
        return -1;
    }
}

extern "C" void frame_bullet_free(frame_bullet *fb)
{
    if (!fb)
        return;
    // the world first: it removes the objects' proxies from the broadphase
    for (auto &o : fb->objects)
        fb->world->removeCollisionObject(o.get());
    fb->world.reset();
    delete fb;
}
