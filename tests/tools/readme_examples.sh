#!/usr/bin/env bash
# The README's "Using it" commands run as written, in order, in a scratch folder: each exits 0, or
# the code its comment names ("exit 3", "(exit 3)"). Arguments: the npusim executable, README.md.
set -uo pipefail
npusim=$1 readme=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build/tools"
ln -s "$npusim" "$work/build/tools/npusim"
cd "$work"
# The first ```sh block after "## Using it".
block=$(awk '/^## Using it/{u=1} u&&/^```sh/{b=1;next} b&&/^```/{exit} b' "$readme")
[ -n "$block" ] || { echo "FAIL: no command block under '## Using it' in $readme"; exit 1; }
failed=0 n=0
while IFS= read -r line; do
    [ -z "$line" ] && continue
    cmd=${line%%   #*}
    comment=${line#"$cmd"}
    want=0
    [[ $comment =~ exit\ ([0-9]) ]] && want=${BASH_REMATCH[1]}
    timeout 300 bash -c "$cmd" >out.txt 2>err.txt
    rc=$?
    n=$((n + 1))
    if [ "$rc" != "$want" ]; then
        echo "FAIL: exit $rc, expected $want: $cmd"
        tail -3 err.txt
        failed=1
    fi
done <<<"$block"
[ "$failed" = 0 ] && echo "$n README commands ran as written"
exit "$failed"
