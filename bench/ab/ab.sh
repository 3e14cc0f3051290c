#!/usr/bin/env bash
# ab.sh BASE_REV [REPS [BACKENDS...]] - A/B of the narrowphase rows against
# an older commit: builds BASE_REV (a temporary worktree) and the working
# tree in Release, loads both into one process (abdl.c), alternates whole
# batches of 65,536 pairs pinned to one core, and prints per row the
# median time ratio base/new with each build loaded first and their mean
# (> 1: the working tree is faster). glibc's mmap threshold is fixed,
# else the second-loaded build runs slower. Shared machines are noisy:
# rerun rows that look off with more REPS; AB_ONLY=REGEX keeps the rows
# whose "backend workload hit|dist" matches it.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
base_rev=$1; reps=${2:-21}; shift $(( $# > 1 ? 2 : 1 )) || true
backends=("$@"); [ ${#backends[@]} -gt 0 ] || backends=(avx2 sse4 scalar)
tmp=$(mktemp -d); trap 'git -C "$root" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git -C "$root" worktree add --detach "$tmp/base" "$base_rev" >/dev/null
lib() {  # lib SRC OUT.so
    cmake -S "$1" -B "$1/build-ab" -DCMAKE_BUILD_TYPE=Release -DGJKB_TESTS=OFF >/dev/null
    cmake --build "$1/build-ab" -j2 --target gjkbatch_static >/dev/null
    cc -O2 -shared -fPIC -std=c11 -I"$1/include" -I"$1/bench" "$here/drv.c" "$1/bench/harness.c" \
       "$1/build-ab/libgjkbatch.a" -Wl,-Bsymbolic -fopenmp -lm -o "$2"
}
lib "$tmp/base" "$tmp/base.so"
lib "$root" "$tmp/new.so"
cc -O2 "$here/abdl.c" -o "$tmp/abdl" -ldl
cpu=$(( $(nproc) > 1 ? 1 : 0 ))
export MALLOC_MMAP_THRESHOLD_=65536
for be in "${backends[@]}"; do
  for wl in sphere-sphere box-box capsule-box hull16-hull16 hull64-hull64 mixed mixed-far; do
    for m in 0 1; do
      row="$be $wl $([ $m = 1 ] && echo dist || echo hit)"
      [[ "$row" =~ ${AB_ONLY:-.} ]] || continue
      r1=$(taskset -c $cpu "$tmp/abdl" "$tmp/base.so" "$tmp/new.so" "$be" "$wl" $m "$reps" | sed 's/.*ratio \([0-9.]*\).*/\1/')
      r2=$(taskset -c $cpu "$tmp/abdl" "$tmp/new.so" "$tmp/base.so" "$be" "$wl" $m "$reps" | sed 's/.*ratio \([0-9.]*\).*/\1/')
      awk -v be="$be" -v wl="$wl" -v m=$m -v a="$r1" -v b="$r2" \
        'BEGIN { printf "%-7s %-14s %-5s base first %.3f  new first %.3f  mean %.3f\n", be, wl, m ? "dist" : "hit", a, 1 / b, (a + 1 / b) / 2 }'
    done
  done
done
