# E12 vision/edge_detect as an IRON Python design: each RGBA line goes rgba2gray -> a 3x3 Laplacian
# (filter2d, its Q12 coefficients in a Buffer) -> a binary threshold (10 -> 255) -> gray2rgba, then
# addWeighted with the original line, which reaches the last worker through a depth-7 mem-tile
# forward of the same input (a broadcast: the first worker and the forward both consume it). The last
# worker keeps its gray2rgba result in a fifo it both fills and drains (a self-loop, depth 1). The
# filter worker runs its own endless loop (while_true=False): a top border line, H - 2 middle lines
# over a sliding window of three, a bottom border line.
# Golden: the pipeline in numpy (golden() below), exact (IRON's test allows a mean difference of 2).
# The C++ twin: npusim run edge_detect --param width=W --param height=H.
import argparse
import sys

import numpy as np

import aie.iron as iron
from aie.iron import Buffer, ObjectFifo, Program, Runtime, Worker, kernels
from aie.iron.controlflow import range_
from aie.utils.verify import assert_pass


def design(width=64, height=36):
    line_bytes = width * 4
    line_ty = np.ndarray[(width,), np.dtype[np.uint8]]
    line_bytes_ty = np.ndarray[(line_bytes,), np.dtype[np.uint8]]
    tensor_ty = np.ndarray[(width * height * 4,), np.dtype[np.int8]]
    unused_ty = np.ndarray[(16, 16), np.dtype[np.int32]]

    rgba2gray_line = kernels.rgba2gray(line_width=width)
    filter2d_line = kernels.filter2d(line_width=width)
    threshold_line = kernels.threshold(line_width=width, dtype=np.uint8)
    gray2rgba_line = kernels.gray2rgba(line_width=width)
    add_weighted_line = kernels.add_weighted(line_width=line_bytes, dtype=np.uint8)

    in_l3l2 = ObjectFifo(line_bytes_ty, name="inOF_L3L2")
    in_l2l1 = in_l3l2.cons(7).forward(depth=7, name="inOF_L2L1")
    out_l1l2 = ObjectFifo(line_bytes_ty, name="outOF_L1L2")
    out_l2l3 = out_l1l2.cons().forward(name="outOF_L2L3")
    of_2to3 = ObjectFifo(line_ty, depth=4, name="OF_2to3")
    of_3to4 = ObjectFifo(line_ty, depth=2, name="OF_3to4")
    of_4to5 = ObjectFifo(line_ty, depth=2, name="OF_4to5")
    of_local = ObjectFifo(line_bytes_ty, depth=1, name="OF_local")
    laplacian = np.array([[0, 4096, 0], [4096, -16384, 4096], [0, 4096, 0]], dtype=np.int16)
    filter_coeffs = Buffer(np.ndarray[(3, 3), np.dtype[np.int16]], initial_value=laplacian, name="kernel")

    def rgba2gray_fn(of_in, of_out, rgba2gray_line):
        elem_in = of_in.acquire(1)
        elem_out = of_out.acquire(1)
        rgba2gray_line(elem_in, elem_out, width)
        of_in.release(1)
        of_out.release(1)

    def filter_fn(of_in, of_out, coeffs, filter2d_line):
        for _ in range_(sys.maxsize):
            pre = of_in.acquire(2)  # top border: the first line twice
            out = of_out.acquire(1)
            filter2d_line(pre[0], pre[0], pre[1], out, width, coeffs)
            of_out.release(1)
            for _ in range_(1, height - 1):
                mid = of_in.acquire(3)
                out = of_out.acquire(1)
                filter2d_line(mid[0], mid[1], mid[2], out, width, coeffs)
                of_in.release(1)
                of_out.release(1)
            post = of_in.acquire(2)  # bottom border: the last line twice
            out = of_out.acquire(1)
            filter2d_line(post[0], post[1], post[1], out, width, coeffs)
            of_in.release(2)
            of_out.release(1)

    def threshold_fn(of_in, of_out, threshold_line):
        elem_in = of_in.acquire(1)
        elem_out = of_out.acquire(1)
        threshold_line(elem_in, elem_out, width, 10, 255, 0)
        of_in.release(1)
        of_out.release(1)

    def gray2rgba_add_weighted_fn(of_in, of_in2, of_out_self, of_in_self, of_out, gray2rgba_line, add_weighted_line):
        elem_in = of_in.acquire(1)
        elem_out = of_out_self.acquire(1)
        gray2rgba_line(elem_in, elem_out, width)
        of_in.release(1)
        of_out_self.release(1)
        elem_in1 = of_in_self.acquire(1)
        elem_in2 = of_in2.acquire(1)
        elem_out2 = of_out.acquire(1)
        add_weighted_line(elem_in1, elem_in2, elem_out2, line_bytes, 16384, 16384, 0)
        of_in_self.release(1)
        of_in2.release(1)
        of_out.release(1)

    workers = [
        Worker(rgba2gray_fn, [in_l3l2.cons(), of_2to3.prod(), rgba2gray_line]),
        Worker(filter_fn, [of_2to3.cons(), of_3to4.prod(), filter_coeffs, filter2d_line], while_true=False),
        Worker(threshold_fn, [of_3to4.cons(), of_4to5.prod(), threshold_line]),
        Worker(gray2rgba_add_weighted_fn, [of_4to5.cons(), in_l2l1.cons(), of_local.prod(), of_local.cons(),
                                           out_l1l2.prod(), gray2rgba_line, add_weighted_line]),
    ]

    def sequence(in_t, _unused, out_t, in_h, out_h):
        in_h.fill(in_t)
        out_h.drain(out_t, wait=True)

    rt = Runtime(sequence, [tensor_ty, unused_ty, tensor_ty, in_l3l2.prod(), out_l2l3.cons()])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def golden(img, width, height):
    """The pipeline in numpy: gray, Laplacian with replicated borders (and filter2dLine's left neighbour
    two pixels back at the start of its third and later 32-pixel blocks), threshold, back to RGBA, added."""
    rgba = img.view(np.uint8).reshape(height, width, 4).astype(np.int32)
    gray = (9798 * rgba[..., 0] + 19235 * rgba[..., 1] + 3736 * rgba[..., 2] + (1 << 14)) >> 15
    p = np.pad(gray, 1, mode="edge")
    left = p[1:-1, :-2].copy()
    # filter2dLine's left neighbour of the first pixel of its third and later 32-pixel blocks is two
    # pixels back (mlir-aie aie2/filter2d.cc:144-145 at 3ca0193)
    firsts = np.arange(64, width, 32)
    left[:, firsts] = gray[:, firsts - 2]
    lap = 4 * (p[:-2, 1:-1] + p[2:, 1:-1] + left + p[1:-1, 2:]) - 16 * gray
    lap = np.clip(lap // 4, 0, 255)  # Q12 coefficients over 4096, saturated
    mask = np.where(lap > 10, 255, 0)
    mask_rgba = np.stack([mask, mask, mask, np.full_like(mask, 255)], axis=-1)
    return np.clip(rgba + mask_rgba, 0, 255).astype(np.uint8).reshape(-1)


def main(argv=None):
    import npusim

    p = argparse.ArgumentParser()
    p.add_argument("--width", type=int, default=64)
    p.add_argument("--height", type=int, default=36)
    opts = p.parse_args(argv)
    img = np.random.default_rng(0).integers(-128, 128, opts.width * opts.height * 4, dtype=np.int8)
    out = np.zeros_like(img)
    run = npusim.simulate(design(opts.width, opts.height), [img, np.zeros((16, 16), np.int32), out])
    assert_pass(out.view(np.uint8), golden(img, opts.width, opts.height), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
