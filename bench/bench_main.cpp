// bench_main.cpp - Google Benchmark driver: every workload of workloads.h
// through every backend this build and CPU run, both queries, and (with
// GJKB_PEERS) libccd and Bullet on the same pairs. One benchmark iteration is
// one whole batch of BENCH_PAIRS pairs, so items/s is pairs/s.
//
// Counters: hits (overlapping pairs), mismatch (verdicts that differ from
// the reference backend's hit query on the same pairs), iters (mean support
// evaluations per pair), unresolved (limit or invalid statuses).
//
// Contact mode (BM_query/<workload>/contact/<backend>) asks for every
// result and manifold array. Its counters compare each row with the
// reference backend's contact answers on the same pairs (computed once
// per workload, untimed): depth_bad (pairs outside the touching band whose
// signed distance differs by more than 1e-5 of the pair's scale),
// count_bad (contact counts differing), nan_normal (overlap status with a
// non-unit normal), dropped (reference overlaps answered without overlap,
// a finite depth and a contact), limit, contacts (mean points per pair).
// Penetration peers (GJKB_PEERS): BM_ccd_gjk_pen, BM_ccd_mpr_pen,
// BM_bullet_epa on every workload, BM_bullet_boxbox and BM_ode_boxbox on
// box-box and box-rest, with depth_bad at 1e-5 and depth_bad_1e3 at 1e-3
// of the scale, dropped and extra (contacts on pairs the reference
// separates outside the band), and count_bad for the manifold peers.
// Contact rows run GJKB_BENCH_CONTACT_REPS repetitions (default 3: the
// pairs the wide kernel does not cover yet run through the double-precision
// reference, up to about 1.5 s a call) on the first GJKB_BENCH_CONTACT_PAIRS
// pairs (default all 65,536).
//
// Peers on the hit and distance queries: BM_ccd_gjk (libccd's default
// (1,0,0) first direction), BM_ccd_gjk_centre (first direction: the centre
// difference), BM_ccd_mpr, BM_bullet_gjk (btGjkPairDetector without a
// penetration solver), BM_bullet_gjk_epa (with btGjkEpaPenetrationDepthSolver)
// and the plain scalar float GJK of plain_gjk.c, BM_plain_gjk_hit (boolean,
// triple products) and BM_plain_gjk_dist (signed volumes), which needs no
// library and is always built. The plain rows add mismatch_out (verdicts
// differing from the reference's outside the touching band, by the
// reference's signed distance), limit (pairs that used every iteration)
// and, for the distance one, dist_bad (pairs the reference separates outside
// the band whose distance differs by more than 1e-4 of the pair's scale).
//
// Before the benchmarks a sanity pass checks the reference and each peer on
// hand-made pairs with known answers, and compares every peer's verdicts
// with the reference on every workload (the plain GJK also its distances,
// with a WARNING for any disagreement outside the touching band);
// --gjkb_no_sanity skips it.
//
// Broadphase (broad_harness.h's scenes, boxes given directly):
//   BM_broad/<scene>/<backend>/threads:<n>   one gjkb_find_pairs call
//   BM_bullet_dbvt/<scene>/{build,update}    btDbvtBroadphase   (GJKB_PEERS)
//   BM_bullet_sweep3/<scene>/{build,update}  btAxisSweep3 / bt32BitAxisSweep3
// build: a fresh broadphase gets every box as a new proxy and finds the
// pairs; update: one frame in which every box moves (setAabb on all, then
// calculateOverlappingPairs), alternating between the scene's two moved
// copies. Counters: items_per_second (boxes per second of wall time), pairs
// (found, or held in Bullet's pair cache), overlapping (of Bullet's, those
// whose boxes really overlap), expected (the independent count for the same
// boxes, when the sanity pass ran) and, on x86, cycles: time-stamp counter
// ticks per call (reference cycles at the TSC's fixed rate, not core
// cycles). A scene's sanity check (every backend's pair count against brute
// force or a sort-based checker) runs when its first benchmark does; each
// Bullet benchmark checks its own broadphase's pairs the first time.
#include <benchmark/benchmark.h>

#include "broad_harness.h"
#include "harness.h"
#include "plain_gjk.h"
#ifdef GJKB_PEERS
#include "peers.h"
#endif

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define BENCH_HAVE_TSC 1
#endif

namespace {

const char *mode_name(gjkb_mode m)
{
    return m == GJKB_HIT ? "hit" : m == GJKB_DISTANCE ? "distance" : "contact";
}

// A positive integer from the environment, at most hi; dflt when unset or
// not a number in range.
uint32_t env_count(const char *name, uint32_t dflt, uint32_t hi)
{
    const char *v = std::getenv(name);
    char *end = nullptr;
    unsigned long n = v ? std::strtoul(v, &end, 10) : 0;
    if (!v || end == v || *end != '\0' || n == 0 || n > hi)
        return dflt;
    return (uint32_t)n;
}

// Pairs per contact-mode call and repetitions of the contact rows.
uint32_t contact_pairs()
{
    return env_count("GJKB_BENCH_CONTACT_PAIRS", BENCH_PAIRS, BENCH_PAIRS);
}

int contact_reps()
{
    return (int)env_count("GJKB_BENCH_CONTACT_REPS", 3, 1000);
}

// Depth tolerances, relative to the pair's scale: the for gjkbatch,
// and a looser one that peers computing in float or with libccd's
// absolute 1e-4 EPA tolerance can meet.
const double depth_tol = 1e-5, peer_tol = 1e-3;
// The plain float GJK's distances are checked to this, relative to the
// pair's scale (gjkbatch.h's accuracy for its float lanes).
const double plain_dist_tol = 1e-4;

[[maybe_unused]] bool is_box_workload(int w)   // unused without GJKB_PEERS
{
    return w == WL_BOX_BOX || w == WL_BOX_REST;
}

// One workload's data. Only one is kept at a time (benchmarks run in
// registration order, workload by workload), which bounds memory.
struct Workload {
    int id = -1;
    bench_set set{};
    bench_out out{};
    std::vector<uint8_t> ref_hit;   // reference verdicts, hit query
    bool have_ref = false;
    std::vector<uint8_t> hit;       // scratch verdicts of the last run
    std::vector<double> dist;       // scratch distances of peers
    std::vector<double> scale;      // per pair, bench_pair_scales
    bench_out ref_contact{};        // the reference's contact answers
    bool have_ref_contact = false;
    std::vector<double> pdepth;     // scratch of penetration peers
    std::vector<uint8_t> pcount;
    std::vector<double> ref_signed; // the reference's signed distance (NaN: undecided)
    bool have_ref_signed = false;
    gjkb_context *ctx[GJKB_BACKEND_COUNT] = {};
    plain_gjk *plain = nullptr;
#ifdef GJKB_PEERS
    bench_ccd *ccd = nullptr;
    bench_bullet *bullet = nullptr;
    bench_ode *ode = nullptr;       // box workloads only
#endif

