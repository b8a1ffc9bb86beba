// The engine on its own: a hand-written netlist (no ObjectFifo anywhere), the transaction timing
// rule, and many simulations in one process.
#include "npusim/iron.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <numeric>

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

using namespace npusim;
using namespace npusim::model;

namespace {

// shim MM2S -> compute (0,2) S2MM BD (no locks, single BD), awaited via a second task in the
// other direction is not needed: the fill itself carries a token.
Netlist one_transfer(std::uint32_t bytes) {
    Netlist n;
    n.device = &device_by_name("npu1_1col");
    n.design = "one_transfer";
    n.buffers.push_back({"dst", {0, 2}, 0x400, bytes, {"dst", "test"}, {}});
    DmaChannelProgram ch;
    ch.tile = {0, 2};
    ch.dir = Direction::S2MM;
    BufferDescriptor bd;
    bd.buffer = 0;
    bd.length_bytes = bytes;
    bd.next = -1;
    ch.bds.push_back(bd);
    n.channels.push_back(ch);
    model::Flow f;
    f.source = {{0, 0}, Direction::MM2S, 0};
    f.dests = {{{0, 2}, Direction::S2MM, 0}};
    f.paths = {{{0, 0}, {0, 1}, {0, 2}}};
    n.flows.push_back(f);
    n.host_tensors.push_back({"src", DType::u8, {bytes}, bytes});
    ShimTask t;
    t.tile = {0, 0};
    t.dir = Direction::MM2S;
    t.host_tensor = 0;
    t.dims = {{1, 0}, {1, 0}, {1, 0}, {bytes / 4, 1}};
    t.issue_token = true;
    t.prov = {"src", "fill"};
    n.tasks.push_back(t);
    n.sequence.push_back({RuntimeOp::Kind::StartTask, 0});
    n.sequence.push_back({RuntimeOp::Kind::AwaitTask, 0});
    return n;
}

} // namespace

TEST_CASE("one BD transfer is one transaction: bytes / rate + route latency", "[sim][timing]") {
    const auto net = one_transfer(4096);
    sim::SimOptions o;
    o.timing = TimingParams::for_arch(Arch::AIE2);
    const auto& t = o.timing;
    const auto r = sim::simulate(net, {std::vector<std::uint8_t>(4096, 7)}, o);
    // controller: the push (BD write + queue push; the channel's first START_TASK, so cold),
    // per-task overhead, 4096 B at 4 B/cycle, 3 switches traversed x 4 cycles
    const std::uint64_t want = t.shim_cold_task_dispatch_cycles + t.shim_mm2s_task_overhead_cycles + 4096 / 4 +
                               3 * t.switch_hop_latency_cycles;
    CHECK(r.cycles == want);
    CHECK(r.bytes_moved == 4096);
    CHECK(r.bd_transfers == 2); // the shim task and the tile BD

    sim::SimOptions slow = o;
    slow.timing.stream_bytes_per_cycle = 2;
    CHECK(sim::simulate(net, {std::vector<std::uint8_t>(4096, 7)}, slow).cycles == want + 4096 / 4);
}

TEST_CASE("many simulations in one process restart time at zero", "[sim][context]") {
    const auto net = one_transfer(256);
    sim::SimOptions o;
    o.timing = TimingParams::for_arch(Arch::AIE2);
    const auto first = sim::simulate(net, {std::vector<std::uint8_t>(256, 1)}, o).cycles;
    for (int i = 0; i < 200; ++i) REQUIRE(sim::simulate(net, {std::vector<std::uint8_t>(256, 1)}, o).cycles == first);
}

