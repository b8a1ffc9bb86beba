#!/usr/bin/env bash
# Regenerate the shipped timing profiles tools/profiles/npu1-public.json and npu2-public.json from
# the public figures that can be expressed as measurements `npusim calibrate` reads
# (docs/calibration.md, "Shipped profiles"; the figures are the rows of its figure table).
# Usage: tools/make-profiles.sh [path/to/npusim] [output-dir]   (default: build/tools/npusim, tools/profiles)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-${NPUSIM_BUILD_DIR:-build}/tools/npusim}"
outdir="${2:-tools/profiles}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# NPU1, row 4: the int16 vector_scalar_mul kernel on 1024 elements runs 72 cycles from event0 to
# event1 (mlir-aie programming_guide/section-4/section-4c/README.md l.230, l.240, l.266 at
# 3ca0193). As a trace: one core unit recording INSTR_EVENT_0 / INSTR_EVENT_1 around one call of
# the design vector_scalar_mul with size=1024 (one 1024-element tile), in parse.py's format.
cat > "$tmp/row4.json" <<'JSON'
[{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "core_trace for tile2,0"}},
{"name": "thread_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "INSTR_EVENT_0"}},
{"name": "thread_name", "ph": "M", "pid": 0, "tid": 1, "args": {"name": "INSTR_EVENT_1"}},
{"name": "INSTR_EVENT_0", "ts": 0, "ph": "B", "pid": 0, "tid": 0, "args": {}},
{"name": "INSTR_EVENT_0", "ts": 1, "ph": "E", "pid": 0, "tid": 0, "args": {}},
{"name": "INSTR_EVENT_1", "ts": 72, "ph": "B", "pid": 0, "tid": 1, "args": {}},
{"name": "INSTR_EVENT_1", "ts": 73, "ph": "E", "pid": 0, "tid": 1, "args": {}}]
JSON
# NPU1, row 9: section-4a's vector_scalar_mul (int32, 4096 elements) measures 200-300 us NPU time
# per run after 4 warm-ups (programming_guide/section-4/section-4a/README.md l.137-157): the
# middle of the range, 250 us, as the NPU time of vector_scalar_mul bits=32.
"$bin" calibrate vector_scalar_mul --device npu1_1col --param size=1024 --param bits=16 \
    --trace "$tmp/row4.json" --npu-time-us "vector_scalar_mul,bits=32,size=4096:250" \
    --fit kernel_call_overhead_cycles,host_invocation_latency_us -o "$tmp/npu1.json" > "$tmp/npu1.txt"
cat "$tmp/npu1.txt"
python3 - "$tmp/npu1.json" "$outdir/npu1-public.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
# The traces were temporary files: name the figures they stand for instead.
for run in p["calibration"]["runs"]:
    run["traces"] = ["docs/calibration.md figure row 4 (72 cycles event0 -> event1)"] if run.get("traces") else []
    if "npu_time_us" in run:
        run["figure"] = "docs/calibration.md figure row 9 (200-300 us after 4 warm-ups)"
p["calibration"]["made_by"] = "tools/make-profiles.sh"
json.dump(p, open(sys.argv[2], "w"), indent=2, sort_keys=True)
open(sys.argv[2], "a").write("\n")
PY
# NPU2: no published NPU2 figure is a trace or an NPU time of a registered design that the table
# has not already been built from (row 36's 52 us xrt-smi latency is host_invocation_latency_us
# itself, its test design has no array time; rows 25 and 33 are whole-design times that a missing
# per-tile cost would be fitted into). The profile is the AIE2P table unchanged.
cat > "$outdir/npu2-public.json" <<'JSON'
{
  "calibration": {
    "device": "npu2",
    "generation": "AIE2P",
    "made_by": "tools/make-profiles.sh",
    "note": "the AIE2P table unchanged: no public NPU2 figure is a trace or NPU time the table is not already built from (docs/calibration.md, Shipped profiles)"
  }
}
JSON
echo "wrote $outdir/npu1-public.json $outdir/npu2-public.json"
