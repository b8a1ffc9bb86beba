// IRON's algorithm templates (npusim/algorithms/Transform.hpp, after mlir-aie
// python/iron/algorithms/_transform.py, for_each.py, reduce.py): each builds the design upstream
// builds (fifo names, tile sizes, workers per column and channel), resolves and simulates it, and
// the outputs are checked against plain loops written here.
#include "NetlistQuery.hpp"
#include "npusim/algorithms/Transform.hpp"
#include "npusim/iron.hpp"
#include "npusim/kernels/reduce_max.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>

using namespace npusim;
using namespace npusim::iron;
namespace alg = npusim::iron::algorithms;
using npusim::test::bytes_of;
using npusim::test::values_of;

namespace {

template <class T>
std::vector<T> random_values(std::size_t n, int lo, int hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(d(rng));
    return v;
}
bool has_fifo(const model::Netlist& n, const std::string& fifo) {
    return std::any_of(n.channels.begin(), n.channels.end(), [&](const auto& c) { return c.prov.object == fifo; });
}
const model::DeviceSpec& dev(const std::string& name) { return model::device_by_name(name); }

// vector_scalar_mul's kernel (aie2/scale.cc, scalar form): out[i] = in[i] * factor[0], int16.
void scale_i16(const std::int16_t* in, std::int16_t* out, const std::int32_t* factor, std::int32_t n) {
    for (std::int32_t i = 0; i < n; ++i) out[i] = static_cast<std::int16_t>(in[i] * *factor);
}
// a binary kernel without the size argument (pass_size_to_kernel=False), 64-element tiles
void sub_i32_64(const std::int32_t* a, const std::int32_t* b, std::int32_t* c) {
    for (int i = 0; i < 64; ++i) c[i] = a[i] - b[i];
}
void add_scalar_i32(const std::int32_t* in, std::int32_t* out, std::int32_t k, std::int32_t n) {
    for (std::int32_t i = 0; i < n; ++i) out[i] = in[i] + k;
}

} // namespace

TEST_CASE("transform with a callable: out = in + 1 (IRON's lambda path)", "[sim][algorithms]") {
    const auto ty = tensor<std::int32_t>({1024});
    const auto net = alg::transform(
                         dev("npu1_1col"), [](auto x) { return x + 1; }, ty)
                         .resolve();
    CHECK(has_fifo(net, "in0"));
    CHECK(has_fifo(net, "out"));
    const auto a = random_values<std::int32_t>(1024, -1000, 1000, 1);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(4096)}, {});
    const auto c = values_of<std::int32_t>(r.host[1]);
    for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(c[i] == a[i] + 1);
}

TEST_CASE("transform with a kernel and a tensor param: vector_scalar_mul (E3)", "[sim][algorithms]") {
    // E3: i16[4096], tile 1024, factor i32[1] through fifo param0; runtime [A, C, F]
    const auto ty = tensor<std::int16_t>({4096});
    Kernel k(
        "vector_scalar_mul_vector", &scale_i16,
        {tensor<std::int16_t>({1024}), tensor<std::int16_t>({1024}), tensor<std::int32_t>({1}), scalar<std::int32_t>()},
        cost::bytes_per_cycle(32));
    const auto net =
        alg::transform(dev("npu2_1col"), k, ty, {.tile_size = 1024}, {tensor<std::int32_t>({1})}).resolve();
    CHECK(has_fifo(net, "param0"));
    std::vector<std::int16_t> a(4096);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int16_t>(i + 1);
    const auto r =
        sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(8192), bytes_of(std::vector<std::int32_t>{3})}, {});
    const auto c = values_of<std::int16_t>(r.host[1]);
    for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(c[i] == static_cast<std::int16_t>(a[i] * 3));
}

