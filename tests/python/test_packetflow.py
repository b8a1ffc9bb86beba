"""IRON's PacketFlow / PacketDest and packet headers from Python (python/iron/dataflow/flow.py and
tile_dma.py at 3ca0193): Bd(packet=(type, id)), a shim MM2S packet source whose task stamps the
header (shim_dma_single_bd_task(packet=) and dma_configure_task + shim_dma_bd(packet=), as
basic/packet_switch's sequence writes it), and the errors: outputs against numpy."""
import numpy as np
import pytest

import npusim
import npusim.iron as iron
from aie.dialects.aie import EndOp
from aie.dialects.aiex import bds, dma_await_task, dma_configure_task, dma_start_task, shim_dma_bd
from aie.iron import (Acquire, Bd, Buffer, DmaChannel, Flow, Lock, PacketDest, PacketFlow, Program, Release, Runtime,
                      TileDma, Worker)
from aie.iron.controlflow import range_
from aie.iron.device import Tile
from npusim.iron.enums import DMAChannelDir, WireBundle
from conftest import EXAMPLES

N = 64


def _shim_packet_design(task_packet=(0, 5), keep=False, flow_id=5):
    """The shim's MM2S 0 sends `a` as one packet (id 5) on PacketFlow(5, shim, core); the core adds 1
    and a Flow takes the result back to the shim's S2MM 0. With keep, the core's buffer receives the
    header word first (N + 1 elements) and the body copies it too."""
    shim, core = Tile(0, 0), Tile(0, 2)
    m = N + (1 if keep else 0)
    vec_ty = np.ndarray[(N,), np.dtype[np.int32]]
    buf_ty = np.ndarray[(m,), np.dtype[np.int32]]
    bi, bo = Buffer(type=buf_ty, name="bi", tile=core), Buffer(type=buf_ty, name="bo", tile=core)
    ip, ic = Lock(core, init=1, name="ip"), Lock(core, init=0, name="ic")
    op, oc = Lock(core, init=1, name="op"), Lock(core, init=0, name="oc")
    dma = TileDma(core, [
        DmaChannel(DMAChannelDir.S2MM, 0, [Bd(bi, acquires=[Acquire(ip)], releases=[Release(ic)])]),
        DmaChannel(DMAChannelDir.MM2S, 0, [Bd(bo, offset=m - N, length=N, acquires=[Acquire(oc)],
                                              releases=[Release(op)])]),
    ])

    def body(b_in, b_out, l_ip, l_ic, l_op, l_oc):
        l_ic.acquire()
        l_op.acquire()
        for i in range_(m):
            b_out[i] = b_in[i] + 1
        l_ip.release()
        l_oc.release()

    w = Worker(body, [bi, bo, ip, ic, op, oc], tile=core, while_true=False)

    def seq(a, c):
        t_in = dma_configure_task(shim.op, DMAChannelDir.MM2S, 0)
        with bds(t_in) as bd:
            with bd[0]:
                shim_dma_bd(a.op, offset=0, sizes=[1, 1, 1, N], strides=[0, 0, 0, 1], packet=task_packet)
                EndOp()
        t_out = dma_configure_task(shim.op, DMAChannelDir.S2MM, 0, issue_token=True)
        with bds(t_out) as bd:
            with bd[0]:
                shim_dma_bd(c.op, offset=0, sizes=[1, 1, 1, N], strides=[0, 0, 0, 1])
                EndOp()
        dma_start_task(t_in, t_out)
        dma_await_task(t_out)

    rt = Runtime(seq, [vec_ty, vec_ty])
    rt.add_flow(PacketFlow(flow_id, shim, core, keep_pkt_header=keep))
    rt.add_flow(Flow(core, shim))
    for lk in (ip, ic, op, oc):
        rt.add_lock(lk)
    rt.add_tile_dma(dma)
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


