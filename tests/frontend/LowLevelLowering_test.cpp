// The low-level API (IRON Lock, Flow, TileDma with Bd/Acquire/Release, Runtime.add_flow /
// add_lock / add_tile_dma, python/iron/lock.py, dataflow/flow.py, dataflow/tile_dma.py) resolved
// straight into the netlist, with the toolchain's checks: AIEAssignLockIDs.cpp (explicit ids kept,
// "is assigned to the same lock (N) as another op.", "not allocated a lock."), LockOp::verify
// ("lock assigned invalid id (maximum is N)"), DMABDOp::verify ("Core tile DMAs can only access a
// buffer in the same tile.", "transfer length must be multiple of 4"), UseLockOp::verify ("can only
// access a lock in the same tile"), UsesAreAccessible, AIEAssignBufferDescriptorIDs ("Allocator
// exhausted available BD IDs"), flow.py _emit_shim_dma_alloc and AIEDmaToNpu.cpp ("couldn't find
// shim_dma_allocation op."). docs/resolve-lowlevel.md "Low-level API".
#include "npusim/iron.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;

namespace {

const Tile kShim(0, 0), kCore(0, 2);

struct Design {
    std::vector<Lock> locks;
    std::vector<TileDma> dmas;
    std::vector<Flow> flows;
    std::vector<Worker> workers;
    std::function<void(RuntimeData, RuntimeData)> seq = [](RuntimeData, RuntimeData) {};
};

model::Netlist resolve(const Design& d, const std::string& device = "npu1") {
    Runtime rt(d.seq, fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({64})));
    for (const auto& l : d.locks) rt.add_lock(l);
    for (const auto& f : d.flows) rt.add_flow(f);
    for (const auto& t : d.dmas) rt.add_tile_dma(t);
    return Program(device, rt, d.workers, "lowlevel").resolve();
}

// A compute tile receiving 64 words into `buf` (S2MM 0, one self-looping BD) from the shim.
Design receiver(Buffer buf, Lock empty, Lock full) {
    Design d;
    d.locks = {empty, full};
    d.dmas = {TileDma(
        kCore, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = buf, .acquires = {{empty}}, .releases = {{full}}}}}},
        "rx")};
    d.flows = {Flow(kShim, kCore, {.shim_symbol = "in"})};
    return d;
}

} // namespace

TEST_CASE("low-level: locks, a TileDma chain and a Flow lower straight into the netlist", "[frontend][lowlevel]") {
    Buffer a(tensor<std::int32_t>({64}), "a", {}, kCore), b(tensor<std::int32_t>({64}), "b", {}, kCore);
    Lock empty(kCore, 5, 2, "empty"), full(kCore, std::nullopt, 0, "full");
    Design d;
    d.locks = {empty, full};
    d.dmas = {TileDma(
        kCore,
        {DmaChannel{
            DMAChannelDir::S2MM,
            1,
            {Bd{.buffer = a, .offset = 16, .length = 32, .acquires = {{empty}}, .releases = {{full, 1}}, .next = 1},
             Bd{.buffer = b,
                .acquires = {{empty, 1, false}},
                .releases = {{full}},
                .next = 0,
                .sizes = {8, 8},
                .strides = {1, 8}}}}},
        "rx")};
    d.flows = {Flow(kShim, kCore, {.src_channel = 1, .dst_channel = 1, .shim_symbol = "in"})};
    const auto net = resolve(d);
    // AIEAssignLockIDs: the explicit id 5 is kept, the unassigned lock takes the lowest free id.
    REQUIRE(net.locks.size() == 2);
    CHECK(net.locks[0].name == "empty");
    CHECK(net.locks[0].id == 5);
    CHECK(net.locks[0].init == 2);
    CHECK(net.locks[1].id == 0);
    REQUIRE(net.channels.size() == 1);
    const auto& ch = net.channels[0];
    CHECK(ch.tile == model::TileCoord{0, 2});
    CHECK(ch.dir == model::Direction::S2MM);
    CHECK(ch.channel == 1);
    REQUIRE(ch.bds.size() == 2);
    CHECK(ch.bds[0].offset_bytes == 64);
    CHECK(ch.bds[0].length_bytes == 128);
    CHECK(ch.bds[0].acquire_lock == 0);
    CHECK_FALSE(ch.bds[0].acquire_equal);
    CHECK(ch.bds[0].release_lock == 1);
    CHECK(ch.bds[0].next == 1);
    CHECK(ch.bds[1].acquire_equal); // Acquire(greater_equal=false): use_lock(Acquire)
    CHECK(ch.bds[1].next == 0);
    CHECK(ch.bds[1].dims == std::vector<model::Dim>{{8, 1}, {8, 8}});
    CHECK(ch.bds[1].length_bytes == 256);
    REQUIRE(net.flows.size() == 1);
    CHECK(net.flows[0].source == model::StreamEndpoint{{0, 0}, model::Direction::MM2S, 1});
    CHECK(net.flows[0].dests == std::vector<model::StreamEndpoint>{{{0, 2}, model::Direction::S2MM, 1}});
}

