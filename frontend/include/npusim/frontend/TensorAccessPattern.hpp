#pragma once
// TensorAccessPattern (IRON taplib): offset + 4 sizes + 4 strides over a tensor, in elements,
// outermost first: address = offset + sum_k i_k * stride_k. The outermost dimension of a shim
// transfer becomes the BD repeat/iteration dimension.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npusim::iron {

class TensorAccessPattern {
public:
    TensorAccessPattern() = default;
    /// sizes/strides of 1..4 entries are padded on the outside with size 1, stride 0.
    TensorAccessPattern(std::vector<std::int64_t> tensor_dims, std::int64_t offset, std::vector<std::int64_t> sizes,
                        std::vector<std::int64_t> strides);

    const std::vector<std::int64_t>& tensor_dims() const { return tensor_dims_; }
    std::int64_t offset() const { return offset_; }
    const std::array<std::int64_t, 4>& sizes() const { return sizes_; }
    const std::array<std::int64_t, 4>& strides() const { return strides_; }
    std::int64_t transfer_elements() const; ///< product of sizes
    std::int64_t tensor_elements() const;
    std::int64_t min_index() const; ///< smallest element index touched
    std::int64_t max_index() const; ///< largest element index touched

    /// Element indices in access order.
    std::vector<std::int64_t> access_order() const;
    /// For each tensor element, the step at which it is accessed (-1 if never; the last access
    /// when accessed more than once) — the table users check taps with.
    std::vector<std::int64_t> access_map() const;
    /// Text rendering: the tensor (2-D view: rows = all but the last dim) with each cell showing
    /// its access step, aligned; "." for elements not accessed.
    std::string visualize(std::int64_t max_cells = 4096) const;
    std::string str() const; ///< "tap(offset=0, sizes=[1,1,1,1024], strides=[0,0,0,1])"

    /// simple_tiler((rows, cols)) equivalent: one linear transfer of the whole tensor.
    static TensorAccessPattern linear(std::vector<std::int64_t> tensor_dims);

private:
    std::vector<std::int64_t> tensor_dims_;
    std::int64_t offset_ = 0;
    std::array<std::int64_t, 4> sizes_{1, 1, 1, 1};
    std::array<std::int64_t, 4> strides_{0, 0, 0, 1};
};

} // namespace npusim::iron
