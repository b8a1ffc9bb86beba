# E14 ml/conv2d as an IRON Python design: a 1x1 int8 convolution of a W x H image with Ci input and
# Co output channels on one core, one image row per kernel call. Activation rows come two at a time
# from the host into a mem tile, which forwards them one row per object; the weights come once
# (depth 1) straight to the core; output rows are gathered two at a time in a mem tile.
# Layouts (aie.utils.ml's DataShaper): activations and output YCXC8 ([y][c/8][x][8]), weights
# OIYXI8O8 ([co/8][ci/8][ci%8][co%8] for a 1x1 kernel). The kernel is the compiled object
# conv2dk1_i8 (aie_kernels/aie2/conv2dk1_i8.cc built with -DINT8_ACT): out = sat_i8((sum + 2^(s-1)) >> s).
# Golden: the convolution in numpy in NCHW / OIHW order, shifted, rounded half up and saturated,
# exact. The C++ twin: npusim run conv2d.
import argparse

import numpy as np

import aie.iron as iron
from aie.iron import CompileTime, In, Kernel, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.utils.verify import assert_pass


@iron.jit
def conv2d(act: In, wts: In, out: Out, *, width: CompileTime[int] = 32, height: CompileTime[int] = 32,
           in_channels: CompileTime[int] = 64, out_channels: CompileTime[int] = 64, scale: CompileTime[int] = 10):
    assert height > 1 and height % 2 == 0
    W, H, Ci, Co = width, height, in_channels, out_channels
    act_row_ty = np.ndarray[(W * Ci,), np.dtype[np.int8]]
    act_rows_ty = np.ndarray[(2 * W * Ci,), np.dtype[np.int8]]
    wts_ty = np.ndarray[(Ci * Co,), np.dtype[np.int8]]
    out_row_ty = np.ndarray[(W * Co,), np.dtype[np.int8]]
    out_rows_ty = np.ndarray[(2 * W * Co,), np.dtype[np.int8]]
    act_all_ty = np.ndarray[(W * H * Ci,), np.dtype[np.int8]]
    out_all_ty = np.ndarray[(W * H * Co,), np.dtype[np.int8]]

    conv2dk1 = Kernel("conv2dk1_i8", "conv2dk1_i8.o",
                      [act_row_ty, wts_ty, out_row_ty, np.int32, np.int32, np.int32, np.int32])

    of_act_l3l2 = ObjectFifo(act_rows_ty, name="inOF_act_L3L2")
    of_act_l2 = of_act_l3l2.cons().forward(obj_type=act_row_ty, name="act_L2_02")
    of_wts = ObjectFifo(wts_ty, depth=1, name="inOF_wts_0_L3L2")
    of_out_l2 = ObjectFifo(out_row_ty, name="out_02_L2")
    of_out_l3 = of_out_l2.cons().forward(obj_type=out_rows_ty, name="outOFL2L3")

    def core_fn(of_wts, of_act, of_out, conv2dk1):
        elem_wts = of_wts.acquire(1)
        for _ in range_(H):
            elem_act = of_act.acquire(1)
            elem_out = of_out.acquire(1)
            conv2dk1(elem_act, elem_wts, elem_out, W, Ci, Co, scale)
            of_act.release(1)
            of_out.release(1)
        of_wts.release(1)

    worker = Worker(core_fn, [of_wts.cons(), of_act_l2.cons(), of_out_l2.prod(), conv2dk1], stack_size=0x600)

    def sequence(a, w, o, act_h, wts_h, out_h):
        act_h.fill(a)
        wts_h.fill(w)
        out_h.drain(o, wait=True)

    rt = Runtime(sequence, [act_all_ty, wts_ty, out_all_ty, of_act_l3l2.prod(), of_wts.prod(), of_out_l3.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def to_ycxc8(x):
    """[c][y][x] -> [y][c/8][x][8], flat."""
    c, h, w = x.shape
    return x.reshape(c // 8, 8, h, w).transpose(2, 0, 3, 1).reshape(-1)


def from_ycxc8(flat, c, h, w):
    return flat.reshape(h, c // 8, w, 8).transpose(1, 3, 0, 2).reshape(c, h, w)


def to_oiyxi8o8(k):
    """[co][ci] (1x1) -> [co/8][ci/8][ci%8][co%8], flat."""
    co, ci = k.shape
    return k.reshape(co // 8, 8, ci // 8, 8).transpose(0, 2, 3, 1).reshape(-1)


def golden(act_chw, wts_oi, scale):
    s = np.einsum("oi,ihw->ohw", wts_oi.astype(np.int64), act_chw.astype(np.int64))
    if scale > 0:
        s = (s + (1 << (scale - 1))) >> scale
    return np.clip(s, -128, 127).astype(np.int8)


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("-wd", "--width", type=int, default=32)
    p.add_argument("-ht", "--height", type=int, default=32)
    p.add_argument("-ic", "--in_channels", type=int, default=64)
    p.add_argument("-oc", "--out_channels", type=int, default=64)
    p.add_argument("--scale", type=int, default=10)
    opts = p.parse_args(argv)
    W, H, Ci, Co = opts.width, opts.height, opts.in_channels, opts.out_channels
    rng = np.random.default_rng(0)
    act_chw = rng.integers(1, 20, (Ci, H, W), dtype=np.int8)  # test.py's ranges
    wts_oi = rng.integers(50, 80, (Co, Ci), dtype=np.int8)
    act, wts = iron.tensor(to_ycxc8(act_chw)), iron.tensor(to_oiyxi8o8(wts_oi))
    out = iron.zeros(W * H * Co, dtype=np.int8)
    run = conv2d(act, wts, out, width=W, height=H, in_channels=Ci, out_channels=Co, scale=opts.scale)
    assert_pass(from_ycxc8(out.numpy(), Co, H, W), golden(act_chw, wts_oi, opts.scale), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
