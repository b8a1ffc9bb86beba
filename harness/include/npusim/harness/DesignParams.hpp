#pragma once
// A design's integer parameters (`--param K=V`): their declarations with defaults, and the checks
// designs make on the values they are built with (each a DesignError naming the design).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npusim::harness {

struct ParamSpec {
    std::string name;
    std::int64_t default_value;
    std::string help;
};
using Params = std::map<std::string, std::int64_t>;

/// `big` must be a positive multiple of `small`.
void require_multiple(const std::string& design, const Params& p, const std::string& big, const std::string& small);
/// Parameter `name` must be one of `allowed`.
void require_one_of(const std::string& design, const Params& p, const std::string& name,
                    std::vector<std::int64_t> allowed);
/// Kernels built from AIE-API source work on whole vectors: `param` must be a multiple of `lanes`.
void require_vector_multiple(const std::string& design, const Params& p, const std::string& param, std::int64_t lanes,
                             const std::string& kernel);

} // namespace npusim::harness
