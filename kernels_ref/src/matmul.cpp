#include <algorithm>
#include <cmath>
#include <npusim/kernels/matmul.hpp>
#include <type_traits>

namespace npusim::kernels {
namespace {

void check_matmul(const char* name, const void* A, const void* B, const void* C, int m, int k, int n, int r, int s,
                  int t) {
    detail::require_non_null(A, name, "A");
    detail::require_non_null(B, name, "B");
    detail::require_non_null(C, name, "C");
    detail::require_positive(m, name, "m");
    detail::require_positive(k, name, "k");
    detail::require_positive(n, name, "n");
    detail::require_positive(r, name, "r");
    detail::require_positive(s, name, "s");
    detail::require_positive(t, name, "t");
    detail::require_multiple(m, r, name, "m", "A and C are stored as r x s / r x t blocks");
    detail::require_multiple(k, s, name, "k", "A and B are stored as r x s / s x t blocks");
    detail::require_multiple(n, t, name, "n", "B and C are stored as s x t / r x t blocks");
    detail::require_multiple(m / r, 2, name, "m / r",
                             "the AIE kernel computes 2 x 2 mmul blocks of C, so the block-row count must be even");
    detail::require_multiple(n / t, 2, name, "n / t",
                             "the AIE kernel computes 2 x 2 mmul blocks of C, so the block-column count must be even");
}

// Integer C: a 32-bit accumulator (sign extension of int8/int16), products added mod 2^32, stored
// back keeping the low 32 / 16 / 8 bits (no saturation, see matmul.hpp). Float C: an fp32
// accumulator, stored as float or rounded to bf16 (nearest, ties to even).
template <typename TC>
struct Acc {
    using type = std::uint32_t;
    static type load(TC c) { return static_cast<std::uint32_t>(static_cast<std::int32_t>(c)); }
    static void store(type acc, TC& c) {
        c = static_cast<TC>(static_cast<std::make_unsigned_t<TC>>(acc)); // the low bits, two's complement
    }
    template <typename TA>
    static type product(TA a, TA b) {
        return static_cast<std::uint32_t>(static_cast<std::int32_t>(a) * static_cast<std::int32_t>(b));
    }
};
template <>
struct Acc<float> {
    using type = float;
    static type load(float c) { return c; }
    static void store(type acc, float& c) { c = acc; }
    static type product(bfloat16 a, bfloat16 b) { return float(a) * float(b); } // exact in fp32
};
template <>
struct Acc<bfloat16> {
    using type = float;
    static type load(bfloat16 c) { return float(c); }
    static void store(type acc, bfloat16& c) { c = bfloat16(acc); }
    static type product(bfloat16 a, bfloat16 b) { return float(a) * float(b); }
};

template <typename TA, typename TC>
void blocked_matmul(const TA* A, const TA* B, TC* C, int m, int k, int n, int r, int s, int t) {
    const std::int64_t mb = m / r, kb = k / s, nb = n / t;
    const std::int64_t a_block = static_cast<std::int64_t>(r) * s;
    const std::int64_t b_block = static_cast<std::int64_t>(s) * t;
    const std::int64_t c_block = static_cast<std::int64_t>(r) * t;
    for (std::int64_t bi = 0; bi < mb; ++bi) {
        for (std::int64_t bj = 0; bj < nb; ++bj) {
            TC* cblk = C + (bi * nb + bj) * c_block;
            for (std::int64_t ii = 0; ii < r; ++ii) {
                for (std::int64_t jj = 0; jj < t; ++jj) {
                    typename Acc<TC>::type acc = Acc<TC>::load(cblk[ii * t + jj]);
                    for (std::int64_t bk = 0; bk < kb; ++bk) {
                        const TA* arow = A + (bi * kb + bk) * a_block + ii * s;
                        const TA* bcol = B + (bk * nb + bj) * b_block + jj;
                        // One mmul mac: its s products summed from zero in k order, then added to the
                        // accumulator (the host layer's order, kernels_ref/aie_api/README.md "Float"; integer
                        // sums wrap, so the grouping changes nothing there).
                        typename Acc<TC>::type block{};
                        for (std::int64_t kk = 0; kk < s; ++kk) block += Acc<TC>::product(arow[kk], bcol[kk * t]);
                        acc += block;
                    }
                    Acc<TC>::store(acc, cblk[ii * t + jj]);
                }
            }
        }
    }
}

} // namespace

void matmul_i16_i32(const std::int16_t* A, const std::int16_t* B, std::int32_t* C, int m, int k, int n, int r, int s,
                    int t) {
    check_matmul("matmul_i16_i32", A, B, C, m, k, n, r, s, t);
    blocked_matmul(A, B, C, m, k, n, r, s, t);
}

void matmul_i16_i16(const std::int16_t* A, const std::int16_t* B, std::int16_t* C, int m, int k, int n, int r, int s,
                    int t) {
    check_matmul("matmul_i16_i16", A, B, C, m, k, n, r, s, t);
    blocked_matmul(A, B, C, m, k, n, r, s, t);
}

void matmul_i8_i8(const std::int8_t* A, const std::int8_t* B, std::int8_t* C, int m, int k, int n, int r, int s,
                  int t) {
    check_matmul("matmul_i8_i8", A, B, C, m, k, n, r, s, t);
    blocked_matmul(A, B, C, m, k, n, r, s, t);
}

void matmul_i8_i16(const std::int8_t* A, const std::int8_t* B, std::int16_t* C, int m, int k, int n, int r, int s,
                   int t) {
    check_matmul("matmul_i8_i16", A, B, C, m, k, n, r, s, t);
    blocked_matmul(A, B, C, m, k, n, r, s, t);
}

void matmul_i8_i32(const std::int8_t* A, const std::int8_t* B, std::int32_t* C, int m, int k, int n, int r, int s,
                   int t) {
    check_matmul("matmul_i8_i32", A, B, C, m, k, n, r, s, t);
    blocked_matmul(A, B, C, m, k, n, r, s, t);
}

void matmul_bf16_bf16(const bfloat16* A, const bfloat16* B, bfloat16* C, int m, int k, int n, int r, int s, int t) {
    check_matmul("matmul_bf16_bf16", A, B, C, m, k, n, r, s, t);
    blocked_matmul(A, B, C, m, k, n, r, s, t);
}

void matmul_bf16_f32(const bfloat16* A, const bfloat16* B, float* C, int m, int k, int n, int r, int s, int t) {
    check_matmul("matmul_bf16_f32", A, B, C, m, k, n, r, s, t);
    blocked_matmul(A, B, C, m, k, n, r, s, t);
}

MatmulLoop mm_cc_loop(bool aie2p, MmInput in, int out_bytes, double peak_macs_per_cycle) {
    switch (in) {
    case MmInput::i8:
        return aie2p ? MatmulLoop{8, 8, 8, 2, 2, peak_macs_per_cycle, out_bytes}
                     : MatmulLoop{4, 8, 8, 4, 2, peak_macs_per_cycle, out_bytes};
    case MmInput::i16:
        return aie2p ? MatmulLoop{4, 4, 8, 2, 2, peak_macs_per_cycle, out_bytes}
                     : MatmulLoop{4, 4, 4, 2, 2, peak_macs_per_cycle, out_bytes};
    case MmInput::bf16:
        return aie2p ? MatmulLoop{4, 8, 8, 2, 2, peak_macs_per_cycle, out_bytes}
                     : MatmulLoop{4, 8, 4, 4, 4, peak_macs_per_cycle, out_bytes};
    }
    detail::fail("mm_cc_loop", "unknown input type");
}

MatmulCycleParts matmul_cycle_parts(int m, int k, int n, const MatmulLoop& loop) {
    constexpr const char* name = "matmul_cycles";
    detail::require_non_negative(m, name, "m");
    detail::require_non_negative(k, name, "k");
    detail::require_non_negative(n, name, "n");
    if (!(loop.peak_macs_per_cycle > 0)) detail::fail(name, "the peak must be positive");
    detail::require_positive(loop.r, name, "r");
    detail::require_positive(loop.s, name, "s");
    detail::require_positive(loop.t, name, "t");
    detail::require_positive(loop.row_blocks, name, "row_blocks");
    detail::require_positive(loop.col_blocks, name, "col_blocks");
    detail::require_positive(loop.out_bytes, name, "out_bytes");
    if (m == 0 || k == 0 || n == 0) return {};
    const auto ceil_div64 = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
    // A size that is not a whole number of blocks runs as the next whole one (the kernel requires
    // whole blocks; the cost stays defined for any size).
    const std::int64_t outer =
        ceil_div64(m, std::int64_t{loop.r} * loop.row_blocks) * ceil_div64(n, std::int64_t{loop.t} * loop.col_blocks);
    const std::int64_t inner = ceil_div64(k, loop.s);
    const std::int64_t mmuls = std::int64_t{loop.row_blocks} * loop.col_blocks;
    const double macs_per_mmul = double(loop.r) * loop.s * loop.t;
    const double mmul_cycles = std::max(1.0, macs_per_mmul / loop.peak_macs_per_cycle);
    const auto steady =
        static_cast<std::uint64_t>(std::ceil(static_cast<double>(outer * inner * mmuls) * mmul_cycles - 1e-9));
    const std::int64_t stores = ceil_div64(mmuls * loop.r * loop.t * loop.out_bytes, kMatmulStoreBytesPerCycle);
    const auto fill_drain =
        static_cast<std::uint64_t>(outer * (kMatmulPipelineFillCycles + stores + kMatmulLoopControlCycles));
    return {steady, fill_drain};
}

std::uint64_t matmul_cycles(int m, int k, int n, const MatmulLoop& loop) {
    const auto p = matmul_cycle_parts(m, k, n, loop);
    return p.steady + p.fill_drain;
}

} // namespace npusim::kernels
