#!/usr/bin/env bash
# Regenerate docs/calibration.md: docs/calibration.head.md + the table npusim-calibrate prints
# (npusim's predictions against the measured hardware figures; docs/calibration.md says which).
# Usage: tools/calibrate.sh [path/to/npusim-calibrate]  (default: build it in build/)
# The GEMM rows (`npusim-calibrate --gemm`, 4096-sized simulations, about 20 minutes) follow the
# fast table; NPUSIM_CALIBRATE_GEMM=0 keeps the GEMM section already in docs/calibration.md.
# MLIR_AIE_DIR=path/to/mlir-aie (optional): rows 10-13 then simulate upstream's
# ml/block_datatypes/gemm_asymmetric_tile_buffering designs unchanged (tools/check-upstream-bfp.py,
# with build/tools/npusim and its Python module); a config that does not run, and every ATB row
# without a checkout, keeps IRON's whole_array in bf16 as the stand-in, the reason in the row.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-}"
if [ -z "$bin" ]; then
    cmake --build "${NPUSIM_BUILD_DIR:-build}" --target npusim-calibrate >/dev/null
    bin="${NPUSIM_BUILD_DIR:-build}/tools/calibrate/npusim-calibrate"
fi
gemm=$(mktemp)
trap 'rm -f "$gemm"' EXIT
if [ "${NPUSIM_CALIBRATE_GEMM:-1}" = 0 ]; then
    sed -n '/^## GEMM rows/,$p' docs/calibration.md | sed '1s/^/\n/' > "$gemm"
elif [ -n "${MLIR_AIE_DIR:-}" ]; then
    atb=$(mktemp)
    trap 'rm -f "$gemm" "$atb"' EXIT
    npusim="${NPUSIM_BUILD_DIR:-build}/tools/npusim"
    # a config that does not resolve is reported and left out of $atb (its row keeps the stand-in)
    "$npusim" python tools/check-upstream-bfp.py "$MLIR_AIE_DIR" --gemm-only --atb-cycles "$atb" >&2 || true
    "$bin" --gemm --atb "$atb" '$MLIR_AIE_DIR' > "$gemm"
else
    "$bin" --gemm > "$gemm"
fi
{ cat docs/calibration.head.md; "$bin"; cat "$gemm"; } > docs/calibration.md.tmp
mv docs/calibration.md.tmp docs/calibration.md
echo "wrote docs/calibration.md"
