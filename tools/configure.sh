#!/usr/bin/env bash
# configure.sh DIR CMAKE-ARGS...: configure a build folder the way tools/demo.sh and tools/test.sh do,
# so the two share it: Ninja for a new folder when it is installed (an existing folder keeps its
# generator), ccache as the compiler launcher when it is installed.
set -euo pipefail
dir=$1
shift
extra=()
if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then extra+=(-G Ninja); fi
if command -v ccache >/dev/null; then extra+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
exec cmake -S . -B "$dir" "${extra[@]}" "$@"
