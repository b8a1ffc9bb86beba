# basic/custom_dma as an IRON Python design, written with IRON's hand-written data movement (Buffer,
# Lock, Flow, TileDma, Bd) where upstream builds the same pieces in a Resolvable with the dialect
# bindings. A mem-tile buffer holds four rows of `cols` int32 (row r: (r + 1) * 100 + 0..cols-1). A
# chain of three mem-tile MM2S BDs reads rows 0, 1 and 3 (non-uniform offsets), each BD acquiring
# a lock that starts at 0: nothing moves until the runtime sequence sets that lock to 3
# (set_lock_value, one acquire per BD). The compute tile's S2MM BD receives each row into a buffer
# of its own, behind its own lock pair; the worker copies each row into the ObjectFifo `out` that
# the sequence drains. Golden: c == rows 0, 1 and 3.
# The C++ twin: npusim run custom_dma.
import numpy as np

import aie.iron as iron
from aie.dialects._aie_enum_gen import DMAChannelDir
from aie.dialects.aiex import set_lock_value
from aie.iron import (Acquire, Bd, Buffer, CompileTime, DmaChannel, Flow, Lock, ObjectFifo, Out, Program, Release,
                      Runtime, TaskGroup, TileDma, Worker)
from aie.iron.controlflow import range_
from aie.iron.device import Tile
from aie.utils.verify import assert_pass

ROWS_READ = (0, 1, 3)


def rows(cols):
    return np.concatenate([np.arange((r + 1) * 100, (r + 1) * 100 + cols, dtype=np.int32) for r in range(4)])


@iron.jit
def custom_dma(c: Out, *, cols: CompileTime[int] = 16):
    buf_ty = np.ndarray[(4 * cols,), np.dtype[np.int32]]
    row_ty = np.ndarray[(cols,), np.dtype[np.int32]]
    out_ty = np.ndarray[(len(ROWS_READ) * cols,), np.dtype[np.int32]]
    mem, core = Tile(0, 1), Tile(0, 2)

    src = Buffer(initial_value=rows(cols), name="scatter_buf", tile=mem)
    # the consumer lock starts at 0, so the BD chain waits for the runtime sequence
    mem_prod, mem_cons = Lock(mem, init=0, name="scatter_prod"), Lock(mem, init=0, name="scatter_cons")
    recv = Buffer(type=row_ty, name="scatter_buf_recv", tile=core)
    recv_prod, recv_cons = Lock(core, init=1, name="recv_prod"), Lock(core, init=0, name="recv_cons")

    chain = [Bd(src, offset=r * cols, length=cols, acquires=[Acquire(mem_cons)], releases=[Release(mem_prod)],
                next=(k + 1) % len(ROWS_READ)) for k, r in enumerate(ROWS_READ)]
    mem_dma = TileDma(mem, [DmaChannel(DMAChannelDir.MM2S, 0, chain)])
    core_dma = TileDma(core, [DmaChannel(DMAChannelDir.S2MM, 0, [Bd(recv, acquires=[Acquire(recv_prod)],
                                                                   releases=[Release(recv_cons)])])])
    of_out = ObjectFifo(row_ty, depth=1, name="out")

    def scatter_copy(row_in, full, empty, out):
        for _ in range(len(ROWS_READ)):
            full.acquire()
            e = out.acquire(1)
            for i in range_(cols):
                e[i] = row_in[i]
            empty.release()
            out.release(1)

    worker = Worker(scatter_copy, [recv, recv_cons, recv_prod, of_out.prod()], tile=core)

    def sequence(c_out, out_h):
        tg = TaskGroup()
        out_h.drain(c_out, wait=True, group=tg)
        set_lock_value(mem_cons, len(ROWS_READ))  # one acquire for each BD of the chain
        tg.finish()

    rt = Runtime(sequence, [out_ty, of_out.cons()])
    rt.add_flow(Flow(mem, core))
    for lock in (mem_prod, mem_cons, recv_prod, recv_cons):
        rt.add_lock(lock)
    rt.add_tile_dma(mem_dma)
    rt.add_tile_dma(core_dma)
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def golden(cols):
    return rows(cols).reshape(4, cols)[list(ROWS_READ)].reshape(-1)


def main():
    cols = 16
    c = iron.zeros(len(ROWS_READ) * cols, dtype=np.int32)
    run = custom_dma(c, cols=cols)
    assert_pass(c.numpy(), golden(cols), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
