# E8 basic/matrix_multiplication/cascade as an IRON Python design: C = A . B (i16 -> i32) on a grid of
# 4 rows x 4 columns of cores, each column splitting K over its four rows. The core on row 3 puts its
# partial sums on its cascade output, rows 2 and 1 get, add and put theirs, and row 0 gets, adds and
# accumulates into its C tile (after zeroing it). CascadeFlows run from row 3 down to row 0 in each
# column. Column c's mem tile broadcasts A_L2L1_c (one m x k tile per object) to the four cores of
# row c, splits B_L3L2_c (4k x n objects) into one k x n tile per core row, and forwards the row-0
# core's C tiles to the shim. Every worker, link and shim end is pinned, as IRON's cascade design
# pins them. The cascade kernels are the compiled objects of cascade_mm.cc (scalar, row-major
# blocks), named by their symbols.
# The runtime sequence walks the M/m row blocks in task groups of 5 row blocks, as IRON's: per group
# and column one C drain (wait), and per row block one A and one B fill. Five fills on one shim
# channel fit: the one it runs and four in its task queue (docs/resolve.md, "Runtime sequence and
# shim queues").
# Golden: (A @ B in int64).astype(int32), exact. The C++ twin: npusim run matmul_cascade.
import argparse

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorAccessPattern
from aie.iron import CascadeFlow, Buffer, In, Kernel, ObjectFifo, Out, Program, Runtime, TaskGroup, Worker
from aie.iron.controlflow import range_
from aie.iron.device import Tile
from aie.utils.verify import assert_pass

ROWS = 4
COLS = 4
ROW_BLOCKS_PER_GROUP = 5


