#pragma once
// Element types of tensors, fifo objects and kernel arguments.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace npusim {

enum class DType : std::uint8_t { i8, u8, i16, i32, u32, f32, bf16 };

constexpr std::size_t dtype_bytes(DType t) {
    switch (t) {
    case DType::i8:
    case DType::u8: return 1;
    case DType::i16:
    case DType::bf16: return 2;
    case DType::i32:
    case DType::u32:
    case DType::f32: return 4;
    }
    return 0;
}

constexpr std::string_view dtype_name(DType t) {
    switch (t) {
    case DType::i8: return "i8";
    case DType::u8: return "u8";
    case DType::i16: return "i16";
    case DType::i32: return "i32";
    case DType::u32: return "u32";
    case DType::f32: return "f32";
    case DType::bf16: return "bf16";
    }
    return "?";
}

constexpr bool dtype_is_float(DType t) { return t == DType::f32 || t == DType::bf16; }

namespace model {
using npusim::dtype_bytes;
using npusim::dtype_is_float;
using npusim::dtype_name;
} // namespace model

} // namespace npusim
