#!/usr/bin/env bash
# deps.sh [build|python|bench|cross|fuzz]... - installs the Debian packages gjkbatch needs
# for the given jobs, only those missing. Run as root on Debian 12 (or with
# sudo available); on any other machine install the listed packages yourself.
set -euo pipefail

pkgs=(cmake make gcc libc6-dev pkg-config libsimde-dev libcmocka-dev)
cross=0
for job in "$@"; do
  case "$job" in
    build) ;;
    # The Python package is ctypes over the shared library: no compiler, no pip.
    python) pkgs+=(python3 python3-numpy python3-pytest) ;;
    bench) pkgs+=(g++ libbenchmark-dev libccd-dev libbullet-dev libode-dev gnuplot-nox python3 util-linux) ;;
    cross) pkgs+=(gcc-aarch64-linux-gnu qemu-user libc6-dev-arm64-cross libcmocka-dev:arm64); cross=1 ;;
    # libFuzzer and the sanitizer runtimes for clang 14 are in libclang-rt-14-dev
    # (only recommended by clang); llvm-14 has the symbolizer for readable reports.
    fuzz) pkgs+=(clang libclang-rt-14-dev llvm-14) ;;
    *) echo "deps.sh: unknown job '$job' (build, python, bench, cross, fuzz)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deps.sh: need root to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
echo "deps.sh: installing ${missing[*]}"
if [ $cross -eq 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $SUDO dpkg --add-architecture arm64
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
