#!/usr/bin/env bash
# fuzz.sh [SECONDS] - builds the libFuzzer harnesses (tests/fuzz/) in
# build-fuzz/ with clang, the library under ASan + UBSan with coverage, and
# runs each fuzzer for SECONDS (default 60) on a temporary copy of its seed
# corpus (tests/fuzz/corpus/NAME/), so the committed corpus never grows.
# Any finding (failed check, sanitizer report, crash, leak, timeout, out of
# memory) fails the script; the inputs are kept in build-fuzz/findings/ and
# each run's log in build-fuzz/fuzz-NAME.log.
# FUZZ_SEED=N fixes libFuzzer's seed (the test command sets 1, so that CI
# answers for the code, not for a lucky draw); unset, every run explores
# from a new seed, as a session's longer exploratory runs should.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
if ! [[ "$secs" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: SECONDS must be a positive integer, not '$secs'" >&2
  exit 2
fi
if ! command -v clang >/dev/null; then
  echo "fuzz.sh: clang not found (bash scripts/deps.sh fuzz installs it)" >&2
  exit 1
fi

echo "== fuzz build (clang, ASan + UBSan, libFuzzer) in build-fuzz/"
# Line tables only: clang 14 crashes (SelectionDAG::salvageDebugInfo) on
# the AVX-512 kernel unit under full -g with the sanitizers.
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" \
  -DGJKB_FUZZ=ON -DGJKB_SANITIZE=ON -DGJKB_TESTS=OFF -DGJKB_OPENMP=OFF >/dev/null
cmake --build build-fuzz --target fuzz_pairfile fuzz_api -j"$(nproc)" >/dev/null

findings=build-fuzz/findings
mkdir -p "$findings"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
failed=0

# run NAME [libFuzzer flags]: fuzz_NAME on a copy of corpus/NAME.
run() {
  local name=$1 log=build-fuzz/fuzz-$1.log
  shift
  [ -z "${FUZZ_SEED:-}" ] || set -- -seed="$FUZZ_SEED" "$@"
  mkdir "$work/$name"
  cp tests/fuzz/corpus/"$name"/* "$work/$name/"
  echo "== fuzz_$name for $secs s"
  if build-fuzz/tests/fuzz/fuzz_"$name" -max_total_time="$secs" -timeout=60 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$findings/$name-" "$@" "$work/$name" >"$log" 2>&1; then
    grep -E '^#[0-9]+[[:space:]]+DONE' "$log" || true
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" || true
  else
    # the report from its first line (its end is ASan's shadow legend)
    awk '/^fuzz_(api|pairfile): |ERROR: |runtime error/ { on = 1 } on && n++ < 40' "$log"
    grep -E 'SUMMARY: |Test unit written' "$log" || true
    echo "fuzz.sh: fuzz_$name found a problem; input in $findings/, log in $log" >&2
    failed=1
  fi
}

run pairfile -dict=tests/fuzz/pairfile.dict
run api
exit $failed
