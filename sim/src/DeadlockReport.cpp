#include "DeadlockReport.hpp"

#include <set>

namespace npusim::sim {

std::string lock_releasers_text(const model::Netlist& net, const model::LockActors& actors) {
    std::set<std::string> who;
    for (const auto& r : actors.releasers) who.insert(model::actor_name(net, r.actor));
    std::string s;
    for (const auto& w : who) s += (s.empty() ? "" : ", ") + w;
    return s.empty() ? std::string("nobody") : s;
}

} // namespace npusim::sim
