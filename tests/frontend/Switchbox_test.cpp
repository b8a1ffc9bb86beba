// Hand-written switchboxes at resolve (frontend/src/resolve/SwitchboxLowering.cpp, model/StreamSwitch):
// the port counts and legal connections are mlir-aie's AIE2 target model (AIETargetModel.cpp at
// 3ca0193: getNumDestSwitchboxConnections L881-950, getNumSourceSwitchboxConnections L952-1029,
// isLegalTileConnection L1070-1160), the checks SwitchboxOp::verify's (AIEDialect.cpp L2795-2866)
// and ShimMuxOp::verify's (L1735-1761), the routes followed as aie-find-flows follows them
// (AIEFindFlows.cpp L159-268). Every refusal's text is in the error catalog
// (tests/docs/catalog/Switchbox.cpp); these tests pin the rules themselves.
#include "npusim/iron.hpp"
#include "npusim/model/StreamSwitch.hpp"
#include "resolve/StreamRouter.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using model::WireBundle;

TEST_CASE("stream switch ports per tile kind are the AIE2 target model's", "[frontend][switchbox]") {
    const auto& dev = model::device_by_name("npu1"); // 4 columns, rows 0-5
    using B = WireBundle;
    // Compute tile (1,2): Core 1, DMA 2, FIFO 1, North 6 out / 4 in, South 4 out / 6 in, East/West 4,
    // Trace 2 sources, TileControl 1 (L925-948, L1003-1028).
    CHECK(model::switchbox_dests(dev, {1, 2}, B::DMA) == 2);
    CHECK(model::switchbox_sources(dev, {1, 2}, B::Trace) == 2);
    CHECK(model::switchbox_dests(dev, {1, 2}, B::North) == 6);
    CHECK(model::switchbox_sources(dev, {1, 2}, B::North) == 4);
    CHECK(model::switchbox_dests(dev, {1, 2}, B::South) == 4);
    CHECK(model::switchbox_sources(dev, {1, 2}, B::South) == 6);
    // The top row has no North, column 0 no West (`if (row == rows() - 1) return 0;`).
    CHECK(model::switchbox_dests(dev, {1, 5}, B::North) == 0);
    CHECK(model::switchbox_dests(dev, {0, 2}, B::West) == 0);
    // Mem tile: DMA 6 each way, no East/West, one Trace source (L883-894, L954-967).
    CHECK(model::switchbox_dests(dev, {0, 1}, B::DMA) == 6);
    CHECK(model::switchbox_dests(dev, {0, 1}, B::East) == 0);
    CHECK(model::switchbox_sources(dev, {0, 1}, B::Trace) == 1);
    // Shim: South 6 out / 8 in (to and from its mux), no DMA bundle in the switch (L896-918).
    CHECK(model::switchbox_dests(dev, {0, 0}, B::South) == 6);
    CHECK(model::switchbox_sources(dev, {0, 0}, B::South) == 8);
    CHECK(model::switchbox_dests(dev, {0, 0}, B::DMA) == 0);
    // isLegalTileConnection: a mem tile passes North/South through on the same channel only; a
    // compute tile may turn any neighbour into its DMA; the shim takes its mux ports anywhere.
    CHECK(model::legal_switch_connection(dev, {0, 1}, B::South, 1, B::North, 1));
    CHECK_FALSE(model::legal_switch_connection(dev, {0, 1}, B::South, 1, B::North, 2));
    CHECK(model::legal_switch_connection(dev, {0, 2}, B::South, 3, B::DMA, 1));
    CHECK_FALSE(model::legal_switch_connection(dev, {0, 2}, B::South, 1, B::South, 2));
    CHECK(model::legal_switch_connection(dev, {0, 0}, B::South, 3, B::North, 1));
    CHECK_FALSE(model::legal_switch_connection(dev, {0, 0}, B::North, 1, B::North, 2));
    // The mux's fixed DMA ports (AIECreatePathFindFlows.cpp L116-119, L143-146).
    CHECK(model::shim_mux_port(model::Direction::MM2S, 0) == 3);
    CHECK(model::shim_mux_port(model::Direction::MM2S, 1) == 7);
    CHECK(model::shim_mux_port(model::Direction::S2MM, 0) == 2);
    CHECK(model::shim_mux_port(model::Direction::S2MM, 1) == 3);
}

TEST_CASE("the router routes around the connections a pinned route holds", "[frontend][switchbox]") {
    // README rule 2 of upstream manual_switchbox: a pinned connect and a routed flow never share a
    // hop; npusim's router takes the pinned hops out of the capacity it routes with.
    const auto& dev = model::device_by_name("npu1");
    detail::StreamRouter r(dev);
    const int up = r.free_capacity({0, 0}, model::Port::North);
    r.reserve({{{0, 0}, {0, 1}, {0, 2}}, {{0, 0}, {0, 1}, {0, 2}, {0, 3}}}); // a broadcast: shared hops once
    CHECK(r.free_capacity({0, 0}, model::Port::North) == up - 1);
    CHECK(r.free_capacity({0, 1}, model::Port::North) == dev.stream_capacity({0, 1}, model::Port::North) - 1);
    CHECK(r.free_capacity({0, 2}, model::Port::North) == dev.stream_capacity({0, 2}, model::Port::North) - 1);
}

