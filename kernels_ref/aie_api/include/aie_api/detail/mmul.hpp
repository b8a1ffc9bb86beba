#pragma once
// aie::mmul<M, K, N, TypeA, TypeB, AccumTag>: C (MxN, accumulator) = / += A (MxK) * B (KxN); A, B and C
// are row-major blocks held in vectors.
#include "ops.hpp"

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

template <unsigned M_, unsigned K_, unsigned N_, typename TypeA, typename TypeB = TypeA, typename AccumTag = accauto>
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

    // Row-major blocks: C[i][j] (+)= sum_k A[i][k] * B[k][j]. Integer lanes wrap in the accumulator
    // width; float lanes sum the K exact products in order, in single precision, then add to C. [est]
    template <bool Accumulate>
    void compute(const vector_A_type& a, const vector_B_type& b) {
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
