#pragma once
// Circuit-switched stream routing over the switchbox grid with Boost.Graph. Each tile is a
// vertex; each direction between neighbours is an edge whose capacity is the number of stream
// connections the two switches have that way (6 up and 4 down per column, 4 each way per row,
// no east/west on the mem-tile row). A flow's destinations are routed one by one on shortest
// paths; edges the same flow already uses (broadcast) cost nothing and take no new capacity.
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Netlist.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace npusim::iron::detail {

class StreamRouter {
public:
    explicit StreamRouter(const model::DeviceSpec& dev);
    /// Route every destination of `flow`, filling flow.paths. Throws DesignError naming the
    /// flow's provenance when no path with free capacity exists.
    void route(model::Flow& flow);
    /// Route `source` to every tile of `dests`, one shortest path each; returns the paths. Edges in
    /// `shared` (the switch connections packet flows already hold: packet flows share them) cost
    /// nothing; every other edge taken costs one connection and joins `shared`. `who` names the
    /// flow in the error.
    std::vector<std::vector<model::TileCoord>> route_shared(model::TileCoord source,
                                                            const std::vector<model::TileCoord>& dests,
                                                            std::set<std::pair<int, int>>& shared,
                                                            const std::string& who, const std::string& from,
                                                            const std::vector<std::string>& to);
    /// Take the switch connections of a route the user pinned (a hand-written switchbox's paths):
    /// the router routes other flows around them.
    void reserve(const std::vector<std::vector<model::TileCoord>>& paths);
    /// Connections still free from `from` toward `dir`.
    int free_capacity(model::TileCoord from, model::Port dir) const;

private:
    int vertex(model::TileCoord t) const { return t.col * dev_->rows + t.row; }
    model::TileCoord coord(int v) const { return {v / dev_->rows, v % dev_->rows}; }
    const model::DeviceSpec* dev_;
    std::map<std::pair<int, int>, int> capacity_; ///< (from vertex, to vertex) -> free connections
};

} // namespace npusim::iron::detail
