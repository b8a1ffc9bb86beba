#!/usr/bin/env bash
# .npy files written by `npusim run --save-outputs` read by their real consumer, numpy (Debian
# python3-numpy): each file has the dtype and the shape `npusim args --json` declares for its
# argument, and the outputs equal references numpy computes itself from the saved inputs --
# transpose_dma c = a.T (a 2-D argument), memcpy b = a, matmul_single_core C = A @ B with int16
# inputs and int32 wrapping accumulation, relu b = max(a, 0) in bf16 (saved as '<V2', ml_dtypes'
# bf16 layout, compared through its bits).
# Usage: npy_numpy.sh NPUSIM
set -uo pipefail
npusim=$1
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! "$py" -c "import numpy" 2>/dev/null; then
  echo "npy_numpy: python3-numpy is needed (bash tools/install-deps.sh)" >&2
  exit 1
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
save() { # DESIGN ARGS...: outputs into $d/DESIGN, declared arguments into $d/DESIGN.args.json
  local design=$1
  shift
  "$npusim" run "$design" "$@" --save-outputs "$d/$design" >"$d/$design.log" 2>&1 || {
    echo "FAIL: npusim run $design $*"
    cat "$d/$design.log"
    exit 1
  }
  "$npusim" args "$design" "$@" --json >"$d/$design.args.json"
}
save transpose_dma
save memcpy --param size=4096
save matmul_single_core --param M=64 --param K=64 --param N=64
save relu --param size=4096
"$py" - "$d" <<'PY'
import json, os, sys
import numpy as np
d = sys.argv[1]
failures = []
def load(design, name):
    return np.load(os.path.join(d, design, name + ".npy"))
# Shapes and dtypes as declared.
for design in ("transpose_dma", "memcpy", "matmul_single_core", "relu"):
    args = json.load(open(os.path.join(d, design + ".args.json")))["args"]
    for a in args:
        if a["role"] == "unused":
            continue
        files = [a["name"]] + ([a["name"] + ".expected"] if a["role"] == "output" else [])
        for f in files:
            x = load(design, f)
            if list(x.shape) != a["shape"]:
                failures.append(f"{design}/{f}.npy: shape {x.shape}, declared {a['shape']}")
            if x.dtype != np.dtype(a["npy_descr"]):
                failures.append(f"{design}/{f}.npy: dtype {x.dtype.str}, declared {a['npy_descr']}")
a = load("transpose_dma", "a")
if a.ndim != 2 or not np.array_equal(load("transpose_dma", "c"), a.T):
    failures.append("transpose_dma: c != a.T")
if not np.array_equal(load("memcpy", "b"), load("memcpy", "a")):
    failures.append("memcpy: b != a")
A = load("matmul_single_core", "A").reshape(64, 64).astype(np.int64)
B = load("matmul_single_core", "B").reshape(64, 64).astype(np.int64)
C = (A @ B).astype(np.int32)  # wraps like the int32 accumulator
if not np.array_equal(load("matmul_single_core", "C").reshape(64, 64), C):
    failures.append("matmul_single_core: C != A @ B")
# bf16 as '<V2': reinterpret the two bytes as the upper half of a float32.
def bf16(x):
    return (x.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
ra, rb = bf16(load("relu", "a")), bf16(load("relu", "b"))
if not np.array_equal(rb, np.maximum(ra, np.float32(0))):
    failures.append("relu: b != max(a, 0)")
for f in failures:
    print("FAIL", f)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
PY
