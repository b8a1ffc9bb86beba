#pragma once
// The HTML report's design graph: the array's tiles as Graphviz nodes (one cluster per column,
// rows from the top down; a used tile lists its worker, fifo ends and buffers), the stream flows
// as edges (one per destination, coloured per flow, the first labelled with the flow's name),
// laid out by the dot engine; then the flow and tile tables.
#include "SpanCollector.hpp"

#include <string>

namespace npusim::traces::html {

/// The design graph in DOT: node "t<col>_<row>" per tile, of class "tile" ("tile used" for a tile
/// the design uses), edges of class "flow"; tooltips give the whole text.
std::string design_dot(const CollectedRun& run);

/// The section (id "design"); the graph's <svg> has id "design-graph".
std::string render_design(const CollectedRun& run);

} // namespace npusim::traces::html
