// TensorTiler2D: a re-expression of mlir-aie python/helpers/taplib/tensortiler2d.py (step_tiler and
// its private helpers __get_num_steps, __tile_offset_by_step_num, __sizes_strides_for_step_tile_group)
// and utils.py (validate_tensor_dims, validate_and_clean_sizes_strides).
#include "npusim/taplib/TensorTiler2D.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <string>

namespace npusim::iron {

namespace {

using Dims2 = std::array<std::int64_t, 2>;

std::int64_t ceildiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::string list_str(const std::vector<std::int64_t>& v) { return fmt::format("[{}]", fmt::join(v, ", ")); }

// utils.py validate_tensor_dims(dims, expected_dims=2): every entry >= 1; a 1-D list is (1, n).
Dims2 validate_dims(const std::string& where, const std::vector<std::int64_t>& dims) {
    if (dims.empty())
        throw DesignError(
            fmt::format("{}: Number of tensor dimensions must be >= 1 (dimensions={})", where, list_str(dims)));
    for (auto d : dims)
        if (d <= 0)
            throw DesignError(
                fmt::format("{}: Each tensor dimension must be >= 1 (dimensions={})", where, list_str(dims)));
    if (dims.size() == 1) return {1, dims[0]};
    if (dims.size() != 2)
        throw DesignError(
            fmt::format("{}: Tensor dimension ({}) does not match expected dimension (2)", where, list_str(dims)));
    return {dims[0], dims[1]};
}

// utils.py validate_and_clean_sizes_strides: leading size-1 dimensions get stride 0 (all but the
// last dimension).
void clean(std::array<std::int64_t, 4>& sizes, std::array<std::int64_t, 4>& strides) {
    for (std::size_t i = 0; i + 1 < sizes.size(); ++i) {
        if (sizes[i] != 1) break;
        strides[i] = 0;
    }
}

// __get_num_steps: patterns needed per dimension to cover the tensor.
Dims2 num_steps(const Dims2& tensor, const Dims2& tile, const Dims2& step, const Dims2& repeat) {
    Dims2 out{};
    for (std::size_t d = 0; d < 2; ++d) {
        const std::int64_t tiles = tensor[d] / tile[d];
        const std::int64_t block = step[d] * repeat[d];
        const std::int64_t full_blocks = block > 0 ? tiles / block : 0;
        const std::int64_t from_blocks = block > 0 ? full_blocks * step[d] : 0;
        const std::int64_t leftover = tiles - block * full_blocks;
        const std::int64_t leftover_block = step[d] * (leftover / step[d]);
        const std::int64_t from_leftover = leftover_block > 0 ? (leftover / leftover_block) * step[d] : leftover;
        out[d] = from_blocks + from_leftover;
    }
    return out;
}

// __tile_offset_by_step_num: (tile row, tile column) of pattern `step`.
Dims2 tile_offset(std::int64_t step, const Dims2& group_steps, const Dims2& group_repeats, const Dims2& steps,
                  bool iter_col_major) {
    const auto [steps_per_col, steps_per_row] = steps;
    const std::int64_t row_idx = iter_col_major ? step / steps_per_col : step % steps_per_row;
    const std::int64_t col_idx = iter_col_major ? step % steps_per_col : step / steps_per_row;
    const std::int64_t col_chunk = col_idx / group_steps[0], row_chunk = row_idx / group_steps[1];
    const std::int64_t col_in_chunk = col_idx % group_steps[0], row_in_chunk = row_idx % group_steps[1];
    return {col_chunk * group_steps[0] * group_repeats[0] + col_in_chunk,
            row_chunk * group_steps[1] * group_repeats[1] + row_in_chunk};
}

struct SizesStrides {
    std::array<std::int64_t, 4> sizes, strides;
};

// __sizes_strides_for_step_tile_group
SizesStrides sizes_strides(const std::string& where, const Dims2& tensor, Dims2 tile, Dims2 step, Dims2 repeat,
                           const Dims2& offset, const StepTilerOptions& o) {
    const std::int64_t remaining_h = tensor[0] / tile[0] - offset[0];
    const std::int64_t remaining_w = tensor[1] / tile[1] - offset[1];
    repeat[1] = std::min(repeat[1], ceildiv(remaining_w, step[1]));
    repeat[0] = std::min(repeat[0], ceildiv(remaining_h, step[0]));
    if (step[0] > remaining_h) step[0] = 1;
    if (step[1] > remaining_w) step[1] = 1;
    if (o.prune_step) {
        if (o.tile_group_col_major && step[0] == 1 && repeat[0] > 1 && !o.tile_col_major) {
            tile[0] *= repeat[0]; // one tall tile
            repeat[0] = 1;
        } else if (!o.tile_group_col_major && step[1] == 1 && repeat[1] > 1 && o.tile_col_major) {
            tile[1] *= repeat[1]; // one wide tile
            repeat[1] = 1;
        }
    }
    const std::int64_t width = tensor[1];
    SizesStrides r{o.tile_col_major ? std::array<std::int64_t, 4>{1, 1, tile[1], tile[0]}
                                    : std::array<std::int64_t, 4>{1, 1, tile[0], tile[1]},
                   o.tile_col_major ? std::array<std::int64_t, 4>{0, 0, 1, width}
                                    : std::array<std::int64_t, 4>{0, 0, width, 1}};
    if (repeat[1] > 1 && repeat[0] > 1) {
        const std::size_t h = o.tile_group_col_major ? 1 : 0, w = o.tile_group_col_major ? 0 : 1;
        r.sizes[h] = repeat[0];
        r.sizes[w] = repeat[1];
        r.strides[h] = width * tile[0] * step[0];
        r.strides[w] = tile[1] * step[1];
    } else if (repeat[0] > 1) {
        r.sizes[1] = repeat[0];
        r.strides[1] = width * tile[0] * step[0];
    } else if (repeat[1] > 1) {
        r.sizes[1] = repeat[1];
        r.strides[1] = tile[1] * step[1];
    }
    clean(r.sizes, r.strides);
    if (o.pattern_repeat != 1) {
        // only dimension 0 may repeat with stride 0 on the AIE, so the repeat always goes there
        if (r.sizes[0] != 1 || r.strides[0] != 0)
            throw DesignError(fmt::format("{}: Ran out of dimensions for repeat (sizes=[{}], strides=[{}])", where,
                                          fmt::join(r.sizes, ", "), fmt::join(r.strides, ", ")));
        r.sizes[0] = o.pattern_repeat;
    }
    clean(r.sizes, r.strides);
    return r;
}

TensorAccessSequence step_tiler_impl(const std::string& where, const std::vector<std::int64_t>& tensor_dims,
                                     const std::vector<std::int64_t>& tile_dims,
                                     const std::vector<std::int64_t>& tile_group_repeats,
                                     const std::vector<std::int64_t>& tile_group_steps, const StepTilerOptions& o) {
    const Dims2 tensor = validate_dims(where, tensor_dims);
    const Dims2 tile = validate_dims(where, tile_dims);
    Dims2 repeat = validate_dims(where, tile_group_repeats);
    Dims2 step = validate_dims(where, tile_group_steps);
    for (std::size_t d = 0; d < 2; ++d)
        if (tensor[d] % tile[d] != 0)
            throw DesignError(fmt::format("{}: Tensor dimension {} ({}) is not divisible by tile dim ({})", where, d,
                                          tensor[d], tile[d]));
    if (o.pattern_repeat < 1)
        throw DesignError(fmt::format("{}: Pattern repeat must be >= 1 but is {}", where, o.pattern_repeat));
    if (!o.allow_partial)
        for (std::size_t d = 0; d < 2; ++d)
            if (tensor[d] % (tile[d] * repeat[d] * step[d]) != 0)
                throw DesignError(fmt::format(
                    "{}: allow_partial=False but tensor does not divide evenly into tile groups in dimension {}", where,
                    d));
    // prune repeats and steps larger than the tensor
    for (std::size_t d = 0; d < 2; ++d) {
        repeat[d] = std::min(repeat[d], ceildiv(tensor[d] / tile[d], step[d]));
        if (step[d] > tensor[d] / tile[d]) step[d] = 1;
    }
    const Dims2 steps = num_steps(tensor, tile, step, repeat);
    const std::vector<std::int64_t> dims{tensor[0], tensor[1]};
    std::vector<TensorAccessPattern> taps;
    for (std::int64_t s = 0; s < steps[0] * steps[1]; ++s) {
        const Dims2 off = tile_offset(s, step, repeat, steps, o.iter_col_major);
        const std::int64_t offset = off[0] * tile[0] * tensor[1] + off[1] * tile[1];
        const auto ss = sizes_strides(where, tensor, tile, step, repeat, off, o);
        taps.emplace_back(dims, offset, std::vector<std::int64_t>(ss.sizes.begin(), ss.sizes.end()),
                          std::vector<std::int64_t>(ss.strides.begin(), ss.strides.end()));
    }
    return TensorAccessSequence::from_taps(std::move(taps));
}

} // namespace

TensorAccessSequence TensorTiler2D::simple_tiler(const std::vector<std::int64_t>& tensor_dims,
                                                 std::optional<std::vector<std::int64_t>> tile_dims,
                                                 SimpleTilerOptions o) {
    return step_tiler_impl("TensorTiler2D.simple_tiler", tensor_dims, tile_dims.value_or(tensor_dims), {1, 1}, {1, 1},
                           {.tile_col_major = o.tile_col_major,
                            .iter_col_major = o.iter_col_major,
                            .pattern_repeat = o.pattern_repeat,
                            .prune_step = o.prune_step});
}

TensorAccessSequence TensorTiler2D::group_tiler(const std::vector<std::int64_t>& tensor_dims,
                                                const std::vector<std::int64_t>& tile_dims,
                                                std::optional<std::vector<std::int64_t>> tile_group_dims,
                                                GroupTilerOptions o) {
    return step_tiler_impl("TensorTiler2D.group_tiler", tensor_dims, tile_dims,
                           tile_group_dims.value_or(std::vector<std::int64_t>{1, 1}), {1, 1}, o);
}

TensorAccessSequence TensorTiler2D::step_tiler(const std::vector<std::int64_t>& tensor_dims,
                                               const std::vector<std::int64_t>& tile_dims,
                                               const std::vector<std::int64_t>& tile_group_repeats,
                                               std::optional<std::vector<std::int64_t>> tile_group_steps,
                                               StepTilerOptions o) {
    return step_tiler_impl("TensorTiler2D.step_tiler", tensor_dims, tile_dims, tile_group_repeats,
                           tile_group_steps.value_or(std::vector<std::int64_t>{1, 1}), o);
}

} // namespace npusim::iron
