#!/usr/bin/env bash
# Regenerate the pictures and reports of docs/deadlocks.md: for every registered deadlock_* design,
# docs/deadlocks/NAME.txt (the report `npusim run NAME` prints), NAME.json (the `deadlock` object
# of `npusim run NAME --json`), NAME.dot (`--dot`) and NAME.svg (rendered with Graphviz's dot).
# Usage: bash tools/deadlock-catalog.sh [path/to/npusim]   (default: build/tools/npusim)
set -euo pipefail
cd "$(dirname "$0")/.."
npusim="${1:-build/tools/npusim}"
out=docs/deadlocks
mkdir -p "$out"
designs=$("$npusim" list | awk '$1 ~ /^deadlock_/ {print $1}')
[ -n "$designs" ] || { echo "no deadlock_* designs registered" >&2; exit 1; }
for d in $designs; do
  set +e
  "$npusim" run "$d" --dot "$out/$d.dot" >/dev/null 2>"$out/$d.txt"
  code=$?
  "$npusim" run "$d" --json >"$out/$d.json"
  set -e
  if [ "$code" -ne 3 ]; then echo "$d: expected exit code 3 (deadlock), got $code" >&2; exit 1; fi
  # Keep the report only (not the CLI's "wait-for graph written to" note).
  sed -i '/^  wait-for graph written to /d' "$out/$d.txt"
  dot -Tsvg "$out/$d.dot" -o "$out/$d.svg"
  echo "$d: $(grep -m1 '^case:' "$out/$d.txt")"
done
