#!/usr/bin/env bash
# run.sh - builds the benchmark (Release, with the libccd, Bullet and ODE peers
# and the plain scalar float GJK of plain_gjk.c)
# in build-bench/, runs it pinned to one core with 5 repetitions (medians
# reported), and writes bench/results/<machine>-<date>.json, .png and .md
# (with -broad.png for the broadphase). The broadphase part takes about six
# minutes, four of them one bt32BitAxisSweep3 build of 100k boxes.
#
#   bench/run.sh                                  # the full run
#   bench/run.sh --benchmark_min_time=0.1 --benchmark_filter=box-box
#
# Contact-mode rows (BM_query/<workload>/contact/<backend> and the
# penetration peers: libccd, Bullet, ODE) run 3 times each, not 5: pairs
# the wide kernel does not cover yet run through the double-precision
# reference. GJKB_BENCH_CONTACT_REPS=n sets their repetitions and
# GJKB_BENCH_CONTACT_PAIRS=n shrinks their calls to the first n pairs.
#
#   bench/run.sh --benchmark_filter='contact|_pen|epa|boxbox'   # contact rows only
#
# Then the whole-frame comparison with Bullet's collision world: `gjkbatch
# run --mode contact --frames 150 --compare bullet` on the default scene,
# written to bench/results/<name>-frame-bullet.txt (GJKB_BENCH_FRAME=0
# skips it; it takes a few minutes).
#
# Arguments go to the benchmark binary after the defaults, so they can
# override them. GJKB_BENCH_NAME=name replaces <machine>-<date>. Run as root
# on a fresh Debian, it installs the packages it needs first.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build="$root/build-bench"
results="$here/results"

# ---- packages: the project's installer (root on Debian; else it lists them) ---
bash "$root/scripts/deps.sh" build bench

# ---- build -------------------------------------------------------------------
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
      -DGJKB_BENCH=ON -DGJKB_PEERS=ON -DGJKB_TESTS=OFF >/dev/null
cmake --build "$build" -j2 --target gjkb_bench
cmake --build "$build" -j2 --target gjkbatch_cli
cmake --build "$build" -j2 --target roofline 2>/dev/null || true   # x86-64 only
bin="$build/bench/gjkb_bench"

# ---- name: a short CPU slug and the date --------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
[ -n "$cpu" ] || cpu=$(uname -m)
machine=$(printf '%s' "$cpu" | sed -e 's/([^)]*)//g' -e 's/@.*//' -e 's/\bCPU\b//g' \
          | tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9]\+/-/g' -e 's/^-//' -e 's/-$//')
name=${GJKB_BENCH_NAME:-$machine-$(date +%Y%m%d)}
mkdir -p "$results"
json="$results/$name.json"

# ---- run -----------------------------------------------------------------------
# One core, away from core 0 where interrupts tend to land.
pin=()
if command -v taskset >/dev/null; then
    if [ "$(nproc)" -gt 1 ]; then pin=(taskset -c 1); else pin=(taskset -c 0); fi
else
    echo "run.sh: taskset not found, running unpinned" >&2
fi
"${pin[@]}" "$bin" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
    --benchmark_context="cpu=$(printf '%s' "$cpu" | tr -s ',=' '  ')" \
    --benchmark_out="$json.tmp" --benchmark_out_format=json "$@"
mv "$json.tmp" "$json"
# What the core can do, measured in the same sitting (docs/performance.md).
if [ -x "$build/bench/roofline" ]; then
    "${pin[@]}" "$build/bench/roofline" | tee "$results/$name-roofline.txt"
fi

# The whole frame against Bullet's world (tools/compare_bullet.c).
if [ "${GJKB_BENCH_FRAME:-1}" != 0 ]; then
    "${pin[@]}" "$build/tools/gjkbatch" run --mode contact --frames 150 --compare bullet --quiet \
        | tee "$results/$name-frame-bullet.txt" || echo "run.sh: the Bullet frame comparison failed" >&2
fi

python3 "$here/plot.py" "$json"
echo "run.sh: wrote $json and its charts and tables" >&2