TEST_CASE("transform with a scalar param and transform_binary with a callable (E4)", "[sim][algorithms]") {
    const auto ty = tensor<std::int32_t>({256});
    Kernel k("add_scalar", &add_scalar_i32,
             {tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), scalar<std::int32_t>(), scalar<std::int32_t>()},
             cost::fixed(20));
    const auto a = random_values<std::int32_t>(256, -50, 50, 2), b = random_values<std::int32_t>(256, -50, 50, 3);
    {
        const auto net = alg::transform(dev("npu1_1col"), k, ty, {}, {std::int64_t{7}}).resolve();
        const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(1024)}, {});
        const auto c = values_of<std::int32_t>(r.host[1]);
        for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(c[i] == a[i] + 7);
    }
    const auto net = alg::transform_binary(
                         dev("npu1_1col"), [](auto x, auto y) { return x + y; }, ty)
                         .resolve();
    CHECK(has_fifo(net, "in1"));
    const auto r = sim::simulate(net, {bytes_of(a), bytes_of(b), std::vector<std::uint8_t>(1024)}, {});
    const auto c = values_of<std::int32_t>(r.host[2]);
    for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(c[i] == a[i] + b[i]);
}

TEST_CASE("transform_parallel: one worker per column and channel, every column of the device", "[sim][algorithms]") {
    for (int chans : {1, 2}) {
        const auto& d = dev("npu2");
        const std::int64_t n = 64 * d.cols * chans * 2;
        const auto ty = tensor<std::int32_t>({n});
        const auto net = alg::transform_parallel(d, [](std::int32_t x) { return x * 2 - 1; }, ty,
                                                 {.tile_size = 64, .num_channels = chans})
                             .resolve();
        CHECK(has_fifo(net, chans == 1 ? "in0_7" : "in0_7_1"));
        CHECK(has_fifo(net, chans == 1 ? "out_0" : "out_0_0"));
        CHECK(net.cores.size() == static_cast<std::size_t>(d.cols * chans));
        const auto a = random_values<std::int32_t>(static_cast<std::size_t>(n), -999, 999, 4);
        const auto r =
            sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(static_cast<std::size_t>(n) * 4)}, {});
        const auto c = values_of<std::int32_t>(r.host[1]);
        for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(c[i] == a[i] * 2 - 1);
    }
}

TEST_CASE("transform_parallel_binary with a kernel that takes no size", "[sim][algorithms]") {
    // one channel: two inputs on two channels would need four MM2S channels of a shim tile, which has two
    const auto& d = dev("npu1_2col");
    const auto tile = tensor<std::int32_t>({64});
    Kernel k("sub", &sub_i32_64, {tile, tile, tile}, cost::fixed(40));
    const std::int64_t n = 64 * d.cols * 3;
    const auto net =
        alg::transform_parallel_binary(d, k, tensor<std::int32_t>({n}), {.tile_size = 64, .pass_size_to_kernel = false})
            .resolve();
    const auto a = random_values<std::int32_t>(static_cast<std::size_t>(n), -99, 99, 5);
    const auto b = random_values<std::int32_t>(static_cast<std::size_t>(n), -99, 99, 6);
    const auto r =
        sim::simulate(net, {bytes_of(a), bytes_of(b), std::vector<std::uint8_t>(static_cast<std::size_t>(n) * 4)}, {});
    const auto c = values_of<std::int32_t>(r.host[2]);
    for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(c[i] == a[i] - b[i]);
}

TEST_CASE("for_each works in place on bf16", "[sim][algorithms]") {
    const auto ty = tensor<bfloat16>({512});
    const auto net = alg::for_each(
                         dev("npu1_1col"), [](bfloat16 x) { return bfloat16(float(x) * 0.5f); }, ty, 32)
                         .resolve();
    std::vector<bfloat16> a(512);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = bfloat16(static_cast<float>(i) - 100.0f);
    const auto r = sim::simulate(net, {bytes_of(a)}, {});
    const auto c = values_of<bfloat16>(r.host[0]);
    for (std::size_t i = 0; i < a.size(); ++i)
        REQUIRE(float(c[i]) == float(bfloat16((static_cast<float>(i) - 100.0f) * 0.5f)));
}

