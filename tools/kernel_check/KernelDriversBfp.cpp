// Drivers of the block floating-point kernels of mlir-aie's aie_kernels/aie2p (3ca0193):
//
// mm_bfp.cc: matmul_vectorized_bfp16 (:167-185; the loop matmul_vectorized_2x2_bfp16, :78-150): C (an
// m x n tile of 8x8 subtiles, each 8 blocks of 9 bytes, subtiles row-major) is loaded into accfloat,
// one mac_8x8_8x8T per K subtile of A (m x k, subtiles row-major) and B (given transposed: n x k,
// subtiles row-major), then quantized back to bfp16 with the core's rounding mode (reset: floor).
// Against npusim's scalar model of that kernel (harness iron_kernels::bfp16_tile_matmul, independent of
// the host layer: each lane adds each K block's exact integer dot product scaled by 2^(Ea + Eb - 266)
// once, in K order; quantized with E = the largest exponent field and floor(significand / 2^(17 + E
// - e))), the model docs/block-floating-point.md and tools/check-upstream-bfp.py check the upstream
// designs against. zero_kernel (:188-191): all-zero blocks. scalar_shuffle (:193-198, the walk
// scalarShuffleMatrixForBfp16ebs8, :23-60): a tile of tileHeight rows of tileWidth * 9 / 8 bytes
// rewritten as its 8-row x 9-byte subtiles one after the other (unshuffle: the inverse).
//
// mm_bfp_mixed.cc: matmul_vectorized_different_datatypes (:113-131; the loop :19-92): A is bf16 in 8x8
// row-major blocks, converted per K subtile to bfp16 (accfloat.to_vector<bfp16ebs8>, the core's mode:
// floor), B bfp16 as in mm_bfp.cc, C bf16 in 8x8 blocks loaded into accfloat (exact) and stored with
// to_vector<bfloat16> at floor, which the host layer applies to the magnitude (truncation;
// kernels_ref/aie_api/README.md "Float"). zero_kernel_bf16: zeros.
#include "KernelDrivers.hpp"

#include "npusim/harness/KernelLibraryBfp.hpp"
#include "npusim/kernels/bfloat16.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>

namespace npusim::kernel_check {

namespace {

using bf16 = npusim::bfloat16;
constexpr std::size_t kBfpBytes = 9;

std::uint32_t bfpd_next(std::uint32_t& s) {
    s = s * 1664525u + 1013904223u;
    return s >> 8;
}

// Random blocks: exponents 110 .. 139, any mantissa byte.
std::vector<std::uint8_t> bfpd_blocks(std::size_t blocks, std::uint32_t seed) {
    std::vector<std::uint8_t> v(blocks * kBfpBytes);
    for (std::size_t b = 0; b < blocks; ++b) {
        v[b * kBfpBytes] = static_cast<std::uint8_t>(110 + bfpd_next(seed) % 30u);
        for (std::size_t q = 1; q < kBfpBytes; ++q) v[b * kBfpBytes + q] = static_cast<std::uint8_t>(bfpd_next(seed));
    }
    return v;
}

std::string bfpd_compare_bytes(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want) {
    for (std::size_t i = 0; i < want.size(); ++i)
        if (got[i] != want[i])
            return fmt::format("byte {} (block {}): got 0x{:02x}, want 0x{:02x}", i, i / kBfpBytes, got[i], want[i]);
    return {};
}

// mm_bfp_mixed's reference (see the header): C (bf16, 8x8 blocks) += bfp16(A rows) . B^T blocks.
std::vector<bf16> bfpd_mixed_ref(const std::vector<bf16>& a, const std::vector<std::uint8_t>& bt, std::vector<bf16> c,
                                 int m, int k, int n) {
    const int colA = k / 8, colB = n / 8;
    for (int si = 0; si < m / 8; ++si)
        for (int sj = 0; sj < colB; ++sj) {
            bf16* cs = c.data() + static_cast<std::size_t>(si * colB + sj) * 64;
            float acc[64];
            for (int i = 0; i < 64; ++i) acc[i] = float(cs[i]);
            for (int kk = 0; kk < colA; ++kk) {
                const bf16* as = a.data() + static_cast<std::size_t>(si * colA + kk) * 64;
                const std::uint8_t* bs = bt.data() + static_cast<std::size_t>(sj * colA + kk) * 8 * kBfpBytes;
                for (int r = 0; r < 8; ++r) {
                    float row[8];
                    for (int q = 0; q < 8; ++q) row[q] = float(as[r * 8 + q]);
                    std::uint8_t blk[kBfpBytes];
                    harness::iron_kernels::bfp16_quantize(row, blk);
                    for (int q = 0; q < 8; ++q) {
                        const std::uint8_t* bb = bs + static_cast<std::size_t>(q) * kBfpBytes;
                        std::int64_t s = 0;
                        for (int t = 1; t <= 8; ++t)
                            s += std::int64_t{static_cast<std::int8_t>(blk[t])} * static_cast<std::int8_t>(bb[t]);
                        acc[r * 8 + q] += static_cast<float>(std::ldexp(static_cast<double>(s), int(blk[0]) + int(bb[0]) - 266));
                    }
                }
            }
            for (int i = 0; i < 64; ++i)
                cs[i] = bf16::from_bits(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(acc[i]) >> 16));
        }
    return c;
}

} // namespace

