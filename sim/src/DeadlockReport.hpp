#pragma once
// The parts of a deadlock report that are derived from the netlist alone (no SystemC state).
#include "npusim/model/NetlistRelations.hpp"

#include <string>

namespace npusim::sim {

/// Who could release a lock, for "released by ...": the names of its releasers (model::actor_name,
/// one per core or DMA channel, sorted), comma-separated; "nobody" when it has none.
std::string lock_releasers_text(const model::Netlist& net, const model::LockActors& actors);

} // namespace npusim::sim
