#!/usr/bin/env bash
# Trace files checked by their real consumers:
#   vcd   - the VCD of a run converted by GTKWave's vcd2fst (Debian package gtkwave) without an
#           error or a crash into a non-empty FST, which fst2vcd reads back with the lock
#           acquire/release events still triggering;
#   json  - the rich Perfetto trace and the mlir-aie-mode trace loaded by python3's json module,
#           with the shape each format promises.
# usage: trace_consumers.sh vcd|json NPUSIM WORKDIR
set -euo pipefail
mode=$1
npusim=$2
dir=$3
rm -rf "$dir"
mkdir -p "$dir"

case "$mode" in
vcd)
    if ! command -v vcd2fst >/dev/null || ! command -v fst2vcd >/dev/null; then
        echo "vcd2fst/fst2vcd not found: install the gtkwave package (tools/install-deps.sh)" >&2
        exit 1
    fi
    "$npusim" run passthrough_kernel --vcd "$dir/run.vcd" >"$dir/run.log"
    status=0
    vcd2fst "$dir/run.vcd" "$dir/run.fst" >"$dir/vcd2fst.log" 2>&1 || status=$?
    cat "$dir/vcd2fst.log"
    if [ "$status" -ne 0 ]; then
        echo "vcd2fst failed with exit status $status" >&2
        exit 1
    fi
    if grep -qiE "error|warning|unknown|malformed" "$dir/vcd2fst.log"; then
        echo "vcd2fst reported a problem (above)" >&2
        exit 1
    fi
    if [ ! -s "$dir/run.fst" ]; then
        echo "vcd2fst made an empty file" >&2
        exit 1
    fi
    fst2vcd "$dir/run.fst" >"$dir/back.vcd"
    # The first lock-release event variable and how often it triggers, before and after.
    id=$(awk '$1 == "$var" && $2 == "event" && $5 ~ /_release$/ { print $4; exit }' "$dir/back.vcd")
    if [ -z "$id" ]; then
        echo "no lock release event variable in the FST" >&2
        exit 1
    fi
    name=$(awk -v id="$id" '$1 == "$var" && $4 == id { print $5; exit }' "$dir/back.vcd")
    orig_id=$(awk -v n="$name" '$1 == "$var" && $5 == n { print $4; exit }' "$dir/run.vcd")
    before=$(grep -cxF "1$orig_id" "$dir/run.vcd" || true)
    after=$(grep -cxF "1$id" "$dir/back.vcd" || true)
    echo "$name: $before triggers in the VCD, $after after the FST round trip"
    if [ "$before" -eq 0 ] || [ "$before" -ne "$after" ]; then
        echo "the lock events did not survive the conversion" >&2
        exit 1
    fi
    ;;
json)
    "$npusim" run passthrough_kernel --trace "$dir/rich.json" >"$dir/rich.log"
    "$npusim" run matmul_single_core --param M=64 --param K=64 --param N=64 --trace "$dir/mlir.json" \
        --trace-format mlir-aie >"$dir/mlir.log"
    python3 - "$dir/rich.json" "$dir/mlir.json" <<'PY'
import json
import sys

with open(sys.argv[1]) as f:
    rich = json.load(f)
assert isinstance(rich, dict), "rich trace: a JSON object"
assert rich["displayTimeUnit"] == "ns"
assert rich["otherData"]["ts_unit"] == "cycles" and rich["otherData"]["clock_mhz"] > 0
events = rich["traceEvents"]
phases = {e["ph"] for e in events}
assert {"M", "X", "i", "C"} <= phases, phases
assert any(e["name"] == "clock" and e["ph"] == "M" for e in events)
assert any(e["ph"] == "X" and e.get("cat") == "kernel" and "kernel" in e["args"] for e in events)
assert any(e["ph"] == "X" and e.get("cat") == "transfer" and "bytes" in e["args"] for e in events)
print(f"rich trace: {len(events)} events")

with open(sys.argv[2]) as f:
    mlir = json.load(f)
assert isinstance(mlir, list), "mlir-aie trace: a JSON list"
procs = [e for e in mlir if e["name"] == "process_name"]
threads = [e for e in mlir if e["name"] == "thread_name"]
assert procs and len(threads) == 8 * len(procs)
assert all(e["ph"] in ("B", "E") for e in mlir if e["ph"] != "M")
# get_trace_summary.py's rule: INSTR_EVENT_0 "B" opens an invocation, INSTR_EVENT_1 "B" closes it.
open_, count = False, 0
for e in mlir:
    if e["name"] == "INSTR_EVENT_0" and e["ph"] == "B" and not open_:
        open_ = True
    elif e["name"] == "INSTR_EVENT_1" and e["ph"] == "B" and open_:
        open_, count = False, count + 1
assert count > 0
print(f"mlir-aie trace: {len(procs)} process(es), {count} kernel invocations")
PY
    ;;
*)
    echo "usage: $0 vcd|json NPUSIM WORKDIR" >&2
    exit 2
    ;;
esac
