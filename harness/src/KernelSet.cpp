#include "npusim/harness/KernelSet.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::harness {

std::string_view kernel_set_name(KernelSet k) { return k == KernelSet::aie ? "aie" : "ref"; }

std::optional<KernelSet> parse_kernel_set(std::string_view name) {
    if (name == "ref" || name == "reference") return KernelSet::reference;
    if (name == "aie") return KernelSet::aie;
    return std::nullopt;
}

KernelSet kernel_set_by_name(const std::string& name) {
    if (const auto k = parse_kernel_set(name)) return *k;
    throw DesignError(fmt::format("unknown kernel set '{}' (kernel sets: ref, aie)", name));
}

} // namespace npusim::harness
