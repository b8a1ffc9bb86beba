#!/usr/bin/env bash
# Every --json document the CLI prints, validated against its schema in docs/json-schema/ with
# python3-jsonschema (Debian package, tools/install-deps.sh): list, devices, args, timing, run
# (pass, mismatch, trace files, what-if, netlist), error (usage, design, deadlock, limit, with the
# files written up to the failure; hw without an NPU), run_devices, depth, sweep, export (with
# --print-commands and -o too), compare (recorded outputs, pass and mismatch), calibrate (a trace
# npusim wrote, an NPU time, -o); hw's own document
# needs an NPU. Then the schemas must reject documents that break the contract (a number as a string, an
# unknown field, a wrong document kind, a status outside its enum, fractional cycles, compare's
# first mismatches unstructured, the netlist as text or with loose fields), so a schema that accepts anything fails here.
# Usage: json_schemas.sh NPUSIM SCHEMA_DIR
set -uo pipefail
npusim=$1
schemas=$2
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! "$py" -c "import jsonschema, numpy" 2>/dev/null; then
  echo "json_schemas: python3-jsonschema and python3-numpy are needed (bash tools/install-deps.sh)" >&2
  exit 1
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
run() { # NAME ARGS...: the document of `npusim ARGS... --json` into $d/NAME.json (any exit code)
  local name=$1
  shift
  "$npusim" "$@" --json >"$d/$name.json" 2>"$d/$name.err"
  echo "$name: exit $?"
}
run list list
run devices devices
run args args transpose_dma
run timing timing --device=npu2
run run_pass run memcpy --trace "$d/t.json" --vcd "$d/t.vcd" --save-outputs "$d/saved"
run run_float run softmax
run run_cascade run matmul_cascade --device npu2 --param M=128 --param N=128 --param K=256
run run_rtp run scale_shift
run run_whatif run memcpy --what-if all
run run_sensitivity run passthrough_kernel --device npu2 --what-if sensitivity
run run_netlist run memcpy --netlist
"$py" -c "
import numpy as np
b = np.load('$d/saved/b.npy'); b[3] += 1; np.save('$d/bad.npy', b)"
run run_mismatch golden memcpy --expect "b=$d/bad.npy"
run run_float_saved run softmax --save-outputs "$d/sm"
"$py" -c "
import numpy as np
b = np.load('$d/sm/b.npy'); v = b.view(np.uint16); v[3] ^= 0x4000; v[5] = 0x7fc0; np.save('$d/bad_bf16.npy', b)"
run run_float_mismatch golden softmax --expect "b=$d/bad_bf16.npy"
run error_usage run memcpy --no-such-option
run error_design run no_such_design
run error_deadlock run deadlock_ring3 --trace "$d/dl.json" --dot "$d/dl.dot"
run error_limit run memcpy --max-cycles 100
run run_devices run memcpy --device npu1,npu2
run run_devices_deadlock run deadlock_ring3 --device npu1,npu2
run depth depth memcpy
run depth_deadlock depth deadlock_fill_less
run sweep sweep memcpy --param size=1024,1000
run export export memcpy
printf '20.0\n22.5, 24\n' >"$d/times.txt"
printf '\0\0\3\6' >"$d/insts.bin"
echo xclbin >"$d/x.xclbin"
run compare_pass compare memcpy --hw-outputs "$d/saved" --hw-times "$d/times.txt"
run compare_mismatch compare memcpy --seed 2 --hw-outputs "$d/saved"
run error_hw hw memcpy --xclbin "$d/x.xclbin" --insts "$d/insts.bin"
run export_commands export matmul_single_core --param M=64 --param K=64 --param N=64 --param dtype_in=i8 --print-commands -o "$d/m.mlir"
mkdir -p "$d/cal"
"$npusim" run vector_scalar_mul --trace "$d/cal/hw.json" --trace-format mlir-aie >/dev/null
run calibrate calibrate vector_scalar_mul --trace "$d/cal/hw.json" --npu-time-us 300 \
    --fit kernel_call_overhead_cycles,host_invocation_latency_us -o "$d/cal/p.json"
"$py" - "$d" "$schemas" <<'PY'
import copy, glob, json, os, sys
import jsonschema
d, schemas = sys.argv[1], sys.argv[2]
loaded = {}
for f in glob.glob(os.path.join(schemas, "*.schema.json")):
    s = json.load(open(f))
    jsonschema.Draft7Validator.check_schema(s)
    loaded[os.path.basename(f)[: -len(".schema.json")]] = s
failures, used = [], set()
docs = {}
for f in sorted(glob.glob(os.path.join(d, "*.json"))):
    name = os.path.basename(f)[:-5]
    if name in ("t", "dl", "bad", "bad_bf16", "times"):
        continue
    try:
        doc = json.load(open(f))
    except ValueError as e:
        failures.append(f"{name}: not one JSON document: {e}")
        continue
    docs[name] = doc
    kind = doc.get("document")
    if kind not in loaded:
        failures.append(f"{name}: no schema for document '{kind}'")
        continue
    used.add(kind)
    errs = sorted(jsonschema.Draft7Validator(loaded[kind]).iter_errors(doc), key=lambda e: list(e.path))
    for e in errs[:5]:
        failures.append(f"{name} ({kind}): {'/'.join(map(str, e.path))}: {e.message[:300]}")
# hw's own document needs an NPU (this machine has none: its error document is validated instead).
for kind in sorted(set(loaded) - used - {"hw"}):
    failures.append(f"schema {kind}.schema.json validated no document")
if docs.get("error_hw", {}).get("status") != "hardware_error":
    failures.append(f"error_hw: status {docs.get('error_hw', {}).get('status')}, want hardware_error")
