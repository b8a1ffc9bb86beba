#include "npusim/harness/DesignSpec.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

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
        const auto& spec = *std::find_if(params.begin(), params.end(), [&](const ParamSpec& s) { return s.name == k; });
        const auto given = param_code_name(v);
        if (spec.named()) {
            // a name, or (an already resolved value) an index into the names
            std::int64_t index = -1;
            if (given) {
                const auto it = std::find(spec.names.begin(), spec.names.end(), *given);
                if (it != spec.names.end()) index = it - spec.names.begin();
            } else if (v >= 0 && v < static_cast<std::int64_t>(spec.names.size()))
                index = v;
            if (index < 0)
                throw DesignError(fmt::format("design '{}': parameter {}={} is not one of {}", name, k,
                                              given ? *given : std::to_string(v), fmt::join(spec.names, ", ")));
            p[k] = index;
        } else {
            if (given)
                throw DesignError(fmt::format("design '{}': parameter {} takes an integer, got '{}'", name, k, *given));
            p[k] = v;
        }
    }
    return p;
}

std::string DesignSpec::params_text(const Params& values) const {
    std::string t;
    for (const auto& [k, v] : values) {
        const auto p = std::find_if(params.begin(), params.end(), [&k = k](const ParamSpec& x) { return x.name == k; });
        t += fmt::format("{}{}={}", t.empty() ? "" : " ", k, p != params.end() ? p->value_str(v) : std::to_string(v));
    }
    return t;
}

} // namespace npusim::harness
