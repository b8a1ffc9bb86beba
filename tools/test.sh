#!/usr/bin/env bash
# Build npusim and run its tests.
#
#   bash tools/test.sh            the whole suite (what .ci/run and the README's test command run):
#                                 1. the Release build (build/) and the tests that run on it: the
#                                    documentation catalogs, the Python suites, the installed
#                                    project, the header checks, the real consumers of the outputs
#                                    (external) and the CLI end to end;
#                                 2. the sanitizer build (build-asan/: AddressSanitizer + UBSan, -Og)
#                                    of the libraries and the unit and integration suites, and those
#                                    suites with the CLI's end-to-end tests.
#                                 Every test runs once except the CLI's end-to-end ones (in both).
#                                 NPUSIM_ASAN=0 skips stage 2 and runs every suite in stage 1.
#   bash tools/test.sh --quick    after a small change: an incremental Release build of the test
#                                 suites the change can affect, and their unit and integration
#                                 tests that are not slow (no sanitizer stage, no external tools).
#
# Extra arguments go to ctest. NPUSIM_BUILD_DIR (default build), NPUSIM_ASAN_BUILD_DIR (default
# build-asan) and NPUSIM_JOBS (default: the number of cores) override the defaults. Ninja and
# ccache are used when present (a new build directory only: an existing one keeps its generator).
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
if [ "${1:-}" = "--quick" ]; then
    quick=1
    shift
fi

build="${NPUSIM_BUILD_DIR:-build}"
asan="${NPUSIM_ASAN_BUILD_DIR:-build-asan}"
jobs="${NPUSIM_JOBS:-$(nproc)}"
[ "$quick" = 1 ] || bash tools/install-deps.sh

configure() { bash tools/configure.sh "$@" >/dev/null; }

summary=()
stage() { # stage NAME START: one line of the closing summary
    summary+=("$(printf '%-44s %5d s' "$1" $(( $(date +%s) - $2 )))")
}
finish() {
    echo "npusim: times on $(nproc) cores:"
    printf '  %s\n' "${summary[@]}"
}

if [ "$quick" = 1 ]; then
    # The test suites a change can reach, by the layer it touches (docs/architecture.md: each
    # layer depends only on those before it in this list, so a change reaches every later one).
    layers=(kernels_ref model hw frontend sim traces harness examples tools)
    declare -A suites_of=(
        [kernels_ref]="kernels_tests aie_api_tests" [model]="model_tests" [hw]="hw_tests"
        [frontend]="frontend_tests" [sim]="sim_tests sim_internal_tests" [traces]="traces_tests"
        [harness]="harness_tests" [examples]="examples_tests" [tools]="tools_tests")
    changed=$(git status --porcelain --untracked-files=all | cut -c4- | sed 's/.* -> //')
    [ -n "$changed" ] || changed=$(git diff --name-only HEAD~1 HEAD 2>/dev/null || true)
    lowest=${#layers[@]}
    picked=()
    while IFS= read -r f; do
        [ -n "$f" ] || continue
        top=${f%%/*}
        if [ "$top" = tests ]; then
            sub=$(cut -d/ -f2 <<<"$f")
            if [ -n "${suites_of[$sub]:-}" ]; then picked+=(${suites_of[$sub]}); continue; fi
        fi
        for i in "${!layers[@]}"; do
            if [ "${layers[$i]}" = "$top" ]; then [ "$i" -lt "$lowest" ] && lowest=$i; continue 2; fi
        done
        case "$top" in
        docs | README.md | bench | .ci) ;;               # no test suite builds from these
        *) lowest=0 ;;                                 # CMake, tests/ support, tools' scripts: all
        esac
    done <<<"$changed"
    for ((i = lowest; i < ${#layers[@]}; i++)); do picked+=(${suites_of[${layers[$i]}]}); done
    mapfile -t picked < <(printf '%s\n' "${picked[@]}" | sort -u | sed '/^$/d')
    if [ ${#picked[@]} -eq 0 ]; then
        echo "npusim: nothing changed that a test suite builds from"
        exit 0
    fi
    echo "npusim: quick: ${picked[*]}"
    start=$(date +%s)
    configure "$build" -DCMAKE_BUILD_TYPE=Release -DNPUSIM_BUILD_TESTS=ON -DNPUSIM_CATCH_SUITES=ON
    cmake --build "$build" -j"$jobs" --target npusim "${picked[@]}"
    stage "incremental build of ${#picked[@]} suites" "$start"
    start=$(date +%s)
    regex="^($(IFS='|'; echo "${picked[*]}")):"
    ctest --test-dir "$build" --output-on-failure -j"$jobs" --timeout 300 -L 'unit|integration' -LE slow \
        -R "$regex" "$@"
    stage "their unit and integration tests" "$start"
    finish
    exit 0
fi

start=$(date +%s)
# The unit and integration suites build in one of the two stages: compiled twice they were a third
# of the run (docs/testing.md).
suites_here=ON
[ "${NPUSIM_ASAN:-1}" = "0" ] || suites_here=OFF
configure "$build" -DCMAKE_BUILD_TYPE=Release -DNPUSIM_BUILD_TESTS=ON -DNPUSIM_BUILD_BENCH=ON \
    -DNPUSIM_CATCH_SUITES=$suites_here
cmake --build "$build" -j"$jobs"
stage "Release build" "$start"
start=$(date +%s)
ctest --test-dir "$build" --output-on-failure -j"$jobs" --timeout 300 "$@"
stage "Release suite" "$start"
if [ "${NPUSIM_ASAN:-1}" != "0" ]; then
    start=$(date +%s)
    # The libraries at -Og, the test sources at -O0: they are checks and small references, and the
    # sanitizer stage is about the libraries' memory. ASan's manual asks for -O1 for speed; -Og
    # compiles the sanitized libraries in about 70% of -O1's time (Cli.cpp 10.0 s against 14.0 s
    # of CPU) and keeps every check, so the stage is shorter overall (docs/testing.md).
    configure "$asan" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-Og -DNPUSIM_SANITIZE=ON \
        -DNPUSIM_TEST_OPTIMIZATION=-O0 -DNPUSIM_BUILD_TESTS=ON -DNPUSIM_BUILD_BENCH=OFF
    cmake --build "$asan" -j"$jobs"
    stage "sanitizer build (ASan+UBSan)" "$start"
    start=$(date +%s)
    # Leaks inside Graphviz and fontconfig (their caches) are not npusim's: tests/lsan.supp.
    # Not the external consumers (GTKWave, Chromium, mlir-opt, jsonschema, numpy, mpirun): they read
    # the output formats, which stage 1 checked; the sanitizers have nothing to add there.
    LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
        ctest --test-dir "$asan" --output-on-failure -j"$jobs" --timeout 300 -LE external "$@"
    stage "sanitizer suite" "$start"
fi
finish
