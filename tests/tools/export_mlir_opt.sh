#!/usr/bin/env bash
# Every registered design that exports, exported with `npusim export --generic` and parsed and
# verified by Debian's MLIR tools (mlir-opt-16, package mlir-16-tools, tools/install-deps.sh) with
# --allow-unregistered-dialect: the aie/aiex ops are unregistered there, MLIR's own ops
# (builtin.module, func, arith, scf, memref) are parsed and verified by their dialects. A design is
# exported on npu1_1col, or on the first device it supports, with its defaults and with each other
# value of each enumerated parameter (its variants). Every registered design and variant exports: a
# refusal (a design error, exit 2) fails the test as anything else does; only a value the design's
# build does not combine with its other defaults is skipped, and counted.
#
# `npusim export --help` says what a stock mlir-opt does with it, and this script checks exactly that:
# - As exported: a module without kernel calls parses and verifies; a module with them fails only
#   on them. mlir-opt resolves a callee from the nearest symbol table, and
#   SymbolTable::getNearestSymbolTable (mlir/lib/IR/SymbolTable.cpp) stops at an unregistered op
#   with one region, so a call inside aie.core never finds the func.func declared in aie.device
#   (a SymbolTable only in mlir-aie's dialect): "'func.call' op '...' does not reference a valid
#   function".
# - With the calls renamed to an unregistered op, every module parses and verifies; this script
#   checks that every callee is declared by a func.func in the same module and that the call's
#   operand types are the declaration's function_type.
# - A block floating-point element type (!aiex.bfp<"v8bfp16ebs8">) is an unregistered type to a stock
#   mlir-opt, which a memref does not take ("invalid memref element type"); mlir-aie's
#   aie-transform-bfp-types rewrites it to the integer of its width, i72 (mlir-aie at 3ca0193,
#   lib/Dialect/AIEX/Transforms/AIETransformBfpTypes.cpp l.56-70), and so does this script before
#   mlir-opt reads the module.
# Usage: export_mlir_opt.sh NPUSIM [MLIR_OPT]
set -uo pipefail
npusim=$1
mlir_opt=${2:-}
if [ -z "$mlir_opt" ]; then
  for c in mlir-opt-16 /usr/lib/llvm-16/bin/mlir-opt mlir-opt; do
    if command -v "$c" >/dev/null 2>&1; then mlir_opt=$(command -v "$c"); break; fi
  done
fi
if [ -z "$mlir_opt" ]; then
  echo "export_mlir_opt: SKIPPED: mlir-opt not found (Debian package mlir-16-tools; bash tools/install-deps.sh)"
  exit 0
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
# The help names the limit this script checks.
if ! "$npusim" export --help | tr -s ' \n' ' ' | grep -q "mlir-opt --allow-unregistered-dialect reads it, but its verifier cannot find the callee of a kernel call"; then
  echo "FAIL: npusim export --help does not say what mlir-opt does with --generic output"
  exit 1
