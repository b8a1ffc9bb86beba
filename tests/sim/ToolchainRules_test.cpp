// The design rules npusim takes from mlir-aie's verifiers and object-fifo lowering, each
// test naming the toolchain rule it mirrors (mlir-aie at 3ca0193c; research in
// docs/notes/toolchain-rules.md, sections L1-L7 and L10). Designs are built in C++,
// resolved, and where they run, simulated against references computed here.
#include "NetlistQuery.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;
using npusim::test::channel_of;
using npusim::test::has_buffer;
using npusim::test::lock_init;
using npusim::test::passthrough;
using npusim::test::values_of;

// ---- L2: init_values (AIEDialect.cpp ObjectFifoCreateOp::verify; runOnOperation) --------------

TEST_CASE("init_values must fill the producer's depth: \"`init_values` does not initialize all objects\"",
          "[sim][toolchain][init_values]") {
    ObjectFifo f(tensor<std::int32_t>({4}), "f", 2, {.init_values = {bytes_of(std::vector<std::int32_t>{1, 2, 3, 4})}});
    Worker idle([](ObjectFifoHandle) { add_cycles(1); }, fn_args(f.prod()), {.while_true = false, .name = "idle"});
    Runtime rt([](RuntimeData b, ObjectFifoHandle c) { c.drain(b, {.wait = true}); },
               fn_args(tensor<std::int32_t>({4}), f.cons()));
    CHECK_THROWS_WITH(Program("npu1", rt, {idle}).resolve(),
                      "fifo 'f': `init_values` does not initialize all objects (1 given for a producer depth of 2)");
}

TEST_CASE("init_values on a fifo the runtime fills: \"`init_values` unavailable for shim tiles\"",
          "[sim][toolchain][init_values]") {
    const auto obj = bytes_of(std::vector<std::int32_t>(16, 7));
    const auto p = passthrough(
        {.type = tensor<std::int32_t>({16}), .body = npusim::test::copy_one, .in = {.init_values = {obj, obj}}, .program = "t"});
    CHECK_THROWS_WITH(p.resolve(), Catch::StartsWith("fifo 'in': `init_values` unavailable for shim tiles"));
}

TEST_CASE("init_values fix the depth: a producer acquiring 2 of depth 2 gets 2 buffers, not 3 (runOnOperation "
          "skips findObjectFifoSize)",
          "[sim][toolchain][init_values]") {
    ObjectFifo c(tensor<std::int32_t>({4}), "c", 2,
                 {.init_values = {bytes_of(std::vector<std::int32_t>{1, 2, 3, 4}),
                                  bytes_of(std::vector<std::int32_t>{5, 6, 7, 8})}});
    // The producer first hands over its two initial objects, then refills both, adding 100.
    Worker p(
        [](ObjectFifoHandle h) {
            auto g = h.acquire(2);
            for (int k = 0; k < 2; ++k) {
                auto* v = reinterpret_cast<std::int32_t*>(g[static_cast<std::size_t>(k)].data());
                for (int i = 0; i < 4; ++i) v[i] += 100;
            }
            h.release(2);
        },
        fn_args(c.prod()), {.name = "p"});
    Runtime rt([](RuntimeData b, ObjectFifoHandle h) { h.drain(b, {.wait = true}); },
               fn_args(tensor<std::int32_t>({16}), c.cons()));
    const auto n = Program("npu1_1col", rt, {p}).resolve();
    CHECK(has_buffer(n, "c_buff_0"));
    CHECK(has_buffer(n, "c_buff_1"));
    CHECK_FALSE(has_buffer(n, "c_buff_2"));
    CHECK(lock_init(n, "c_prod_lock_0") == 0);
    CHECK(lock_init(n, "c_cons_lock_0") == 2);
    const auto r = sim::simulate(n, {std::vector<std::uint8_t>(64)}, {});
    // Initial objects leave first; the producer then waits for both slots and refills them
    // (the DMA has emptied them, so the +100 lands on the sent contents still in memory).
    CHECK(values_of<std::int32_t>(r.host[0]) ==
          std::vector<std::int32_t>{1, 2, 3, 4, 5, 6, 7, 8, 101, 102, 103, 104, 105, 106, 107, 108});
}

// ---- L3/L4: what a runtime (shim) end may not carry (ObjectFifoCreateOp::verify) -------------

TEST_CASE("repeat_count on a runtime-filled fifo: \"`repeat_count` unavailable for shim tiles\"",
          "[sim][toolchain][repeat]") {
    const auto p = passthrough(
        {.type = tensor<std::int32_t>({16}), .body = npusim::test::copy_one, .in = {.repeat_count = 2}, .program = "t"});
    CHECK_THROWS_WITH(p.resolve(), Catch::StartsWith("fifo 'in': `repeat_count` unavailable for shim tiles"));
}

