#include "npusim/harness/DesignParams.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::harness {

void require_multiple(const std::string& design, const Params& p, const std::string& big, const std::string& small) {
    const auto b = p.at(big), s = p.at(small);
    if (s <= 0 || b <= 0 || b % s != 0)
        throw DesignError(
            fmt::format("design '{}': parameter {}={} must be a positive multiple of {}={}", design, big, b, small, s));
}

void require_one_of(const std::string& design, const Params& p, const std::string& name,
                    std::vector<std::int64_t> allowed) {
    if (std::find(allowed.begin(), allowed.end(), p.at(name)) == allowed.end())
        throw DesignError(fmt::format("design '{}': parameter {}={} must be one of {}", design, name, p.at(name),
                                      fmt::join(allowed, ", ")));
}

void require_vector_multiple(const std::string& design, const Params& p, const std::string& param, std::int64_t lanes,
                             const std::string& kernel) {
    if (p.at(param) % lanes != 0)
        throw DesignError(
            fmt::format("design '{}': the AIE-API {} kernel works on whole 512-bit vectors of {} elements; parameter "
                        "{}={} is not a multiple of {}",
                        design, kernel, lanes, param, p.at(param), lanes));
}

} // namespace npusim::harness
