# E11 memcpy as an IRON Python design: b = a through columns x channels parallel shim paths, each
# moving one contiguous chunk of size / (columns * channels) i32 elements in 1024-element lines,
# either forwarded through a mem tile (bypass) or copied by a worker with passThroughLine. Every
# fill is issued first, then every drain (waited). Golden: b == a. The C++ twin: npusim run memcpy.
import argparse

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorTiler2D
from aie.iron import Kernel, ObjectFifo, Program, Runtime, Worker
from aie.utils.verify import assert_pass

LINE = 1024


def design(size=16384, columns=1, channels=1, bypass=True):
    paths = columns * channels
    chunk = size // paths
    xfr_ty = np.ndarray[(size,), np.dtype[np.int32]]
    line_ty = np.ndarray[(LINE,), np.dtype[np.int32]]

    of_ins = [ObjectFifo(line_ty, name=f"in{i}_{j}") for i in range(columns) for j in range(channels)]
    workers = []
    if bypass:
        of_outs = [f.cons().forward() for f in of_ins]
    else:
        of_outs = [ObjectFifo(line_ty, name=f"out{i}_{j}") for i in range(columns) for j in range(channels)]
        copy_line = Kernel("passThroughLine", "passThrough.cc.o", [line_ty, line_ty, np.int32])

        def core_fn(of_in, of_out, copy_line):
            elem_out = of_out.acquire(1)
            elem_in = of_in.acquire(1)
            copy_line(elem_in, elem_out, LINE)
            of_in.release(1)
            of_out.release(1)

        workers = [Worker(core_fn, [i.cons(), o.prod(), copy_line]) for i, o in zip(of_ins, of_outs)]

    taps = TensorTiler2D.simple_tiler((1, size), (1, chunk))

    def sequence(a, b, ins, outs):
        for w, h in enumerate(ins):
            h.fill(a, taps[w])
        for w, h in enumerate(outs):
            h.drain(b, taps[w], wait=True)

    rt = Runtime(sequence, [xfr_ty, xfr_ty, [f.prod() for f in of_ins], [f.cons() for f in of_outs]])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def main(argv=None):
    import npusim

    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=16384)
    p.add_argument("--columns", type=int, default=1)
    p.add_argument("--channels", type=int, default=1)
    p.add_argument("--bypass", type=int, default=1)
    opts = p.parse_args(argv)
    a = np.arange(1, opts.size + 1, dtype=np.int32)
    b = np.zeros_like(a)
    run = npusim.simulate(design(opts.size, opts.columns, opts.channels, bool(opts.bypass)), [a, b])
    assert_pass(b, a, print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
