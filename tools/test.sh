#!/usr/bin/env bash
# Build npusim and run the whole test suite (what .ci/run and the README's test command do).
# Extra arguments go to ctest. NPUSIM_BUILD_DIR (default: build) and NPUSIM_JOBS override defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
build="${NPUSIM_BUILD_DIR:-build}"
jobs="${NPUSIM_JOBS:-$(nproc)}"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNPUSIM_BUILD_TESTS=ON -DNPUSIM_BUILD_BENCH=ON
cmake --build "$build" -j"$jobs"
ctest --test-dir "$build" --output-on-failure -j"$jobs" --timeout 300 "$@"
