// Hand-pinned switchboxes (Switchbox / ShimMux: mlir-aie's aie.switchbox / aie.shim_mux /
// aie.connect, as programming_examples/basic/manual_switchbox writes them at 3ca0193): the data
// follows the user's connections hop by hop, the stream's latency counts the hops of that path (a
// detour through the next column costs more than the straight column), and a deadlock report names
// the ends the pinned route joins.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <numeric>

using namespace npusim;
using namespace npusim::iron;

namespace {

using B = WireBundle;

// shim MM2S 0 -> compute (0,2) S2MM 0, copied by the core, compute MM2S 0 -> shim S2MM 0, every hop
// pinned by `boxes`; the shim side is driven by registers as manual_switchbox drives it.
// `in_empty_init` 0 leaves the compute S2MM's lock never free (a deadlock).
model::Netlist msb_design(const std::vector<Switchbox>& boxes, int in_empty_init = 1) {
    const Tile core(0, 2);
    const auto ty = tensor<std::int32_t>({64});
    Buffer in_buf(ty, "in_buf", {}, core), out_buf(ty, "out_buf", {}, core);
    Lock ie(core, 0, in_empty_init, "in_empty"), iff(core, 1, 0, "in_full"), oe(core, 2, 1, "out_empty"),
        of(core, 3, 0, "out_full");
    Worker w(
        [](Buffer i, Buffer o, Lock in_e, Lock in_f, Lock out_e, Lock out_f) {
            in_f.acquire();
            out_e.acquire();
            range_(64, [&](std::int64_t k) { o.at<std::int32_t>(k) = i.at<std::int32_t>(k); });
            in_e.release();
            out_f.release();
        },
        fn_args(in_buf, out_buf, ie, iff, oe, of), {.tile = core, .while_true = false, .name = "copy"});
    TileDma dma(core,
                {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = in_buf, .acquires = {{ie}}, .releases = {{iff}}}}},
                 DmaChannel{DMAChannelDir::MM2S, 0, {Bd{.buffer = out_buf, .acquires = {{of}}, .releases = {{oe}}}}}},
                "core_dma");
    Runtime rt(
        [](RuntimeData, RuntimeData) {
            npu_writebd({.bd_id = 0, .buffer_length = 64, .column = 0, .row = 0});
            npu_address_patch(0x1D004, 0, 0);
            npu_writebd({.bd_id = 1, .buffer_length = 64, .column = 0, .row = 0});
            npu_address_patch(0x1D024, 1, 0);
            npu_push_queue(0, 0, 1, 0, false, 0, 0);
            npu_push_queue(0, 0, 0, 0, true, 0, 1);
            npu_sync(0, 0, 0, 0, 1, 1);
        },
        fn_args(ty, ty));
    for (const auto& b : boxes) rt.add_switchbox(b);
    rt.add_tile_dma(dma);
    return Program("npu1", rt, {w}, "msb").resolve();
}

// upstream's column: shim -> mem tile -> compute tile and back.
std::vector<Switchbox> msb_column() {
    return {ShimMux(Tile(0, 0), {{B::DMA, 0, B::North, 3}, {B::North, 2, B::DMA, 0}}),
            Switchbox(Tile(0, 0), {{B::South, 3, B::North, 1}, {B::North, 0, B::South, 2}}),
            Switchbox(Tile(0, 1), {{B::South, 1, B::North, 1}, {B::North, 0, B::South, 0}}),
            Switchbox(Tile(0, 2), {{B::South, 1, B::DMA, 0}, {B::DMA, 0, B::South, 0}})};
}

// The way in goes through column 1: (0,0) east to (1,0), up through (1,1) to (1,2), west to (0,2).
std::vector<Switchbox> msb_detour() {
    return {ShimMux(Tile(0, 0), {{B::DMA, 0, B::North, 3}, {B::North, 2, B::DMA, 0}}),
            Switchbox(Tile(0, 0), {{B::South, 3, B::East, 0}, {B::North, 0, B::South, 2}}),
            Switchbox(Tile(1, 0), {{B::West, 0, B::North, 0}}),
            Switchbox(Tile(1, 1), {{B::South, 0, B::North, 0}}),
            Switchbox(Tile(1, 2), {{B::South, 0, B::West, 0}}),
            Switchbox(Tile(0, 1), {{B::North, 0, B::South, 0}}),
            Switchbox(Tile(0, 2), {{B::East, 0, B::DMA, 0}, {B::DMA, 0, B::South, 0}})};
}

