#!/usr/bin/env bash
# docs/calibration.md must be docs/calibration.head.md + what npusim-calibrate prints now, up to
# its GEMM section (`npusim-calibrate --gemm`: minutes of 4096-sized simulations, not rerun here).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{ cat "$root/docs/calibration.head.md"; "$1"; } > "$tmp"
if ! diff -u <(sed '/^## GEMM rows/,$d' "$root/docs/calibration.md" | sed '${/^$/d}') "$tmp"; then
    echo "docs/calibration.md is not current: run bash tools/calibrate.sh" >&2
    exit 1
fi
