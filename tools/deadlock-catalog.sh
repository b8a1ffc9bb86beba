#!/usr/bin/env bash
# Regenerate docs/deadlocks.md and docs/deadlocks/: for every registered deadlock_* design,
# NAME.txt (the report `npusim run NAME` prints on stderr), NAME.json (`npusim run NAME --json`),
# NAME.dot (`--dot`) and NAME.svg (rendered with Graphviz's dot), and the page that shows them.
# Usage: bash tools/deadlock-catalog.sh [path/to/npusim] [output dir (default: docs)]
set -euo pipefail
cd "$(dirname "$0")/.."
npusim="${1:-build/tools/npusim}"
docs="${2:-docs}"
out="$docs/deadlocks"
mkdir -p "$out"
designs=$("$npusim" list | awk '$1 ~ /^deadlock_/ {print $1}')
[ -n "$designs" ] || { echo "no deadlock_* designs registered" >&2; exit 1; }
page="$docs/deadlocks.md"
cat docs/deadlocks.head.md >"$page"
for d in $designs; do
  set +e
  "$npusim" run "$d" --dot "$out/$d.dot" >/dev/null 2>"$out/$d.txt"
  code=$?
  "$npusim" run "$d" --json >"$out/$d.json"
  set -e
  if [ "$code" -ne 3 ]; then echo "$d: expected exit code 3 (deadlock), got $code" >&2; exit 1; fi
  # The report only (not the CLI's note on where the graph went).
  sed -i '/^  wait-for graph written to /d' "$out/$d.txt"
  dot -Tsvg "$out/$d.dot" -o "$out/$d.svg"
  description=$("$npusim" list | awk -v d="$d" '$1 == d {sub(/^[^ ]+ +/, ""); sub(/  \[.*$/, ""); print}')
  source=$(grep -l "catalog_spec(\"$d\"" examples/src/*.cpp | head -1)
  {
    echo
    echo "## $d"
    echo
    echo "$description. Source: [$source](../$source)."
    echo
    echo '```'
    echo "\$ build/tools/npusim run $d --dot docs/deadlocks/$d.dot"
    # The case, the causal chain and the cycle: the part of the report that explains the hang.
    awk '/^blocked:/ {exit} {print}' "$out/$d.txt"
    echo '```'
    echo
    echo "Full report: [$d.txt](deadlocks/$d.txt) · JSON (\`npusim run $d --json\`):" \
         "[$d.json](deadlocks/$d.json) · DOT: [$d.dot](deadlocks/$d.dot), rendered with" \
         "\`dot -Tsvg docs/deadlocks/$d.dot -o docs/deadlocks/$d.svg\`:"
    echo
    echo "![wait-for graph of $d](deadlocks/$d.svg)"
  } >>"$page"
  echo "$d: $(grep -m1 '^case:' "$out/$d.txt")"
done
