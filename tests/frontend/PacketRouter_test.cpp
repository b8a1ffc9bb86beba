// PacketFlow lowering and its toolchain rules (frontend/src/resolve/PacketRouter.cpp, the BD
// packet fields in LowLevelLowering.cpp). Each rule's mlir-aie source is cited at its check.
#include "npusim/iron.hpp"
#include "resolve/PacketRouter.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace npusim;
using namespace npusim::iron;

namespace {
const Tile kShim(0, 0), kCore(0, 2);

Bd packet_bd(const std::string& name, std::optional<BdPacket> packet) {
    return Bd{.buffer = Buffer::with_values(tensor<std::int32_t>({8}), name, std::vector<std::int32_t>(8, 1), kCore),
              .next = Bd::none,
              .packet = packet};
}

// The compute tile sends packets from its MM2S channels (`channels`, default: channel 0 with one
// BD of packet id 3) through `flows` (default: id 3 to the shim's S2MM 0, "out").
struct Pk {
    std::vector<PacketFlow> flows = {PacketFlow(3, kCore, kShim, {.shim_symbol = "out"})};
    std::vector<DmaChannel> channels = {DmaChannel{DMAChannelDir::MM2S, 0, {packet_bd("a", BdPacket{0, 3})}}};
    std::vector<Flow> circuit = {};
};

model::Netlist resolve_pk(const Pk& k) {
    Runtime rt(
        [](RuntimeData c) {
            const Task t = shim_dma_single_bd_task("out", c, {.issue_token = true});
            dma_start_task(t);
            dma_await_task(t);
        },
        fn_args(tensor<std::int32_t>({8})));
    for (const auto& f : k.flows) rt.add_flow(f);
    for (const auto& f : k.circuit) rt.add_flow(f);
    rt.add_tile_dma(TileDma(kCore, k.channels, "tx"));
    return Program("npu1_1col", rt, {}, "pk").resolve();
}
} // namespace

TEST_CASE("a PacketFlow lowers to a netlist packet flow with its route and the BD's packet fields",
          "[frontend][packet]") {
    const auto net = resolve_pk({});
    REQUIRE(net.packet_flows.size() == 1);
    const auto& f = net.packet_flows[0];
    CHECK(f.packet_id == 3);
    CHECK(f.source == model::StreamEndpoint{{0, 2}, model::Direction::MM2S, 0});
    REQUIRE(f.dests.size() == 1);
    CHECK(f.dests[0] == model::StreamEndpoint{{0, 0}, model::Direction::S2MM, 0});
    CHECK(!f.keep_pkt_header);
    REQUIRE(f.paths.size() == 1);
    CHECK(f.paths[0] == std::vector<model::TileCoord>{{0, 2}, {0, 1}, {0, 0}});
    CHECK(net.flows.empty());
    REQUIRE(net.channels.size() == 1);
    CHECK(net.channels[0].bds[0].packet_id == 3);
    CHECK(net.channels[0].bds[0].packet_type == 0);
}

TEST_CASE("two PacketFlows from one port with one id are one flow with both destinations and extra_dsts fan out",
          "[frontend][packet]") {
    // AIECreatePathFindFlows.cpp keys packet routes by (port, flowID): the destinations merge.
    Pk k;
    k.flows = {PacketFlow(3, kCore, kShim, {.shim_symbol = "out"}),
               PacketFlow(3, kCore, Tile(0, 1), {.dst_channel = 2, .extra_dsts = {PacketDest{Tile(0, 3), 1}}})};
    // The mem tile and the second compute tile receive through their own S2MM programs.
    Runtime rt(
        [](RuntimeData c) {
            const Task t = shim_dma_single_bd_task("out", c, {.issue_token = true});
            dma_start_task(t);
            dma_await_task(t);
        },
        fn_args(tensor<std::int32_t>({8})));
    for (const auto& f : k.flows) rt.add_flow(f);
    rt.add_tile_dma(TileDma(kCore, k.channels, "tx"));
    const auto rx_ty = tensor<std::int32_t>({8});
    rt.add_tile_dma(TileDma(Tile(0, 1),
                            {DmaChannel{DMAChannelDir::S2MM, 2, {Bd{.buffer = Buffer(rx_ty, "m", {}, Tile(0, 1))}}}},
                            "mem_rx"));
    rt.add_tile_dma(TileDma(Tile(0, 3),
                            {DmaChannel{DMAChannelDir::S2MM, 1, {Bd{.buffer = Buffer(rx_ty, "r", {}, Tile(0, 3))}}}},
                            "core_rx"));
    const auto net = Program("npu1_1col", rt, {}, "pk").resolve();
    REQUIRE(net.packet_flows.size() == 1);
    CHECK(net.packet_flows[0].dests.size() == 3);
    CHECK(net.packet_flows[0].paths.size() == 3);
}

