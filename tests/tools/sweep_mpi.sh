#!/usr/bin/env bash
# `mpirun -np 2 npusim sweep ...` splits the points over two ranks and rank 0 prints the same points
# (status, cycles, parameters) as the same sweep run without mpirun; exactly one JSON document comes
# out on success and on error (rank 0 speaks for all), and the job's exit code is the command's. Skipped (77) when npusim was
# built without MPI or mpirun is missing. Arguments: the npusim executable, whether it has MPI (ON/OFF).
set -euo pipefail
npusim=$1 with_mpi=$2
if [ "$with_mpi" != "ON" ] || ! command -v mpirun >/dev/null; then
    echo "skipped: npusim built without MPI or no mpirun (install libopenmpi-dev openmpi-bin)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(sweep matmul_single_core --param M=64,128 --param K=64,128 --param N=64 --device npu1_1col,npu2 --json)
"$npusim" "${args[@]}" >"$work/local.json"
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
mpirun "${root[@]}" --oversubscribe -np 2 "$npusim" "${args[@]}" >"$work/mpi.json"
python3 - "$work/local.json" "$work/mpi.json" <<'PY'
import json, sys
local, mpi = (json.load(open(p)) for p in sys.argv[1:])
strip = lambda doc: [{k: v for k, v in p.items() if k != "seconds"} for p in doc["points"]]
assert mpi["ranks"] == 2, mpi["ranks"]
assert local["ranks"] == 1
assert len(mpi["points"]) == 8, len(mpi["points"])
assert strip(local) == strip(mpi), "the ranks' points differ from the local sweep"
assert all(p["status"] == "ok" for p in mpi["points"])
print("8 points over 2 MPI ranks, the same as the local sweep")
PY

# On error: one document, from rank 0, and a non-zero exit.
set +e
mpirun "${root[@]}" --oversubscribe -np 2 "$npusim" sweep no_such_design --json >"$work/err.json" 2>/dev/null
rc_design=$?
mpirun "${root[@]}" --oversubscribe -np 2 "$npusim" sweep passthrough_kernel --param size=3,5,7 --json \
    >"$work/refused.json" 2>/dev/null
rc_refused=$?
set -e
python3 - "$work/err.json" "$rc_design" "$work/refused.json" "$rc_refused" <<'PY'
import json, sys
def one(path):
    text = open(path).read()
    doc, end = json.JSONDecoder().raw_decode(text)
    assert text[end:].strip() == "", f"{path}: more than one document"
    return doc
err = one(sys.argv[1])
assert err["document"] == "error" and err["status"] == "design_error", err
assert sys.argv[2] != "0", "an unknown design under mpirun exited 0"
refused = one(sys.argv[3])
assert refused["document"] == "sweep" and len(refused["points"]) == 3, refused
assert all(p["status"] == "refused" for p in refused["points"])
assert sys.argv[4] != "0", "a sweep where every point was refused exited 0 under mpirun"
print("on error: one JSON document from rank 0, a non-zero exit")
PY
