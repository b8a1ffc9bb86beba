#include "npusim/frontend/ExternalFunctionRegistry.hpp"

#include <deque>
#include <mutex>
#include <utility>

namespace npusim::iron {

namespace {
struct Registry {
    std::mutex mutex;
    std::deque<ExternalBuild> builds; // a deque: pointers stay valid as builds are added
    ExternalCompiler compiler;
    model::Arch default_arch = model::Arch::AIE2P;
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

ExternalCompiler set_external_compiler(ExternalCompiler compiler) {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    std::swap(r.compiler, compiler);
    return compiler;
}

ExternalCompiler external_compiler() {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    return r.compiler;
}

model::Arch default_external_arch() {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    return r.default_arch;
}

void set_default_external_arch(model::Arch arch) {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    r.default_arch = arch;
}

} // namespace npusim::iron
