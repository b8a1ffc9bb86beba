#pragma once
// Block floating point of AIE2P: the bfp16ebs8 format, aie::block_vector, the block-vector buffer
// streams, the accfloat <-> bfp16 conversions and the intrinsics mlir-aie's aie2p/mm_bfp.cc and
// mm_bfp_mixed.cc call (mac_8x8_8x8T, mul_elem_64, broadcast_one_to_v32bfloat16).
//
// bfp16ebs8: blocks of 8 values sharing one exponent, 9 bytes a block in memory: the shared biased
// exponent E first, then 8 two's-complement int8 mantissas m; a value is m * 2^(E - 133) (= m / 64 *
// 2^(E - 127)) (mlir-aie at 3ca0193: lib/Dialect/AIEX/IR/AIEXDialect.cpp l.1436 gives v8bfp16ebs8
// 8 values x 8 mantissa bits + 8 exponent bits; programming_examples/ml/block_datatypes/helper.h
// l.45-157 encodes and decodes the bytes).
//
// Quantizing a float block works on the fields, as helper.h l.66-104 does: E is the largest
// exponent field of the 8 values; each value's significand (24 bits with the implicit one, 23 without
// it for a denormal, whose exponent field 0 is used as it is) is negated in two's complement for a
// negative value and shifted right by 17 + E - e, rounded with the core's rounding mode, then
// saturated to int8. With the reset mode (floor) this is helper.h's truncation ("the rounding mode
// for the mantissa in AIE2p is always truncation", l.90), which upstream's tests compare the device
// against. The mode applies because the conversion is the one instruction AIE2P has for it
// (v64accfloat.to.v64bfp16ebs8, also the bf16 -> bfp16 step of the bf16 mmul emulation:
// lib/Conversion/AIEVecToLLVM/AIEVecToLLVM.cpp l.4707-4710), and aie_kernels/aie2p/mm.cc l.89-97
// states that this conversion follows the core rounding mode. [est] a mantissa that rounds up to
// 128 saturates to 127 (no exponent bump); infinity encodes as the extreme mantissa with E = 255 and
// NaN as mantissa 0: AMD documents neither.
#include "accum.hpp"
#include "config.hpp"
#include "intrinsics.hpp"
#include "numeric.hpp"
#include "vector.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

// The storage of one bfp16ebs8 block (8 values: the exponent, then 8 mantissas), packed. Kernels pass
// bfp16ebs8 pointers to the block streams and size their local block arrays in blocks: mlir-aie's
// gemm_asymmetric_tile_buffering/config1/mm_bfp_mixed.cc (3ca0193) l.56 declares
// `bfp16ebs8 converted_A[M * K / 8]` and pushes M * K / 64 block vectors of 72 bytes into it, which
// fits only when one bfp16ebs8 is one 9-byte block (IRON's v8bfp16ebs8 element is the same block).
struct bfp16ebs8 {
    std::uint8_t bytes[9];
};
static_assert(sizeof(bfp16ebs8) == 9 && alignof(bfp16ebs8) == 1);

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
// One lane's mantissa: the signed significand of x (exponent field e) shifted right by 17 + e_max - e
// with rounding mode R, saturated to int8. A shift beyond 40 leaves |value| < 2^-16 of one step,
// which every mode rounds as it rounds any value that small.
template <rounding_mode R>
inline std::int8_t bfp16_mantissa(float x, unsigned e_max) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
    const unsigned e = (u >> 23) & 0xFFu;
    std::int64_t sig = static_cast<std::int64_t>((u & 0x7FFFFFu) | (e != 0 ? 0x800000u : 0u));
    if (u >> 31) sig = -sig;
    const int shift = 17 + static_cast<int>(e_max) - static_cast<int>(e);
    const std::int64_t q = round_shift_right<R>(sig, shift > 40 ? 40 : shift);
    return static_cast<std::int8_t>(q > 127 ? 127 : (q < -128 ? -128 : q));
}

