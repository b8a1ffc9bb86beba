# A hand-written copy below ObjectFifo, as an IRON Python design in the style of mlir-aie's
# basic/chaining_channels and packet_switch: Buffers, Locks, Flows and a TileDma instead of fifos.
# The shim streams `a` (Flow with shim symbol "in") into the compute tile's S2MM 0, whose one
# self-looping BD fills in_buf (acquire in_empty, release in_full). The worker waits for in_full and
# out_empty, copies in_buf to out_buf element by element, then releases in_empty and out_full. The
# compute tile's MM2S 0 BD (acquire out_full, release out_empty) streams out_buf back to the shim
# (symbol "out"), which writes `c`. Golden: c == a.
# The C++ twin: npusim run lowlevel_passthrough.
import numpy as np

import aie.iron as iron
from aie.dialects._aie_enum_gen import DMAChannelDir
from aie.dialects.aiex import dma_await_task, dma_free_task, dma_start_task, shim_dma_single_bd_task
from aie.iron import (Acquire, Bd, Buffer, CompileTime, DmaChannel, Flow, In, Lock, Out, Program, Release, Runtime,
                      TileDma, Worker)
from aie.iron.controlflow import range_
from aie.iron.device import Tile
from aie.utils.verify import assert_pass


@iron.jit
def lowlevel_passthrough(a: In, c: Out, *, tile: CompileTime[int] = 1024):
    size = a.numel()
    if size % tile:
        raise ValueError(f"tile={tile} must divide the tensor's {size} elements")
    vec_ty = np.ndarray[(size,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(tile,), np.dtype[np.int32]]
    shim, core = Tile(0, 0), Tile(0, 2)

    in_buf, out_buf = Buffer(type=tile_ty, name="in_buf"), Buffer(type=tile_ty, name="out_buf")
    in_empty, in_full = Lock(core, init=1, name="in_empty"), Lock(core, init=0, name="in_full")
    out_empty, out_full = Lock(core, init=1, name="out_empty"), Lock(core, init=0, name="out_full")

    def copy(src, dst, in_e, in_f, out_e, out_f):
        in_f.acquire()
        out_e.acquire()
        for i in range_(tile):
            dst[i] = src[i]
        in_e.release()
        out_f.release()

    worker = Worker(copy, [in_buf, out_buf, in_empty, in_full, out_empty, out_full], tile=core)

    dma = TileDma(core, [
        DmaChannel(DMAChannelDir.S2MM, 0, [Bd(in_buf, acquires=[Acquire(in_empty)], releases=[Release(in_full)])]),
        DmaChannel(DMAChannelDir.MM2S, 0, [Bd(out_buf, acquires=[Acquire(out_full)], releases=[Release(out_empty)])]),
    ])

    def sequence(a_in, c_out):
        t_in = shim_dma_single_bd_task("in", a_in.op, sizes=[1, 1, 1, size])
        t_out = shim_dma_single_bd_task("out", c_out.op, sizes=[1, 1, 1, size], issue_token=True)
        dma_start_task(t_in, t_out)
        dma_await_task(t_out)
        dma_free_task(t_in)

    rt = Runtime(sequence, [vec_ty, vec_ty])
    rt.add_flow(Flow(shim, core, shim_symbol="in"))
    rt.add_flow(Flow(core, shim, shim_symbol="out"))
    for lock in (in_empty, in_full, out_empty, out_full):
        rt.add_lock(lock)
    rt.add_tile_dma(dma)
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def main():
    a = iron.tensor(np.random.default_rng(5).integers(-10**6, 10**6, 4096, dtype=np.int32))
    c = iron.zeros(4096, dtype=np.int32)
    run = lowlevel_passthrough(a, c)
    assert_pass(c.numpy(), a.numpy(), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
