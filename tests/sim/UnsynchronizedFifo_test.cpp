// ObjectFifo disable_synchronization and delegate_tile through the whole path, on the construct
// mlir-aie's ml/mobilenet bottleneck/regular.py uses (l.472-486): a self-loop fifo whose producer
// and consumer are the same worker, its buffers on a neighbour tile, with no locks. The toolchain
// makes no lock pair for it (AIEObjectFifoStatefulTransform.cpp l.711-712) and puts the pool on
// the delegate (l.981-994); acquire and release only rotate the buffer index.
#include "NetlistQuery.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;
using npusim::test::has_buffer;
using npusim::test::values_of;

namespace {

constexpr int kUnsyncRows = 6, kUnsyncWidth = 8;

// Worker 'w' on (1,2): each input row r becomes 2r+1 in the self-loop fifo 'loop' (depth 3); from
// the second row on, the sum of the two newest rows of 'loop' goes out - a sliding window over
// objects the worker made itself, as mobilenet's 1x1 -> 3x3 layers on one tile.
model::Netlist unsync_loop_design(FifoOptions loop_opts) {
    const auto row = tensor<std::int32_t>({kUnsyncWidth});
    ObjectFifo in(row, "in"), out(row, "out"), loop(row, "loop", 3, std::move(loop_opts));
    auto body = [](ObjectFifoHandle i, ObjectFifoHandle o, ObjectFifoHandle lp, ObjectFifoHandle lc) {
        for (int t = 0; t < kUnsyncRows; ++t) {
            auto x = i.acquire(1);
            auto y = lp.acquire(1);
            for (int k = 0; k < kUnsyncWidth; ++k) y.at<std::int32_t>(k) = 2 * x.at<std::int32_t>(k) + 1;
            lp.release(1);
            i.release(1);
            if (t == 0) continue;
            auto w = lc.acquire(2);
            auto z = o.acquire(1);
            for (int k = 0; k < kUnsyncWidth; ++k)
                z.at<std::int32_t>(k) = w[0].at<std::int32_t>(k) + w[1].at<std::int32_t>(k);
            o.release(1);
            lc.release(1);
        }
        lc.release(1);
    };
    Worker w(body, fn_args(in.cons(), out.prod(), loop.prod(), loop.cons()),
             {.tile = Tile(1, 2), .while_true = false, .name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({kUnsyncRows * kUnsyncWidth}),
                tensor<std::int32_t>({(kUnsyncRows - 1) * kUnsyncWidth}), in.prod(), out.cons()));
    return Program("npu1", rt, {w}).resolve();
}

std::vector<std::int32_t> unsync_input() {
    std::vector<std::int32_t> a(kUnsyncRows * kUnsyncWidth);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int32_t>(i * 7 % 23) - 11;
    return a;
}

// out[t-1][k] = (2 in[t-1][k] + 1) + (2 in[t][k] + 1), computed here, not by the design.
std::vector<std::int32_t> unsync_golden(const std::vector<std::int32_t>& a) {
    std::vector<std::int32_t> g;
    for (int t = 1; t < kUnsyncRows; ++t)
        for (int k = 0; k < kUnsyncWidth; ++k)
            g.push_back(2 * a[static_cast<std::size_t>((t - 1) * kUnsyncWidth + k)] + 1 +
                        2 * a[static_cast<std::size_t>(t * kUnsyncWidth + k)] + 1);
    return g;
}

const model::NetBuffer& unsync_buffer(const model::Netlist& n, const std::string& name) {
    for (const auto& b : n.buffers)
        if (b.name == name) return b;
    FAIL("no buffer " << name);
    return n.buffers.front();
}

bool unsync_has_lock(const model::Netlist& n, const std::string& name) {
    for (const auto& l : n.locks)
        if (l.name == name) return true;
    return false;
}

} // namespace

TEST_CASE("disable_synchronization + delegate_tile: a self-loop pool on the neighbour, no locks", "[sim][fifo]") {
    const auto n = unsync_loop_design({.disable_synchronization = true, .delegate_tile = Tile(0, 2)});
    // Three buffers (the declared depth, as with locks) on the delegate (0,2), west of the core.
    for (int k = 0; k < 3; ++k)
        CHECK(unsync_buffer(n, "loop_buff_" + std::to_string(k)).tile == model::TileCoord{0, 2});
    CHECK_FALSE(has_buffer(n, "loop_buff_3"));
    CHECK_FALSE(unsync_has_lock(n, "loop_prod_lock_0"));
    CHECK_FALSE(unsync_has_lock(n, "loop_cons_lock_0"));
    const auto& core = n.cores.at(0);
    REQUIRE(core.rings.size() == 4);
    int lockless = 0;
    for (const auto& r : core.rings)
        if (r.prov.object == "loop") {
            CHECK(r.acquire_lock == -1);
            CHECK(r.release_lock == -1);
            ++lockless;
        }
    CHECK(lockless == 2);
    const auto a = unsync_input();
    const auto r = sim::simulate(n, {bytes_of(a), std::vector<std::uint8_t>((kUnsyncRows - 1) * kUnsyncWidth * 4)}, {});
    CHECK(values_of<std::int32_t>(r.host[1]) == unsync_golden(a));
}

TEST_CASE("disable_synchronization alone and with locks give the same rows", "[sim][fifo]") {
    const auto a = unsync_input();
    const auto unsync = unsync_loop_design({.disable_synchronization = true});
    const auto locked = unsync_loop_design({});
    // Without a delegate the pool stays on the worker's tile; with synchronization it has its lock pair.
    CHECK(unsync_buffer(unsync, "loop_buff_0").tile == model::TileCoord{1, 2});
    CHECK_FALSE(unsync_has_lock(unsync, "loop_prod_lock_0"));
    CHECK(unsync_has_lock(locked, "loop_prod_lock_0"));
    CHECK(unsync.locks.size() + 2 == locked.locks.size());
    for (const auto* n : {&unsync, &locked}) {
        const auto r =
            sim::simulate(*n, {bytes_of(a), std::vector<std::uint8_t>((kUnsyncRows - 1) * kUnsyncWidth * 4)}, {});
        CHECK(values_of<std::int32_t>(r.host[1]) == unsync_golden(a));
    }
}

TEST_CASE("delegate_tile with synchronization: the pool and its locks go to the delegate", "[sim][fifo]") {
    // The lock pair is created on the creation tile, which the delegate replaces (Stateful l.990).
    const auto n = unsync_loop_design({.delegate_tile = Tile(1, 3)});
    CHECK(unsync_buffer(n, "loop_buff_2").tile == model::TileCoord{1, 3});
    bool on_delegate = false;
    for (const auto& l : n.locks)
        if (l.name == "loop_prod_lock_0") on_delegate = l.tile == model::TileCoord{1, 3};
    CHECK(on_delegate);
    const auto a = unsync_input();
    const auto r = sim::simulate(n, {bytes_of(a), std::vector<std::uint8_t>((kUnsyncRows - 1) * kUnsyncWidth * 4)}, {});
    CHECK(values_of<std::int32_t>(r.host[1]) == unsync_golden(a));
}
