#pragma once
// Invariants of every simulation, checked whatever the design: a broken one is a bug in
// npusim, never in the design, and ends the run with SimulationError kind Internal (exit code 5).
//
// Before the run (check_netlist): every buffer lies inside its tile's data memory, every lock's
// initial value within 0..max, every shim task's access pattern inside its host tensor (tile BDs
// are checked against their buffer by TileDmaChannel). After the run, also after a deadlock or a
// limit (check_end): every receiver of every stream flow wrote exactly the bytes the flow
// delivered (no byte dropped or duplicated at a BD boundary); every lock's value lies within
// 0..max and equals its ledger, initial value + releases - acquires; every cascade's words put
// equal its words got plus the words left in its FIFO, which holds at most its depth.
#include "CascadeLink.hpp"
#include "SemaphoreLock.hpp"
#include "StreamLink.hpp"
#include "npusim/model/Netlist.hpp"

#include <memory>
#include <vector>

namespace npusim::sim {

class InvariantChecker {
public:
    /// Throws SimulationError(Kind::Internal) naming the first broken invariant.
    static void check_netlist(const model::Netlist& net);
    static void check_end(const model::Netlist& net, const std::vector<std::unique_ptr<StreamLink>>& links,
                          const LockTable& locks);
    static void check_cascades(const model::Netlist& net, const std::vector<std::unique_ptr<CascadeLink>>& cascades);
};

} // namespace npusim::sim
