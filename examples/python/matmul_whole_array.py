# E7 matmul_whole_array as an IRON Python design: C (M x N) = A (M x K) . B (K x N) on a 4-row x
# n_aie_cols grid of cores. A row block goes through a mem tile per A shim (split into the m x k
# tiles of each core row, re-tiled by a_dims and broadcast to every core of that row); B goes
# through one mem tile per column (forwarded as k x n tiles re-tiled by b_dims, broadcast to every
# core of that column); the four cores of a column each produce an m x n tile of C, joined on the
# column's mem tile and un-tiled by c_dims on the way to the host. Each core zeroes its C tile and
# accumulates K / k products into it, once per output tile it owns.
# Golden: (A @ B in int64) cast to the output type. The C++ twin: npusim run matmul_whole_array.
# Each link is placed on the mem tile of its shim's column (IRON leaves that to its placer; npusim's
# placer would put them elsewhere, and the C++ twin pins them so).
# The host access patterns are written out as TensorAccessPatterns (offset, sizes, strides): those
# TensorTiler2D's group_tiler / step_tiler produce for these tilings.
import argparse

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorAccessPattern
from aie.iron import In, ObjectFifo, Out, Program, Runtime, TaskGroup, Worker, kernels
from aie.iron.controlflow import range_
from aie.iron.device import Tile
from aie.utils.verify import assert_pass