@pytest.mark.timeout(30)
@pytest.mark.parametrize("keep", [False, True])
def test_a_shim_task_stamps_the_packet_header_its_packet_flow_routes(keep):
    a = np.random.default_rng(1).integers(-10**6, 10**6, N, dtype=np.int32)
    c = np.zeros_like(a)
    program = _shim_packet_design(keep=keep)
    npusim.simulate(program, [a, c])
    assert np.array_equal(c, a + 1)  # the header, when kept, stays in the core's buffer before the data


def test_packet_flows_print_in_the_mlir_export():
    import sys
    sys.path.insert(0, EXAMPLES)
    try:
        import packet_flow_merge as mod
    finally:
        sys.path.remove(EXAMPLES)
    a = np.zeros(512, dtype=np.int32)
    for keep in (False, True):
        c = np.zeros(1024 + (4 if keep else 0), dtype=np.int32)
        text = str(mod.packet_flow_merge.build(a, a, c, tile=256, keep_header=keep)[0])
        assert "aie.packet_flow(3)" in text and "aie.packet_flow(7)" in text
        assert "aie.dma_bd_packet(0, 3)" in text
        assert ("keep_pkt_header = true" in text) == keep


def test_a_shim_task_whose_packet_no_flow_routes_is_refused_at_its_line():
    with pytest.raises(npusim.DesignError, match=r"test_packetflow.py:\d+: .*its packet id 6 matches no PacketFlow from \(0,0\) MM2S 0"):
        _shim_packet_design(task_packet=(0, 6))


def test_packet_arguments_that_are_not_served_or_not_pairs_say_which():
    core, shim = Tile(0, 2), Tile(0, 0)
    with pytest.raises(NotImplementedError, match=r"test_packetflow.py:\d+: PacketFlow\(port=.*North"):
        PacketFlow(1, core, shim, src_port=WireBundle.North)
    with pytest.raises(NotImplementedError, match=r"PacketFlow\(port="):
        PacketFlow(1, core, shim, extra_dsts=[PacketDest(Tile(0, 3), port=WireBundle.Core)])
    buf = Buffer(type=np.ndarray[(N,), np.dtype[np.int32]], name="b", tile=core)
    with pytest.raises(npusim.DesignError, match=r"test_packetflow.py:\d+: packet=5 is not a \(pkt_type, pkt_id\) pair"):
        TileDma(core, [DmaChannel(DMAChannelDir.MM2S, 0, [Bd(buf, packet=5)])])


def test_packet_flow_and_its_peers_are_served_where_iron_exports_them():
    import aie.iron.dataflow as dataflow
    assert dataflow.PacketFlow is iron.PacketFlow and dataflow.PacketDest is iron.PacketDest
    assert dataflow.TileDma is iron.TileDma and dataflow.Flow is iron.Flow
    assert PacketFlow(9, Tile(0, 2), Tile(0, 0)).pkt_id == 9


