# E13 ml/swiglu as an IRON Python design: b = (a * w1) * silu(a * w2) in bf16, one worker per column.
# The host interleaves the two weight vectors line by line (w = [w1[0:1024], w2[0:1024], w1[1024:2048],
# ...]); each worker takes one 1024-element input line and the two weight lines of it (one acquire of
# 2 objects from its depth-4 weight fifo) per kernels.swiglu call. Column c reads its contiguous chunk
# of a and of w; one TaskGroup holds every fill and then every waited drain.
# Golden: (a*w1) * (a*w2) / (1 + exp(-(a*w2))) in float32, rtol 0.128 (as upstream checks it). The C++
# twin: npusim run swiglu.
import argparse

import numpy as np
from ml_dtypes import bfloat16

import aie.iron as iron
from aie.helpers.taplib import TensorAccessPattern
from aie.iron import CompileTime, In, ObjectFifo, Out, Program, Runtime, TaskGroup, Worker, kernels
from aie.iron.controlflow import range_
from aie.utils.verify import assert_pass

LINE = 1024


@iron.jit
def swiglu(a: In, w: In, b: Out, *, size: CompileTime[int] = 16384, columns: CompileTime[int] = 4):
    assert size % (LINE * columns) == 0
    chunk = size // columns
    line_ty = np.ndarray[(LINE,), np.dtype[bfloat16]]
    tensor_ty = np.ndarray[(size,), np.dtype[bfloat16]]
    wts_ty = np.ndarray[(2 * size,), np.dtype[bfloat16]]

    ins = [ObjectFifo(line_ty, name=f"in{c}") for c in range(columns)]
    wts = [ObjectFifo(line_ty, depth=4, name=f"w{c}") for c in range(columns)]
    outs = [ObjectFifo(line_ty, name=f"out{c}") for c in range(columns)]

    def core_fn(of_in, of_w, of_out, swiglu_line):
        for _ in range_(chunk // LINE):
            elem_out = of_out.acquire(1)
            elem_in = of_in.acquire(1)
            w1, w2 = of_w.acquire(2)
            swiglu_line(elem_in, w1, w2, elem_out)
            of_w.release(2)
            of_in.release(1)
            of_out.release(1)

    workers = [Worker(core_fn, [ins[c].cons(), wts[c].cons(), outs[c].prod(), kernels.swiglu(tile_size=LINE)])
               for c in range(columns)]
    taps = [TensorAccessPattern((1, size), chunk * c, [1, 1, 1, chunk], [0, 0, 0, 1]) for c in range(columns)]
    taps_w = [TensorAccessPattern((1, 2 * size), 2 * chunk * c, [1, 1, 1, 2 * chunk], [0, 0, 0, 1])
              for c in range(columns)]

    def sequence(a_in, w_in, b_out, in_hs, w_hs, out_hs):
        tg = TaskGroup()
        for c in range(columns):
            in_hs[c].fill(a_in, taps[c], group=tg)
            w_hs[c].fill(w_in, taps_w[c], group=tg)
        for c in range(columns):
            out_hs[c].drain(b_out, taps[c], wait=True, group=tg)
        tg.finish()

    rt = Runtime(sequence, [tensor_ty, wts_ty, tensor_ty, [f.prod() for f in ins], [f.prod() for f in wts],
                            [f.cons() for f in outs]])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def interleave(w1, w2):
    """[w1 line 0, w2 line 0, w1 line 1, ...]: the weights as the kernel takes them."""
    return np.stack([w1.reshape(-1, LINE), w2.reshape(-1, LINE)], axis=1).reshape(-1)


def golden(a, w1, w2):
    x, g, l = a.astype(np.float32), w1.astype(np.float32), w2.astype(np.float32)
    return ((x * g) * ((x * l) / (1 + np.exp(-(x * l))))).astype(bfloat16)


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=16384)
    opts = p.parse_args(argv)
    rng = np.random.default_rng(0)
    a, w1, w2 = (rng.uniform(-1, 1, opts.size).astype(bfloat16) for _ in range(3))
    b = np.zeros(opts.size, dtype=bfloat16)
    run = swiglu(a, interleave(w1, w2), b, size=opts.size)
    assert_pass(b.astype(np.float32), golden(a, w1, w2).astype(np.float32), rtol=0.128, atol=0.0, print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
