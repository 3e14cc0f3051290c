#!/usr/bin/env bash
# install.sh - installs the Release build in build/ (library, header, CLI,
# CMake and pkg-config files, the Python package) into GJKB_PREFIX (default
# /usr/local), where Debian's python3 finds `import gjkbatch`, then checks
# that import from outside the tree. run.sh and test.sh call it; GJKB_INSTALL=0
# leaves it out. PYTHON is the interpreter the package was configured for.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${GJKB_INSTALL:-1}" = 0 ] && exit 0
prefix=${GJKB_PREFIX:-/usr/local}
py=${PYTHON:-python3}
SUDO=""
if [ ! -w "$prefix" ] && [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install.sh: cannot write $prefix (set GJKB_PREFIX, or GJKB_INSTALL=0)" >&2; exit 1; }
  SUDO=sudo
fi
$SUDO cmake --install build --prefix "$prefix" >/dev/null
# The CLI in $prefix/bin finds the library through the loader's cache.
if [ "$prefix" = /usr/local ] || [ "$prefix" = /usr ]; then
  $SUDO ldconfig 2>/dev/null || true
fi
# Outside the source tree, as a user would (the package loads the library
# it was installed with).
pydir=$(grep '^GJKB_PYTHON_INSTALL_DIR:' build/CMakeCache.txt | cut -d= -f2 || true)
if [ -n "$pydir" ]; then
  extra=""
  case "$prefix" in /usr|/usr/local) ;; *) extra="$prefix/$pydir" ;; esac
  (cd / && PYTHONPATH="$extra" "$py" -c "import gjkbatch; print('gjkbatch: Python package installed:', gjkbatch.__file__, '->', gjkbatch.library_path)")
fi
