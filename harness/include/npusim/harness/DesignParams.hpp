#pragma once
// A design's parameters (`--param K=V`): their declarations with defaults, and the checks designs
// make on the values they are built with (each a DesignError naming the design).
//
// A parameter is an integer, or a name from a list (`names`, e.g. dtype_in: i8, i16, bf16). A named
// parameter's value is the index of its name in that list (resolved Params always hold integers);
// an override may give the name itself as param_name_code(name) (what `--param dtype_in=i8`
// stores), which resolve_params turns into the index, or a DesignError listing the allowed names.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npusim::harness {

struct ParamSpec {
    std::string name;
    std::int64_t default_value;
    std::string help;
    /// Allowed names, for a parameter whose values are names; default_value is an index into it.
    std::vector<std::string> names = {};

    bool named() const { return !names.empty(); }
    /// "512", or the name for a named parameter ("i16").
    std::string value_str(std::int64_t v) const;
    /// "M=512", or "dtype_in=i16{i8,i16,bf16}" for a named parameter (its default, then the allowed names).
    std::string describe() const;
};
using Params = std::map<std::string, std::int64_t>;

/// The code an override carries for a name given on the command line (`--param dtype_in=i8`): a
/// value far outside any integer parameter's range, the same for the same name within a process.
std::int64_t param_name_code(const std::string& name);
/// The name behind a param_name_code, if `v` is one.
std::optional<std::string> param_code_name(std::int64_t v);
/// Whether some registered design has a named parameter called `key` (the command line accepts a
/// name as its value; other parameters take integers).
bool param_takes_names(const std::string& key);

/// `big` must be a positive multiple of `small`.
void require_multiple(const std::string& design, const Params& p, const std::string& big, const std::string& small);
/// Parameter `name` must be one of `allowed`.
void require_one_of(const std::string& design, const Params& p, const std::string& name,
                    std::vector<std::int64_t> allowed);
/// Kernels built from AIE-API source work on whole vectors: `param` must be a multiple of `lanes`.
void require_vector_multiple(const std::string& design, const Params& p, const std::string& param, std::int64_t lanes,
                             const std::string& kernel);

} // namespace npusim::harness
