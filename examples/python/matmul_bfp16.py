# matmul_bfp16 as an IRON Python design: C (M x N) = A (M x K) . B (K x N) in AIE2P block floating
# point (v8bfp16ebs8: 8 values sharing an 8-bit exponent, 9 bytes a block) on one core, in m x k x n
# tiles, npu2 only. The structure of mlir-aie's ml/block_datatypes/matrix_multiplication/single_core
# (3ca0193, single_core.py l.55-157): A as v8bfp16ebs8[M, K/8], B given transposed (N x K values,
# v8bfp16ebs8[N, K/8]), C as v8bfp16ebs8[M, N/8]; each tile forwarded through a mem tile unchanged; the
# core zeroes a C tile and calls aie2p/mm_bfp.cc's matmul_vectorized_bfp16 once per K tile. The kernel
# wants each 8x8 subtile contiguous (72 bytes) and a DMA cannot gather 9-byte blocks, so the host
# tensors are pre-shuffled per tile, as upstream's host does (block_datatypes/helper.h
# shuffleMatrixForBfp16ebs8, l.160-230): `shuffle` below. One task group per row block of tiles.
# Host arrays are npusim.bfp arrays (the 9-byte structured dtype of v8bfp16ebs8).
# Golden: numpy, from the block fields: each C lane starts from its decoded value, adds the K/8 block
# dot products of a K tile in order (the 8 int8 products summed exactly, scaled by 2^(Ea + Eb - 266),
# rounded to float32, added in float32), and is quantized back (floor) after every K tile; compared
# byte for byte. The C++ twin: npusim run matmul_bfp16 --device npu2.
import argparse

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorAccessPattern
from aie.helpers.util import v8bfp16ebs8
from aie.iron import In, Kernel, ObjectFifo, Out, Program, Runtime, TaskGroup, Worker
from aie.iron.controlflow import range_

import npusim.bfp as bfp


