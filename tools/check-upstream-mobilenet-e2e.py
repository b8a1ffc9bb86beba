"""Simulates ml/mobilenet's per-block and chain modules (aie2_iron_per_block.py, aie2_iron_chain.py,
unchanged, imported from a mlir-aie checkout) on the brevitas fixtures run_e2e.sh names, and compares
their outputs with the fixtures' golden outputs as test_e2e.py does on an NPU.

    npusim python tools/check-upstream-mobilenet-e2e.py DIR [TARGET ...]

DIR is a mlir-aie checkout (programming_examples/ml/mobilenet with its bottleneck_A/B data). TARGETs
are test_e2e.py's keys that have fixtures (default: all: block:bn1, bn2, bn3, bn6, bn7, chain:regular,
chain:pipeline). As
run_e2e.sh does, a block gets bottleneck_A's bnN_single.txt as bnN_chain.txt (staged in a temporary
folder) and scale_factors_per_bn.json, chain:regular bottleneck_A's data with scale_factors_fused.json,
chain:pipeline bottleneck_B's; the input goes from CHW to YCXC8, the output from HCWC8 back to CHW.
Prints one line per target and exits 1 if one differs by more than run_e2e.sh's tolerance (ATOL=14
for chain:regular, 0 otherwise). docs/python-upstream.md has the run.
"""
import argparse
import os
import shutil
import sys
import tempfile

import numpy as np

import npusim
from aie.iron import set_current_device
from aie.iron.device import NPU2

# test_e2e.py's SHAPES: in_w, in_h, in_c, out_w, out_h, out_c
SHAPES = {"block:bn1": (112, 112, 16, 56, 56, 24), "block:bn2": (56, 56, 24, 56, 56, 24),
          "block:bn3": (56, 56, 24, 28, 28, 40), "block:bn6": (28, 28, 40, 14, 14, 80),
          "block:bn7": (14, 14, 80, 14, 14, 80), "chain:regular": (112, 112, 16, 14, 14, 80),
          "chain:pipeline": (14, 14, 80, 7, 7, 80)}
ATOL = {"chain:regular": 14}  # run_e2e.sh
DEFAULT = list(SHAPES)


def load_chw(path, c, h, w):
    return np.loadtxt(path, delimiter=",", dtype=np.int64).astype(np.uint8).view(np.int8).reshape(c, h, w)


def build(key, mb, stage):
    mode, target = key.split(":")
    if mode == "block":
        fix = os.path.join(mb, "bottleneck_A", "data")
        n = target[2:]
        shutil.copy(os.path.join(fix, f"bn{n}_single.txt"), os.path.join(stage, f"bn{n}_chain.txt"))
        from mobilenet import aie2_iron_per_block as pb
        prog = pb.per_block_iron(target, stage, os.path.join(fix, "scale_factors_per_bn.json"))
        return prog, os.path.join(fix, f"input_bn{n}_single.txt"), os.path.join(fix, f"golden_output_bn{n}_single.txt")
    fix = os.path.join(mb, "bottleneck_A" if target == "regular" else "bottleneck_B", "data")
    scales = "scale_factors_fused.json" if target == "regular" else "scale_factors.json"
    from mobilenet import aie2_iron_chain as ch
    prog = ch._chain_iron(target, fix, os.path.join(fix, scales))
    return prog, os.path.join(fix, "before_ifm_mem_fmt_1x1.txt"), os.path.join(fix, "golden_output.txt")


def run(key, mb, stage):
    in_w, in_h, in_c, out_w, out_h, out_c = SHAPES[key]
    set_current_device(NPU2())
    prog, inp, gold = build(key, mb, stage)
    chw = load_chw(inp, in_c, in_h, in_w)
    x = np.ascontiguousarray(chw.reshape(in_c // 8, 8, in_h, in_w).transpose(2, 0, 3, 1)).ravel().view(np.int32)
    out = np.zeros(out_w * out_h * out_c // 4, np.int32)
    r = npusim.simulate(prog, [x, out])
    got = out.view(np.int8).reshape(out_h, out_c // 8, out_w, 8).transpose(1, 3, 0, 2).reshape(out_c, out_h, out_w)
    d = np.abs(got.astype(np.int32) - load_chw(gold, out_c, out_h, out_w).astype(np.int32))
    return r.cycles, int((d == 0).sum()), d.size, int(d.max())


def main():
    ap = argparse.ArgumentParser(prog="check-upstream-mobilenet-e2e")
    ap.add_argument("dir")
    ap.add_argument("targets", nargs="*")
    a = ap.parse_args()
    ml = os.path.join(a.dir, "programming_examples", "ml")
    mb = os.path.join(ml, "mobilenet")
    if not os.path.isfile(os.path.join(mb, "aie2_iron_per_block.py")):
        print(f"check-upstream-mobilenet-e2e: {a.dir} has no programming_examples/ml/mobilenet/aie2_iron_per_block.py",
              file=sys.stderr)
        return 2
    for t in a.targets:
        if t not in SHAPES:
            print(f"check-upstream-mobilenet-e2e: unknown target '{t}' (known: {', '.join(SHAPES)})", file=sys.stderr)
            return 2
    sys.path.insert(0, ml)
    bad = 0
    with tempfile.TemporaryDirectory(prefix="npusim-mobilenet-") as stage:
        for key in a.targets or DEFAULT:
            cycles, equal, total, max_d = run(key, mb, stage)
            ok = max_d <= ATOL.get(key, 0)
            print(f"{key}: {equal}/{total} equal the golden, max diff {max_d} (atol {ATOL.get(key, 0)}), "
                  f"{cycles} cycles{'' if ok else ': FAIL'}")
            bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
