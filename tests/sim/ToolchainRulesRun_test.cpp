// The design rules npusim takes from mlir-aie's verifiers and object-fifo lowering, continued:
// shared-memory pools, the 4-byte rule, names and symbols, tokens, distribute_repeat and the static
// checks (mlir-aie at 3ca0193c; docs/notes/toolchain-rules.md). The fifo and link rules are in
// ToolchainRules_test.cpp.
#include "NetlistQuery.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;
using npusim::test::channel_of;
using npusim::test::has_buffer;
using npusim::test::lock_init;
using npusim::test::passthrough;
using npusim::test::values_of;


namespace {
// in -> w1 on (0,2) -> mid (shared pool) -> w2 on (0,3) -> out; w2 acquires `take` of mid.
Program shared_pool_design(int prod_depth, int cons_depth, int take) {
    ObjectFifo in(tensor<std::int32_t>({8}), "in"), mid(tensor<std::int32_t>({8}), "mid"),
        out(tensor<std::int32_t>({8}), "out");
    Worker w1(npusim::test::copy_one, fn_args(in.cons(), mid.prod(prod_depth)), {.tile = Tile(0, 2), .name = "w1"});
    Worker w2(
        [take](ObjectFifoHandle m, ObjectFifoHandle o) {
            auto e = m.acquire(take);
            auto f = o.acquire(1);
            std::memcpy(f.data(), e[0].data(), 32);
            m.release(take);
            o.release(1);
        },
        fn_args(mid.cons(cons_depth), out.prod()), {.tile = Tile(0, 3), .name = "w2"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({24}), tensor<std::int32_t>({8}), in.prod(), out.cons()));
    return Program("npu1_1col", rt, {w1, w2}, "pool");
}
} // namespace

TEST_CASE("a shared-memory pool has size(0) buffers, the producer's depth, acquiring more deadlocks as on the NPU "
          "(createObjectFifoElements)",
          "[sim][toolchain][shared]") {
    const auto n = shared_pool_design(1, 3, 3).resolve();
    CHECK(has_buffer(n, "mid_buff_0"));
    CHECK_FALSE(has_buffer(n, "mid_buff_1"));
    CHECK(lock_init(n, "mid_prod_lock_0") == 1);
    CHECK(lock_init(n, "mid_cons_lock_0") == 0);
    std::vector<std::int32_t> a(24, 5);
    try {
        sim::simulate(n, {bytes_of(a), std::vector<std::uint8_t>(32)}, {});
        FAIL("the acquire of 3 from a 1-buffer pool completed");
    } catch (const SimulationError& e) {
        CHECK(e.kind() == SimulationError::Kind::Deadlock);
        const std::string msg = e.what();
        CHECK_THAT(msg, Catch::Contains("acquire(3) on fifo 'mid' consumer"));
        CHECK_THAT(msg, Catch::Contains("more than the 1 buffer(s) of its pool, so it can never complete"));
        CHECK_THAT(msg, Catch::Contains("mid_cons_lock_0"));
    }
    // Control: the consumer takes one object at a time and the design runs.
    const auto ok = shared_pool_design(1, 3, 1).resolve();
    std::vector<std::int32_t> b(24);
    for (std::size_t i = 0; i < 24; ++i) b[i] = static_cast<std::int32_t>(i);
    const auto r = sim::simulate(ok, {bytes_of(b), std::vector<std::uint8_t>(32)}, {});
    CHECK(values_of<std::int32_t>(r.host[1]) == std::vector<std::int32_t>(b.begin(), b.begin() + 8));
}