TEST_CASE("packet flows share the switch connections they route over", "[frontend][packet]") {
    // Eight packet flows from the MM2S 0 and 1 of four compute tiles, all to the shim's S2MM 0:
    // as circuits they would need 8 of the 4 southward connections per column; packet flows share.
    Runtime rt(
        [](RuntimeData c) {
            const Task t = shim_dma_single_bd_task("out", c, {.issue_token = true});
            dma_start_task(t);
            dma_await_task(t);
        },
        fn_args(tensor<std::int32_t>({64})));
    int id = 1;
    for (int row = 2; row <= 5; ++row) {
        std::vector<DmaChannel> chs;
        for (int ch = 0; ch < 2; ++ch, ++id) {
            rt.add_flow(PacketFlow(id, Tile(0, row), kShim, {.src_channel = ch, .shim_symbol = id == 1 ? "out" : ""}));
            chs.push_back(
                DmaChannel{DMAChannelDir::MM2S,
                           ch,
                           {Bd{.buffer = Buffer(tensor<std::int32_t>({8}), "b" + std::to_string(id), {}, Tile(0, row)),
                               .next = Bd::none,
                               .packet = BdPacket{0, id}}}});
        }
        rt.add_tile_dma(TileDma(Tile(0, row), chs, "tx" + std::to_string(row)));
    }
    const auto net = Program("npu1_1col", rt, {}, "pk").resolve();
    REQUIRE(net.packet_flows.size() == 8);
    for (const auto& f : net.packet_flows) CHECK(f.paths.at(0).back() == model::TileCoord{0, 0});
    // Six circuit flows over the same (0,2)->(0,1) connection (into the mem tile's six S2MM
    // channels) are refused: the router counts capacity for circuits.
    Runtime rt2([](RuntimeData) {}, fn_args(tensor<std::int32_t>({64})));
    const std::vector<std::pair<int, int>> ends = {{2, 0}, {3, 0}, {4, 0}, {5, 0}, {4, 1}, {5, 1}};
    std::map<int, std::vector<DmaChannel>> by_row;
    std::vector<DmaChannel> mem;
    for (std::size_t i = 0; i < ends.size(); ++i) {
        const auto [row, ch] = ends[i];
        const int dst = static_cast<int>(i);
        const auto ty = tensor<std::int32_t>({8});
        rt2.add_flow(Flow(Tile(0, row), Tile(0, 1), {.src_channel = ch, .dst_channel = dst}));
        by_row[row].push_back(
            DmaChannel{DMAChannelDir::MM2S, ch, {Bd{.buffer = Buffer(ty, "c" + std::to_string(i), {}, Tile(0, row))}}});
        mem.push_back(
            DmaChannel{DMAChannelDir::S2MM, dst, {Bd{.buffer = Buffer(ty, "m" + std::to_string(i), {}, Tile(0, 1))}}});
    }
    for (const auto& [row, chs] : by_row) rt2.add_tile_dma(TileDma(Tile(0, row), chs, "cx" + std::to_string(row)));
    rt2.add_tile_dma(TileDma(Tile(0, 1), mem, "mem"));
    CHECK_THROWS_WITH(Program("npu1_1col", rt2, {}, "cx").resolve(), Catch::Contains("no stream route for"));
}

TEST_CASE("the packet rule cover counts the fewest (mask, value) rules", "[frontend][packet]") {
    using npusim::iron::detail::packet_rule_cover_size;
    CHECK(packet_rule_cover_size({3}, {}) == 1);
    CHECK(packet_rule_cover_size({0, 1}, {2}) == 1); // mask 0b11110, value 0
    CHECK(packet_rule_cover_size({1, 2}, {0, 3}) == 2); // no cube holds 1 and 2 without 0 or 3
    CHECK(packet_rule_cover_size({0, 1, 2, 3}, {4}) == 1);
    CHECK(packet_rule_cover_size({1, 2, 4, 8, 16}, {0, 3, 5, 6, 9, 10, 12, 17, 18, 20, 24}) == 5);
}

