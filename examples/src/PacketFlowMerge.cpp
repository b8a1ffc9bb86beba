// packet_flow_merge: two streams merged onto one DMA port by packet switching, after mlir-aie's
// test/npu-xrt packet-flow tests and programming_examples/basic/packet_switch (IRON PacketFlow,
// Bd(packet=...), TileDma, Lock, Flow). The shim's MM2S 0 and 1 stream `a` and `b` (Flows
// "in0"/"in1") into the compute tile's S2MM 0 and 1; its MM2S 0 sends each filled buffer of `a`
// as a packet with id 3, its MM2S 1 each of `b` with id 7, both PacketFlows ending at the shim's
// S2MM 0 (shim_symbol "out"), which writes `c`. The BDs' locks alternate the two senders (a tile
// of `a`, then one of `b`), so `c` is their tiles interleaved; the destination drops each header
// word unless keep_header=1 (PacketFlow keep_pkt_header), when every tile is preceded by it.
#include "Design.hpp"

#include <bit>

namespace npusim::examples {

using namespace npusim::iron;

namespace {
// The header word as the AIE2 stream switch forms it (independent of model::packet_header):
// id 4:0, type 14:12, source row 20:16, column 27:21, bit 31 odd parity.
std::int32_t header_word(int id, int type, int col, int row) {
    std::uint32_t h = static_cast<std::uint32_t>(id) | static_cast<std::uint32_t>(type) << 12 |
                      static_cast<std::uint32_t>(row) << 16 | static_cast<std::uint32_t>(col) << 21;
    int ones = 0;
    for (std::uint32_t x = h; x; x >>= 1) ones += static_cast<int>(x & 1u);
    if (ones % 2 == 0) h |= 0x80000000u;
    return std::bit_cast<std::int32_t>(h);
}
} // namespace

DesignSpec make_packet_flow_merge() {
    DesignSpec s;
    s.name = "packet_flow_merge";
    s.description = "low-level API: two PacketFlows merge two tile DMA streams onto one shim port";
    s.params = {{"size", 2048, "i32 elements in each input tensor"},
                {"tile", 256, "i32 elements per packet (compute-tile buffer)"},
                {"keep_header", 0, "1: the destination keeps each packet's header word (keep_pkt_header)"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: DMAs only";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        require_multiple("packet_flow_merge", p, "size", "tile");
        const auto size = p.at("size");
        const auto tile = p.at("tile");
        const bool keep = p.at("keep_header") != 0;
        const auto in_ty = tensor<std::int32_t>({size});
        const auto out_ty = tensor<std::int32_t>({2 * size + (keep ? 2 * (size / tile) : 0)});
        const auto tile_ty = tensor<std::int32_t>({tile});
        const Tile shim(0, 0), core(0, 2);

        Buffer a_buf(tile_ty, "a_buf", {}, core), b_buf(tile_ty, "b_buf", {}, core);
        // a_empty -> (S2MM 0) a_full -> (MM2S 0, packet 3) b_turn -> (S2MM 1) b_full -> (MM2S 1,
        // packet 7) a_empty: one tile of a, then one of b.
        Lock a_empty(core, std::nullopt, 1, "a_empty"), a_full(core, std::nullopt, 0, "a_full");
        Lock b_turn(core, std::nullopt, 0, "b_turn"), b_full(core, std::nullopt, 0, "b_full");
        TileDma dma(core,
                    {DmaChannel{.direction = DMAChannelDir::S2MM,
                                .channel = 0,
                                .bds = {Bd{.buffer = a_buf, .acquires = {{a_empty}}, .releases = {{a_full}}}}},
                     DmaChannel{.direction = DMAChannelDir::S2MM,
                                .channel = 1,
                                .bds = {Bd{.buffer = b_buf, .acquires = {{b_turn}}, .releases = {{b_full}}}}},
                     DmaChannel{.direction = DMAChannelDir::MM2S,
                                .channel = 0,
                                .bds = {Bd{.buffer = a_buf,
                                           .acquires = {{a_full}},
                                           .releases = {{b_turn}},
                                           .packet = BdPacket{.pkt_type = 0, .pkt_id = 3}}}},
                     DmaChannel{.direction = DMAChannelDir::MM2S,
                                .channel = 1,
                                .bds = {Bd{.buffer = b_buf,
                                           .acquires = {{b_full}},
                                           .releases = {{a_empty}},
                                           .packet = BdPacket{.pkt_type = 0, .pkt_id = 7}}}}},
                    "merge_dma");
        Flow in0(shim, core, {.src_channel = 0, .dst_channel = 0, .shim_symbol = "in0"});
        Flow in1(shim, core, {.src_channel = 1, .dst_channel = 1, .shim_symbol = "in1"});
        PacketFlow out_a(3, core, shim, {.src_channel = 0, .keep_pkt_header = keep, .shim_symbol = "out"});
        PacketFlow out_b(7, core, shim, {.src_channel = 1, .keep_pkt_header = keep, .shim_symbol = "out"});

        Runtime rt(
            [](RuntimeData a, RuntimeData b, RuntimeData c) {
                const Task ta = shim_dma_single_bd_task("in0", a);
                const Task tb = shim_dma_single_bd_task("in1", b);
                const Task tc = shim_dma_single_bd_task("out", c, {.issue_token = true});
                dma_start_task(ta);
                dma_start_task(tb);
                dma_start_task(tc);
                dma_await_task(tc);
                dma_free_task(ta);
                dma_free_task(tb);
            },
            fn_args(in_ty, in_ty, out_ty));
        rt.add_flow(in0);
        rt.add_flow(in1);
        rt.add_flow(out_a);
        rt.add_flow(out_b);
        for (const auto& l : {a_empty, a_full, b_turn, b_full}) rt.add_lock(l);
        rt.add_tile_dma(dma);

        std::mt19937 gen(static_cast<std::uint32_t>(o.seed));
        std::uniform_int_distribution<std::int32_t> dist(-1000000, 1000000);
        std::vector<std::int32_t> a(static_cast<std::size_t>(size)), b(a.size());
        for (auto& x : a) x = dist(gen);
        for (auto& x : b) x = dist(gen);
        auto reference = [size, tile, keep, out_ty](const Tensors& in) {
            const auto ta = get(in, "a").values<std::int32_t>();
            const auto tb = get(in, "b").values<std::int32_t>();
            std::vector<std::int32_t> c;
            for (std::int64_t t = 0; t < size / tile; ++t)
                for (const auto& [src, id] : {std::pair{&ta, 3}, std::pair{&tb, 7}}) {
                    if (keep) c.push_back(header_word(id, 0, 0, 2));
                    for (std::int64_t i = 0; i < tile; ++i) c.push_back((*src)[static_cast<std::size_t>(t * tile + i)]);
                }
            return tensors("c", Tensor::from(out_ty.shape, c));
        };
        return DesignInstance(Program(dev, rt, {}, "packet_flow_merge"),
                              {ArgSpec::input("a", in_ty), ArgSpec::input("b", in_ty), ArgSpec::output("c", out_ty)},
                              tensors("a", Tensor::from(in_ty.shape, a), "b", Tensor::from(in_ty.shape, b)), reference,
                              "packet_flow_merge");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_packet_flow_merge, 230);

} // namespace npusim::examples
