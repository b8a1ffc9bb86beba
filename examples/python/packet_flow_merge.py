# Two streams merged onto one shim port by packet switching, as an IRON Python design in the style of
# mlir-aie's basic/packet_switch: Buffers, Locks, Flows, PacketFlows and a TileDma, no worker. The
# shim's MM2S 0 and 1 stream `a` and `b` (Flows "in0" and "in1") into the compute tile's S2MM 0 and
# 1; its MM2S 0 sends each filled tile of `a` as a packet with id 3, its MM2S 1 each tile of `b` with
# id 7 (Bd(packet=(0, id))), and both PacketFlows end at the shim's S2MM 0 (shim symbol "out"),
# which writes `c`. The BDs' locks alternate the two senders, a tile of `a` then one of `b`, so `c`
# is their tiles interleaved; with keep_header=True (PacketFlow keep_pkt_header) every tile is
# preceded by its packet's header word.
# The C++ twin: npusim run packet_flow_merge.
import numpy as np

import aie.iron as iron
from aie.dialects._aie_enum_gen import DMAChannelDir
from aie.dialects.aiex import dma_await_task, dma_free_task, dma_start_task, shim_dma_single_bd_task
from aie.iron import (Acquire, Bd, Buffer, CompileTime, DmaChannel, Flow, In, Lock, Out, PacketFlow, Program,
                      Release, Runtime, TileDma)
from aie.iron.device import Tile
from aie.utils.verify import assert_pass

IDS = (3, 7)  # the packet ids of a's and b's tiles


def header_word(pkt_id, pkt_type=0, col=0, row=2):
    """The header word the stream switch forms: id 4:0, type 14:12, source row 20:16, column 27:21,
    bit 31 odd parity (over all 32 bits)."""
    h = pkt_id | pkt_type << 12 | row << 16 | col << 21
    if bin(h).count("1") % 2 == 0:
        h |= 1 << 31
    return np.array([h], dtype=np.uint32).view(np.int32)[0]


def golden(a, b, tile, keep_header=False):
    parts = []
    for t in range(a.size // tile):
        for src, pkt_id in ((a, IDS[0]), (b, IDS[1])):
            if keep_header:
                parts.append(np.array([header_word(pkt_id)], dtype=np.int32))
            parts.append(src[t * tile:(t + 1) * tile])
    return np.concatenate(parts)


@iron.jit
def packet_flow_merge(a: In, b: In, c: Out, *, tile: CompileTime[int] = 256, keep_header: CompileTime[bool] = False):
    size = a.numel()
    if size % tile:
        raise ValueError(f"tile={tile} must divide the tensors' {size} elements")
    in_ty = np.ndarray[(size,), np.dtype[np.int32]]
    out_ty = np.ndarray[(2 * size + (2 * (size // tile) if keep_header else 0),), np.dtype[np.int32]]
    tile_ty = np.ndarray[(tile,), np.dtype[np.int32]]
    shim, core = Tile(0, 0), Tile(0, 2)

    a_buf = Buffer(type=tile_ty, name="a_buf", tile=core)
    b_buf = Buffer(type=tile_ty, name="b_buf", tile=core)
    # a_empty -> (S2MM 0) a_full -> (MM2S 0, packet 3) b_turn -> (S2MM 1) b_full -> (MM2S 1, packet 7)
    # -> a_empty: one tile of a, then one of b.
    a_empty, a_full = Lock(core, init=1, name="a_empty"), Lock(core, init=0, name="a_full")
    b_turn, b_full = Lock(core, init=0, name="b_turn"), Lock(core, init=0, name="b_full")
    dma = TileDma(core, [
        DmaChannel(DMAChannelDir.S2MM, 0, [Bd(a_buf, acquires=[Acquire(a_empty)], releases=[Release(a_full)])]),
        DmaChannel(DMAChannelDir.S2MM, 1, [Bd(b_buf, acquires=[Acquire(b_turn)], releases=[Release(b_full)])]),
        DmaChannel(DMAChannelDir.MM2S, 0, [Bd(a_buf, acquires=[Acquire(a_full)], releases=[Release(b_turn)],
                                              packet=(0, IDS[0]))]),
        DmaChannel(DMAChannelDir.MM2S, 1, [Bd(b_buf, acquires=[Acquire(b_full)], releases=[Release(a_empty)],
                                              packet=(0, IDS[1]))]),
    ])

    def sequence(a_in, b_in, c_out):
        ta = shim_dma_single_bd_task("in0", a_in.op)
        tb = shim_dma_single_bd_task("in1", b_in.op)
        tc = shim_dma_single_bd_task("out", c_out.op, issue_token=True)
        dma_start_task(ta)
        dma_start_task(tb)
        dma_start_task(tc)
        dma_await_task(tc)
        dma_free_task(ta)
        dma_free_task(tb)

    rt = Runtime(sequence, [in_ty, in_ty, out_ty])
    rt.add_flow(Flow(shim, core, src_channel=0, dst_channel=0, shim_symbol="in0"))
    rt.add_flow(Flow(shim, core, src_channel=1, dst_channel=1, shim_symbol="in1"))
    rt.add_flow(PacketFlow(IDS[0], core, shim, src_channel=0, keep_pkt_header=keep_header, shim_symbol="out"))
    rt.add_flow(PacketFlow(IDS[1], core, shim, src_channel=1, keep_pkt_header=keep_header, shim_symbol="out"))
    for lock in (a_empty, a_full, b_turn, b_full):
        rt.add_lock(lock)
    rt.add_tile_dma(dma)
    return Program(iron.get_current_device(), rt).resolve_program()


def main():
    size, tile = 2048, 256
    rng = np.random.default_rng(6)
    a = iron.tensor(rng.integers(-10**6, 10**6, size, dtype=np.int32))
    b = iron.tensor(rng.integers(-10**6, 10**6, size, dtype=np.int32))
    c = iron.zeros(2 * size, dtype=np.int32)
    run = packet_flow_merge(a, b, c, tile=tile)
    assert_pass(c.numpy(), golden(a.numpy(), b.numpy(), tile), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
