# E12 vision/color_detect as an IRON Python design: keep the pixels whose hue lies in one of two
# bands, black out the rest. rgba2hue feeds `OF_2to34`, which two workers consume (a broadcast
# between cores); each thresholds one band in two steps (to zero above its upper bound, into a
# self-loop fifo, then binary above its lower bound). The last worker ORs the two masks, widens the
# mask to RGBA and ANDs it with the original line, which arrives through a depth-6 mem-tile forward
# of the same input (a broadcast shim -> {core, mem tile}).
# Golden: the pipeline in numpy (golden() below), exact. The C++ twin: npusim run color_detect.
import argparse

import numpy as np

import aie.iron as iron
from aie.iron import ObjectFifo, Program, Runtime, Worker, kernels
from aie.utils.verify import assert_pass

THRESH_BINARY, THRESH_TOZERO_INV = 0, 4
BANDS = ((40, 30), (160, 90))  # (upper, lower) of each hue band


def design(width=64, height=36):
    line_bytes = width * 4
    line_ty = np.ndarray[(width,), np.dtype[np.uint8]]
    line_bytes_ty = np.ndarray[(line_bytes,), np.dtype[np.uint8]]
    tensor_ty = np.ndarray[(line_bytes * height,), np.dtype[np.int8]]
    unused_ty = np.ndarray[(16, 16), np.dtype[np.int32]]

    rgba2hue_line = kernels.rgba2hue(line_width=width)
    bitwise_or_line = kernels.bitwise_or(line_width=width, dtype=np.uint8)
    gray2rgba_line = kernels.gray2rgba(line_width=width)
    bitwise_and_line = kernels.bitwise_and(line_width=line_bytes, dtype=np.uint8)

    in_l3l2 = ObjectFifo(line_bytes_ty, name="inOF_L3L2")
    in_l2l1 = in_l3l2.cons(6).forward(depth=6, name="inOF_L2L1")
    out_l1l2 = ObjectFifo(line_bytes_ty, name="outOF_L1L2")
    out_l2l3 = out_l1l2.cons().forward(name="outOF_L2L3")
    of_2to34 = ObjectFifo(line_ty, name="OF_2to34")
    of_3to3 = ObjectFifo(line_ty, depth=1, name="OF_3to3")
    of_3to5 = ObjectFifo(line_ty, name="OF_3to5")
    of_4to4 = ObjectFifo(line_ty, depth=1, name="OF_4to4")
    of_4to5 = ObjectFifo(line_ty, name="OF_4to5")
    of_5to5a = ObjectFifo(line_ty, depth=1, name="OF_5to5a")
    of_5to5b = ObjectFifo(line_bytes_ty, depth=1, name="OF_5to5b")

    def rgba2hue_fn(of_in, of_out, rgba2hue_line):
        elem_in = of_in.acquire(1)
        elem_out = of_out.acquire(1)
        rgba2hue_line(elem_in, elem_out, width)
        of_in.release(1)
        of_out.release(1)

    def band(upper, lower):
        def threshold_fn(of_in, of_self_out, of_self_in, of_out, threshold_line):
            elem_in = of_in.acquire(1)
            elem_tmp = of_self_out.acquire(1)
            threshold_line(elem_in, elem_tmp, width, upper, 255, THRESH_TOZERO_INV)
            of_in.release(1)
            of_self_out.release(1)
            elem_tmp = of_self_in.acquire(1)
            elem_out = of_out.acquire(1)
            threshold_line(elem_tmp, elem_out, width, lower, 255, THRESH_BINARY)
            of_self_in.release(1)
            of_out.release(1)
        return threshold_fn

    def combine_fn(of_in1, of_in2, of_a_out, of_a_in, of_b_out, of_b_in, of_orig, of_out, or_line, to_rgba, and_line):
        e1 = of_in1.acquire(1)
        e2 = of_in2.acquire(1)
        mask = of_a_out.acquire(1)
        or_line(e1, e2, mask, width)
        of_in1.release(1)
        of_in2.release(1)
        of_a_out.release(1)
        mask = of_a_in.acquire(1)
        mask_rgba = of_b_out.acquire(1)
        to_rgba(mask, mask_rgba, width)
        of_a_in.release(1)
        of_b_out.release(1)
        mask_rgba = of_b_in.acquire(1)
        orig = of_orig.acquire(1)
        out = of_out.acquire(1)
        and_line(mask_rgba, orig, out, line_bytes)
        of_b_in.release(1)
        of_orig.release(1)
        of_out.release(1)

    (up3, lo3), (up4, lo4) = BANDS
    workers = [
        Worker(rgba2hue_fn, [in_l3l2.cons(), of_2to34.prod(), rgba2hue_line]),
        Worker(band(up3, lo3), [of_2to34.cons(), of_3to3.prod(), of_3to3.cons(), of_3to5.prod(),
                                kernels.threshold(line_width=width, dtype=np.uint8)]),
        Worker(band(up4, lo4), [of_2to34.cons(), of_4to4.prod(), of_4to4.cons(), of_4to5.prod(),
                                kernels.threshold(line_width=width, dtype=np.uint8)]),
        Worker(combine_fn, [of_3to5.cons(), of_4to5.cons(), of_5to5a.prod(), of_5to5a.cons(), of_5to5b.prod(),
                            of_5to5b.cons(), in_l2l1.cons(), out_l1l2.prod(), bitwise_or_line, gray2rgba_line,
                            bitwise_and_line]),
    ]

    def sequence(in_t, _unused, out_t, in_h, out_h):
        in_h.fill(in_t)
        out_h.drain(out_t, wait=True)

    rt = Runtime(sequence, [tensor_ty, unused_ty, tensor_ty, in_l3l2.prod(), out_l2l3.cons()])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def golden(img):
    """The pipeline in numpy: the hue of each pixel (0-255, the kernel's integer formula), two bands,
    their OR widened to RGBA (alpha 255), ANDed with the pixel."""
    rgba = img.view(np.uint8).reshape(-1, 4).astype(np.int64)
    r, g, b = rgba[:, 0], rgba[:, 1], rgba[:, 2]
    mx, mn = np.maximum(np.maximum(r, g), b), np.minimum(np.minimum(r, g), b)
    span = np.where(mx == mn, 1, mx - mn)

    def tdiv(a, d):  # C's integer division (toward zero)
        return np.sign(a) * (np.abs(a) // d)

    h = np.where(mx == r, tdiv(85 * (g - b), span),
                 np.where(mx == g, 170 + tdiv(85 * (b - r), span), 340 + tdiv(85 * (r - g), span)))
    h = np.where((mx == 0) | (mx == mn), 0, h)
    hue = ((h + 1) >> 1).astype(np.uint8)
    mask = np.zeros_like(hue)
    for upper, lower in BANDS:
        to_zero = np.where(hue > upper, 0, hue)
        mask |= np.where(to_zero > lower, 255, 0).astype(np.uint8)
    mask_rgba = np.stack([mask, mask, mask, np.full_like(mask, 255)], axis=-1).reshape(-1)
    return mask_rgba & img.view(np.uint8)


def main(argv=None):
    import npusim

    p = argparse.ArgumentParser()
    p.add_argument("--width", type=int, default=64)
    p.add_argument("--height", type=int, default=36)
    opts = p.parse_args(argv)
    img = np.random.default_rng(0).integers(-128, 127, opts.width * opts.height * 4, dtype=np.int8)
    out = np.zeros_like(img)
    run = npusim.simulate(design(opts.width, opts.height), [img, np.zeros((16, 16), np.int32), out])
    assert_pass(out.view(np.uint8), golden(img), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
