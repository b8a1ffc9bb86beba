// gemm_mod32, the integer matmul goldens' product (examples/src/GemmMod32.hpp): every path against
// an independent reference, Eigen's int64 matrix product truncated to its low 32 bits (numpy's
// (A.astype(int64) @ B).astype(uint32)). Sizes cover the AVX2 kernel's 4 x 16 blocks, the rows and
// columns past them, odd K (the last pair padded with a zero), K = 0 and empty results; values
// cover the full int16 range and the one input where vpmaddwd's 32-bit pair sum overflows
// (2 x (-32768)^2 = 2^31). The int16 and int8 outputs are checked against the same product's low
// bits, as astype(int16) / astype(int8) keeps them.
#include "GemmMod32.hpp"

#include <Eigen/Core>
#include <catch2/catch.hpp>
#include <random>
#include <vector>

using namespace npusim::examples;

namespace {

using MatI64 = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::vector<std::uint32_t> eigen_reference(const std::vector<std::int16_t>& A, const std::vector<std::int16_t>& B,
                                           std::int64_t M, std::int64_t K, std::int64_t N) {
    MatI64 a(M, K), b(K, N);
    for (std::int64_t i = 0; i < M; ++i)
        for (std::int64_t q = 0; q < K; ++q) a(i, q) = A[static_cast<std::size_t>(i * K + q)];
    for (std::int64_t q = 0; q < K; ++q)
        for (std::int64_t j = 0; j < N; ++j) b(q, j) = B[static_cast<std::size_t>(q * N + j)];
    const MatI64 c = a * b; // |sum| < K * 2^30: no int64 overflow at these sizes
    std::vector<std::uint32_t> out(static_cast<std::size_t>(M * N));
    for (std::int64_t i = 0; i < M; ++i)
        for (std::int64_t j = 0; j < N; ++j)
            out[static_cast<std::size_t>(i * N + j)] = static_cast<std::uint32_t>(static_cast<std::uint64_t>(c(i, j)));
    return out;
}

std::vector<GemmPath> paths() {
    std::vector<GemmPath> p{GemmPath::portable, GemmPath::best};
    if (gemm_mod32_has_avx2()) p.push_back(GemmPath::avx2);
    if (gemm_mod32_has_vnni()) p.push_back(GemmPath::vnni);
    return p;
}

} // namespace

TEST_CASE("gemm_mod32: every path gives the low 32 bits of the int64 product", "[examples][matmul][golden]") {
    // This machine has AVX2 and AVX512-VNNI: the SIMD paths are tested, not only the portable one.
    if (!gemm_mod32_has_avx2()) WARN("no AVX2 on this CPU: only the portable path is tested");
    if (!gemm_mod32_has_vnni()) WARN("no AVX512-VNNI on this CPU: its path is not tested");
    std::mt19937_64 rng(11);
    struct Size {
        std::int64_t M, K, N;
    };
    for (const Size s :
         {Size{1, 1, 1}, Size{4, 2, 16}, Size{4, 1, 16}, Size{5, 3, 17}, Size{8, 64, 32}, Size{7, 33, 50},
          Size{64, 128, 64}, Size{13, 257, 35}, Size{3, 0, 5}, Size{0, 4, 4}, Size{4, 4, 0}}) {
        std::vector<std::int16_t> A(static_cast<std::size_t>(s.M * s.K)), B(static_cast<std::size_t>(s.K * s.N));
        for (auto& x : A) x = static_cast<std::int16_t>(rng());
        for (auto& x : B) x = static_cast<std::int16_t>(rng());
        const auto want = eigen_reference(A, B, s.M, s.K, s.N);
        for (const auto path : paths()) {
            INFO("M " << s.M << " K " << s.K << " N " << s.N << " path " << static_cast<int>(path));
            std::vector<std::uint32_t> got(want.size(), 0xdeadbeef); // every element must be written
            gemm_mod32(A.data(), B.data(), got.data(), s.M, s.K, s.N, path);
            CHECK(got == want);
        }
    }
    // Every input -32768: each pair sums to 2^31, which wraps in vpmaddwd's 32-bit lane; the low
    // 32 bits of K * 2^30 are what numpy's astype keeps.
    for (const std::int64_t K : {2, 3, 6}) {
        const std::int64_t M = 8, N = 32;
        const std::vector<std::int16_t> A(static_cast<std::size_t>(M * K), -32768),
            B(static_cast<std::size_t>(K * N), -32768);
        const auto want = eigen_reference(A, B, M, K, N);
        CHECK(want[0] == static_cast<std::uint32_t>(static_cast<std::uint64_t>(K) << 30));
        for (const auto path : paths()) {
            std::vector<std::uint32_t> got(want.size());
            gemm_mod32(A.data(), B.data(), got.data(), M, K, N, path);
            CHECK(got == want);
        }
    }
}

TEST_CASE("gemm_mod32: int16 and int8 outputs are the low bits of the int64 product", "[examples][matmul][golden]") {
    std::mt19937_64 rng(12);
    struct Size {
        std::int64_t M, K, N;
    };
    for (const Size s : {Size{1, 1, 1}, Size{4, 2, 16}, Size{5, 3, 17}, Size{8, 64, 32}, Size{7, 33, 50},
                         Size{64, 128, 64}, Size{13, 257, 35}, Size{3, 0, 5}, Size{0, 4, 4}, Size{4, 4, 0}}) {
        std::vector<std::int16_t> A(static_cast<std::size_t>(s.M * s.K)), B(static_cast<std::size_t>(s.K * s.N));
        for (auto& x : A) x = static_cast<std::int16_t>(rng());
        for (auto& x : B) x = static_cast<std::int16_t>(rng());
        const auto want = eigen_reference(A, B, s.M, s.K, s.N);
        std::vector<std::int16_t> want16(want.size());
        std::vector<std::int8_t> want8(want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            want16[i] = static_cast<std::int16_t>(want[i] & 0xffffu);
            want8[i] = static_cast<std::int8_t>(want[i] & 0xffu);
        }
        for (const auto path : paths()) {
            INFO("M " << s.M << " K " << s.K << " N " << s.N << " path " << static_cast<int>(path));
            std::vector<std::int16_t> got16(want.size(), 0x5a5a); // every element must be written
            std::vector<std::int8_t> got8(want.size(), 0x5a);
            gemm_mod32(A.data(), B.data(), got16.data(), s.M, s.K, s.N, path);
            gemm_mod32(A.data(), B.data(), got8.data(), s.M, s.K, s.N, path);
            CHECK(got16 == want16);
            CHECK(got8 == want8);
        }
    }
}
