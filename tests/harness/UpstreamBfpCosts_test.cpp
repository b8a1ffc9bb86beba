// The cost models of mlir-aie's run-time compiled bfp16 kernels (harness/UpstreamBfpCosts.hpp): which
// symbols and argument types get one, the sizes read from the types and -DDIM_K, and that no model
// charges fewer cycles than the MACs take at the AIE2P bfp16 peak.
#include "npusim/harness/KernelLibraryBfp.hpp"
#include "npusim/harness/UpstreamBfpCosts.hpp"
#include "npusim/model/ComputePeak.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using harness::upstream_bfp_cost;
using iron::ArgType;
using iron::TensorType;

namespace {

ArgType ubfp_tensor(DType t, std::int64_t rows, std::int64_t cols) { return TensorType{t, {rows, cols}}; }

std::uint64_t ubfp_cycles(const harness::UpstreamCost& c) { return c.cost({}); }

} // namespace

TEST_CASE("upstream bfp16 matmuls: the 2x2 MAC loop at the bfp16 peak, sizes from A, B and DIM_K",
          "[harness][upstream_bfp]") {
    const double peak = model::matmul_mac_peak(model::Arch::AIE2P, DType::bfp16ebs8).macs_per_cycle;
    REQUIRE(peak == 512);
    const auto bfp = DType::bfp16ebs8;
    // ATB config2's call (n32_core.py: A_l1 (m/DIV, k/8) = (32, 16), B_l1 (k, n/8) = (128, 12), C (m, n/8))
    const auto c2 = upstream_bfp_cost("matmul_vectorized_bfp16",
                                      {ubfp_tensor(bfp, 32, 16), ubfp_tensor(bfp, 128, 12), ubfp_tensor(bfp, 192, 12)},
                                      {"-DDIM_M=192", "-DDIM_K=128", "-DDIM_N=96", "-DMATMUL_ONLY"}, model::Arch::AIE2P);
    REQUIRE(c2);
    CHECK(c2->macs == 32u * 128u * 96u);
    // 32 x 128 x 96 / 512 = 768 MAC cycles + 16 for each of the (32/16) x (96/16) = 12 2x2 steps
    CHECK(ubfp_cycles(*c2) == 768 + 16 * 12);
    CHECK(ubfp_cycles(*c2) == harness::iron_kernels::bfp16_matmul_cycles(32, 128, 96));

    // ATB config1's mixed kernel: A bf16 (m/4, k) = (32, 64), B (64, 16) blocks, C the whole 128 x 128
    // bf16 tile (of which a call works on a quarter): the work is 32 x 64 x 128, whatever C's size
    const std::vector<ArgType> mixed{ubfp_tensor(DType::bf16, 32, 64), ubfp_tensor(bfp, 64, 16),
                                     ubfp_tensor(DType::bf16, 128, 128)};
    const auto c1 = upstream_bfp_cost("matmul_vectorized_different_datatypes", mixed, {"-DDIM_K=64"}, model::Arch::AIE2P);
    REQUIRE(c1);
    CHECK(c1->macs == 32u * 64u * 128u);
    // A: 32 x 64 / 64 = 32 blocks converted at 2 cycles; 512 MAC cycles; 2 x 8 2x2 steps at 16
    CHECK(ubfp_cycles(*c1) == 2 * 32 + 512 + 16 * 16);
    // the Kernel default charged its 4 KiB + 9 KiB + 32 KiB of views at 32 B a cycle: 1,440 cycles
    CHECK(ubfp_cycles(*c1) < (32 * 64 * 2 + 64 * 16 * 9 + 128 * 128 * 2) / 32);

    // never below the MACs at the peak, over the shapes the block_datatypes designs use
    for (const auto& [m, k, n] : {std::tuple{16, 8, 16}, {32, 64, 128}, {64, 64, 64}, {32, 128, 96}, {64, 256, 64}}) {
        const auto f = upstream_bfp_cost("matmul_vectorized_bfp16",
                                         {ubfp_tensor(bfp, m, k / 8), ubfp_tensor(bfp, n, k / 8), ubfp_tensor(bfp, m, n / 8)},
                                         {"-DDIM_K=" + std::to_string(k)}, model::Arch::AIE2P);
        const auto x = upstream_bfp_cost("matmul_vectorized_different_datatypes",
                                         {ubfp_tensor(DType::bf16, m, k), ubfp_tensor(bfp, n, k / 8),
                                          ubfp_tensor(DType::bf16, m, n)},
                                         {"-DDIM_K=" + std::to_string(k)}, model::Arch::AIE2P);
        REQUIRE(f);
        REQUIRE(x);
        CHECK(f->macs == std::uint64_t(m) * k * n);
        CHECK(static_cast<double>(ubfp_cycles(*f)) >= static_cast<double>(f->macs) / peak);
        CHECK(static_cast<double>(ubfp_cycles(*x)) >= static_cast<double>(x->macs) / peak);
    }
    // without -DDIM_K the kernel's own default K (mm_bfp.cc: 64)
    const auto d = upstream_bfp_cost("matmul_vectorized_bfp16",
                                     {ubfp_tensor(bfp, 64, 8), ubfp_tensor(bfp, 64, 8), ubfp_tensor(bfp, 64, 8)}, {},
                                     model::Arch::AIE2P);
    REQUIRE(d);
    CHECK(d->macs == 64u * 64u * 64u);
}

