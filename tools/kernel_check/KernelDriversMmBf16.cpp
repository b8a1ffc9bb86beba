// Drivers of mm.cc's and cascade_mm.cc's bf16 entry points (mlir-aie aie_kernels at 3ca0193), each
// against a reference written here from what the source does and the semantics it relies on:
//
// mm.cc vectorized (matmul_bf16_bf16 / matmul_bf16_f32; aie2/mm.cc:829-861 with the 4x8x4 mmul in
// matmul_vectorized_4x4, aie2p/mm.cc with 4x8x8, or 8x8x8 under -DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16,
// aie2p/mm.cc combos at the end of the file): each C block is loaded into an accfloat mmul (bf16 / float
// to fp32, exact), one mmul.mac per K block of A and B in k order, then to_vector<T_out>. accfloat lanes
// are IEEE single precision. The order of the additions inside one mac is not documented by AMD (the
// AIE-API mmul page and the AIE-ML intrinsics guide's mac_4x8_8x4 define the result as C + A x B); the
// host layer fixes it (kernels_ref/aie_api/README.md, "Float"): the K products of one mac are summed
// in k order from zero in fp32, and that block sum is added to the lane. The reference follows that
// order. to_vector<bfloat16> rounds with the core's rounding mode: mm.cc sets none, so the reset mode,
// floor, which the host layer applies to the magnitude (truncation); aie2p/mm.cc under the bfp16
// emulation selects conv_even for the kernel (aie2p/mm.cc:89-101), to nearest even.
// Under the emulation (AIE2P, bf16 x bf16 mmul with K = 8): each row of an A block and each column of a
// B block is quantized to one bfp16ebs8 block with the kernel's rounding mode (conv_even): shared
// exponent = the largest exponent field, each signed significand shifted right by 17 + E - e, rounded,
// saturated to int8; the lane adds the exact integer dot product scaled by 2^(Ea + Eb - 266) once
// (kernels_ref/aie_api/README.md "bfp16ebs8" and "AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16").
// Layouts: A in r x s blocks, B in s x t blocks (with -DB_COL_MAJ: block columns first, each block
// stored transposed, t x s), C in r x t blocks (with -DC_COL_MAJ: block columns first, each block
// stored transposed) (mm.cc's pointer walk, aie2p/mm.cc:104-224).
//
// mm.cc scalar (matmul_scalar: aie2/mm.cc:21-47) and cascade_mm.cc (aie2/cascade_mm.cc:22-72): scalar
// C++ on bfloat16: a bf16 x bf16 product is a float (exact), `bfloat16 += float` rounds the float sum to
// nearest even (the AIE compilers' scalar bfloat16), float sums are IEEE single. The cascade kernels
// put `(int)running_sum` as lane 0 (truncation toward zero) and add the int lane 0 they get.
#include "KernelDrivers.hpp"

#include "npusim/kernels/bfloat16.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <fmt/format.h>

namespace npusim::kernel_check {

namespace {

using bf16 = npusim::bfloat16;

std::uint32_t mmb_next(std::uint32_t& s) {
    s = s * 1664525u + 1013904223u;
    return s >> 8;
}

// bf16 values of magnitude 2^-6 .. 2^6, any 7-bit mantissa, either sign: products keep 16 significant
// bits and sums of 64 of them need more than fp32's 24, so the order of the additions shows.
std::vector<bf16> mmb_values(std::size_t n, std::uint32_t seed) {
    std::vector<bf16> v(n);
    for (auto& x : v) {
        const auto w = mmb_next(seed);
        x = bf16::from_bits(static_cast<std::uint16_t>(((w & 1u) << 15) | ((121u + (w >> 1) % 13u) << 7) | ((w >> 5) & 0x7fu)));
    }
    return v;
}

bf16 mmb_nearest(float f) { return bf16(f); }
bf16 mmb_truncate(float f) { return bf16::from_bits(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(f) >> 16)); }

template <class T>
std::string mmb_compare(const std::vector<T>& got, const std::vector<T>& want) {
    for (std::size_t i = 0; i < want.size(); ++i)
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
            if constexpr (std::is_same_v<T, bf16>)
                return fmt::format("element {}: got {} (0x{:04x}), want {} (0x{:04x})", i, float(got[i]), got[i].bits,
                                   float(want[i]), want[i].bits);
            else
                return fmt::format("element {}: got {:a}, want {:a}", i, got[i], want[i]);
        }
    return {};
}

