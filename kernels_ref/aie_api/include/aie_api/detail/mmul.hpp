#pragma once
// aie::mmul<M, K, N, TypeA, TypeB, AccumTag>: C (MxN, accumulator) = / += A (MxK) * B (KxN); A, B and C
// are row-major blocks held in vectors.
#include "bfp.hpp"
#include "ops_logic.hpp" // and ops.hpp

// AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16 (a compile flag IRON gives aie2p/mm.cc: mlir-aie at 3ca0193,
// python/iron/kernels/linalg.py l.86 and l.180) makes a bfloat16 x bfloat16 aie::mmul on AIE2P run on
// the bfp16 datapath: each A tile and B tile is converted bf16 -> accfloat -> bfp16ebs8 (blocks of 8
// along K: a row of A, a column of B) and multiplied with the 8x8x8 bfp16 MAC
// (lib/Conversion/AIEVecToLLVM/AIEVecToLLVM.cpp l.4693-4718, the same lowering in mlir-aie's compiler),
// the conversion following the core rounding mode (aie_kernels/aie2p/mm.cc l.89-97). On AIE2 the flag
// has no effect (AIE2 has no bfp16 datapath). It is a template argument of aie::mmul, so translation
// units built with and without it instantiate different types.
#if defined(AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16) && NPUSIM_AIE_ARCH != 20
#define NPUSIM_AIE_BF16_MMUL_VIA_BFP16 true
#else
#define NPUSIM_AIE_BF16_MMUL_VIA_BFP16 false
#endif

namespace aie {

namespace detail {

struct mmul_shape {
    unsigned m, k, n;
    bool acc64; // a 64-bit accumulator is also available for this shape
};

// Shapes of AMD's AIE API for the element-size classes the kernels use (AIE-ML = AIE2, XDNA2 = AIE2P).
inline constexpr mmul_shape aie2_16x16[] = {{4, 2, 8, false}, {8, 2, 8, false}, {2, 4, 8, true},
                                            {4, 4, 8, true},  {4, 4, 4, true},  {2, 8, 8, true},
                                            {4, 8, 8, true},  {2, 8, 16, true}, {8, 1, 8, false}};
inline constexpr mmul_shape aie2p_16x16[] = {{4, 2, 8, false}, {8, 2, 8, false}, {2, 4, 8, true}, {4, 4, 8, true},
                                             {2, 8, 8, true},  {4, 8, 8, true},  {8, 1, 8, false}};
inline constexpr mmul_shape aie2_8x8[] = {{4, 8, 4, true},   {4, 16, 4, true},  {4, 8, 8, false},  {8, 8, 8, false},
                                          {8, 8, 4, true},   {2, 8, 8, false},  {1, 16, 8, false}, {2, 16, 8, false},
                                          {4, 16, 8, false}, {8, 16, 8, false}, {4, 16, 16, false}};
inline constexpr mmul_shape aie2p_8x8[] = {
    {2, 8, 8, false}, {4, 8, 8, false}, {4, 16, 8, false}, {8, 16, 8, false}, {8, 8, 8, false}};
inline constexpr mmul_shape aie2_16x8[] = {{4, 8, 4, false}, {4, 4, 8, false}, {8, 4, 4, false},  {8, 4, 8, false},
                                           {4, 4, 4, false}, {2, 8, 8, false}, {2, 16, 8, false}, {4, 16, 8, false}};
inline constexpr mmul_shape aie2p_16x8[] = {{4, 4, 8, true},  {8, 4, 8, false}, {4, 8, 8, true},
                                            {2, 16, 8, true}, {4, 16, 8, true}, {8, 2, 8, false}};
inline constexpr mmul_shape aie2_8x16[] = {{4, 4, 8, false}, {4, 4, 4, false}};
inline constexpr mmul_shape aie2p_8x16[] = {{8, 2, 8, false}, {4, 4, 8, false}};
inline constexpr mmul_shape aie2_bf16[] = {{4, 8, 4, false},  {4, 8, 8, false}, {8, 8, 8, false}, {4, 16, 4, false},
                                           {4, 16, 8, false}, {8, 8, 4, false}, {8, 1, 8, false}};
inline constexpr mmul_shape aie2p_bf16[] = {
    {8, 8, 4, false}, {4, 8, 4, false}, {4, 8, 8, false}, {8, 8, 8, false}, {8, 1, 8, false}};

template <std::size_t L>
constexpr int find_shape(const mmul_shape (&tbl)[L], unsigned m, unsigned k, unsigned n) {
    for (std::size_t i = 0; i < L; ++i)
        if (tbl[i].m == m && tbl[i].k == k && tbl[i].n == n) return tbl[i].acc64 ? 2 : 1;
    return 0;
}

// 0: shape not supported; 1: supported with a 32-bit accumulator; 2: also with a 64-bit one.
template <typename A, typename B>
constexpr int mmul_support(unsigned m, unsigned k, unsigned n) {
    constexpr bool want2 = NPUSIM_AIE_ARCH == 0 || NPUSIM_AIE_ARCH == 20;
    constexpr bool want2p = NPUSIM_AIE_ARCH == 0 || NPUSIM_AIE_ARCH == 21 || NPUSIM_AIE_ARCH == 22;
    auto both = [&](const auto& t2, const auto& t2p) {
        const int a = want2 ? find_shape(t2, m, k, n) : 0;
        const int b = want2p ? find_shape(t2p, m, k, n) : 0;
        return a > b ? a : b;
    };
    if constexpr (std::is_same_v<A, bfloat16> && std::is_same_v<B, bfloat16>)
        return both(aie2_bf16, aie2p_bf16);
    else if constexpr (is_int_elem<A> && is_int_elem<B> && type_bits<A> == 16 && type_bits<B> == 16)
        return both(aie2_16x16, aie2p_16x16);
    else if constexpr (is_int_elem<A> && is_int_elem<B> && type_bits<A> == 8 && type_bits<B> == 8)
        return both(aie2_8x8, aie2p_8x8);
    else if constexpr (is_int_elem<A> && is_int_elem<B> && type_bits<A> == 16 && type_bits<B> == 8)
        return both(aie2_16x8, aie2p_16x8);
    else if constexpr (is_int_elem<A> && is_int_elem<B> && type_bits<A> == 8 && type_bits<B> == 16)
        return both(aie2_8x16, aie2p_8x16);
    else
        return -1; // element-type pair not supported at all
}

} // namespace detail

template <unsigned M_, unsigned K_, unsigned N_, typename TypeA, typename TypeB = TypeA, typename AccumTag = accauto,
          bool Bf16ViaBfp16 = NPUSIM_AIE_BF16_MMUL_VIA_BFP16>
struct mmul {
    static_assert(detail::mmul_support<TypeA, TypeB>(M_, K_, N_) != -1,
                  "npusim aie_api: aie::mmul element types not supported by the host layer (supported: "
                  "int16 x int16, int8 x int8, int16 x int8, int8 x int16 in any signedness, bfloat16 x bfloat16)");
    static_assert(detail::mmul_support<TypeA, TypeB>(M_, K_, N_) != 0,
                  "npusim aie_api: aie::mmul shape MxKxN not supported for these element types on the target "
                  "architecture (AIE2: int16 4x4x4, 4x4x8, 2x4x8, 4x8x8, ...; int8 4x8x4, 4x8x8, 8x8x8, 4x16x8, ...; "
                  "bfloat16 4x8x4, 4x8x8, 8x8x8, 4x16x4, ... ; AIE2P: int16 4x4x8, 4x8x8, ...; int8 8x8x8, 4x8x8, "
                  "...; bfloat16 4x8x8, 8x8x8, 4x8x4, ...)");