TEST_CASE("the 4-byte rule is DMABDOp::verify's: a shared-memory fifo of 2-byte objects works, the same fifo "
          "through DMA is refused",
          "[sim][toolchain][shared]") {
    auto build = [](bool via) {
        ObjectFifo in(tensor<std::int16_t>({4}), "in"), mid(tensor<std::int16_t>({3}), "mid", 2, {.via_dma = via}),
            out(tensor<std::int16_t>({4}), "out");
        Worker w1(
            [](ObjectFifoHandle i, ObjectFifoHandle m) {
                auto e = i.acquire(1);
                auto f = m.acquire(1);
                std::memcpy(f.data(), e.data(), 6); // the first 3 of 4 elements
                i.release(1);
                m.release(1);
            },
            fn_args(in.cons(), mid.prod()), {.tile = Tile(0, 2), .name = "w1"});
        Worker w2(
            [](ObjectFifoHandle m, ObjectFifoHandle o) {
                auto e = m.acquire(1);
                auto f = o.acquire(1);
                auto* v = reinterpret_cast<std::int16_t*>(f.data());
                std::memcpy(v, e.data(), 6);
                v[3] = -1;
                m.release(1);
                o.release(1);
            },
            fn_args(mid.cons(), out.prod()), {.tile = Tile(0, 3), .name = "w2"});
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                i.fill(a);
                o.drain(b, {.wait = true});
            },
            fn_args(tensor<std::int16_t>({16}), tensor<std::int16_t>({16}), in.prod(), out.cons()));
        return Program("npu1_1col", rt, {w1, w2}, "half");
    };
    const auto n = build(false).resolve();
    std::vector<std::int16_t> a(16);
    for (std::size_t i = 0; i < 16; ++i) a[i] = static_cast<std::int16_t>(i * 11 - 50);
    const auto r = sim::simulate(n, {bytes_of(a), std::vector<std::uint8_t>(32)}, {});
    std::vector<std::int16_t> want(16);
    for (std::size_t i = 0; i < 16; ++i) want[i] = i % 4 == 3 ? std::int16_t{-1} : a[i];
    CHECK(values_of<std::int16_t>(r.host[1]) == want);
    CHECK_THROWS_WITH(build(true).resolve(),
                      Catch::StartsWith("fifo 'mid': object type i16[3] is 6 B, but it moves through DMA: transfer "
                                        "length must be multiple of 4"));
}

// ---- L10: names that would make reports ambiguous or clash in the toolchain's symbol table ----

TEST_CASE("two workers with one name are refused", "[sim][toolchain][names]") {
    ObjectFifo a(tensor<std::int32_t>({8}), "a"), b(tensor<std::int32_t>({8}), "b");
    Worker w1([](ObjectFifoHandle) {}, fn_args(a.cons()), {.name = "w"});
    Worker w2([](ObjectFifoHandle) {}, fn_args(b.cons()), {.name = "w"});
    Runtime rt(
        [](RuntimeData x, ObjectFifoHandle p, ObjectFifoHandle q) {
            p.fill(x);
            q.fill(x);
        },
        fn_args(tensor<std::int32_t>({8}), a.prod(), b.prod()));
    CHECK_THROWS_WITH(Program("npu1_1col", rt, {w1, w2}).resolve(),
                      "two workers are named 'w'; worker names must be unique (reports, traces and core symbols name "
                      "them)");
}

TEST_CASE("a Buffer named like a fifo's generated buffer: \"redefinition of symbol\" as in the toolchain's module "
          "verification",
          "[sim][toolchain][names]") {
    Buffer clash(tensor<std::int32_t>({8}), "out_buff_0");
    const auto p =
        passthrough({.buffers = {clash}, .type = tensor<std::int32_t>({8}), .body = npusim::test::copy_one, .host_elements = 8});
    CHECK_THROWS_WITH(p.resolve(),
                      Catch::Contains("buffer 'out_buff_0' of ") && Catch::Contains("redefinition of symbol named "
                                                                                    "'out_buff_0'"));
}

// ---- R3 (part): which tasks issue a completion token ------------------------------------------

TEST_CASE("a fill or drain issues a token exactly when it waits (IRON dmatask.py issue_token=wait, "
          "AIEDMATasksToNPU)",
          "[sim][toolchain][sequence]") {
    const auto n = passthrough({.type = tensor<std::int32_t>({8}),
                                .body = npusim::test::copy_one,
                                .seq =
                                    [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                                        i.fill(a, {.wait = true});
                                        o.drain(b, {.wait = false});
                                        o.drain(b, {.wait = true});
                                    },
                                .host_elements = 8})
                       .resolve();
    REQUIRE(n.tasks.size() == 3);
    CHECK(n.tasks[0].issue_token);
    CHECK_FALSE(n.tasks[1].issue_token);
    CHECK(n.tasks[2].issue_token);
}

// ---- L3 (d): distribute with repeat counts (test/npu-xrt/objectfifo_repeat/distribute_repeat) ----

