#!/usr/bin/env bash
# `mpirun -np 2 npusim sweep ...` splits the points over two ranks and rank 0 prints the same points
# (status, cycles, parameters) as the same sweep run without mpirun. Skipped (77) when npusim was
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
