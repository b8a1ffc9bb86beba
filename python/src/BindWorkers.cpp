// Workers for Python: the recorded-body builder the tracer fills, the worker made from a
// recording, and kernels by symbol name (ExternalFunction); the library's factories are
// BindKernelLibrary.cpp.
#include "Bindings.hpp"
#include "ExternalBuilds.hpp"

#include "npusim/frontend/RecordedBody.hpp"
#include "npusim/frontend/CascadeFlow.hpp"
#include "npusim/harness/KernelCompiler.hpp"
#include "npusim/model/Error.hpp"

namespace npusim::python {

namespace rec = iron::recorded;

namespace {

/// A Python operand: ("r", register), an int (bool included) or a float.
rec::Operand operand(const py::handle& h) {
    if (py::isinstance<py::tuple>(h)) return rec::Operand::r(h.cast<py::tuple>()[1].cast<int>());
    if (py::isinstance<py::float_>(h)) return rec::Operand::immf(h.cast<double>());
    if (py::isinstance<py::int_>(h) || py::isinstance<py::bool_>(h)) return rec::Operand::imm(h.cast<std::int64_t>());
    // numpy scalars and anything else with __index__ / __float__
    if (py::hasattr(h, "__index__")) return rec::Operand::imm(h.attr("__index__")().cast<std::int64_t>());
    if (py::hasattr(h, "__float__")) return rec::Operand::immf(h.attr("__float__")().cast<double>());
    throw py::type_error("npusim: a worker body used a " + std::string(py::str(py::type::of(h).attr("__name__"))) +
                         " where a number or an element value is needed");
}

std::vector<iron::ArgType> arg_types(const py::list& types) {
    std::vector<iron::ArgType> out;
    for (const auto& t : types) {
        if (py::isinstance<iron::TensorType>(t))
            out.emplace_back(t.cast<iron::TensorType>());
        else
            out.emplace_back(t.cast<iron::ScalarType>());
    }
    return out;
}

} // namespace

void bind_workers(py::module_& m) {
    py::class_<rec::RecordedBody, std::shared_ptr<rec::RecordedBody>>(m, "RecordedBody")
        .def_readonly("name", &rec::RecordedBody::name)
        .def_property_readonly("statements", [](const rec::RecordedBody& b) { return b.stmts.size(); });

    py::class_<rec::Builder>(m, "BodyBuilder")
        .def(py::init<std::string>(), py::arg("name"))
        .def("acquire", &rec::Builder::acquire, py::arg("fifo"), py::arg("n"))
        .def("release", &rec::Builder::release, py::arg("fifo"), py::arg("n"))
        .def("call",
             [](rec::Builder& b, int kernel, const py::list& args) {
                 std::vector<rec::KernelOperand> ks;
                 for (const auto& a : args) {
                     rec::KernelOperand k;
                     if (py::isinstance<py::tuple>(a) && a.cast<py::tuple>()[0].cast<std::string>() == "e") {
                         k.is_element = true;
                         k.elem = a.cast<py::tuple>()[1].cast<int>();
                     } else {
                         k.scalar = operand(a);
                     }
                     ks.push_back(k);
                 }
                 b.call(kernel, std::move(ks));
             })
        .def("loop_begin", [](rec::Builder& b, const py::object& start, const py::object& stop,
                              const py::object& step) { return b.loop_begin(operand(start), operand(stop), operand(step)); })
        .def("loop_end", &rec::Builder::loop_end)
        .def("if_begin", [](rec::Builder& b, const py::object& cond) { return b.if_begin(operand(cond)); })
        .def("if_end", &rec::Builder::if_end)
        .def("else_begin", &rec::Builder::else_begin, py::arg("if_id"))
        .def("else_end", &rec::Builder::else_end)
        .def("load", [](rec::Builder& b, int elem, const py::object& i) { return b.load(elem, operand(i)); })
        .def("store", [](rec::Builder& b, int elem, const py::object& i, const py::object& v) {
            b.store(elem, operand(i), operand(v));
        })
        .def("binary", [](rec::Builder& b, const std::string& op, const py::object& x, const py::object& y) {
            return b.binary(rec::binop_from_name(op), operand(x), operand(y));
        })
        .def("buffer_view", &rec::Builder::buffer_view)
        .def("element_view", &rec::Builder::element_view, py::arg("elem"), py::arg("byte_offset"), py::arg("type"))
        .def("barrier_wait", &rec::Builder::barrier_wait)
        .def("barrier_release", &rec::Builder::barrier_release)
        .def("cycles", &rec::Builder::cycles)
        .def("lock_acquire", &rec::Builder::lock_acquire, py::arg("lock"), py::arg("value"), py::arg("exact"))
        .def("lock_release", &rec::Builder::lock_release, py::arg("lock"), py::arg("value"))
        .def_property_readonly("depth", &rec::Builder::depth)
        .def("finish", [](rec::Builder& b) { return std::const_pointer_cast<rec::RecordedBody>(b.finish()); });

    py::class_<iron::Worker>(m, "Worker").def_property_readonly("name", &iron::Worker::name);
    // CascadeFlow(src, dst): declares the cascade edge; the kernels the bodies call move the words.
    py::class_<iron::CascadeFlow>(m, "CascadeFlow")
        .def(py::init<const iron::Worker&, const iron::Worker&>(), py::arg("src"), py::arg("dst"));
    m.def(
        "make_worker",
        [](const std::shared_ptr<rec::RecordedBody>& body, std::vector<iron::ObjectFifoHandle> fifos,
           std::vector<iron::Kernel> kernels, std::vector<iron::Buffer> buffers,
           std::vector<iron::WorkerRuntimeBarrier> barriers, std::optional<iron::Tile> tile, bool while_true,
           std::uint32_t stack_size, const std::string& name, bool trace, std::vector<iron::Lock> locks) {
            iron::WorkerOptions o;
            if (tile) o.tile = *tile;
            o.while_true = while_true;
            o.stack_size = stack_size;
            o.name = name;
            o.trace = trace;
            return rec::make_worker(body,
                                    {.fifos = std::move(fifos), .kernels = std::move(kernels),
                                     .buffers = std::move(buffers), .barriers = std::move(barriers),
                                     .locks = std::move(locks)},
                                    std::move(o));
        },
        py::arg("body"), py::arg("fifos"), py::arg("kernels"), py::arg("buffers"), py::arg("barriers"),
        py::arg("tile") = py::none(), py::arg("while_true") = true, py::arg("stack_size") = 0x400,
        py::arg("name") = "", py::arg("trace") = false, py::arg("locks") = std::vector<iron::Lock>{});

    py::class_<iron::Kernel>(m, "Kernel")
        .def_property_readonly("name", &iron::Kernel::name)
        .def_property_readonly("arg_count", [](const iron::Kernel& k) { return k.arg_types().size(); })
        .def("arg_type", [](const iron::Kernel& k, std::size_t i) { return k.arg_types().at(i).str(); })
        .def(
            "call_cycles",
            [](const iron::Kernel& k) {
                // the cost model on one call with views of the declared sizes and zero scalars
                std::vector<iron::KernelArg> args;
                for (const auto& t : k.arg_types()) {
                    iron::KernelArg a;
                    a.is_view = t.is_tensor;
                    a.dtype = t.dtype;
                    a.elements = t.elements;
                    args.push_back(a);
                }
                return k.cost(args);
            },
            "Cycles the kernel's cost model charges one call on views of its declared sizes (no call overhead).");
    m.def(
        "external_function",
        [](const std::string& name, const py::list& types, std::optional<std::string> source_file,
           std::optional<std::string> source_string, std::vector<std::string> include_dirs,
           std::vector<std::string> compile_flags, std::optional<std::string> arch) -> iron::Kernel {
            std::optional<model::Arch> a;
            if (arch) a = *arch == "aie2" ? model::Arch::AIE2 : model::Arch::AIE2P;
            return make_external_function({name, std::move(source_file), std::move(source_string),
                                           std::move(include_dirs), std::move(compile_flags), arg_types(types), a});
        },
        py::arg("name"), py::arg("arg_types"), py::arg("source_file") = py::none(),
        py::arg("source_string") = py::none(), py::arg("include_dirs") = std::vector<std::string>{},
        py::arg("compile_flags") = std::vector<std::string>{}, py::arg("arch") = py::none());
    m.def("has_runtime_compiler", &has_runtime_compiler);
    m.def("kernel_compiler_stats", [] {
        const auto st = harness::kernel_compiler_stats();
        return py::dict(py::arg("compiles") = st.compiles, py::arg("cache_hits") = st.cache_hits);
    }, "How many kernel sources this process compiled, and how many requests the cache answered.");
    m.def("aie_api_include_dirs", [] {
        std::vector<std::string> out;
        for (const auto& d : harness::aie_api_include_dirs()) out.push_back(d.string());
        return out;
    }, "The AIE-API host layer's include directories kernel sources compile against.");
    // Kernel sources of Python designs are compiled as C++ designs' are (harness/KernelCompiler).
    install_runtime_compiler();
}

} // namespace npusim::python