TEST_CASE("reduce: the whole input in one kernel call (E5)", "[sim][algorithms]") {
    Kernel k("reduce_max_vector", &kernels::reduce_max_vector_i32,
             {tensor<std::int32_t>({2048}), tensor<std::int32_t>({1}), scalar<std::int32_t>()},
             [](std::span<const KernelArg>) { return kernels::reduce_max_vector_i32_cycles(2048); });
    const auto net =
        alg::reduce(dev("npu1_1col"), k, tensor<std::int32_t>({2048}), tensor<std::int32_t>({1})).resolve();
    CHECK(has_fifo(net, "in"));
    const auto a = random_values<std::int32_t>(2048, -1000, 999, 8);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(4)}, {});
    std::int32_t m = a[0];
    for (auto x : a) m = x > m ? x : m;
    CHECK(values_of<std::int32_t>(r.host[1])[0] == m);
}

TEST_CASE("algorithm template errors", "[sim][algorithms][errors]") {
    const auto ty = tensor<std::int32_t>({100});
    auto inc = [](auto x) { return x + 1; };
    CHECK_THROWS_WITH(alg::transform(dev("npu1_1col"), inc, ty),
                      "transform: Number of elements (100) must be a multiple of tile size (16)");
    CHECK_THROWS_WITH(alg::transform_parallel(dev("npu1"), inc, tensor<std::int32_t>({1024}), {.num_channels = 3}),
                      "transform_parallel: num_channels must be 1 or 2 (shim DMA has 2 channels per direction per "
                      "column on AIE2 / AIE2p); got 3");
    CHECK_THROWS_WITH(alg::transform_parallel(dev("npu1_2col"), inc, tensor<std::int32_t>({96}), {.num_channels = 2}),
                      "transform_parallel: Number of elements (96) must be a multiple of tile_size × num_columns × "
                      "num_channels (16 × 2 × 2 = 64).");
    const auto tile = tensor<std::int32_t>({16});
    Kernel k("add_scalar", &add_scalar_i32, {tile, tile, scalar<std::int32_t>(), scalar<std::int32_t>()},
             cost::fixed(20));
    CHECK_THROWS_WITH(
        alg::transform(dev("npu1_1col"), k, tensor<std::int32_t>({64}), {.tile_size = 32}, {std::int64_t{1}}),
        "transform: tile_size (32) does not match ExternalFunction's input/output shape in arg_type");
    CHECK_THROWS_WITH(alg::transform(dev("npu1_1col"), k, tensor<std::int32_t>({64})),
                      "transform: kernel 'add_scalar' declares 4 arguments; the template calls it with 3 (1 input "
                      "tile, the output tile, 0 params, the tile size)");
    CHECK_THROWS_WITH(alg::transform(dev("npu1_1col"), k, tensor<std::int32_t>({64}), {}, {tensor<std::int32_t>({1})}),
                      "transform: param 0 of kernel 'add_scalar' is declared i32 scalar but given a tensor type");
    CHECK_THROWS_WITH(alg::transform_parallel(dev("npu1_1col"), k, tensor<std::int32_t>({64}), {.num_channels = 2},
                                              {std::int64_t{1}}),
                      "transform_parallel: num_channels=2 is not supported together with shared *params; use "
                      "num_channels=1 instead.");
    CHECK_THROWS_WITH(alg::transform(
                          dev("npu1_1col"), [](std::int16_t* p) { return *p; }, ty),
                      "transform: the function cannot be applied to i32 elements (1 argument)");
    CHECK_THROWS_WITH(alg::reduce(dev("npu1_1col"), k, tensor<std::int32_t>({16}), tensor<std::int32_t>({1})),
                      "reduce: kernel 'add_scalar' declares 4 arguments; reduce calls it with 3 (input, output, input "
                      "elements)");
}