TEST_CASE("layouts on shim ends: dimensionsToStream / dimensionsFromStreamPerConsumer not supported on shim tiles",
          "[sim][toolchain][layout]") {
    {
        const auto p = passthrough({.type = tensor<std::int32_t>({64}),
                                    .body = npusim::test::copy_one,
                                    .in = {.dims_to_stream = {{4, 16}, {16, 1}}},
                                    .program = "t"});
        CHECK_THROWS_WITH(p.resolve(),
                          Catch::StartsWith("fifo 'in': `dimensionsToStream` data layout transformations are not "
                                            "supported on shim tile producers"));
    }
    {
        const auto p = passthrough({.type = tensor<std::int32_t>({64}),
                                    .body = npusim::test::copy_one,
                                    .out_cons = {.dims_from_stream = {{4, 16}, {16, 1}}}});
        CHECK_THROWS_WITH(p.resolve(), Catch::StartsWith("fifo 'out': `dimensionsFromStreamPerConsumer` data layout "
                                                         "transformations are not supported on shim tile consumers"));
    }
}

// ---- L3: repeat counts of a distribute, repeat on a join output (ObjectFifoLinkOp::verify,
// createMemTileDMA) ---------------------------------------------------------------------------

TEST_CASE("split outputs need equal repeat counts, unset counting as 0 (\"repeat counts of output object FIFOs must "
          "be equal\")",
          "[sim][toolchain][repeat]") {
    ObjectFifo in(tensor<std::int32_t>({64}), "in");
    const char* msg = "fifo 'in': split(): repeat counts of output object FIFOs must be equal";
    CHECK_THROWS_WITH(in.cons().split({0, 32}, {.repeat_counts = {2, 3}}), msg);
    CHECK_THROWS_WITH(in.cons().split({0, 32}, {.repeat_counts = {std::nullopt, 2}}), msg);
    CHECK_THROWS_WITH(in.cons().split({0, 32}, {.repeat_counts = {1, std::nullopt}}), msg);
    CHECK_NOTHROW(in.cons().split({0, 32}, {.repeat_counts = {2, 2}}));
}

TEST_CASE("repeat_count on a join's output is refused: createMemTileDMA indexes the join offsets past their end",
          "[sim][toolchain][repeat]") {
    ObjectFifo out(tensor<std::int32_t>({64}), "out", 2, {.repeat_count = 2});
    CHECK_THROWS_WITH(out.prod().join({0, 32}),
                      Catch::StartsWith("fifo 'out': repeat_count 2 on the output of a join is not lowered by the "
                                        "toolchain"));
    ObjectFifo ok(tensor<std::int32_t>({64}), "ok", 2, {.repeat_count = 1}); // repeat 1: r < 1 x n stays in range
    CHECK_NOTHROW(ok.prod().join({0, 32}));
}

// ---- L4 (c)(d), L5, L7: link layouts and segment lengths -------------------------------------

TEST_CASE("distribute: the input's mem-tile layout may not reach past the shortest segment (ObjectFifoLinkOp::verify)",
          "[sim][toolchain][layout]") {
    ObjectFifo in(tensor<std::int32_t>({64}), "in");
    // max index 16*3 + 1*15 = 63 >= the 32-element segments
    CHECK_THROWS_WITH(in.cons(std::nullopt, std::nullopt, {{4, 16}, {16, 1}}).split({0, 32}),
                      "fifo 'in': split(): specified input stride(s) and size(s) result in out of bounds access in "
                      "distribute output, for index 63 in transfer of length 32.");
    ObjectFifo out(tensor<std::int32_t>({64}), "out", 2, {.dims_to_stream = {{2, 8}, {8, 1}}}); // max 15 < 32
    CHECK_NOTHROW(out.prod().join({0, 32}));
    ObjectFifo out2(tensor<std::int32_t>({64}), "out2", 2, {.dims_to_stream = {{4, 16}, {16, 1}}});
    CHECK_THROWS_WITH(out2.prod().join({0, 32}),
                      "fifo 'out2': join(): specified output stride(s) and size(s) result in out of bounds access in "
                      "join input, for index 63 in transfer of length 32.");
}

