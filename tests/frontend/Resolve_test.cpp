// resolve(): lowering structure against the toolchain rules of
// docs/resolve.md "Rule labels" (R2-R8, R11) and every structural error's text.
#include "npusim/iron.hpp"
#include "npusim/kernels/passthrough.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;

namespace {

const model::NetLock& lock_named(const model::Netlist& n, const std::string& name) {
    for (const auto& l : n.locks)
        if (l.name == name) return l;
    FAIL("no lock " << name);
    throw;
}
const model::NetBuffer& buffer_named(const model::Netlist& n, const std::string& name) {
    for (const auto& b : n.buffers)
        if (b.name == name) return b;
    FAIL("no buffer " << name);
    throw;
}

Kernel copy_kernel(std::int64_t n) {
    return Kernel("passThroughLine", kernels::passThroughLine_u8,
                  {tensor<std::uint8_t>({n}), tensor<std::uint8_t>({n}), scalar<std::int32_t>()});
}

// E1 shape: shim -> core -> shim.
Program passthrough(const std::string& device, std::int64_t tile = 1024, int depth = 2, int acquire_in = 1) {
    return test::passthrough({.type = tensor<std::uint8_t>({tile}),
                              .depth = depth,
                              .body =
                                  [tile, acquire_in, k = copy_kernel(tile)](ObjectFifoHandle i, ObjectFifoHandle o) {
                                      auto eo = o.acquire(1);
                                      auto ei = i.acquire(acquire_in);
                                      k(acquire_in == 1 ? static_cast<const Element&>(ei) : ei[0], eo,
                                        static_cast<std::int32_t>(tile));
                                      i.release(1);
                                      o.release(1);
                                  },
                              .device = device,
                              .program = "t"});
}

} // namespace

TEST_CASE("passthrough lowers to producer/consumer copies, circular BD chains and shim flows", "[frontend][resolve]") {
    const auto n = passthrough("npu1_1col").resolve();
    REQUIRE(n.cores.size() == 1);
    CHECK(n.cores[0].tile == model::TileCoord{0, 2}); // first compute tile, column-major
    REQUIRE(n.buffers.size() == 4);
    CHECK(buffer_named(n, "in_cons_buff_0").tile == model::TileCoord{0, 2});
    CHECK(buffer_named(n, "out_buff_1").bytes == 1024);
    // bank-aware: stack (1 KiB) at the bottom of bank 0, then one buffer per 16 KiB bank
    CHECK(buffer_named(n, "in_cons_buff_0").address == 0x400);
    CHECK(buffer_named(n, "in_cons_buff_1").address == 0x4000);
    CHECK(buffer_named(n, "out_buff_0").address == 0x8000);
    CHECK(buffer_named(n, "out_buff_1").address == 0xC000);
    CHECK(lock_named(n, "in_cons_prod_lock_0").init == 2);
    CHECK(lock_named(n, "in_cons_cons_lock_0").init == 0);
    CHECK(lock_named(n, "out_prod_lock_0").init == 2);
    CHECK(lock_named(n, "out_cons_lock_0").init == 0);
    REQUIRE(n.channels.size() == 2);
    for (const auto& ch : n.channels) {
        REQUIRE(ch.bds.size() == 2);
        CHECK(ch.bds[0].next == 1);
        CHECK(ch.bds[1].next == 0); // circular
        const bool s2mm = ch.dir == model::Direction::S2MM;
        // S2MM acquires the free-slot lock and releases the full-slot lock; MM2S the reverse
        CHECK(n.locks[static_cast<std::size_t>(ch.bds[0].acquire_lock)].name ==
              (s2mm ? "in_cons_prod_lock_0" : "out_cons_lock_0"));
        CHECK(n.locks[static_cast<std::size_t>(ch.bds[0].release_lock)].name ==
              (s2mm ? "in_cons_cons_lock_0" : "out_prod_lock_0"));
    }
    REQUIRE(n.flows.size() == 2);
    CHECK(n.flows[0].source == model::StreamEndpoint{{0, 0}, model::Direction::MM2S, 0});
    CHECK(n.flows[0].dests[0] == model::StreamEndpoint{{0, 2}, model::Direction::S2MM, 0});
    CHECK(n.flows[0].paths[0] == std::vector<model::TileCoord>{{0, 0}, {0, 1}, {0, 2}});
    CHECK(n.flows[1].dests[0] == model::StreamEndpoint{{0, 0}, model::Direction::S2MM, 0});
    REQUIRE(n.tasks.size() == 2);
    CHECK(n.tasks[0].host_tensor == 0);
    CHECK(n.tasks[0].dir == model::Direction::MM2S);
    CHECK_FALSE(n.tasks[0].issue_token);
    CHECK(n.tasks[1].host_tensor == 1);
    CHECK(n.tasks[1].issue_token); // S2MM always issues a token
    CHECK(n.tasks[0].bytes() == 4096);
    using K = model::RuntimeOp::Kind;
    REQUIRE(n.sequence.size() == 5);
    CHECK(n.sequence[0].kind == K::StartTask);
    CHECK(n.sequence[1].kind == K::StartTask);
    CHECK(n.sequence[2].kind == K::AwaitTask); // awaits of waited tasks first ...
    CHECK(n.sequence[3].kind == K::FreeTask); // ... then frees of all
    CHECK(n.sequence[4].kind == K::FreeTask);
}

