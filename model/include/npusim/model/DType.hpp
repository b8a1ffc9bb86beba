#pragma once
// Element types of tensors, fifo objects and kernel arguments.
//
// bfp16ebs8 is AIE2P's block floating point as IRON spells it (`v8bfp16ebs8`, mlir-aie at 3ca0193
// python/helpers/util.py l.27-36): one element is a block of 8 values sharing an 8-bit exponent, 8
// int8 mantissas after it, 9 bytes (72 bits: lib/Dialect/AIEX/IR/AIEXDialect.cpp l.1413-1416 and
// l.1436), packed (ABI alignment 1, l.1424-1430). A tensor of n blocks holds 8n values in 9n bytes,
// so every size in bytes (fifo objects, BD lengths) is elements x 9. Only AIE2P has the datapath
// (lib/Dialect/AIE/IR/AIETargetModel.cpp l.1604-1620); AIE2 designs are refused at resolve.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace npusim {

enum class DType : std::uint8_t { i8, u8, i16, u16, i32, u32, f32, bf16, bfp16ebs8 };

constexpr std::size_t dtype_bytes(DType t) {
    switch (t) {
    case DType::i8:
    case DType::u8: return 1;
    case DType::i16:
    case DType::u16:
    case DType::bf16: return 2;
    case DType::i32:
    case DType::u32:
    case DType::f32: return 4;
    case DType::bfp16ebs8: return 9;
    }
    return 0;
}

constexpr std::string_view dtype_name(DType t) {
    switch (t) {
    case DType::i8: return "i8";
    case DType::u8: return "u8";
    case DType::i16: return "i16";
    case DType::u16: return "u16";
    case DType::i32: return "i32";
    case DType::u32: return "u32";
    case DType::f32: return "f32";
    case DType::bf16: return "bf16";
    case DType::bfp16ebs8: return "v8bfp16ebs8";
    }
    return "?";
}

constexpr bool dtype_is_float(DType t) { return t == DType::f32 || t == DType::bf16; }

/// A block floating-point type: one element is a block of values (dtype_block_values of them).
constexpr bool dtype_is_block(DType t) { return t == DType::bfp16ebs8; }
constexpr unsigned dtype_block_values(DType t) { return dtype_is_block(t) ? 8 : 1; }

namespace model {
using npusim::dtype_block_values;
using npusim::dtype_bytes;
using npusim::dtype_is_block;
using npusim::dtype_is_float;
using npusim::dtype_name;
} // namespace model

} // namespace npusim
