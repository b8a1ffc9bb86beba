// Type descriptors, tiles, devices and tensor access patterns for Python.
#include "Bindings.hpp"

#include "npusim/frontend/TensorAccessPattern.hpp"
#include "npusim/frontend/Tile.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Error.hpp"

#include <array>
#include <optional>
#include <utility>

namespace npusim::python {

DType dtype_from_name(const std::string& name) {
    static constexpr std::array<std::pair<const char*, DType>, 18> kNames{{
        {"int8", DType::i8}, {"uint8", DType::u8}, {"int16", DType::i16}, {"uint16", DType::u16}, {"int32", DType::i32},
        {"uint32", DType::u32}, {"float32", DType::f32}, {"bfloat16", DType::bf16},
        {"i8", DType::i8}, {"u8", DType::u8}, {"i16", DType::i16}, {"u16", DType::u16}, {"i32", DType::i32},
        {"u32", DType::u32}, {"f32", DType::f32}, {"bf16", DType::bf16},
        {"v8bfp16ebs8", DType::bfp16ebs8}, {"bfp16ebs8", DType::bfp16ebs8},
    }};
    for (const auto& [n, t] : kNames)
        if (name == n) return t;
    throw DesignError("element type '" + name +
                      "' is not one npusim simulates (int8, uint8, int16, uint16, int32, uint32, float32, bfloat16)");
}

void bind_types(py::module_& m) {
    py::class_<iron::TensorType>(m, "TensorType")
        .def(py::init([](const std::string& dtype, std::vector<std::int64_t> shape) {
                 return iron::TensorType{dtype_from_name(dtype), std::move(shape)};
             }),
             py::arg("dtype"), py::arg("shape"))
        .def_property_readonly("dtype", [](const iron::TensorType& t) { return std::string(dtype_name(t.dtype)); })
        .def_readonly("shape", &iron::TensorType::shape)
        .def_property_readonly("elements", &iron::TensorType::elements)
        .def_property_readonly("bytes", &iron::TensorType::bytes)
        .def("__eq__", [](const iron::TensorType& a, const iron::TensorType& b) { return a == b; })
        .def("__repr__", &iron::TensorType::str);
    py::class_<iron::ScalarType>(m, "ScalarType")
        .def(py::init([](const std::string& dtype) { return iron::ScalarType{dtype_from_name(dtype)}; }))
        .def_property_readonly("dtype", [](const iron::ScalarType& s) { return std::string(dtype_name(s.dtype)); });

    py::class_<iron::Tile>(m, "Tile")
        .def(py::init<int, int>(), py::arg("col"), py::arg("row"))
        .def_static("any_compute", [] { return iron::AnyComputeTile; })
        .def_static("any_mem", [] { return iron::AnyMemTile; })
        .def_static("any_shim", [] { return iron::AnyShimTile; })
        // A new unplaced tile of a kind ("core", "mem", "shim_noc"), optionally with a column or row:
        // IRON's Tile(tile_type=..., col=...), one logical tile of its own (Tile::logical).
        .def_static(
            "unplaced",
            [](const std::string& kind, std::optional<int> col, std::optional<int> row) {
                iron::Tile t = iron::Tile::any(kind == "mem"     ? iron::TileKind::Mem
                                               : kind == "core" ? iron::TileKind::Compute
                                                                : iron::TileKind::Shim);
                t.col = col;
                t.row = row;
                return t;
            },
            py::arg("kind"), py::arg("col") = py::none(), py::arg("row") = py::none())
        .def_property_readonly("col", [](const iron::Tile& t) { return t.col; })
        .def_property_readonly("row", [](const iron::Tile& t) { return t.row; })
        .def("__repr__", &iron::Tile::str);

    m.def("devices", [] {
        std::vector<py::tuple> out;
        for (const auto& d : model::all_devices())
            out.push_back(py::make_tuple(d.name, d.iron_class, d.cols, std::string(model::arch_name(d.arch))));
        return out;
    }, "Every device: (name, IRON class, columns, generation).");
    m.def("device_name", [](const std::string& name) { return model::device_by_name(name).name; },
          "The canonical name of a device (npu2, NPU2Col1, ...); DesignError listing the known ones.");

    py::class_<iron::TensorAccessPattern>(m, "TensorAccessPattern")
        .def(py::init<std::vector<std::int64_t>, std::int64_t, std::vector<std::int64_t>, std::vector<std::int64_t>>(),
             py::arg("tensor_dims"), py::arg("offset"), py::arg("sizes"), py::arg("strides"))
        .def_property_readonly("tensor_dims", &iron::TensorAccessPattern::tensor_dims)
        .def_property_readonly("offset", &iron::TensorAccessPattern::offset)
        .def_property_readonly("sizes", [](const iron::TensorAccessPattern& t) {
            return std::vector<std::int64_t>(t.sizes().begin(), t.sizes().end());
        })
        .def_property_readonly("strides", [](const iron::TensorAccessPattern& t) {
            return std::vector<std::int64_t>(t.strides().begin(), t.strides().end());
        })
        .def("access_order", &iron::TensorAccessPattern::access_order)
        .def("access_map", &iron::TensorAccessPattern::access_map)
        .def("visualize", &iron::TensorAccessPattern::visualize, py::arg("max_cells") = 4096)
        .def("__repr__", &iron::TensorAccessPattern::str);
}

} // namespace npusim::python
