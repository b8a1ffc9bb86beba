// The built-in kernel library's activations and matmul (harness/KernelLibrary.hpp gelu / silu / swiglu,
// KernelLibraryLinalg.hpp mm): IRON's names, signatures and checks (python/iron/kernels/activation.py,
// linalg.py at 3ca0193); gelu and silu run through algorithms.transform_parallel on each generation
// with both kernel sets, their outputs equal to the generation's reference kernel bit for bit.
#include "npusim/algorithms/Transform.hpp"
#include "npusim/harness/KernelLibrary.hpp"
#include "npusim/harness/KernelLibraryLinalg.hpp"
#include "npusim/iron.hpp"
#include "npusim/kernels/activation_tanh.hpp"
#include "npusim/model/ComputePeak.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>

#include <random>

namespace iks = npusim::harness::iron_kernels;
namespace algs = npusim::iron::algorithms;

TEST_CASE("gelu / silu through transform_parallel: each generation's kernel, reference and AIE-API alike",
          "[harness][kernel_library]") {
    using namespace npusim;
    std::mt19937 rng(17);
    std::uniform_real_distribution<float> d(-6.0f, 6.0f);
    std::vector<bfloat16> a(4096);
    for (auto& x : a) x = bfloat16(d(rng));
    const auto ty = iron::tensor<bfloat16>({4096});
    for (const char* dev : {"npu1_1col", "npu2_1col"}) {
        const auto& spec = model::device_by_name(dev);
        const bool p = spec.arch == model::Arch::AIE2P;
        for (const bool gelu : {false, true}) {
            std::vector<bfloat16> want(a.size());
            for (std::size_t t = 0; t < a.size(); t += 1024)
                (gelu ? kernels::gelu_bf16 : kernels::silu_bf16)(a.data() + t, want.data() + t, 1024, p);
            for (auto ks : {harness::KernelSet::reference, harness::KernelSet::aie}) {
                INFO(dev << (gelu ? " gelu" : " silu") << (ks == harness::KernelSet::aie ? " aie" : " ref"));
                const auto k = gelu ? iks::gelu(spec.arch, 1024, ks) : iks::silu(spec.arch, 1024, ks);
                const auto net =
                    algs::transform_parallel(spec, k, ty, {.tile_size = 1024, .pass_size_to_kernel = false}).resolve();
                const auto out = sim::simulate(net, {test::bytes_of(a), std::vector<std::uint8_t>(8192)}, {}).host[1];
                CHECK(out == test::bytes_of(want));
            }
        }
    }
    CHECK(iks::gelu(model::Arch::AIE2).name() == "gelu_bf16");
    CHECK(iks::silu(model::Arch::AIE2P).arg_types()[1].str() == "bf16[1024]");
    const auto sw = iks::swiglu(model::Arch::AIE2);
    CHECK(sw.name() == "swiglu_bf16");
    CHECK(sw.arg_types().size() == 4);
    CHECK_THROWS_WITH(iks::silu(model::Arch::AIE2, 2048),
                      "silu() tile_size must be 1024 to match the hard-coded C++ loop bound, got 2048.");
}

TEST_CASE("mm: IRON's signature, the generation's mac dims, the zero sibling and its checks",
          "[harness][kernel_library]") {
    using namespace npusim;
    const auto mm = iks::mm(model::Arch::AIE2, 64, 64, 64, DType::i16, DType::i32);
    CHECK(mm.name() == "matmul_i16_i32");
    REQUIRE(mm.arg_types().size() == 3);
    CHECK(mm.arg_types()[0].str() == "i16[4096]");
    CHECK(mm.arg_types()[2].str() == "i32[4096]");
    CHECK(iks::mm_zero(64, 32, DType::f32).name() == "zero_f32");
    CHECK(iks::mm_zero(64, 32, DType::f32).arg_types()[0].str() == "f32[2048]");
    CHECK(iks::mm(model::Arch::AIE2P, 32, 64, 32, DType::bf16, DType::bf16).name() == "matmul_bf16_bf16");
    const auto d = iks::mac_dims(model::Arch::AIE2P, DType::i8);
    CHECK((d.r == 8 && d.s == 8 && d.t == 8));
    CHECK_THROWS_WITH(iks::mm(model::Arch::AIE2, 64, 64, 64, DType::i32, DType::i32),
                      "mm(): unsupported (input_dtype, output_dtype) = (i32, i32). Supported: i8->i8, i8->i16, "
                      "i8->i32, i16->i16, i16->i32, bf16->bf16, bf16->f32");
    CHECK_THROWS_WITH(iks::mm(model::Arch::AIE2, 64, 64, 64, DType::i16, DType::i16, false),
                      "mm(): the scalar variant (vectorized=False) is not in npusim's kernel library (the vectorized "
                      "row-major build is)");
    CHECK_THROWS_WITH(iks::mm(model::Arch::AIE2P, 64, 64, 20, DType::i16, DType::i16),
                      "mm(): dim_m=64, dim_k=64, dim_n=20 must be multiples of 8, 4 and 16 (2 x 4x4x8 mmul blocks "
                      "per step of mm.cc's loop)");
}

TEST_CASE("activation and norm costs never beat the generation's bf16 peak", "[harness][kernel_library]") {
    // a 1024-element call issues (multiplies per element) x 1024 bf16 products; at the matrix unit's
    // bf16 peak (model::matmul_mac_peak) they would need at least that / peak cycles
    using namespace npusim;
    for (const auto arch : {model::Arch::AIE2, model::Arch::AIE2P}) {
        const double peak = model::matmul_mac_peak(arch, DType::bf16).macs_per_cycle;
        const std::vector<iron::KernelArg> none;
        const struct {
            iron::Kernel k;
            std::uint64_t muls;
        } cases[] = {{iks::silu(arch), kernels::kSiluMulsPerStep},
                     {iks::gelu(arch), kernels::kGeluMulsPerStep},
                     {iks::swiglu(arch), kernels::kSwigluMulsPerStep}};
        for (const auto& c : cases) {
            INFO(c.k.name());
            const auto cycles = static_cast<double>(c.k.cost(none));
            CHECK(cycles * peak >= 1024.0 * static_cast<double>(c.muls));
            CHECK(cycles >= 1024.0 / 16.0 * static_cast<double>(c.muls)); // one 16-lane multiply a cycle
        }
    }
}
