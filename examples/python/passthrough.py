# E1 passthrough_kernel as an IRON Python design: a worker copies each line of fifo `in` to fifo
# `out` with the passthrough kernel; the host fills `in` and drains `out`. Golden: out == in.
# Run: npusim python examples/python/passthrough.py [--size N]   (the C++ twin: npusim run passthrough_kernel)
import argparse

import numpy as np

import aie.iron as iron
from aie.iron import In, ObjectFifo, Out, Program, Runtime, Worker, kernels
from aie.utils.verify import assert_pass


@iron.jit
def passthrough(in_tensor: In, out_tensor: Out, *, lines: int = 4):
    dtype = in_tensor.dtype.type
    size = in_tensor.numel()
    line = size // lines
    line_ty = np.ndarray[(line,), np.dtype[dtype]]
    vec_ty = np.ndarray[(size,), np.dtype[dtype]]

    of_in = ObjectFifo(line_ty, name="in")
    of_out = ObjectFifo(line_ty, name="out")
    copy_line = kernels.passthrough(tile_size=line, dtype=dtype)

    def core_fn(of_in, of_out, copy_line):
        # Worker repeats the body forever (while_true=True): one line per pass.
        elem_out = of_out.acquire(1)
        elem_in = of_in.acquire(1)
        copy_line(elem_in, elem_out, line)
        of_in.release(1)
        of_out.release(1)

    worker = Worker(core_fn, [of_in.cons(), of_out.prod(), copy_line])

    def sequence(a_in, b_out, in_h, out_h):
        in_h.fill(a_in)
        out_h.drain(b_out, wait=True)

    rt = Runtime(sequence, [vec_ty, vec_ty, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=4096, help="uint8 elements")
    opts = p.parse_args(argv)
    a = iron.randint(0, 256, (opts.size,), dtype=np.uint8)
    b = iron.zeros_like(a)
    run = passthrough(a, b)
    assert_pass(b.numpy(), a.numpy(), fail_msg="output does not match input", print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
