// Default names of the low-level objects (Lock, TileDma, WorkerRuntimeBarrier) are numbered per
// design when it resolves, in first-use order, so the same design gets the same names however
// many objects the process built before it (not a process-wide counter: "tile_dma_19").
#include "npusim/iron.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace npusim;
using namespace npusim::iron;

namespace {
// A compute tile filling one buffer from the shim: unnamed Locks and an unnamed TileDma, plus a
// worker with an unnamed barrier; `named_lock` is a Lock the user named "lock_0".
model::Netlist build(bool with_named_lock) {
    const Tile shim(0, 0), core(0, 2);
    Buffer buf(tensor<std::int32_t>({16}), "buf", {}, core);
    Lock empty(core, std::nullopt, 1), full(core);
    std::vector<Lock> locks{empty, full};
    if (with_named_lock) locks.insert(locks.begin(), Lock(core, std::nullopt, 0, "lock_0"));
    WorkerRuntimeBarrier barrier;
    Worker w([](Lock f, Lock e, WorkerRuntimeBarrier b) {
        b.wait_for_value(1);
        f.acquire();
        e.release();
    },
             fn_args(full, empty, barrier), {.tile = core, .name = "w"});
    TileDma dma(core, {DmaChannel{.direction = DMAChannelDir::S2MM,
                                  .channel = 0,
                                  .bds = {Bd{.buffer = buf, .acquires = {{empty}}, .releases = {{full}}}}}});
    Runtime rt(
        [barrier](RuntimeData a) {
            barrier.set(1);
            const Task t = shim_dma_single_bd_task("in", a, {.issue_token = true});
            dma_start_task(t);
            dma_await_task(t);
        },
        fn_args(tensor<std::int32_t>({16})));
    rt.add_flow(Flow(shim, core, {.shim_symbol = "in"}));
    for (const auto& l : locks) rt.add_lock(l);
    rt.add_tile_dma(dma);
    return Program("npu1_1col", rt, {w}, "names").resolve();
}

std::vector<std::string> lock_names(const model::Netlist& net) {
    std::vector<std::string> v;
    for (const auto& l : net.locks) v.push_back(l.name);
    std::sort(v.begin(), v.end());
    return v;
}
} // namespace

TEST_CASE("unnamed Locks, TileDmas and barriers are numbered per design, not per process", "[resolve][names]") {
    const auto first = build(false);
    // Objects built in between would move a process-wide counter.
    for (int i = 0; i < 5; ++i) {
        Lock(Tile(0, 2));
        TileDma(Tile(0, 2), {});
        WorkerRuntimeBarrier();
    }
    const auto second = build(false);
    for (const auto* net : {&first, &second}) {
        const auto names = lock_names(*net);
        CHECK(std::count(names.begin(), names.end(), "lock_0") == 1);
        CHECK(std::count(names.begin(), names.end(), "lock_1") == 1);
        CHECK(std::count(names.begin(), names.end(), "barrier_0_w") == 1); // the barrier's lock on worker w
        REQUIRE(net->channels.size() == 1);
        CHECK(net->channels[0].prov.object == "tile_dma_0");
    }
    CHECK(lock_names(first) == lock_names(second));
}

TEST_CASE("a default name skips a name the user gave another object of its kind", "[resolve][names]") {
    const auto names = lock_names(build(true));
    // The user's "lock_0" keeps its name; the two unnamed Locks become lock_1 and lock_2.
    CHECK(std::count(names.begin(), names.end(), "lock_0") == 1);
    CHECK(std::count(names.begin(), names.end(), "lock_1") == 1);
    CHECK(std::count(names.begin(), names.end(), "lock_2") == 1);
}