@iron.jit
def matmul_whole_array(A: In, B: In, C: Out, *, M: int, K: int, N: int, m: int = 64, k: int = 64, n: int = 32,
                       n_aie_cols: int = 0):
    dev = iron.get_current_device()
    rows = 4
    cols = n_aie_cols or dev.cols
    dtype_in, dtype_out = A.dtype.type, C.dtype.type
    assert M % (m * rows) == 0 and K % k == 0 and N % (n * cols) == 0, "M, K, N must tile by 4m, k, n * cols"

    mm = kernels.mm(dim_m=m, dim_k=k, dim_n=n, input_dtype=dtype_in, output_dtype=dtype_out)
    zero = mm.zero
    r, s, t = mm.mac_dims

    n_shim_A = min(rows, cols)  # A shims (and mem tiles): one per row, at most one per column
    a_per_shim = rows // cols if cols < rows else 1  # A tiles (core rows) each A shim carries
    tiles_per_core = (M // m) * (N // n) // (rows * cols)

    def flat(dtype, count):
        return np.ndarray[(count,), np.dtype[dtype]]

    def matrix(dtype, h, w):
        return np.ndarray[(h, w), np.dtype[dtype]]

    a_dims = [(m // r, r * k), (k // s, s), (r, k), (s, 1)]  # m x k into r x s blocks
    b_dims = [(k // s, s * n), (n // t, t), (s, n), (t, 1)]  # row-major k x n into s x t blocks
    c_dims = [(m // r, r * n), (r, t), (n // t, r * t), (t, 1)]  # r x t blocks back to row-major m x n

    A_l3l2, A_l2l1 = [], []
    for i in range(n_shim_A):
        fifo = ObjectFifo(flat(dtype_in, m * k * a_per_shim), name=f"A_L3L2_{i}", depth=2)
        A_l3l2.append(fifo)
        core_rows = range(i * a_per_shim, (i + 1) * a_per_shim)
        A_l2l1 += fifo.cons().split([m * k * j for j in range(a_per_shim)],
                                    obj_types=[matrix(dtype_in, m, k)] * a_per_shim,
                                    names=[f"A_L2L1_{row}" for row in core_rows],
                                    dims_to_stream=[a_dims] * a_per_shim, placement=Tile(i, 1))
    B_l3l2, B_l2l1, C_l2l3 = [], [], []
    C_l1l2 = [[] for _ in range(rows)]
    for col in range(cols):
        fifo = ObjectFifo(flat(dtype_in, k * n), name=f"B_L3L2_{col}", depth=2)
        B_l3l2.append(fifo)
        B_l2l1.append(fifo.cons().forward(obj_type=matrix(dtype_in, k, n), name=f"B_L2L1_{col}",
                                          dims_to_stream=b_dims, placement=Tile(col, 1)))
        out = ObjectFifo(flat(dtype_out, m * n * rows), name=f"C_L2L3_{col}", depth=2, dims_to_stream=c_dims)
        C_l2l3.append(out)
        parts = out.prod().join([m * n * row for row in range(rows)], obj_types=[matrix(dtype_out, m, n)] * rows,
                                names=[f"C_L1L2_{col}_{row}" for row in range(rows)], depths=[2] * rows,
                                placement=Tile(col, 1))
        for row in range(rows):
            C_l1l2[row].append(parts[row])

    def core_fn(in_a, in_b, out_c, zero, matmul):
        for _ in range_(tiles_per_core):
            elem_c = out_c.acquire(1)
            zero(elem_c)
            for _ in range_(K // k):
                elem_a = in_a.acquire(1)
                elem_b = in_b.acquire(1)
                matmul(elem_a, elem_b, elem_c)
                in_a.release(1)
                in_b.release(1)
            out_c.release(1)

    workers = Worker.grid(rows, cols, lambda row, col: Worker(
        core_fn, [A_l2l1[row].cons(), B_l2l1[col].cons(), C_l1l2[row][col].prod(), zero, mm], stack_size=0xD00))

    col_tiles = N // n // cols  # output tiles per core row block and column

    def a_tap(tile):  # group_tiler((M, K), (m * a_per_shim, k), (1, K // k), pattern_repeat=col_tiles)[tile]
        return TensorAccessPattern((M, K), tile * m * a_per_shim * K, [col_tiles, K // k, m * a_per_shim, k],
                                   [0, k, K, 1])

    def b_tap(col):  # step_tiler((K, N), (k, n), (K // k, col_tiles), steps (1, cols), column-major)[col]
        return TensorAccessPattern((K, N), col * n, [col_tiles, K // k, k, n], [n * cols, k * N, N, 1])

    def c_tap(row_base, n_rows, col):  # step_tiler((M, N), (4m, n), (n_rows, col_tiles), steps (1, cols))
        return TensorAccessPattern((M, N), row_base * m * rows * N + col * n, [n_rows, col_tiles, m * rows, n],
                                   [m * rows * N, n * cols, N, 1])

    row_blocks = M // m // rows
    tb_max_n_rows = 4  # row blocks per task group (two halves, ping-pong)

    def sequence(A, B, C, A_hs, B_hs, C_hs):
        tg = TaskGroup()
        for tb in range((row_blocks + tb_max_n_rows - 1) // tb_max_n_rows):
            for pingpong in [0, 1]:
                row_base = tb * tb_max_n_rows + pingpong * tb_max_n_rows // 2
                if row_base >= row_blocks:
                    break
                n_rows = min(tb_max_n_rows // 2, row_blocks - row_base)
                for col in range(cols):
                    C_hs[col].drain(C, tap=c_tap(row_base, n_rows, col), wait=True, group=tg)
                    for tile_row in range(n_rows):
                        if col < n_shim_A:
                            A_hs[col].fill(A, tap=a_tap((row_base + tile_row) * n_shim_A + col), group=tg)
                        B_hs[col].fill(B, tap=b_tap(col), group=tg)
                if tb > 0 or pingpong > 0:
                    tg.finish()
                    tg = TaskGroup()
        tg.finish()

    rt = Runtime(sequence, [flat(dtype_in, M * K), flat(dtype_in, K * N), flat(dtype_out, M * N),
                            [f.prod() for f in A_l3l2], [f.prod() for f in B_l3l2], [f.cons() for f in C_l2l3]])
    # column by column, so that the placer puts worker (row, col) on tile (col, 2 + row) as the C++ twin does
    flat_workers = [workers[row][col] for col in range(cols) for row in range(rows)]
    return Program(dev, rt, workers=flat_workers).resolve_program()


def main(argv=None):
    p = argparse.ArgumentParser()
    for dim in "MKN":
        p.add_argument(f"-{dim}", type=int, default=512)
    p.add_argument("-m", type=int, default=64)
    p.add_argument("-k", type=int, default=64)
    p.add_argument("-n", type=int, default=32)
    p.add_argument("--n-aie-cols", type=int, default=0)
    opts = p.parse_args(argv)
    rng = np.random.default_rng(1726250518)
    a = rng.integers(-8192, 8192, opts.M * opts.K, dtype=np.int16)
    b = rng.integers(-8192, 8192, opts.K * opts.N, dtype=np.int16)
    c = np.zeros(opts.M * opts.N, dtype=np.int16)
    run = matmul_whole_array(a, b, c, M=opts.M, K=opts.K, N=opts.N, m=opts.m, k=opts.k, n=opts.n,
                             n_aie_cols=opts.n_aie_cols)
    want = (a.reshape(opts.M, opts.K).astype(np.int64) @ b.reshape(opts.K, opts.N).astype(np.int64)).astype(np.int16)
    assert_pass(c.reshape(opts.M, opts.N), want, print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