// One bfp16ebs8 block of 8 floats with floor or round-to-nearest-even mantissas (the rule above).
std::array<std::uint8_t, 9> mmb_block(const float* x, bool nearest_even) {
    std::array<std::uint8_t, 9> out{};
    std::uint32_t e_max = 0;
    for (int k = 0; k < 8; ++k) e_max = std::max(e_max, (std::bit_cast<std::uint32_t>(x[k]) >> 23) & 0xFFu);
    out[0] = static_cast<std::uint8_t>(e_max);
    for (int k = 0; k < 8; ++k) {
        const std::uint32_t u = std::bit_cast<std::uint32_t>(x[k]);
        const std::uint32_t e = (u >> 23) & 0xFFu;
        std::int64_t sig = (u & 0x7FFFFFu) | (e ? 0x800000u : 0u);
        if (u >> 31) sig = -sig;
        const int sh = std::min(40, 17 + int(e_max) - int(e));
        std::int64_t q = sig >> sh; // floor
        if (nearest_even) {
            const std::int64_t rem = sig - (q << sh), half = std::int64_t{1} << (sh - 1);
            if (rem > half || (rem == half && (q & 1))) ++q;
        }
        out[1 + k] = static_cast<std::uint8_t>(static_cast<std::int8_t>(std::clamp<std::int64_t>(q, -128, 127)));
    }
    return out;
}

float mmb_block_dot(const std::array<std::uint8_t, 9>& a, const std::array<std::uint8_t, 9>& b) {
    std::int64_t s = 0;
    for (int k = 1; k <= 8; ++k) s += std::int64_t{static_cast<std::int8_t>(a[k])} * static_cast<std::int8_t>(b[k]);
    return static_cast<float>(std::ldexp(static_cast<double>(s), int(a[0]) + int(b[0]) - 266));
}

struct MmGeom {
    int m, k, n, r, s, t;
    bool b_col, c_col;
    std::size_t a_at(int i, int q) const {
        return static_cast<std::size_t>(((i / r) * (k / s) + q / s) * r * s + (i % r) * s + q % s);
    }
    std::size_t b_at(int q, int j) const {
        return b_col ? static_cast<std::size_t>(((j / t) * (k / s) + q / s) * s * t + (j % t) * s + q % s)
                     : static_cast<std::size_t>(((q / s) * (n / t) + j / t) * s * t + (q % s) * t + j % t);
    }
    std::size_t c_at(int i, int j) const {
        return c_col ? static_cast<std::size_t>(((j / t) * (m / r) + i / r) * r * t + (j % t) * r + i % r)
                     : static_cast<std::size_t>(((i / r) * (n / t) + j / t) * r * t + (i % r) * t + j % t);
    }
};

// The vectorized kernel's C (see the header): per lane, C, then one block sum per mac.
template <class TOut>
std::vector<TOut> mmb_vector_ref(const MmGeom& g, const std::vector<bf16>& a, const std::vector<bf16>& b,
                                 std::vector<TOut> c, bool via_bfp16) {
    for (int i = 0; i < g.m; ++i)
        for (int j = 0; j < g.n; ++j) {
            float lane = float(c[g.c_at(i, j)]);
            for (int kb = 0; kb < g.k / g.s; ++kb) {
                if (via_bfp16) {
                    float ra[8], cb[8];
                    for (int q = 0; q < 8; ++q) {
                        ra[q] = float(a[g.a_at(i, kb * 8 + q)]);
                        cb[q] = float(b[g.b_at(kb * 8 + q, j)]);
                    }
                    lane += mmb_block_dot(mmb_block(ra, true), mmb_block(cb, true));
                    continue;
                }
                float block = 0.0f;
                for (int q = kb * g.s; q < (kb + 1) * g.s; ++q) block += float(a[g.a_at(i, q)]) * float(b[g.b_at(q, j)]);
                lane += block;
            }
            if constexpr (std::is_same_v<TOut, bf16>)
                c[g.c_at(i, j)] = via_bfp16 ? mmb_nearest(lane) : mmb_truncate(lane);
            else
                c[g.c_at(i, j)] = lane;
        }
    return c;
}

