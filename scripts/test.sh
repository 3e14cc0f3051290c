#!/usr/bin/env bash
# test.sh - installs what is missing and runs every test suite:
#   1. Release build (-Werror): all tests, every backend this CPU runs plus
#      the SIMDe-emulated NEON kernel;
#   2. ASan + UBSan build: all tests;
#   3. aarch64 cross build run under qemu-aarch64: real NEON instructions;
#   4. the libFuzzer harnesses (clang, ASan + UBSan), 60 s each from a
#      fixed seed (FUZZ_SEED, default 1)
#      (scripts/fuzz.sh);
# after 1 and 3, the same bits everywhere: tests/bits_hash hashes every
# output of seeded batches of every workload in every mode on each backend,
# and scripts/compare_bits.sh fails unless the wide backends agree with
# each other, natively and under qemu-aarch64 (emulated x86 and NEON units
# natively, real NEON there), and each backend's hashes match across the
# two architectures (about 35 s);
# and between 1 and 2, an install used by a user's project (CMake package,
# pkg-config), and by Python: the pytest suite (python/tests, a CTest test
# of build 1) ran on the build tree; the package is then installed into
# /usr/local (scripts/install.sh, as run.sh does; GJKB_INSTALL=0 skips) and
# imported from there, and the example runs on it.
# GJKB_TEST_PAIRS sets the size of the large random batches (default 1e6 in
# the native build; the sanitizer run uses 100,000 and the qemu run 10,000 to
# stay fast, and the qemu run checks 20,000 oracle pairs per kind pair instead
# of 100,000: GJKB_ORACLE_PAIRS, 200 pairs per isolation set instead of
# 600: GJKB_ISOLATION_PAIRS; contact pairs per kind pair: GJKB_CONTACT_PAIRS,
# 10,000 natively, 500 under the sanitizers, 300 under qemu).
# SKIP_CROSS=1, SKIP_SANITIZE=1 or SKIP_FUZZ=1 leave a stage out.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=(build python)
[ "${SKIP_CROSS:-0}" = 1 ] || jobs+=(cross)
[ "${SKIP_FUZZ:-0}" = 1 ] || jobs+=(fuzz)
bash scripts/deps.sh "${jobs[@]}"
n=$(nproc)
# Each stage names itself with the seconds since the start: CI has 20 minutes.
stage() { echo "== [${SECONDS}s] $*"; }

# Debian's python3, the one python3-numpy and python3-pytest are for.
PYTHON=$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)
export PYTHON

stage "native Release build (the pytest suite is its CTest test 'python')"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGJKB_WERROR=ON -DGJKB_PYTHON=ON \
  -DPython3_EXECUTABLE="$PYTHON" >/dev/null
cmake --build build -j"$n" >/dev/null
ctest --test-dir build --output-on-failure -j"$n"
stage "the same bits on every backend (bits_hash)"
native=$(uname -m)
./build/tests/bits_hash >build/bits_hash.txt
bash scripts/compare_bits.sh "$native=build/bits_hash.txt"

stage "install, then build a user's project against it (CMake package and pkg-config)"
prefix=$(mktemp -d)
cmake --install build --prefix "$prefix" >/dev/null
cmake -S tests/install -B build-install -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build build-install >/dev/null
LD_LIBRARY_PATH="$prefix/lib" ./build-install/consumer
libdir=$(dirname "$(find "$prefix" -name gjkbatch.pc)")
cc tests/install/consumer.c $(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs gjkbatch) -lm -o build-install/consumer-pc
LD_LIBRARY_PATH="$prefix/lib" ./build-install/consumer-pc
rm -rf "$prefix"
stage "install into ${GJKB_PREFIX:-/usr/local}; import gjkbatch from there, run the example on it"
bash scripts/install.sh
if [ "${GJKB_INSTALL:-1}" != 0 ]; then
  case "${GJKB_PREFIX:-/usr/local}" in
    /usr|/usr/local) pypath="" ;;
    *) pypath="${GJKB_PREFIX}/$(grep '^GJKB_PYTHON_INSTALL_DIR:' build/CMakeCache.txt | cut -d= -f2 || true)" ;;
  esac
  PYTHONPATH="$pypath" "$PYTHON" examples/arm_clearance.py --configs 20 --check
fi

if [ "${SKIP_SANITIZE:-0}" != 1 ]; then
  stage "ASan + UBSan build"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGJKB_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$n" >/dev/null
  GJKB_TEST_PAIRS=${GJKB_TEST_PAIRS:-100000} GJKB_CONTACT_PAIRS=${GJKB_CONTACT_PAIRS:-500} \
    ctest --test-dir build-asan --output-on-failure -j"$n"
fi

if [ "${SKIP_CROSS:-0}" != 1 ]; then
  stage "aarch64 build under qemu-aarch64 (NEON native)"
  # Without OpenMP: qemu-user (7.2) hangs on any second thread, so the
  # thread tests run natively only (they skip when threads are unsupported).
  cmake -S . -B build-aarch64 -DCMAKE_BUILD_TYPE=Release -DGJKB_WERROR=ON -DGJKB_OPENMP=OFF \
    -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake >/dev/null
  cmake --build build-aarch64 -j"$n" >/dev/null
  GJKB_TEST_PAIRS=${GJKB_TEST_PAIRS:-10000} GJKB_ORACLE_PAIRS=${GJKB_ORACLE_PAIRS:-20000} \
    GJKB_ISOLATION_PAIRS=${GJKB_ISOLATION_PAIRS:-200} GJKB_CONTACT_PAIRS=${GJKB_CONTACT_PAIRS:-300} ctest --test-dir build-aarch64 --output-on-failure -j"$n"
  stage "the same bits on aarch64 as on $native (bits_hash under qemu)"
  # The toolchain file's emulator. The backends with real aarch64
  # instructions only: the emulated x86 units' bits are the native run's.
  qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib \
    build-aarch64/tests/bits_hash --backends reference,scalar,neon >build-aarch64/bits_hash.txt
  bash scripts/compare_bits.sh "$native=build/bits_hash.txt" aarch64=build-aarch64/bits_hash.txt
fi
if [ "${SKIP_FUZZ:-0}" != 1 ]; then
  FUZZ_SEED=${FUZZ_SEED:-1} bash scripts/fuzz.sh 60
fi
stage "all test suites passed"
