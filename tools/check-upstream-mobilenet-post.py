"""Runs ml/mobilenet's post-stage builders (bottleneck/post_l1.py and post_l2.py, unchanged, imported
from a mlir-aie checkout) in small npusim Programs fed from the host, with the checkout's weights and
scale factors, and compares their outputs with numpy models of the two kernels they use
(bn_conv2dk1_relu.cc's fused 1x1 + ReLU + 7x7 average pool and its uint16 fully connected layer).

    npusim python tools/check-upstream-mobilenet-post.py DIR [--placed]

DIR is a mlir-aie checkout (programming_examples/ml/mobilenet with its data/ folder). post_l1 gets a
random 7x7x80 int8 image, row by row as bn14 would hand it over; post_l2 gets two random uint16
vectors (its FC1 and FC2 passes; upstream's host feeds FC1's output back as FC2's input through DDR,
which does not change what the kernels compute). --placed passes the builders upstream's tiles
(mobilenet/placement.py) instead of leaving placement to npusim. Prints one line per builder and exits
1 if either output differs from its model. docs/python-upstream.md has the run.
"""
import argparse
import json
import os
import sys

import numpy as np

import npusim
from aie.iron import ObjectFifo, Program, Runtime
from aie.iron.device import NPU2


def relu_even(s, scale):
    """bn_conv2dk1_relu.cc:1218-1222 / :1523-1525: to even at `scale`, clamped to [0, 255]."""
    return np.clip((s + (1 << (scale - 1)) - 1 + ((s >> scale) & 1)) >> scale, 0, 255)


def average49(acc):
    """bn_conv2dk1_relu.cc:1531-1539, in float32 as written."""
    avg = acc.astype(np.float32) / np.float32(49)
    whole = avg.astype(np.int32)
    tenths5 = (avg * np.float32(10)).astype(np.int32) % 10 == 5
    return np.where(tenths5, whole + whole % 2, (avg + np.float32(0.5)).astype(np.int32))


def run_post_l1(post_l1, sf, data, tiles, rng):
    act_in = ObjectFifo(np.ndarray[(7 * 80,), np.dtype[np.int8]], depth=2, name="bn14_out")
    workers, out_of = post_l1(act_in, sf, tiles=tiles, data_dir=data)
    in_ty, out_ty = np.ndarray[(7 * 7 * 80,), np.dtype[np.int8]], np.ndarray[(1280,), np.dtype[np.uint16]]

    def seq(a, b, pi, co):
        pi.fill(a)
        co.drain(b, wait=True)

    p = Program(NPU2(), Runtime(seq, [in_ty, out_ty, act_in.prod(), out_of.cons()]), workers=workers)
    img = rng.integers(-128, 128, (7, 7, 80)).astype(np.int8)  # [y][x][c]
    host_in = np.concatenate([img[y].reshape(7, 10, 8).transpose(1, 0, 2).ravel() for y in range(7)])
    out = np.full(1280, 0x7777, np.uint16)
    r = npusim.simulate(p.resolve_program(), [host_in, out])
    w = np.fromfile(os.path.join(data, "post_conv_chain.txt"), sep=",", dtype=np.int8)[:76800]
    wm = w.reshape(8, 15, 10, 8, 8).transpose(0, 1, 4, 2, 3).reshape(960, 80).astype(np.int64)  # [channel][c]
    want = np.zeros(1280, np.uint16)
    s = img.astype(np.int64) @ wm.T
    want[:960] = average49(relu_even(s, sf["POST"]["conv1x1_1"]).sum(axis=(0, 1)).astype(np.uint32))
    return r.cycles, int(np.sum(out != want))


def run_post_l2(post_l2, sf, data, tiles, rng):
    in_ty = np.ndarray[(1280,), np.dtype[np.uint16]]
    act_in = ObjectFifo(in_ty, depth=2, name="post_in")
    workers, out_of = post_l2(act_in, sf, tiles=tiles, data_dir=data)
    two_ty = np.ndarray[(2 * 1280,), np.dtype[np.uint16]]

    def seq(a, b, pi, co):
        pi.fill(a)
        co.drain(b, wait=True)

    p = Program(NPU2(), Runtime(seq, [two_ty, two_ty, act_in.prod(), out_of.cons()]), workers=workers)
    x1 = rng.integers(0, 256, 1280).astype(np.uint16)
    x1[960:] = 0  # post_l1's padding
    x2 = rng.integers(0, 256, 1280).astype(np.uint16)
    out = np.full(2 * 1280, 0x7777, np.uint16)
    r = npusim.simulate(p.resolve_program(), [np.concatenate([x1, x2]), out])
    want = np.zeros(2 * 1280, np.uint16)
    for t in range(4):  # 4 tiles x 40 chunks of 8 outputs, weight rows 1280 long
        for k, (x, ci, key, f) in enumerate(((x1, 960, "FC1", "FC1"), (x2, 1280, "FC2", "FC2"))):
            w = np.fromfile(os.path.join(data, f"{f}_{t}_chain.txt"), sep=",", dtype=np.int8)[:409600]
            w = w.reshape(40, 160, 8, 8)[:, :ci // 8]  # [chunk][c/8][c%8][o%8]
            s = np.einsum("nabo,ab->no", w.astype(np.int64), x[:ci].reshape(-1, 8).astype(np.int64))
            want[k * 1280 + t * 320:k * 1280 + (t + 1) * 320] = relu_even(s, sf["POST"][key]).ravel()
    return r.cycles, int(np.sum(out != want))


def main():
    ap = argparse.ArgumentParser(prog="check-upstream-mobilenet-post")
    ap.add_argument("dir")
    ap.add_argument("--placed", action="store_true")
    a = ap.parse_args()
    ml = os.path.join(a.dir, "programming_examples", "ml")
    if not os.path.isfile(os.path.join(ml, "mobilenet", "bottleneck", "post_l1.py")):
        print(f"check-upstream-mobilenet-post: {a.dir} has no programming_examples/ml/mobilenet/bottleneck/post_l1.py",
              file=sys.stderr)
        return 2
    sys.path.insert(0, ml)
    from mobilenet.bottleneck.post_l1 import post_l1
    from mobilenet.bottleneck.post_l2 import post_l2
    data = os.path.join(ml, "mobilenet", "data")
    with open(os.path.join(data, "scale_factors_final.json")) as f:
        sf = json.load(f)
    placement = {}
    if a.placed:
        from mobilenet.placement import PLACEMENT
        placement = PLACEMENT
    rng = np.random.default_rng(1)
    bad = 0
    for name, fn, builder in (("post_l1", run_post_l1, post_l1), ("post_l2", run_post_l2, post_l2)):
        cycles, diff = fn(builder, sf, data, placement.get(name), rng)
        print(f"{name}: {'exact' if diff == 0 else f'{diff} outputs differ'} ({cycles} cycles)")
        bad += diff != 0
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
