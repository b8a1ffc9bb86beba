// mm: C += A * B on one tile in aie::mmul's blocked layout. Each step multiplies a group of up to 2x2
// output blocks, so every A block and B block loaded is used twice. Accumulators start from the C
// blocks already in memory (the kernel is called once per K tile), and the results go back with
// to_vector (shift 0, saturation none: integer results wrap like numpy's astype).
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

template <typename MM, unsigned RB, unsigned CB, typename TIn, typename TOut>
inline void block_group(const TIn* __restrict a, const TIn* __restrict b, TOut* __restrict c, unsigned bi, unsigned bj,
                        unsigned kb, unsigned nb) {
    MM acc[RB][CB];
    for (unsigned i = 0; i < RB; ++i)
        for (unsigned j = 0; j < CB; ++j)
            acc[i][j] = MM(aie::load_v<MM::size_C>(c + ((bi + i) * nb + bj + j) * MM::size_C));

    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(2)
    for (unsigned q = 0; q < kb; ++q) {
        aie::vector<TIn, MM::size_A> av[RB];
        aie::vector<TIn, MM::size_B> bv[CB];
        for (unsigned i = 0; i < RB; ++i) av[i] = aie::load_v<MM::size_A>(a + ((bi + i) * kb + q) * MM::size_A);
        for (unsigned j = 0; j < CB; ++j) bv[j] = aie::load_v<MM::size_B>(b + (q * nb + bj + j) * MM::size_B);
        for (unsigned i = 0; i < RB; ++i)
            for (unsigned j = 0; j < CB; ++j) acc[i][j].mac(av[i], bv[j]);
    }

    for (unsigned i = 0; i < RB; ++i)
        for (unsigned j = 0; j < CB; ++j)
            aie::store_v(c + ((bi + i) * nb + bj + j) * MM::size_C, acc[i][j].template to_vector<TOut>());
}

// ViaBfp16: the bf16 mmul on the bfp16 datapath (the host layer's AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16,
// as mmul's seventh template argument so one library holds both builds).
template <typename TIn, typename TOut, unsigned r, unsigned s, unsigned t, bool ViaBfp16 = false>
void matmul_blocked(const TIn* __restrict a, const TIn* __restrict b, TOut* __restrict c, unsigned m, unsigned k,
                    unsigned n) {
    using MM = aie::mmul<r, s, t, TIn, TIn, accauto, ViaBfp16>;
    event0();
    aie::set_saturation(aie::saturation_mode::none);
    // bf16 results: round to nearest even, as the reference kernel (kernels_ref matmul.hpp). mm.cc
    // leaves the core's mode as it is (the emulated-bfp16 path selects conv_even, which its bf16 to
    // bfp16 conversions follow too); npusim chooses conv_even so both builds round alike. Integer
    // results: shift 0, no rounding happens.
    const aie::rounding_mode saved = aie::get_rounding();
    if constexpr (std::is_same_v<TOut, bfloat16> || ViaBfp16) aie::set_rounding(aie::rounding_mode::conv_even);
    const unsigned mb = m / r, kb = k / s, nb = n / t;
    for (unsigned bi = 0; bi < mb; bi += 2) {
        const bool pair_rows = bi + 1 < mb;
        for (unsigned bj = 0; bj < nb; bj += 2) {
            const bool pair_cols = bj + 1 < nb;
            if (pair_rows && pair_cols)
                block_group<MM, 2, 2>(a, b, c, bi, bj, kb, nb);
            else if (pair_rows)
                block_group<MM, 2, 1>(a, b, c, bi, bj, kb, nb);
            else if (pair_cols)
                block_group<MM, 1, 2>(a, b, c, bi, bj, kb, nb);
            else
                block_group<MM, 1, 1>(a, b, c, bi, bj, kb, nb);
        }
    }
    aie::set_rounding(saved);
    event1();
}

template <typename TIn, typename TOut>
void matmul_rowmajor_scalar(const TIn* a, const TIn* b, TOut* c, int m, int k, int n) {
    using U = std::make_unsigned_t<TOut>;
    event0();
    for (int row = 0; row < m; ++row) {
        for (int col = 0; col < n; ++col) {
            U sum = 0;
            for (int i = 0; i < k; ++i)
                sum += static_cast<U>(static_cast<TOut>(a[row * k + i])) *
                       static_cast<U>(static_cast<TOut>(b[i * n + col]));
            c[row * n + col] = static_cast<TOut>(static_cast<U>(c[row * n + col]) + sum);
        }
    }
    event1();
}

