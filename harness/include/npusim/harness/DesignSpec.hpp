#pragma once
// A design as the registry holds it: its name, parameters, the devices and kernel builds it
// supports, and the function that builds it for one device and parameter set.
#include "npusim/harness/DesignInstance.hpp"
#include "npusim/harness/DesignParams.hpp"
#include "npusim/harness/KernelSet.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace npusim::harness {

/// What a design's build function gets besides the device and the parameters.
struct BuildOptions {
    std::uint64_t seed = 1; ///< seeds the generated inputs
    KernelSet kernels = KernelSet::reference;
    BuildOptions() = default;
    /// A seed alone converts, so `spec.build(dev, params, seed)` reads naturally.
    BuildOptions(std::uint64_t s, KernelSet k = KernelSet::reference)
        : seed(s), kernels(k) {} // NOLINT(google-explicit-constructor)
};

struct DesignSpec {
    std::string name;
    std::string description;
    std::vector<ParamSpec> params;
    std::vector<std::string> devices; ///< devices the design supports
    /// Kernel builds the design can bind. Designs without a kernel list only `reference`, and
    /// say why in `kernels_note` ("no kernel: ...").
    std::vector<KernelSet> kernel_sets = {KernelSet::reference};
    std::string kernels_note;
    /// The aiecc `--alloc-scheme` the design is built with (its build options; IRON designs pass
    /// it to aiecc in their Makefile). `npusim run --alloc-scheme` overrides it.
    iron::AllocScheme alloc_scheme = iron::AllocScheme::Default;
    /// How its float outputs are compared with the golden reference: the comparison its upstream
    /// test makes (ToleranceMode::nearly_equal for a design checked with mlir-aie's verify.py
    /// nearly_equal). `npusim run --tolerance` overrides it.
    ToleranceMode tolerance = ToleranceMode::allclose;
    std::function<DesignInstance(const model::DeviceSpec& dev, const Params& params, const BuildOptions& opts)> build;

    bool supports(const std::string& device) const;
    bool supports(KernelSet k) const;
    /// Only the reference build and a note saying why: the design has no kernel to rebuild, and
    /// listings show the note instead of the kernel sets.
    bool kernels_note_only() const;
    /// Defaults overridden by `overrides`; an unknown name or a bad value is a DesignError.
    Params resolve_params(const Params& overrides) const;
    /// "M=512 dtype_in=i16": each parameter as `--param` takes it, a named one by its name (a key
    /// the design does not declare by its number); "" for none.
    std::string params_text(const Params& params) const;
};

/// Every device name, for designs that run anywhere.
std::vector<std::string> every_device();

} // namespace npusim::harness