// Quantize 8 floats to one bfp16ebs8 block (9 bytes at out) with the core's rounding mode.
inline void float_block_to_bfp16(const float* x, std::uint8_t* out) {
    unsigned e_max = 0;
    for (unsigned k = 0; k < 8; ++k) {
        const unsigned e = (std::bit_cast<std::uint32_t>(x[k]) >> 23) & 0xFFu;
        e_max = e > e_max ? e : e_max;
    }
    out[0] = static_cast<std::uint8_t>(e_max);
    dispatch_modes(get_rounding(), saturation_mode::none, [&]<rounding_mode R, saturation_mode>() {
        for (unsigned k = 0; k < 8; ++k) {
            std::int8_t q;
            if (std::isnan(x[k]))
                q = 0;
            else if (std::isinf(x[k]))
                q = x[k] > 0 ? 127 : -128;
            else
                q = bfp16_mantissa<R>(x[k], e_max);
            out[1 + k] = static_cast<std::uint8_t>(q);
        }
        return 0;
    });
}

// acc + the dot product of two packed blocks (9 bytes each: exponent, 8 mantissas): the 8 int8 x
// int8 products sum exactly, are scaled by 2^(Ea + Eb - 266) and added once (see mac_8x8_8x8T).
inline float bfp16_block_dot_add(float acc, const std::uint8_t* a, const std::uint8_t* b) {
    std::int32_t s = 0;
    for (unsigned k = 1; k <= 8; ++k)
        s += std::int32_t(static_cast<std::int8_t>(a[k])) * std::int32_t(static_cast<std::int8_t>(b[k]));
    return acc + std::ldexp(static_cast<float>(s), int(a[0]) + int(b[0]) - 266);
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

// The native block-vector types (576 and 1152 bits): 8 and 16 blocks, packed. A kernel may take a
// pointer to them and copy whole vectors (block_datatypes/vector_passthrough/kernel.cc l.20-23).
using v64bfp16ebs8 = aie::block_vector<bfp16ebs8, 64>;
using v128bfp16ebs8 = aie::block_vector<bfp16ebs8, 128>;
static_assert(sizeof(v64bfp16ebs8) == 72 && sizeof(v128bfp16ebs8) == 144 && alignof(v128bfp16ebs8) == 1,
              "a block vector is its packed bytes");

// mac_8x8_8x8T(a, b, acc): acc + A * B^T for 8x8 row-major blocks (row i of A and row j of B are one
// block each): C[i][j] += sum_k A[i][k] * B[j][k]. The 8 int8 x int8 products of a row pair sum
// exactly (|sum| < 2^17) and are scaled by 2^(Ea_i + Eb_j - 266) (exact unless the result underflows
// to a float denormal, which rounds to nearest even), then added to the float lane once, rounded to
// nearest even [est: the AIE2P adder's rounding is not documented].
inline v64accfloat mac_8x8_8x8T(const v64bfp16ebs8& a, const v64bfp16ebs8& b, const v64accfloat& acc) {
    v64accfloat r = acc;
    for (unsigned i = 0; i < 8; ++i)
        for (unsigned j = 0; j < 8; ++j)
            r.lane(i * 8 + j) = aie::detail::bfp16_block_dot_add(r.lane(i * 8 + j), a.data() + i * 9, b.data() + j * 9);
    return r;
}
inline v64accfloat mul_8x8_8x8T(const v64bfp16ebs8& a, const v64bfp16ebs8& b) {
    return mac_8x8_8x8T(a, b, v64accfloat{});
}

// mul_elem_64(a, b): the 64 element-wise products of two bf16 vectors, exact in the float lanes.
inline v64accfloat mul_elem_64(const v64bfloat16& a, const v64bfloat16& b) { return aie::mul(a, b); }

inline v32bfloat16 broadcast_one_to_v32bfloat16() { return aie::broadcast<bfloat16, 32>(bfloat16(1.0f)); }
