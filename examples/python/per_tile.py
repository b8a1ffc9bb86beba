# tiling_exploration/per_tile as an IRON Python design: a worker writes 0, 1, 2, ... into each
# object of fifo `of_out`, counting in a Buffer that persists across iterations; the runtime
# sequence drains one th x tw tile of the H x W output per task (TensorTiler2D.simple_tiler, tiles
# row-major), every drain waited. Golden: each element holds its position in tile-major order (the
# tiler's access order). The C++ twin: npusim run per_tile.
import argparse

import numpy as np

import aie.iron as iron
from aie.helpers.taplib import TensorTiler2D
from aie.iron import Buffer, ObjectFifo, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.utils.verify import assert_pass


def design(H=8, W=8, th=2, tw=2):
    tensor_ty = np.ndarray[(H * W,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(th * tw,), np.dtype[np.int32]]

    of_out = ObjectFifo(tile_ty, name="of_out")
    counter = Buffer(np.ndarray[(1,), np.dtype[np.int32]], initial_value=np.array([0], dtype=np.int32),
                     name="access_counter")

    def access_order(of_out, counter):
        elem = of_out.acquire(1)
        for i in range_(th * tw):
            elem[i] = counter[0]
            counter[0] = counter[0] + 1
        of_out.release(1)

    worker = Worker(access_order, [of_out.prod(), counter])
    tiles = TensorTiler2D.simple_tiler((H, W), (th, tw))

    def sequence(out, of_out):
        for t in tiles:
            of_out.drain(out, t, wait=True)

    rt = Runtime(sequence, [tensor_ty, of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program(), tiles


def golden(H=8, W=8, th=2, tw=2):
    """Each element's position in tile-major order."""
    tiles = np.arange(H * W, dtype=np.int32).reshape(H // th, W // tw, th, tw)
    return tiles.transpose(0, 2, 1, 3).reshape(-1)


def main(argv=None):
    import npusim

    p = argparse.ArgumentParser()
    p.add_argument("--H", type=int, default=8)
    p.add_argument("--W", type=int, default=8)
    opts = p.parse_args(argv)
    program, _ = design(opts.H, opts.W)
    out = np.zeros(opts.H * opts.W, dtype=np.int32)
    run = npusim.simulate(program, [out])
    assert_pass(out, golden(opts.H, opts.W), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
