#include "export/MlirTypes.hpp"

#include "npusim/frontend/MlirExport.hpp"
#include "npusim/model/Error.hpp"

#include <bit>
#include <cstring>
#include <fmt/format.h>

namespace npusim::iron::detail::mlir {

std::string element_type(DType t) {
    switch (t) {
    case DType::u8: return "ui8";
    case DType::u16: return "ui16";
    case DType::u32: return "ui32";
    // IRON's v8bfp16ebs8 is the AIEX dialect's block type (mlir-aie at 3ca0193: python/helpers/util.py
    // l.35-36, include/aie/Dialect/AIEX/IR/AIEX.td l.233-250: mnemonic bfp, `<` block_type `>`).
    case DType::bfp16ebs8: return "!aiex.bfp<\"v8bfp16ebs8\">";
    default: return std::string(dtype_name(t));
    }
}

namespace {

std::string element_text(DType t, const std::uint8_t* p) {
    switch (t) {
    case DType::i8: return std::to_string(static_cast<std::int8_t>(*p));
    case DType::u8: return std::to_string(*p);
    case DType::i16: {
        std::int16_t v;
        std::memcpy(&v, p, 2);
        return std::to_string(v);
    }
    case DType::u16: {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return std::to_string(v);
    }
    case DType::i32: {
        std::int32_t v;
        std::memcpy(&v, p, 4);
        return std::to_string(v);
    }
    case DType::u32: {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return std::to_string(v);
    }
    case DType::f32: {
        float v;
        std::memcpy(&v, p, 4);
        return fmt::format("{:e}", v);
    }
    case DType::bf16: {
        std::uint16_t h;
        std::memcpy(&h, p, 2);
        const float v = std::bit_cast<float>(static_cast<std::uint32_t>(h) << 16);
        return fmt::format("{:e}", v);
    }
    case DType::bfp16ebs8: break; // dense_literal refuses block types first
    }
    return "0";
}

void nest(const TensorType& t, const std::vector<std::uint8_t>& b, std::size_t dim, std::int64_t& index,
          std::string& out) {
    out += "[";
    const std::size_t eb = dtype_bytes(t.dtype);
    for (std::int64_t i = 0; i < t.shape[dim]; ++i) {
        if (i) out += ", ";
        if (dim + 1 < t.shape.size()) {
            nest(t, b, dim + 1, index, out);
        } else {
            out += element_text(t.dtype, b.data() + static_cast<std::size_t>(index) * eb);
            ++index;
        }
    }
    out += "]";
}

} // namespace

std::string dense_literal(const TensorType& t, const std::vector<std::uint8_t>& bytes) {
    if (dtype_is_block(t.dtype))
        throw DesignError(fmt::format("initial values of a {} tensor cannot be exported: MLIR's dense attribute "
                                      "holds no !aiex.bfp blocks; write them from the runtime sequence instead",
                                      t.str()));
    std::vector<std::uint8_t> b = bytes;
    b.resize(t.bytes(), 0);
    const std::size_t eb = dtype_bytes(t.dtype);
    bool splat = true;
    for (std::size_t i = eb; i < b.size() && splat; ++i) splat = b[i] == b[i % eb];
    if (splat || t.shape.empty()) return "dense<" + element_text(t.dtype, b.data()) + ">";
    std::string out = "dense<";
    std::int64_t index = 0;
    nest(t, b, 0, index, out);
    return out + ">";
}

std::string pad_layouts(const std::vector<std::pair<std::int64_t, std::int64_t>>& pad) {
    std::string p;
    for (std::size_t i = 0; i < pad.size(); ++i)
        p += fmt::format("{}<const_pad_before = {}, const_pad_after = {}>", i ? ", " : "", pad[i].first,
                         pad[i].second);
    return p;
}

} // namespace npusim::iron::detail::mlir

namespace npusim::iron {

std::string mlir_memref_type(const TensorType& t) {
    std::string s = "memref<";
    for (auto d : t.shape) s += std::to_string(d) + "x";
    return s + detail::mlir::element_type(t.dtype) + ">";
}

} // namespace npusim::iron