TEST_CASE("PacketFlow and BD packet errors quote the toolchain", "[frontend][packet][errors]") {
    auto throws = [](const Pk& k, const std::string& msg) {
        INFO(msg);
        CHECK_THROWS_WITH(resolve_pk(k), msg);
    };
    {
        Pk k;
        k.flows = {PacketFlow(32, kCore, kShim, {.shim_symbol = "out"})};
        throws(k, "PacketFlow(32) Tile(0,2) DMA:0 -> Tile(0,0) DMA:0: packet id 32 exceeds the maximum of 31");
    }
    {
        Pk k;
        k.channels = {DmaChannel{DMAChannelDir::MM2S, 0, {packet_bd("a", BdPacket{8, 3})}}};
        throws(k, "TileDma 'tx' MM2S channel 0 Bd 0: packet type 8: Packet type field can only hold 3 bits.");
    }
    {
        Pk k;
        k.channels = {DmaChannel{DMAChannelDir::MM2S, 0, {packet_bd("a", BdPacket{0, 32})}}};
        throws(k, "TileDma 'tx' MM2S channel 0 Bd 0: packet id 32: Packet ID field can only hold 5 bits.");
    }
    {
        Pk k;
        k.channels.push_back(DmaChannel{DMAChannelDir::S2MM, 0, {packet_bd("r", BdPacket{0, 3})}});
        throws(k, "TileDma 'tx' S2MM channel 0 Bd 0: a packet header is inserted by an MM2S channel only; an S2MM BD "
                  "takes no "
                  "packet");
    }
    {
        Pk k;
        // A BD without a header of its own sends the header in its data (its first word)...
        k.channels = {DmaChannel{DMAChannelDir::MM2S, 0, {packet_bd("a", std::nullopt)}}};
        CHECK_NOTHROW(resolve_pk(k));
        // ...so it must move at least that word.
        k.channels[0].bds[0].length = 0;
        throws(k, "TileDma 'tx' MM2S channel 0 Bd 0: its channel (0,2) MM2S 0 is the source of a PacketFlow; the BD "
                  "sends no packet header of its own, so the first word of its data must be one, but it moves 0 B; "
                  "give it packet = {pkt_type, pkt_id} or data that starts with a packet header");
    }
    {
        Pk k;
        k.channels = {DmaChannel{DMAChannelDir::MM2S, 0, {packet_bd("a", BdPacket{0, 5})}}};
        throws(k, "TileDma 'tx' MM2S channel 0 Bd 0: its packet id 5 matches no PacketFlow from (0,2) MM2S 0 (ids 3)");
    }
    { // five ids with different destinations on one source port: 5 rules, 4 slots
        Pk k;
        k.flows.clear();
        std::vector<Bd> bds;
        for (int i = 0; i < 5; ++i) {
            k.flows.push_back(PacketFlow(1 << i, kCore, i == 0 ? kShim : Tile(0, 1),
                                         {.dst_channel = i == 0 ? 0 : i - 1, .shim_symbol = i == 0 ? "out" : ""}));
            bds.push_back(packet_bd("b" + std::to_string(i), BdPacket{0, 1 << i}));
        }
        k.channels = {DmaChannel{DMAChannelDir::MM2S, 0, bds}};
        throws(k, "(0,2) MM2S 0: slave port packet rules exceed the 4-slot limit (4 + 1).");
    }
    { // id 3 from two ports into the shim, but one of them also to the mem tile
        Pk k;
        k.flows.push_back(PacketFlow(3, kCore, kShim, {.src_channel = 1, .extra_dsts = {PacketDest{Tile(0, 1), 0}}}));
        k.channels.push_back(DmaChannel{DMAChannelDir::MM2S, 1, {packet_bd("b", BdPacket{0, 3})}});
        throws(
            k,
            "PacketFlow(3) Tile(0,2) DMA:0 -> Tile(0,0) DMA:0 and PacketFlow(3) Tile(0,2) DMA:1 -> Tile(0,0) DMA:0, "
            "Tile(0,1) DMA:0: packet id 3 is reused on port (0,0) S2MM 0 by flows with different destinations; the "
            "switch routes a packet by its id alone, so each flow's packets would reach the other's destinations too");
    }
    // A shim source is accepted now that shim tasks send packets (tests/examples/ShimPackets_test.cpp).
    { // a port that is both a circuit and a packet end
        Pk k;
        k.circuit = {Flow(kCore, kShim, {.dst_channel = 1})};
        throws(
            k,
            "PacketFlow(3) Tile(0,2) DMA:0 -> Tile(0,0) DMA:0: (0,2) MM2S 0 is already an end of the circuit-switched "
            "Flow Tile(0,2) DMA:0 -> Tile(0,0) DMA:1; a DMA port is either circuit- or packet-switched");
    }
    { // a tile end without a BD program
        Pk k;
        k.flows.push_back(PacketFlow(4, kCore, Tile(0, 3)));
        throws(k, "PacketFlow(4) Tile(0,2) DMA:0 -> Tile(0,3) DMA:0: (0,3) S2MM 0 has no BD program; add a DmaChannel "
                  "for it to "
                  "a TileDma of tile (0,3)");
    }
}