TEST_CASE("basic-sequential allocation packs buffers after the stack", "[frontend][resolve]") {
    const auto n = passthrough("npu1_1col").resolve({.alloc_scheme = AllocScheme::BasicSequential});
    CHECK(buffer_named(n, "in_cons_buff_0").address == 0x400);
    CHECK(buffer_named(n, "in_cons_buff_1").address == 0x800);
    CHECK(buffer_named(n, "out_buff_1").address == 0x1000);
}

TEST_CASE("compute-tile depth rule: an int depth becomes the largest acquire + 1", "[frontend][resolve]") {
    const auto n = passthrough("npu1_1col", 256, 2, 2).resolve(); // worker acquires 2 of `in`
    CHECK(lock_named(n, "in_cons_prod_lock_0").init == 3);
    CHECK(buffer_named(n, "in_cons_buff_2").bytes == 256);
    CHECK(lock_named(n, "out_prod_lock_0").init == 2); // acquires 1 -> 2
    const auto m = passthrough("npu1_1col", 256, 4, 1).resolve(); // depth 4, acquire 1 -> shrinks to 2
    CHECK(lock_named(m, "in_cons_prod_lock_0").init == 2);
}

TEST_CASE("a depth list is honoured verbatim", "[frontend][resolve]") {
    const auto n = test::passthrough({.type = tensor<std::int32_t>({16}),
                                      .body =
                                          [](ObjectFifoHandle i, ObjectFifoHandle o) {
                                              auto e = i.acquire(1);
                                              auto f = o.acquire(1);
                                              f.as<std::int32_t>()[0] = e.as<std::int32_t>()[0];
                                              i.release(1);
                                              o.release(1);
                                          },
                                      .in_cons = {.depth = 5},
                                      .host_elements = 16,
                                      .worker = {}})
                       .resolve();
    CHECK(lock_named(n, "in_cons_prod_lock_0").init == 5); // [2, 5]: consumer gets 5
    CHECK(lock_named(n, "out_prod_lock_0").init == 2);
}

TEST_CASE("neighbouring workers share one pool without DMA", "[frontend][resolve]") {
    ObjectFifo in(tensor<std::int32_t>({64}), "a", 2), mid(tensor<std::int32_t>({64}), "mid", 2),
        out(tensor<std::int32_t>({64}), "z", 2);
    auto stage = [](ObjectFifoHandle i, ObjectFifoHandle o) {
        auto e = i.acquire(1);
        auto f = o.acquire(1);
        std::copy(e.as<std::int32_t>().begin(), e.as<std::int32_t>().end(), f.as<std::int32_t>().begin());
        i.release(1);
        o.release(1);
    };
    Worker w1(stage, fn_args(in.cons(), mid.prod()), {.name = "first"});
    Worker w2(stage, fn_args(mid.cons(), out.prod()), {.name = "second"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({64}), in.prod(), out.cons()));
    const auto n = Program("npu1_1col", rt, {w1, w2}).resolve();
    CHECK(n.cores[0].tile == model::TileCoord{0, 2});
    CHECK(n.cores[1].tile == model::TileCoord{0, 3});
    CHECK(buffer_named(n, "mid_buff_0").tile == model::TileCoord{0, 2}); // vertical: producer's memory
    CHECK(lock_named(n, "mid_prod_lock_0").init == 2);
    for (const auto& b : n.buffers) CHECK(b.name.find("mid_cons") == std::string::npos);
    for (const auto& f : n.flows) CHECK(f.prov.object != "mid");
    CHECK(n.flows.size() == 2);
}

TEST_CASE("a forward link puts one pool on the mem tile", "[frontend][resolve]") {
    ObjectFifo in(tensor<std::int32_t>({1024}), "in", 2);
    ObjectFifo fwd = in.cons().forward();
    CHECK(fwd.name() == "in_fwd");
    Runtime rt(
        [](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(c, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({4096}), tensor<std::int32_t>({4096}), in.prod(), fwd.cons()));
    const auto n = Program("npu2", rt, {}).resolve();
    REQUIRE(n.buffers.size() == 2);
    CHECK(buffer_named(n, "in_cons_buff_0").tile == model::TileCoord{0, 1});
    CHECK(lock_named(n, "in_cons_prod_lock_0").init == 2);
    REQUIRE(n.channels.size() == 2); // S2MM and MM2S on the mem tile, same buffers and locks
    CHECK(n.channels[0].bds[0].buffer == n.channels[1].bds[0].buffer);
    CHECK(n.channels[0].bds[0].acquire_lock == n.channels[1].bds[0].release_lock);
    // Even channels of a mem tile share BDs 0-23: S2MM 0 took 0 and 1, MM2S 0 continues with 2.
    CHECK(n.channels[0].bds[1].bd_id == 1);
    CHECK(n.channels[1].bds[0].bd_id == 2);
}
