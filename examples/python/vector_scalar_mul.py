# E3 vector_scalar_mul as an IRON Python design: out = in * factor, tile by tile, with the scale
# kernel; the factor comes through its own fifo `param0` and is held for a whole pass.
# Golden: (a * factor) wrapped to int16. The C++ twin: npusim run vector_scalar_mul.
import argparse

import numpy as np

import aie.iron as iron
from aie.iron import ObjectFifo, Program, Runtime, Worker, kernels
from aie.iron.controlflow import range_
from aie.utils.verify import assert_pass


def design(size=4096, tile=1024, dtype=np.int16):
    """The program (resolved) for `size` elements in tiles of `tile`."""
    vec_ty = np.ndarray[(size,), np.dtype[dtype]]
    tile_ty = np.ndarray[(tile,), np.dtype[dtype]]
    scalar_ty = np.ndarray[(1,), np.dtype[np.int32]]

    of_in = ObjectFifo(tile_ty, name="in0")
    of_out = ObjectFifo(tile_ty, name="out")
    of_factor = ObjectFifo(scalar_ty, name="param0")
    scale = kernels.scale(tile_size=tile, dtype=dtype)

    def core_fn(of_in, of_out, of_factor, scale):
        elem_factor = of_factor.acquire(1)
        for _ in range_(size // tile):
            elem_in = of_in.acquire(1)
            elem_out = of_out.acquire(1)
            scale(elem_in, elem_out, elem_factor, tile)
            of_in.release(1)
            of_out.release(1)
        of_factor.release(1)

    worker = Worker(core_fn, [of_in.cons(), of_out.prod(), of_factor.cons(), scale])

    def sequence(a, c, f, in_h, factor_h, out_h):
        in_h.fill(a)
        factor_h.fill(f)
        out_h.drain(c, wait=True)

    rt = Runtime(sequence, [vec_ty, vec_ty, scalar_ty, of_in.prod(), of_factor.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def main(argv=None):
    import npusim

    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=4096)
    p.add_argument("--factor", type=int, default=3)
    opts = p.parse_args(argv)
    program = design(opts.size)
    print(program)  # npusim's MLIR export of the design
    a = np.random.default_rng(0).integers(-100, 100, opts.size, dtype=np.int16)
    c = np.zeros_like(a)
    run = npusim.simulate(program, [a, c, np.array([opts.factor], dtype=np.int32)])
    assert_pass(c, (a.astype(np.int64) * opts.factor).astype(np.int16), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
