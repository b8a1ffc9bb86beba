// ExternalFunction builds for Python (ExternalBuilds.hpp).
#include "ExternalBuilds.hpp"

#include "npusim/frontend/ExternalFunctionRegistry.hpp"
#include "npusim/harness/KernelCompiler.hpp"
#include "npusim/harness/UpstreamBfpCosts.hpp"
#include "npusim/model/ComputePeak.hpp"
#include "npusim/model/Error.hpp"

#include <pybind11/pybind11.h>

namespace npusim::python {

namespace {
std::string call_text(const ExternalBuildRequest& r) {
    std::string s = "ExternalFunction('" + r.name + "', ";
    s += r.source_file ? "source_file='" + *r.source_file + "'" : std::string("source_string=...");
    if (!r.compile_flags.empty()) {
        s += ", compile_flags=[";
        for (std::size_t i = 0; i < r.compile_flags.size(); ++i) s += (i ? ", '" : "'") + r.compile_flags[i] + "'";
        s += "]";
    }
    return s + ")";
}
} // namespace

void install_runtime_compiler() { harness::install_kernel_compiler(); }
bool has_runtime_compiler() { return static_cast<bool>(iron::external_compiler()); }

iron::ExternalFunction make_external_function(const ExternalBuildRequest& r) {
    iron::ExternalFunctionOptions o;
    o.source_file = r.source_file;
    o.source_string = r.source_string;
    o.include_dirs = r.include_dirs;
    o.compile_flags = r.compile_flags;
    o.arch = r.arch;
    // An upstream kernel npusim has a cost model for (harness/UpstreamBfpCosts.hpp) is charged by
    // it, with the MACs it stands for; any other costs the Kernel default (32 bytes of views a cycle).
    const auto known = harness::upstream_bfp_cost(r.name, r.arg_types, r.compile_flags,
                                                  r.arch.value_or(iron::default_external_arch()));
    if (known) o.cost = known->cost;
    auto with_model = [&known](iron::ExternalFunction f) {
        if (known && known->macs) {
            const model::KernelWork work{known->macs, model::matmul_mac_peak(model::Arch::AIE2P, DType::bfp16ebs8)
                                                          .macs_per_cycle};
            f.with_work([work](std::span<const iron::KernelArg>) { return work; });
        }
        return f;
    };
    // A registered build (found by name, source, flags and include directories) needs no compiler;
    // without one, its lookup's DesignError names the builds that are linked.
    if (has_runtime_compiler() || (r.source_file && !iron::external_builds(r.name).empty()))
        return with_model(iron::ExternalFunction(r.name, r.arg_types, o));
    const std::string msg = call_text(r) +
                            ": compiling a kernel source at run time needs npusim's run-time kernel compiler, which "
                            "this npusim does not have; use a kernel of npusim's library (aie.iron.kernels) or a "
                            "build registered with npusim_add_external_function";
    PyErr_SetString(PyExc_NotImplementedError, msg.c_str());
    throw pybind11::error_already_set();
}

} // namespace npusim::python