    using tag_type = detail::mul_result_tag_t<AccumTag, TypeA, TypeB>;
    static_assert(detail::accum_tag_bits<tag_type> == 32 || detail::mmul_support<TypeA, TypeB>(M_, K_, N_) == 2,
                  "npusim aie_api: this aie::mmul shape has no 64-bit accumulator mode; use acc32");

    static constexpr unsigned M = M_;
    static constexpr unsigned K = K_;
    static constexpr unsigned N = N_;
    static constexpr unsigned size_A = M * K;
    static constexpr unsigned size_B = K * N;
    static constexpr unsigned size_C = M * N;
    using type_A = TypeA;
    using type_B = TypeB;
    using accum_type = accum<tag_type, size_C>;
    using vector_A_type = vector<TypeA, size_A>;
    using vector_B_type = vector<TypeB, size_B>;

    // npusim extension: the bf16 product runs on the bfp16 datapath: true with the emulation flag for shapes whose K is
    // whole blocks of 8 ([est] the shapes with K < 8 keep the bf16 datapath).
    static constexpr bool via_bfp16 =
        Bf16ViaBfp16 && std::is_same_v<TypeA, bfloat16> && std::is_same_v<TypeB, bfloat16> && K_ % 8 == 0;

    mmul() = default;
    mmul(const accum_type& acc) : c_(acc) {} // NOLINT: implicit, as in the AIE API
    template <typename Tag2>
    requires(!std::is_same_v<Tag2, tag_type>) mmul(const accum<Tag2, size_C>& acc) : c_(acc) {} // NOLINT
    template <typename T>
    explicit mmul(const vector<T, size_C>& v, int shift = 0) {
        c_.from_vector(v, shift);
    }

