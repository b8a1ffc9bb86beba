// ml/block_datatypes matrix_multiplication/single_core (mlir-aie at 3ca0193): C (M x N) = A (M x K) .
// B (K x N) in AIE2P block floating point (v8bfp16ebs8: 8 values sharing an exponent, 9 bytes) on one
// core, m x k x n tiles, npu2 only. As upstream's single_core.py (l.55-157): A is v8bfp16ebs8[M, K/8],
// B is given transposed (N x K values, v8bfp16ebs8[N, K/8]), C is v8bfp16ebs8[M, N/8]; each tile is
// forwarded through a mem tile unchanged, and the core zeroes a C tile and calls the matmul once per
// K tile (mm_bfp.cc semantics: kernels_ref/aie/mm_bfp.cc). The kernel wants each 8x8 subtile
// contiguous (72 bytes); a DMA cannot gather 9-byte blocks (its words are 4 bytes), so the host
// tensors are pre-shuffled per tile, as upstream's host does (block_datatypes/helper.h
// shuffleMatrixForBfp16ebs8, l.160-230): the npusim inputs are already in that layout.
// The sequence runs one task group per row block of tiles (upstream pairs two row blocks per group).
// Golden: a plain scalar model of the kernel (decode C, add each 8x8 block product exactly scaled,
// quantize back with truncation after every K tile), compared byte for byte.
#include "Design.hpp"
#include "MatmulCommon.hpp"

#include "npusim/harness/KernelLibraryBfp.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

constexpr std::size_t kBlock = 9; // bytes of one v8bfp16ebs8 block

// The golden's scalar model of one K tile is the library's reference kernel (harness
// KernelLibraryBfp: bfp16_tile_matmul, bfp16_quantize), independent of the AIE-API host layer.
using harness::iron_kernels::bfp16_quantize;
using harness::iron_kernels::bfp16_tile_matmul;

// Host layout: a rows x cols-value matrix of blocks, tiled (tr x tc values); within each tile the
// 8x8 subtiles are contiguous, row-major, while a tile row (tc / 8 blocks) is contiguous in the host
// tensor. Index (in blocks) of block (row, block column bc) of the matrix in that layout.
std::size_t shuffled_block(std::int64_t row, std::int64_t bc, std::int64_t cols, std::int64_t tr, std::int64_t tc) {
    const std::int64_t tb = tc / 8, rb = cols / 8;
    const std::int64_t ti = row / tr, tj = bc / tb, r = row % tr, b = bc % tb;
    const std::int64_t in_tile = ((r / 8) * tb + b) * 8 + r % 8; // subtile order inside the tile
    // The tile's t-th block lands at tile row t / tb, block column t % tb of the tile in the host tensor.
    return static_cast<std::size_t>((ti * tr + in_tile / tb) * rb + tj * tb + in_tile % tb);
}

Tensor random_bfp_matrix(std::int64_t rows, std::int64_t cols, std::int64_t tr, std::int64_t tc, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> mant(-1.0f, 1.0f);
    std::uniform_int_distribution<int> ex(-4, 4); // a spread of exponents inside and across blocks
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(rows * cols / 8) * kBlock);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t bc = 0; bc < cols / 8; ++bc) {
            float x[8];
            for (auto& v : x) v = std::ldexp(mant(rng), ex(rng));
            bfp16_quantize(x, bytes.data() + shuffled_block(r, bc, cols, tr, tc) * kBlock);
        }
    return Tensor(DType::bfp16ebs8, {rows * cols / 8}, std::move(bytes));
}

// Gather tile (ti, tj) of a shuffled host matrix as the DMA delivers it (tile rows in order).
std::vector<std::uint8_t> gather_tile(const std::vector<std::uint8_t>& host, std::int64_t cols, std::int64_t ti,
                                      std::int64_t tj, std::int64_t tr, std::int64_t tc) {
    const std::int64_t tb = tc / 8, rb = cols / 8;
    std::vector<std::uint8_t> t(static_cast<std::size_t>(tr * tb) * kBlock);
    for (std::int64_t r = 0; r < tr; ++r)
        std::copy_n(host.data() + static_cast<std::size_t>((ti * tr + r) * rb + tj * tb) * kBlock, tb * kBlock,
                    t.data() + static_cast<std::size_t>(r * tb) * kBlock);
    return t;
}

Tensor golden(const Tensor& A, const Tensor& Bt, std::int64_t M, std::int64_t K, std::int64_t N, std::int64_t m,
              std::int64_t k, std::int64_t n) {
    std::vector<std::uint8_t> C(static_cast<std::size_t>(M * N / 8) * kBlock, 0);
    for (std::int64_t ti = 0; ti < M / m; ++ti)
        for (std::int64_t tj = 0; tj < N / n; ++tj) {
            std::vector<std::uint8_t> c(static_cast<std::size_t>(m * n / 8) * kBlock, 0);
            for (std::int64_t tk = 0; tk < K / k; ++tk) {
                const auto a = gather_tile(A.data, K, ti, tk, m, k);
                const auto b = gather_tile(Bt.data, K, tj, tk, n, k);
                bfp16_tile_matmul(a.data(), b.data(), c.data(), int(m), int(k), int(n));
            }
            const std::int64_t tb = n / 8;
            for (std::int64_t r = 0; r < m; ++r) // scatter the tile's rows back (the drain's tap)
                std::copy_n(c.data() + static_cast<std::size_t>(r * tb) * kBlock, tb * kBlock,
                            C.data() + static_cast<std::size_t>((ti * m + r) * (N / 8) + tj * tb) * kBlock);
        }
    return Tensor(DType::bfp16ebs8, {M * N / 8}, std::move(C));
}

} // namespace