// matmul_scalar: row-major A; B row- or column-major, C likewise; a running sum of T_out from zero.
template <class TOut>
std::vector<TOut> mmb_scalar_ref(const MmGeom& g, const std::vector<bf16>& a, const std::vector<bf16>& b,
                                 std::vector<TOut> c) {
    for (int i = 0; i < g.m; ++i)
        for (int j = 0; j < g.n; ++j) {
            TOut sum = 0.0f;
            for (int q = 0; q < g.k; ++q) {
                const float p = float(a[static_cast<std::size_t>(i * g.k + q)]) *
                                float(b[g.b_col ? static_cast<std::size_t>(q + j * g.k) : static_cast<std::size_t>(q * g.n + j)]);
                sum = TOut(float(sum) + p);
            }
            TOut& cc = c[g.c_col ? static_cast<std::size_t>(i + j * g.m) : static_cast<std::size_t>(i * g.n + j)];
            cc = TOut(float(cc) + float(sum));
        }
    return c;
}

template <class TOut>
std::vector<TOut> mmb_initial_c(std::size_t n) {
    const auto v = mmb_values(n, 53);
    std::vector<TOut> c(n);
    for (std::size_t i = 0; i < n; ++i) c[i] = TOut(float(v[i]) * 64.0f);
    return c;
}

template <class TOut>
void mmb_add_matmul(std::vector<Entry>& out, const BuildFacts& f, const char* suffix) {
    const int t = f.aie2p ? 8 : 4, r = f.aie2p && f.bf16_via_bfp16 ? 8 : 4;
    for (const bool vec : {true, false}) {
        const MmGeom g{f.dim_m, f.dim_k, f.dim_n, vec ? r : 1, vec ? 8 : 1, vec ? t : 1, f.b_col_maj, f.c_col_maj};
        const bool via = vec && f.aie2p && f.bf16_via_bfp16;
        out.push_back({fmt::format("matmul_{}{}", vec ? "" : "scalar_", suffix), [g, vec, via](void* fn) {
                           const auto a = mmb_values(static_cast<std::size_t>(g.m) * g.k, 51);
                           const auto b = mmb_values(static_cast<std::size_t>(g.k) * g.n, 52);
                           auto c = mmb_initial_c<TOut>(static_cast<std::size_t>(g.m) * g.n);
                           const auto want = vec ? mmb_vector_ref<TOut>(g, a, b, c, via) : mmb_scalar_ref<TOut>(g, a, b, c);
                           reinterpret_cast<void (*)(bf16*, bf16*, TOut*)>(fn)(const_cast<bf16*>(a.data()),
                                                                               const_cast<bf16*>(b.data()), c.data());
                           return mmb_compare(c, want);
                       }});
    }
}

// ---- cascade_mm.cc's bf16 kernels: 16 int32 lanes a cascade word, lane 0 carries the partial sum.
using MmbWord = std::array<std::int32_t, 16>;
std::deque<MmbWord> g_mmb_in, g_mmb_out;
bool g_mmb_underflow = false;
void mmb_put(const void* w) {
    MmbWord x;
    std::memcpy(x.data(), w, sizeof(MmbWord));
    g_mmb_out.push_back(x);
}
void mmb_get(void* w) {
    MmbWord x{};
    if (g_mmb_in.empty())
        g_mmb_underflow = true;
    else {
        x = g_mmb_in.front();
        g_mmb_in.pop_front();
    }
    std::memcpy(w, x.data(), sizeof(MmbWord));
}

enum class MmbRole { put_only, put_get, get_only };

