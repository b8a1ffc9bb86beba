#!/usr/bin/env bash
# tools/check-upstream-kernels.sh on a tiny fake mlir-aie checkout made here (no mlir-aie code): a
# correct copy kernel (driven exact, for both generations), a scale kernel with a wrong vector path
# (a mismatch), a source needing an AIE-API piece the host layer lacks (named), a zero.cc-like file
# only included by another source, builds that export no entry point or one no driver knows (named),
# and a factory file naming a source the checkout lacks (a warning).
# Also its argument errors. Argument: the check_upstream_kernel driver.
set -u
driver=$1
script="$(cd "$(dirname "$0")/../.." && pwd)/tools/check-upstream-kernels.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }
k="$tmp/src/aie_kernels"
mkdir -p "$k/aie2" "$k/generic" "$tmp/src/python/iron/kernels"
cat >"$k/generic/passThrough.cc" <<'SRC'
#include <cstdint>
#include <cstring>
#if BIT_WIDTH == 8
using T = uint8_t;
#elif BIT_WIDTH == 16
using T = int16_t;
#else
using T = int32_t;
#endif
extern "C" void passThroughLine(T* in, T* out, int32_t n) { std::memcpy(out, in, sizeof(T) * n); }
SRC
cat >"$k/aie2/scale.cc" <<'SRC'
#include <aie_api/aie.hpp>
#if BIT_WIDTH == 16
using T = int16_t;
#else
using T = int32_t;
#endif
extern "C" {
void vector_scalar_mul_scalar(T* a, T* c, int32_t* f, int32_t n) { for (int i = 0; i < n; ++i) c[i] = T(a[i] * *f); }
void vector_scalar_mul_vector(T* a, T* c, int32_t* f, int32_t n) { for (int i = 0; i < n; ++i) c[i] = T(a[i] * *f + (i == 5)); }
}
SRC
cat >"$k/aie2/relu.cc" <<'SRC'
extern "C" void bf16_relu(unsigned short* a, unsigned short* c) { for (int i = 0; i < 1024; ++i) c[i] = a[i]; __builtin_trap(); }
SRC
cat >"$k/aie2/reduce_add.cc" <<'SRC'
#include <aie_api/aie.hpp>
extern "C" void reduce_add_vector(int32_t* a, int32_t* c, int32_t n) { c[0] = aie::npusim_test_missing(aie::load_v<16>(a)); }
SRC
cat >"$k/aie2/zero.cc" <<'SRC'
template <typename T, int N> void zero_vectorized(T* c) { aie::store_v(c, aie::zeros<T, N>()); }
SRC
cat >"$k/aie2/mm.cc" <<'SRC'
#include <aie_api/aie.hpp>
#include "zero.cc"
extern "C" void zero_i32(int32_t* c) { for (int i = 0; i < 64 * 64; i += 16) zero_vectorized<int32_t, 16>(c + i); }
SRC
# Entry points no driver knows, and a source whose default build defines none.
cat >"$k/aie2/mystery.cc" <<'SRC'
#include <cstdint>
#ifdef WITH_ENTRY
extern "C" void mystery_entry(int32_t* c) { c[0] = 1; }
#endif
SRC
cat >"$k/aie2/unknown.cc" <<'SRC'
#include <cstdint>
extern "C" void unknown_entry(int32_t* c) { c[0] = 2; }
SRC
printf 'x = _default_source_path("scale.cc")\ny = _default_source_path("ghost.cc")\n' >"$tmp/src/python/iron/kernels/eltwise.py"

bash "$script" "$tmp/src" --driver "$driver" >"$tmp/out" 2>&1 || fail "exit code $?"
grep -q 'warning: python/iron/kernels names ghost.cc, which is not under aie_kernels/' "$tmp/out" || fail "no drift warning"
grep -Eq '^generic/passThrough.cc +\| aie2 +\| - +\| yes +\| exact \(passThroughLine\)' "$tmp/out" || fail "passThrough aie2"
grep -Eq '^generic/passThrough.cc +\| aie2p +\| - +\| yes +\| exact \(passThroughLine\)' "$tmp/out" || fail "passThrough aie2p"
grep -Eq '^aie2/scale.cc +\| aie2 +\| -DBIT_WIDTH=32 +\| yes +\| MISMATCH vector_scalar_mul_vector: element 5: got ' "$tmp/out" ||
  fail "scale mismatch"
grep -Eq '^aie2/scale.cc +\| aie2 +\| -DBIT_WIDTH=16 +\| yes +\| ' "$tmp/out" || fail "scale's flag sets"
grep -Eq '^aie2/reduce_add.cc +\| aie2 +\| - +\| no +\| not driven +\| aie::npusim_test_missing$' "$tmp/out" ||
  fail "missing piece"
grep -Eq '^aie2/zero.cc +\| aie2 +\| - +\| yes +\| not driven \(included by aie2/mm.cc, aie2/mv.cc\)' "$tmp/out" ||
  fail "included-only source"
grep -Eq '^aie2/mm.cc +\| aie2 +\| - +\| yes +\| exact \(zero_i32\)' "$tmp/out" || fail "includer driven (64 x 64 C)"
grep -Eq '^aie2/relu.cc +\| aie2 +\| - +\| yes +\| crashed' "$tmp/out" || fail "a kernel that crashes the driver"
grep -Eq '^aie2/mystery.cc +\| aie2 +\| - +\| yes +\| not driven \(exports no entry point with these flags\)' "$tmp/out" ||
  fail "a build that exports no entry point"
grep -Eq '^aie2/unknown.cc +\| aie2 +\| - +\| yes +\| not driven \(exports unknown_entry\)' "$tmp/out" ||
  fail "a build whose entry point no driver knows"
# aie2/mm.cc has 12 flag sets (default, 7 combos, the two bf16 combos with -DB_COL_MAJ and with -DC_COL_MAJ)
grep -q '^8 sources; 7 compile with their default flags; 7 compile with every flag set; 20 rows driven exact, 3 rows with a mismatch, 1 crashed$' "$tmp/out" ||
  fail "counts"

# argument errors: exit code 2 and what is wrong
bash "$script" >"$tmp/out" 2>&1; [ $? -eq 2 ] || fail "no DIR: exit code"
grep -q '^usage: bash tools/check-upstream-kernels.sh DIR' "$tmp/out" || fail "no DIR: message"
bash "$script" "$tmp" --driver "$driver" >"$tmp/out" 2>&1; [ $? -eq 2 ] || fail "not a checkout: exit code"
grep -q "check-upstream-kernels: $tmp has no aie_kernels/ folder (not a mlir-aie checkout)" "$tmp/out" || fail "not a checkout: message"
bash "$script" "$tmp/src" --driver "$tmp/none" >"$tmp/out" 2>&1; [ $? -eq 2 ] || fail "no driver: exit code"
grep -q "check-upstream-kernels: no driver $tmp/none" "$tmp/out" || fail "no driver: message"
echo "check-upstream-kernels: fake checkout table and argument errors as expected"