    void release()
    {
        for (gjkb_context *&c : ctx) {
            gjkb_destroy(c);
            c = nullptr;
        }
        plain_gjk_free(plain);
        plain = nullptr;
        ref_signed.clear();
        have_ref_signed = false;
#ifdef GJKB_PEERS
        bench_ccd_free(ccd);
        bench_bullet_free(bullet);
        bench_ode_free(ode);
        ccd = nullptr;
        bullet = nullptr;
        ode = nullptr;
#endif
        if (id >= 0) {
            bench_out_free(&out);
            bench_set_free(&set);
        }
        if (have_ref_contact)
            bench_out_free(&ref_contact);
        have_ref_contact = false;
        ref_hit.clear();
        have_ref = false;
        id = -1;
    }

    // Context for a backend, created with the workload's hulls on first use.
    gjkb_context *context(gjkb_backend b)
    {
        if (!ctx[b] && bench_context_create(&set, b, &ctx[b]) != GJKB_OK)
            ctx[b] = nullptr;
        return ctx[b];
    }

    bool load(int w)
    {
        if (id == w)
            return true;
        release();
        if (bench_set_make(&set, w, BENCH_PAIRS, 1) != 0)
            return false;
        if (bench_out_alloc(&out, set.pair_count) != 0) {
            bench_set_free(&set);
            return false;
        }
        id = w;
        hit.assign(set.pair_count, 0);
        dist.assign(set.pair_count, 0.0);
        scale.assign(set.pair_count, 0.0);
        bench_pair_scales(&set, scale.data());
        pdepth.assign(set.pair_count, 0.0);
        pcount.assign(set.pair_count, 0);
        ref_hit.assign(set.pair_count, 0);
        gjkb_context *ref = gjkb_backend_available(GJKB_BACKEND_REFERENCE)
                                ? context(GJKB_BACKEND_REFERENCE) : nullptr;
        if (ref && bench_run(ref, &set, GJKB_HIT, &out) == GJKB_OK) {
            bench_verdicts(&out, ref_hit.data());
            have_ref = true;
        }
        plain = plain_gjk_prepare(&set);
        if (!plain) {
            release();
            return false;
        }
#ifdef GJKB_PEERS
        ccd = bench_ccd_prepare(&set);
        bullet = bench_bullet_prepare(&set);
        if (is_box_workload(w))
            ode = bench_ode_prepare(&set);
        if (!ccd || !bullet || (is_box_workload(w) && !ode)) {
            release();
            return false;
        }
#endif
        return true;
    }

    // The reference's contact answers on the first contact_pairs() pairs,
    // computed once (untimed) for the contact rows to be compared with.
    bool ensure_ref_contact()
    {
        if (have_ref_contact)
            return true;
        gjkb_context *ref = gjkb_backend_available(GJKB_BACKEND_REFERENCE)
                                ? context(GJKB_BACKEND_REFERENCE) : nullptr;
        if (!ref || bench_out_alloc(&ref_contact, set.pair_count) != 0)
            return false;
        auto t0 = std::chrono::steady_clock::now();
        if (bench_run_first(ref, &set, GJKB_CONTACT, contact_pairs(), &ref_contact) != GJKB_OK) {
            bench_out_free(&ref_contact);
            return false;
        }
        double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::fprintf(stderr, "contact: %s: reference answers for %u pairs in %.2f s\n",
                     bench_workload_name(id), contact_pairs(), sec);
        have_ref_contact = true;
        return true;
    }

    // The reference's signed distance per pair (contact mode: minus the
    // depth when overlapping), computed once (untimed): it tells which
    // pairs lie in the touching band, where either verdict is right.
    bool ensure_ref_signed()
    {
        if (have_ref_signed)
            return true;
        bench_out all{};
        const bench_out *src = &all;
        if (contact_pairs() == set.pair_count) {   // the contact rows' answers serve
            if (!ensure_ref_contact())
                return false;
            src = &ref_contact;
        } else {
            gjkb_context *ref = gjkb_backend_available(GJKB_BACKEND_REFERENCE)
                                    ? context(GJKB_BACKEND_REFERENCE) : nullptr;
            if (!ref || bench_out_alloc(&all, set.pair_count) != 0)
                return false;
            if (bench_run(ref, &set, GJKB_CONTACT, &all) != GJKB_OK) {
                bench_out_free(&all);
                return false;
            }
        }
        ref_signed.assign(set.pair_count, NAN);
        for (uint32_t i = 0; i < set.pair_count; i++)
            if (src->status[i] == GJKB_OVERLAP || src->status[i] == GJKB_SEPARATED)
                ref_signed[i] = src->distance[i];
        if (src == &all)
            bench_out_free(&all);
        have_ref_signed = true;
        return true;
    }

    // Outside the touching band by the reference (needs ensure_ref_signed).
    bool outside_band(uint32_t i) const
    {
        return std::fabs(ref_signed[i]) > GJKB_DEFAULT_TOLERANCE * scale[i];   // false for NaN
    }