DesignSpec make_matmul_bfp16() {
    DesignSpec s;
    s.name = "matmul_bfp16";
    s.description = "ml/block_datatypes single_core: bfp16 (v8bfp16ebs8) matmul on one AIE2P core, B transposed, "
                    "inputs pre-shuffled into 8x8 subtiles";
    s.params = {{"M", 128, "rows of A and C"},    {"K", 128, "columns of A, rows of B"},
                {"N", 128, "columns of B and C"}, {"m", 64, "tile rows"},
                {"k", 64, "tile depth"},          {"n", 64, "tile columns"}};
    s.devices = {"npu2_1col", "npu2"};
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string name = "matmul_bfp16";
        require_multiple(name, p, "M", "m");
        require_multiple(name, p, "K", "k");
        require_multiple(name, p, "N", "n");
        const std::int64_t M = p.at("M"), K = p.at("K"), N = p.at("N"), m = p.at("m"), k = p.at("k"), n = p.at("n");
        // mm_bfp.cc: m % 16, k % 8, n % 16 (l.183-185); a tile row of k/8 (n/8) blocks must also be
        // whole 32-bit DMA words (9 bytes a block): k and n multiples of 32.
        if (m % 16 || k % 32 || n % 32)
            throw DesignError(fmt::format("design '{}': m={} k={} n={} must be multiples of 16, 32, 32 (the 2x2 "
                                          "8x8x8 kernel and 9-byte blocks in 4-byte DMA words)",
                                          name, m, k, n));
        const auto blk = [](std::int64_t rows, std::int64_t cols) {
            return TensorType{DType::bfp16ebs8, {rows, cols / 8}};
        };
        ObjectFifo inA(blk(m, k), "inA"), inB(blk(n, k), "inB"), memC(blk(m, n), "memC");
        auto memA = inA.cons().forward({.name = "memA"});
        auto memB = inB.cons().forward({.name = "memB"});
        auto outC = memC.cons().forward({.name = "outC"});
        const std::int64_t tiles = (M / m) * (N / n), ksteps = K / k;
        // The single-core matmul's loop nest (one C tile zeroed, then K / k A/B pairs accumulated).
        Worker w(
            matmul::core_body(tiles, ksteps),
            fn_args(memA.cons(), memB.cons(), memC.prod(), harness::iron_kernels::bfp16_matmul(m, k, n, o.kernels),
                    harness::iron_kernels::bfp16_zero(m, n, o.kernels)),
            {.stack_size = 0xD00, .name = "matmul"});
        const TensorType A_ty{DType::bfp16ebs8, {M * K / 8}}, B_ty{DType::bfp16ebs8, {N * K / 8}},
            C_ty{DType::bfp16ebs8, {M * N / 8}};
        const std::int64_t kb = K / 8, nb = N / 8;
        auto a_tap = [=](std::int64_t row) { // row block of A: each k tile, repeated for the N/n column blocks
            return TensorAccessPattern({M * kb}, row * m * kb, {N / n, K / k, m, k / 8}, {0, k / 8, kb, 1});
        };
        const auto b_tap = // all of B^T, column-block major
            TensorAccessPattern({N * kb}, 0, {N / n, K / k, n, k / 8}, {n * kb, k / 8, kb, 1});
        auto c_tap = [=](std::int64_t row) {
            return TensorAccessPattern({M * nb}, row * m * nb, {N / n, m, n / 8}, {n / 8, nb, 1});
        };
        Runtime rt(
            [=](RuntimeData A, RuntimeData B, RuntimeData C, ObjectFifoHandle ha, ObjectFifoHandle hb,
                ObjectFifoHandle hc) {
                for (std::int64_t row = 0; row < M / m; ++row) {
                    TaskGroup g;
                    ha.fill(A, {.tap = a_tap(row), .group = &g});
                    hb.fill(B, {.tap = b_tap, .group = &g});
                    hc.drain(C, {.tap = c_tap(row), .wait = true, .group = &g});
                    g.finish();
                }
            },
            fn_args(A_ty, B_ty, C_ty, inA.prod(), inB.prod(), outC.cons()));
        auto reference = [=](const Tensors& in) {
            return tensors("C", golden(get(in, "A"), get(in, "B"), M, K, N, m, k, n));
        };
        return DesignInstance(
            Program(dev, rt, {w}, name),
            {ArgSpec::input("A", A_ty), ArgSpec::input("B", B_ty), ArgSpec::output("C", C_ty)},
            {{"A", random_bfp_matrix(M, K, m, k, o.seed)}, {"B", random_bfp_matrix(N, K, n, k, o.seed + 1)}}, reference,
            name);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_matmul_bfp16, 52);

} // namespace npusim::examples
