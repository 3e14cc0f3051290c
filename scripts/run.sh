#!/usr/bin/env bash
# run.sh [gjkbatch run options] - installs what is missing, builds (Release)
# and runs the main job, `gjkbatch run`, on the embedded default scene
# (with --verify when no option is given).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGJKB_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target gjkbatch_cli >/dev/null
if [ $# -eq 0 ]; then
  set -- --verify
fi
exec ./build/tools/gjkbatch run "$@"
