#!/usr/bin/env bash
# What reaches the user however npusim ends, through the real process: stdout on a full disk is a
# file error (exit 2), not exit 0 with the output lost; an interrupted run (SIGINT) prints the JSON
# error document with --json, leaves a previous trace file whole and no temporary file behind.
# Argument: the npusim executable.
set -uo pipefail
npusim=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for cmd in "export passthrough_kernel" "run passthrough_dmas --json" "list"; do
    # shellcheck disable=SC2086
    "$npusim" $cmd >/dev/full 2>"$work/err"
    rc=$?
    [ "$rc" = 2 ] || fail "$cmd >/dev/full: exit $rc, expected 2"
    # The reason is the system's when the stream kept it (a write that failed earlier may not have).
    grep -Eqx "npusim: file error: cannot write standard output: (No space left on device|I/O error)" "$work/err" ||
        fail "$cmd >/dev/full: $(cat "$work/err")"
done
echo "stdout on a full disk: file error, exit 2"

# A run long enough to interrupt (about 10 s of simulation), its trace over a previous one.
echo previous >"$work/t.json"
"$npusim" run matmul_whole_array --device npu2 --param M=4096 --param K=4096 --param N=4096 --json \
    --trace "$work/t.json" --timeout 0 >"$work/out.json" 2>"$work/err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 130 ] || fail "interrupted run: exit $rc, expected 130 (SIGINT); stderr: $(cat "$work/err")"
python3 - "$work/out.json" "$work/t.json" <<'PY' || fail "interrupted run: $(cat "$work/out.json")"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["document"] == "error" and doc["status"] == "error", doc
assert doc["error"]["kind"] == "interrupted", doc
msg = doc["error"]["message"]
assert msg.startswith("interrupted (SIGINT) before the command finished; not written: --trace"), msg
assert open(sys.argv[2]).read() == "previous\n"
PY
[ "$(ls -A "$work" | grep -c tmp)" = 0 ] || fail "temporary files left: $(ls -A "$work")"
echo "interrupted run: JSON error document, previous trace whole, no temporary file"
