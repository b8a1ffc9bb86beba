#!/usr/bin/env bash
# docs/errors.md must be what tools/error-catalog.sh makes from the error catalog now (its head
# docs/errors.head.md and the list the error_catalog program prints).
# Usage: errors_md_current.sh path/to/error_catalog
set -euo pipefail
generator="$(realpath "$1")"
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash tools/error-catalog.sh "$generator" "$tmp/errors.md" >/dev/null
if ! diff -u docs/errors.md "$tmp/errors.md" >"$tmp/diff"; then
  echo "docs/errors.md is out of date (run: bash tools/error-catalog.sh):"
  head -40 "$tmp/diff"
  exit 1
fi