TEST_CASE("low-level: the runtime sequence drives a Flow's shim end through its shim_symbol", "[frontend][lowlevel]") {
    Buffer buf(tensor<std::int32_t>({64}), "buf", {}, kCore);
    auto d = receiver(buf, Lock(kCore, std::nullopt, 1, "e"), Lock(kCore, std::nullopt, 0, "f"));
    d.seq = [](RuntimeData a, RuntimeData) {
        const Task t = shim_dma_single_bd_task("in", a, {.issue_token = true});
        dma_start_task(t);
        dma_await_task(t);
    };
    const auto net = resolve(d);
    REQUIRE(net.tasks.size() == 1);
    CHECK(net.tasks[0].tile == model::TileCoord{0, 0});
    CHECK(net.tasks[0].dir == model::Direction::MM2S); // flow.py: the shim is the source -> MM2S
    CHECK(net.tasks[0].issue_token);
    CHECK(net.tasks[0].bytes() == 256);
    REQUIRE(net.sequence.size() == 2);
    CHECK(net.sequence[1].kind == model::RuntimeOp::Kind::AwaitTask);

    d.seq = [](RuntimeData a, RuntimeData) { dma_start_task(shim_dma_single_bd_task("nope", a)); };
    CHECK_THROWS_WITH(resolve(d), "shim_dma_single_bd_task: no Flow or PacketFlow declares shim_symbol 'nope': "
                                  "couldn't find shim_dma_allocation op.");
    d.seq = [](RuntimeData a, RuntimeData) { dma_await_task(shim_dma_single_bd_task("in", a)); };
    CHECK_THROWS_WITH(resolve(d), "shim_symbol 'in': dma_await_task on a task that was not started (dma_start_task)");
    d.seq = [](RuntimeData a, RuntimeData) {
        const Task t = shim_dma_single_bd_task("in", a);
        dma_start_task(t);
        dma_await_task(t);
    };
    CHECK_THROWS_WITH(resolve(d), "shim_symbol 'in': only a wait=true transfer can be awaited "
                                  "(shim_dma_single_bd_task with issue_token=true)");
}

TEST_CASE("low-level: lock ids out of range, used twice or exhausted are refused", "[frontend][lowlevel][errors]") {
    Buffer buf(tensor<std::int32_t>({64}), "buf", {}, kCore);
    auto d = receiver(buf, Lock(kCore, 16, 1, "e"), Lock(kCore, std::nullopt, 0, "f"));
    CHECK_THROWS_WITH(resolve(d), "compute tile (0,2): 'e' lock: lock assigned invalid id (maximum is 15); got "
                                  "lock_id 16");
    d = receiver(buf, Lock(kCore, 3, 1, "e"), Lock(kCore, 3, 0, "f"));
    CHECK_THROWS_WITH(resolve(d), "compute tile (0,2): 'f' lock is assigned to the same lock (3) as another op.");
    d = receiver(buf, Lock(kCore, std::nullopt, 64, "e"), Lock(kCore, std::nullopt, 0, "f"));
    CHECK_THROWS_WITH(resolve(d), "'e' lock: lock 'e' initial value 64 is outside 0..63");
    d = receiver(buf, Lock(kCore, std::nullopt, 1, "e"), Lock(kCore, std::nullopt, 0, "f"));
    for (int i = 0; i < 15; ++i) d.locks.push_back(Lock(kCore, std::nullopt, 0, "x" + std::to_string(i)));
    CHECK_THROWS_WITH(resolve(d), "compute tile (0,2): 'x14' lock needs a lock but all 16 locks are in use: not "
                                  "allocated a lock.");
    // A Lock on AnyComputeTile is its own logical tile, placed on the first free compute tile (the
    // TileDma's pinned (0,2) is taken): the BD on (0,2) cannot reach it (LowLevelPlacement_test).
    d = receiver(buf, Lock(AnyComputeTile, std::nullopt, 1, "e"), Lock(kCore, std::nullopt, 0, "f"));
    CHECK_THROWS_WITH(resolve(d), "TileDma 'rx' S2MM channel 0 Bd 0: lock 'e' is on (0,3): can only access a lock "
                                  "in the same tile");
}

