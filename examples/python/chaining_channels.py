# basic/chaining_channels as an IRON Python design: a runtime sequence written register by register.
# A mem-tile buffer starts with 1..n; its MM2S BD waits on a lock (value >= 1, then set back to 0)
# that only the sequence releases, by writing the lock's value register (npu_write32 at 0xC0000 of
# the mem tile). The sequence then writes two shim BDs itself (npu_writebd + npu_address_patch) and
# chains the shim's channels with the shim's own locks: BD 0 (S2MM 0, mem tile -> `a`) releases shim
# lock 1 when done, BD 1 (MM2S 0, `b` -> compute tile) waits until that lock equals 1. Both queues
# are started with npu_push_queue and the sequence waits on the MM2S's token (npu_sync). The
# compute tile only toggles its locks; the data it receives is discarded.
# Golden: a == 1..n after the run (b is only read).
# The C++ twin: npusim run chaining_channels.
import numpy as np

import aie.iron as iron
from aie.dialects._aie_enum_gen import DMAChannelDir
from aie.dialects.aiex import npu_address_patch, npu_push_queue, npu_sync, npu_write32, npu_writebd
from aie.iron import (Acquire, Bd, Buffer, CompileTime, DmaChannel, Flow, In, InOut, Lock, Program, Release, Runtime,
                      TileDma, Worker)
from aie.iron.device import Tile
from aie.utils.verify import assert_pass

MEM_LOCK0_VALUE = 0xC0000  # the mem tile's lock 0 value register
SHIM_BD_ADDRESS = 0x1D004  # word 1 (the buffer address) of shim BD 0; BDs are 0x20 apart


@iron.jit
def chaining_channels(a: InOut, b: In, *, col: CompileTime[int] = 0, kick: CompileTime[bool] = True):
    n = a.numel()
    vec_ty = np.ndarray[(n,), np.dtype[np.int32]]
    read_ty = np.ndarray[(4 * n,), np.dtype[np.int32]]
    shim, mem, core = Tile(col, 0), Tile(col, 1), Tile(col, 2)

    mem_buf = Buffer(tile=mem, type=vec_ty, name="memtile_buff", initial_value=np.arange(1, n + 1, dtype=np.int32))
    mem_lock = Lock(mem, lock_id=0, init=0, name="memtile_lock")
    core_buf = Buffer(tile=core, type=read_ty, name="compute_buff")
    prod = Lock(core, lock_id=0, init=1, name="compute_prod_lock")
    cons = Lock(core, lock_id=1, init=0, name="compute_cons_lock")

    # the mem tile's BD takes its lock (>= 1) and gives back 0: it runs once per lock write
    mem_dma = TileDma(mem, [DmaChannel(DMAChannelDir.MM2S, 0, [
        Bd(mem_buf, length=n, acquires=[Acquire(mem_lock, value=1)], releases=[Release(mem_lock, value=0)])])])
    core_dma = TileDma(core, [DmaChannel(DMAChannelDir.S2MM, 0, [
        Bd(core_buf, length=4 * n, acquires=[Acquire(prod, value=1)], releases=[Release(cons, value=1)])])])

    def spinner(c, p):
        c.acquire(1)
        p.release(1)

    worker = Worker(spinner, [cons, prod], tile=core)

    def shim_bd(bd_id, words, acq_id, acq_val, rel_id, rel_val):
        npu_writebd(bd_id=bd_id, buffer_length=words, buffer_offset=0, column=col, row=0, lock_acq_enable=1,
                    lock_acq_id=acq_id, lock_acq_val=acq_val, lock_rel_id=rel_id, lock_rel_val=rel_val, valid_bd=1)

    def sequence(a_io, b_in):
        if kick:
            npu_write32(address=MEM_LOCK0_VALUE, value=1, column=col, row=1)
        shim_bd(0, n, 0, 0, 1, 1)  # S2MM: mem tile -> a, then release shim lock 1
        npu_address_patch(addr=SHIM_BD_ADDRESS, arg_idx=0, arg_plus=0)
        shim_bd(1, 4 * n, 1, 1, 0, 0)  # MM2S: b -> compute tile, once shim lock 1 == 1
        npu_address_patch(addr=SHIM_BD_ADDRESS + 0x20, arg_idx=1, arg_plus=0)
        npu_push_queue(column=col, row=0, direction=0, channel=0, issue_token=False, repeat_count=0, bd_id=0)
        npu_push_queue(column=col, row=0, direction=1, channel=0, issue_token=True, repeat_count=0, bd_id=1)
        npu_sync(column=col, row=0, direction=1, channel=0, column_num=1, row_num=1)

    rt = Runtime(sequence, [vec_ty, read_ty])
    rt.add_flow(Flow(mem, shim))
    rt.add_flow(Flow(shim, core))
    for lock in (mem_lock, prod, cons):
        rt.add_lock(lock)
    rt.add_tile_dma(mem_dma)
    rt.add_tile_dma(core_dma)
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def main():
    n = 256
    a = iron.tensor(np.full(n, 0xDEADBEEF, dtype=np.uint32).view(np.int32))
    b = iron.arange(4 * n, dtype=np.int32)
    run = chaining_channels(a, b)
    assert_pass(a.numpy(), np.arange(1, n + 1, dtype=np.int32), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
