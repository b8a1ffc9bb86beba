#pragma once
// TensorTiler2D (IRON taplib, python/helpers/taplib/tensortiler2d.py): factories of
// TensorAccessSequences for 2-D tilings, with upstream's parameters and generated
// offsets/sizes/strides. A 1-D tensor/tile dimension list is read as (1, n) (utils.py
// validate_tensor_dims). Every ValueError upstream raises is a DesignError with its text.
#include "npusim/taplib/TensorAccessSequence.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace npusim::iron {

/// simple_tiler's keyword options (field order as upstream's signature, so designated
/// initializers read as the Python call: {.tile_col_major = true, .pattern_repeat = 4}).
struct SimpleTilerOptions {
    bool tile_col_major = false; ///< iterate column major within each tile
    bool iter_col_major = false; ///< iterate column major over tiles within the sequence
    std::int64_t pattern_repeat = 1; ///< access each tile n times per pattern (dimension 0, stride 0)
    bool prune_step = true; ///< merge repeats into one bigger tile where possible
};

/// group_tiler's and step_tiler's keyword options. C++ designated initializers must follow this
/// order (group_tiler's: step_tiler swaps allow_partial and pattern_repeat upstream).
struct GroupTilerOptions {
    bool tile_col_major = false;
    bool tile_group_col_major = false; ///< iterate column major between tiles of a group
    bool iter_col_major = false;
    std::int64_t pattern_repeat = 1;
    bool allow_partial = false; ///< allow tile groups cut by the tensor edge
    bool prune_step = true;
};
using StepTilerOptions = GroupTilerOptions;

class TensorTiler2D {
public:
    TensorTiler2D() = delete; // upstream: "cannot be instantiated"; a factory only

    /// One pattern per tile (tile_dims defaults to the whole tensor: one linear pattern).
    static TensorAccessSequence simple_tiler(const std::vector<std::int64_t>& tensor_dims,
                                             std::optional<std::vector<std::int64_t>> tile_dims = std::nullopt,
                                             SimpleTilerOptions o = {});
    /// One pattern per group of tile_group_dims tiles (default (1, 1)).
    static TensorAccessSequence group_tiler(const std::vector<std::int64_t>& tensor_dims,
                                            const std::vector<std::int64_t>& tile_dims,
                                            std::optional<std::vector<std::int64_t>> tile_group_dims = std::nullopt,
                                            GroupTilerOptions o = {});
    /// The general tiler: tile_group_repeats tiles per pattern in each dimension, tile_group_steps
    /// tiles apart (default (1, 1)).
    static TensorAccessSequence step_tiler(const std::vector<std::int64_t>& tensor_dims,
                                           const std::vector<std::int64_t>& tile_dims,
                                           const std::vector<std::int64_t>& tile_group_repeats,
                                           std::optional<std::vector<std::int64_t>> tile_group_steps = std::nullopt,
                                           StepTilerOptions o = {});
};

} // namespace npusim::iron
