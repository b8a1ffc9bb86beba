#!/usr/bin/env bash
# Build npusim and run the whole test suite (what .ci/run and the README's test command do):
#   1. the Release build (build/) and every test;
#   2. the same suite built with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/,
#      -O1 without debug info to keep the build short; benchmarks not built) — skip it with NPUSIM_ASAN=0.
# Extra arguments go to ctest (both runs). NPUSIM_BUILD_DIR (default: build), NPUSIM_ASAN_BUILD_DIR
# (default: build-asan) and NPUSIM_JOBS override the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
build="${NPUSIM_BUILD_DIR:-build}"
jobs="${NPUSIM_JOBS:-$(nproc)}"
start=$(date +%s)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNPUSIM_BUILD_TESTS=ON -DNPUSIM_BUILD_BENCH=ON
cmake --build "$build" -j"$jobs"
ctest --test-dir "$build" --output-on-failure -j"$jobs" --timeout 300 "$@"
echo "npusim: Release build and suite took $(( $(date +%s) - start )) s"
if [ "${NPUSIM_ASAN:-1}" != "0" ]; then
    start=$(date +%s)
    asan="${NPUSIM_ASAN_BUILD_DIR:-build-asan}"
    cmake -S . -B "$asan" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O1 -DNPUSIM_SANITIZE=ON \
        -DNPUSIM_BUILD_TESTS=ON -DNPUSIM_BUILD_BENCH=OFF
    cmake --build "$asan" -j"$jobs"
    ctest --test-dir "$asan" --output-on-failure -j"$jobs" --timeout 300 "$@"
    echo "npusim: sanitizer (ASan+UBSan) build and suite took $(( $(date +%s) - start )) s"
fi