TEST_CASE("low-level: a BD's buffer and locks must be reachable from its DMA", "[frontend][lowlevel][errors]") {
    Buffer far(tensor<std::int32_t>({64}), "far", {}, Tile(0, 3));
    auto d = receiver(far, Lock(kCore, std::nullopt, 1, "e"), Lock(kCore, std::nullopt, 0, "f"));
    CHECK_THROWS_WITH(resolve(d), "TileDma 'rx' S2MM channel 0 Bd 0: buffer 'far' is on (0,3): Core tile DMAs can "
                                  "only access a buffer in the same tile.");
    Buffer buf(tensor<std::int32_t>({64}), "buf", {}, kCore);
    d = receiver(buf, Lock(Tile(0, 3), std::nullopt, 1, "e"), Lock(kCore, std::nullopt, 0, "f"));
    CHECK_THROWS_WITH(resolve(d), "TileDma 'rx' S2MM channel 0 Bd 0: lock 'e' is on (0,3): can only access a lock "
                                  "in the same tile");
    // A mem tile's channels 0-3 reach the west and east mem tiles; 4 and 5 only their own.
    const Tile mem(1, 1);
    Buffer west(tensor<std::int32_t>({64}), "west", {}, Tile(0, 1));
    Lock le(mem, std::nullopt, 1, "le"), lf(mem, std::nullopt, 0, "lf");
    for (int ch : {0, 4}) {
        Design m;
        m.locks = {le, lf};
        m.dmas = {TileDma(
            mem, {DmaChannel{DMAChannelDir::S2MM, ch, {Bd{.buffer = west, .acquires = {{le}}, .releases = {{lf}}}}}},
            "memdma")};
        if (ch == 0) {
            CHECK(resolve(m).channels.at(0).bds.at(0).buffer == 0);
        } else {
            CHECK_THROWS_WITH(resolve(m), "TileDma 'memdma' S2MM channel 4 Bd 0: buffer 'west' is on (0,1): is "
                                          "reachable from DMA channel 4 and attempts to access a non-local buffer");
        }
    }
    Lock worker_lock(Tile(2, 2), std::nullopt, 0, "wl");
    Design w;
    w.workers = {Worker([](Lock l) { l.acquire(); }, fn_args(worker_lock), {.tile = kCore, .name = "w"})};
    CHECK_THROWS_WITH(resolve(w), "worker 'w': lock 'wl' in Column 2 and Row 2 is accessed from an unreachable tile "
                                  "in Column 0 and Row 2");
}

TEST_CASE("low-level: BD fields, chain length and next are checked", "[frontend][lowlevel][errors]") {
    Buffer buf(tensor<std::int32_t>({64}), "buf", {}, kCore);
    Lock e(kCore, std::nullopt, 1, "e"), f(kCore, std::nullopt, 0, "f");
    auto with_bds = [&](std::vector<Bd> bds) {
        Design d;
        d.locks = {e, f};
        d.dmas = {TileDma(kCore, {DmaChannel{DMAChannelDir::S2MM, 0, std::move(bds)}}, "rx")};
        return d;
    };
    // 17 BDs on one compute-tile channel: the tile has 16 (AIEAssignBufferDescriptorIDs).
    CHECK_THROWS_WITH(resolve(with_bds(std::vector<Bd>(17, Bd{.buffer = buf, .next = Bd::none}))),
                      Catch::Contains("TileDma 'rx' S2MM channel 0 needs 17 BDs on S2MM channel 0 but only 16 of BDs "
                                      "0-15 are free: Allocator exhausted available BD IDs"));
    CHECK_THROWS_WITH(resolve(with_bds({Bd{.buffer = buf, .next = 3}})),
                      "TileDma 'rx' S2MM channel 0 Bd 0: Bd.next index 3 out of range for channel with 1 BDs");
    CHECK_THROWS_WITH(resolve(with_bds({Bd{.buffer = buf, .acquires = {{e}, {f}}}})),
                      "TileDma 'rx' S2MM channel 0 Bd 0: 2 acquires and 0 releases; a BD has one lock acquire and "
                      "one lock release");
    CHECK_THROWS_WITH(resolve(with_bds({Bd{.buffer = buf, .offset = 60, .length = 8}})),
                      "TileDma 'rx' S2MM channel 0 Bd 0: offset 60 + length 8 is outside buffer 'buf' of 64 elements");
    Buffer bytes(tensor<std::uint8_t>({64}), "bytes", {}, kCore);
    CHECK_THROWS_WITH(resolve(with_bds({Bd{.buffer = bytes, .length = 6}})),
                      "TileDma 'rx' S2MM channel 0 Bd 0: 6 B: transfer length must be multiple of 4 (i.e., represent "
                      "4 byte aligned address)");
    CHECK_THROWS_WITH(resolve(with_bds({Bd{.buffer = buf, .releases = {{f, 64}}}})),
                      "TileDma 'rx' S2MM channel 0 Bd 0: lock value 64 is outside the lock's state 0..63");
    CHECK_THROWS_WITH(resolve(with_bds({Bd{.buffer = buf, .sizes = {4}, .strides = {1, 2}}})),
                      "TileDma 'rx' S2MM channel 0 Bd 0: 1 sizes but 2 strides; they must have equal length");
    CHECK_THROWS_WITH(resolve(with_bds({Bd{.buffer = buf, .sizes = {8, 8}, .strides = {16, 1}}})),
                      "TileDma 'rx' S2MM channel 0 Bd 0: sizes/strides move 256 B within offsets 0..479 from 0 B into "
                      "a 256 B buffer, for a length of 256 B");
    Design two = with_bds({Bd{.buffer = buf}});
    two.dmas.push_back(TileDma(kCore, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = buf}}}}, "rx2"));
    CHECK_THROWS_WITH(resolve(two), "compute tile (0,2): TileDma 'rx2' uses S2MM DMA channel 0, which TileDma 'rx' "
                                    "already uses");
    Design bad_ch = with_bds({});
    bad_ch.dmas = {TileDma(kCore, {DmaChannel{DMAChannelDir::MM2S, 2, {Bd{.buffer = buf}}}}, "tx")};
    CHECK_THROWS_WITH(resolve(bad_ch), "compute tile (0,2): TileDma 'tx' uses MM2S DMA channel 2 but the tile has "
                                       "channels 0..1");
}