    // C = A * B
    template <typename VA, typename VB>
    void mul(const VA& a, const VB& b) {
        check_operands<VA, VB>();
        if constexpr (operands_ok<VA, VB>) compute<false>(a, b);
    }
    // C += A * B
    template <typename VA, typename VB>
    void mac(const VA& a, const VB& b) {
        check_operands<VA, VB>();
        if constexpr (operands_ok<VA, VB>) compute<true>(a, b);
    }

    accum_type to_accum() const { return c_; }
    operator accum_type() const { return c_; } // NOLINT
    template <typename T>
    vector<T, size_C> to_vector(int shift = 0) const {
        return c_.template to_vector<T>(shift);
    }
    template <typename T>
    vector<T, size_C> to_vector_sign(bool sign, int shift = 0) const {
        return c_.template to_vector_sign<T>(sign, shift);
    }
    static constexpr unsigned size() { return size_C; }

private:
    template <typename VA, typename VB>
    static constexpr bool operands_ok = std::is_same_v<VA, vector_A_type>&& std::is_same_v<VB, vector_B_type>;

    template <typename VA, typename VB>
    static constexpr void check_operands() {
        static_assert(std::is_same_v<VA, vector_A_type>,
                      "npusim aie_api: aie::mmul::mul/mac operand A must be aie::vector<TypeA, M*K>");
        static_assert(std::is_same_v<VB, vector_B_type>,
                      "npusim aie_api: aie::mmul::mul/mac operand B must be aie::vector<TypeB, K*N>");
    }

    // Emulated bf16 product: rows of A and columns of B quantized to bfp16 blocks, then per output
    // lane each K block's exact integer dot product is scaled and added to the float lane, in order,
    // as mac_8x8_8x8T does (for 8x8x8, K is one block: one rounding).
    template <bool Accumulate>
    void compute_bfp16(const vector_A_type& a, const vector_B_type& b) {
        constexpr unsigned KB = K / 8;
        std::uint8_t qa[M][KB][9], qb[N][KB][9];
        float blk[8];
        for (unsigned kb = 0; kb < KB; ++kb) {
            for (unsigned i = 0; i < M; ++i) {
                for (unsigned t = 0; t < 8; ++t) blk[t] = detail::to_f(a[i * K + kb * 8 + t]);
                detail::float_block_to_bfp16(blk, qa[i][kb]);
            }
            for (unsigned j = 0; j < N; ++j) {
                for (unsigned t = 0; t < 8; ++t) blk[t] = detail::to_f(b[(kb * 8 + t) * N + j]);
                detail::float_block_to_bfp16(blk, qb[j][kb]);
            }
        }
        for (unsigned i = 0; i < M; ++i)
            for (unsigned j = 0; j < N; ++j) {
                float lane = Accumulate ? c_.lane(i * N + j) : 0.0f;
                for (unsigned kb = 0; kb < KB; ++kb) lane = detail::bfp16_block_dot_add(lane, qa[i][kb], qb[j][kb]);
                c_.lane(i * N + j) = lane;
            }
    }

    // Row-major blocks: C[i][j] (+)= sum_k A[i][k] * B[k][j]. Integer lanes wrap in the accumulator
    // width; float lanes sum the K exact products in order, in single precision, then add to C. [est]
    template <bool Accumulate>
    void compute(const vector_A_type& a, const vector_B_type& b) {
        if constexpr (via_bfp16) {
            compute_bfp16<Accumulate>(a, b);
            return;
        }
        using S = typename accum_type::storage_type;
        S out[size_C];
        for (unsigned i = 0; i < M; ++i) {
            for (unsigned j = 0; j < N; ++j) out[i * N + j] = S{0};
            for (unsigned kk = 0; kk < K; ++kk) {
                if constexpr (std::is_floating_point_v<S>) {
                    const float av = detail::to_f(a[i * K + kk]);
                    for (unsigned j = 0; j < N; ++j) out[i * N + j] += av * detail::to_f(b[kk * N + j]);
                } else {
                    using U = std::make_unsigned_t<S>;
                    const U av = static_cast<U>(static_cast<S>(a[i * K + kk]));
                    for (unsigned j = 0; j < N; ++j)
                        out[i * N + j] = static_cast<S>(static_cast<U>(out[i * N + j]) +
                                                        av * static_cast<U>(static_cast<S>(b[kk * N + j])));
                }
            }
        }
        for (unsigned idx = 0; idx < size_C; ++idx) {
            if constexpr (std::is_floating_point_v<S>)
                c_.lane(idx) = Accumulate ? c_.lane(idx) + out[idx] : out[idx];
            else
                c_.lane(idx) = Accumulate ? detail::wrap_add(c_.lane(idx), out[idx]) : out[idx];
        }
    }

    accum_type c_{};
};

} // namespace aie
