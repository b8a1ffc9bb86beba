# vision/color_threshold as an IRON Python design: each RGBA line (4W bytes) is split through a mem
# tile into four contiguous quarters of W bytes, each thresholded on its own worker, and the quarters
# joined back. The threshold value, maximum and type are run-time parameters: each worker reads them
# from its own use_write_rtp Buffer once its WorkerRuntimeBarrier says the sequence has written
# them, truncating the i32 words to the kernel's i16 / i16 / i8 scalars (arith.trunci).
# Golden: byte > 50 ? 255 : 0, exact. The C++ twin: npusim run color_threshold.
import argparse

import numpy as np

import aie.iron as iron
from aie.extras import types as T
from aie.extras.dialects import arith
from aie.iron import (Buffer, CompileTime, In, ObjectFifo, Out, Program, Runtime, Worker, WorkerRuntimeBarrier,
                      kernels)
from aie.utils.verify import assert_pass

N_WORKERS = 4
THRESH_BINARY = 0


@iron.jit
def color_threshold(in_tensor: In, _unused: In, out_tensor: Out, *, width: CompileTime[int] = 1920,
                    height: CompileTime[int] = 1080):
    tensor_ty = np.ndarray[(width * height,), np.dtype[np.int8]]
    line_rgba_ty = np.ndarray[(4 * width,), np.dtype[np.uint8]]
    quarter_ty = np.ndarray[(width,), np.dtype[np.uint8]]
    unused_ty = np.ndarray[(32,), np.dtype[np.int32]]

    threshold_line = kernels.threshold(line_width=width, dtype=np.uint8)

    offsets = [width * i for i in range(N_WORKERS)]
    in_l3l2 = ObjectFifo(line_rgba_ty, name="inOOB_L3L2")
    in_l2l1 = in_l3l2.cons().split(offsets, obj_types=[quarter_ty] * N_WORKERS,
                                   names=[f"inOOB_L2L1_{i}" for i in range(N_WORKERS)])
    out_l2l3 = ObjectFifo(line_rgba_ty, name="outOOB_L2L3")
    out_l1l2 = out_l2l3.prod().join(offsets, obj_types=[quarter_ty] * N_WORKERS,
                                    names=[f"outOOB_L1L2_{i}" for i in range(N_WORKERS)])

    rtps = [Buffer(np.ndarray[(16,), np.dtype[np.int32]], name=f"rtp{i}", use_write_rtp=True)
            for i in range(N_WORKERS)]
    barriers = [WorkerRuntimeBarrier() for _ in range(N_WORKERS)]

    def core_fn(of_in, of_out, rtp, threshold, barrier):
        barrier.wait_for_value(1)  # the sequence has written this worker's parameters
        value = arith.trunci(T.i16(), rtp[0])
        max_value = arith.trunci(T.i16(), rtp[1])
        kind = arith.trunci(T.i8(), rtp[2])
        elem_in = of_in.acquire(1)
        elem_out = of_out.acquire(1)
        threshold(elem_in, elem_out, width, value, max_value, kind)
        of_in.release(1)
        of_out.release(1)

    workers = [Worker(core_fn, [in_l2l1[i].cons(), out_l1l2[i].prod(), rtps[i], threshold_line, barriers[i]])
               for i in range(N_WORKERS)]

    def sequence(inp, _b, out, in_h, out_h):
        for rtp in rtps:
            rtp[0] = 50
            rtp[1] = 255
            rtp[2] = THRESH_BINARY
        for barrier in barriers:
            barrier.set(1)
        in_h.fill(inp)
        out_h.drain(out, wait=True)

    rt = Runtime(sequence, [tensor_ty, unused_ty, tensor_ty, in_l3l2.prod(), out_l2l3.cons()])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def golden(img):
    return np.where(img.view(np.uint8) > 50, 255, 0).astype(np.uint8)


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("-W", "--width", type=int, default=1920)
    p.add_argument("-H", "--height", type=int, default=1080)
    opts = p.parse_args(argv)
    img = iron.randint(-128, 128, (opts.width * opts.height,), dtype=np.int8)
    out = iron.zeros_like(img)
    run = color_threshold(img, iron.zeros(32, dtype=np.int32), out, width=opts.width, height=opts.height)
    assert_pass(out.numpy().view(np.uint8), golden(img.numpy()), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
