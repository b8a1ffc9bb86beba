#include "npusim/harness/DesignRegistry.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::harness {

namespace {
// List order: ascending position, then name.
bool listed_before(int position_a, const std::string& name_a, int position_b, const std::string& name_b) {
    return position_a != position_b ? position_a < position_b : name_a < name_b;
}
} // namespace

void DesignRegistry::add(DesignSpec spec, int list_position) {
    if (spec.name.empty() || !spec.build)
        throw DesignError("register_design: a design needs a name and a build function");
    for (const auto& d : designs_)
        if (d.name == spec.name)
            throw DesignError(fmt::format("register_design: a design named '{}' already exists", spec.name));
    std::size_t at = 0;
    while (at < designs_.size() && !listed_before(list_position, spec.name, positions_[at], designs_[at].name)) ++at;
    designs_.insert(designs_.begin() + static_cast<std::ptrdiff_t>(at), std::move(spec));
    positions_.insert(positions_.begin() + static_cast<std::ptrdiff_t>(at), list_position);
}

void DesignRegistry::add_deferred(Factory factory, int list_position) { deferred_.push_back({factory, list_position}); }

void DesignRegistry::run_deferred() {
    // In position order, so that of two registrations with one name the later-listed one fails.
    std::stable_sort(deferred_.begin(), deferred_.end(),
                     [](const Deferred& a, const Deferred& b) { return a.list_position < b.list_position; });
    while (!deferred_.empty()) {
        const Deferred d = deferred_.front();
        deferred_.erase(deferred_.begin());
        add(d.factory(), d.list_position);
    }
}

const std::vector<DesignSpec>& DesignRegistry::designs() {
    run_deferred();
    return designs_;
}

int DesignRegistry::next_position() {
    run_deferred();
    return positions_.empty() ? 0 : positions_.back() + 1;
}

const DesignSpec& DesignRegistry::by_name(const std::string& name) {
    for (const auto& d : designs())
        if (d.name == name) return d;
    std::string known;
    for (const auto& d : designs_) known += (known.empty() ? "" : ", ") + d.name;
    throw DesignError(fmt::format("unknown design '{}' (designs: {}); see `npusim list`", name, known));
}

DesignRegistry& design_registry() {
    static DesignRegistry registry;
    return registry;
}

const std::vector<DesignSpec>& all_designs() { return design_registry().designs(); }

void register_design(DesignSpec spec) {
    auto& r = design_registry();
    const int position = r.next_position();
    r.add(std::move(spec), position);
}

const DesignSpec& design_by_name(const std::string& name) { return design_registry().by_name(name); }

const std::string& default_design() {
    static const std::string d = "passthrough_kernel";
    return d;
}

DesignRegistration::DesignRegistration(DesignRegistry::Factory factory, int list_position) {
    design_registry().add_deferred(factory, list_position);
}

} // namespace npusim::harness
