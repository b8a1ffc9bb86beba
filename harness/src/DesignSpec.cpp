#include "npusim/harness/DesignSpec.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::harness {

std::vector<std::string> every_device() {
    std::vector<std::string> v;
    for (const auto& d : model::all_devices()) v.push_back(d.name);
    return v;
}

bool DesignSpec::supports(const std::string& device) const {
    return std::find(devices.begin(), devices.end(), device) != devices.end();
}

bool DesignSpec::supports(KernelSet k) const {
    return std::find(kernel_sets.begin(), kernel_sets.end(), k) != kernel_sets.end();
}

bool DesignSpec::kernels_note_only() const {
    return kernel_sets.size() == 1 && kernel_sets[0] == KernelSet::reference && !kernels_note.empty();
}

Params DesignSpec::resolve_params(const Params& overrides) const {
    Params p;
    for (const auto& s : params) p[s.name] = s.default_value;
    for (const auto& [k, v] : overrides) {
        if (!p.count(k)) {
            std::string known;
            for (const auto& s : params) known += (known.empty() ? "" : ", ") + s.name;
            throw DesignError(fmt::format("design '{}' has no parameter '{}' (parameters: {})", name, k,
                                          known.empty() ? std::string("none") : known));
        }
        p[k] = v;
    }
    return p;
}

} // namespace npusim::harness
