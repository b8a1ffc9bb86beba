// The extension module npusim._npusim: one PYBIND11_MODULE calling each binding unit's init.
#include "Bindings.hpp"

PYBIND11_MODULE(_npusim, m) {
    m.doc() = "npusim: the simulator behind the npusim Python package (use npusim, npusim.iron)";
    npusim::python::bind_errors(m);
    npusim::python::bind_types(m);
    npusim::python::bind_dataflow(m);
    npusim::python::bind_workers(m);
    npusim::python::bind_runtime(m);
    npusim::python::bind_program(m);
    npusim::python::bind_taplib(m);
    npusim::python::bind_low_level(m);
    npusim::python::bind_bfloat16(m);
    npusim::python::bind_kernel_library(m);
    npusim::python::bind_kernel_library_split(m);
    npusim::python::bind_kernel_symbols(m);
    npusim::python::bind_raw_sequence(m);
}
