#!/usr/bin/env bash
# Regenerate docs/calibration.md: docs/calibration.head.md + the table npusim-calibrate prints
# (npusim's predictions against the measured hardware figures; docs/calibration.md says which).
# Usage: tools/calibrate.sh [path/to/npusim-calibrate]  (default: build it in build/)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-}"
if [ -z "$bin" ]; then
    cmake --build "${NPUSIM_BUILD_DIR:-build}" --target npusim-calibrate >/dev/null
    bin="${NPUSIM_BUILD_DIR:-build}/tools/calibrate/npusim-calibrate"
fi
{ cat docs/calibration.head.md; "$bin"; } > docs/calibration.md.tmp
mv docs/calibration.md.tmp docs/calibration.md
echo "wrote docs/calibration.md"
