# E6 matmul_single_core as an IRON Python design: C (M x N) = A (M x K) . B (K x N) on one core, in
# m x k x n tiles. A and B are forwarded through mem tiles that re-tile them into the r x s and
# s x t blocks of the core's mmul (memA, memB); the core zeroes each C tile and accumulates K / k
# products into it; outC un-tiles C on its way to the host. The runtime sequence issues task
# groups of two row blocks each (A's row block and all of B per row block, then C's two row blocks)
# and finishes a group once the next one is issued (ping-pong).
# Golden: (A @ B in int64) cast to the output type. The C++ twin: npusim run matmul_single_core.
# The host access patterns are written out as TensorAccessPatterns (offset, sizes, strides): those
# TensorTiler2D's group_tiler / step_tiler give for these tilings.
import argparse

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorAccessPattern
from aie.iron import In, ObjectFifo, Out, Program, Runtime, TaskGroup, Worker, kernels
from aie.iron.controlflow import range_
from aie.utils.verify import assert_pass


@iron.jit
def matmul_single_core(A: In, B: In, C: Out, *, M: int, K: int, N: int, m: int = 32, k: int = 32, n: int = 32):
    dtype_in, dtype_out = A.dtype.type, C.dtype.type
    assert M % m == 0 and K % k == 0 and N % n == 0 and (M // m) % 2 == 0

    mm = kernels.mm(dim_m=m, dim_k=k, dim_n=n, input_dtype=dtype_in, output_dtype=dtype_out)
    zero = mm.zero
    r, s, t = mm.mac_dims

    a_ty = np.ndarray[(m, k), np.dtype[dtype_in]]
    b_ty = np.ndarray[(k, n), np.dtype[dtype_in]]
    c_ty = np.ndarray[(m, n), np.dtype[dtype_out]]

    inA = ObjectFifo(a_ty, name="inA")
    memA = inA.cons().forward(name="memA", dims_to_stream=[(m // r, r * k), (k // s, s), (r, k), (s, 1)])
    inB = ObjectFifo(b_ty, name="inB")
    memB = inB.cons().forward(name="memB", dims_to_stream=[(k // s, s * n), (n // t, t), (s, n), (t, 1)])
    memC = ObjectFifo(c_ty, name="memC")
    outC = memC.cons().forward(name="outC", dims_to_stream=[(m // r, r * n), (r, t), (n // t, r * t), (t, 1)])

    tiles = (M // m) * (N // n)

    def core_fn(of_a, of_b, of_c, zero, matmul):
        for _ in range_(tiles):
            elem_c = of_c.acquire(1)
            zero(elem_c)
            for _ in range_(K // k):
                elem_a = of_a.acquire(1)
                elem_b = of_b.acquire(1)
                matmul(elem_a, elem_b, elem_c)
                of_a.release(1)
                of_b.release(1)
            of_c.release(1)

    worker = Worker(core_fn, [memA.cons(), memB.cons(), memC.prod(), zero, mm], stack_size=0xD00)

    def a_tap(row):  # row block `row` of A, each k-tile, repeated for the N / n column blocks
        return TensorAccessPattern((M, K), row * m * K, [N // n, K // k, m, k], [0, k, K, 1])

    b_tap = TensorAccessPattern((K, N), 0, [N // n, K // k, k, n], [n, k * N, N, 1])  # column-block major

    def c_tap(row, n_rows):
        return TensorAccessPattern((M, N), row * m * N, [n_rows, N // n, m, n], [m * N, n, N, 1])

    rows_per_group = 2

    def sequence(A, B, C, a_h, b_h, c_h):
        prev = None
        for row in range(0, M // m, rows_per_group):
            tg = TaskGroup()
            for i in range(rows_per_group):
                a_h.fill(A, tap=a_tap(row + i), group=tg)
                b_h.fill(B, tap=b_tap, group=tg)
            c_h.drain(C, tap=c_tap(row, rows_per_group), wait=True, group=tg)
            if prev is not None:
                prev.finish()  # the previous group, once this one is issued
            prev = tg
        prev.finish()

    vec = lambda dtype, count: np.ndarray[(count,), np.dtype[dtype]]  # noqa: E731
    rt = Runtime(sequence, [vec(dtype_in, M * K), vec(dtype_in, K * N), vec(dtype_out, M * N), inA.prod(), inB.prod(),
                            outC.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def main(argv=None):
    p = argparse.ArgumentParser()
    for dim in "MKN":
        p.add_argument(f"-{dim}", type=int, default=512)
    for dim in "mkn":
        p.add_argument(f"-{dim}", type=int, default=32)
    opts = p.parse_args(argv)
    rng = np.random.default_rng(1726250518)
    a = rng.integers(-8192, 8192, opts.M * opts.K, dtype=np.int16)
    b = rng.integers(-8192, 8192, opts.K * opts.N, dtype=np.int16)
    c = np.zeros(opts.M * opts.N, dtype=np.int32)
    run = matmul_single_core(a, b, c, M=opts.M, K=opts.K, N=opts.N, m=opts.m, k=opts.k, n=opts.n)
    want = (a.reshape(opts.M, opts.K).astype(np.int64) @ b.reshape(opts.K, opts.N).astype(np.int64)).astype(np.int32)
    assert_pass(c.reshape(opts.M, opts.N), want, print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
