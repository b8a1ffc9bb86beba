#pragma once
// ExternalFunction (IRON python/iron/kernel.py): a kernel bound by name to a C/C++ or AIE-API source.
// On the NPU, IRON compiles the source for the core when the design is built. npusim runs it on the
// host, from one of two builds:
//   - a build linked at CMake time by npusim_add_external_function(target SOURCE f.cc NAME fn
//     COMPILE_FLAGS -DDIM_M=64 ...) (cmake/NpusimExternalFunction.cmake): ExternalFunction("fn", ...)
//     picks the linked build whose source file, compile flags and include directories match its own
//     (IRON's same-name-different-content rule: two builds of one name with different flags are
//     different functions);
//   - otherwise (source_string, or a source_file no linked build matches) a build made at run time
//     by the installed run-time compiler (set_external_compiler; npusim::harness's KernelCompiler
//     compiles for the host against the AIE-API host layer, with the generation's defines, and
//     caches the shared library by content). Without one installed, such sources are refused with a
//     DesignError.
//
// Calls are checked as IRON checks them (ExternalFunction.__call__, _validate_arg): the argument
// count, scalars against scalar types, and views against tensor types, where a view of an N-D
// object matches a 1-D type of the same dtype and element count (kernel.py
// _maybe_collapse_to_match: a contiguous N-D memref collapses to the 1-D signature).
#include "npusim/frontend/ExternalFunctionRegistry.hpp"
#include "npusim/frontend/Kernel.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace npusim::iron {

/// IRON's keyword arguments (field order as upstream's signature), plus npusim's cost model.
struct ExternalFunctionOptions {
    std::optional<std::string> source_file{}; ///< the source the build was made from
    std::optional<std::string> source_string{}; ///< compiled at run time (IRON: used only without source_file)
    std::vector<std::string> include_dirs{};
    std::vector<std::string> compile_flags{};
    /// npusim: the generation a run-time build is compiled for (its __AIE_ARCH__); empty:
    /// default_external_arch()
    std::optional<model::Arch> arch{};
    CostModel cost{}; ///< cycles per call (npusim); empty: the Kernel default, 32 B of views per cycle
};

class ExternalFunction : public Kernel {
public:
    ExternalFunction(std::string name, std::vector<ArgType> arg_types, ExternalFunctionOptions o = {});

    /// The build this function runs.
    const ExternalBuild& build() const { return *build_; }
    /// IRON tile_size(i): the first dimension of tensor argument i.
    std::int64_t tile_size(std::size_t arg_index = 0) const;

    /// Call inside a worker body, checked as IRON's ExternalFunction.__call__ checks.
    template <class... A>
    void operator()(A&&... args) const {
        validate_count(sizeof...(A));
        std::size_t i = 0;
        (validate_arg(i++, args), ...);
        const std::array<KernelArg, sizeof...(A)> v{to_kernel_arg(std::forward<A>(args))...};
        call_args(std::span<const KernelArg>(v.data(), v.size()));
    }

private:
    ExternalFunction(const ExternalBuild* build, std::string name, std::vector<ArgType> arg_types, CostModel cost);
    static const ExternalBuild* find_build(const std::string& name, const std::vector<ArgType>& arg_types,
                                           const ExternalFunctionOptions& o);
    void validate_count(std::size_t n) const;
    void validate_arg(std::size_t i, const Element& e) const;
    void validate_arg(std::size_t i, const ElementGroup& g) const { validate_arg(i, g.single()); }
    template <class T>
    void validate_arg(std::size_t i, const T&) const requires std::is_arithmetic_v<std::remove_cvref_t<T>> {
        validate_scalar(i);
    }
    void validate_scalar(std::size_t i) const;
    static KernelArg to_kernel_arg(const Element& e) { return Kernel::arg(e); }
    static KernelArg to_kernel_arg(const ElementGroup& g) { return Kernel::arg(g.single()); }
    template <class T>
    static KernelArg to_kernel_arg(T v) requires std::is_arithmetic_v<std::remove_cvref_t<T>> {
        if constexpr (std::is_floating_point_v<std::remove_cvref_t<T>>)
            return Kernel::arg(static_cast<double>(v));
        else
            return Kernel::arg(static_cast<std::int64_t>(v));
    }
    const ExternalBuild* build_ = nullptr;
};

} // namespace npusim::iron
