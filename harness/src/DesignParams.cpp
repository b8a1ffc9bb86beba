#include "npusim/harness/DesignParams.hpp"

#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <mutex>

namespace npusim::harness {

void require_multiple(const std::string& design, const Params& p, const std::string& big, const std::string& small) {
    const auto b = p.at(big), s = p.at(small);
    if (s <= 0 || b <= 0 || b % s != 0)
        throw DesignError(
            fmt::format("design '{}': parameter {}={} must be a positive multiple of {}={}", design, big, b, small, s));
}

namespace {
// Names given on the command line, interned: code = kNameCodeBase + index.
constexpr std::int64_t kNameCodeBase = std::numeric_limits<std::int64_t>::min() / 2;
struct NameTable {
    std::mutex mu;
    std::vector<std::string> names;
};
NameTable& name_table() {
    static NameTable t;
    return t;
}
} // namespace

std::int64_t param_name_code(const std::string& name) {
    auto& t = name_table();
    std::lock_guard lock(t.mu);
    const auto it = std::find(t.names.begin(), t.names.end(), name);
    if (it != t.names.end()) return kNameCodeBase + (it - t.names.begin());
    t.names.push_back(name);
    return kNameCodeBase + static_cast<std::int64_t>(t.names.size() - 1);
}

std::optional<std::string> param_code_name(std::int64_t v) {
    auto& t = name_table();
    std::lock_guard lock(t.mu);
    if (v < kNameCodeBase || v >= kNameCodeBase + static_cast<std::int64_t>(t.names.size())) return std::nullopt;
    return t.names[static_cast<std::size_t>(v - kNameCodeBase)];
}

bool param_takes_names(const std::string& key) {
    for (const auto& d : all_designs())
        for (const auto& p : d.params)
            if (p.name == key && p.named()) return true;
    return false;
}

std::string ParamSpec::value_str(std::int64_t v) const {
    if (named() && v >= 0 && v < static_cast<std::int64_t>(names.size())) return names[static_cast<std::size_t>(v)];
    if (auto n = param_code_name(v)) return *n;
    return std::to_string(v);
}

std::string ParamSpec::describe() const {
    if (!named()) return fmt::format("{}={}", name, default_value);
    return fmt::format("{}={}{{{}}}", name, value_str(default_value), fmt::join(names, ","));
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
