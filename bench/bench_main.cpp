// bench_main.cpp - Google Benchmark driver: every workload of workloads.h
// through every backend this build and CPU run, both queries, and (with
// GJKB_PEERS) libccd and Bullet on the same pairs. One benchmark iteration is
// one whole batch of BENCH_PAIRS pairs, so items/s is pairs/s.
//
// Counters: hits (overlapping pairs), mismatch (verdicts that differ from
// the reference backend's hit query on the same pairs), iters (mean support
// evaluations per pair), unresolved (limit or invalid statuses).
//
// Before the benchmarks a sanity pass checks the reference and each peer on
// hand-made pairs with known answers, and compares every peer's verdicts
// with the reference on every workload; --gjkb_no_sanity skips it.
#include <benchmark/benchmark.h>

#include "harness.h"
#ifdef GJKB_PEERS
#include "peers.h"
#endif

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char *mode_name(gjkb_mode m)
{
    return m == GJKB_HIT ? "hit" : "distance";
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
    gjkb_context *ctx[GJKB_BACKEND_COUNT] = {};
#ifdef GJKB_PEERS
    bench_ccd *ccd = nullptr;
    bench_bullet *bullet = nullptr;
#endif

    void release()
    {
        for (gjkb_context *&c : ctx) {
            gjkb_destroy(c);
            c = nullptr;
        }
#ifdef GJKB_PEERS
        bench_ccd_free(ccd);
        bench_bullet_free(bullet);
        ccd = nullptr;
        bullet = nullptr;
#endif
        if (id >= 0) {
            bench_out_free(&out);
            bench_set_free(&set);
        }
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
        ref_hit.assign(set.pair_count, 0);
        gjkb_context *ref = gjkb_backend_available(GJKB_BACKEND_REFERENCE)
                                ? context(GJKB_BACKEND_REFERENCE) : nullptr;
        if (ref && bench_run(ref, &set, GJKB_HIT, &out) == GJKB_OK) {
            bench_verdicts(&out, ref_hit.data());
            have_ref = true;
        }
#ifdef GJKB_PEERS
        ccd = bench_ccd_prepare(&set);
        bullet = bench_bullet_prepare(&set);
        if (!ccd || !bullet) {
            release();
            return false;
        }
#endif
        return true;
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
}

#ifdef GJKB_PEERS
enum Peer { CCD_GJK, CCD_MPR, BULLET_GJK };
const char *const peer_names[] = { "ccd_gjk", "ccd_mpr", "bullet_gjk" };

uint32_t run_peer(Workload &wl, Peer peer)
{
    switch (peer) {
    case CCD_GJK: return bench_ccd_gjk(wl.ccd, wl.hit.data());
    case CCD_MPR: return bench_ccd_mpr(wl.ccd, wl.hit.data());
    default: return bench_bullet_gjk(wl.bullet, wl.hit.data(), wl.dist.data());
    }
}

void bm_peer(benchmark::State &state, int w, Peer peer)
{
    if (!g_wl.load(w)) {
        state.SkipWithError("out of memory building the workload");
        return;
    }
    uint32_t hits = 0;
    for (auto _ : state) {
        hits = run_peer(g_wl, peer);
        benchmark::DoNotOptimize(hits);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * (int64_t)g_wl.set.pair_count);
    state.counters["hits"] = hits;
    state.counters["mismatch"] = g_wl.mismatches();
}
#endif

// ---- sanity ---------------------------------------------------------------

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

#ifdef GJKB_PEERS
    bench_ccd *ccd = bench_ccd_prepare(&s);
    bench_bullet *bullet = bench_bullet_prepare(&s);
    if (ccd && bullet) {
        bench_ccd_gjk(ccd, hit.data());
        report("libccd GJK", bench_mismatches(hit.data(), expect, n));
        bench_ccd_mpr(ccd, hit.data());
        report("libccd MPR", bench_mismatches(hit.data(), expect, n));
        std::vector<double> dist(n);
        bench_bullet_gjk(bullet, hit.data(), dist.data());
        uint32_t bad = 0;
        for (uint32_t i = 0; i < n; i++) {
            // Bullet computes in float
            bool ok = hit[i] == expect[i] &&
                      (expect[i] || std::fabs(dist[i] - expect_dist[i]) <= 1e-3);
            bad += !ok;
        }
        report("Bullet GJK (verdict and distance)", bad);
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
        for (Peer p : { CCD_GJK, CCD_MPR, BULLET_GJK }) {
            run_peer(g_wl, p);
            note(peer_names[p]);
        }
#endif
        std::fprintf(stderr, "%s\n", line.c_str());
        for (const std::string &msg : warnings)
            std::fprintf(stderr, "WARNING sanity: %s: %s\n", bench_workload_name(w), msg.c_str());
    }
    g_wl.release();
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
        for (Peer p : { CCD_GJK, CCD_MPR, BULLET_GJK }) {
            std::string name = std::string("BM_") + peer_names[p] + "/" + wl;
            benchmark::RegisterBenchmark(name.c_str(), [w, p](benchmark::State &st) {
                bm_peer(st, w, p);
            })->Unit(benchmark::kMillisecond);
        }
#endif
    }
    benchmark::AddCustomContext("gjkb_backends", backends);
    benchmark::AddCustomContext("gjkb_pairs_per_batch", std::to_string(BENCH_PAIRS));
#ifdef GJKB_PEERS
    benchmark::AddCustomContext("gjkb_peers", "libccd,bullet");
#endif
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
    benchmark::Shutdown();
    return 0;
}
