#include "GemmMod32.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define NPUSIM_GEMM_X86 1
#endif

namespace npusim::examples {

namespace {

std::uint32_t widen(std::int16_t v) { return static_cast<std::uint32_t>(static_cast<std::int32_t>(v)); }

// The low bits of a mod-2^32 sum as the output type (numpy's astype; modular since C++20).
template <class TOut>
TOut narrow(std::uint32_t v) {
    return static_cast<TOut>(v);
}

// Rows [i0, i1) x columns [j0, j1) of C, each row accumulated (wrapping unsigned arithmetic: mod
// 2^32) in `row`, updated by every A element of the row times B's row, then stored narrowed.
template <class TOut>
void portable_block(const std::int16_t* A, const std::int16_t* B, TOut* C, std::int64_t K, std::int64_t N,
                    std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1) {
    if (j1 <= j0) return;
    std::vector<std::uint32_t> row(static_cast<std::size_t>(j1 - j0));
    for (std::int64_t i = i0; i < i1; ++i) {
        std::fill(row.begin(), row.end(), 0u);
        for (std::int64_t q = 0; q < K; ++q) {
            const std::uint32_t x = widen(A[i * K + q]);
            const std::int16_t* b = B + q * N + j0;
            for (std::int64_t j = 0; j < j1 - j0; ++j) row[static_cast<std::size_t>(j)] += x * widen(b[j]);
        }
        for (std::int64_t j = j0; j < j1; ++j) C[i * N + j] = narrow<TOut>(row[static_cast<std::size_t>(j - j0)]);
    }
}

// Two 16-bit values in one 32-bit lane, `lo` in the low half (vpmaddwd's pair order).
std::uint32_t pair(std::int16_t lo, std::int16_t hi) {
    return static_cast<std::uint32_t>(static_cast<std::uint16_t>(lo)) |
           (static_cast<std::uint32_t>(static_cast<std::uint16_t>(hi)) << 16);
}

#ifdef NPUSIM_GEMM_X86
// The 4 x 16 blocks of C's rows [0, M4) in one strip of 16 columns starting at column j.
// - Ap: M4 rows of K2 pairs of A: A itself when K is even (a row's pairs are its consecutive 32-bit
//   words; read with memcpy, as A's int16 need not be 4-byte aligned).
// - Bs: the strip's pairs of B's rows 2q and 2q + 1 (pair q at q * 16), so a block reads it
//   sequentially rather than at B's row stride (a stride of 4 KiB maps every row to one L1 set).
// Eight accumulators (4 rows x 2 vectors of 8 lanes) stay in registers over all of K. MAC(acc, x,
// b) adds the pair products of x and b to acc: vpmaddwd then vpaddd (AVX2), or vpdpwssd, both in
// one (AVX512-VNNI; the non-saturating form, so it wraps as the two-step one does). A 32-bit
// output is stored as it is; a narrower one through a block on the stack, narrowed.
#define NPUSIM_GEMM_STRIP(MAC)                                                                                         \
    for (std::int64_t i = 0; i < M4; i += 4) {                                                                         \
        __m256i c[4][2];                                                                                               \
        for (auto& r : c) r[0] = r[1] = _mm256_setzero_si256();                                                        \
        const unsigned char* a = reinterpret_cast<const unsigned char*>(Ap) + i * K2 * 4;                              \
        const std::uint32_t* b = Bs;                                                                                   \
        for (std::int64_t q = 0; q < K2; ++q, b += 16) {                                                               \
            const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));                                \
            const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 8));                            \
            for (int r = 0; r < 4; ++r) {                                                                              \
                std::int32_t w;                                                                                        \
                std::memcpy(&w, a + (r * K2 + q) * 4, 4);                                                              \
                const __m256i x = _mm256_set1_epi32(w);                                                                \
                c[r][0] = MAC(c[r][0], x, b0);                                                                         \
                c[r][1] = MAC(c[r][1], x, b1);                                                                         \
            }                                                                                                          \
        }                                                                                                              \
        for (int r = 0; r < 4; ++r) {                                                                                  \
            if constexpr (sizeof(TOut) == 4) {                                                                         \
                auto* out = reinterpret_cast<__m256i*>(C + (i + r) * N + j);                                           \
                _mm256_storeu_si256(out, c[r][0]);                                                                     \
                _mm256_storeu_si256(out + 1, c[r][1]);                                                                 \
            } else {                                                                                                   \
                alignas(32) std::uint32_t block[16];                                                                   \
                _mm256_store_si256(reinterpret_cast<__m256i*>(block), c[r][0]);                                        \
                _mm256_store_si256(reinterpret_cast<__m256i*>(block + 8), c[r][1]);                                    \
                TOut* out = C + (i + r) * N + j;                                                                       \
                for (int x = 0; x < 16; ++x) out[x] = narrow<TOut>(block[x]);                                          \
            }                                                                                                          \
        }                                                                                                              \
    }

