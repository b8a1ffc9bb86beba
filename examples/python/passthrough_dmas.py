# E2 passthrough_dmas as an IRON Python design: no compute. Fifo `in` is forwarded through a mem
# tile (`in.cons().forward()`): shim -> mem tile -> shim. The runtime sequence takes three tensors,
# the middle one unused (the host binds three buffers). Golden: c == a.
# The C++ twin: npusim run passthrough_dmas.
import argparse

import numpy as np

import aie.iron as iron
from aie.iron import ObjectFifo, Program, Runtime
from aie.iron.device import AnyShimTile
from aie.utils.verify import assert_pass


def design(size=4096, line=1024):
    vec_ty = np.ndarray[(size,), np.dtype[np.int32]]
    line_ty = np.ndarray[(line,), np.dtype[np.int32]]

    of_in = ObjectFifo(line_ty, name="in")
    of_out = of_in.cons().forward()

    def sequence(a_in, _unused, c_out, in_h, out_h):
        in_h.fill(a_in)
        out_h.drain(c_out, wait=True)

    rt = Runtime(sequence, [vec_ty, vec_ty, vec_ty, of_in.prod(tile=AnyShimTile), of_out.cons(tile=AnyShimTile)])
    return Program(iron.get_current_device(), rt).resolve_program()


def main(argv=None):
    import npusim

    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=4096)
    opts = p.parse_args(argv)
    a = np.arange(1, opts.size + 1, dtype=np.int32)
    b = np.zeros_like(a)
    c = np.zeros_like(a)
    run = npusim.simulate(design(opts.size), [a, b, c])
    assert_pass(c, a, print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
