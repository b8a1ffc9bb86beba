// Program::enable_trace lowered to Netlist::trace the way IRON builds its traced tiles
// (mlir-aie python/iron/program.py Program.resolve_program: the listed workers, else those with
// `trace` set; python/utils/trace/setup.py configure_trace: one core trace per tile, a memory
// trace per core tile when coremem_events are given, defaults per tile type, at most 8 events).
#include "npusim/iron.hpp"
#include "resolve/TraceLowering.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;

namespace {

void copy(ObjectFifoHandle i, ObjectFifoHandle o) {
    auto e = i.acquire(1);
    auto f = o.acquire(1);
    std::copy(e.as<std::int32_t>().begin(), e.as<std::int32_t>().end(), f.as<std::int32_t>().begin());
    i.release(1);
    o.release(1);
}

// Two workers in a chain: in -> a (0,2) -> mid -> b (0,3) -> out; `b` has WorkerOptions::trace.
Program two_workers() {
    ObjectFifo in(tensor<std::int32_t>({16}), "in", 2), mid(tensor<std::int32_t>({16}), "mid", 2),
        out(tensor<std::int32_t>({16}), "out", 2);
    std::vector<Worker> ws;
    ws.emplace_back(copy, fn_args(in.cons(), mid.prod()), WorkerOptions{.tile = {0, 2}, .name = "a"});
    ws.emplace_back(copy, fn_args(mid.cons(), out.prod()), WorkerOptions{.tile = {0, 3}, .name = "b", .trace = true});
    Runtime rt(
        [](RuntimeData x, RuntimeData y, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(x);
            o.drain(y, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), in.prod(), out.cons()));
    return Program("npu1_1col", rt, ws, "two_workers");
}

} // namespace

TEST_CASE("enable_trace: no call, or trace_size 0, leaves the netlist without a trace", "[frontend][trace]") {
    auto p = two_workers();
    CHECK_FALSE(p.resolve().trace.enabled);
    p.enable_trace(0);
    CHECK_FALSE(p.resolve().trace.enabled);
}

TEST_CASE("enable_trace: workers=None traces the workers with trace set, with the default core events",
          "[frontend][trace]") {
    auto p = two_workers();
    p.enable_trace(4096);
    const auto n = p.resolve();
    REQUIRE(n.trace.enabled);
    CHECK(n.trace.buffer_bytes == 4096);
    REQUIRE(n.trace.units.size() == 1);
    const auto& u = n.trace.units[0];
    CHECK(u.type == model::TraceUnitType::Core);
    CHECK(u.tile == model::TileCoord{0, 3});
    CHECK(u.worker == "b");
    CHECK(u.events == model::default_trace_events(model::Arch::AIE2, model::TraceUnitType::Core));
    CHECK_THAT(n.dump(), Catch::Contains("trace: buffer 4096 B\n  core_trace (0,3) b: INSTR_EVENT_0 INSTR_EVENT_1"));
}

TEST_CASE("enable_trace: listed workers, core memory traces after the cores, mem and shim tiles, given events",
          "[frontend][trace]") {
    auto p = two_workers();
    TraceOptions o;
    o.trace_size = 8192;
    o.workers = std::vector<Worker>{p.workers()[1], p.workers()[0], p.workers()[1]}; // a tile listed twice: once
    o.coretile_events = std::vector<TraceEvent>{"INSTR_EVENT_0", "INSTR_EVENT_1"};
    o.coremem_events = std::vector<TraceEvent>{"DMA_S2MM_0_FINISHED_BD"};
    o.shimtile_events = std::vector<TraceEvent>{"DMA_MM2S_0_START_TASK"};
    o.tiles = {{0, 0}, {0, 1}};
    p.enable_trace(o);
    const auto n = p.resolve();
    REQUIRE(n.trace.units.size() == 6);
    using T = model::TraceUnitType;
    const std::vector<std::pair<T, model::TileCoord>> want = {{T::Core, {0, 3}},     {T::Core, {0, 2}},
                                                              {T::Mem, {0, 3}},      {T::Mem, {0, 2}},
                                                              {T::ShimTile, {0, 0}}, {T::MemTile, {0, 1}}};
    for (std::size_t i = 0; i < want.size(); ++i) {
        CHECK(n.trace.units[i].type == want[i].first);
        CHECK(n.trace.units[i].tile == want[i].second);
        CHECK(n.trace.units[i].events.size() == 8);
    }
    CHECK(n.trace.units[0].events[1].name == "INSTR_EVENT_1");
    CHECK(n.trace.units[0].events[2].name == "NONE");
    CHECK(n.trace.units[2].events[0].name == "DMA_S2MM_0_FINISHED_BD");
    CHECK(n.trace.units[4].events[0].name == "DMA_MM2S_0_START_TASK");
    CHECK(n.trace.units[5].events == model::default_trace_events(model::Arch::AIE2, T::MemTile));
}

TEST_CASE("enable_trace: what cannot be traced is a DesignError", "[frontend][trace]") {
    auto p = two_workers();
    auto other = two_workers();
    p.enable_trace(1024, std::vector<Worker>{other.workers()[0]});
    CHECK_THROWS_WITH(p.resolve(), "enable_trace: worker 'a' is not one of the program's workers");
    TraceOptions o;
    o.trace_size = 1024;
    o.tiles = {{0, 2}};
    p.enable_trace(o);
    CHECK_THROWS_WITH(p.resolve(), "enable_trace: tile (0,2) is a compute tile; trace its worker (workers=) instead");
    o.tiles = {{5, 0}};
    p.enable_trace(o);
    CHECK_THROWS_WITH(p.resolve(), "enable_trace: tile (5,0) is not on npu1_1col");
    // Event lists are checked even when no tile uses them.
    p.enable_trace(1024, std::vector<Worker>{}, std::nullopt, std::vector<TraceEvent>{"LOCK_STALL"});
    CHECK_THROWS_WITH(p.resolve(), "enable_trace memtile_events: 'LOCK_STALL' is not an event npusim knows for "
                                   "memtile trace units on AIE2 (see docs/traces.md for the names)");
}
