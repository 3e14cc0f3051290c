#!/usr/bin/env bash
# run.sh [gjkbatch run options] - installs what is missing, builds (Release)
# and runs the main job, `gjkbatch run`, on the embedded default batch.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGJKB_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target gjkbatch_cli >/dev/null
exec ./build/tools/gjkbatch run "$@"
