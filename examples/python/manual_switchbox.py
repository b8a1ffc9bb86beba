# basic/manual_switchbox as an IRON Python design: every stream-switch hop of a shim -> compute ->
# shim copy pinned by hand. As upstream writes it, user-side Resolvables (tiles() + resolve()) among
# the Worker's fn_args write one aie.switchbox per tile of the column and the shim's aie.shim_mux
# (aie.dialects.aie switchbox / shim_mux / connect), so no route comes from the router: shim mux
# DMA 0 -> North 3, shim switch South 3 -> North 1, mem tile South 1 -> North 1, compute tile
# South 1 -> DMA 0, and back DMA 0 -> South 0, North 0 -> South 0, North 0 -> South 2, mux
# North 2 -> DMA 0. The compute tile's hand-written BDs fill in_buf and send out_buf behind two lock
# pairs; the worker copies in_buf to out_buf once. The shim side is programmed by registers: two
# npu_writebd with their npu_address_patch, two npu_push_queue and an npu_sync.
# One difference from upstream's file (3ca0193): upstream pushes `a`'s BD on the shim's S2MM queue
# (direction 0) and `c`'s on the MM2S (direction 1) and syncs on the MM2S; here `a` goes out on the
# MM2S and the sequence syncs on the S2MM that writes `c`, as the data path needs
# (docs/raw-sequence.md, "Designs"). Golden: c == a.
# The C++ twin: npusim run manual_switchbox.
import numpy as np

import aie.iron as iron
from aie.dialects._aie_enum_gen import DMAChannelDir, WireBundle
from aie.dialects.aie import EndOp, connect, shim_mux, switchbox
from aie.dialects.aiex import npu_address_patch, npu_push_queue, npu_sync, npu_writebd
from aie.iron import (Acquire, Bd, Buffer, CompileTime, DmaChannel, In, Lock, Out, Program, Release, Runtime,
                      TileDma, Worker)
from aie.iron.controlflow import range_
from aie.iron.device import Tile
from aie.utils.verify import assert_pass

SHIM_BD_ADDRESS = 0x1D004  # word 1 (the buffer address) of shim BD 0; BDs are 0x20 apart
S2MM, MM2S = 0, 1  # npu_push_queue / npu_sync directions


class ManualSwitchbox:
    """A user-side Resolvable writing one aie.switchbox (or, with mux=True, the aie.shim_mux)."""

    def __init__(self, tile, conns, mux=False):
        self._tile, self._conns, self._mux = tile, conns, mux

    def tiles(self):
        return [self._tile]

    def resolve(self, loc=None, ip=None):
        @(shim_mux if self._mux else switchbox)(self._tile.op)
        def _body():
            for sb, sc, db, dc in self._conns:
                connect(sb, sc, db, dc)
            EndOp()


@iron.jit
def manual_switchbox(a_in: In, c_out: Out, *, col: CompileTime[int] = 0):
    n = a_in.numel()
    vec_ty = np.ndarray[(n,), np.dtype[np.int32]]
    shim, mem, comp = Tile(col, 0), Tile(col, 1), Tile(col, 2)
    W = WireBundle
    routing = [
        ManualSwitchbox(shim, [(W.DMA, 0, W.North, 3), (W.North, 2, W.DMA, 0)], mux=True),
        ManualSwitchbox(shim, [(W.South, 3, W.North, 1), (W.North, 0, W.South, 2)]),
        ManualSwitchbox(mem, [(W.South, 1, W.North, 1), (W.North, 0, W.South, 0)]),
        ManualSwitchbox(comp, [(W.South, 1, W.DMA, 0), (W.DMA, 0, W.South, 0)]),
    ]

    in_buf = Buffer(tile=comp, type=vec_ty, name="in_buf")
    out_buf = Buffer(tile=comp, type=vec_ty, name="out_buf")
    in_prod = Lock(tile=comp, lock_id=0, init=1, name="in_prod")
    in_cons = Lock(tile=comp, lock_id=1, init=0, name="in_cons")
    out_prod = Lock(tile=comp, lock_id=2, init=1, name="out_prod")
    out_cons = Lock(tile=comp, lock_id=3, init=0, name="out_cons")
    comp_dma = TileDma(tile=comp, channels=[
        DmaChannel(DMAChannelDir.S2MM, 0, [Bd(in_buf, acquires=[Acquire(in_prod)], releases=[Release(in_cons)])]),
        DmaChannel(DMAChannelDir.MM2S, 0, [Bd(out_buf, acquires=[Acquire(out_cons)], releases=[Release(out_prod)])]),
    ])

    def core_body(i_cons, i_prod, o_prod, o_cons, ib, ob, *_routing):
        # *_routing: the Resolvables ride along in fn_args only to be resolved with the program
        i_cons.acquire(1)
        o_prod.acquire(1)
        for k in range_(n):
            ob[k] = ib[k]
        i_prod.release(1)
        o_cons.release(1)

    worker = Worker(core_body, [in_cons, in_prod, out_prod, out_cons, in_buf, out_buf, *routing], tile=comp,
                    while_true=False)

    def sequence(a, c):
        npu_writebd(bd_id=0, buffer_length=n, buffer_offset=0, column=col, row=0, valid_bd=1)  # a -> array
        npu_address_patch(addr=SHIM_BD_ADDRESS, arg_idx=0, arg_plus=0)
        npu_writebd(bd_id=1, buffer_length=n, buffer_offset=0, column=col, row=0, valid_bd=1)  # array -> c
        npu_address_patch(addr=SHIM_BD_ADDRESS + 0x20, arg_idx=1, arg_plus=0)
        npu_push_queue(column=col, row=0, direction=MM2S, channel=0, issue_token=False, repeat_count=0, bd_id=0)
        npu_push_queue(column=col, row=0, direction=S2MM, channel=0, issue_token=True, repeat_count=0, bd_id=1)
        npu_sync(column=col, row=0, direction=S2MM, channel=0, column_num=1, row_num=1)

    rt = Runtime(sequence, [vec_ty, vec_ty])
    for lock in (in_prod, in_cons, out_prod, out_cons):
        rt.add_lock(lock)
    rt.add_tile_dma(comp_dma)
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def main():
    a = iron.arange(1, 65, dtype=np.int32)
    c = iron.zeros_like(a)
    run = manual_switchbox(a, c)
    assert_pass(c.numpy(), a.numpy(), fail_msg="manual-switchbox passthrough mismatch", print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