@iron.jit
def matmul_cascade(A: In, B: In, C: Out, *, M=512, K=512, N=512, m=32, k=32, n=32):
    assert M % m == 0 and K % (k * ROWS) == 0 and N % (n * COLS) == 0
    i16, i32 = np.dtype[np.int16], np.dtype[np.int32]
    A_ty, B_ty, C_ty = np.ndarray[(M * K,), i16], np.ndarray[(K * N,), i16], np.ndarray[(M * N,), i32]
    a_l1, b_l1, c_l1 = np.ndarray[(m, k), i16], np.ndarray[(k, n), i16], np.ndarray[(m, n), i32]

    get_only = Kernel("matmul_scalar_cascade_get_only_i16_i32", "cascade_mm.o", [a_l1, b_l1, c_l1])
    put_only = Kernel("matmul_scalar_cascade_put_only_i16_i32", "cascade_mm.o", [a_l1, b_l1, c_l1])
    put_get = Kernel("matmul_scalar_cascade_put_get_i16_i32", "cascade_mm.o", [a_l1, b_l1, c_l1])
    zero = Kernel("zero_i32", "cascade_mm.o", [c_l1])

    A_l3l2, A_l2l1, B_l3l2, B_l2l1, C_l1l2, C_l2l3 = [], [], [], [], [], []
    for col in range(COLS):
        mem = Tile(col, 1)
        A_l3l2.append(ObjectFifo(np.ndarray[(m * k,), i16], name=f"A_L3L2_{col}"))
        A_l2l1.append(A_l3l2[col].cons().split([0], obj_types=[a_l1], names=[f"A_L2L1_{col}"], tile=mem)[0])
        B_l3l2.append(ObjectFifo(np.ndarray[(k * n * ROWS,), i16], name=f"B_L3L2_{col}"))
        B_l2l1.append(B_l3l2[col].cons().split([k * n * r for r in range(ROWS)], obj_types=[b_l1] * ROWS,
                                               names=[f"B_L2L1_{col}_{r}" for r in range(ROWS)], tile=mem))
        C_l1l2.append(ObjectFifo(c_l1, name=f"C_L1L2_{col}"))
        C_l2l3.append(C_l1l2[col].cons().forward(obj_type=np.ndarray[(m * n,), i32], name=f"C_L2L3_{col}",
                                                 tile=mem))

    tiles_per_core = (M // m) * (N // n) // (ROWS * COLS)
    k_steps = K // k // ROWS

    def first_row(of_a, of_b, of_c, zero, get_only):
        for _ in range_(tiles_per_core):
            elem_c = of_c.acquire(1)
            zero(elem_c)
            for _ in range_(k_steps):
                elem_a = of_a.acquire(1)
                elem_b = of_b.acquire(1)
                get_only(elem_a, elem_b, elem_c)
                of_a.release(1)
                of_b.release(1)
            of_c.release(1)

    def upper_row(of_a, of_b, scratch, put):
        for _ in range_(tiles_per_core):
            for _ in range_(k_steps):
                elem_a = of_a.acquire(1)
                elem_b = of_b.acquire(1)
                put(elem_a, elem_b, scratch)
                of_a.release(1)
                of_b.release(1)

    grid = [[None] * COLS for _ in range(ROWS)]
    for col in range(COLS):
        for row in range(ROWS):
            tile = Tile(col, 2 + row)
            if row == 0:
                grid[row][col] = Worker(first_row, [A_l2l1[row].cons(), B_l2l1[col][row].cons(), C_l1l2[col].prod(),
                                                    zero, get_only], tile=tile)
            else:
                scratch = Buffer(np.ndarray[(m * n,), i32], name=f"C_scratch_{col}_{row}")
                grid[row][col] = Worker(upper_row, [A_l2l1[row].cons(), B_l2l1[col][row].cons(), scratch,
                                                    put_only if row == ROWS - 1 else put_get], tile=tile)
    for col in range(COLS):
        for row in range(ROWS - 1, 0, -1):
            CascadeFlow(grid[row][col], grid[row - 1][col])

    col_tiles, k_groups = N // n // COLS, K // k // ROWS

    def a_tap(row_block, col):  # row block, k-tiles col, col + 4, ..., once per n-tile of the column
        return TensorAccessPattern((M, K), row_block * m * K + col * k, [col_tiles, k_groups, m, k],
                                   [0, ROWS * k, K, 1])

    def b_tap(col):  # n-tiles col, col + 4, ...: all of K in 4k x n pieces
        return TensorAccessPattern((K, N), col * n, [col_tiles, k_groups, ROWS * k, n], [n * COLS, ROWS * k * N, N, 1])

    def c_tap(first_block, blocks, col):
        return TensorAccessPattern((M, N), first_block * m * N + col * n, [blocks, col_tiles, m, n],
                                   [m * N, n * COLS, N, 1])

    def sequence(a, b, c, a_hs, b_hs, c_hs):
        for first in range(0, M // m, ROW_BLOCKS_PER_GROUP):
            blocks = min(ROW_BLOCKS_PER_GROUP, M // m - first)
            tg = TaskGroup()
            for col in range(COLS):
                c_hs[col].drain(c, c_tap(first, blocks, col), wait=True, group=tg)
                for block in range(first, first + blocks):
                    a_hs[col].fill(a, a_tap(block, col), group=tg)
                    b_hs[col].fill(b, b_tap(col), group=tg)
            tg.finish()

    rt = Runtime(sequence, [A_ty, B_ty, C_ty, [f.prod(tile=Tile(col, 0)) for col, f in enumerate(A_l3l2)],
                            [f.prod(tile=Tile(col, 0)) for col, f in enumerate(B_l3l2)],
                            [f.cons(tile=Tile(col, 0)) for col, f in enumerate(C_l2l3)]])
    workers = [w for row in grid for w in row]
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def main(argv=None):
    p = argparse.ArgumentParser()
    for dim, default in (("M", 512), ("K", 512), ("N", 512)):
        p.add_argument(f"-{dim}", type=int, default=default)
    opts = p.parse_args(argv)
    rng = np.random.default_rng(1726250518)
    a = iron.tensor(rng.integers(-8192, 8192, opts.M * opts.K, dtype=np.int16))
    b = iron.tensor(rng.integers(-8192, 8192, opts.K * opts.N, dtype=np.int16))
    c = iron.zeros(opts.M * opts.N, dtype=np.int32)
    run = matmul_cascade(a, b, c, M=opts.M, K=opts.K, N=opts.N)
    want = (a.numpy().reshape(opts.M, opts.K).astype(np.int64) @ b.numpy().reshape(opts.K, opts.N)).astype(np.int32)
    assert_pass(c.numpy().reshape(opts.M, opts.N), want, print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
