#!/usr/bin/env bash
# Regenerate docs/calibration.md: docs/calibration.head.md + the table npusim-calibrate prints
# (npusim's predictions against the measured hardware figures; docs/calibration.md says which).
# Usage: tools/calibrate.sh [path/to/npusim-calibrate]  (default: build it in build/)
# The GEMM rows (`npusim-calibrate --gemm`, 4096-sized simulations, about 20 minutes) follow the
# fast table; NPUSIM_CALIBRATE_GEMM=0 keeps the GEMM section already in docs/calibration.md.
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
else
    "$bin" --gemm > "$gemm"
fi
{ cat docs/calibration.head.md; "$bin"; cat "$gemm"; } > docs/calibration.md.tmp
mv docs/calibration.md.tmp docs/calibration.md
echo "wrote docs/calibration.md"