template <typename T>
void zero_vectorized(T* __restrict c, int count) {
    constexpr unsigned lanes = 32;
    const aie::vector<T, lanes> z = aie::zeros<T, lanes>();
    int i = 0;
    for (; i + static_cast<int>(lanes) <= count; i += lanes) aie::store_v(c + i, z);
    for (; i < count; ++i) c[i] = 0;
}

} // namespace

namespace npusim::aie_kernels {

void matmul_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, int m, int k, int n, MacDims dims) {
    if (dims != MacDims::aie2)
        matmul_blocked<int16, int32, 4, 4, 8>(a, b, c, m, k, n);
    else
        matmul_blocked<int16, int32, 4, 4, 4>(a, b, c, m, k, n);
}
void matmul_i16_i16(const std::int16_t* a, const std::int16_t* b, std::int16_t* c, int m, int k, int n, MacDims dims) {
    if (dims != MacDims::aie2)
        matmul_blocked<int16, int16, 4, 4, 8>(a, b, c, m, k, n);
    else
        matmul_blocked<int16, int16, 4, 4, 4>(a, b, c, m, k, n);
}
void matmul_scalar_i16_i32(const std::int16_t* a, const std::int16_t* b, std::int32_t* c, int m, int k, int n) {
    matmul_rowmajor_scalar(a, b, c, m, k, n);
}
void matmul_scalar_i16_i16(const std::int16_t* a, const std::int16_t* b, std::int16_t* c, int m, int k, int n) {
    matmul_rowmajor_scalar(a, b, c, m, k, n);
}
void matmul_i8_i8(const std::int8_t* a, const std::int8_t* b, std::int8_t* c, int m, int k, int n, MacDims dims) {
    if (dims != MacDims::aie2)
        matmul_blocked<int8, int8, 8, 8, 8>(a, b, c, m, k, n);
    else
        matmul_blocked<int8, int8, 4, 8, 8>(a, b, c, m, k, n);
}
void matmul_i8_i16(const std::int8_t* a, const std::int8_t* b, std::int16_t* c, int m, int k, int n, MacDims dims) {
    if (dims != MacDims::aie2)
        matmul_blocked<int8, int16, 8, 8, 8>(a, b, c, m, k, n);
    else
        matmul_blocked<int8, int16, 4, 8, 8>(a, b, c, m, k, n);
}
void matmul_i8_i32(const std::int8_t* a, const std::int8_t* b, std::int32_t* c, int m, int k, int n, MacDims dims) {
    if (dims != MacDims::aie2)
        matmul_blocked<int8, int32, 8, 8, 8>(a, b, c, m, k, n);
    else
        matmul_blocked<int8, int32, 4, 8, 8>(a, b, c, m, k, n);
}
void matmul_bf16_bf16(const bfloat16* a, const bfloat16* b, bfloat16* c, int m, int k, int n, MacDims dims) {
    if (dims == MacDims::aie2p_bf16_via_bfp16)
        matmul_blocked<bfloat16, bfloat16, 8, 8, 8, true>(a, b, c, m, k, n);
    else if (dims == MacDims::aie2p)
        matmul_blocked<bfloat16, bfloat16, 4, 8, 8>(a, b, c, m, k, n);
    else
        matmul_blocked<bfloat16, bfloat16, 4, 8, 4>(a, b, c, m, k, n);
}
void matmul_bf16_f32(const bfloat16* a, const bfloat16* b, float* c, int m, int k, int n, MacDims dims) {
    if (dims == MacDims::aie2p_bf16_via_bfp16)
        matmul_blocked<bfloat16, float, 8, 8, 8, true>(a, b, c, m, k, n);
    else if (dims == MacDims::aie2p)
        matmul_blocked<bfloat16, float, 4, 8, 8>(a, b, c, m, k, n);
    else
        matmul_blocked<bfloat16, float, 4, 8, 4>(a, b, c, m, k, n);
}
void zero_i32(std::int32_t* c, int count) { zero_vectorized(c, count); }
void zero_i16(std::int16_t* c, int count) { zero_vectorized(c, count); }
void zero_i8(std::int8_t* c, int count) { zero_vectorized(c, count); }
void zero_bf16(bfloat16* c, int count) { zero_vectorized(c, count); }
void zero_f32(float* c, int count) { zero_vectorized(c, count); }

} // namespace npusim::aie_kernels
