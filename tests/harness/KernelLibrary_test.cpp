// The built-in kernel library (harness/KernelLibrary.hpp, IRON aie.iron.kernels): each factory's
// signature as upstream declares it, and each kernel run in a design built by the algorithm
// templates on both kernel sets (reference and the AIE-API builds), outputs checked against plain
// loops written here.
#include "npusim/algorithms/Transform.hpp"
#include "npusim/harness/KernelLibrary.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace npusim;
using namespace npusim::iron;
namespace ik = npusim::harness::iron_kernels;
namespace alg = npusim::iron::algorithms;
using harness::KernelSet;
using npusim::test::bytes_of;
using npusim::test::values_of;

namespace {

const model::DeviceSpec& npu1() { return model::device_by_name("npu1_1col"); }
// bf16 of a float, rounded to nearest even, written here from the bit pattern
bfloat16 bf16_rne(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return bfloat16::from_bits(static_cast<std::uint16_t>(u >> 16));
}
std::vector<bfloat16> random_bf16(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-4.0f, 4.0f);
    std::vector<bfloat16> v(n);
    for (auto& x : v) x = bf16_rne(d(rng));
    return v;
}

} // namespace

TEST_CASE("kernel library signatures follow aie.iron.kernels", "[harness][kernel_library]") {
    const auto ra = ik::reduce_add();
    CHECK(ra.name() == "reduce_add_vector");
    REQUIRE(ra.arg_types().size() == 3);
    CHECK(ra.arg_types()[0].str() == "i32[1024]");
    CHECK(ra.arg_types()[1].str() == "i32[1]");
    CHECK(ik::reduce_min(256, DType::i32, false).name() == "reduce_min_scalar");
    const auto rm = ik::reduce_max(1024, DType::bf16);
    CHECK(rm.name() == "reduce_max_vector_bfloat16");
    CHECK(rm.arg_types()[1].str() == "bf16[2]"); // _min_dma_aligned_elems(bfloat16) = 2
    CHECK(ik::compute_max(DType::bf16).name() == "compute_max_bfloat16");
    CHECK(ik::add().name() == "eltwise_add_bf16_vector");
    CHECK(ik::mul(1024, DType::bf16, false).name() == "eltwise_mul_bf16_scalar");
    CHECK(ik::relu().arg_types().size() == 2);
    CHECK(ik::passthrough().name() == "passThroughLine");
    CHECK(ik::passthrough().arg_types()[0].str() == "i32[4096]");
    const auto sc = ik::scale(1024, DType::i16);
    CHECK(sc.name() == "vector_scalar_mul_vector");
    CHECK(sc.arg_types()[2].str() == "i32[1]");
}

TEST_CASE("reduce_add / reduce_min / reduce_max through algorithms.reduce", "[harness][kernel_library]") {
    std::mt19937 rng(9);
    std::vector<std::int32_t> in(1024);
    for (auto& x : in) x = static_cast<std::int32_t>(rng());
    std::int64_t sum = 0;
    for (auto x : in) sum += x;
    const auto wrapped = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(sum)));
    for (auto ks : {KernelSet::reference, KernelSet::aie})
        for (bool vec : {true, false}) {
            INFO("kernels " << (ks == KernelSet::aie ? "aie" : "ref") << " vectorized " << vec);
            auto run = [&](const Kernel& k) {
                const auto net =
                    alg::reduce(npu1(), k, tensor<std::int32_t>({1024}), tensor<std::int32_t>({1})).resolve();
                return values_of<std::int32_t>(
                    sim::simulate(net, {bytes_of(in), std::vector<std::uint8_t>(4)}, {}).host[1])[0];
            };
            CHECK(run(ik::reduce_add(1024, DType::i32, vec, ks)) == wrapped);
            CHECK(run(ik::reduce_min(1024, DType::i32, vec, ks)) == *std::min_element(in.begin(), in.end()));
            CHECK(run(ik::reduce_max(1024, DType::i32, vec, ks)) == *std::max_element(in.begin(), in.end()));
        }
}

TEST_CASE("add / mul / relu through the transform templates", "[harness][kernel_library]") {
    const auto a = random_bf16(4096, 1), b = random_bf16(4096, 2);
    const auto ty = tensor<bfloat16>({4096});
    for (auto ks : {KernelSet::reference, KernelSet::aie}) {
        INFO("kernels " << (ks == KernelSet::aie ? "aie" : "ref"));
        for (bool is_add : {true, false}) {
            const Kernel k = is_add ? ik::add(1024, DType::bf16, true, ks) : ik::mul(1024, DType::bf16, true, ks);
            // IRON's eltwise kernels take (a, b, c): pass_size_to_kernel=False
            const auto net =
                alg::transform_parallel_binary(npu1(), k, ty, {.tile_size = 1024, .pass_size_to_kernel = false})
                    .resolve();
            const auto r = sim::simulate(net, {bytes_of(a), bytes_of(b), std::vector<std::uint8_t>(8192)}, {});
            const auto c = values_of<bfloat16>(r.host[2]);
            for (std::size_t i = 0; i < a.size(); ++i) {
                const float x = float(a[i]), y = float(b[i]);
                REQUIRE(c[i].bits == bf16_rne(is_add ? x + y : x * y).bits);
            }
        }
        const auto net =
            alg::transform_parallel(npu1(), ik::relu(1024, ks), ty, {.tile_size = 1024, .pass_size_to_kernel = false})
                .resolve();
        const auto c =
            values_of<bfloat16>(sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(8192)}, {}).host[1]);
        for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(float(c[i]) == std::max(float(a[i]), 0.0f));
    }
}

