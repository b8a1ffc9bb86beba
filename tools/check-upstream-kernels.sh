#!/usr/bin/env bash
# Compile every kernel source of a mlir-aie checkout's aie_kernels/ (aie2/, aie2/bottleneck/, aie2p/,
# generic/) unmodified against npusim's AIE-API host layer, for its generation, with its default
# flags and with each flag set IRON's kernel factories build it with (python/iron/kernels/*.py), and
# drive every entry point the driver knows against a plain C++ reference. Prints an aligned table
# (source, generation, flags, compiled, ran, first missing piece) and the counts.
#
# Usage: bash tools/check-upstream-kernels.sh DIR [--driver PATH] [--jobs N]
#   DIR       a mlir-aie checkout (or an extract of its aie_kernels/ and python/iron/), e.g.
#             git -C <mlir-aie.git> archive HEAD aie_kernels python/iron | tar -x -C /tmp/mlir-aie-src
#   --driver  the check_upstream_kernel program (default: build/tools/check_upstream_kernel)
#   --jobs    sources compiled at once (default 2)
# The compiled libraries are cached as the run-time kernel compiler caches them (NPUSIM_CACHE_DIR,
# else ~/.cache/npusim). Exit code: 0 when the table was made, 2 for bad arguments.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir=""
driver="$here/build/tools/check_upstream_kernel"
jobs=2
while [ $# -gt 0 ]; do
  case "$1" in
    --driver) driver="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) [ -z "$dir" ] || { echo "check-upstream-kernels: one DIR only (got '$dir' and '$1')" >&2; exit 2; }
       dir="$1"; shift ;;
  esac
done
[ -n "$dir" ] || { echo "usage: bash tools/check-upstream-kernels.sh DIR [--driver PATH] [--jobs N]" >&2; exit 2; }
[ -d "$dir/aie_kernels" ] || { echo "check-upstream-kernels: $dir has no aie_kernels/ folder (not a mlir-aie checkout)" >&2; exit 2; }
[ -x "$driver" ] || { echo "check-upstream-kernels: no driver $driver: build it (cmake --build build --target check_upstream_kernel) or pass --driver" >&2; exit 2; }
dir="$(cd "$dir" && pwd)"

