#pragma once
// MlirTypes: MLIR spellings of npusim types and constants (memref types, dense<> literals).
#include "npusim/frontend/TensorType.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npusim::iron::detail::mlir {

/// "i32", "ui8", "bf16" (numpy's unsigned types are MLIR's unsigned integers in IRON).
std::string element_type(DType t);
/// `dense<0>` when every element is equal, else `dense<[[1, 2], [3, 4]]>` nested by the shape.
std::string dense_literal(const TensorType& t, const std::vector<std::uint8_t>& bytes);
/// The elements of a BDPadLayoutArrayAttr, as both forms print them (the objectfifo's
/// padDimensions, aie.dma_bd's pad): "<const_pad_before = b, const_pad_after = a>, ...".
std::string pad_layouts(const std::vector<std::pair<std::int64_t, std::int64_t>>& pad);

} // namespace npusim::iron::detail::mlir