#if defined(__SANITIZE_ADDRESS__)
// SystemC 2.3.4 tells ASan about coroutine switches except the one out of a process that ends
// (sc_cor_pkg_qt::abort), so without ScContextGuard::restore_thread_stack ASan kept a coroutine
// stack, unmapped after the run, as the main thread's stack, and LeakSanitizer crashed at exit
// scanning it ("Tracer caught signal 11"). ASan's bounds are read back through the fiber API: a
// switch reports the bounds it leaves.
TEST_CASE("after a run ASan takes the thread's own stack for its stack again", "[sim][context][sanitizer]") {
    pthread_attr_t attr;
    REQUIRE(pthread_getattr_np(pthread_self(), &attr) == 0);
    void* bottom = nullptr;
    std::size_t size = 0;
    REQUIRE(pthread_attr_getstack(&attr, &bottom, &size) == 0);
    pthread_attr_destroy(&attr);

    const auto net = one_transfer(256);
    sim::SimOptions o;
    o.timing = TimingParams::for_arch(Arch::AIE2);
    for (int i = 0; i < 3; ++i) REQUIRE(sim::simulate(net, {std::vector<std::uint8_t>(256, 1)}, o).cycles > 0);

    void* fake_stack = nullptr;
    const void* seen_bottom = nullptr;
    std::size_t seen_size = 0;
    __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
    __sanitizer_finish_switch_fiber(fake_stack, &seen_bottom, &seen_size);
    CHECK(seen_bottom == bottom);
    CHECK(seen_size == size);
}
#endif

TEST_CASE("host tensors must match the netlist", "[sim][errors]") {
    const auto net = one_transfer(256);
    sim::SimOptions o;
    CHECK_THROWS_WITH(sim::simulate(net, {}, o), "design 'one_transfer' takes 1 host tensors, 0 were given");
    try {
        sim::simulate(net, {std::vector<std::uint8_t>(100)}, o);
        FAIL("no error");
    } catch (const SimulationError& e) {
        CHECK(e.kind() == SimulationError::Kind::Mismatch);
        CHECK(std::string(e.what()) == "design 'one_transfer': host tensor 0 (src) must be 256 B, got 100 B");
    }
}

TEST_CASE("a core program built by hand runs against the netlist's rings", "[sim][core]") {
    // shim -> (0,2) S2MM into a 2-buffer ring; the core adds 1 to each byte into an output ring;
    // (0,2) MM2S -> shim.
    Netlist n;
    n.device = &device_by_name("npu1");
    n.design = "hand";
    for (int k = 0; k < 4; ++k)
        n.buffers.push_back(
            {"b" + std::to_string(k), {0, 2}, static_cast<std::uint32_t>(0x400 + k * 64), 64, {"hand", "ring", k}, {}});
    n.locks = {{"in_free", {0, 2}, 0, 2, {}},
               {"in_full", {0, 2}, 1, 0, {}},
               {"out_free", {0, 2}, 2, 2, {}},
               {"out_full", {0, 2}, 3, 0, {}}};
    auto chain = [](Direction d, int b0, int acq, int rel) {
        DmaChannelProgram c;
        c.tile = {0, 2};
        c.dir = d;
        for (int k = 0; k < 2; ++k) {
            BufferDescriptor bd;
            bd.buffer = b0 + k;
            bd.length_bytes = 64;
            bd.acquire_lock = acq;
            bd.acquire_value = 1;
            bd.release_lock = rel;
            bd.release_value = 1;
            bd.next = 1 - k;
            c.bds.push_back(bd);
        }
        return c;
    };
    n.channels = {chain(Direction::S2MM, 0, 0, 1), chain(Direction::MM2S, 2, 3, 2)};
    n.flows.push_back({{{0, 0}, Direction::MM2S, 0}, {{{0, 2}, Direction::S2MM, 0}}, {{{0, 0}, {0, 1}, {0, 2}}}, {}});
    n.flows.push_back({{{0, 2}, Direction::MM2S, 0}, {{{0, 0}, Direction::S2MM, 0}}, {{{0, 2}, {0, 1}, {0, 0}}}, {}});
    CoreProgram core;
    core.worker = "adder";
    core.tile = {0, 2};
    core.rings = {{1, {0, 1}, 1, 0, 1, {"in", "consumer"}}, {2, {2, 3}, 2, 3, 1, {"out", "producer"}}};
    core.body = [] {
        auto* s = CoreServices::current();
        std::byte* in = s->acquire(1, 1)[0];
        std::byte* out = s->acquire(2, 1)[0];
        for (int i = 0; i < 64; ++i) out[i] = static_cast<std::byte>(static_cast<std::uint8_t>(in[i]) + 1);
        s->add_cycles(64);
        s->release(1, 1);
        s->release(2, 1);
    };
    n.cores.push_back(core);
    n.host_tensors = {{"a", DType::u8, {512}, 512}, {"b", DType::u8, {512}, 512}};
    ShimTask fill;
    fill.tile = {0, 0};
    fill.dir = Direction::MM2S;
    fill.host_tensor = 0;
    fill.dims = {{1, 0}, {1, 0}, {1, 0}, {128, 1}};
    ShimTask drain = fill;
    drain.id = 1;
    drain.dir = Direction::S2MM;
    drain.host_tensor = 1;
    drain.issue_token = true;
    n.tasks = {fill, drain};
    n.sequence = {{RuntimeOp::Kind::StartTask, 0}, {RuntimeOp::Kind::StartTask, 1}, {RuntimeOp::Kind::AwaitTask, 1}};
    std::vector<std::uint8_t> a(512);
    std::iota(a.begin(), a.end(), 0);
    sim::SimOptions o;
    const auto r = sim::simulate(n, {a, std::vector<std::uint8_t>(512)}, o);
    for (std::size_t i = 0; i < 512; ++i) REQUIRE(r.host[1][i] == static_cast<std::uint8_t>(a[i] + 1));
    REQUIRE(r.cores.size() == 1);
    CHECK(r.cores[0].iterations == 8);
    CHECK(r.cores[0].busy_cycles == 8 * 64);
}