    // Counts verdict disagreements with the reference (-1: no reference).
    double mismatches() const
    {
        return have_ref ? bench_mismatches(hit.data(), ref_hit.data(), set.pair_count) : -1.0;
    }
};

Workload g_wl;

void bm_query(benchmark::State &state, int w, gjkb_backend backend, gjkb_mode mode)
{
    if (!g_wl.load(w)) {
        state.SkipWithError("out of memory building the workload");
        return;
    }
    gjkb_context *ctx = g_wl.context(backend);
    if (!ctx) {
        state.SkipWithError("gjkb_create or gjkb_hull_add failed");
        return;
    }
    gjkb_error err = GJKB_OK;
    gjkb_stats_reset(ctx);
    for (auto _ : state) {
        err = bench_run(ctx, &g_wl.set, mode, &g_wl.out);
        if (err != GJKB_OK) {
            state.SkipWithError(gjkb_last_error(ctx));
            break;
        }
        benchmark::ClobberMemory();
    }
    if (err != GJKB_OK)
        return;
    state.SetItemsProcessed(state.iterations() * (int64_t)g_wl.set.pair_count);
    state.counters["hits"] = bench_verdicts(&g_wl.out, g_wl.hit.data());
    state.counters["mismatch"] = g_wl.mismatches();
    state.counters["iters"] = bench_mean_iterations(&g_wl.out);
    state.counters["unresolved"] = bench_unresolved(&g_wl.out);
    // Active lanes per lane slot of the kernel's bundle steps (0 for the
    // reference, which has no lanes).
    gjkb_stats st;
    if (gjkb_stats_get(ctx, &st) == GJKB_OK && st.width > 0 && st.bundle_steps > 0)
        state.counters["lane_util"] = (double)st.lane_steps / ((double)st.bundle_steps * st.width);
}

// The agreement counters every contact row reports.
void contact_counters(benchmark::State &state, const bench_contact_check &c)
{
    state.counters["depth_bad"] = c.depth_bad;
    state.counters["dropped"] = c.dropped;
    state.counters["extra"] = c.extra;
    state.counters["contacts"] = c.compared ? (double)c.points / c.compared : 0.0;
    state.counters["pairs"] = c.compared;
}

void bm_contact(benchmark::State &state, int w, gjkb_backend backend)
{
    if (!g_wl.load(w)) {
        state.SkipWithError("out of memory building the workload");
        return;
    }
    gjkb_context *ctx = g_wl.context(backend);
    if (!ctx || !g_wl.ensure_ref_contact()) {
        state.SkipWithError("no context or no reference contact answers");
        return;
    }
    const uint32_t n = contact_pairs();
    gjkb_error err = GJKB_OK;
    for (auto _ : state) {
        err = bench_run_first(ctx, &g_wl.set, GJKB_CONTACT, n, &g_wl.out);
        if (err != GJKB_OK) {
            state.SkipWithError(gjkb_last_error(ctx));
            return;
        }
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * (int64_t)n);
    bench_contact_check c;
    bench_contact_compare(&g_wl.out, &g_wl.ref_contact, g_wl.scale.data(), n, depth_tol, &c);
    contact_counters(state, c);
    state.counters["count_bad"] = c.count_bad;
    state.counters["nan_normal"] = c.nan_normal;
    state.counters["limit"] = c.limit;
    state.counters["iters"] = bench_mean_iterations_first(&g_wl.out, n);
}

// ---- the plain scalar float GJK (plain_gjk.c) --------------------------

// The plain GJK's agreement with the reference on one workload.
struct PlainCheck {
    uint32_t differ = 0;        // verdicts differing from the reference's hit query
    uint32_t differ_out = 0;    // of those, outside the touching band
    uint32_t dist_bad = 0;      // separated outside the band, distance off by > plain_dist_tol * scale
    uint32_t dist_checked = 0;  // pairs whose distance was compared
};

// wl.hit holds the plain GJK's verdicts and, when dist is set, wl.dist its
// distances. Needs wl.have_ref and wl.ensure_ref_signed().
PlainCheck plain_check(const Workload &wl, bool dist)
{
    PlainCheck c;
    for (uint32_t i = 0; i < wl.set.pair_count; i++) {
        bool out = wl.outside_band(i);
        if ((wl.hit[i] != 0) != (wl.ref_hit[i] != 0)) {
            c.differ++;
            c.differ_out += out;
        }
        if (dist && out && wl.ref_signed[i] > 0) {
            c.dist_checked++;
            c.dist_bad += !(std::fabs(wl.dist[i] - wl.ref_signed[i]) <= plain_dist_tol * wl.scale[i]);
        }
    }
    return c;
}

uint32_t run_plain(Workload &wl, bool dist, uint32_t *limited, bool sat = false)
{
    if (sat)
        return dist ? plain_sat_distance(wl.plain, wl.hit.data(), wl.dist.data(), limited)
                    : plain_sat_hit(wl.plain, wl.hit.data(), limited);
    return dist ? plain_gjk_distance(wl.plain, wl.hit.data(), wl.dist.data(), limited)
                : plain_gjk_hit(wl.plain, wl.hit.data(), limited);
}

// One workload's timed loop of a peer: run() answers every pair and
// returns the overlaps; the hits and the verdict mismatches are counters.
// False (the state skipped) when the workload could not be built.
template <typename Run> bool bm_timed(benchmark::State &state, int w, Run run)
{
    if (!g_wl.load(w)) {
        state.SkipWithError("out of memory building the workload");
        return false;
    }
    uint32_t hits = 0;
    for (auto _ : state) {
        hits = run();
        benchmark::DoNotOptimize(hits);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * (int64_t)g_wl.set.pair_count);
    state.counters["hits"] = hits;
    state.counters["mismatch"] = g_wl.mismatches();
    return true;
}

// The plain GJK with its per-pair set-up timed (plain_gjk_hit_whole):
// the same input as one whole gjkb_query_batch call.
void bm_plain_whole(benchmark::State &state, int w, bool dist)
{
    bm_timed(state, w, [dist] {
        return dist ? plain_gjk_distance_whole(&g_wl.set, g_wl.hit.data(), g_wl.dist.data())
                    : plain_gjk_hit_whole(&g_wl.set, g_wl.hit.data());
    });
}

void bm_plain(benchmark::State &state, int w, bool dist, bool sat = false)
{
    uint32_t limited = 0;
    if (!bm_timed(state, w, [dist, sat, &limited] { return run_plain(g_wl, dist, &limited, sat); }))
        return;
    state.counters["limit"] = limited;
    if (g_wl.have_ref && g_wl.ensure_ref_signed()) {   // untimed, after the loop
        PlainCheck c = plain_check(g_wl, dist);
        state.counters["mismatch_out"] = c.differ_out;
        if (dist)
            state.counters["dist_bad"] = c.dist_bad;
    }
}



#ifdef GJKB_PEERS
// libccd GJK with its default (1,0,0) first direction and with the centre
// difference; Bullet's pair detector without and with EPA.
enum Peer { CCD_GJK, CCD_GJK_CENTRE, CCD_MPR, BULLET_GJK, BULLET_GJK_EPA };
const char *const peer_names[] = { "ccd_gjk", "ccd_gjk_centre", "ccd_mpr", "bullet_gjk", "bullet_gjk_epa" };
const Peer all_peers[] = { CCD_GJK, CCD_GJK_CENTRE, CCD_MPR, BULLET_GJK, BULLET_GJK_EPA };

uint32_t run_peer(Workload &wl, Peer peer)
{
    switch (peer) {
    case CCD_GJK: return bench_ccd_gjk(wl.ccd, wl.hit.data());
    case CCD_GJK_CENTRE: return bench_ccd_gjk_centre(wl.ccd, wl.hit.data());
    case CCD_MPR: return bench_ccd_mpr(wl.ccd, wl.hit.data());
    case BULLET_GJK: return bench_bullet_gjk(wl.bullet, wl.hit.data(), wl.dist.data());
    default: return bench_bullet_gjk_epa(wl.bullet, wl.hit.data(), wl.dist.data());
    }
}

void bm_peer(benchmark::State &state, int w, Peer peer)
{
    bm_timed(state, w, [peer] { return run_peer(g_wl, peer); });
}


// Penetration peers. The manifold ones (box-box only) give several points.
enum PenPeer { CCD_GJK_PEN, CCD_MPR_PEN, BULLET_EPA, BULLET_BOXBOX, ODE_BOXBOX };
const char *const pen_names[] = { "ccd_gjk_pen", "ccd_mpr_pen", "bullet_epa", "bullet_boxbox", "ode_boxbox" };

bool pen_is_manifold(PenPeer p)
{
    return p == BULLET_BOXBOX || p == ODE_BOXBOX;
}

uint32_t run_pen(Workload &wl, PenPeer peer, uint32_t n)
{
    double *d = wl.pdepth.data();
    uint8_t *c = wl.pcount.data();
    switch (peer) {
    case CCD_GJK_PEN: return bench_ccd_gjk_pen(wl.ccd, n, d, c);
    case CCD_MPR_PEN: return bench_ccd_mpr_pen(wl.ccd, n, d, c);
    case BULLET_EPA: return bench_bullet_epa(wl.bullet, n, d, c);
    case BULLET_BOXBOX: return bench_bullet_boxbox(wl.bullet, n, d, c);
    default: return bench_ode_boxbox(wl.ode, n, d, c);
    }
}

void bm_peer_contact(benchmark::State &state, int w, PenPeer peer)
{
    if (!g_wl.load(w) || !g_wl.ensure_ref_contact()) {
        state.SkipWithError("out of memory or no reference contact answers");
        return;
    }
    const uint32_t n = contact_pairs();
    uint32_t hits = 0;
    for (auto _ : state) {
        hits = run_pen(g_wl, peer, n);
        benchmark::DoNotOptimize(hits);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * (int64_t)n);
    const bool manifold = pen_is_manifold(peer);
    bench_contact_check c, loose;
    bench_peer_compare(&g_wl.ref_contact, g_wl.scale.data(), n, g_wl.pdepth.data(), g_wl.pcount.data(),
                       manifold, depth_tol, &c);
    bench_peer_compare(&g_wl.ref_contact, g_wl.scale.data(), n, g_wl.pdepth.data(), g_wl.pcount.data(),
                       manifold, peer_tol, &loose);
    contact_counters(state, c);
    state.counters["hits"] = hits;
    state.counters["depth_bad_1e3"] = loose.depth_bad;
    if (manifold)
        state.counters["count_bad"] = c.count_bad;
}
#endif

// ---- broadphase -----------------------------------------------------------

// The timed work of each iteration, summed: wall time (for items/s; the
// library's threads make the main thread's CPU time the wrong measure) and
// on x86 time-stamp counter ticks. Google Benchmark's own time columns stay
// as they are (no UseRealTime, which would add /real_time to the names).
struct Clock {
    double wall = 0;
    uint64_t ticks = 0;
    std::chrono::steady_clock::time_point t0;
    uint64_t c0 = 0;