void add_bfp_kernels(std::vector<Entry>& out, const BuildFacts& facts) {
    const int m = facts.dim_m ? facts.dim_m : 64, k = facts.dim_k ? facts.dim_k : 64, n = facts.dim_n ? facts.dim_n : 64;
    const auto mk = static_cast<std::size_t>(m) * k, kn = static_cast<std::size_t>(k) * n,
               mn = static_cast<std::size_t>(m) * n;
    if (facts.source == "mm_bfp.cc") {
        out.push_back({"matmul_vectorized_bfp16", [=](void* fn) -> std::string {
                           const auto a = bfpd_blocks(mk / 8, 71), bt = bfpd_blocks(kn / 8, 72);
                           auto c = bfpd_blocks(mn / 8, 73);
                           for (int call = 0; call < 3; ++call) { // accumulating calls, as a design's K tiles
                               auto want = c;
                               harness::iron_kernels::bfp16_tile_matmul(a.data(), bt.data(), want.data(), m, k, n);
                               reinterpret_cast<void (*)(std::uint8_t*, std::uint8_t*, std::uint8_t*)>(fn)(
                                   const_cast<std::uint8_t*>(a.data()), const_cast<std::uint8_t*>(bt.data()), c.data());
                               if (auto d = bfpd_compare_bytes(c, want); !d.empty())
                                   return fmt::format("call {}: {}", call + 1, d);
                           }
                           return {};
                       }});
        out.push_back({"zero_kernel", [=](void* fn) {
                           auto c = bfpd_blocks(mn / 8, 74);
                           reinterpret_cast<void (*)(std::uint8_t*)>(fn)(c.data());
                           return bfpd_compare_bytes(c, std::vector<std::uint8_t>(c.size(), 0));
                       }});
        out.push_back({"scalar_shuffle", [](void* fn) -> std::string {
                           constexpr std::size_t width = 64, height = 16, row = width / 8 * kBfpBytes;
                           const auto in = bfpd_blocks(width * height / 8, 75);
                           std::vector<std::uint8_t> want(in.size());
                           std::size_t at = 0; // subtiles of 8 rows x 9 bytes, row-major, one after the other
                           for (std::size_t sy = 0; sy < height; sy += 8)
                               for (std::size_t sx = 0; sx < row; sx += kBfpBytes)
                                   for (std::size_t i = 0; i < 8; ++i)
                                       for (std::size_t j = 0; j < kBfpBytes; ++j) want[at++] = in[(sy + i) * row + sx + j];
                           using Fn = void (*)(std::uint8_t*, std::uint8_t*, std::size_t, std::size_t, bool);
                           std::vector<std::uint8_t> got(in.size()), back(in.size());
                           reinterpret_cast<Fn>(fn)(const_cast<std::uint8_t*>(in.data()), got.data(), width, height, false);
                           if (auto d = bfpd_compare_bytes(got, want); !d.empty()) return "shuffle: " + d;
                           reinterpret_cast<Fn>(fn)(got.data(), back.data(), width, height, true);
                           if (auto d = bfpd_compare_bytes(back, in); !d.empty()) return "unshuffle: " + d;
                           return {};
                       }});
    } else if (facts.source == "mm_bfp_mixed.cc") {
        out.push_back({"matmul_vectorized_different_datatypes", [=](void* fn) -> std::string {
                           std::vector<bf16> a(mk), c(mn);
                           std::uint32_t seed = 76;
                           for (auto& x : a) // magnitudes 2^-8 .. 2^7, either sign, any mantissa
                               x = bf16::from_bits(static_cast<std::uint16_t>((bfpd_next(seed) & 0x807fu) |
                                                                              ((119u + bfpd_next(seed) % 16u) << 7)));
                           for (auto& x : c)
                               x = bf16::from_bits(static_cast<std::uint16_t>((bfpd_next(seed) & 0x807fu) |
                                                                              ((125u + bfpd_next(seed) % 8u) << 7)));
                           const auto bt = bfpd_blocks(kn / 8, 77);
                           for (int call = 0; call < 3; ++call) {
                               const auto want = bfpd_mixed_ref(a, bt, c, m, k, n);
                               reinterpret_cast<void (*)(bf16*, std::uint8_t*, bf16*)>(fn)(
                                   const_cast<bf16*>(a.data()), const_cast<std::uint8_t*>(bt.data()), c.data());
                               for (std::size_t i = 0; i < mn; ++i)
                                   if (c[i].bits != want[i].bits)
                                       return fmt::format("call {}: element {}: got {} (0x{:04x}), want {} (0x{:04x})",
                                                          call + 1, i, float(c[i]), c[i].bits, float(want[i]), want[i].bits);
                           }
                           return {};
                       }});
        out.push_back({"zero_kernel_bf16", [=](void* fn) {
                           std::vector<std::uint16_t> c(mn, 0x3f80u);
                           reinterpret_cast<void (*)(std::uint16_t*)>(fn)(c.data());
                           for (std::size_t i = 0; i < mn; ++i)
                               if (c[i] != 0) return fmt::format("element {}: got 0x{:04x}, want 0", i, c[i]);
                           return std::string();
                       }});
    }
}

} // namespace npusim::kernel_check
