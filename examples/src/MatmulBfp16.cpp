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

#include "npusim/aie_kernels.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/model/ComputePeak.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

constexpr std::size_t kBlock = 9; // bytes of one v8bfp16ebs8 block

// ---- the golden's scalar model (independent of the AIE-API host layer) ----
double bfp_value(const std::uint8_t* blk, int lane) {
    return std::ldexp(static_cast<double>(static_cast<std::int8_t>(blk[1 + lane])), int(blk[0]) - 133);
}
// Quantize 8 floats: E = largest exponent field, m = floor(significand / 2^(17 + E - e)).
void bfp_quantize(const float* x, std::uint8_t* out) {
    std::uint32_t e_max = 0;
    for (int k = 0; k < 8; ++k) e_max = std::max(e_max, (std::bit_cast<std::uint32_t>(x[k]) >> 23) & 0xFFu);
    out[0] = static_cast<std::uint8_t>(e_max);
    for (int k = 0; k < 8; ++k) {
        const std::uint32_t u = std::bit_cast<std::uint32_t>(x[k]);
        const std::uint32_t e = (u >> 23) & 0xFFu;
        std::int64_t sig = (u & 0x7FFFFFu) | (e ? 0x800000u : 0u);
        if (u >> 31) sig = -sig;
        const int sh = std::min(40, 17 + int(e_max) - int(e));
        out[1 + k] = static_cast<std::uint8_t>(static_cast<std::int8_t>(sig >> sh));
    }
}
// One K tile on an m x n C tile (all in 8x8-subtile order): C = bfp16(C + A . B^T), each output lane
// adding the K/8 block dot products in order, each in one float rounding.
void bfp_tile_matmul(const std::uint8_t* a, const std::uint8_t* bt, std::uint8_t* c, int m, int k, int n) {
    const int colA = k / 8, colB = n / 8;
    for (int si = 0; si < m / 8; ++si)
        for (int sj = 0; sj < colB; ++sj) {
            std::uint8_t* cs = c + static_cast<std::size_t>(si * colB + sj) * 64 / 8 * kBlock;
            float acc[64];
            for (int r = 0; r < 8; ++r)
                for (int q = 0; q < 8; ++q) acc[r * 8 + q] = static_cast<float>(bfp_value(cs + r * kBlock, q));
            for (int kk = 0; kk < colA; ++kk) {
                const std::uint8_t* as = a + static_cast<std::size_t>(si * colA + kk) * 8 * kBlock;
                const std::uint8_t* bs = bt + static_cast<std::size_t>(sj * colA + kk) * 8 * kBlock;
                for (int r = 0; r < 8; ++r)
                    for (int q = 0; q < 8; ++q) {
                        std::int32_t s = 0;
                        for (int t = 0; t < 8; ++t)
                            s += static_cast<std::int8_t>(as[r * kBlock + 1 + t]) *
                                 static_cast<std::int8_t>(bs[q * kBlock + 1 + t]);
                        const int e = int(as[r * kBlock]) + int(bs[q * kBlock]) - 266;
                        acc[r * 8 + q] += static_cast<float>(std::ldexp(static_cast<double>(s), e));
                    }
            }
            for (int r = 0; r < 8; ++r) bfp_quantize(acc + r * 8, cs + r * kBlock);
        }
}

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
            bfp_quantize(x, bytes.data() + shuffled_block(r, bc, cols, tr, tc) * kBlock);
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
                bfp_tile_matmul(a.data(), b.data(), c.data(), int(m), int(k), int(n));
            }
            const std::int64_t tb = n / 8;
            for (std::int64_t r = 0; r < m; ++r) // scatter the tile's rows back (the drain's tap)
                std::copy_n(c.data() + static_cast<std::size_t>(r * tb) * kBlock, tb * kBlock,
                            C.data() + static_cast<std::size_t>((ti * m + r) * (N / 8) + tj * tb) * kBlock);
        }
    return Tensor(DType::bfp16ebs8, {M * N / 8}, std::move(C));
}

// ---- kernels ----
Kernel bfp_matmul_kernel(std::int64_t m, std::int64_t k, std::int64_t n, KernelSet ks) {
    const int M = int(m), K = int(k), N = int(n);
    Kernel::Invoker run = [=](std::span<const KernelArg> x) {
        bfp_tile_matmul(reinterpret_cast<const std::uint8_t*>(x[0].data),
                        reinterpret_cast<const std::uint8_t*>(x[1].data), reinterpret_cast<std::uint8_t*>(x[2].data), M,
                        K, N);
    };
    if (ks == KernelSet::aie)
        run = with_aie_core_modes(
            [=](std::span<const KernelArg> x) {
                aie_kernels::matmul_bfp16(reinterpret_cast<const std::uint8_t*>(x[0].data),
                                          reinterpret_cast<const std::uint8_t*>(x[1].data),
                                          reinterpret_cast<std::uint8_t*>(x[2].data), M, K, N);
            },
            make_aie_core_modes());
    // [est] the matrix unit's one 8x8x8 MAC per cycle (model::matmul_mac_peak, 512 MAC/cycle) plus 16
    // cycles per 2x2 step of the outer loops (four C block loads and stores, the stream seeks);
    // never faster than the peak.
    const auto macs = static_cast<std::uint64_t>(M) * static_cast<std::uint64_t>(K) * static_cast<std::uint64_t>(N);
    const double peak = model::matmul_mac_peak(model::Arch::AIE2P, DType::bfp16ebs8).macs_per_cycle;
    auto cost = [=](std::span<const KernelArg>) {
        return static_cast<std::uint64_t>(std::ceil(static_cast<double>(macs) / peak)) +
               16u * static_cast<std::uint64_t>((M / 16) * (N / 16));
    };
    Kernel kernel("matmul_bfp16", std::move(run),
                  {TensorType{DType::bfp16ebs8, {m, k / 8}}, TensorType{DType::bfp16ebs8, {n, k / 8}},
                   TensorType{DType::bfp16ebs8, {m, n / 8}}},
                  cost);
    kernel.with_work([=](std::span<const KernelArg>) { return model::KernelWork{macs, peak}; });
    return kernel;
}

Kernel bfp_zero_kernel(std::int64_t m, std::int64_t n, KernelSet ks) {
    const int M = int(m), N = int(n);
    Kernel::Invoker run = [=](std::span<const KernelArg> x) {
        std::fill_n(reinterpret_cast<std::uint8_t*>(x[0].data), static_cast<std::size_t>(M * N / 8) * kBlock, 0);
    };
    if (ks == KernelSet::aie)
        run = [=](std::span<const KernelArg> x) {
            aie_kernels::zero_bfp16(reinterpret_cast<std::uint8_t*>(x[0].data), M, N);
        };
    // [est] one 72-byte block vector stored per cycle.
    auto cost = [=](std::span<const KernelArg>) { return static_cast<std::uint64_t>(M * N / 64) + 8; };
    return Kernel("zero_bfp16", std::move(run), {TensorType{DType::bfp16ebs8, {m, n / 8}}}, cost);
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
            fn_args(memA.cons(), memB.cons(), memC.prod(), bfp_matmul_kernel(m, k, n, o.kernels),
                    bfp_zero_kernel(m, n, o.kernels)),
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
