# E9 row_wise_bias_add as an IRON Python design: out = in + bias, the bias (one f32 per column)
# added to every row of an M x N f32 matrix. The worker takes the matrix in m x n tiles, one column
# block after another: it holds the block's n bias values while the M/m tiles of that block pass.
# The host access patterns read and write the tiles column block by column block (each tile is m
# rows of n columns). The kernel is the compiled object row_wise_bias_add_f32_f32, its tile sizes
# compiled in (-DDIM_m, -DDIM_n) as its argument types say.
# Golden: in + bias[None, :] in float32, exact. The C++ twin: npusim run row_wise_bias_add.
import argparse

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorAccessPattern
from aie.iron import CompileTime, In, Kernel, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.utils.verify import assert_pass


@iron.jit
def row_wise_bias_add(inp: In, bias: In, out: Out, *, M: CompileTime[int] = 768, N: CompileTime[int] = 2304,
                      m: CompileTime[int] = 96, n: CompileTime[int] = 32):
    assert M % m == 0 and N % n == 0
    matrix_ty = np.ndarray[(M * N,), np.dtype[np.float32]]
    bias_all_ty = np.ndarray[(N,), np.dtype[np.float32]]
    tile_ty = np.ndarray[(m * n,), np.dtype[np.float32]]
    bias_ty = np.ndarray[(n,), np.dtype[np.float32]]

    add_bias = Kernel("row_wise_bias_add_f32_f32", "kernel.o", [tile_ty, bias_ty, tile_ty])

    in_fifo = ObjectFifo(tile_ty, name="in_fifo")
    bias_fifo = ObjectFifo(bias_ty, name="bias_fifo")
    out_fifo = ObjectFifo(tile_ty, name="out_fifo")

    def core_fn(of_in, of_bias, of_out, add_bias):
        for _ in range_(N // n):
            elem_bias = of_bias.acquire(1)
            for _ in range_(M // m):
                elem_in = of_in.acquire(1)
                elem_out = of_out.acquire(1)
                add_bias(elem_in, elem_bias, elem_out)
                of_out.release(1)
                of_in.release(1)
            of_bias.release(1)

    worker = Worker(core_fn, [in_fifo.cons(), bias_fifo.cons(), out_fifo.prod(), add_bias])

    # column block c, row r of that block, then the n columns: M x n rows at a time per block
    tiles = TensorAccessPattern((M, N), 0, [1, N // n, M, n], [0, n, N, 1])
    bias_tiles = TensorAccessPattern((1, N), 0, [1, N // n, 1, n], [0, n, N, 1])

    def sequence(a, b, c, in_h, bias_h, out_h):
        in_h.fill(a, tiles)
        bias_h.fill(b, bias_tiles)
        out_h.drain(c, tiles, wait=True)

    rt = Runtime(sequence, [matrix_ty, bias_all_ty, matrix_ty, in_fifo.prod(), bias_fifo.prod(), out_fifo.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("-M", type=int, default=768)
    p.add_argument("-N", type=int, default=2304)
    p.add_argument("-m", type=int, default=96)
    p.add_argument("-n", type=int, default=32)
    opts = p.parse_args(argv)
    inp = iron.arange(opts.M * opts.N, dtype=np.float32)
    bias = iron.tensor(3 * np.arange(opts.N, dtype=np.float32))
    out = iron.zeros_like(inp)
    run = row_wise_bias_add(inp, bias, out, M=opts.M, N=opts.N, m=opts.m, n=opts.n)
    want = inp.numpy().reshape(opts.M, opts.N) + bias.numpy()[None, :]
    assert_pass(out.numpy().reshape(opts.M, opts.N), want, print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
