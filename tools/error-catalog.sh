#!/usr/bin/env bash
# Regenerate docs/errors.md: the hand-written head (docs/errors.head.md) and the catalog of every
# error npusim reports, as the error_catalog program prints it from tests/docs/catalog/*.cpp (each
# entry's trigger is run and its message checked by the docs_tests ctests).
# Usage: bash tools/error-catalog.sh [path/to/error_catalog] [output file (default: docs/errors.md)]
set -euo pipefail
cd "$(dirname "$0")/.."
generator="${1:-build/tests/docs/error_catalog}"
page="${2:-docs/errors.md}"
[ -x "$generator" ] || { echo "no $generator: build it first (cmake --build build --target error_catalog)" >&2; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
  cat docs/errors.head.md
  echo
  "$generator"
} >"$tmp"
mv "$tmp" "$page"
trap - EXIT
echo "$page: $(grep -c '^| `' "$page") rows"