# The flag sets IRON's factories give each source, read from python/iron/kernels/*.py at mlir-aie
# 3ca0193 (file:line), at the factories' default parameters; every source is also built with no flag
# (its default). Sets are separated by ';', flags within a set by ' '.
flag_sets() {
  case "$1" in
    generic/passThrough.cc) echo "-DBIT_WIDTH=8;-DBIT_WIDTH=16;-DBIT_WIDTH=32" ;;        # eltwise.py:62 (uint8/int16/int32)
    aie2/scale.cc) echo "-DBIT_WIDTH=16;-DBIT_WIDTH=32" ;;                               # eltwise.py:98
    aie2/threshold.cc|aie2/bitwiseAND.cc|aie2/bitwiseOR.cc|aie2/addWeighted.cc)
      echo "-DBIT_WIDTH=8;-DBIT_WIDTH=16;-DBIT_WIDTH=32" ;;                              # vision.py:42,75,141
    aie2/mm.cc|aie2p/mm.cc)                                                               # linalg.py:165-185, _MM_COMBOS :49
      # and, for the bf16 combos, mm()'s b_col_maj / c_col_maj (:177-180) and, on aie2p,
      # emulate_bf16_mmul_with_bfp16 (:181-185)
      local s="" c d="-DDIM_M=64 -DDIM_K=64 -DDIM_N=64"
      for c in i8_i8 i8_i16 i8_i32 i16_i16 i16_i32 bf16_bf16 bf16_f32; do
        s+="$d -D${c}_ONLY;"
      done
      for c in bf16_bf16 bf16_f32; do
        s+="$d -D${c}_ONLY -DB_COL_MAJ;$d -D${c}_ONLY -DC_COL_MAJ;"
        [ "$1" = aie2p/mm.cc ] && s+="$d -D${c}_ONLY -DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16;$d -D${c}_ONLY -DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16 -DB_COL_MAJ -DC_COL_MAJ;"
      done
      echo "${s%;}" ;;
    aie2/mv.cc) echo "-DDIM_M=32 -DDIM_K=32" ;;                                          # linalg.py:245
    aie2/cascade_mm.cc) echo "-DDIM_M=64 -DDIM_K=64 -DDIM_N=64" ;;                       # linalg.py:304
    aie2/conv2dk1.cc|aie2/conv2dk3.cc|aie2/conv2dk1_skip.cc|aie2/conv2dk1_skip_init.cc)
      echo "-DINT8_ACT" ;;                                                               # conv.py:43,83,122,220 (_common.py:112)
    aie2/conv2dk1_i8.cc|aie2p/conv2dk1_i8.cc) echo "-DINT8_ACT" ;;                       # conv.py:161
    aie2/bottleneck/bn_conv2dk1_relu.cc)                                                  # conv.py:262,442,538,705
      echo "-DREGULAR -DINT8_ACT;-DSCALAR -DCONV_XYPOOL_FUSED_LARGE_PADDED -DINT8_ACT;-DBN13_1_PARTIAL_GET_I8_CAS_WIDTH_NEW;-DSCALAR -DPOSTL2_PAD -DUINT16_ACT" ;;
    aie2/bottleneck/bn_conv2dk1_i8.cc)                                                    # conv.py:315,495,620
      echo "-DREGULAR -DSCALAR;-DBN13_1_PARTIAL_PUT_I8_CAS_WIDTH_NEW;-DBN13_1_INPUT_SPLIT_PARTIAL_PUT_UI8_UI8_CAS_WIDTH_NEW" ;;
    aie2/bottleneck/bn_conv2dk1_skip.cc)                                                  # conv.py:341-359,663
      echo "-DREGULAR -DSCALAR -DUNSIGNED_SKIP;-DREGULAR -DSCALAR;-DBN13_1_INPUT_SPLIT_PARTIAL_GET_UI8_I8_I8_CAS_WIDTH_NEW" ;;
    aie2/bottleneck/bn_conv2dk3_dw.cc)                                                    # conv.py:398 (stride 1, 2), 583
      echo "-DREGULAR -DSCALAR -DSTRIDE1;-DREGULAR -DSCALAR -DSTRIDE2;-DSCALAR -DBN13 -DSTRIDE1_OUT_SPLIT" ;;
    *) echo "" ;;
  esac
}
# Sources that are no translation unit of their own: included by others (after aie_api/aie.hpp), so
# Peano never compiles them alone. They count as compiled when their includers compile.
included_by() {
  case "$1" in
    aie2/zero.cc) echo "aie2/mm.cc aie2/mv.cc" ;;
    aie2p/zero.cc) echo "aie2p/mm.cc" ;;
    *) echo "" ;;
  esac
}

