// Hand-written designs below ObjectFifo (IRON Lock, Flow, TileDma; programming_examples/basic/
// chaining_channels and packet_switch style) run on the same engine: lowlevel_passthrough gives
// back its input byte for byte, and a hand-written design whose worker never releases its input
// lock ends in a deadlock report naming the Lock and the TileDma instead of hanging.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Diagnosis.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("lowlevel_passthrough gives back its input byte for byte", "[examples][lowlevel]") {
    for (const char* device : {"npu1_1col", "npu2"}) {
        INFO(device);
        const auto& spec = design_by_name("lowlevel_passthrough");
        const auto& dev = model::device_by_name(device);
        const auto inst = spec.build(dev, spec.resolve_params({{"size", 2048}, {"tile", 256}}), BuildOptions(5));
        const auto before = inst.host();
        REQUIRE(before.size() == 2);
        REQUIRE(before[0].size() == 2048 * 4);
        sim::SimOptions o;
        o.timing = model::TimingParams::for_arch(dev.arch);
        const auto r = sim::simulate(inst.program.resolve(), before, o);
        CHECK(r.host[1] == before[0]);
        REQUIRE(r.cores.size() == 1);
        CHECK(r.cores[0].iterations == 2048 / 256); // one copy per buffer the S2MM BD fills
    }
    CHECK(run_design(design_by_name("lowlevel_passthrough"), "npu2_1col", {}, 3, {}).all_match);
    CHECK_THROWS_WITH(run_design(design_by_name("lowlevel_passthrough"), "npu2", {{"tile", 1000}}, 1, {}),
                      "design 'lowlevel_passthrough': parameter size=4096 must be a positive multiple of tile=1000");
}

TEST_CASE("a hand-written design that never releases a lock ends in a deadlock report naming it",
          "[examples][lowlevel][deadlock]") {
    using namespace npusim::iron;
    const Tile shim(0, 0), core(0, 2);
    const auto ty = tensor<std::int32_t>({64});
    Buffer buf(ty, "buf");
    Lock empty(core, std::nullopt, 1, "buf_empty"), full(core, std::nullopt, 0, "buf_full");
    // The worker takes each filled buffer but never gives it back (no empty.release()).
    Worker w([](Buffer, Lock, Lock f) { f.acquire(); }, fn_args(buf, empty, full), {.tile = core, .name = "sink"});
    TileDma dma(core,
                {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = buf, .acquires = {{empty}}, .releases = {{full}}}}}},
                "rx_dma");
    Flow in(shim, core, {.shim_symbol = "in"});
    Runtime rt(
        [](RuntimeData a) {
            const Task t = shim_dma_single_bd_task("in", a, {.issue_token = true});
            dma_start_task(t);
            dma_await_task(t);
        },
        fn_args(tensor<std::int32_t>({128})));
    rt.add_flow(in);
    rt.add_tile_dma(dma);
    const auto net = Program("npu1_1col", rt, {w}, "never_releases").resolve();
    std::vector<std::uint8_t> a(128 * 4, 1);
    try {
        sim::simulate(net, {a}, {});
        FAIL("expected a deadlock");
    } catch (const SimulationError& e) {
        INFO(e.what());
        REQUIRE(e.kind() == SimulationError::Kind::Deadlock);
        const std::string msg = e.what();
        // The worker only waits on buf_full and never releases buf_empty (its traced body): the report
        // names no releaser of buf_empty (it named the worker before releasers came from the trace).
        CHECK_THAT(msg, Catch::Contains("BD 0 ('rx_dma' S2MM channel 0 Bd, element 0): lock buf_empty on (0,2) is 0, "
                                        "needs >= 1; nothing in the design releases or sets it"));
        CHECK_THAT(msg, Catch::Contains("case: lock nobody releases [no_releaser]"));
        CHECK_THAT(msg, Catch::Contains("buf_empty"));
        CHECK_THAT(msg, Catch::Contains("lock 'buf_full' acquire(1)"));
    }
}
