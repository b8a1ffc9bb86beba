#include "support/PacketForward.hpp"

namespace npusim::test {

using namespace npusim::iron;

namespace {

// (0,2)/(0,3): S2MM 0 fills `buf`, MM2S 0 streams it back, handed over by two locks.
TileDma bounce_dma(Tile core, const TensorType& ty, const std::string& name, Runtime& rt) {
    Buffer buf(ty, name + "_buf", {}, core);
    Lock empty(core, 0, 1, name + "_empty"), full(core, 1, 0, name + "_full");
    rt.add_lock(empty);
    rt.add_lock(full);
    return TileDma(core,
                   {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = buf, .acquires = {{empty}}, .releases = {{full}}}}},
                    DmaChannel{DMAChannelDir::MM2S, 0, {Bd{.buffer = buf, .acquires = {{full}}, .releases = {{empty}}}}}},
                   name + "_dma");
}

} // namespace

Program packet_forward(const PacketForwardOptions& o) {
    const Tile shim(0, 0), mem(0, 1), c2(0, 2), c3(0, 3);
    const auto data = tensor<std::int32_t>({o.n}), kept = tensor<std::int32_t>({o.n + 1});
    Runtime rt(
        [o](RuntimeData a, RuntimeData b, RuntimeData c, RuntimeData d) {
            const Task ta = shim_dma_single_bd_task("in", a, {.packet = BdPacket{0, o.id_a}});
            const Task tb = shim_dma_single_bd_task("in", b, {.packet = BdPacket{0, o.id_b}});
            const Task tc = shim_dma_single_bd_task("out2", c, {.issue_token = true});
            const Task td = shim_dma_single_bd_task("out3", d, {.issue_token = true});
            dma_start_task(ta);
            dma_start_task(tb);
            dma_start_task(tc);
            dma_start_task(td);
            dma_await_task(tc);
            dma_await_task(td);
            dma_free_task(ta);
            dma_free_task(tb);
        },
        fn_args(data, data, o.keep_at_core ? kept : data, data));
    // Into the mem tile, header kept; on from it by the kept header's id.
    rt.add_flow(PacketFlow(1, shim, mem, {.keep_pkt_header = true, .shim_symbol = "in"}));
    rt.add_flow(PacketFlow(2, shim, mem, {.keep_pkt_header = true}));
    if (o.id3_to_mem_only) rt.add_flow(PacketFlow(3, shim, mem, {.keep_pkt_header = true}));
    rt.add_flow(PacketFlow(1, mem, c2, {.keep_pkt_header = o.keep_at_core}));
    rt.add_flow(PacketFlow(2, mem, c3));
    rt.add_flow(Flow(c2, shim, {.shim_symbol = "out2"}));
    rt.add_flow(Flow(c3, shim, {.dst_channel = 1, .shim_symbol = "out3"}));
    Buffer mbuf(kept, "mem_buf", {}, mem);
    Lock prod(mem, 0, 1, "mem_prod"), cons(mem, 1, 0, "mem_cons");
    rt.add_lock(prod);
    rt.add_lock(cons);
    // The forwarding BD has no packet of its own: the header word at mem_buf[0] is the packet's.
    rt.add_tile_dma(TileDma(
        mem,
        {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = mbuf, .acquires = {{prod}}, .releases = {{cons}}}}},
         DmaChannel{DMAChannelDir::MM2S, 0, {Bd{.buffer = mbuf, .acquires = {{cons}}, .releases = {{prod}}}}}},
        "mem_dma"));
    rt.add_tile_dma(bounce_dma(c2, o.keep_at_core ? kept : data, "c2", rt));
    rt.add_tile_dma(bounce_dma(c3, data, "c3", rt));
    return Program(o.device, rt, {}, "packet_forward");
}

} // namespace npusim::test