fi
"$npusim" list --json >"$d/list.json" || { echo "npusim list --json failed"; exit 1; }
# Each design with its defaults, then each other value of each enumerated parameter (its variants:
# dma_padding's api=split|link|tile_dma, element types), the other parameters at their defaults.
designs=$(python3 -c "
import json, sys
for x in json.load(open('$d/list.json'))['designs']:
    dev = 'npu1_1col' if 'npu1_1col' in x['devices'] else x['devices'][0]
    print(x['name'], dev, '-')
    for p in x['params']:
        for v in p.get('values', []):
            if v != p['default']:
                print(x['name'], dev, p['name'] + '=' + v)")
fail=0 exported=0 refused=0 plain=0 variants=0 combos=0
while read -r design device param; do
  name=$design args=()
  if [ "$param" != "-" ]; then name="$design.$param" args=(--param "$param"); fi
  f="$d/$name.mlir"
  "$npusim" export "$design" --device "$device" "${args[@]}" --generic -o "$f" 2>"$d/$name.err"
  code=$?
  # A value the design's build does not take with the other defaults (matmul's dtype_in=bf16 with
  # dtype_out=i32): the build's parameter check, not the export, says so.
  if [ "$param" != "-" ] && [ $code -eq 2 ] && grep -q "design error: design '$design': .* is not a combination" "$d/$name.err"; then
    combos=$((combos + 1))
    continue
  fi
  if [ $code -eq 2 ] && grep -q "design error" "$d/$name.err"; then
    echo "FAIL $name ($device): the export refuses it: $(cat "$d/$name.err")"
    refused=$((refused + 1))
    fail=1
    continue
  fi
  if [ $code -ne 0 ]; then
    echo "FAIL $name ($device): export exited $code: $(cat "$d/$name.err")"
    fail=1
    continue
  fi
  exported=$((exported + 1))
  if [ "$param" != "-" ]; then variants=$((variants + 1)); fi
  # Generic form only: every op line starts with a quoted op name (or a result and one); op names may hold digits (aiex.npu.write32).
  if grep -Ev '^\s*((%[A-Za-z0-9_]+ = )?"[a-z0-9_.]+"\(|\}\)|\^bb0\(|\^bb[0-9]+:$|\}, \{)' "$f" | grep -q .; then
    echo "FAIL $name: lines not in the generic form:"
    grep -Ev '^\s*((%[A-Za-z0-9_]+ = )?"[a-z_.]+"\(|\}\)|\^bb0\(|\^bb[0-9]+:$|\}, \{)' "$f" | head -3
    fail=1
    continue
  fi
  # Callees: declared in this module, with the call's operand types.
  if ! python3 - "$f" <<'EOF'; then
import re, sys
text = open(sys.argv[1]).read()
decls = {m.group(2): m.group(1) for m in re.finditer(
    r'"func\.func"\(\) \(\{\s*\}\) \{function_type = \((.*?)\) -> \(\), .*?sym_name = "([^"]+)"', text)}
bad = 0
for m in re.finditer(r'"func\.call"\(.*?\) \{callee = @([A-Za-z0-9_]+)\} : \((.*?)\) -> \(\)', text):
    if decls.get(m.group(1)) != m.group(2):
        print(f"func.call @{m.group(1)} ({m.group(2)}) has no func.func with that type: {decls.get(m.group(1))}")
        bad = 1
sys.exit(bad)
EOF
    echo "FAIL $name: a func.call does not match a declaration"
    fail=1
    continue
  fi
  sed -i 's/!aiex\.bfp<"v8bfp16ebs8">/i72/g' "$f"
  # As exported: passes, or fails on kernel calls alone (and passes when there are none).
  if "$mlir_opt" --allow-unregistered-dialect "$f" -o /dev/null 2>"$d/$name.plain.err"; then
    plain=$((plain + 1))
  elif ! grep -q '"func\.call"(' "$f"; then
    echo "FAIL $name ($device): mlir-opt rejects the module as exported, which has no kernel call:"
    head -5 "$d/$name.plain.err"
    fail=1
    continue
  elif grep 'error:' "$d/$name.plain.err" | grep -qv "error: 'func.call' op '[A-Za-z0-9_]*' does not reference a valid function"; then
    echo "FAIL $name ($device): mlir-opt rejects the module as exported for more than its kernel calls:"
    grep 'error:' "$d/$name.plain.err" | grep -v "'func.call' op" | head -3
    fail=1
    continue
  fi
  sed 's/"func\.call"(/"npusim_check.func_call"(/' "$f" >"$d/$name.opt.mlir"
  "$mlir_opt" --allow-unregistered-dialect "$d/$name.opt.mlir" -o /dev/null 2>"$d/$name.opt.err"
  opt=$?
  if [ $opt -ne 0 ]; then
    echo "FAIL $name ($device): mlir-opt rejects the generic form:"
    head -5 "$d/$name.opt.err"
    fail=1
  fi
done <<<"$designs"
echo "export_mlir_opt: $exported exported ($variants of them variants; $plain pass mlir-opt as exported), $refused refused, $combos parameter values the design's build does not take with its other defaults, mlir-opt $mlir_opt"
if [ $plain -lt 1 ]; then
  echo "FAIL: no design passed mlir-opt as exported (a design without kernel calls should)"
  fail=1
fi
# Every registered design exports.
total=$(grep -c ' -$' <<<"$designs")
if [ $((exported - variants)) -ne "$total" ]; then
  echo "FAIL: $((exported - variants)) of $total registered designs exported"
  fail=1
fi
exit $fail