TEST_CASE("distribute_repeat: each sub-fifo of a one-buffer pool replays its BD in hardware (createMemTileDMA: "
          "joinDistribFactor is 1 on the sub-fifo side), the pool side moves R per BD",
          "[sim][toolchain][repeat]") {
    constexpr std::int64_t N = 64, R = 3;
    ObjectFifo in(tensor<std::int32_t>({N}), "in", 1), out(tensor<std::int32_t>({N}), "out", 1);
    auto halves =
        in.cons().split({0, N / 2}, {.depths = {2, 2},
                                     .obj_types = {tensor<std::int32_t>({N / 2}), tensor<std::int32_t>({N / 2})},
                                     .names = {"in2", "in3"},
                                     .repeat_counts = {R, R}});
    auto back =
        out.prod().join({0, N / 2}, {.depths = {2, 2},
                                     .obj_types = {tensor<std::int32_t>({N / 2}), tensor<std::int32_t>({N / 2})},
                                     .names = {"out2", "out3"}});
    auto add = [](std::int32_t k) {
        return [k](ObjectFifoHandle i, ObjectFifoHandle o) {
            auto e = o.acquire(1);
            auto f = i.acquire(1);
            const auto x = f.as<std::int32_t>();
            auto y = e.as<std::int32_t>();
            for (std::size_t j = 0; j < x.size(); ++j) y[j] = x[j] + k;
            i.release(1);
            o.release(1);
        };
    };
    Worker w2(add(1), fn_args(halves[0].cons(), back[0].prod()), {.name = "w2"});
    Worker w3(add(2), fn_args(halves[1].cons(), back[1].prod()), {.name = "w3"});
    Runtime rt(
        [](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(c, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({N}), tensor<std::int32_t>({N * R}), in.prod(), out.cons()));
    const auto n = Program("npu1_1col", rt, {w2, w3}, "distribute_repeat").resolve();
    for (const char* sub : {"in2", "in3"}) {
        const auto& mm2s = channel_of(n, sub, model::Direction::MM2S, model::TileKind::Mem);
        REQUIRE(mm2s.bds.size() == 1);
        CHECK(mm2s.bds[0].repeat == R - 1);
    }
    CHECK(lock_init(n, "in_cons_prod_lock_0") == R); // depth 1 x R
    const auto& pool = channel_of(n, "in", model::Direction::S2MM, model::TileKind::Mem);
    CHECK(pool.bds[0].acquire_value == R);
    std::vector<std::int32_t> a(N);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int32_t>(i * 13);
    const auto r = sim::simulate(n, {bytes_of(a), std::vector<std::uint8_t>(N * R * 4)}, {});
    const auto c = values_of<std::int32_t>(r.host[1]);
    for (std::size_t k = 0; k < static_cast<std::size_t>(N * R); ++k) {
        const std::size_t e = k % N;
        REQUIRE(c[k] == a[e] + (e < N / 2 ? 1 : 2));
    }
}

// ---- Static hang checks: warnings before simulating, errors with werror ------------

TEST_CASE("static checks: an acquire beyond a shared pool and a partial last object are reported before simulating, "
          "werror makes them errors",
          "[sim][toolchain][static]") {
    ResolveOptions werror;
    werror.werror = true;
    {
        const auto p = shared_pool_design(1, 3, 3);
        const auto n = p.resolve();
        REQUIRE(n.warnings.size() == 1);
        CHECK(n.warnings[0] == "fifo 'mid': worker 'w2' acquires 3 objects of its consumer end but the shared pool "
                               "holds 1 (the producer's depth): that acquire can never complete, the design will "
                               "deadlock");
        CHECK_THROWS_WITH(p.resolve(werror), Catch::StartsWith("warning treated as an error (--werror): fifo 'mid'"));
        CHECK(shared_pool_design(1, 3, 1).resolve(werror).warnings.empty());
    }
    {
        // 40 elements in objects of 16: two whole objects and 8 elements the worker never gets.
        const Program p = passthrough({.type = tensor<std::int32_t>({16}),
                                       .body = npusim::test::copy_one,
                                       .seq =
                                           [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                                               i.fill(a);
                                               o.drain(b, {.wait = true, .transfer_len = 32});
                                           },
                                       .host_elements = 40,
                                       .program = "partial"});
        const auto n = p.resolve();
        REQUIRE(n.warnings.size() == 1);
        CHECK(n.warnings[0] == "fill of fifo 'in' moves 160 B, not a whole number of its 64 B objects (2 and 32 B "
                               "over): the last partial object is never consumed, so the design will hang there");
        CHECK_THROWS_WITH(p.resolve(werror), Catch::Contains("fill of fifo 'in' moves 160 B"));
    }
}