std::vector<std::uint8_t> msb_words() {
    std::vector<std::int32_t> v(64);
    std::iota(v.begin(), v.end(), 7);
    std::vector<std::uint8_t> b(256);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

sim::SimResult msb_run(const model::Netlist& net) {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2);
    return sim::simulate(net, {msb_words(), std::vector<std::uint8_t>(256, 0)}, o);
}

} // namespace

TEST_CASE("manual_switchbox matches its golden reference on npu1 and npu2 with every hop pinned",
          "[examples][switchbox]") {
    for (const char* device : {"npu1", "npu2"}) {
        INFO(device);
        const auto& spec = harness::design_by_name("manual_switchbox");
        CHECK(harness::run_design(spec, device, {}, 1, {}).all_match);
        // No route of it comes from the router: both streams are the pinned column.
        const auto& dev = model::device_by_name(device);
        const auto net = spec.build(dev, spec.resolve_params({}), harness::BuildOptions(1)).program.resolve();
        REQUIRE(net.flows.size() == 2);
        for (const auto& f : net.flows) {
            CHECK(f.pinned_route);
            CHECK(f.switch_hops(0) == 3);
        }
    }
}

TEST_CASE("a pinned route is the user's path: the stream follows it hop by hop", "[examples][switchbox]") {
    const auto net = msb_design(msb_column());
    REQUIRE(net.flows.size() == 2);
    for (const auto& f : net.flows) CHECK(f.pinned_route);
    CHECK(net.flows[0].source == model::StreamEndpoint{{0, 0}, model::Direction::MM2S, 0});
    CHECK(net.flows[0].dests == std::vector<model::StreamEndpoint>{{{0, 2}, model::Direction::S2MM, 0}});
    CHECK(net.flows[0].paths == std::vector<std::vector<model::TileCoord>>{{{0, 0}, {0, 1}, {0, 2}}});
    CHECK(net.flows[1].paths == std::vector<std::vector<model::TileCoord>>{{{0, 2}, {0, 1}, {0, 0}}});
    const auto detour = msb_design(msb_detour());
    CHECK(detour.flows[0].paths ==
          std::vector<std::vector<model::TileCoord>>{{{0, 0}, {1, 0}, {1, 1}, {1, 2}, {0, 2}}});
    CHECK(detour.flows[0].switch_hops(0) == 5);
    // Both carry the data; the detour's two extra switch hops make the run longer.
    const auto straight = msb_run(net), around = msb_run(detour);
    CHECK(straight.host[1] == msb_words());
    CHECK(around.host[1] == msb_words());
    // The shim's MM2S 0 carries the data two switch hops further: its transfer takes two hop
    // latencies more (the run's end is the later shim S2MM task's dispatch either way).
    auto shim_mm2s_active = [](const sim::SimResult& r) {
        for (const auto& c : r.channels)
            if (c.channel == model::StreamEndpoint{{0, 0}, model::Direction::MM2S, 0}) return c.active_cycles;
        return std::uint64_t{0};
    };
    const auto hop = model::TimingParams::for_arch(model::Arch::AIE2).switch_hop_latency_cycles;
    CHECK(shim_mm2s_active(around) == shim_mm2s_active(straight) + 2 * hop);
}

TEST_CASE("a deadlock on a pinned route names the ends the route joins", "[examples][switchbox][deadlock]") {
    // The compute S2MM's lock starts at 0 and nothing releases it: the shim's MM2S 0 waits for the
    // receiver the pinned route leads to.
    const auto net = msb_design(msb_column(), 0);
    try {
        msb_run(net);
        FAIL("the run should deadlock");
    } catch (const SimulationError& e) {
        const std::string what = e.what();
        INFO(what);
        // The chain goes from the shim's S2MM through the pinned way back to the compute MM2S, and
        // the stream of the pinned way in is named as the route it is.
        CHECK(what.find("shim DMA (0,0) S2MM 0 runs task 1") != std::string::npos);
        CHECK(what.find("waits for data from DMA (0,2) MM2S 0") != std::string::npos);
        CHECK(what.find("lock in_empty on (0,2) is 0, needs >= 1") != std::string::npos);
        CHECK(what.find("stream of 'switchbox route (0,0) MM2S 0 -> (0,2) S2MM 0' switchbox: the sender waits for "
                        "DMA (0,2) S2MM 0 to take data") != std::string::npos);
    }
}
