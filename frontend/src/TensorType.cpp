#include "npusim/frontend/TensorType.hpp"

#include <fmt/format.h>

namespace npusim::iron {

std::int64_t TensorType::elements() const {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

std::string TensorType::str() const {
    std::string s = std::string(model::dtype_name(dtype)) + "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += fmt::format("{}{}", i ? "," : "", shape[i]);
    return s + "]";
}

} // namespace npusim::iron
