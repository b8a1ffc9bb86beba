#pragma once
// The canonical IRON designs re-expressed in C++, each registered by name with its parameters,
// the devices it runs on and its golden reference (plain C++ computations, independent of the
// simulator).
#include "npusim/frontend/Program.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace npusim::examples {

struct ParamSpec {
    std::string name;
    std::int64_t default_value;
    std::string help;
};
using Params = std::map<std::string, std::int64_t>;

/// The result of comparing one output tensor with its golden reference.
struct OutputCheck {
    std::string name;             ///< "c (arg 2)"
    bool match = false;
    std::uint64_t elements = 0;
    std::uint64_t mismatches = 0;
    std::string first_mismatches; ///< "[7] got 3 want 4; [9] ..."
};

/// A design built for one device and parameter set, with its inputs and golden check.
struct DesignInstance {
    iron::Program program;
    std::vector<std::vector<std::uint8_t>> host;   ///< initial contents of every host tensor
    std::function<std::vector<OutputCheck>(const std::vector<std::vector<std::uint8_t>>& host)> check;
};

struct DesignSpec {
    std::string name;
    std::string description;
    std::vector<ParamSpec> params;
    std::vector<std::string> devices;   ///< devices the design supports
    std::function<DesignInstance(const model::DeviceSpec& dev, const Params& params, std::uint64_t seed)> build;

    bool supports(const std::string& device) const;
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

// ---- golden helpers ----
template <class T>
std::vector<T> from_bytes(const std::vector<std::uint8_t>& b);
template <class T>
std::vector<std::uint8_t> to_bytes(const std::vector<T>& v);
/// Exact comparison of an output tensor with the expected values.
template <class T>
OutputCheck compare_exact(const std::string& name, const std::vector<std::uint8_t>& got, const std::vector<T>& want);

} // namespace npusim::examples

#include "npusim/examples/DesignRegistry.inl"
