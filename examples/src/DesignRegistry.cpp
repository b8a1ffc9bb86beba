#include "npusim/examples/DesignRegistry.hpp"

#include "Designs.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::examples {

std::vector<std::string> every_device() {
    std::vector<std::string> v;
    for (const auto& d : model::all_devices()) v.push_back(d.name);
    return v;
}

void require_multiple(const std::string& design, const Params& p, const std::string& big, const std::string& small) {
    const auto b = p.at(big), s = p.at(small);
    if (s <= 0 || b <= 0 || b % s != 0)
        throw DesignError(fmt::format("design '{}': parameter {}={} must be a positive multiple of {}={}", design, big, b, small, s));
}

void require_one_of(const std::string& design, const Params& p, const std::string& name, std::vector<std::int64_t> allowed) {
    if (std::find(allowed.begin(), allowed.end(), p.at(name)) == allowed.end())
        throw DesignError(fmt::format("design '{}': parameter {}={} must be one of {}", design, name, p.at(name),
                                      fmt::join(allowed, ", ")));
}

bool DesignSpec::supports(const std::string& device) const {
    return std::find(devices.begin(), devices.end(), device) != devices.end();
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

namespace {
std::vector<DesignSpec>& registry() {
    static std::vector<DesignSpec> designs = {
        make_passthrough_kernel(),
        make_passthrough_dmas(),
        make_vector_scalar_mul(),
        make_vector_vector_add(),
    };
    return designs;
}
} // namespace

const std::vector<DesignSpec>& all_designs() { return registry(); }

void register_design(DesignSpec spec) {
    if (spec.name.empty() || !spec.build) throw DesignError("register_design: a design needs a name and a build function");
    for (const auto& d : registry())
        if (d.name == spec.name) throw DesignError(fmt::format("register_design: a design named '{}' already exists", spec.name));
    registry().push_back(std::move(spec));
}

const DesignSpec& design_by_name(const std::string& name) {
    for (const auto& d : all_designs())
        if (d.name == name) return d;
    std::string known;
    for (const auto& d : all_designs()) known += (known.empty() ? "" : ", ") + d.name;
    throw DesignError(fmt::format("unknown design '{}' (designs: {}); see `npusim list`", name, known));
}

const std::string& default_design() {
    static const std::string d = "passthrough_kernel";
    return d;
}

} // namespace npusim::examples
