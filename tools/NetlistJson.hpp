#pragma once
// The resolved netlist as the run document's `netlist` (`npusim run --netlist --json`): the same
// content as Netlist::dump()'s text, structured (docs/json-schema/run.schema.json "netlist").
#include "npusim/model/Netlist.hpp"

#include <nlohmann/json.hpp>

namespace npusim::tools {

/// Buffers, locks, DMA channels with their BD chains, stream and packet flows, cores, cascades, host
/// tensors, shim tasks, the runtime sequence, scratchpad parameters, fifo ends and warnings. Tiles
/// are {"col", "row"}; references to other elements are indices into their arrays (-1: none).
nlohmann::json netlist_json(const model::Netlist& net);

} // namespace npusim::tools