# A source the factories name that the table does not know (drift in a newer checkout).
if [ -d "$dir/python/iron/kernels" ]; then
  for name in $(grep -ohE '"[A-Za-z0-9_/]+\.cc"' "$dir"/python/iron/kernels/*.py | tr -d '"' | sort -u); do
    [ -n "$(cd "$dir/aie_kernels" && ls -d */"$name" */*/"$name" "$name" 2>/dev/null)" ] ||
      echo "warning: python/iron/kernels names $name, which is not under aie_kernels/" >&2
  done
else
  echo "warning: $dir has no python/iron/kernels: every source is built with its default flags only" >&2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
n=0
while IFS= read -r src; do
  rel="${src#"$dir"/aie_kernels/}"
  case "$rel" in
    aie2p/*) gens="aie2p" ;;
    generic/*) gens="aie2 aie2p" ;; # IRON's _kernel_source falls back to generic/ for either generation
    *) gens="aie2" ;;
  esac
  sets=("")
  if [ -d "$dir/python/iron/kernels" ]; then
    IFS=';' read -r -a more <<<"$(flag_sets "$rel")"
    sets+=("${more[@]}")
  fi
  for gen in $gens; do
    for flags in "${sets[@]}"; do
      n=$((n + 1))
      printf '%05d\t%s\t%s\t%s\n' "$n" "$rel" "$gen" "$flags"
    done
  done
done < <(find "$dir/aie_kernels" -name '*.cc' | LC_ALL=C sort) >"$work/jobs"

# One driver run per row (the includer-only sources are not run: they have no translation unit).
run_row() {
  local idx rel gen flags out
  IFS=$'\t' read -r idx rel gen flags <<<"$1"
  if [ -n "$(included_by "$rel")" ]; then
    out=$'-\tnot driven\t\t'
  else
    # shellcheck disable=SC2086 # flags split into arguments on purpose
    out="$("$driver" "$dir/aie_kernels/$rel" "$gen" "-I$dir" "-I$dir/aie_kernels/$gen" $flags 2>&1)"
    local compiled last
    compiled="$(sed -n 's/^compiled //p' <<<"$out" | head -1)"
    last="$(tail -1 <<<"$out")"
    if [[ "$last" == result$'\t'* ]]; then
      out="${compiled:-no}${last#result}"
    else # the driver died while driving: what it printed last (a glibc abort message, ...)
      out="${compiled:-no}"$'\tcrashed\t\t'"${last//$'\t'/ }"
    fi
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$idx" "$rel" "$gen" "${flags:--}" "$out" >"$work/row.$idx"
}
export -f run_row included_by
export dir driver work
tr '\n' '\0' <"$work/jobs" | xargs -0 -P "$jobs" -n 1 bash -c 'run_row "$1"' _
cat "$work"/row.* | LC_ALL=C sort >"$work/rows"

# Included-only rows count as compiled when every includer compiled with some flag set (each such
# build compiled the included templates as they are used).
while IFS=$'\t' read -r idx rel gen flags compiled ran missing error; do
  if [ "$compiled" = "-" ]; then
    compiled="yes"
    for inc in $(included_by "$rel"); do
      [ -f "$dir/aie_kernels/$inc" ] || continue
      r="$(awk -F'\t' -v s="$inc" '$2 == s && $5 == "yes" { print $5; exit }' "$work/rows")"
      [ "$r" = "yes" ] || compiled="no"
    done
    ran="not driven (included by $(included_by "$rel" | sed 's/ /, /g'))"
    missing="" error=""
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$rel" "$gen" "$flags" "$compiled" "$ran" "${missing:-${error:-}}"
done <"$work/rows" >"$work/table"

{
  printf 'source\tgen\tflags\tcompiled\tran\tfirst missing piece (or first error)\n'
  cat "$work/table"
} | awk -F'\t' '
  { for (i = 1; i <= NF; ++i) { cell[NR, i] = $i; if (length($i) > w[i] && i < NF) w[i] = length($i) } rows = NR; cols = (NF > cols ? NF : cols) }
  END { for (r = 1; r <= rows; ++r) { line = ""; for (i = 1; i <= cols; ++i) line = line sprintf(i < cols ? "%-" w[i] "s | " : "%s", cell[r, i]); sub(/ +$/, "", line); print line } }'

# Counts: sources (not rows), as the issue counts them.
awk -F'\t' '
  { key = $1; srcs[key] = 1; if ($4 != "yes") { bad[key] = 1; if ($3 == "-") dbad[key] = 1 } }
  $5 ~ /^exact/ { exact_rows++ } $5 ~ /^MISMATCH/ { mismatch_rows++; mism[key] = 1 } $5 ~ /^crashed/ { crashed++ }
  END {
    for (s in srcs) { n++; if (!(s in dbad)) d++; if (!(s in bad)) all++ }
    printf "\n%d sources; %d compile with their default flags; %d compile with every flag set; ", n, d, all
    printf "%d rows driven exact, %d rows with a mismatch, %d crashed\n", exact_rows, mismatch_rows, crashed
  }' "$work/table"
