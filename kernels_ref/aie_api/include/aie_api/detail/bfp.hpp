#pragma once
// Block floating point of AIE2P: the bfp16ebs8 format, aie::block_vector, the block-vector buffer
// streams, the accfloat <-> bfp16 conversions and the intrinsics mlir-aie's aie2p/mm_bfp.cc and
// mm_bfp_mixed.cc call (mac_8x8_8x8T, mul_elem_64, broadcast_one_to_v32bfloat16).
//
// bfp16ebs8: blocks of 8 values sharing one exponent, 9 bytes a block in memory: the shared biased
// exponent E first, then 8 two's-complement int8 mantissas m; a value is m * 2^(E - 133) (= m / 64 *
// 2^(E - 127)). A float is quantized against the largest exponent field E of its block by
// truncation towards minus infinity: m = floor(x * 2^(133 - E)). This follows the host reference of
// mlir-aie (programming_examples/ml/block_datatypes/helper.h, floatToBfp16 / bfp16ebs8ToFloat, l.45-157
// at 3ca0193: "the rounding mode for the mantissa in AIE2p is always truncation"), which upstream's
// tests compare the device against. [est] denormal inputs use their true value (exponent field 0);
// infinity encodes as the extreme mantissa with E = 255 and NaN as mantissa 0: AMD does not document
// non-finite blocks.
#include "accum.hpp"
#include "config.hpp"
#include "intrinsics.hpp"
#include "vector.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

// One byte of a packed bfp16ebs8 stream: kernels only pass bfp16ebs8 pointers to the block streams.
struct bfp16ebs8 {
    std::uint8_t byte;
};
static_assert(sizeof(bfp16ebs8) == 1);

namespace aie {

template <typename T, unsigned N>
class block_vector {
    static_assert(detail::is_block_elem<T>, "npusim aie_api: aie::block_vector supports bfp16ebs8 only");
    static_assert(N % 8 == 0 && N > 0, "npusim aie_api: a bfp16ebs8 block_vector holds whole blocks of 8");

public:
    using value_type = T;
    static constexpr unsigned size() { return N; }
    static constexpr unsigned blocks() { return N / 8; }
    static constexpr unsigned bytes() { return N / 8 * 9; }