TEST_CASE("upstream bfp16 helpers: zero, shuffle, conversion, passthrough, and nothing for others or AIE2",
          "[harness][upstream_bfp]") {
    const auto bfp = DType::bfp16ebs8;
    const auto p2 = model::Arch::AIE2P;
    const auto z = upstream_bfp_cost("zero_kernel", {ubfp_tensor(bfp, 64, 8)}, {}, p2);
    REQUIRE(z);
    CHECK(ubfp_cycles(*z) == harness::iron_kernels::bfp16_zero_cycles(64 * 64));
    const auto zb = upstream_bfp_cost("zero_kernel_bf16", {ubfp_tensor(DType::bf16, 128, 128)}, {}, p2);
    REQUIRE(zb);
    CHECK(ubfp_cycles(*zb) == 128 * 128 * 2 / 32); // kernels::zero_cycles: 32 bytes a cycle
    const auto sh = upstream_bfp_cost("scalar_shuffle",
                                      {TensorType{bfp, {512}}, TensorType{bfp, {512}}, iron::ScalarType{DType::i32},
                                       iron::ScalarType{DType::i32}, iron::ScalarType{DType::i32}},
                                      {}, p2);
    REQUIRE(sh);
    CHECK(ubfp_cycles(*sh) == 12u * 512 * 9); // a scalar loop over every byte (kScalarLoopCyclesPerElement)
    const auto cv = upstream_bfp_cost("bf16_to_bfp_conversion",
                                      {TensorType{DType::bf16, {64}}, TensorType{DType::bf16, {64}}, TensorType{bfp, {8}},
                                       TensorType{bfp, {8}}},
                                      {}, p2);
    REQUIRE(cv);
    CHECK(ubfp_cycles(*cv) == 6);
    const auto mm = upstream_bfp_cost("bfp16_matrix_multiplication",
                                      {TensorType{bfp, {8}}, TensorType{bfp, {8}}, TensorType{bfp, {8}}}, {}, p2);
    REQUIRE(mm);
    CHECK(mm->macs == 512);
    CHECK(ubfp_cycles(*mm) >= 1);
    const auto pt = upstream_bfp_cost("bfp16_passthrough_vectorized", {TensorType{bfp, {16}}, TensorType{bfp, {16}}}, {}, p2);
    REQUIRE(pt);
    CHECK(ubfp_cycles(*pt) == 3); // 144 bytes through a 64-byte store port

    // another symbol, wrong types, sizes the 2x2 loop cannot take, and AIE2 (no bfp16 datapath)
    CHECK_FALSE(upstream_bfp_cost("my_kernel", {ubfp_tensor(bfp, 64, 8)}, {}, p2));
    CHECK_FALSE(upstream_bfp_cost("zero_kernel", {ubfp_tensor(DType::i32, 64, 8)}, {}, p2));
    CHECK_FALSE(upstream_bfp_cost("matmul_vectorized_bfp16",
                                  {ubfp_tensor(bfp, 8, 8), ubfp_tensor(bfp, 64, 8), ubfp_tensor(bfp, 8, 8)}, {}, p2));
    CHECK_FALSE(upstream_bfp_cost("zero_kernel", {ubfp_tensor(bfp, 64, 8)}, {}, model::Arch::AIE2));
}
