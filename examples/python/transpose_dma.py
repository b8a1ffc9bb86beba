# E10 transposes --strategy dma as an IRON Python design: C (K x M) = A^T with no compute. The whole
# M x K matrix is one object of fifo `of_in`, forwarded through an L1 buffer on a compute tile; the
# shim reads A column-major (TensorTiler2D.simple_tiler with tile_col_major=True), the drain is
# linear. The element is 4 bytes (the shim's stride granularity). The C++ twin: npusim run transpose_dma.
import argparse

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorTiler2D
from aie.iron import ObjectFifo, Program, Runtime
from aie.iron.device import AnyComputeTile
from aie.utils.verify import assert_pass


def design(M=64, K=64):
    a_ty = np.ndarray[(M, K), np.dtype[np.uint32]]
    c_ty = np.ndarray[(K, M), np.dtype[np.uint32]]

    of_in = ObjectFifo(a_ty, name="of_in")
    of_out = of_in.cons().forward(AnyComputeTile)
    tap_in = TensorTiler2D.simple_tiler((M, K), tile_col_major=True)[0]

    def sequence(a, _unused, c, in_h, out_h):
        in_h.fill(a, tap_in)
        out_h.drain(c, wait=True)

    rt = Runtime(sequence, [a_ty, a_ty, c_ty, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt).resolve_program()


def main(argv=None):
    import npusim

    p = argparse.ArgumentParser()
    p.add_argument("-M", type=int, default=64)
    p.add_argument("-K", type=int, default=64)
    opts = p.parse_args(argv)
    a = np.random.default_rng(0).integers(0, 2**32, (opts.M, opts.K), dtype=np.uint32)
    c = np.zeros((opts.K, opts.M), dtype=np.uint32)
    run = npusim.simulate(design(opts.M, opts.K), [a, np.zeros_like(a), c])
    assert_pass(c, a.T, print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
