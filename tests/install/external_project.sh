#!/usr/bin/env bash
# Installs this build into a fresh prefix and builds against it what a user would:
#  1. examples/external (find_package(npusim), npusim_add_designs, npusim_add_golden_test), then
#     runs its tests (the user's design and a built-in one through the user's CLI);
#  2. a program from `pkg-config --cflags --libs npusim` alone, which must copy its data.
# Arguments: build dir, source dir, C++ compiler, optional compiler launcher (ccache).
set -euo pipefail
build=$1 src=$2 cxx=$3 launcher=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
echo "installed into a fresh prefix: $(find "$work/prefix" -type f | wc -l) files"
args=(-S "$src/examples/external" -B "$work/ext" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx"
      -DCMAKE_BUILD_TYPE=Release)
[ -n "$launcher" ] && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
cmake "${args[@]}" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/ext" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
ctest --test-dir "$work/ext" --output-on-failure
"$work/ext/my-npusim" list | grep -q '^axpb ' || { echo "my-npusim list does not show axpb"; exit 1; }
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
"$cxx" -O1 "$src/tests/install/pkgconfig_consumer.cpp" -o "$work/consumer" $(pkg-config --cflags --libs npusim)
"$work/consumer"
