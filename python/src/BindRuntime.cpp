// The runtime sequence for Python: a Runtime whose sequence is a Python callable, run once when
// the program is resolved (as IRON runs it once to emit the runtime_sequence), and the operations
// it calls: fill, drain, task groups and tasks.
#include "Bindings.hpp"

#include "npusim/frontend/Runtime.hpp"

#include <pybind11/functional.h>

namespace npusim::python {

namespace {

iron::Task transfer(const iron::ObjectFifoHandle& h, bool fill, const iron::RuntimeData& data,
                    std::optional<iron::TensorAccessPattern> tap, bool wait, iron::TaskGroup* group,
                    std::optional<std::vector<std::int64_t>> sizes, std::optional<std::vector<std::int64_t>> strides,
                    std::optional<std::int64_t> offset, std::optional<std::int64_t> transfer_len, bool managed) {
    iron::TransferOptions o;
    o.tap = std::move(tap);
    o.wait = wait;
    o.group = group;
    o.sizes = std::move(sizes);
    o.strides = std::move(strides);
    o.offset = offset;
    o.transfer_len = transfer_len;
    o.managed = managed;
    return fill ? h.fill(data, std::move(o)) : h.drain(data, std::move(o));
}

} // namespace

void bind_runtime(py::module_& m) {
    py::class_<iron::RuntimeData>(m, "RuntimeData")
        .def(py::init([](int index, const iron::TensorType& t) { return iron::RuntimeData{index, t}; }))
        .def_readonly("index", &iron::RuntimeData::index)
        .def_readonly("type", &iron::RuntimeData::type);

    py::class_<iron::Runtime>(m, "Runtime");
    m.def(
        "make_runtime",
        [](py::function seq, std::vector<iron::TensorType> tensors, std::vector<iron::ObjectFifoHandle> handles,
           bool strict_task_groups) {
            iron::Runtime rt([] {}, std::tuple<>{}, {.strict_task_groups = strict_task_groups});
            for (const auto& h : handles) rt.add_endpoint(h.endpoint());
            rt.state()->tensors = tensors;
            // The sequence runs when the program is resolved, on the thread that resolves it (which
            // holds the GIL: resolve is called from Python), never during simulation.
            auto fn = std::make_shared<py::function>(std::move(seq));
            rt.state()->run = [fn] {
                py::gil_scoped_acquire gil;
                (*fn)();
            };
            iron::RuntimeArgumentsCheck::run(rt.state()->tensors);
            return rt;
        },
        py::arg("sequence"), py::arg("tensors"), py::arg("handles"), py::arg("strict_task_groups") = true);

    py::class_<iron::TaskGroup>(m, "TaskGroup")
        .def(py::init<>())
        .def("finish", &iron::TaskGroup::finish)
        .def_property_readonly("id", &iron::TaskGroup::id);
    py::class_<iron::Task>(m, "Task").def("await_", &iron::Task::await_).def("free", &iron::Task::free);

    for (const bool fill : {true, false})
        m.def(
            fill ? "fill" : "drain",
            [fill](const iron::ObjectFifoHandle& h, const iron::RuntimeData& data,
                   std::optional<iron::TensorAccessPattern> tap, bool wait, iron::TaskGroup* group,
                   std::optional<std::vector<std::int64_t>> sizes, std::optional<std::vector<std::int64_t>> strides,
                   std::optional<std::int64_t> offset, std::optional<std::int64_t> transfer_len, bool managed) {
                return transfer(h, fill, data, std::move(tap), wait, group, std::move(sizes), std::move(strides),
                                offset, transfer_len, managed);
            },
            py::arg("handle"), py::arg("data"), py::arg("tap") = py::none(), py::arg("wait") = false,
            py::arg("group") = nullptr, py::arg("sizes") = py::none(), py::arg("strides") = py::none(),
            py::arg("offset") = py::none(), py::arg("transfer_len") = py::none(), py::arg("managed") = true);
}

} // namespace npusim::python
