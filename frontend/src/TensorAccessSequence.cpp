// TensorAccessSequence: mlir-aie python/helpers/taplib/tas.py (from_taps, _calc_accesses).
#include "npusim/taplib/TensorAccessSequence.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::iron {

namespace {
std::int64_t product(const std::vector<std::int64_t>& dims) {
    std::int64_t n = 1;
    for (auto d : dims) n *= d;
    return n;
}

// tap.py _calculate_accesses: the last step touching each element, -1 if none; indices wrap
// modulo the tensor size (access_generator).
std::vector<std::int64_t> tap_order(const TensorAccessPattern& t, std::int64_t total) {
    std::vector<std::int64_t> order(static_cast<std::size_t>(total), -1);
    std::int64_t step = 0;
    for (auto idx : t.access_order()) order[static_cast<std::size_t>(((idx % total) + total) % total)] = step++;
    return order;
}
} // namespace

TensorAccessSequence TensorAccessSequence::from_taps(std::vector<TensorAccessPattern> taps) {
    if (taps.empty())
        throw DesignError("TensorAccessSequence.from_taps: Received no TensorAccessPatterns; must have at least one "
                          "TensorAccessPatterns to create a TensorAccessSequence.");
    TensorAccessSequence s;
    s.tensor_dims_ = taps.front().tensor_dims();
    for (auto& t : taps) s.append(std::move(t));
    return s;
}

void TensorAccessSequence::append(TensorAccessPattern tap) {
    if (taps_.empty() && tensor_dims_.empty()) tensor_dims_ = tap.tensor_dims();
    if (tap.tensor_dims() != tensor_dims_)
        throw DesignError(fmt::format("TensorAccessSequence: TensorAccessPatterns have multiple tensor dimensions "
                                      "(found [{}] and [{}])",
                                      fmt::join(tensor_dims_, ", "), fmt::join(tap.tensor_dims(), ", ")));
    taps_.push_back(std::move(tap));
}

const TensorAccessPattern& TensorAccessSequence::operator[](std::size_t i) const {
    if (i >= taps_.size())
        throw DesignError(fmt::format("TensorAccessSequence: index {} is out of range (the sequence has {} patterns)",
                                      i, taps_.size()));
    return taps_[i];
}

std::vector<std::int64_t> TensorAccessSequence::access_order() const {
    // tas.py _calc_accesses: each pattern's order is shifted past the highest step so far and
    // summed into the combined map (untouched cells add 0); the result is shifted down by one.
    // An element touched by two patterns therefore holds the sum of both shifted steps, as upstream.
    const std::int64_t total = product(tensor_dims_);
    std::vector<std::int64_t> combined(static_cast<std::size_t>(total), 0);
    std::int64_t highest = 0;
    for (const auto& t : taps_) {
        const auto order = tap_order(t, total);
        for (std::size_t i = 0; i < order.size(); ++i)
            if (order[i] != -1) combined[i] += order[i] + 1 + highest;
        highest = *std::max_element(combined.begin(), combined.end());
    }
    for (auto& v : combined) v -= 1;
    return combined;
}

std::vector<std::int64_t> TensorAccessSequence::access_count() const {
    const std::int64_t total = product(tensor_dims_);
    std::vector<std::int64_t> count(static_cast<std::size_t>(total), 0);
    for (const auto& t : taps_)
        for (auto idx : t.access_order()) ++count[static_cast<std::size_t>(((idx % total) + total) % total)];
    return count;
}

std::string TensorAccessSequence::visualize(std::int64_t max_cells) const {
    std::string out;
    for (std::size_t i = 0; i < taps_.size(); ++i) out += fmt::format("[{}] {}\n", i, taps_[i].str());
    const std::int64_t n = product(tensor_dims_);
    if (n > max_cells)
        return out + fmt::format("(tensor of {} elements is larger than the {}-cell display limit)\n", n, max_cells);
    const std::int64_t cols = tensor_dims_.empty() ? 1 : tensor_dims_.back();
    const auto order = access_order();
    const std::int64_t top = order.empty() ? 0 : *std::max_element(order.begin(), order.end());
    const int width = static_cast<int>(fmt::format("{}", std::max<std::int64_t>(top, 0)).size());
    for (std::int64_t r = 0; r < n / cols; ++r) {
        for (std::int64_t c = 0; c < cols; ++c) {
            const auto v = order[static_cast<std::size_t>(r * cols + c)];
            out += c ? " " : "";
            out += v < 0 ? fmt::format("{:>{}}", ".", width) : fmt::format("{:>{}}", v, width);
        }
        out += "\n";
    }
    return out;
}

} // namespace npusim::iron
