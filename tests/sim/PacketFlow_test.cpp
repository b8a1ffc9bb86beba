// Packet-switched flows in simulation (sim/src/PacketSwitch.cpp): whole packets from several
// senders arbitrated round-robin onto one destination port, the header word dropped or kept
// (keep_pkt_header), and a packet delivered to every destination of its route (extra_dsts).
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace npusim;
using namespace npusim::iron;

namespace {
const Tile kShim(0, 0), kCore(0, 2);

// The header word computed here from the AIE2 layout (not model::packet_header): id 4:0, type
// 14:12, source row 20:16, column 27:21, bit 31 odd parity over the word.
std::uint32_t expected_header(std::uint32_t id, std::uint32_t type, std::uint32_t col, std::uint32_t row) {
    std::uint32_t h = id | type << 12 | row << 16 | col << 21;
    int ones = 0;
    for (int b = 0; b < 31; ++b) ones += (h >> b) & 1;
    return ones % 2 == 0 ? h | 0x80000000u : h;
}

std::vector<std::int32_t> words(const std::vector<std::uint8_t>& bytes) {
    std::vector<std::int32_t> w(bytes.size() / 4);
    std::memcpy(w.data(), bytes.data(), bytes.size());
    return w;
}

Bd one_shot(const std::string& name, std::int32_t first, int id, int next) {
    std::vector<std::int32_t> v(4);
    for (int i = 0; i < 4; ++i) v[static_cast<std::size_t>(i)] = first + i;
    return Bd{.buffer = Buffer::with_values(tensor<std::int32_t>({4}), name, v, kCore),
              .next = next,
              .packet = BdPacket{.pkt_type = 2, .pkt_id = id}};
}
} // namespace

TEST_CASE("two senders contending for one port alternate whole packets, headers kept", "[sim][packet]") {
    // MM2S 0 sends packets A0, A1 (id 5), MM2S 1 sends B0, B1 (id 9), both at once: round-robin
    // grants A0, B0, A1, B1, each with its header (keep_pkt_header) before its 4 data words.
    const auto out_ty = tensor<std::int32_t>({4 * 5});
    TileDma dma(kCore,
                {DmaChannel{DMAChannelDir::MM2S, 0, {one_shot("a0", 100, 5, 1), one_shot("a1", 110, 5, Bd::none)}},
                 DmaChannel{DMAChannelDir::MM2S, 1, {one_shot("b0", 200, 9, 1), one_shot("b1", 210, 9, Bd::none)}}},
                "tx");
    Runtime rt(
        [](RuntimeData c) {
            const Task t = shim_dma_single_bd_task("out", c, {.issue_token = true});
            dma_start_task(t);
            dma_await_task(t);
        },
        fn_args(out_ty));
    rt.add_flow(PacketFlow(5, kCore, kShim, {.keep_pkt_header = true, .shim_symbol = "out"}));
    rt.add_flow(PacketFlow(9, kCore, kShim, {.src_channel = 1, .keep_pkt_header = true}));
    rt.add_tile_dma(dma);
    const auto net = Program("npu1_1col", rt, {}, "rr").resolve();
    const auto r = sim::simulate(net, {std::vector<std::uint8_t>(out_ty.bytes())}, {});
    const auto ha = static_cast<std::int32_t>(expected_header(5, 2, 0, 2));
    const auto hb = static_cast<std::int32_t>(expected_header(9, 2, 0, 2));
    CHECK(words(r.host[0]) == std::vector<std::int32_t>{ha, 100, 101, 102, 103, hb, 200, 201, 202, 203,
                                                        ha, 110, 111, 112, 113, hb, 210, 211, 212, 213});
    CHECK(model::packet_header(5, 2, {0, 2}) == expected_header(5, 2, 0, 2));
    CHECK(model::packet_header(31, 7, {7, 5}) == expected_header(31, 7, 7, 5));
}

TEST_CASE("a packet reaches every destination of its route and its header is dropped", "[sim][packet]") {
    // PacketFlow id 4 from (0,2) MM2S 0 to the shim's S2MM 0 and, by extra_dsts, the shim's
    // S2MM 1: both get the data words only.
    const auto ty = tensor<std::int32_t>({8});
    TileDma dma(kCore, {DmaChannel{DMAChannelDir::MM2S, 0, {one_shot("p0", 7, 4, 1), one_shot("p1", 70, 4, Bd::none)}}},
                "tx");
    Runtime rt(
        [](RuntimeData c, RuntimeData d) {
            const Task t = shim_dma_single_bd_task("out", c, {.issue_token = true});
            const Task u = shim_dma_single_bd_task("out2", d, {.issue_token = true});
            dma_start_task(t);
            dma_start_task(u);
            dma_await_task(t);
            dma_await_task(u);
        },
        fn_args(ty, ty));
    rt.add_flow(PacketFlow(4, kCore, kShim, {.extra_dsts = {PacketDest{kShim, 1}}, .shim_symbol = "out"}));
    rt.add_flow(PacketFlow(4, kCore, kShim, {.dst_channel = 1, .shim_symbol = "out2"}));
    rt.add_tile_dma(dma);
    const auto net = Program("npu1_1col", rt, {}, "bc").resolve();
    REQUIRE(net.packet_flows.size() == 1);
    const auto r = sim::simulate(net, {std::vector<std::uint8_t>(32), std::vector<std::uint8_t>(32)}, {});
    const std::vector<std::int32_t> expect{7, 8, 9, 10, 70, 71, 72, 73};
    CHECK(words(r.host[0]) == expect);
    CHECK(words(r.host[1]) == expect);
}