TEST_CASE("simulate_in_place reads and writes the caller's memory: the results and cycles of simulate",
          "[sim][host]") {
    using namespace npusim::iron;
    ObjectFifo in(tensor<std::int32_t>({256}), "in"), out(tensor<std::int32_t>({256}), "out");
    Worker w(
        [](ObjectFifoHandle a, ObjectFifoHandle b) {
            auto x = a.acquire(1).as<std::int32_t>();
            auto y = b.acquire(1).as<std::int32_t>();
            for (std::size_t j = 0; j < x.size(); ++j) y[j] = x[j] * 3;
            a.release(1);
            b.release(1);
        },
        fn_args(in.cons(), out.prod()));
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle h, ObjectFifoHandle o) {
            h.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({1024}), tensor<std::int32_t>({1024}), in.prod(), out.cons()));
    const auto net = Program("npu2", rt, {w}).resolve();
    sim::SimOptions o;
    o.timing = TimingParams::for_arch(Arch::AIE2P);
    std::vector<std::int32_t> a(1024), b(1024, -1);
    std::iota(a.begin(), a.end(), -500);
    std::vector<std::uint8_t> a_bytes(4096), b_bytes(4096);
    std::memcpy(a_bytes.data(), a.data(), 4096);
    std::memcpy(b_bytes.data(), b.data(), 4096);
    const auto copied = sim::simulate(net, {a_bytes, b_bytes}, o);

    const auto r = sim::simulate_in_place(
        net, {std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(a.data()), 4096),
              std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(b.data()), 4096)},
        o);
    CHECK(r.cycles == copied.cycles);
    CHECK(r.host.empty()); // nothing owned: the caller's memory holds the tensors
    for (std::size_t k = 0; k < b.size(); ++k) REQUIRE(b[k] == a[k] * 3);
    CHECK(std::memcmp(b.data(), copied.host[1].data(), 4096) == 0);

    // Two tensors in the same memory would see each other's writes, which no C++ run can: refused.
    CHECK_THROWS_WITH(sim::simulate_in_place(net,
                                             {std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(a.data()), 4096),
                                              std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(a.data()) + 64,
                                                                      4096 - 64)},
                                             o),
                      Catch::Contains("host tensors 0 and 1 overlap in memory"));
}