TEST_CASE("split segment lengths come from the offsets, the last to the end of the object "
          "(getDistributeTransferLengths)",
          "[sim][toolchain][links]") {
    ObjectFifo in(tensor<std::int32_t>({64}), "in", 1);
    auto parts = in.cons().split({0, 16, 40});
    REQUIRE(parts[0].obj_type().elements() == 16);
    REQUIRE(parts[1].obj_type().elements() == 24);
    REQUIRE(parts[2].obj_type().elements() == 24);
    Runtime rt(
        [](RuntimeData a, RuntimeData b0, RuntimeData b1, RuntimeData b2, ObjectFifoHandle i, ObjectFifoHandle o0,
           ObjectFifoHandle o1, ObjectFifoHandle o2) {
            i.fill(a);
            o0.drain(b0, {.wait = true});
            o1.drain(b1, {.wait = true});
            o2.drain(b2, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({16}), tensor<std::int32_t>({24}),
                tensor<std::int32_t>({24}), in.prod(), parts[0].cons(), parts[1].cons(), parts[2].cons()));
    const auto n = Program("npu1", rt, {}).resolve(); // three drains: more S2MM channels than one shim has
    // The pool side (S2MM of 'in' on the mem tile) covers the whole object: 16 + 24 + 24 words.
    const auto& pool = channel_of(n, "in", model::Direction::S2MM, model::TileKind::Mem);
    REQUIRE(pool.bds.size() == 3);
    CHECK(pool.bds[2].offset_bytes == 160);
    CHECK(pool.bds[2].length_bytes == 96);
    std::uint32_t covered = 0;
    for (const auto& bd : pool.bds) covered += bd.length_bytes;
    CHECK(covered == 256);
    std::vector<std::int32_t> a(64);
    for (std::size_t i = 0; i < 64; ++i) a[i] = static_cast<std::int32_t>(i * 3 + 1);
    const auto r = sim::simulate(
        n, {bytes_of(a), std::vector<std::uint8_t>(64), std::vector<std::uint8_t>(96), std::vector<std::uint8_t>(96)},
        {});
    CHECK(values_of<std::int32_t>(r.host[1]) == std::vector<std::int32_t>(a.begin(), a.begin() + 16));
    CHECK(values_of<std::int32_t>(r.host[2]) == std::vector<std::int32_t>(a.begin() + 16, a.begin() + 40));
    CHECK(values_of<std::int32_t>(r.host[3]) == std::vector<std::int32_t>(a.begin() + 40, a.end()));
}

TEST_CASE("forward(dims_from_stream=D): D goes on the new fifo's consumers' S2MM (IRON forward = split([0], "
          "dims_from_stream=[D]))",
          "[sim][toolchain][layout]") {
    ObjectFifo in(tensor<std::int32_t>({32}), "in", 2), out(tensor<std::int32_t>({32}), "out", 2);
    const StreamDims D = {{8, 1}, {4, 8}}; // stream element s -> address (s / 4) + 8 (s % 4)
    auto fwd = in.cons().forward({.dims_from_stream = D});
    Worker w(npusim::test::copy_one, fn_args(fwd.cons(), out.prod()), {.name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({64}), in.prod(), out.cons()));
    const auto n = Program("npu1_1col", rt, {w}).resolve();
    const auto& worker_s2mm = channel_of(n, "in_fwd", model::Direction::S2MM, model::TileKind::Compute);
    for (const auto& bd : worker_s2mm.bds) CHECK(bd.dims.size() == 2);
    for (const auto& c : n.channels)
        if (n.device->kind_at(c.tile) == model::TileKind::Mem)
            for (const auto& bd : c.bds) CHECK(bd.dims.empty());
    std::vector<std::int32_t> a(64);
    for (std::size_t i = 0; i < 64; ++i) a[i] = static_cast<std::int32_t>(1000 + i);
    const auto r = sim::simulate(n, {bytes_of(a), std::vector<std::uint8_t>(256)}, {});
    std::vector<std::int32_t> want(64);
    for (std::size_t obj = 0; obj < 2; ++obj)
        for (std::size_t s = 0; s < 32; ++s) want[obj * 32 + s / 4 + 8 * (s % 4)] = a[obj * 32 + s];
    CHECK(values_of<std::int32_t>(r.host[1]) == want);
}

TEST_CASE("split(dims_from_stream=[D0, {}]): D0 goes on sub-fifo 0's consumer S2MM, not on the mem tile",
          "[sim][toolchain][layout]") {
    ObjectFifo in(tensor<std::int32_t>({64}), "in", 2), out(tensor<std::int32_t>({32}), "out", 2);
    auto parts = in.cons().split({0, 32}, {.dims_from_stream = {{{8, 1}, {4, 8}}, {}}});
    Worker w(npusim::test::copy_one, fn_args(parts[0].cons(), out.prod()), {.name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o, ObjectFifoHandle p1) {
            i.fill(a);
            o.drain(b, {.wait = true});
            p1.drain(c, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({32}), tensor<std::int32_t>({32}), in.prod(),
                out.cons(), parts[1].cons()));
    const auto n = Program("npu1_1col", rt, {w}).resolve();
    for (const auto& bd : channel_of(n, "in_split0", model::Direction::S2MM, model::TileKind::Compute).bds)
        CHECK(bd.dims.size() == 2);
    for (const auto& c : n.channels)
        if (n.device->kind_at(c.tile) == model::TileKind::Mem)
            for (const auto& bd : c.bds) CHECK(bd.dims.empty());
}

// ---- L1, L6: shared-memory fifos (createObjectFifoElements; DMABDOp::verify) -----------------