#define NPUSIM_GEMM_MADD_ADD(acc, x, b) _mm256_add_epi32(acc, _mm256_madd_epi16(x, b))
#define NPUSIM_GEMM_DPWSSD(acc, x, b) _mm256_dpwssd_epi32(acc, x, b)

template <class TOut>
__attribute__((target("avx2"))) void avx2_strip(const void* Ap, const std::uint32_t* Bs, TOut* C, std::int64_t K2,
                                                std::int64_t N, std::int64_t M4, std::int64_t j) {
    NPUSIM_GEMM_STRIP(NPUSIM_GEMM_MADD_ADD)
}

template <class TOut>
__attribute__((target("avx2,avx512vl,avx512vnni"))) void vnni_strip(const void* Ap, const std::uint32_t* Bs, TOut* C,
                                                                    std::int64_t K2, std::int64_t N, std::int64_t M4,
                                                                    std::int64_t j) {
    NPUSIM_GEMM_STRIP(NPUSIM_GEMM_DPWSSD)
}
#endif

} // namespace

bool gemm_mod32_has_avx2() {
#ifdef NPUSIM_GEMM_X86
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

bool gemm_mod32_has_vnni() {
#ifdef NPUSIM_GEMM_X86
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
#else
    return false;
#endif
}

namespace {

template <class TOut>
void gemm_low_bits(const std::int16_t* A, const std::int16_t* B, TOut* C, std::int64_t M, std::int64_t K,
                   std::int64_t N, GemmPath path) {
    if (M <= 0 || N <= 0) return;
    if (path == GemmPath::avx2 && !gemm_mod32_has_avx2())
        throw std::logic_error("gemm_mod32: the AVX2 path was asked for on a CPU without AVX2");
    if (path == GemmPath::vnni && !gemm_mod32_has_vnni())
        throw std::logic_error("gemm_mod32: the AVX512-VNNI path was asked for on a CPU without it");
    const std::int64_t M4 = M / 4 * 4, N16 = N / 16 * 16;
    const bool vnni = path == GemmPath::vnni || (path == GemmPath::best && gemm_mod32_has_vnni());
    const bool simd = path != GemmPath::portable && gemm_mod32_has_avx2() && K > 0 && M4 > 0 && N16 > 0;
    if (!simd) {
        portable_block(A, B, C, K, N, 0, M, 0, N);
        return;
    }
#ifdef NPUSIM_GEMM_X86
    const std::int64_t K2 = (K + 1) / 2; // an odd K pairs its last row with zeros
    auto at = [K](const std::int16_t* row, std::int64_t q, std::int64_t stride) {
        return q < K ? row[q * stride] : std::int16_t{0};
    };
    // A's pairs: A itself for an even K, else packed with each row's last pair padded.
    std::vector<std::uint32_t> Ap;
    const void* a_pairs = A;
    if (K % 2) {
        Ap.resize(static_cast<std::size_t>(M4 * K2));
        for (std::int64_t i = 0; i < M4; ++i)
            for (std::int64_t q = 0; q < K2; ++q)
                Ap[static_cast<std::size_t>(i * K2 + q)] = pair(at(A + i * K, 2 * q, 1), at(A + i * K, 2 * q + 1, 1));
        a_pairs = Ap.data();
    }
    // B is packed one strip of 16 columns at a time, into one buffer of K2 x 16 pairs (32 KiB at K
    // = 1024) that every strip reuses: no packed copy of all of B, whose fresh pages cost more to
    // touch than packing them (about 10 us a page fault on a VM measured here).
    std::vector<std::uint32_t> Bs(static_cast<std::size_t>(K2 * 16));
    for (std::int64_t j = 0; j < N16; j += 16) {
        for (std::int64_t q = 0; q < K2; ++q)
            for (std::int64_t x = 0; x < 16; ++x)
                Bs[static_cast<std::size_t>(q * 16 + x)] = pair(at(B + j + x, 2 * q, N), at(B + j + x, 2 * q + 1, N));
        if (vnni)
            vnni_strip(a_pairs, Bs.data(), C, K2, N, M4, j);
        else
            avx2_strip(a_pairs, Bs.data(), C, K2, N, M4, j);
    }
    portable_block(A, B, C, K, N, 0, M4, N16, N); // the columns past the last 16
    portable_block(A, B, C, K, N, M4, M, 0, N); // the rows past the last 4
#endif
}

} // namespace

void gemm_mod32(const std::int16_t* A, const std::int16_t* B, std::uint32_t* C, std::int64_t M, std::int64_t K,
                std::int64_t N, GemmPath path) {
    gemm_low_bits(A, B, C, M, K, N, path);
}

void gemm_mod32(const std::int16_t* A, const std::int16_t* B, std::int16_t* C, std::int64_t M, std::int64_t K,
                std::int64_t N, GemmPath path) {
    gemm_low_bits(A, B, C, M, K, N, path);
}

void gemm_mod32(const std::int16_t* A, const std::int16_t* B, std::int8_t* C, std::int64_t M, std::int64_t K,
                std::int64_t N, GemmPath path) {
    gemm_low_bits(A, B, C, M, K, N, path);
}

} // namespace npusim::examples