TEST_CASE("low-level: a Flow's shim_symbol needs a shim end, a destination port takes one flow",
          "[frontend][lowlevel][errors]") {
    Design d;
    d.flows = {Flow(Tile(0, 1), kCore, {.shim_symbol = "x"})};
    CHECK_THROWS_WITH(resolve(d), "Flow.shim_symbol='x' requires a shim endpoint, but neither src (Tile(0,1)) nor "
                                  "dst (Tile(0,2)) is a shim tile.");
    d.flows = {Flow(kShim, kCore), Flow(Tile(1, 0), kCore)};
    CHECK_THROWS_WITH(resolve(d), "Flow Tile(1,0) DMA:0 -> Tile(0,2) DMA:0: another Flow already ends at (0,2) S2MM 0; "
                                  "a circuit-switched destination port takes one flow (use PacketFlow to merge "
                                  "streams)");
    d.flows = {Flow(kShim, kCore, {.shim_symbol = "s"}),
               Flow(kShim, Tile(0, 3), {.src_channel = 1, .shim_symbol = "s"})};
    CHECK_THROWS_WITH(resolve(d), "Flow Tile(0,0) DMA:1 -> Tile(0,3) DMA:0: shim_symbol 's' is already declared by "
                                  "another flow");
    // A Flow's tile end needs a BD program (else a fifo could take its channel).
    d.flows = {Flow(kShim, kCore)};
    CHECK_THROWS_WITH(resolve(d), "Flow Tile(0,0) DMA:0 -> Tile(0,2) DMA:0: (0,2) S2MM 0 has no BD program; add a "
                                  "DmaChannel for it to a TileDma of tile (0,2)");
    // Two flows from one source port: one broadcast flow.
    d.flows = {Flow(kShim, kCore), Flow(kShim, Tile(0, 3))};
    for (const Tile& t : {kCore, Tile(0, 3)})
        d.dmas.push_back(TileDma(
            t, {DmaChannel{DMAChannelDir::S2MM,
                           0,
                           {Bd{.buffer = Buffer(tensor<std::int32_t>({64}), "b" + std::to_string(*t.row), {}, t)}}}}));
    const auto net = resolve(d);
    REQUIRE(net.flows.size() == 1);
    CHECK(net.flows[0].dests.size() == 2);
}

TEST_CASE("low-level: a worker's Lock values are checked when its body is traced", "[frontend][lowlevel][errors]") {
    Lock l(kCore, std::nullopt, 0, "l");
    Design d;
    d.workers = {Worker([](Lock x) { x.release(64); }, fn_args(l), {.tile = kCore, .name = "w"})};
    CHECK_THROWS_WITH(resolve(d), "worker 'w': lock 'l'.release(64): a lock value must be within 0..63 (the lock's "
                                  "state)");
    d.workers = {Worker([l] { l.acquire(); }, {.tile = kCore, .name = "w"})};
    CHECK_THROWS_WITH(resolve(d), "worker 'w': uses a Lock that is not among the worker's fn_args");
    CHECK_THROWS_WITH(l.acquire(), "lock 'l': acquire() called outside a worker body");
}