    void begin()
    {
        t0 = std::chrono::steady_clock::now();
#ifdef BENCH_HAVE_TSC
        c0 = __rdtsc();
#endif
    }
    void end()
    {
#ifdef BENCH_HAVE_TSC
        ticks += __rdtsc() - c0;
#endif
        wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    // items_per_second: boxes per second of wall time; cycles: ticks a call
    void report(benchmark::State &state, uint32_t boxes) const
    {
        if (state.iterations() == 0 || wall <= 0)
            return;
        state.counters["items_per_second"] = (double)state.iterations() * boxes / wall;
#ifdef BENCH_HAVE_TSC
        state.counters["cycles"] = (double)ticks / (double)state.iterations();
#endif
    }
};

const int broad_threads[] = { 1, 2 };
bool g_broad_sanity = true;

// One scene, built on its first benchmark and kept to the end (the largest,
// with both Bullet broadphases alive, takes some tens of MB).
struct BroadScene {
    bool loaded = false;
    bench_broad_scene s{};
    // the independent counts for the base and the two moved copies; -1:
    // not counted (sanity skipped)
    int64_t expect[3] = { -1, -1, -1 };
#ifdef GJKB_PEERS
    bench_bullet_broad *live[2] = {};   // per kind: the one /update moves
    unsigned frame[2] = {};
    bool built_checked[2] = {};         // a build's pairs were reported
    bool checked[2] = {};               // the live one's frames were
#endif

    const bench_boxes *boxes(int k) const { return k == 0 ? &s.base : &s.moved[k - 1]; }

