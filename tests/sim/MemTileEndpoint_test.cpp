// A toolchain rule (docs/notes/toolchain-rules.md L8): a fifo produced by a mem-tile endpoint that
// holds init_values and has no worker and no fill (IRON `of.prod().endpoint =
// ObjectFifoEndpoint(AnyMemTile)`; mlir-aie test/python/npu/test_iron_object_fifo_init_values.py)
// sends its initial objects, each repeat_count times. Lowering as AIEObjectFifoStatefulTransform
// createMemTileDMA for an unlinked mem-tile producer: depth 1 -> one BD with a hardware repeat of
// R-1; depth d -> d x R BDs (test/objectFifo-stateful-transform/init_values/
// init_values_repeat_test.mlir); prod lock 0, cons lock #init x R.
#include "NetlistQuery.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;
using npusim::test::lock_init;
using npusim::test::values_of;

namespace {
const model::DmaChannelProgram& mem_mm2s(const model::Netlist& n) {
    for (const auto& c : n.channels)
        if (c.dir == model::Direction::MM2S && n.device->kind_at(c.tile) == model::TileKind::Mem) return c;
    FAIL("no mem-tile MM2S");
    return n.channels.front();
}

// `depth` objects of 8 elements (object k holds 100k + i), repeat R, drained straight to the host.
model::Netlist mem_source(int depth, std::optional<int> R, std::int64_t drain_elems, Tile where = AnyMemTile) {
    std::vector<std::vector<std::uint8_t>> init;
    for (int k = 0; k < depth; ++k) {
        std::vector<std::int32_t> v(8);
        for (int i = 0; i < 8; ++i) v[static_cast<std::size_t>(i)] = 100 * k + i;
        init.push_back(bytes_of(v));
    }
    ObjectFifo f(tensor<std::int32_t>({8}), "f", depth, {.repeat_count = R, .init_values = init});
    f.prod().set_endpoint(where);
    Runtime rt([](RuntimeData b, ObjectFifoHandle c) { c.drain(b, {.wait = true}); },
               fn_args(tensor<std::int32_t>({drain_elems}), f.cons()));
    return Program("npu1_1col", rt, {}, "mem_source").resolve();
}
} // namespace

TEST_CASE("a mem-tile endpoint with depth 1 and repeat_count 3: one BD with a hardware repeat of 2, cons lock 3",
          "[sim][memtile_endpoint]") {
    const auto n = mem_source(1, 3, 24);
    const auto& ch = mem_mm2s(n);
    REQUIRE(ch.bds.size() == 1);
    CHECK(ch.bds[0].repeat == 2);
    CHECK(lock_init(n, "f_prod_lock_0") == 0);
    CHECK(lock_init(n, "f_cons_lock_0") == 3);
    const auto r = sim::simulate(n, {std::vector<std::uint8_t>(96)}, {});
    const auto c = values_of<std::int32_t>(r.host[0]);
    for (std::size_t k = 0; k < 24; ++k) CHECK(c[k] == static_cast<std::int32_t>(k % 8));
}

TEST_CASE("a mem-tile endpoint with depth 2 and repeat_count 2: each BD twice (d x R BDs), cons lock 4",
          "[sim][memtile_endpoint]") {
    const auto n = mem_source(2, 2, 32);
    const auto& ch = mem_mm2s(n);
    CHECK(ch.bds.size() == 4);
    CHECK(lock_init(n, "f_cons_lock_0") == 4);
    const auto r = sim::simulate(n, {std::vector<std::uint8_t>(128)}, {});
    const auto c = values_of<std::int32_t>(r.host[0]);
    // object 0 twice, then object 1 twice
    for (std::size_t k = 0; k < 32; ++k) CHECK(c[k] == static_cast<std::int32_t>(100 * (k / 16) + k % 8));
}

TEST_CASE("a mem-tile endpoint sends its objects once per load: a second invocation waits forever (init_values are "
          "not re-applied)",
          "[sim][memtile_endpoint][invocations]") {
    const auto n = mem_source(1, std::nullopt, 8, Tile(0, 1));
    sim::SimOptions o;
    o.invocations = 2;
    try {
        sim::simulate(n, {std::vector<std::uint8_t>(32)}, o);
        FAIL("the second invocation received data");
    } catch (const SimulationError& e) {
        CHECK(e.kind() == SimulationError::Kind::Deadlock);
        CHECK_THAT(std::string(e.what()), Catch::Contains("f_cons_lock_0"));
    }
}

TEST_CASE("mem-tile endpoint errors name the fifo", "[sim][memtile_endpoint][errors]") {
    ObjectFifo f(tensor<std::int32_t>({8}), "f", 1);
    CHECK_THROWS_WITH(f.cons().set_endpoint(AnyMemTile),
                      "fifo 'f' consumer 0: set_endpoint() on a consumer handle; a mem-tile endpoint produces the "
                      "fifo's init_values");
    CHECK_THROWS_WITH(f.prod().set_endpoint(AnyComputeTile),
                      "fifo 'f' producer: set_endpoint(AnyComputeTile) needs a mem tile (AnyMemTile or a tile on the "
                      "mem-tile row)");
    CHECK_THROWS_WITH(f.prod().set_endpoint(Tile(0, 2)), Catch::Contains("needs a mem tile"));
    // No init_values: nothing to send.
    f.prod().set_endpoint(AnyMemTile);
    Runtime rt([](RuntimeData b, ObjectFifoHandle c) { c.drain(b, {.wait = true}); },
               fn_args(tensor<std::int32_t>({8}), f.cons()));
    CHECK_THROWS_WITH(Program("npu1_1col", rt, {}).resolve(),
                      "fifo 'f': its producer is a mem-tile endpoint (set_endpoint), which only sends the fifo's "
                      "init_values, and it has none");
    // The same handle cannot also be filled by the runtime.
    ObjectFifo g(tensor<std::int32_t>({8}), "g", 1, {.init_values = {std::vector<std::uint8_t>(32)}});
    g.prod().set_endpoint(AnyMemTile);
    CHECK_THROWS_WITH(Runtime([](RuntimeData, ObjectFifoHandle) {}, fn_args(tensor<std::int32_t>({8}), g.prod())),
                      Catch::Contains("is already used by a mem-tile endpoint (set_endpoint)"));
}