def _dispatch_design(task_id, via_mem=False):
    """basic/packet_switch's routing without its mem tile: the shim's MM2S 0 feeds PacketFlows 0 and 1
    to two compute tiles, and the id the task stamps decides which one gets the data; tile (0,2) adds
    1, tile (0,3) adds 1000, and both answer on PacketFlows 4 and 6 merged onto the shim's S2MM 0.
    via_mem: with its mem tile, as packet_switch has it: the shim's packet goes to the mem tile
    (keep_pkt_header, a buffer one word longer), whose MM2S 0 forwards the buffer with a Bd without
    packet=, so the kept header routes it on to the core its id names."""
    shim = Tile(0, 0)
    vec_ty = np.ndarray[(N,), np.dtype[np.int32]]
    rt_flows, locks, dmas, workers = [], [], [], []
    src = shim
    if via_mem:
        src = mem = Tile(0, 1)
        mb = Buffer(type=np.ndarray[(N + 1,), np.dtype[np.int32]], name="mb", tile=mem)
        mp, mc = Lock(mem, init=1, name="mp"), Lock(mem, init=0, name="mc")
        dmas.append(TileDma(mem, [
            DmaChannel(DMAChannelDir.S2MM, 0, [Bd(mb, acquires=[Acquire(mp)], releases=[Release(mc)])]),
            DmaChannel(DMAChannelDir.MM2S, 0, [Bd(mb, acquires=[Acquire(mc)], releases=[Release(mp)])]),
        ]))
        locks += [mp, mc]
        rt_flows += [PacketFlow(i, shim, mem, keep_pkt_header=True) for i in (0, 1)]
    for pkt_in, pkt_out, row, step in ((0, 4, 2, 1), (1, 6, 3, 1000)):
        core = Tile(0, row)
        bi, bo = Buffer(type=vec_ty, name=f"bi{row}", tile=core), Buffer(type=vec_ty, name=f"bo{row}", tile=core)
        ip, ic = Lock(core, init=1, name=f"ip{row}"), Lock(core, init=0, name=f"ic{row}")
        op, oc = Lock(core, init=1, name=f"op{row}"), Lock(core, init=0, name=f"oc{row}")
        dmas.append(TileDma(core, [
            DmaChannel(DMAChannelDir.S2MM, 0, [Bd(bi, acquires=[Acquire(ip)], releases=[Release(ic)])]),
            DmaChannel(DMAChannelDir.MM2S, 0, [Bd(bo, acquires=[Acquire(oc)], releases=[Release(op)],
                                                  packet=(0, pkt_out))]),
        ]))

        def body(b_in, b_out, l_ip, l_ic, l_op, l_oc, step=step):
            l_ic.acquire()
            l_op.acquire()
            for i in range_(N):
                b_out[i] = b_in[i] + step
            l_ip.release()
            l_oc.release()

        workers.append(Worker(body, [bi, bo, ip, ic, op, oc], tile=core))
        locks += [ip, ic, op, oc]
        rt_flows += [PacketFlow(pkt_in, src, core), PacketFlow(pkt_out, core, shim)]

    def seq(a, c):
        t_in = dma_configure_task(shim.op, DMAChannelDir.MM2S, 0)
        with bds(t_in) as bd:
            with bd[0]:
                shim_dma_bd(a.op, sizes=[1, 1, 1, N], packet=(0, task_id))
                EndOp()
        t_out = dma_configure_task(shim.op, DMAChannelDir.S2MM, 0, issue_token=True)
        with bds(t_out) as bd:
            with bd[0]:
                shim_dma_bd(c.op, sizes=[1, 1, 1, N])
                EndOp()
        dma_start_task(t_in, t_out)
        dma_await_task(t_out)

    rt = Runtime(seq, [vec_ty, vec_ty])
    for f in rt_flows:
        rt.add_flow(f)
    for lk in locks:
        rt.add_lock(lk)
    for d in dmas:
        rt.add_tile_dma(d)
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


@pytest.mark.timeout(30)
def test_the_packet_id_a_shim_task_stamps_chooses_the_core_that_gets_the_data():
    a = np.arange(N, dtype=np.int32) * 3
    for task_id, step in ((0, 1), (1, 1000)):
        c = np.zeros_like(a)
        run = npusim.simulate(_dispatch_design(task_id), [a, c])
        assert np.array_equal(c, a + step), task_id
        # only the addressed core ran its body; the other waits for data that never comes
        assert sorted(core["body_cycles"] > 0 for core in run.cores) == [False, True]


@pytest.mark.timeout(30)
def test_a_mem_tile_forwards_a_kept_header_packet_to_the_core_its_id_names():
    a = np.arange(N, dtype=np.int32) * 5 - 17
    for task_id, step in ((0, 1), (1, 1000)):
        c = np.zeros_like(a)
        run = npusim.simulate(_dispatch_design(task_id, via_mem=True), [a, c])
        assert np.array_equal(c, a + step), task_id
        assert sorted(core["body_cycles"] > 0 for core in run.cores) == [False, True]
