#!/usr/bin/env bash
# run.sh [gjkbatch run options] - installs what is missing, builds (Release),
# installs the build into /usr/local (scripts/install.sh: the library, the
# CLI and the Python package, so that `import gjkbatch` works; GJKB_PREFIX
# elsewhere, GJKB_INSTALL=0 not at all) and runs the main job, `gjkbatch
# run`, on the embedded default scene (with --verify when no option is given).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh build python
# Debian's python3, the one python3-numpy is for (a python3 earlier on PATH,
# such as pyenv's, may have no numpy).
PYTHON=$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)
export PYTHON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGJKB_TESTS=OFF -DGJKB_PYTHON=ON \
  -DPython3_EXECUTABLE="$PYTHON" >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
bash scripts/install.sh
if [ $# -eq 0 ]; then
  set -- --verify
fi
exec ./build/tools/gjkbatch run "$@"
