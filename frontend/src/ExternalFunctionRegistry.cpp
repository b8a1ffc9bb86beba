#include "npusim/frontend/ExternalFunctionRegistry.hpp"

#include <deque>
#include <mutex>

namespace npusim::iron {

namespace {
struct Registry {
    std::mutex mutex;
    std::deque<ExternalBuild> builds; // a deque: pointers stay valid as builds are added
};
Registry& registry() {
    static Registry r;
    return r;
}
} // namespace

bool register_external_function(ExternalBuild build) {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    r.builds.push_back(std::move(build));
    return true;
}

std::vector<const ExternalBuild*> external_builds(const std::string& name) {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    std::vector<const ExternalBuild*> out;
    for (const auto& b : r.builds)
        if (b.name == name) out.push_back(&b);
    return out;
}

} // namespace npusim::iron
