#include "resolve/StreamRouter.hpp"

#include "npusim/model/Error.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <fmt/format.h>
#include <set>

namespace npusim::iron::detail {

namespace {
constexpr model::Port kDirs[] = {model::Port::North, model::Port::South, model::Port::East, model::Port::West};
model::TileCoord step(model::TileCoord t, model::Port p) {
    switch (p) {
    case model::Port::North: return {t.col, t.row + 1};
    case model::Port::South: return {t.col, t.row - 1};
    case model::Port::East: return {t.col + 1, t.row};
    case model::Port::West: return {t.col - 1, t.row};
    }
    return t;
}
} // namespace

StreamRouter::StreamRouter(const model::DeviceSpec& dev) : dev_(&dev) {
    for (int c = 0; c < dev.cols; ++c)
        for (int r = 0; r < dev.rows; ++r)
            for (auto p : kDirs) {
                const int cap = dev.stream_capacity({c, r}, p);
                if (cap > 0) capacity_[{vertex({c, r}), vertex(step({c, r}, p))}] = cap;
            }
}

int StreamRouter::free_capacity(model::TileCoord from, model::Port dir) const {
    auto it = capacity_.find({vertex(from), vertex(step(from, dir))});
    return it == capacity_.end() ? 0 : it->second;
}

void StreamRouter::reserve(const std::vector<std::vector<model::TileCoord>>& paths) {
    std::set<std::pair<int, int>> used; // a broadcast's shared hops hold one connection
    for (const auto& path : paths)
        for (std::size_t i = 0; i + 1 < path.size(); ++i) {
            const std::pair<int, int> e{vertex(path[i]), vertex(path[i + 1])};
            if (!used.insert(e).second) continue;
            if (auto it = capacity_.find(e); it != capacity_.end() && it->second > 0) --it->second;
        }
}

void StreamRouter::route(model::Flow& flow) {
    std::set<std::pair<int, int>> used; // edges this flow already holds (a broadcast shares them)
    std::vector<model::TileCoord> dests;
    std::vector<std::string> to;
    for (const auto& d : flow.dests) {
        dests.push_back(d.tile);
        to.push_back(model::to_string(d));
    }
    flow.paths = route_shared(flow.source.tile, dests, used, flow.prov.describe(), model::to_string(flow.source), to);
}

std::vector<std::vector<model::TileCoord>> StreamRouter::route_shared(model::TileCoord source,
                                                                      const std::vector<model::TileCoord>& dests,
                                                                      std::set<std::pair<int, int>>& used,
                                                                      const std::string& who, const std::string& from,
                                                                      const std::vector<std::string>& to) {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                        boost::property<boost::edge_weight_t, int>>;
    std::vector<std::vector<model::TileCoord>> paths;
    const int n = dev_->cols * dev_->rows;
    for (std::size_t di = 0; di < dests.size(); ++di) {
        Graph g(static_cast<std::size_t>(n));
        for (const auto& [e, cap] : capacity_) {
            const bool mine = used.count(e) > 0;
            if (cap > 0 || mine)
                boost::add_edge(static_cast<std::size_t>(e.first), static_cast<std::size_t>(e.second), mine ? 0 : 1, g);
        }
        std::vector<std::size_t> pred(static_cast<std::size_t>(n));
        std::vector<int> dist(static_cast<std::size_t>(n));
        const auto src = static_cast<std::size_t>(vertex(source));
        boost::dijkstra_shortest_paths(g, src, boost::predecessor_map(pred.data()).distance_map(dist.data()));
        const auto dst = static_cast<std::size_t>(vertex(dests[di]));
        if (dst != src && pred[dst] == dst)
            throw DesignError(fmt::format("no stream route for {} from {} to {}: all switch connections on the way are "
                                          "in use",
                                          who, from, to.at(di)));
        std::vector<model::TileCoord> path;
        for (std::size_t v = dst;; v = pred[v]) {
            path.push_back(coord(static_cast<int>(v)));
            if (v == src) break;
        }
        std::reverse(path.begin(), path.end());
        for (std::size_t i = 0; i + 1 < path.size(); ++i) {
            const std::pair<int, int> e{vertex(path[i]), vertex(path[i + 1])};
            if (used.insert(e).second) --capacity_[e];
        }
        paths.push_back(std::move(path));
    }
    return paths;
}

} // namespace npusim::iron::detail