TEST_CASE("bf16_exp and softmax through the transform templates, each generation's source",
          "[harness][kernel_library]") {
    // Inputs as vector_exp.py draws none (it sweeps every bf16): values in [-8, 8) here; the reference
    // and AIE-API builds compute the same bits (tests/kernels_ref/aie_api/AieExpSoftmax_test.cpp), so
    // each is checked against e^x within IRON's rtol 0.128 (bf16_exp_ref) and against the other.
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> d(-8.0f, 8.0f);
    std::vector<bfloat16> a(4096);
    for (auto& x : a) x = bfloat16(d(rng));
    const auto ty = tensor<bfloat16>({4096});
    for (const char* dev : {"npu1_1col", "npu2_1col"}) {
        const auto& spec = model::device_by_name(dev);
        std::vector<std::uint8_t> exp_ref, sm_ref;
        for (auto ks : {KernelSet::reference, KernelSet::aie}) {
            INFO(dev << " kernels " << (ks == KernelSet::aie ? "aie" : "ref"));
            const auto net = alg::transform_parallel(spec, ik::bf16_exp(spec.arch, 1024, ks), ty,
                                                     {.tile_size = 1024, .pass_size_to_kernel = false})
                                 .resolve();
            const auto out = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(8192)}, {}).host[1];
            const auto c = values_of<bfloat16>(out);
            for (std::size_t i = 0; i < a.size(); ++i) {
                const float want = std::exp(float(a[i])), got = float(c[i]);
                REQUIRE(std::fabs(got - want) < 0.128f * (std::fabs(got) + std::fabs(want)));
            }
            if (ks == KernelSet::reference)
                exp_ref = out;
            else
                CHECK(out == exp_ref);
            const auto sm = alg::transform_parallel(spec, ik::softmax(spec.arch, 1024, ks), ty,
                                                    {.tile_size = 1024, .pass_size_to_kernel = true})
                                .resolve();
            const auto so = sim::simulate(sm, {bytes_of(a), std::vector<std::uint8_t>(8192)}, {}).host[1];
            const auto s = values_of<bfloat16>(so);
            for (std::size_t t = 0; t < a.size(); t += 1024) {
                float mx = -INFINITY, sum = 0;
                for (std::size_t i = t; i < t + 1024; ++i) mx = std::max(mx, float(a[i]));
                for (std::size_t i = t; i < t + 1024; ++i) sum += std::exp(float(a[i]) - mx);
                for (std::size_t i = t; i < t + 1024; ++i) {
                    const float want = std::exp(float(a[i]) - mx) / sum, got = float(s[i]);
                    REQUIRE(std::fabs(got - want) < 0.128f * (std::fabs(got) + want));
                }
            }
            if (ks == KernelSet::reference)
                sm_ref = so;
            else
                CHECK(so == sm_ref);
        }
    }
    CHECK(ik::bf16_exp(model::Arch::AIE2).name() == "exp_bf16_1024");
    CHECK(ik::softmax(model::Arch::AIE2P).arg_types()[2].str() == "i32 scalar");
    CHECK_THROWS_WITH(ik::bf16_exp(model::Arch::AIE2, 512),
                      "bf16_exp() tile_size must be 1024 to match the hard-coded C++ loop bound, got 512.");
    CHECK_THROWS_WITH(ik::softmax(model::Arch::AIE2P, 2048),
                      "softmax() tile_size must be 1024 to match the hard-coded C++ loop bound, got 2048.");
}

TEST_CASE("passthrough and scale through algorithms.transform", "[harness][kernel_library]") {
    std::vector<std::int16_t> a(4096);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int16_t>(i * 37);
    const auto ty = tensor<std::int16_t>({4096});
    for (auto ks : {KernelSet::reference, KernelSet::aie}) {
        INFO("kernels " << (ks == KernelSet::aie ? "aie" : "ref"));
        {
            const auto net =
                alg::transform(npu1(), ik::passthrough(1024, DType::i16, ks), ty, {.tile_size = 1024}).resolve();
            const auto c =
                values_of<std::int16_t>(sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(8192)}, {}).host[1]);
            CHECK(c == a);
        }
        // E3 vector_scalar_mul: the factor through fifo param0
        const auto net = alg::transform(npu1(), ik::scale(1024, DType::i16, true, ks), ty, {.tile_size = 1024},
                                        {tensor<std::int32_t>({1})})
                             .resolve();
        const auto r = sim::simulate(
            net, {bytes_of(a), std::vector<std::uint8_t>(8192), bytes_of(std::vector<std::int32_t>{3})}, {});
        const auto c = values_of<std::int16_t>(r.host[1]);
        for (std::size_t i = 0; i < a.size(); ++i)
            REQUIRE(c[i] == static_cast<std::int16_t>(static_cast<std::uint16_t>(a[i]) * 3u));
    }
}

TEST_CASE("kernel library errors", "[harness][kernel_library][errors]") {
    CHECK_THROWS_WITH(ik::relu(512), "relu() tile_size must be 1024 to match the hard-coded C++ loop bound, got 512.");
    CHECK_THROWS_WITH(ik::reduce_min(1024, DType::bf16),
                      "reduce_min() dtype must be np.int32, got bf16. Only the int32 variant is available in the "
                      "installed aie_kernels.");
    CHECK_THROWS_WITH(ik::add(1024, DType::i32),
                      "add() dtype must be bfloat16, got i32. Only the bf16 variant is available in the installed "
                      "aie_kernels.");
    CHECK_THROWS_WITH(ik::passthrough(64, DType::f32),
                      "passthrough: unsupported dtype f32. Use np.uint8, np.int16, or np.int32.");
    CHECK_THROWS_WITH(ik::scale(1024, DType::u8), "scale() dtype must be np.int16 or np.int32, got u8");
}
