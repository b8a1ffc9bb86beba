#pragma once
// Tensor and scalar type descriptors (IRON: np.ndarray[(shape,), np.dtype[T]]).
#include "npusim/kernels/bfloat16.hpp"
#include "npusim/model/DType.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace npusim::iron {

using npusim::bfloat16;
using npusim::DType;

template <class T>
constexpr DType dtype_of() {
    if constexpr (std::is_same_v<T, std::int8_t>)
        return DType::i8;
    else if constexpr (std::is_same_v<T, std::uint8_t>)
        return DType::u8;
    else if constexpr (std::is_same_v<T, std::int16_t>)
        return DType::i16;
    else if constexpr (std::is_same_v<T, std::uint16_t>)
        return DType::u16;
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return DType::i32;
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return DType::u32;
    else if constexpr (std::is_same_v<T, float>)
        return DType::f32;
    else if constexpr (std::is_same_v<T, bfloat16>)
        return DType::bf16;
    else
        static_assert(sizeof(T) == 0,
                      "npusim: unsupported element type (use int8/uint8/int16/uint16/int32/uint32/float/bfloat16)");
}

/// A tensor type: element type and shape (row-major).
struct TensorType {
    DType dtype = DType::i32;
    std::vector<std::int64_t> shape;

    std::int64_t elements() const;
    std::uint64_t bytes() const { return static_cast<std::uint64_t>(elements()) * model::dtype_bytes(dtype); }
    std::string str() const; ///< "i32[1024]", "i16[32,32]"
    friend bool operator==(const TensorType&, const TensorType&) = default;
};

/// tensor<int32_t>({1024}) — the C++ spelling of np.ndarray[(1024,), np.dtype[np.int32]].
template <class T>
TensorType tensor(std::vector<std::int64_t> shape) {
    return TensorType{dtype_of<T>(), std::move(shape)};
}

/// A scalar kernel-argument type (np.int32).
struct ScalarType {
    DType dtype = DType::i32;
};
template <class T>
ScalarType scalar() {
    return ScalarType{dtype_of<T>()};
}

} // namespace npusim::iron
