#!/usr/bin/env bash
# stages.sh [BACKEND WORKLOAD MODE] - instructions per pair of a whole
# gjkb_query_batch call by stage (validation, bucketing, pack, support,
# loop steps, queue, scatter), counted by callgrind: exact on a shared
# machine without performance counters. Builds the library with -g in
# build-stages/ first. Needs valgrind and binutils (not project
# dependencies: a developer's tool). MODE: 0 hit, 1 distance, 2 contact.
#
#   bench/stages/stages.sh avx2 box-box 0
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build-stages"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O3 -g -DNDEBUG" \
      -DGJKB_TESTS=OFF >/dev/null
cmake --build "$build" -j2 --target gjkbatch_static >/dev/null
cc -O3 -g -std=c11 -I"$root/include" -I"$root/bench" "$here/stages.c" "$root/bench/harness.c" \
   "$build/libgjkbatch.a" -lm -fopenmp -o "$build/stages"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
pairs=$(valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$out" \
        --toggle-collect=gjkb_query_batch "$build/stages" "${1:-avx2}" "${2:-box-box}" "${3:-0}" 2>/dev/null)
python3 "$here/stages.py" "$out" "$build/stages" $((2 * pairs))
