#!/usr/bin/env bash
# Install what is missing, build npusim and run the default demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
build="${NPUSIM_BUILD_DIR:-build}"
bash tools/configure.sh "$build" -DCMAKE_BUILD_TYPE=Release -DNPUSIM_BUILD_TESTS=OFF -DNPUSIM_BUILD_BENCH=OFF
cmake --build "$build" -j"${NPUSIM_JOBS:-$(nproc)}" --target npusim
"$build/tools/npusim" "$@"
