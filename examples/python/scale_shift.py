# E15 ml/scale_shift as an IRON Python design: D = A * B + C in bf16, in two phases of the same two
# workers. A and B arrive as 2048-element objects split through a mem tile into one 1024-element
# tile per worker; the workers' tiles are joined back into D. Each worker waits on its
# WorkerRuntimeBarrier, reads from its use_write_rtp Buffer whether to multiply or to add, runs the
# eltwise_mul_add kernel over its tiles and releases the barrier (raising it to 2, so the next pass
# waits until the sequence sets it to 1 again). The sequence runs phase 1 (multiply: D = A * B) and
# then phase 2 (add: D = D + C), each as a TaskGroup of two fills and a waited drain.
# Golden: trunc(trunc(a * b) + c), each step in float32 with its magnitude truncated to bf16: the
# kernel's vector entry sets no rounding mode, so the core's reset mode (floor) rounds each aie::mul /
# aie::add back to bf16 (mlir-aie aie2/scale_shift.cc L28-69 at 3ca0193), exact. The C++ twin:
# npusim run scale_shift.
import argparse

import numpy as np
from ml_dtypes import bfloat16

import aie.iron as iron
from aie.iron import (Buffer, CompileTime, In, Kernel, ObjectFifo, Out, Program, Runtime, TaskGroup, Worker,
                      WorkerRuntimeBarrier)
from aie.iron.controlflow import range_
from aie.utils.verify import assert_pass

N_CORES = 2
TILE = 1024  # the kernel's compiled-in size (scale_shift.cc's template N)


@iron.jit
def scale_shift(A: In, B: In, C: In, D: Out, *, size: CompileTime[int] = 65536):
    assert size % (TILE * N_CORES) == 0
    tensor_ty = np.ndarray[(size,), np.dtype[bfloat16]]
    tile_ty = np.ndarray[(TILE,), np.dtype[bfloat16]]
    memtile_ty = np.ndarray[(TILE * N_CORES,), np.dtype[bfloat16]]
    tiles_per_core = size // TILE // N_CORES

    mul_add = Kernel("eltwise_mul_add_bf16_vector", "scale_shift.o", [tile_ty, tile_ty, tile_ty, np.int32])

    offsets = [TILE * i for i in range(N_CORES)]
    inA = ObjectFifo(memtile_ty, name="inA")
    memA = inA.cons().split(offsets, obj_types=[tile_ty] * N_CORES, names=[f"memA{i}" for i in range(N_CORES)])
    inB = ObjectFifo(memtile_ty, name="inB")
    memB = inB.cons().split(offsets, obj_types=[tile_ty] * N_CORES, names=[f"memB{i}" for i in range(N_CORES)])
    outC = ObjectFifo(memtile_ty, name="outC")
    memC = outC.prod().join(offsets, obj_types=[tile_ty] * N_CORES, names=[f"memC{i}" for i in range(N_CORES)])

    rtps = [Buffer(np.ndarray[(1,), np.dtype[np.int32]], initial_value=np.array([1], dtype=np.int32),
                   name=f"rtp{i}", use_write_rtp=True) for i in range(N_CORES)]
    barriers = [WorkerRuntimeBarrier() for _ in range(N_CORES)]

    def core_fn(of_a, of_b, of_c, mul_add, rtp, barrier):
        barrier.wait_for_value(1)
        is_mul = rtp[0]
        for _ in range_(tiles_per_core):
            elem_c = of_c.acquire(1)
            elem_a = of_a.acquire(1)
            elem_b = of_b.acquire(1)
            mul_add(elem_a, elem_b, elem_c, is_mul)
            of_a.release(1)
            of_b.release(1)
            of_c.release(1)
        barrier.release_with_value(1)

    workers = [Worker(core_fn, [memA[i].cons(), memB[i].cons(), memC[i].prod(), mul_add, rtps[i], barriers[i]])
               for i in range(N_CORES)]

    def sequence(a, b, c, d, a_h, b_h, d_h):
        def phase(is_mul, left, right):
            for rtp in rtps:
                rtp[0] = is_mul
            for barrier in barriers:
                barrier.set(1)
            tg = TaskGroup()
            a_h.fill(left, group=tg)
            b_h.fill(right, group=tg)
            d_h.drain(d, wait=True, group=tg)
            tg.finish()

        phase(1, a, b)  # D = A * B
        phase(0, d, c)  # D = D + C

    rt = Runtime(sequence, [tensor_ty, tensor_ty, tensor_ty, tensor_ty, inA.prod(), inB.prod(), outC.cons()])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def _truncate_bf16(x):
    """float32 values to bf16, the magnitude truncated (the upper 16 bits)."""
    return (np.asarray(x, np.float32).view(np.uint32) >> 16).astype(np.uint16).view(bfloat16)


def golden(a, b, c):
    prod = _truncate_bf16(a.astype(np.float32) * b.astype(np.float32))
    return _truncate_bf16(prod.astype(np.float32) + c.astype(np.float32))


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=65536)
    opts = p.parse_args(argv)
    rng = np.random.default_rng(0)
    a, b = (iron.tensor(rng.uniform(-4, 4, opts.size).astype(bfloat16)) for _ in range(2))
    c = iron.tensor(rng.uniform(-2, 2, opts.size).astype(bfloat16))
    d = iron.zeros(opts.size, dtype=bfloat16)
    run = scale_shift(a, b, c, d, size=opts.size)
    want = golden(a.numpy(), b.numpy(), c.numpy())
    assert_pass(d.numpy().view(np.uint16), want.view(np.uint16), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
