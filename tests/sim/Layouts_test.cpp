// Data layouts through the whole path: a column-major shim tap into a compute-tile forward (E10's
// transpose by DMA), a shim repeat dimension, and a 4-D mem-tile re-tiling (E6's a_dims), each
// against indices computed here.
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;
using npusim::test::values_of;

TEST_CASE("transpose by DMA: column-major fill through a compute-tile forward", "[sim][layout]") {
    ObjectFifo of_in(tensor<std::uint32_t>({64, 64}), "of_in");
    auto of_out = of_in.cons().forward(AnyComputeTile);
    Runtime rt(
        [](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a, {.tap = TensorAccessPattern({64, 64}, 0, {1, 1, 64, 64}, {0, 0, 1, 64})});
            o.drain(c, {.wait = true});
        },
        fn_args(tensor<std::uint32_t>({64, 64}), tensor<std::uint32_t>({64, 64}), of_in.prod(), of_out.cons()));
    const auto net = Program("npu2_1col", rt, {}).resolve();
    bool on_compute = false;
    for (const auto& b : net.buffers) on_compute |= b.tile.row >= 2;
    CHECK(on_compute);
    std::vector<std::uint32_t> a(64 * 64);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::uint32_t>(i * 2654435761u);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(a.size() * 4)}, {});
    const auto c = values_of<std::uint32_t>(r.host[1]);
    for (std::size_t i = 0; i < 64; ++i)
        for (std::size_t j = 0; j < 64; ++j) REQUIRE(c[i * 64 + j] == a[j * 64 + i]); // C = A^T
}

TEST_CASE("shim repeat dimension (stride 0) sends the same block again", "[sim][layout]") {
    ObjectFifo in(tensor<std::int32_t>({32}), "in");
    auto fwd = in.cons().forward();
    Runtime rt(
        [](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a, {.tap = TensorAccessPattern({64}, 16, {3, 1, 1, 32}, {0, 0, 0, 1})}); // 3 x elements 16..47
            o.drain(c, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({64}), tensor<std::int32_t>({96}), in.prod(), fwd.cons()));
    const auto net = Program("npu1", rt, {}).resolve();
    CHECK(net.tasks[0].dims[0].size == 3);
    std::vector<std::int32_t> a(64);
    for (std::size_t i = 0; i < 64; ++i) a[i] = static_cast<std::int32_t>(i);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(96 * 4)}, {});
    const auto c = values_of<std::int32_t>(r.host[1]);
    for (std::size_t k = 0; k < 96; ++k) REQUIRE(c[k] == static_cast<std::int32_t>(16 + k % 32));
}

TEST_CASE("4-D mem-tile re-tiling into r x s blocks (matmul A layout)", "[sim][layout]") {
    // m = k = 32, r = s = 4, i16: a_dims = [(m/r, r*k), (k/s, s), (r, k), (s, 1)]
    const std::int64_t m = 32, k = 32, r = 4, s = 4;
    ObjectFifo inA(tensor<std::int16_t>({m, k}), "inA");
    auto memA = inA.cons().forward({.name = "memA", .dims_to_stream = {{m / r, r * k}, {k / s, s}, {r, k}, {s, 1}}});
    Runtime rt(
        [](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(c, {.wait = true});
        },
        fn_args(tensor<std::int16_t>({m, k}), tensor<std::int16_t>({m, k}), inA.prod(), memA.cons()));
    const auto net = Program("npu1", rt, {}).resolve();
    std::vector<std::int16_t> a(static_cast<std::size_t>(m * k));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int16_t>(i * 31 - 5000);
    const auto res = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(a.size() * 2)}, {});
    const auto c = values_of<std::int16_t>(res.host[1]);
    // Expected order: blocks of r x s, blocks row-major (m/r rows of k/s blocks), each block row-major.
    std::size_t pos = 0;
    for (std::int64_t bi = 0; bi < m / r; ++bi)
        for (std::int64_t bj = 0; bj < k / s; ++bj)
            for (std::int64_t i = 0; i < r; ++i)
                for (std::int64_t j = 0; j < s; ++j)
                    REQUIRE(c[pos++] == a[static_cast<std::size_t>((bi * r + i) * k + bj * s + j)]);
}