template <class TOut>
void mmb_add_cascade(std::vector<Entry>& out, const BuildFacts& f, const char* suffix) {
    for (const auto role : {MmbRole::put_only, MmbRole::put_get, MmbRole::get_only}) {
        const char* rn = role == MmbRole::put_only ? "put_only" : role == MmbRole::put_get ? "put_get" : "get_only";
        out.push_back({fmt::format("matmul_scalar_cascade_{}_{}", rn, suffix), [f, role](void* fn) -> std::string {
                           const int m = f.dim_m, k = f.dim_k, n = f.dim_n;
                           const auto a = mmb_values(static_cast<std::size_t>(m) * k, 61);
                           const auto b = mmb_values(static_cast<std::size_t>(k) * n, 62);
                           auto c = mmb_initial_c<TOut>(static_cast<std::size_t>(m) * n);
                           std::deque<MmbWord> in;
                           std::uint32_t seed = 63;
                           if (role != MmbRole::put_only)
                               for (int i = 0; i < m * n; ++i) {
                                   MmbWord w;
                                   for (auto& x : w) x = static_cast<std::int32_t>(mmb_next(seed) % 2001u) - 1000;
                                   in.push_back(w);
                               }
                           // The reference: each element's running sum, the word it puts, C.
                           std::vector<TOut> want = c;
                           std::vector<std::int32_t> want_lane0;
                           for (int row = 0; row < m; ++row)
                               for (int col = 0; col < n; ++col) {
                                   TOut sum = 0.0f;
                                   for (int q = 0; q < k; ++q)
                                       sum = TOut(float(sum) + float(a[static_cast<std::size_t>(row * k + q)]) *
                                                                   float(b[static_cast<std::size_t>(q * n + col)]));
                                   if (role != MmbRole::put_only)
                                       sum = TOut(float(sum) + float(in[static_cast<std::size_t>(row * n + col)][0]));
                                   if (role != MmbRole::get_only)
                                       want_lane0.push_back(static_cast<std::int32_t>(float(sum)));
                                   else {
                                       TOut& cc = want[static_cast<std::size_t>(row * n + col)];
                                       cc = TOut(float(cc) + float(sum));
                                   }
                               }
                           g_mmb_in = in;
                           g_mmb_out.clear();
                           g_mmb_underflow = false;
                           f.connect_cascade(&mmb_put, &mmb_get);
                           reinterpret_cast<void (*)(bf16*, bf16*, TOut*)>(fn)(const_cast<bf16*>(a.data()),
                                                                               const_cast<bf16*>(b.data()), c.data());
                           if (g_mmb_underflow) return "it read more cascade words than an element of C each";
                           if (g_mmb_out.size() != want_lane0.size())
                               return fmt::format("{} cascade words put, want {}", g_mmb_out.size(), want_lane0.size());
                           for (std::size_t i = 0; i < want_lane0.size(); ++i)
                               if (g_mmb_out[i][0] != want_lane0[i])
                                   return fmt::format("cascade word {} lane 0: got {}, want {}", i, g_mmb_out[i][0],
                                                      want_lane0[i]);
                           return mmb_compare(c, want);
                       }});
    }
}

template <class T>
void mmb_add_zero(std::vector<Entry>& out, const BuildFacts& f, const std::string& vec_name, const char* scalar_name) {
    for (const std::string& name : {vec_name, std::string(scalar_name)})
        out.push_back({name, [f](void* fn) {
                           auto c = mmb_initial_c<T>(static_cast<std::size_t>(f.dim_m) * f.dim_n);
                           reinterpret_cast<void (*)(T*)>(fn)(c.data());
                           return mmb_compare(c, std::vector<T>(c.size(), T(0.0f)));
                       }});
}

} // namespace

void add_mm_bf16_kernels(std::vector<Entry>& out, const BuildFacts& facts) {
    BuildFacts f = facts;
    f.dim_m = f.dim_m ? f.dim_m : 64;
    f.dim_k = f.dim_k ? f.dim_k : 64;
    f.dim_n = f.dim_n ? f.dim_n : 64;
    if (f.source == "mm.cc") {
        mmb_add_matmul<bf16>(out, f, "bf16_bf16");
        mmb_add_matmul<float>(out, f, "bf16_f32");
        mmb_add_zero<bf16>(out, f, "zero_bf16", "zero_scalar_bf16");
    } else if (f.source == "cascade_mm.cc") {
        mmb_add_cascade<bf16>(out, f, "bf16_bf16");
        mmb_add_cascade<float>(out, f, "bf16_f32");
        mmb_add_zero<bf16>(out, f, "zero_bf16", "zero_scalar_bf16");
        mmb_add_zero<float>(out, f, "zero_f32", "zero_scalar_f32");
    }
}

} // namespace npusim::kernel_check
