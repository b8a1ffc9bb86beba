#pragma once
// The canonical IRON designs re-expressed in C++, each registered by name with its parameters,
// the devices it runs on, its runtime arguments, seed-generated inputs, and its golden reference:
// a plain C++ function (numpy-style, independent of the simulator) from the inputs to the
// expected outputs.
#include "npusim/examples/OutputCheck.hpp"
#include "npusim/examples/Tensor.hpp"
#include "npusim/frontend/Program.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::examples {

struct ParamSpec {
    std::string name;
    std::int64_t default_value;
    std::string help;
};
using Params = std::map<std::string, std::int64_t>;

/// Which build of a design's kernels to bind: the reference C++ kernels (kernels_ref/) or the
/// AIE-API kernel sources (kernels_ref/aie/, npusim::aie_kernels) compiled through the host layer.
enum class KernelSet { reference, aie };
std::string_view kernel_set_name(KernelSet k);   ///< "ref", "aie"
/// "ref" (or "reference") / "aie"; anything else is a DesignError.
KernelSet kernel_set_by_name(const std::string& name);

/// What a design's build function gets besides the device and the parameters.
struct BuildOptions {
    std::uint64_t seed = 1;                       ///< seeds the generated inputs
    KernelSet kernels = KernelSet::reference;
    BuildOptions() = default;
    /// A seed alone converts, so `spec.build(dev, params, seed)` reads naturally.
    BuildOptions(std::uint64_t s, KernelSet k = KernelSet::reference) : seed(s), kernels(k) {}   // NOLINT(google-explicit-constructor)
};

/// The expected contents of every output argument, computed from the inputs.
using ReferenceFn = std::function<Tensors(const Tensors& inputs)>;

/// A design built for one device and parameter set: the program, its runtime arguments, the
/// seed-generated inputs and the golden reference.
struct DesignInstance {
    iron::Program program;
    std::vector<ArgSpec> args;   ///< one per runtime-sequence tensor argument, in order
    Tensors inputs;              ///< seed-generated contents of every input argument
    ReferenceFn reference;       ///< inputs -> expected contents of every output argument
    /// The initial host tensors for `inputs` as built (host_tensors(inputs)): the simulator's input.
    std::vector<std::vector<std::uint8_t>> host;

    /// Checks that `args` agree with the program's runtime arguments (count, dtype, shape), that
    /// names are unique, and that `inputs` holds every input argument with its type; DesignError
    /// naming `design` otherwise.
    DesignInstance(iron::Program program, std::vector<ArgSpec> args, Tensors inputs, ReferenceFn reference,
                   const std::string& design);

    /// Index of the argument called `name`, or -1.
    int arg_index(const std::string& name) const;
    /// One byte vector per argument: the given inputs, zeros for outputs and unused arguments.
    std::vector<std::vector<std::uint8_t>> host_tensors(const Tensors& inputs) const;
    /// The reference's outputs for `inputs`, checked against the output arguments (DesignError).
    Tensors expected(const Tensors& inputs) const;
    /// Compare the output tensors of `host_after` (one byte vector per argument, as the simulator
    /// returns them) with reference(inputs). Tolerances are the arguments' own.
    std::vector<OutputCheck> check(const Tensors& inputs, const std::vector<std::vector<std::uint8_t>>& host_after) const;
    /// check(this->inputs, host_after): for runs fed with `host`.
    std::vector<OutputCheck> check(const std::vector<std::vector<std::uint8_t>>& host_after) const;

private:
    std::string design_;
};

struct DesignSpec {
    std::string name;
    std::string description;
    std::vector<ParamSpec> params;
    std::vector<std::string> devices;   ///< devices the design supports
    /// Kernel builds the design can bind. Designs without a kernel list only `reference`, and
    /// say why in `kernels_note` ("no kernel: ...").
    std::vector<KernelSet> kernel_sets = {KernelSet::reference};
    std::string kernels_note;
    std::function<DesignInstance(const model::DeviceSpec& dev, const Params& params, const BuildOptions& opts)> build;

    bool supports(const std::string& device) const;
    bool supports(KernelSet k) const;
    /// Defaults overridden by `overrides`; an unknown name or a bad value is a DesignError.
    Params resolve_params(const Params& overrides) const;
};

const std::vector<DesignSpec>& all_designs();
/// Add a design (user designs, test designs); the name must be new.
void register_design(DesignSpec spec);
/// Throws DesignError listing the known names.
const DesignSpec& design_by_name(const std::string& name);
/// The design `npusim` runs without arguments.
const std::string& default_design();

// ---- byte helpers ----
template <class T>
std::vector<T> from_bytes(const std::vector<std::uint8_t>& b);
template <class T>
std::vector<std::uint8_t> to_bytes(const std::vector<T>& v);

} // namespace npusim::examples

#include "npusim/examples/DesignRegistry.inl"
