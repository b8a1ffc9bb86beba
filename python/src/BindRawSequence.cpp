// The register-level runtime-sequence operations of aie.dialects.aiex for Python (npu_write32,
// npu_maskwrite32, npu_writebd, npu_address_patch, npu_push_queue, npu_sync, set_lock_value): the
// frontend's recorders (frontend/RawSequence.hpp), called while a Runtime's sequence function runs.
#include "Bindings.hpp"

#include "npusim/frontend/RawSequence.hpp"

#include <optional>

namespace npusim::python {

void bind_raw_sequence(py::module_& m) {
    m.def("npu_write32", &iron::npu_write32, py::arg("address"), py::arg("value"), py::arg("column") = py::none(),
          py::arg("row") = py::none());
    m.def("npu_maskwrite32", &iron::npu_maskwrite32, py::arg("address"), py::arg("value"), py::arg("mask"),
          py::arg("column") = py::none(), py::arg("row") = py::none());
    m.def(
        "npu_writebd",
        [](const py::dict& fields) {
            iron::NpuWriteBd bd;
            // every field of the aiex op by its keyword; each one the hardware field
            const std::pair<const char*, int*> ints[] = {
                {"bd_id", &bd.bd_id},
                {"column", &bd.column},
                {"row", &bd.row},
                {"enable_packet", &bd.enable_packet},
                {"out_of_order_id", &bd.out_of_order_id},
                {"packet_id", &bd.packet_id},
                {"packet_type", &bd.packet_type},
                {"d0_size", &bd.d0_size},
                {"d0_stride", &bd.d0_stride},
                {"d0_zero_before", &bd.d0_zero_before},
                {"d0_zero_after", &bd.d0_zero_after},
                {"d1_size", &bd.d1_size},
                {"d1_stride", &bd.d1_stride},
                {"d1_zero_before", &bd.d1_zero_before},
                {"d1_zero_after", &bd.d1_zero_after},
                {"d2_size", &bd.d2_size},
                {"d2_stride", &bd.d2_stride},
                {"d2_zero_before", &bd.d2_zero_before},
                {"d2_zero_after", &bd.d2_zero_after},
                {"iteration_current", &bd.iteration_current},
                {"iteration_size", &bd.iteration_size},
                {"iteration_stride", &bd.iteration_stride},
                {"lock_acq_enable", &bd.lock_acq_enable},
                {"lock_acq_id", &bd.lock_acq_id},
                {"lock_acq_val", &bd.lock_acq_val},
                {"lock_rel_id", &bd.lock_rel_id},
                {"lock_rel_val", &bd.lock_rel_val},
                {"next_bd", &bd.next_bd},
                {"use_next_bd", &bd.use_next_bd},
                {"valid_bd", &bd.valid_bd},
                {"burst_length", &bd.burst_length},
            };
            std::size_t used = 0;
            for (const auto& [key, field] : ints)
                if (fields.contains(key)) {
                    *field = fields[key].cast<int>();
                    ++used;
                }
            for (const char* key : {"buffer_length", "buffer_offset"})
                if (fields.contains(key)) {
                    (std::string(key) == "buffer_length" ? bd.buffer_length : bd.buffer_offset) =
                        fields[key].cast<std::int64_t>();
                    ++used;
                }
            if (used != fields.size()) {
                for (const auto& [k, v] : fields) {
                    const auto key = k.cast<std::string>();
                    bool known = key == "buffer_length" || key == "buffer_offset";
                    for (const auto& [name, field] : ints) known = known || key == name;
                    if (!known) {
                        PyErr_SetString(PyExc_NotImplementedError,
                                        ("aie.dialects.aiex.npu_writebd(" + key + "=) is not a field npusim knows")
                                            .c_str());
                        throw py::error_already_set();
                    }
                }
            }
            iron::npu_writebd(bd);
        },
        py::arg("fields"));
    m.def("npu_address_patch", &iron::npu_address_patch, py::arg("addr"), py::arg("arg_idx"), py::arg("arg_plus"));
    m.def("npu_push_queue", &iron::npu_push_queue, py::arg("column"), py::arg("row"), py::arg("direction"),
          py::arg("channel"), py::arg("issue_token"), py::arg("repeat_count"), py::arg("bd_id"));
    m.def("npu_sync", &iron::npu_sync, py::arg("column"), py::arg("row"), py::arg("direction"), py::arg("channel"),
          py::arg("column_num") = 1, py::arg("row_num") = 1);
    m.def("set_lock_value", &iron::set_lock_value, py::arg("lock"), py::arg("value"));
}

} // namespace npusim::python
