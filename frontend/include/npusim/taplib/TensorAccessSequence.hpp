#pragma once
// TensorAccessSequence (IRON taplib, python/helpers/taplib/tas.py): an ordered list of
// TensorAccessPatterns over one tensor, as the tilers produce them, with the combined access
// order / count of applying them one after the other and their visualisation.
#include "npusim/frontend/TensorAccessPattern.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::iron {

class TensorAccessSequence {
public:
    TensorAccessSequence() = default;
    /// tas.py from_taps: at least one pattern, all over the same tensor dimensions.
    static TensorAccessSequence from_taps(std::vector<TensorAccessPattern> taps);

    std::size_t size() const { return taps_.size(); }
    bool empty() const { return taps_.empty(); }
    /// tas[i]; an index outside the sequence is a DesignError naming the length.
    const TensorAccessPattern& operator[](std::size_t i) const;
    auto begin() const { return taps_.begin(); }
    auto end() const { return taps_.end(); }
    const std::vector<TensorAccessPattern>& taps() const { return taps_; }
    const std::vector<std::int64_t>& tensor_dims() const { return tensor_dims_; }
    /// Append a pattern over the same tensor dimensions (tas.py insert/append).
    void append(TensorAccessPattern tap);

    /// tas.py access_order(): for each tensor element (flat, row-major) the step at which the
    /// sequence touches it last, counting steps across all patterns in order; -1 if never.
    /// Indices wrap modulo the tensor size as tap.py access_generator does.
    std::vector<std::int64_t> access_order() const;
    /// tas.py access_count(): how many times each element is touched by the whole sequence.
    std::vector<std::int64_t> access_count() const;
    /// The access order as an aligned text grid (rows = all dimensions but the last), "." for
    /// untouched elements; each pattern's line (str()) above it.
    std::string visualize(std::int64_t max_cells = 4096) const;

private:
    std::vector<std::int64_t> tensor_dims_;
    std::vector<TensorAccessPattern> taps_;
};

} // namespace npusim::iron