TEST_CASE("switchbox routes are refused where the toolchain refuses them or where they do not connect",
          "[frontend][switchbox][errors]") {
    using B = WireBundle;
    const Tile shim(0, 0), core(0, 2);
    auto resolve_with = [&](std::vector<Switchbox> boxes) {
        Buffer in(tensor<std::int32_t>({8}), "sbt_in", {}, core);
        Lock a(core, std::nullopt, 1, "sbt_a"), b(core, std::nullopt, 0, "sbt_b");
        Runtime rt([](RuntimeData) {}, fn_args(tensor<std::int32_t>({8})));
        for (const auto& x : boxes) rt.add_switchbox(x);
        rt.add_tile_dma(TileDma(
            core, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = in, .acquires = {{a}}, .releases = {{b}}}}}},
            "sbt_dma"));
        return Program("npu1_1col", rt, {}, "sbt").resolve();
    };
    const auto mux = ShimMux(shim, {{B::DMA, 0, B::North, 3}});
    const auto up = Switchbox(shim, {{B::South, 3, B::North, 1}});
    // The way in, complete: resolves, one pinned flow.
    const auto net = resolve_with(
        {mux, up, Switchbox(Tile(0, 1), {{B::South, 1, B::North, 1}}), Switchbox(core, {{B::South, 1, B::DMA, 0}})});
    REQUIRE(net.flows.size() == 1);
    CHECK(net.flows[0].pinned_route);
    {
        // The export prints the switchboxes as written (AIEOps.td ShimMuxOp, SwitchboxOp, ConnectOp),
        // pretty and generic; tools:export-mlir-opt has mlir-opt verify manual_switchbox's module.
        Buffer in(tensor<std::int32_t>({8}), "sbx_in", {}, core);
        Lock a(core, std::nullopt, 1, "sbx_a"), b(core, std::nullopt, 0, "sbx_b");
        Runtime rt([](RuntimeData) {}, fn_args(tensor<std::int32_t>({8})));
        for (const auto& x : std::vector<Switchbox>{mux, up, Switchbox(Tile(0, 1), {{B::South, 1, B::North, 1}}),
                                                    Switchbox(core, {{B::South, 1, B::DMA, 0}})})
            rt.add_switchbox(x);
        rt.add_tile_dma(TileDma(
            core, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = in, .acquires = {{a}}, .releases = {{b}}}}}},
            "sbx_dma"));
        const Program p("npu1_1col", rt, {}, "sbx");
        const auto text = export_mlir(p, {});
        CHECK(text.find("aie.shim_mux(%logical_shim_noc) {\n      aie.connect<DMA : 0, North : 3>\n    }") !=
              std::string::npos);
        CHECK(text.find("aie.connect<South : 1, DMA : 0>") != std::string::npos);
        CHECK(text.find("aie.flow(") == std::string::npos);
        ExportOptions g;
        g.generic = true;
        CHECK(export_mlir(p, g).find("\"aie.connect\"() {dest_bundle = 1 : i32, dest_channel = 0 : i32, "
                                     "source_bundle = 3 : i32, source_channel = 1 : i32} : () -> ()") !=
              std::string::npos);
    }
    // SwitchboxOp::verify L2815-2825 (checkBound): DMA index 2 on a compute tile with 2 S2MM channels.
    CHECK_THROWS_WITH(resolve_with({mux, up, Switchbox(Tile(0, 1), {{B::South, 1, B::North, 1}}),
                                    Switchbox(core, {{B::South, 1, B::DMA, 2}})}),
                      Catch::Contains("index 2 for dest bundle DMA must be less than 2"));
    // SwitchboxOp::verify L2835-2843: one destination port, one connect.
    CHECK_THROWS_WITH(resolve_with({mux, up, Switchbox(Tile(0, 1), {{B::South, 1, B::North, 1}}),
                                    Switchbox(core, {{B::South, 1, B::DMA, 0}, {B::South, 2, B::DMA, 0}})}),
                      Catch::Contains("targets same dst as another connect op"));
    // SwitchboxOp::verify L2864-2865 with isLegalTileConnection L1101-1105: a mem tile changes no
    // channel between North and South.
    CHECK_THROWS_WITH(resolve_with({mux, up, Switchbox(Tile(0, 1), {{B::South, 1, B::North, 2}})}),
                      Catch::Contains("illegal stream switch connection"));
    // aie-find-flows finds no connect taking the port the mem tile sends to: the route ends there.
    CHECK_THROWS_WITH(resolve_with({mux, up, Switchbox(Tile(0, 1), {{B::South, 1, B::North, 1}}),
                                    Switchbox(core, {{B::South, 2, B::DMA, 0}})}),
                      Catch::Contains("sends to the switchbox of (0,2) South : 1, but no connect there takes it"));
    // No switchbox at all on a tile the route reaches: the same.
    CHECK_THROWS_WITH(resolve_with({mux, up}), Catch::Contains("the route does not connect"));
}
