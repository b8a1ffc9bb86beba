#!/usr/bin/env bash
# docs/deadlocks.md and docs/deadlocks/*.{txt,json,dot} must be what tools/deadlock-catalog.sh makes
# from the deadlock_* designs with the current npusim (every report on that page is produced by the
# command beside it). Usage: deadlock_catalog_current.sh path/to/npusim
set -euo pipefail
npusim="$(realpath "$1")"
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash tools/deadlock-catalog.sh "$npusim" "$tmp" >/dev/null
# A sanitizer build (NPUSIM_SANITIZE) adds AddressSanitizer's notes about exceptions that unwound
# coroutine stacks to stderr; they are not part of the report.
for f in "$tmp"/deadlocks/*.txt "$tmp"/deadlocks.md; do
  sed -i -e '/^==[0-9]*==WARNING: ASan is ignoring requested __asan_handle_no_return/d' \
         -e '/^False positive error reports may follow$/d' \
         -e '/^For details see https:\/\/github.com\/google\/sanitizers\/issues\/189$/d' "$f"
done
status=0
for f in deadlocks.md $(cd "$tmp" && ls deadlocks/*.txt deadlocks/*.json deadlocks/*.dot); do
  if ! diff -u "docs/$f" "$tmp/$f" >"$tmp/diff" 2>&1; then
    echo "docs/$f is out of date (run: bash tools/deadlock-catalog.sh):"
    head -20 "$tmp/diff"
    status=1
  fi
done
# Every generated picture exists (Graphviz rendered every graph).
for f in "$tmp"/deadlocks/*.dot; do [ -s "${f%.dot}.svg" ] || { echo "no picture for $f"; status=1; }; done
# The README's example is the start of one catalog report, as `npusim run` prints it now.
awk '/^\$ build\/tools\/npusim run deadlock_fill_less/ {on=1; next} on && /^\.\.\.$/ {exit} on {print}' README.md \
  >"$tmp/readme"
awk '/^blocked:/ {exit} {print}' "$tmp/deadlocks/deadlock_fill_less.txt" >"$tmp/report"
if [ ! -s "$tmp/readme" ] || ! diff -u "$tmp/report" "$tmp/readme"; then
  echo "README.md's deadlock example differs from what npusim prints (docs/deadlocks/deadlock_fill_less.txt)"
  status=1
fi
exit $status