@iron.jit
def matmul_bfp16(A: In, B: In, C: Out, *, M: int = 128, K: int = 128, N: int = 128, m: int = 64, k: int = 64,
                 n: int = 64):
    # mm_bfp.cc's 2x2 loop of 8x8x8 MACs (m, n multiples of 16); a tile row of k/8 (n/8) blocks is whole
    # 4-byte DMA words (9 bytes a block): k and n multiples of 32
    assert M % m == 0 and K % k == 0 and N % n == 0 and m % 16 == 0 and k % 32 == 0 and n % 32 == 0
    kb, nb = K // 8, N // 8
    a_ty = np.ndarray[(m, k // 8), np.dtype[v8bfp16ebs8]]
    b_ty = np.ndarray[(n, k // 8), np.dtype[v8bfp16ebs8]]
    c_ty = np.ndarray[(m, n // 8), np.dtype[v8bfp16ebs8]]

    # mm_bfp.cc's entry points, bound to npusim's bfp16 kernels (the C++ twin's)
    zero = Kernel("zero_kernel", "mm_bfp.o", [c_ty])
    matmul = Kernel("matmul_vectorized_bfp16", "mm_bfp.o", [a_ty, b_ty, c_ty])

    inA = ObjectFifo(a_ty, name="inA")
    memA = inA.cons().forward(name="memA")
    inB = ObjectFifo(b_ty, name="inB")
    memB = inB.cons().forward(name="memB")
    memC = ObjectFifo(c_ty, name="memC")
    outC = memC.cons().forward(name="outC")

    tiles, ksteps = (M // m) * (N // n), K // k

    def core_fn(of_a, of_b, of_c, zero, matmul):
        for _ in range_(tiles):
            elem_c = of_c.acquire(1)
            zero(elem_c)
            for _ in range_(ksteps):
                elem_a = of_a.acquire(1)
                elem_b = of_b.acquire(1)
                matmul(elem_a, elem_b, elem_c)
                of_a.release(1)
                of_b.release(1)
            of_c.release(1)

    worker = Worker(core_fn, [memA.cons(), memB.cons(), memC.prod(), zero, matmul], stack_size=0xD00)

    def a_tap(row):  # row block `row` of A: each k tile, repeated for the N / n column blocks
        return TensorAccessPattern((M * kb,), row * m * kb, [N // n, K // k, m, k // 8], [0, k // 8, kb, 1])

    b_tap = TensorAccessPattern((N * kb,), 0, [N // n, K // k, n, k // 8], [n * kb, k // 8, kb, 1])

    def c_tap(row):
        return TensorAccessPattern((M * nb,), row * m * nb, [N // n, m, n // 8], [n // 8, nb, 1])

    def sequence(A, B, C, a_h, b_h, c_h):
        for row in range(M // m):
            tg = TaskGroup()
            a_h.fill(A, tap=a_tap(row), group=tg)
            b_h.fill(B, tap=b_tap, group=tg)
            c_h.drain(C, tap=c_tap(row), wait=True, group=tg)
            tg.finish()

    def vec(count):
        return np.ndarray[(count,), np.dtype[v8bfp16ebs8]]

    rt = Runtime(sequence, [vec(M * kb), vec(N * kb), vec(M * nb), inA.prod(), inB.prod(), outC.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def shuffle(blocks, tr, tc):
    """A (rows, cols/8) block matrix in the per-tile layout the kernel reads: tiles of tr x tc values, each
    tile's blocks in 8x8-subtile order (subtiles row-major, 8 rows each), laid back into the tile's rows."""
    rows, rb = blocks.shape
    tb = tc // 8
    t = blocks.reshape(rows // tr, tr // 8, 8, rb // tb, tb)  # tile row, subtile row, row in it, tile col, block
    t = t.transpose(0, 3, 1, 4, 2)  # tile row, tile col, subtile row, block, row in subtile: subtile order
    t = t.reshape(rows // tr, rb // tb, tr, tb)  # the tile's sequence, tb blocks a row
    return np.ascontiguousarray(t.transpose(0, 2, 1, 3)).reshape(rows, rb)


def random_blocks(rng, rows, cols):
    """A rows x cols matrix of values m * 2^e (m in [-1, 1), e in [-4, 4]) as (rows, cols/8) blocks."""
    x = np.ldexp(rng.uniform(-1.0, 1.0, (rows, cols)), rng.integers(-4, 5, (rows, cols))).astype(np.float32)
    return bfp.from_float(x)


def golden(a_blocks, bt_blocks, k):
    """C (M, N/8 blocks) from A (M, K/8) and B^T (N, K/8), all in logical (unshuffled) order: per K tile,
    every lane adds its block dot products in order in float32, then C is quantized (floor)."""
    M, N = a_blocks.shape[0], bt_blocks.shape[0]
    ma, ea = a_blocks["mantissas"].astype(np.int64), a_blocks["exponent"].astype(np.int64)
    mb, eb = bt_blocks["mantissas"].astype(np.int64), bt_blocks["exponent"].astype(np.int64)
    c = bfp.zeros((M, N // 8))
    for k0 in range(0, a_blocks.shape[1], k // 8):
        acc = bfp.to_float(c)
        for kk in range(k0, k0 + k // 8):
            s = ma[:, kk, :] @ mb[:, kk, :].T  # exact int sums of 8 products
            term = np.ldexp(s.astype(np.float64), (ea[:, kk, None] + eb[None, :, kk] - 266).astype(np.int32))
            acc = acc + term.astype(np.float32)
        c = bfp.from_float(acc)
    return c


def main(argv=None):
    p = argparse.ArgumentParser()
    for dim in "MKN":
        p.add_argument(f"-{dim}", type=int, default=128)
    for dim in "mkn":
        p.add_argument(f"-{dim}", type=int, default=64)
    o = p.parse_args(argv)
    rng = np.random.default_rng(7)
    a_log, bt_log = random_blocks(rng, o.M, o.K), random_blocks(rng, o.N, o.K)
    a, bt = shuffle(a_log, o.m, o.k).reshape(-1), shuffle(bt_log, o.n, o.k).reshape(-1)
    c = bfp.zeros(o.M * o.N // 8)
    run = matmul_bfp16(a, bt, c, M=o.M, K=o.K, N=o.N, m=o.m, k=o.k, n=o.n)
    want = shuffle(golden(a_log, bt_log, o.k), o.m, o.n).reshape(-1)
    if c.tobytes() != want.tobytes():
        bad = int(np.count_nonzero(c.view(np.uint8).reshape(-1, 9) != want.view(np.uint8).reshape(-1, 9)))
        raise SystemExit(f"FAIL: {bad} of {c.size * 9} bytes differ from the reference")
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
