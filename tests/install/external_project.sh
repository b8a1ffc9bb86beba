#!/usr/bin/env bash
# Installs this build into a fresh prefix and builds against it what a user would:
#  1. the installed tree: the AIE-API host layer under include/npusim/aie_api/ (nothing at the top
#     of include/ where AMD's aie_api would clash), no library linked by an absolute path;
#  2. examples/external (find_package(npusim), npusim_add_designs, npusim_add_golden_test, an AIE-API
#     kernel through npusim_add_external_function) without the optional components, with MPI
#     disabled (-DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON) and XRT not asked for: it builds, its tests pass,
#     its CLI links neither XRT nor MPI and says so when asked for them;
#  3. the same project asking for COMPONENTS xrt mpi: refused when MPI is disabled, else its CLI
#     links both (`hw` reaches XRT, which finds no NPU here);
#  4. programs from `pkg-config --cflags --libs npusim` alone: the README's example, compiled with
#     -Wall -Wextra -Werror and run, an AIE-API kernel source, and a program that must copy its data.
# Arguments: build dir, source dir, C++ compiler, optional compiler launcher (ccache).
set -euo pipefail
build=$1 src=$2 cxx=$3 launcher=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
echo "installed into a fresh prefix: $(find "$prefix" -type f | wc -l) files"

# 1. The installed tree.
[ -f "$prefix/include/npusim/aie_api/aie_api/aie.hpp" ] || fail "no include/npusim/aie_api/aie_api/aie.hpp"
[ -f "$prefix/include/npusim/aie_api/lut_based_ops.h" ] || fail "no include/npusim/aie_api/lut_based_ops.h"
[ ! -e "$prefix/include/aie_api" ] || fail "include/aie_api installed at the top of include/ (clashes with AMD's)"
[ ! -e "$prefix/include/lut_based_ops.h" ] || fail "include/lut_based_ops.h installed at the top of include/"
if grep -E '/[^" ;]*(xrt_coreutil|libmpi)[^" ;]*\.so' "$prefix"/lib/cmake/npusim/*.cmake; then
  fail "the CMake package names XRT's or MPI's library by path"
fi

args=(-S "$src/examples/external" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release)
[ -n "$launcher" ] && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
printf '\0\0\3\6' >"$work/insts.bin"
echo xclbin >"$work/x.xclbin"
hw_run() { # CLI: `hw` on a built-in design; prints its stderr, returns its exit code
  "$1" hw passthrough_kernel --xclbin "$work/x.xclbin" --insts "$work/insts.bin" 2>&1 >/dev/null
}
needed() { readelf -d "$1" | grep NEEDED || true; }

# 2. Without the optional components, MPI disabled, XRT not asked for.
cmake "${args[@]}" -B "$work/ext" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configure without components"; }
cmake --build "$work/ext" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "build"; }
ctest --test-dir "$work/ext" --output-on-failure
"$work/ext/my-npusim" list | grep -q '^axpb ' || fail "my-npusim list does not show axpb"
if needed "$work/ext/my-npusim" | grep -E 'xrt|mpi'; then fail "my-npusim links XRT or MPI without asking"; fi
if grep -rE 'xrt_coreutil|libmpi' --include=link.txt --include=build.ninja "$work/ext"; then
  fail "the link of my-npusim names XRT or MPI"
fi
code=0; msg=$(hw_run "$work/ext/my-npusim") || code=$?
[ $code -eq 6 ] && grep -q 'find_package(npusim COMPONENTS xrt)' <<<"$msg" ||
  fail "hw without the xrt component: exit $code, $msg"
code=0; msg=$(OMPI_COMM_WORLD_SIZE=2 "$work/ext/my-npusim" sweep axpb --param a=1,2 2>&1 >/dev/null) || code=$?
[ $code -ne 0 ] && grep -q 'find_package(npusim COMPONENTS mpi)' <<<"$msg" ||
  fail "sweep under mpirun without the mpi component: exit $code, $msg"
echo "without components: built, tests pass, no XRT or MPI linked"

# 3. Asking for the components: refused without MPI; else both linked.
if cmake "${args[@]}" -B "$work/ext-nompi" -DMY_NPUSIM_HARDWARE=ON -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON \
     >"$work/configure-nompi.log" 2>&1; then
  fail "COMPONENTS mpi found with MPI disabled"
fi
grep -q "component 'mpi'" "$work/configure-nompi.log" || { cat "$work/configure-nompi.log"; fail "no message naming mpi"; }
# (only when this build has both: the CI build does)
if grep -q '^NPUSIM_HAVE_XRT:INTERNAL=ON' "$build/CMakeCache.txt"; then
  if grep -q '^NPUSIM_WITH_MPI:INTERNAL=ON' "$build/CMakeCache.txt"; then
    cmake "${args[@]}" -B "$work/ext-hw" -DMY_NPUSIM_HARDWARE=ON >"$work/configure-hw.log" 2>&1 ||
      { cat "$work/configure-hw.log"; fail "configure with COMPONENTS xrt mpi"; }
    cmake --build "$work/ext-hw" -j2 --target my-npusim >"$work/build-hw.log" 2>&1 || { tail -40 "$work/build-hw.log"; fail "build with components"; }
    needed "$work/ext-hw/my-npusim" | grep -q xrt_coreutil || fail "my-npusim with COMPONENTS xrt does not link libxrt_coreutil"
    needed "$work/ext-hw/my-npusim" | grep -q mpi || fail "my-npusim with COMPONENTS mpi does not link MPI"
    code=0; msg=$(hw_run "$work/ext-hw/my-npusim") || code=$?
    [ $code -eq 6 ] && ! grep -q 'built without XRT' <<<"$msg" || fail "hw with the xrt component: exit $code, $msg"
    echo "with COMPONENTS xrt mpi: both linked; hw reaches XRT ($(head -1 <<<"$msg" | cut -c1-80))"
  fi
fi

# 4. pkg-config.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
awk '/^```cpp$/{f=1;next} /^```$/{if(f){exit}} f' "$src/README.md" >"$work/readme.cpp"
grep -q 'npusim::sim::simulate' "$work/readme.cpp" || fail "README's example not found"
# shellcheck disable=SC2046
"$cxx" -O1 -Wall -Wextra -Werror "$work/readme.cpp" -o "$work/readme" $(pkg-config --cflags --libs npusim) ||
  fail "the README's example does not compile cleanly with -Wall -Wextra -Werror"
"$work/readme" || fail "the README's example exits $?"
echo "README example: compiled with -Wall -Wextra -Werror, ran"
# shellcheck disable=SC2046
"$cxx" -Wall -Wextra -Werror -c "$src/examples/external/scale_aie.cc" -o "$work/scale_aie.o" $(pkg-config --cflags npusim) ||
  fail "an AIE-API kernel source does not compile with pkg-config's flags"
# shellcheck disable=SC2046
"$cxx" -O1 "$src/tests/install/pkgconfig_consumer.cpp" -o "$work/consumer" $(pkg-config --cflags --libs npusim)
"$work/consumer"
