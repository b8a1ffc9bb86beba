"""IRON's hand-written data movement from Python: Lock, Flow (with a shim_symbol), TileDma with
DmaChannels and Bds, Acquire/Release, the runtime's shim_dma_single_bd_task / dma_start_task /
dma_await_task / dma_free_task, and Lock acquire/release in a recorded body; outputs against numpy."""
import numpy as np
import pytest

import npusim
import npusim.iron as iron
from npusim.iron import Acquire, Bd, Buffer, DmaChannel, Flow, Lock, Program, Release, Runtime, TileDma, Worker
from npusim.iron.aiex import dma_await_task, dma_free_task, dma_start_task, shim_dma_single_bd_task
from npusim.iron.controlflow import range_
from npusim.iron.device import Tile
from npusim.iron.enums import DMAChannelDir, WireBundle

N, n = 128, 16


def _design(step, core=None, configured=False, raw=False, chained=False):
    """shim -> compute tile (S2MM into `buf_in`) -> body adds `step` -> (MM2S from `buf_out`) -> shim,
    synchronised by two lock pairs, N / n objects; `core` (default Tile(0, 2)) holds all of it. With
    `configured`, the Flows have no shim_symbol and the sequence programs the shim channels itself
    (dma_configure_task + bds + shim_dma_bd + EndOp, as dma_padding/tile_dma.py does). With `raw`, it
    writes the shim BDs and queues register by register (npu_writebd, npu_address_patch,
    npu_push_queue, npu_sync, as chaining_channels.py does) and opens the input lock itself
    (set_lock_value: the core's `in_prod` starts at 0). With `chained`, each shim task is a chain of
    two BDs joined by next_bd (aiex test/python/dma_tasks.py's form): the input sends a[N/2:] then
    a[:N/2]; the output writes N/4 elements per BD at offsets 0 and N/4, each BD's iteration
    advancing by N/2 per pass, the chain run twice (repeat_count=1)."""
    shim, core = Tile(0, 0), core or Tile(0, 2)
    tile_ty = np.ndarray[(n,), np.dtype[np.int32]]
    vec_ty = np.ndarray[(N,), np.dtype[np.int32]]
    buf_in, buf_out = Buffer(type=tile_ty, name="buf_in"), Buffer(type=tile_ty, name="buf_out")
    in_prod, in_cons = Lock(core, init=0 if raw else 1, name="in_prod"), Lock(core, init=0, name="in_cons")
    out_prod, out_cons = Lock(core, init=1, name="out_prod"), Lock(core, init=0, name="out_cons")
    flows = ([Flow(shim, core), Flow(core, shim)] if configured or raw or chained
             else [Flow(shim, core, shim_symbol="sym_in"), Flow(core, shim, shim_symbol="sym_out")])
    dma = TileDma(core, [
        DmaChannel(DMAChannelDir.S2MM, 0, [Bd(buf_in, acquires=[Acquire(in_prod)], releases=[Release(in_cons)])]),
        DmaChannel(DMAChannelDir.MM2S, 0, [Bd(buf_out, acquires=[Acquire(out_cons)], releases=[Release(out_prod)])]),
    ])

    def body(bi, bo, ip, ic, op, oc):
        for _ in range_(N // n):
            ic.acquire()
            op.acquire()
            for i in range_(n):
                bo[i] = bi[i] + step
            ip.release()
            oc.release()

    w = Worker(body, [buf_in, buf_out, in_prod, in_cons, out_prod, out_cons], tile=core, while_true=False)

    def seq(a, c):
        if raw:
            from aie.dialects.aiex import npu_address_patch, npu_push_queue, npu_sync, npu_writebd, set_lock_value
            set_lock_value(in_prod, 1)
            for bd_id, arg in ((0, 1), (1, 0)):  # BD 0: S2MM into c (argument 1); BD 1: MM2S from a
                npu_writebd(bd_id=bd_id, buffer_length=N, buffer_offset=0, column=0, row=0, valid_bd=1)
                npu_address_patch(addr=0x1D004 + 0x20 * bd_id, arg_idx=arg, arg_plus=0)
            npu_push_queue(column=0, row=0, direction=0, channel=0, issue_token=True, repeat_count=0, bd_id=0)
            npu_push_queue(column=0, row=0, direction=1, channel=0, issue_token=False, repeat_count=0, bd_id=1)
            npu_sync(column=0, row=0, direction=0, channel=0)
            return
        if chained:
            from aie.dialects.aie import EndOp, dma_bd, next_bd
            from aie.dialects.aiex import bds, dma_configure_task, shim_dma_bd
            t_in = dma_configure_task(shim.op, DMAChannelDir.MM2S, 0)
            with bds(t_in) as bd:
                with bd[0]:
                    shim_dma_bd(a.op, offset=N // 2, sizes=[1, 1, 1, N // 2], strides=[0, 0, 0, 1])
                    next_bd(bd[1])
                with bd[1]:
                    dma_bd(a.op, offset=0, transfer_len=N // 2)
                    EndOp()
            t_out = dma_configure_task(shim.op, DMAChannelDir.S2MM, 0, issue_token=True, repeat_count=1)
            with bds(t_out) as bd:
                with bd[0]:
                    dma_bd(c.op, offset=0, sizes=[2, 1, 1, N // 4], strides=[N // 2, 0, 0, 1])
                    next_bd(bd[1])
                with bd[1]:
                    shim_dma_bd(c.op, offset=N // 4, sizes=[2, 1, 1, N // 4], strides=[N // 2, 0, 0, 1])
                    EndOp()
        elif configured:
            from aie.dialects.aie import EndOp
            from aie.dialects.aiex import bds, dma_configure_task, shim_dma_bd
            t_in = dma_configure_task(shim.op, DMAChannelDir.MM2S, 0)
            with bds(t_in) as bd:
                with bd[0]:
                    shim_dma_bd(a.op, offset=0, sizes=[1, 1, 1, N], strides=[0, 0, 0, 1])
                    EndOp()
            t_out = dma_configure_task(shim.op, DMAChannelDir.S2MM, 0, issue_token=True)
            with bds(t_out) as bd:
                with bd[0]:
                    shim_dma_bd(c.op, offset=0, sizes=[1, 1, 1, N], strides=[0, 0, 0, 1])
                    EndOp()
        else:
            t_in = shim_dma_single_bd_task("sym_in", a.op, sizes=[1, 1, 1, N])
            t_out = shim_dma_single_bd_task("sym_out", c.op, sizes=[1, 1, 1, N], issue_token=True)
        dma_start_task(t_in, t_out)
        dma_await_task(t_out)
        dma_free_task(t_in)

    rt = Runtime(seq, [vec_ty, vec_ty])
    for f in flows:
        rt.add_flow(f)
    for lk in (in_prod, in_cons, out_prod, out_cons):
        rt.add_lock(lk)
    rt.add_tile_dma(dma)
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def test_hand_written_dma_program_with_locks_runs():
    x, y = np.arange(N, dtype=np.int32) * 3, np.zeros(N, np.int32)
    run = npusim.simulate(_design(7), [x, y])
    assert np.array_equal(y, x + 7) and run.cycles > 0


def test_one_unplaced_tile_holds_the_worker_locks_and_dma_program():
    # One Tile(tile_type=CoreTile) object given to the Worker, the Locks, the TileDma and the Flows
    # is one logical tile (IRON: one aie.logical_tile per Tile object, placed by aie-place-tiles):
    # everything lands on one compute tile and the design runs as the pinned one does.
    from npusim.iron.enums import AIETileType
    x, y = np.arange(N, dtype=np.int32), np.zeros(N, np.int32)
    run = npusim.simulate(_design(5, Tile(tile_type=AIETileType.CoreTile)), [x, y])
    assert np.array_equal(y, x + 5) and run.cycles > 0


def test_a_shim_channel_programmed_with_dma_configure_task_and_bds():
    x = np.arange(N, dtype=np.int32) * 3
    y, y_sym = np.zeros(N, np.int32), np.zeros(N, np.int32)
    run = npusim.simulate(_design(7, configured=True), [x, y])
    assert np.array_equal(y, x + 7)
    assert run.cycles == npusim.simulate(_design(7), [x, y_sym]).cycles  # the same single-BD shim tasks


def test_a_shim_task_of_chained_bds_from_dma_configure_task_next_bd_and_repeat_count():
    x = np.arange(N, dtype=np.int32) * 3
    y = np.zeros(N, np.int32)
    run = npusim.simulate(_design(7, chained=True), [x, y])
    assert np.array_equal(y, np.roll(x, -N // 2) + 7)  # byte-exact: the chain's order, iteration and repeat
    assert run.cycles > 0


def test_a_register_level_runtime_sequence_writes_bds_patches_addresses_and_syncs():
    x = np.arange(N, dtype=np.int32) * 5
    y = np.zeros(N, np.int32)
    run = npusim.simulate(_design(2, raw=True), [x, y])
    assert np.array_equal(y, x + 2) and run.cycles > 0
    from aie.dialects.aiex import npu_writebd, set_lock_value
    with pytest.raises(NotImplementedError, match=r"npu_writebd\(no_such_field=\) is not a field npusim knows"):
        npu_writebd(bd_id=0, no_such_field=1)
    with pytest.raises(NotImplementedError, match="set_lock_value on 'lock op': npusim serves it on an aie.iron Lock"):
        set_lock_value("lock op", 1)


def test_dma_configure_task_forms_npusim_does_not_serve_say_which():
    from aie.dialects.aiex import bds, dma_configure_task, shim_dma_bd
    import aie.dialects.aie as aie_dialect

    with pytest.raises(NotImplementedError, match=r"dma_configure_task on Tile\(0, 2\): npusim serves it on a pinned "
                                                  "shim tile"):
        dma_configure_task(Tile(0, 2), DMAChannelDir.MM2S, 0)
    with pytest.raises(NotImplementedError, match=r"dma_configure_task\(priority\) is not supported"):
        dma_configure_task(Tile(0, 0), DMAChannelDir.MM2S, 0, priority=2)
    t = dma_configure_task(Tile(0, 0), DMAChannelDir.MM2S, 0)
    # A chain that loops never completes on a shim channel (hardware would run it forever).
    with pytest.raises(NotImplementedError, match=r"aiex.bds: the chain of BD blocks loops back to bd\[0\]"):
        with bds(t) as bd:
            with bd[0]:
                aie_dialect.next_bd(bd[1])
            with bd[1]:
                aie_dialect.next_bd(bd[0])
    t = dma_configure_task(Tile(0, 0), DMAChannelDir.MM2S, 0)
    with pytest.raises(NotImplementedError, match=r"aiex.bds: bd\[0\] holds no shim_dma_bd / dma_bd"):
        with bds(t) as bd:
            with bd[0]:
                aie_dialect.EndOp()
    with pytest.raises(NotImplementedError, match="shim_dma_bd outside `with bds"):
        shim_dma_bd("mem")
    # Outside a runtime task's blocks, next_bd is a hand-made DMA program's (aie_ops), which wants a block.
    with pytest.raises(npusim.DesignError, match=r"aie.next_bd"):
        aie_dialect.next_bd(None)
    # switchbox / shim_mux / connect are served (test_switchbox.py); the other op builders are not.
    with pytest.raises(NotImplementedError, match="aie.dialects.aie.tile is not supported by npusim"):
        aie_dialect.tile


def test_unmodelled_low_level_pieces_say_which():
    with pytest.raises(NotImplementedError, match=r"Flow\(src_port/dst_port=WireBundle.North\) is not supported"):
        Flow(Tile(0, 0), Tile(0, 2), src_port=WireBundle.North)
    with pytest.raises(NotImplementedError, match="aie.dialects.aiex.npu_rtp_write is not supported by npusim"):
        from npusim.iron import aiex
        aiex.npu_rtp_write
    with pytest.raises(npusim.DesignError, match=r"test_lowlevel.py:\d+: Lock 'l'.acquire\(\) outside a worker body"):
        Lock(Tile(0, 2), name="l").acquire()
