// TensorTiler2D for Python: the C++ tilers (frontend/src/TensorTiler2D.cpp, the one home of the
// tiling rule) return their patterns as (offset, sizes, strides) rows, from which
// npusim.helpers.taplib builds IRON's TensorAccessPattern / TensorAccessSequence objects.
#include "Bindings.hpp"

#include "npusim/taplib/TensorTiler2D.hpp"

#include <optional>
#include <tuple>
#include <vector>

namespace npusim::python {

namespace {

using Dims = std::vector<std::int64_t>;
using Row = std::tuple<std::int64_t, Dims, Dims>;

std::vector<Row> rows(const iron::TensorAccessSequence& seq) {
    std::vector<Row> out;
    out.reserve(seq.size());
    for (const auto& t : seq)
        out.emplace_back(t.offset(), Dims(t.sizes().begin(), t.sizes().end()),
                         Dims(t.strides().begin(), t.strides().end()));
    return out;
}

} // namespace

void bind_taplib(py::module_& m) {
    m.def(
        "step_tiler",
        [](const Dims& tensor_dims, const Dims& tile_dims, const Dims& repeats, std::optional<Dims> steps,
           bool tile_col_major, bool tile_group_col_major, bool iter_col_major, std::int64_t pattern_repeat,
           bool allow_partial, bool prune_step, const std::string& which) {
            const iron::StepTilerOptions o{.tile_col_major = tile_col_major,
                                           .tile_group_col_major = tile_group_col_major,
                                           .iter_col_major = iter_col_major,
                                           .pattern_repeat = pattern_repeat,
                                           .allow_partial = allow_partial,
                                           .prune_step = prune_step};
            // group_tiler and simple_tiler are step_tiler with steps (1, 1); calling them by name
            // keeps their names in the error texts.
            if (which == "group_tiler") return rows(iron::TensorTiler2D::group_tiler(tensor_dims, tile_dims, repeats, o));
            if (which == "simple_tiler")
                return rows(iron::TensorTiler2D::simple_tiler(
                    tensor_dims, tile_dims,
                    {.tile_col_major = tile_col_major, .iter_col_major = iter_col_major,
                     .pattern_repeat = pattern_repeat, .prune_step = prune_step}));
            return rows(iron::TensorTiler2D::step_tiler(tensor_dims, tile_dims, repeats, std::move(steps), o));
        },
        py::arg("tensor_dims"), py::arg("tile_dims"), py::arg("tile_group_repeats"), py::arg("tile_group_steps"),
        py::arg("tile_col_major"), py::arg("tile_group_col_major"), py::arg("iter_col_major"),
        py::arg("pattern_repeat"), py::arg("allow_partial"), py::arg("prune_step"), py::arg("which"),
        "TensorTiler2D's patterns as (offset, sizes, strides) rows; `which` names the upstream factory.");
}

} // namespace npusim::python