if docs.get("compare_pass", {}).get("status") != "pass" or docs.get("compare_mismatch", {}).get("status") != "mismatch":
    failures.append("compare: want pass (same seed as the recorded outputs) and mismatch (another seed)")
# The files written up to a failure are in the error document.
files = docs.get("error_deadlock", {}).get("files", {})
if set(files) != {"trace", "dot"}:
    failures.append(f"error_deadlock: files {files}, want trace and dot")
if docs.get("run_pass", {}).get("files", {}).get("vcd", "").endswith("t.vcd") is False:
    failures.append("run_pass: files.vcd missing")
# Contract breaks the schemas must reject.
def rejected(kind, doc, what):
    if jsonschema.Draft7Validator(loaded[kind]).is_valid(doc):
        failures.append(f"the {kind} schema accepts {what}")
m = copy.deepcopy(docs["run_mismatch"])
first = m["outputs"][0]["first"][0]
first["got"] = str(first["got"])
rejected("run", m, "'got' as a string")
m = copy.deepcopy(docs["run_pass"]); m["extra_field"] = 1
rejected("run", m, "an unknown top-level field")
m = copy.deepcopy(docs["run_pass"]); m["stats"]["channels"][0]["bytes"] = "65536"
rejected("run", m, "a channel's bytes as a string")
m = copy.deepcopy(docs["run_pass"]); del m["schema_version"]
rejected("run", m, "a document without schema_version")
m = copy.deepcopy(docs["error_deadlock"]); m["document"] = "run"
rejected("error", m, "another document kind")
m = copy.deepcopy(docs["calibrate"]); m["profile"]["bd_setup_cycles"] = "4"
rejected("calibrate", m, "a profile parameter as a string")
m = copy.deepcopy(docs["sweep"]); m["points"][0]["cycles"] = -1.5
rejected("sweep", m, "fractional cycles")
m = copy.deepcopy(docs["compare_pass"]); m["ratio"] = str(m["ratio"])
rejected("compare", m, "the ratio as a string")
m = copy.deepcopy(docs["compare_pass"]); m["hardware"]["source"] = "guess"
rejected("compare", m, "an unknown hardware source")
m = copy.deepcopy(docs["export"]); del m["module"]
rejected("export", m, "a document without its module")
m = copy.deepcopy(docs["run_netlist"]); m["netlist"] = "netlist of 'memcpy' on npu1_1col"
rejected("run", m, "the netlist as text")
m = copy.deepcopy(docs["run_netlist"]); m["netlist"]["locks"][0]["init"] = "2"
rejected("run", m, "a lock's init as a string")
m = copy.deepcopy(docs["run_netlist"]); m["netlist"]["sequence"][0]["kind"] = "sleep"
rejected("run", m, "an unknown runtime operation")
m = copy.deepcopy(docs["run_netlist"]); m["netlist"]["channels"][0]["bds"][0]["dims"] = "linear"
rejected("run", m, "a BD's dims as text")
m = copy.deepcopy(docs["run_netlist"]); m["netlist"]["extra"] = []
rejected("run", m, "an unknown netlist field")
m = copy.deepcopy(docs["sweep"]); m["points"][0]["status"] = "fine"
rejected("sweep", m, "a point status outside its enum")
m = copy.deepcopy(docs["compare_pass"]); m["simulation"]["cycles"] = 22879.5
rejected("compare", m, "fractional simulated cycles")
m = copy.deepcopy(docs["compare_pass"]); del m["outputs"][0]["first"]
rejected("compare", m, "an output without its structured first mismatches")
m = copy.deepcopy(docs["compare_mismatch"]); m["outputs"][0]["first"][0]["got"] = "3"
rejected("compare", m, "a first mismatch's 'got' as a string")
m = copy.deepcopy(docs["compare_mismatch"]); m["outputs"][0]["first"][0]["note"] = "x"
rejected("compare", m, "an unknown field in a first mismatch")
m = copy.deepcopy(docs["run_mismatch"]); m["outputs"][0]["first"][0]["index"] = 1.5
rejected("run", m, "a fractional index of a first mismatch")
m = copy.deepcopy(docs["depth_deadlock"]); m["baseline"]["cycles"] = "deadlock"
rejected("depth", m, "a status in the place of the baseline's cycles")
m = copy.deepcopy(docs["depth"]); m["endpoints"][0]["cycles_by_depth"]["1"] = "deadlock"
rejected("depth", m, "a status in the place of a depth's cycles")
m = copy.deepcopy(docs["depth"]); m["endpoints"][0]["status_by_depth"]["1"] = "hung"
rejected("depth", m, "a depth's status outside its enum")
# A float output's first mismatches carry their errors (a NaN expected: null, see want_text).
ff = [o for o in docs.get("run_float_mismatch", {}).get("outputs", []) if not o["match"]]
if not ff or "abs_err" not in ff[0]["first"][0] or not any(e["want"] is None for e in ff[0]["first"]):
    failures.append(f"run_float_mismatch: no float first mismatch with abs_err and a NaN: {ff[:1]}")
# compare's structured first mismatches are the ones its text names, as in run.
cm = [o for o in docs.get("compare_mismatch", {}).get("outputs", []) if not o["match"]]
if not cm or not cm[0]["first"] or f"[{cm[0]['first'][0]['index']}]" not in cm[0]["first_mismatches"]:
    failures.append(f"compare_mismatch: first {cm[0]['first'] if cm else None} does not match first_mismatches")
if docs.get("export_commands", {}).get("params", {}).get("dtype_in") != "i8":
    failures.append("export_commands: params.dtype_in is not 'i8'")
for f in failures:
    print("FAIL", f)
print(f"{len(docs)} documents, {len(loaded)} schemas, {len(failures)} failures")
sys.exit(1 if failures else 0)
PY
