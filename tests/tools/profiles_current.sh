#!/usr/bin/env bash
# tools/profiles/*.json must be what tools/make-profiles.sh makes now with this npusim ($1).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash "$root/tools/make-profiles.sh" "$1" "$tmp" > /dev/null
if ! diff -ru "$root/tools/profiles" "$tmp"; then
    echo "tools/profiles is not current: run bash tools/make-profiles.sh" >&2
    exit 1
fi