    void release()
    {
#ifdef GJKB_PEERS
        for (bench_bullet_broad *&p : live) {
            bench_bullet_broad_free(p);
            p = nullptr;
        }
#endif
        if (loaded)
            bench_broad_free(&s);
        loaded = false;
    }
    bool load(int scene);
};

BroadScene g_broad[BROAD_SCENES];
// A context per backend and thread count, shared by the scenes.
gjkb_context *g_broad_ctx[GJKB_BACKEND_COUNT][2];

gjkb_context *broad_context(gjkb_backend b, int t)
{
    gjkb_context *&ctx = g_broad_ctx[b][t == 1 ? 0 : 1];
    if (!ctx) {
        gjkb_config cfg = { b, 0 };
        if (gjkb_create(&cfg, &ctx) != GJKB_OK)
            return ctx = nullptr;
        if (gjkb_set_threads(ctx, t) != GJKB_OK) {
            gjkb_destroy(ctx);
            ctx = nullptr;
        }
    }
    return ctx;
}

void broad_release()
{
    for (BroadScene &sc : g_broad)
        sc.release();
    for (auto &row : g_broad_ctx)
        for (gjkb_context *&c : row) {
            gjkb_destroy(c);
            c = nullptr;
        }
}

// Whether this build runs the library's threads (OpenMP).
bool broad_have_threads()
{
    gjkb_context *ctx = nullptr;
    if (gjkb_create(nullptr, &ctx) != GJKB_OK)
        return false;
    bool ok = gjkb_set_threads(ctx, 2) == GJKB_OK;
    gjkb_destroy(ctx);
    return ok;
}

const char *copy_name(int k)
{
    return k == 0 ? "base" : k == 1 ? "moved copy 1" : "moved copy 2";
}

// The checker's counts, and every backend and thread count against them.
// Bullet is checked by its own benchmarks, which build it anyway (a
// bt32BitAxisSweep3 of 100k boxes takes minutes to build).
bool BroadScene::load(int scene)
{
    if (loaded)
        return true;
    if (bench_broad_make(&s, scene, 1) != 0)
        return false;
    loaded = true;
    if (!g_broad_sanity)
        return true;

    // Brute force where it is quick, else the sort-based count, itself
    // checked against brute force on the base boxes of 10k.
    const char *name = bench_broad_scene_name(scene);
    const bool brute = s.base.count <= 20000;
    std::vector<std::string> warnings;
    std::string line = std::string("sanity: broad ") + name + ": " + std::to_string(s.base.count) + " boxes;";
    for (int k = 0; k < 3; k++) {
        int64_t sorted = bench_broad_sorted_count(boxes(k));
        if (sorted < 0)
            return false;
        expect[k] = sorted;
        if (brute && k == 0) {
            int64_t b = (int64_t)bench_broad_brute_count(boxes(k));
            if (b != sorted)
                warnings.push_back("the sort-based count " + std::to_string(sorted) + " differs from brute force " +
                                   std::to_string(b));
            expect[k] = b;
        }
        line += std::string(" ") + copy_name(k) + " " + std::to_string(expect[k]) + " pairs" +
                (brute && k == 0 ? " (brute force)" : " (sort-based count)") + (k < 2 ? "," : "");
    }
    std::fprintf(stderr, "%s\n", line.c_str());

    line = std::string("sanity: broad ") + name + ": gjkb_find_pairs counts differing (base and moved copies):";
    for (int b = GJKB_BACKEND_SCALAR; b <= GJKB_BACKEND_NEON; b++) {
        gjkb_backend be = (gjkb_backend)b;
        if (!gjkb_backend_available(be))
            continue;
        for (int t : broad_threads) {
            gjkb_context *ctx = broad_context(be, t);
            if (!ctx)
                continue;
            int bad = 0;
            for (int k = 0; k < 3; k++) {
                gjkb_pairs out{};
                if (gjkb_find_pairs(ctx, &boxes(k)->aabbs, nullptr, &out) != GJKB_OK) {
                    warnings.push_back(std::string("gjkb_find_pairs failed: ") + gjkb_last_error(ctx));
                    bad++;
                    continue;
                }
                uint32_t real = bench_broad_overlapping(boxes(k), out.a, out.b, out.count);
                if ((int64_t)out.count != expect[k] || real != out.count) {
                    bad++;
                    warnings.push_back(std::string(gjkb_backend_name(be)) + " threads:" + std::to_string(t) +
                                       " finds " + std::to_string(out.count) + " pairs (" + std::to_string(real) +
                                       " overlapping) on the " + copy_name(k) + ", the checker " +
                                       std::to_string(expect[k]));
                }
            }
            line += std::string(" ") + gjkb_backend_name(be) + "/threads:" + std::to_string(t) + " " +
                    std::to_string(bad);
        }
    }
    std::fprintf(stderr, "%s\n", line.c_str());
    for (const std::string &msg : warnings)
        std::fprintf(stderr, "WARNING sanity: broad %s: %s\n", name, msg.c_str());
    return true;
}

void bm_broad(benchmark::State &state, int scene, gjkb_backend backend, int threads)
{
    BroadScene &g = g_broad[scene];
    if (!g.load(scene)) {
        state.SkipWithError("out of memory building the scene");
        return;
    }
    gjkb_context *ctx = broad_context(backend, threads);
    if (!ctx) {
        state.SkipWithError("gjkb_create or gjkb_set_threads failed");
        return;
    }
    const gjkb_aabbs *boxes = &g.s.base.aabbs;
    gjkb_pairs out{};
    // one call first: the context's buffers grow to the scene's size
    gjkb_error err = gjkb_find_pairs(ctx, boxes, nullptr, &out);
    Clock clock;
    for (auto _ : state) {
        if (err != GJKB_OK)
            break;
        clock.begin();
        err = gjkb_find_pairs(ctx, boxes, nullptr, &out);
        clock.end();
        benchmark::DoNotOptimize(out.count);
        benchmark::ClobberMemory();
    }
    if (err != GJKB_OK) {
        state.SkipWithError(gjkb_last_error(ctx));
        return;
    }
    state.counters["pairs"] = out.count;
    if (g.expect[0] >= 0)
        state.counters["expected"] = (double)g.expect[0];
    clock.report(state, g.s.base.count);
}

#ifdef GJKB_PEERS
const char *const bt_names[] = { "dbvt", "sweep3" };

// A sweep and prune above 16-bit range: boxes are inserted one at a time,
// each edge sorted into place by insertion, O(n^2) (100k boxes: minutes).
bool bt_build_is_slow(int kind, uint32_t boxes)
{
    return kind == BENCH_BT_SWEEP3 && boxes > BENCH_BT_SWEEP3_16BIT_MAX;
}

// Bullet's pairs on boxes k of the scene against the checker's count: the
// cached pairs that overlap must be exactly the checker's.
std::string bt_check(BroadScene &g, const bench_bullet_broad *p, int k, std::vector<std::string> &warnings)
{
    uint32_t cached = bench_bullet_broad_pairs(p), exact = bench_bullet_broad_exact(p, g.boxes(k));
    if (g.expect[k] >= 0 && (int64_t)exact != g.expect[k])
        warnings.push_back(std::string(bench_bullet_broad_impl(p)) + " holds " + std::to_string(exact) +
                           " overlapping pairs on the " + copy_name(k) + ", the checker finds " +
                           std::to_string(g.expect[k]));
    return std::to_string(cached) + " pairs cached, " + std::to_string(exact) + " overlapping (checker " +
           (g.expect[k] >= 0 ? std::to_string(g.expect[k]) : std::string("skipped")) + ")";
}

void bt_warn(int scene, const std::vector<std::string> &warnings)
{
    for (const std::string &msg : warnings)
        std::fprintf(stderr, "WARNING sanity: broad %s: %s\n", bench_broad_scene_name(scene), msg.c_str());
}

void bm_bullet_build(benchmark::State &state, int scene, int kind)
{
    BroadScene &g = g_broad[scene];
    if (!g.load(scene)) {
        state.SkipWithError("out of memory building the scene");
        return;
    }
    bench_bullet_broad *p = nullptr;
    bool ok = true;
    Clock clock;
    for (auto _ : state) {
        // a fresh broadphase; the last one's teardown is not timed
        state.PauseTiming();
        bench_bullet_broad_free(p);
        p = bench_bullet_broad_new(kind, g.s.base.count, g.s.world_min, g.s.world_max);
        ok = p != nullptr;
        state.ResumeTiming();
        if (!ok)
            break;
        clock.begin();
        ok = bench_bullet_broad_add(p, &g.s.base) == 0;
        clock.end();
        if (!ok)
            break;
    }
    if (!ok || !p) {
        bench_bullet_broad_free(p);
        state.SkipWithError("Bullet ran out of memory");
        return;
    }
    std::vector<std::string> warnings;
    std::string check = bt_check(g, p, 0, warnings);
    if (!g.built_checked[kind]) {
        if (g_broad_sanity)
            std::fprintf(stderr, "sanity: broad %s: %s build: %s\n", bench_broad_scene_name(scene),
                         bench_bullet_broad_impl(p), check.c_str());
        bt_warn(scene, warnings);
        g.built_checked[kind] = true;
    }
    state.counters["pairs"] = bench_bullet_broad_pairs(p);
    state.counters["overlapping"] = bench_bullet_broad_exact(p, &g.s.base);
    if (g.expect[0] >= 0)
        state.counters["expected"] = (double)g.expect[0];
    clock.report(state, g.s.base.count);
    // the last build serves /update, which need not build its own
    if (!g.live[kind])
        g.live[kind] = p;
    else
        bench_bullet_broad_free(p);
}

void bm_bullet_update(benchmark::State &state, int scene, int kind)
{
    BroadScene &g = g_broad[scene];
    if (!g.load(scene)) {
        state.SkipWithError("out of memory building the scene");
        return;
    }
    bench_bullet_broad *&p = g.live[kind];
    if (!p) {   // /build did not run (filtered out): built here, untimed
        p = bench_bullet_broad_new(kind, g.s.base.count, g.s.world_min, g.s.world_max);
        if (!p || bench_bullet_broad_add(p, &g.s.base) != 0) {
            bench_bullet_broad_free(p);
            p = nullptr;
            state.SkipWithError("Bullet ran out of memory");
            return;
        }
    }
    if (!g.checked[kind]) {
        // the first two frames, checked: then the timed ones alternate
        std::vector<std::string> warnings;
        std::string line;
        for (int k = 1; k <= 2; k++) {
            bench_bullet_broad_update(p, g.boxes(k));
            line += std::string(k == 1 ? "" : "; ") + "frame " + std::to_string(k) + ": " + bt_check(g, p, k, warnings);
        }
        if (g_broad_sanity)
            std::fprintf(stderr, "sanity: broad %s: %s update: %s\n", bench_broad_scene_name(scene),
                         bench_bullet_broad_impl(p), line.c_str());
        bt_warn(scene, warnings);
        g.checked[kind] = true;
        g.frame[kind] = 0;   // the next frame goes to moved copy 1
    }
    int last = 0;
    Clock clock;
    for (auto _ : state) {
        last = (int)(g.frame[kind]++ & 1u);   // every frame moves every box
        clock.begin();
        bench_bullet_broad_update(p, &g.s.moved[last]);
        clock.end();
    }
    state.counters["pairs"] = bench_bullet_broad_pairs(p);
    state.counters["overlapping"] = bench_bullet_broad_exact(p, &g.s.moved[last]);
    if (g.expect[1 + last] >= 0)
        state.counters["expected"] = (double)g.expect[1 + last];
    clock.report(state, g.s.base.count);
}
#endif

void register_broad()
{
    const bool threads = broad_have_threads();
    for (int sc = 0; sc < BROAD_SCENES; sc++) {
        const std::string scene = bench_broad_scene_name(sc);
        for (int b = GJKB_BACKEND_SCALAR; b <= GJKB_BACKEND_NEON; b++) {
            gjkb_backend be = (gjkb_backend)b;
            if (!gjkb_backend_available(be))
                continue;
            for (int t : broad_threads) {
                if (t > 1 && !threads)
                    continue;
                std::string name = "BM_broad/" + scene + "/" + gjkb_backend_name(be) + "/threads:" + std::to_string(t);
                benchmark::RegisterBenchmark(name.c_str(), [sc, be, t](benchmark::State &st) {
                    bm_broad(st, sc, be, t);
                })->Unit(benchmark::kMicrosecond);
            }
        }
#ifdef GJKB_PEERS
        for (int kind : { BENCH_BT_DBVT, BENCH_BT_SWEEP3 }) {
            std::string base = std::string("BM_bullet_") + bt_names[kind] + "/" + scene;
            auto *build = benchmark::RegisterBenchmark((base + "/build").c_str(), [sc, kind](benchmark::State &st) {
                bm_bullet_build(st, sc, kind);
            });
            build->Unit(benchmark::kMicrosecond);
            // One build is minutes (one iteration, as it outlasts the minimum
            // time), and /update reuses it: measured once. Google Benchmark
            // names it .../build/repeats:1.
            if (bt_build_is_slow(kind, bench_broad_scene_size(sc)))
                build->Repetitions(1);
            benchmark::RegisterBenchmark((base + "/update").c_str(), [sc, kind](benchmark::State &st) {
                bm_bullet_update(st, sc, kind);
            })->Unit(benchmark::kMicrosecond);
        }
#endif
    }
    std::string sizes;
    for (int sc = 0; sc < BROAD_SCENES; sc++)
        sizes += std::string(sc ? "," : "") + bench_broad_scene_name(sc) + "=" +
                 std::to_string(bench_broad_scene_size(sc));
    benchmark::AddCustomContext("gjkb_broad_boxes", sizes);
#ifdef GJKB_PEERS
    std::string sweep3;
    for (int sc = 0; sc < BROAD_SCENES; sc++)
        sweep3 += std::string(sc ? "," : "") + bench_broad_scene_name(sc) + "=" +
                  (bench_broad_scene_size(sc) > BENCH_BT_SWEEP3_16BIT_MAX ? "bt32BitAxisSweep3" : "btAxisSweep3");
    benchmark::AddCustomContext("gjkb_bullet_sweep3", sweep3);
#endif
}

// ---- sanity ---------------------------------------------------------------

// The plain GJK on the known pairs: verdicts of both queries, and
// distances to plain_dist_tol of the pair's scale.
template <class Report>
void sanity_known_plain(const bench_set &s, const uint8_t *expect, const double *expect_dist, Report &report)
{
    const uint32_t n = s.pair_count;
    std::vector<uint8_t> hit(n);
    std::vector<double> dist(n), scale(n);
    plain_gjk *plain = plain_gjk_prepare(&s);
    if (!plain) {
        std::fprintf(stderr, "sanity: out of memory\n");
        return;
    }
    bench_pair_scales(&s, scale.data());
    plain_gjk_hit(plain, hit.data(), nullptr);
    report("plain GJK (hit)", bench_mismatches(hit.data(), expect, n));
    plain_gjk_distance(plain, hit.data(), dist.data(), nullptr);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += !(hit[i] == expect[i] && std::fabs(dist[i] - expect_dist[i]) <= plain_dist_tol * scale[i]);
    report("plain GJK (distance)", bad);
    plain_gjk_free(plain);
}

// Known pairs: the reference and each peer against exact answers.
void sanity_known()
{
    bench_set s{};
    uint8_t *expect = nullptr;
    double *expect_dist = nullptr;
    if (bench_known_make(&s, &expect, &expect_dist) != 0) {
        std::fprintf(stderr, "sanity: out of memory\n");
        return;
    }
    const uint32_t n = s.pair_count;
    std::vector<uint8_t> hit(n);
    auto report = [&](const char *who, uint32_t bad) {
        if (bad)
            std::fprintf(stderr, "WARNING sanity: %s disagrees with the exact answer on %u of %u known pairs\n",
                         who, bad, n);
        else
            std::fprintf(stderr, "sanity: %s answers all %u known pairs correctly\n", who, n);
    };

    gjkb_context *ctx = nullptr;
    bench_out out{};
    if (gjkb_backend_available(GJKB_BACKEND_REFERENCE) &&
        bench_context_create(&s, GJKB_BACKEND_REFERENCE, &ctx) == GJKB_OK &&
        bench_out_alloc(&out, n) == 0) {
        uint32_t bad = 0;
        if (bench_run(ctx, &s, GJKB_HIT, &out) == GJKB_OK) {
            bench_verdicts(&out, hit.data());
            bad += bench_mismatches(hit.data(), expect, n);
        } else {
            bad = n;
        }
        if (bench_run(ctx, &s, GJKB_DISTANCE, &out) == GJKB_OK) {
            bench_verdicts(&out, hit.data());
            for (uint32_t i = 0; i < n; i++) {
                bool ok = hit[i] == expect[i] &&
                          (expect[i] || std::fabs(out.distance[i] - expect_dist[i]) <= 1e-5);
                bad += !ok;
            }
        } else {
            bad += n;
        }
        report("reference (hit and distance)", bad);
    } else {
        std::fprintf(stderr, "WARNING sanity: the reference backend is not usable\n");
    }
    bench_out_free(&out);
    gjkb_destroy(ctx);

    sanity_known_plain(s, expect, expect_dist, report);

#ifdef GJKB_PEERS
    bench_ccd *ccd = bench_ccd_prepare(&s);
    bench_bullet *bullet = bench_bullet_prepare(&s);
    if (ccd && bullet) {
        bench_ccd_gjk(ccd, hit.data());
        report("libccd GJK", bench_mismatches(hit.data(), expect, n));
        bench_ccd_gjk_centre(ccd, hit.data());
        report("libccd GJK (centre start)", bench_mismatches(hit.data(), expect, n));
        bench_ccd_mpr(ccd, hit.data());
        report("libccd MPR", bench_mismatches(hit.data(), expect, n));
        std::vector<double> dist(n);
        for (int epa = 0; epa < 2; epa++) {
            if (epa)
                bench_bullet_gjk_epa(bullet, hit.data(), dist.data());
            else
                bench_bullet_gjk(bullet, hit.data(), dist.data());
            uint32_t bad = 0;
            for (uint32_t i = 0; i < n; i++) {
                // Bullet computes in float
                bool ok = hit[i] == expect[i] &&
                          (expect[i] || std::fabs(dist[i] - expect_dist[i]) <= 1e-3);
                bad += !ok;
            }
            report(epa ? "Bullet GJK with EPA (verdict and distance)" : "Bullet GJK (verdict and distance)", bad);
        }
    } else {
        std::fprintf(stderr, "sanity: out of memory\n");
    }
    bench_ccd_free(ccd);
    bench_bullet_free(bullet);
#endif
    std::free(expect);
    std::free(expect_dist);
    bench_set_free(&s);
}

// The plain GJK against the reference's signed distances on the loaded
// workload: a disagreement outside the touching band is a bug (WARNING).
void sanity_plain(int w)
{
    const char *name = bench_workload_name(w);
    if (!g_wl.ensure_ref_signed()) {
        std::fprintf(stderr, "WARNING sanity: %s: no reference distances for the plain GJK\n", name);
        return;
    }
    const uint32_t n = g_wl.set.pair_count;
    for (bool dist : { false, true }) {
        uint32_t limited = 0;
        run_plain(g_wl, dist, &limited);
        PlainCheck c = plain_check(g_wl, dist);
        std::string line = std::string("sanity: ") + name + ": plain GJK " + (dist ? "distance" : "hit") +
                           ": verdicts agree on " + std::to_string(n - c.differ) + " of " + std::to_string(n) +
                           " (" + std::to_string(c.differ_out) + " differing outside the touching band), " +
                           std::to_string(limited) + " at the iteration limit";
        if (dist)
            line += "; distances within " + std::to_string(plain_dist_tol) + " of the scale on " +
                    std::to_string(c.dist_checked - c.dist_bad) + " of " + std::to_string(c.dist_checked) +
                    " separated pairs";
        std::fprintf(stderr, "%s\n", line.c_str());
        if (c.differ_out || c.dist_bad)
            std::fprintf(stderr, "WARNING sanity: %s: the plain GJK (%s) disagrees with the reference outside "
                         "the touching band: %u verdicts, %u distances\n",
                         name, dist ? "distance" : "hit", c.differ_out, c.dist_bad);
    }
}

// Every workload: each available backend and peer against the reference.
void sanity_workloads()
{
    for (int w = 0; w < WL_COUNT; w++) {
        if (!g_wl.load(w)) {
            std::fprintf(stderr, "sanity: out of memory\n");
            return;
        }
        const uint32_t n = g_wl.set.pair_count;
        if (!g_wl.have_ref) {
            std::fprintf(stderr, "WARNING sanity: %s: no reference verdicts\n", bench_workload_name(w));
            continue;
        }
        uint32_t ref_hits = 0;
        for (uint8_t h : g_wl.ref_hit)
            ref_hits += h;
        std::string line = std::string("sanity: ") + bench_workload_name(w) + ": reference " +
                           std::to_string(ref_hits) + " hits; verdicts differing:";
        std::vector<std::string> warnings;
        auto note = [&](const std::string &who) {   // g_wl.hit holds who's verdicts
            uint32_t bad = bench_mismatches(g_wl.hit.data(), g_wl.ref_hit.data(), n);
            line += " " + who + " " + std::to_string(bad);
            if (bad > n / 100)
                warnings.push_back(who + " disagrees with the reference on " + std::to_string(bad) +
                                   " of " + std::to_string(n) + " pairs");
        };
        for (int b = GJKB_BACKEND_SCALAR; b <= GJKB_BACKEND_NEON; b++) {
            gjkb_backend be = (gjkb_backend)b;
            gjkb_context *ctx = gjkb_backend_available(be) ? g_wl.context(be) : nullptr;
            if (ctx && bench_run(ctx, &g_wl.set, GJKB_HIT, &g_wl.out) == GJKB_OK) {
                bench_verdicts(&g_wl.out, g_wl.hit.data());
                note(gjkb_backend_name(be));
            }
        }
#ifdef GJKB_PEERS
        for (Peer p : all_peers) {
            run_peer(g_wl, p);
            note(peer_names[p]);
        }
#endif
        for (bool dist : { false, true }) {
            run_plain(g_wl, dist, nullptr);
            note(dist ? "plain_gjk_dist" : "plain_gjk_hit");
        }
        std::fprintf(stderr, "%s\n", line.c_str());
        for (const std::string &msg : warnings)
            std::fprintf(stderr, "WARNING sanity: %s: %s\n", bench_workload_name(w), msg.c_str());
        sanity_plain(w);
    }
    g_wl.release();
}

// Contact rows of one workload: every backend, then the penetration peers
// that can express it. Registered after the workload's hit and distance
// rows so that one workload's data serves them all.
void register_contact(int w)
{
    const std::string wl = bench_workload_name(w);
    const int reps = contact_reps();
    for (int b = GJKB_BACKEND_REFERENCE; b <= GJKB_BACKEND_NEON; b++) {
        gjkb_backend be = (gjkb_backend)b;
        if (!gjkb_backend_available(be))
            continue;
        std::string name = "BM_query/" + wl + "/contact/" + gjkb_backend_name(be);
        benchmark::RegisterBenchmark(name.c_str(), [w, be](benchmark::State &st) {
            bm_contact(st, w, be);
        })->Unit(benchmark::kMillisecond)->Repetitions(reps);
    }
#ifdef GJKB_PEERS
    for (PenPeer p : { CCD_GJK_PEN, CCD_MPR_PEN, BULLET_EPA, BULLET_BOXBOX, ODE_BOXBOX }) {
        if (pen_is_manifold(p) && !is_box_workload(w))
            continue;
        std::string name = std::string("BM_") + pen_names[p] + "/" + wl;
        benchmark::RegisterBenchmark(name.c_str(), [w, p](benchmark::State &st) {
            bm_peer_contact(st, w, p);
        })->Unit(benchmark::kMillisecond)->Repetitions(reps);
    }
#endif
}

void register_all()
{
    std::string backends;
    for (int w = 0; w < WL_COUNT; w++) {
        const std::string wl = bench_workload_name(w);
        for (int b = GJKB_BACKEND_REFERENCE; b <= GJKB_BACKEND_NEON; b++) {
            gjkb_backend be = (gjkb_backend)b;
            if (!gjkb_backend_available(be))
                continue;
            if (w == 0)
                backends += std::string(backends.empty() ? "" : ",") + gjkb_backend_name(be);
            for (gjkb_mode m : { GJKB_HIT, GJKB_DISTANCE }) {
                std::string name = "BM_query/" + wl + "/" + mode_name(m) + "/" + gjkb_backend_name(be);
                benchmark::RegisterBenchmark(name.c_str(), [w, be, m](benchmark::State &st) {
                    bm_query(st, w, be, m);
                })->Unit(benchmark::kMillisecond);
            }
        }
#ifdef GJKB_PEERS
        for (Peer p : all_peers) {
            std::string name = std::string("BM_") + peer_names[p] + "/" + wl;
            benchmark::RegisterBenchmark(name.c_str(), [w, p](benchmark::State &st) {
                bm_peer(st, w, p);
            })->Unit(benchmark::kMillisecond);
        }
#endif
        for (bool dist : { false, true }) {
            std::string name = std::string(dist ? "BM_plain_gjk_dist/" : "BM_plain_gjk_hit/") + wl;
            benchmark::RegisterBenchmark(name.c_str(), [w, dist](benchmark::State &st) {
                bm_plain(st, w, dist);
            })->Unit(benchmark::kMillisecond);
            name = std::string(dist ? "BM_plain_sat_dist/" : "BM_plain_sat_hit/") + wl;
            benchmark::RegisterBenchmark(name.c_str(), [w, dist](benchmark::State &st) {
                bm_plain(st, w, dist, true);
            })->Unit(benchmark::kMillisecond);
            name = std::string(dist ? "BM_plain_gjk_dist_whole/" : "BM_plain_gjk_hit_whole/") + wl;
            benchmark::RegisterBenchmark(name.c_str(), [w, dist](benchmark::State &st) {
                bm_plain_whole(st, w, dist);
            })->Unit(benchmark::kMillisecond);
        }
        register_contact(w);
    }
    register_broad();
    benchmark::AddCustomContext("gjkb_backends", backends);
    benchmark::AddCustomContext("gjkb_pairs_per_batch", std::to_string(BENCH_PAIRS));
#ifdef GJKB_PEERS
    benchmark::AddCustomContext("gjkb_peers", "libccd,bullet,ode,plain_gjk");
#endif
    benchmark::AddCustomContext("gjkb_contact_pairs", std::to_string(contact_pairs()));
    benchmark::AddCustomContext("gjkb_contact_repetitions", std::to_string(contact_reps()));
}

} // namespace

int main(int argc, char **argv)
{
    bool sanity = true;
    int kept = 1;
    for (int i = 1; i < argc; i++) {   // our own flag, hidden from the library
        if (std::strcmp(argv[i], "--gjkb_no_sanity") == 0)
            sanity = false;
        else
            argv[kept++] = argv[i];
    }
    argc = kept;
    g_broad_sanity = sanity;
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    register_all();
    if (sanity) {
        sanity_known();
        sanity_workloads();
    }
    benchmark::RunSpecifiedBenchmarks();
    g_wl.release();
    broad_release();
    benchmark::Shutdown();
    return 0;
}