    // npusim extensions (for tests and the layer): the packed bytes, a block's exponent, a lane's
    // mantissa, and a lane's value.
    std::uint8_t* data() { return bytes_.data(); }
    const std::uint8_t* data() const { return bytes_.data(); }
    std::uint8_t exponent(unsigned block) const { return bytes_[block * 9]; }
    std::int8_t mantissa(unsigned i) const { return static_cast<std::int8_t>(bytes_[(i / 8) * 9 + 1 + i % 8]); }
    float get(unsigned i) const {
        return std::ldexp(static_cast<float>(mantissa(i)), static_cast<int>(exponent(i / 8)) - 133);
    }

private:
    std::array<std::uint8_t, bytes()> bytes_{};
};

namespace detail {
// Quantize 8 floats to one bfp16ebs8 block (9 bytes at out).
inline void float_block_to_bfp16(const float* x, std::uint8_t* out) {
    unsigned e_max = 0;
    for (unsigned k = 0; k < 8; ++k) {
        const unsigned e = (std::bit_cast<std::uint32_t>(x[k]) >> 23) & 0xFFu;
        e_max = e > e_max ? e : e_max;
    }
    out[0] = static_cast<std::uint8_t>(e_max);
    for (unsigned k = 0; k < 8; ++k) {
        int q;
        if (std::isnan(x[k]))
            q = 0;
        else if (std::isinf(x[k]))
            q = x[k] > 0 ? 127 : -128;
        else // |x| < 2^(e_max - 126), so the scaled value lies in (-128, 128): exact in double.
            q = static_cast<int>(std::floor(std::ldexp(static_cast<double>(x[k]), 133 - static_cast<int>(e_max))));
        out[1 + k] = static_cast<std::uint8_t>(static_cast<std::int8_t>(q));
    }
}

template <typename T, typename Tag, unsigned N>
block_vector<T, N> accum_to_block(const accum<Tag, N>& acc) {
    block_vector<T, N> r;
    for (unsigned b = 0; b < N / 8; ++b) {
        float x[8];
        for (unsigned k = 0; k < 8; ++k) x[k] = acc.lane(b * 8 + k);
        float_block_to_bfp16(x, r.data() + b * 9);
    }
    return r;
}
} // namespace detail

// Streams of block vectors over packed memory (AIE API block_vector_input/output_buffer_stream):
// pop() / push() move one block_vector (N / 8 * 9 bytes) and advance; seek(n) moves n block vectors
// from the current position [est: upstream seeks only freshly made streams, where relative and
// absolute agree].
template <typename T, unsigned N>
class block_vector_input_buffer_stream {
public:
    explicit block_vector_input_buffer_stream(const T* p) : p_(reinterpret_cast<const std::uint8_t*>(p)) {}
    block_vector<T, N> pop() {
        block_vector<T, N> r;
        std::memcpy(r.data(), p_, block_vector<T, N>::bytes());
        p_ += block_vector<T, N>::bytes();
        return r;
    }
    block_vector<T, N> pop_seek(int n) {
        auto r = pop();
        seek(n);
        return r;
    }
    void seek(int n) { p_ += static_cast<std::ptrdiff_t>(n) * block_vector<T, N>::bytes(); }
    block_vector_input_buffer_stream& operator>>(block_vector<T, N>& v) {
        v = pop();
        return *this;
    }

private:
    const std::uint8_t* p_;
};

template <typename T, unsigned N>
class block_vector_output_buffer_stream {
public:
    explicit block_vector_output_buffer_stream(T* p) : p_(reinterpret_cast<std::uint8_t*>(p)) {}
    void push(const block_vector<T, N>& v) {
        std::memcpy(p_, v.data(), block_vector<T, N>::bytes());
        p_ += block_vector<T, N>::bytes();
    }
    void seek(int n) { p_ += static_cast<std::ptrdiff_t>(n) * block_vector<T, N>::bytes(); }
    block_vector_output_buffer_stream& operator<<(const block_vector<T, N>& v) {
        push(v);
        return *this;
    }

private:
    std::uint8_t* p_;
};

} // namespace aie

using v64bfp16ebs8 = aie::block_vector<bfp16ebs8, 64>;

// mac_8x8_8x8T(a, b, acc): acc + A * B^T for 8x8 row-major blocks (row i of A and row j of B are one
// block each): C[i][j] += sum_k A[i][k] * B[j][k]. The 8 int8 x int8 products of a row pair sum
// exactly (|sum| < 2^17) and are scaled by 2^(Ea_i + Eb_j - 266) (exact unless the result underflows
// to a float denormal, which rounds to nearest even), then added to the float lane once, rounded to
// nearest even [est: the AIE2P adder's rounding is not documented].
inline v64accfloat mac_8x8_8x8T(const v64bfp16ebs8& a, const v64bfp16ebs8& b, const v64accfloat& acc) {
    v64accfloat r = acc;
    for (unsigned i = 0; i < 8; ++i)
        for (unsigned j = 0; j < 8; ++j) {
            std::int32_t s = 0;
            for (unsigned k = 0; k < 8; ++k) s += std::int32_t(a.mantissa(i * 8 + k)) * b.mantissa(j * 8 + k);
            const int e = int(a.exponent(i)) + int(b.exponent(j)) - 266;
            r.lane(i * 8 + j) += std::ldexp(static_cast<float>(s), e);
        }
    return r;
}
inline v64accfloat mul_8x8_8x8T(const v64bfp16ebs8& a, const v64bfp16ebs8& b) {
    return mac_8x8_8x8T(a, b, v64accfloat{});
}

// mul_elem_64(a, b): the 64 element-wise products of two bf16 vectors, exact in the float lanes.
inline v64accfloat mul_elem_64(const v64bfloat16& a, const v64bfloat16& b) { return aie::mul(a, b); }

inline v32bfloat16 broadcast_one_to_v32bfloat16() { return aie::broadcast<bfloat16, 32>(bfloat16(1.0f)); }
