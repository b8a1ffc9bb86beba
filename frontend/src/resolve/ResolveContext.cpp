#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

ResolveContext::ResolveContext(const Program& p, const ResolveOptions& o) : program(p), opts(o), dev(p.device()) {
    net.device = &dev;
    net.design = program.name();
}

model::CoreProgram& ResolveContext::core_of(WorkerState* w) {
    return net.cores[static_cast<std::size_t>(worker_core.at(w))];
}

LinkPlan& ResolveContext::plan_of(LinkState* l) { return links[link_index.at(l)]; }

} // namespace npusim::iron::detail
