// Register-level runtime sequences (npusim/frontend/RawSequence.hpp): the chaining_channels design
// (the idea of mlir-aie programming_examples/basic/chaining_channels at 3ca0193) runs byte-exact on
// npu1 and npu2 with a lock-register write, hand-written shim BDs chained by shim locks, queue pushes
// and a sync; register writes decode by the generation's map (a task-queue write is a push, BD words
// written one by one are a BD); writes npusim does not simulate are warnings naming the register;
// and the deadlock report of chaining_channels without its lock write names true releasers only.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/iron.hpp"
#include "npusim/model/RegisterMap.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/CoreCopyLoop.hpp"

#include <catch2/catch.hpp>

#include <numeric>

using namespace npusim;
using namespace npusim::harness;

namespace {

sim::SimResult run(const DesignSpec& spec, const char* device, const Params& params, model::Netlist* net = nullptr) {
    const auto& dev = model::device_by_name(device);
    const auto inst = spec.build(dev, spec.resolve_params(params), BuildOptions(3));
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(dev.arch);
    auto n = inst.program.resolve();
    auto r = sim::simulate(n, inst.host(), o);
    if (net) *net = std::move(n);
    return r;
}

std::vector<std::uint8_t> words(std::int64_t n, std::int32_t first) {
    std::vector<std::int32_t> v(static_cast<std::size_t>(n));
    std::iota(v.begin(), v.end(), first);
    std::vector<std::uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

} // namespace

TEST_CASE("chaining_channels: a lock-register write and shim BDs chained by shim locks, byte-exact",
          "[examples][rawops]") {
    for (const char* device : {"npu1", "npu2"}) {
        INFO(device);
        model::Netlist net;
        const auto r = run(design_by_name("chaining_channels"), device, {{"n", 128}}, &net);
        CHECK(r.host[0] == words(128, 1)); // a: the mem tile's 1..n, written by the shim S2MM
        // The sequence: the lock write, two pushes and one sync, decoded from the registers.
        REQUIRE(net.sequence.size() == 4);
        CHECK(net.sequence[0].kind == model::RuntimeOp::Kind::SetLock);
        CHECK(net.locks.at(static_cast<std::size_t>(net.sequence[0].lock)).name == "memtile_lock");
        REQUIRE(net.tasks.size() == 2);
        // BD 1 (MM2S) waits until shim lock 1 equals 1, which BD 0 (S2MM) releases when done.
        const auto& t1 = net.tasks[1];
        REQUIRE(t1.acquire_lock >= 0);
        CHECK(net.locks.at(static_cast<std::size_t>(t1.acquire_lock)).tile == model::TileCoord{0, 0});
        CHECK(net.locks.at(static_cast<std::size_t>(t1.acquire_lock)).id == 1);
        CHECK((t1.acquire_equal && t1.acquire_value == 1 && t1.issue_token));
        CHECK(net.tasks[0].release_lock == t1.acquire_lock);
        CHECK(net.sequence[3].kind == model::RuntimeOp::Kind::AwaitTask);
        CHECK(net.sequence[3].task == 1);
    }
    CHECK(run_design(design_by_name("chaining_channels"), "npu2", {}, 1, {}).all_match);
    CHECK(run_design(design_by_name("chaining_channels"), "npu1", {}, 1, {}).all_match);
}

// DeadlockAnalyzer / WaitGraphBuilder read who releases a lock from model::lock_actors: a worker
// that only waits on a hand-written Lock, and a BD that releases a lock by 0, release nothing.
TEST_CASE("chaining_channels without its lock write deadlocks, and the report names true releasers only",
          "[examples][rawops][deadlock]") {
    for (const char* device : {"npu1", "npu2"}) {
        INFO(device);
        try {
            run(design_by_name("chaining_channels"), device, {{"n", 64}, {"kick", 0}});
            FAIL("expected a deadlock");
        } catch (const SimulationError& e) {
            REQUIRE(e.kind() == SimulationError::Kind::Deadlock);
            const std::string msg = e.what();
            INFO(msg);
            // No self-cycle through the worker's own wait, no mem-tile BD "releasing" by 0.
            CHECK_THAT(msg, !Catch::Contains("worker 'spinner' on (0,2) -> lock compute_cons_lock on (0,2) -> worker "
                                             "'spinner'"));
            CHECK_THAT(msg, !Catch::Contains("released by DMA (0,1) MM2S 0"));
            CHECK_THAT(msg, Catch::Contains("waits on lock compute_cons_lock on (0,2) >= 1 (value now 0); released by "
                                            "DMA (0,2) S2MM 0\n"));
            CHECK_THAT(msg, Catch::Contains("DMA (0,1) MM2S 0 waits on lock memtile_lock, which nothing in the design "
                                            "releases"));
            CHECK_THAT(msg, Catch::Contains("lock lock_0_0_1 on (0,0) is 0, needs == 1; released by shim DMA (0,0) "
                                            "S2MM 0"));
        }
    }
}

namespace {
using namespace npusim::iron;

// The shim's MM2S 0 streams 64 words into a compute tile's S2MM 0 BD, which the core copies to
// out_buf for the compute MM2S 0 to stream back to the shim's S2MM 0; `seq` drives the shim by
// registers (the manual_switchbox data path with the routes left to the router).
model::Netlist loop_design(std::function<void(RuntimeData, RuntimeData)> seq, const char* device = "npu1_1col") {
    const Tile shim(0, 0), core(0, 2);
    const auto ty = tensor<std::int32_t>({64});
    const auto loop = test::core_copy_loop(core, ty);
    Runtime rt(std::move(seq), fn_args(ty, ty));
    rt.add_flow(Flow(shim, core));
    rt.add_flow(Flow(core, shim));
    rt.add_tile_dma(loop.dma);
    return Program(device, rt, {loop.worker}, "loop").resolve();
}

std::vector<std::uint8_t> run_loop(const model::Netlist& net) {
    const auto a = words(64, 100);
    const auto r = sim::simulate(net, {a, std::vector<std::uint8_t>(256, 0)}, {});
    return r.host[1];
}
} // namespace

TEST_CASE("register writes decode by the map: a task-queue write is a push, BD words a BD", "[examples][rawops]") {
    const auto& dev = model::device_by_name("npu1_1col");
    const auto& m = model::RegisterMap::of(dev);
    // The BD as eight words (npu_blockwrite), started by writing the task queues (npu_write32):
    // Start_BD_ID [3:0], Enable_Token_Issue [31] (AM025 DMA_<dir>_<ch>_Task_Queue).
    model::ShimBdFields f;
    f.buffer_length = 64;
    f.valid_bd = 1;
    std::uint32_t w[8];
    f.encode(w);
    const auto net = loop_design([&](RuntimeData, RuntimeData) {
        npu_blockwrite(m.bd_word(model::TileKind::Shim, 0, 0), std::vector<std::uint32_t>(w, w + 8), 0, 0);
        npu_address_patch(model::RegisterMap::join({0, 0}, m.bd_word(model::TileKind::Shim, 0, 1)), 0, 0);
        npu_writebd({.bd_id = 1, .buffer_length = 64, .column = 0, .row = 0});
        npu_address_patch(model::RegisterMap::join({0, 0}, m.bd_word(model::TileKind::Shim, 1, 1)), 1, 0);
        npu_write32(m.task_queue(model::TileKind::Shim, model::Direction::MM2S, 0), 0, 0, 0);
        npu_write32(m.task_queue(model::TileKind::Shim, model::Direction::S2MM, 0), 0x80000001u, 0, 0);
        npu_sync(0, 0, 0, 0);
    });
    REQUIRE(net.tasks.size() == 2);
    CHECK(net.tasks[0].dir == model::Direction::MM2S);
    CHECK(net.tasks[1].dir == model::Direction::S2MM);
    CHECK(net.tasks[1].issue_token);
    CHECK(run_loop(net) == words(64, 100));
    CHECK(net.warnings.empty());
}

TEST_CASE("a register write npusim does not simulate is a warning naming the address and the register",
          "[examples][rawops]") {
    const auto net = loop_design([](RuntimeData, RuntimeData) {
        npu_write32(0x00232000u, 2); // Core_Control of (0,2), by array address
        npu_maskwrite32(0x1D200, 0x100, 0x1F00, 0, 0);         // DMA_S2MM_0_Ctrl: the controller id
        npu_write32(0x0DEAD0, 7, 0, 1);                        // nothing of the mem tile's map
        npu_writebd({.bd_id = 0, .buffer_length = 64, .column = 0, .row = 2}); // a compute tile's BD
        npu_writebd({.bd_id = 0, .buffer_length = 64, .column = 0, .row = 0});
        npu_address_patch(0x1D004, 0, 0);
        npu_writebd({.bd_id = 1, .buffer_length = 64, .column = 0, .row = 0});
        npu_address_patch(0x1D024, 1, 0);
        npu_push_queue(0, 0, 1, 0, false, 0, 0);
        npu_push_queue(0, 0, 0, 0, true, 0, 1);
        npu_sync(0, 0, 0, 0);
    });
    REQUIRE(net.warnings.size() == 4);
    CHECK(net.warnings[0] == "npu_write32(0x232000, 2): writes Core_Control of compute tile (0,2) (address "
                             "0x00232000), which npusim does not simulate: the write has no effect in the simulation");
    CHECK_THAT(net.warnings[1], Catch::StartsWith("npu_maskwrite32(0x1d200, 0x100, mask 0x1f00) on (0,0): writes "
                                                  "DMA_S2MM_0_Ctrl of shim tile (0,0) (address 0x0001d200)"));
    CHECK_THAT(net.warnings[2], Catch::StartsWith("npu_write32(0xdead0, 7) on (0,1): writes offset 0xdead0 of mem "
                                                  "tile (0,1) (address 0x001dead0)"));
    CHECK_THAT(net.warnings[3], Catch::StartsWith("npu_writebd(bd_id=0) on (0,2): writes the BD registers of compute "
                                                  "tile (0,2)"));
    CHECK(run_loop(net) == words(64, 100)); // the unsimulated writes change nothing
}

TEST_CASE("set_lock_value and a masked lock-value write set a Lock from the sequence", "[examples][rawops]") {
    const auto& m = model::RegisterMap::of(model::device_by_name("npu2"));
    for (int variant = 0; variant < 2; ++variant) {
        INFO(variant);
        const Tile shim(0, 0), mem(0, 1);
        const auto ty = tensor<std::int32_t>({32});
        std::vector<std::int32_t> init(32);
        std::iota(init.begin(), init.end(), 7);
        const Buffer src = Buffer::with_values(ty, "src", init, mem);
        const Lock go(mem, 3, 0, "go");
        const TileDma dma(mem, {DmaChannel{DMAChannelDir::MM2S, 0, {Bd{.buffer = src, .acquires = {{go, 2}}, .next = Bd::none}}}},
                          "mem_dma");
        const auto lock_reg = m.lock_value(model::TileKind::Mem, 3);
        Runtime rt(
            [&, variant](RuntimeData) {
                if (variant == 0) set_lock_value(go, 2);
                else npu_maskwrite32(model::RegisterMap::join({0, 1}, lock_reg), 0xFFFFFF02u, 0x3F);
                npu_writebd({.bd_id = 0, .buffer_length = 32, .column = 0, .row = 0});
                npu_address_patch(0x1D004, 0, 0);
                npu_push_queue(0, 0, 0, 0, true, 0, 0);
                npu_sync(0, 0, 0, 0);
            },
            fn_args(ty));
        rt.add_flow(Flow(mem, shim));
        rt.add_lock(go);
        rt.add_tile_dma(dma);
        const auto net = Program("npu2_1col", rt, {}, "set_lock").resolve();
        REQUIRE(net.sequence.front().kind == model::RuntimeOp::Kind::SetLock);
        CHECK(net.sequence.front().value == 2);
        const auto r = sim::simulate(net, {std::vector<std::uint8_t>(128, 0)}, {});
        std::vector<std::uint8_t> expect(128);
        std::memcpy(expect.data(), init.data(), 128);
        CHECK(r.host[0] == expect);
    }
}

TEST_CASE("custom_dma and manual_switchbox match their golden references on npu1 and npu2", "[examples][rawops]") {
    for (const char* device : {"npu1", "npu2"}) {
        INFO(device);
        CHECK(run_design(design_by_name("custom_dma"), device, {}, 1, {}).all_match);
        CHECK(run_design(design_by_name("manual_switchbox"), device, {}, 1, {}).all_match);
    }
    // custom_dma reads rows 0, 1 and 3 of the mem tile's buffer (row r holds (r+1)*100 + i).
    model::Netlist net;
    const auto r = run(design_by_name("custom_dma"), "npu2", {{"cols", 4}}, &net);
    CHECK(r.host[0] == [] {
        std::vector<std::uint8_t> b;
        for (std::int32_t base : {100, 200, 400}) {
            const auto w = words(4, base);
            b.insert(b.end(), w.begin(), w.end());
        }
        return b;
    }());
    REQUIRE(net.sequence.size() >= 2);
    CHECK(net.sequence[1].kind == model::RuntimeOp::Kind::SetLock); // after the drain's start
    CHECK(net.sequence[1].value == 3);
}
