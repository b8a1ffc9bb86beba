// ObjectFifo and its handles, Buffer and WorkerRuntimeBarrier for Python (the design-time objects;
// their run-time operations are recorded by the Python tracer, or run in the runtime sequence).
#include "Bindings.hpp"

#include "npusim/frontend/Buffer.hpp"
#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/frontend/ObjectFifoLink.hpp"
#include "npusim/frontend/WorkerRuntimeBarrier.hpp"

#include <optional>

namespace npusim::python {

namespace {

using Dims = std::vector<std::pair<std::int64_t, std::int64_t>>; // StreamDims / PadDims

iron::StreamDims stream_dims(const Dims& d) { return d; }

} // namespace

void bind_dataflow(py::module_& m) {
    py::class_<iron::ObjectFifoHandle>(m, "ObjectFifoHandle")
        .def_property_readonly("name", &iron::ObjectFifoHandle::name)
        .def_property_readonly("depth", &iron::ObjectFifoHandle::depth)
        .def_property_readonly("obj_type", &iron::ObjectFifoHandle::obj_type)
        .def_property_readonly("is_producer", &iron::ObjectFifoHandle::is_producer)
        .def("set_endpoint", &iron::ObjectFifoHandle::set_endpoint, py::arg("tile"),
             "Put a producer end on a mem tile, which sends the fifo's init_values (no other producer).")
        .def(
            "forward",
            [](const iron::ObjectFifoHandle& h, std::optional<iron::TensorType> obj_type, std::optional<int> depth,
               const std::string& name, std::optional<iron::Tile> tile, const Dims& dims_to_stream,
               const Dims& dims_from_stream, std::optional<int> repeat_count, const Dims& pad_dimensions,
               std::int64_t pad_value) {
                iron::ForwardOptions o;
                o.tile = tile.value_or(iron::AnyMemTile);
                o.obj_type = std::move(obj_type);
                o.depth = depth;
                o.name = name;
                o.dims_to_stream = dims_to_stream;
                o.dims_from_stream = dims_from_stream;
                o.repeat_count = repeat_count;
                o.pad_dimensions = pad_dimensions;
                o.pad_value = pad_value;
                return h.forward(std::move(o));
            },
            py::arg("obj_type") = py::none(), py::arg("depth") = py::none(), py::arg("name") = "",
            py::arg("tile") = py::none(), py::arg("dims_to_stream") = Dims{}, py::arg("dims_from_stream") = Dims{},
            py::arg("repeat_count") = py::none(), py::arg("pad_dimensions") = Dims{}, py::arg("pad_value") = 0)
        .def(
            "link",
            [](const iron::ObjectFifoHandle& h, bool split, std::vector<std::int64_t> offsets,
               std::vector<iron::TensorType> types, std::vector<std::string> names, std::vector<int> depths,
               std::optional<iron::Tile> tile, std::vector<Dims> dims_to_stream, std::vector<Dims> dims_from_stream,
               std::vector<std::optional<int>> repeat_counts, std::vector<Dims> pad_dimensions,
               std::vector<std::int64_t> pad_value) {
                iron::LinkOptions o;
                o.tile = tile.value_or(iron::AnyMemTile);
                o.obj_types = std::move(types);
                o.names = std::move(names);
                o.depths = std::move(depths);
                o.dims_to_stream = std::move(dims_to_stream);
                o.dims_from_stream = std::move(dims_from_stream);
                o.repeat_counts = std::move(repeat_counts);
                o.pad_dimensions = std::move(pad_dimensions);
                o.pad_value = std::move(pad_value);
                return split ? h.split(std::move(offsets), std::move(o)) : h.join(std::move(offsets), std::move(o));
            },
            py::arg("split"), py::arg("offsets"), py::arg("obj_types"), py::arg("names"), py::arg("depths"),
            py::arg("tile") = py::none(), py::arg("dims_to_stream") = std::vector<Dims>{},
            py::arg("dims_from_stream") = std::vector<Dims>{},
            py::arg("repeat_counts") = std::vector<std::optional<int>>{},
            py::arg("pad_dimensions") = std::vector<Dims>{}, py::arg("pad_value") = std::vector<std::int64_t>{},
            "split (split=True, on a consumer handle) or join (on a producer handle) with IRON's keywords.");

    // ObjectFifoLink(srcs, dsts, tile, src_offsets, dst_offsets): the explicit link forward/split/join build.
    m.def(
        "object_fifo_link",
        [](std::vector<iron::ObjectFifoHandle> srcs, std::vector<iron::ObjectFifoHandle> dsts,
           std::optional<iron::Tile> tile, std::vector<std::int64_t> src_offsets, std::vector<std::int64_t> dst_offsets) {
            iron::ObjectFifoLink(std::move(srcs), std::move(dsts), tile.value_or(iron::AnyMemTile),
                                 std::move(src_offsets), std::move(dst_offsets));
        },
        py::arg("srcs"), py::arg("dsts"), py::arg("tile") = py::none(),
        py::arg("src_offsets") = std::vector<std::int64_t>{}, py::arg("dst_offsets") = std::vector<std::int64_t>{});

    py::class_<iron::ObjectFifo>(m, "ObjectFifo")
        .def(py::init([](const iron::TensorType& t, std::optional<std::string> name, int depth,
                         const std::vector<std::pair<std::int64_t, std::int64_t>>& dims_to_stream,
                         std::vector<py::bytes> init_values, std::optional<int> repeat_count, const Dims& pad_dimensions,
                         std::int64_t pad_value, std::optional<iron::TensorType> consumer_obj_type, bool via_dma,
                         bool disable_synchronization, std::optional<iron::Tile> delegate_tile) {
                 iron::FifoOptions o;
                 o.dims_to_stream = stream_dims(dims_to_stream);
                 o.repeat_count = repeat_count;
                 o.pad_dimensions = pad_dimensions;
                 o.pad_value = pad_value;
                 o.consumer_obj_type = std::move(consumer_obj_type);
                 o.via_dma = via_dma;
                 o.disable_synchronization = disable_synchronization;
                 o.delegate_tile = std::move(delegate_tile);
                 for (const auto& b : init_values) {
                     const std::string s = b;
                     o.init_values.emplace_back(s.begin(), s.end());
                 }
                 return name ? iron::ObjectFifo(t, *name, depth, std::move(o)) : iron::ObjectFifo(t, depth, std::move(o));
             }),
             py::arg("obj_type"), py::arg("name") = py::none(), py::arg("depth") = 2,
             py::arg("dims_to_stream") = std::vector<std::pair<std::int64_t, std::int64_t>>{},
             py::arg("init_values") = std::vector<py::bytes>{}, py::arg("repeat_count") = py::none(),
             py::arg("pad_dimensions") = Dims{}, py::arg("pad_value") = 0, py::arg("consumer_obj_type") = py::none(),
             py::arg("via_dma") = false, py::arg("disable_synchronization") = false,
             py::arg("delegate_tile") = py::none())
        // stream_port: IRON's ObjectFifo(aie_stream=(end, port)) on this end (Port::stream).
        .def(
            "prod",
            [](const iron::ObjectFifo& f, std::optional<int> depth, std::optional<iron::Tile> tile,
               std::optional<int> stream_port) {
                iron::ProdOptions o;
                o.depth = depth;
                o.tile = tile;
                if (stream_port) o.port = iron::Port::stream(*stream_port);
                return f.prod(o);
            },
            py::arg("depth") = py::none(), py::arg("tile") = py::none(), py::arg("stream_port") = py::none())
        .def(
            "cons",
            [](const iron::ObjectFifo& f, std::optional<int> depth, std::optional<iron::Tile> tile,
               const std::vector<std::pair<std::int64_t, std::int64_t>>& dims_from_stream,
               std::optional<int> stream_port) {
                iron::ConsOptions o;
                o.depth = depth;
                o.tile = tile;
                o.dims_from_stream = stream_dims(dims_from_stream);
                if (stream_port) o.port = iron::Port::stream(*stream_port);
                return f.cons(o);
            },
            py::arg("depth") = py::none(), py::arg("tile") = py::none(),
            py::arg("dims_from_stream") = std::vector<std::pair<std::int64_t, std::int64_t>>{},
            py::arg("stream_port") = py::none())
        .def_property_readonly("name", &iron::ObjectFifo::name)
        .def_property_readonly("depth", &iron::ObjectFifo::depth)
        .def_property_readonly("obj_type", &iron::ObjectFifo::obj_type)
        .def("set_iter_count", &iron::ObjectFifo::set_iter_count);

    py::class_<iron::Buffer>(m, "Buffer")
        .def(py::init([](const iron::TensorType& t, const std::string& name, const py::bytes& init,
                         std::optional<iron::Tile> tile, bool use_write_rtp) {
                 const std::string s = init;
                 iron::Buffer b(t, name, std::vector<std::uint8_t>(s.begin(), s.end()), std::move(tile));
                 b.use_write_rtp(use_write_rtp);
                 return b;
             }),
             py::arg("type"), py::arg("name"), py::arg("initial_bytes") = py::bytes(), py::arg("tile") = py::none(),
             py::arg("use_write_rtp") = false)
        .def_property_readonly("name", &iron::Buffer::name)
        .def_property_readonly("type", &iron::Buffer::type)
        .def(
            "write",
            [](const iron::Buffer& b, std::int64_t index, const py::object& v) {
                if (py::isinstance<py::float_>(v))
                    b[index] = v.cast<double>();
                else
                    b[index] = v.cast<std::int64_t>();
            },
            "In the runtime sequence: rtp[index] = value.");

    py::class_<iron::WorkerRuntimeBarrier>(m, "WorkerRuntimeBarrier")
        .def(py::init<int, std::string>(), py::arg("initial_value") = 0, py::arg("name") = "")
        .def_property_readonly("name", &iron::WorkerRuntimeBarrier::name)
        .def("set", &iron::WorkerRuntimeBarrier::set, py::arg("value"));
}

} // namespace npusim::python
