#include "npusim/frontend/TensorAccessPattern.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::iron {

TensorAccessPattern::TensorAccessPattern(std::vector<std::int64_t> tensor_dims, std::int64_t offset,
                                         std::vector<std::int64_t> sizes, std::vector<std::int64_t> strides)
    : tensor_dims_(std::move(tensor_dims)), offset_(offset) {
    if (sizes.empty() || sizes.size() > 4 || sizes.size() != strides.size())
        throw DesignError(fmt::format("TensorAccessPattern: sizes and strides must have the same length, 1 to 4 "
                                      "(got {} sizes, {} strides)",
                                      sizes.size(), strides.size()));
    const std::size_t pad = 4 - sizes.size();
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] < 1) throw DesignError(fmt::format("TensorAccessPattern: size {} must be >= 1", sizes[i]));
        sizes_[pad + i] = sizes[i];
        strides_[pad + i] = strides[i];
    }
    if (offset < 0) throw DesignError(fmt::format("TensorAccessPattern: offset {} must be >= 0", offset));
}

TensorAccessPattern TensorAccessPattern::linear(std::vector<std::int64_t> tensor_dims) {
    std::int64_t n = 1;
    for (auto d : tensor_dims) n *= d;
    return TensorAccessPattern(std::move(tensor_dims), 0, {1, 1, 1, n}, {0, 0, 0, 1});
}

std::int64_t TensorAccessPattern::transfer_elements() const { return sizes_[0] * sizes_[1] * sizes_[2] * sizes_[3]; }

std::int64_t TensorAccessPattern::tensor_elements() const {
    std::int64_t n = 1;
    for (auto d : tensor_dims_) n *= d;
    return n;
}

std::int64_t TensorAccessPattern::min_index() const {
    std::int64_t v = offset_;
    for (int k = 0; k < 4; ++k)
        if (strides_[k] < 0) v += (sizes_[k] - 1) * strides_[k];
    return v;
}

std::int64_t TensorAccessPattern::max_index() const {
    std::int64_t v = offset_;
    for (int k = 0; k < 4; ++k)
        if (strides_[k] > 0) v += (sizes_[k] - 1) * strides_[k];
    return v;
}

std::vector<std::int64_t> TensorAccessPattern::access_order() const {
    std::vector<std::int64_t> out;
    out.reserve(static_cast<std::size_t>(transfer_elements()));
    for (std::int64_t a = 0; a < sizes_[0]; ++a)
        for (std::int64_t b = 0; b < sizes_[1]; ++b)
            for (std::int64_t c = 0; c < sizes_[2]; ++c)
                for (std::int64_t d = 0; d < sizes_[3]; ++d)
                    out.push_back(offset_ + a * strides_[0] + b * strides_[1] + c * strides_[2] + d * strides_[3]);
    return out;
}

std::vector<std::int64_t> TensorAccessPattern::access_map() const {
    std::vector<std::int64_t> map(static_cast<std::size_t>(tensor_elements()), -1);
    std::int64_t step = 0;
    for (auto idx : access_order()) {
        if (idx >= 0 && idx < static_cast<std::int64_t>(map.size())) map[static_cast<std::size_t>(idx)] = step;
        ++step;
    }
    return map;
}

std::string TensorAccessPattern::visualize(std::int64_t max_cells) const {
    const std::int64_t n = tensor_elements();
    if (n > max_cells)
        return fmt::format("{}\n(tensor of {} elements is larger than the {}-cell display limit)\n", str(), n,
                           max_cells);
    const std::int64_t cols = tensor_dims_.empty() ? 1 : tensor_dims_.back();
    const std::int64_t rows = cols ? n / cols : 0;
    const auto map = access_map();
    const int width = static_cast<int>(std::max<std::size_t>(fmt::format("{}", transfer_elements() - 1).size(), 1));
    std::string out = str() + "\n";
    for (std::int64_t r = 0; r < rows; ++r) {
        for (std::int64_t c = 0; c < cols; ++c) {
            const auto v = map[static_cast<std::size_t>(r * cols + c)];
            out += c ? " " : "";
            out += v < 0 ? fmt::format("{:>{}}", ".", width) : fmt::format("{:>{}}", v, width);
        }
        out += "\n";
    }
    return out;
}

std::string TensorAccessPattern::str() const {
    return fmt::format("tap(offset={}, sizes=[{}], strides=[{}])", offset_, fmt::join(sizes_, ","),
                       fmt::join(strides_, ","));
}

} // namespace npusim::iron
