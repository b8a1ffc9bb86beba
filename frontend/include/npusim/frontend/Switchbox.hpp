#pragma once
// Switchbox and ShimMux (mlir-aie's aie.switchbox / aie.shim_mux with their aie.connect ops, which
// programming_examples/basic/manual_switchbox writes by hand): a tile's stream-switch connections
// pinned by the user instead of routes the router finds. Each Connect ties a source port of the
// switch (bundle and channel, data entering) to a destination port (data leaving). A ShimMux sits
// below a shim tile's switch and joins the shim DMA channels to its South ports. Register both with
// Runtime::add_switchbox. At resolve the connections are checked as the toolchain's verifier checks
// them (SwitchboxOp::verify) and followed hop by hop from every DMA channel that feeds them to the
// DMA channels they reach: each such route is a stream flow with exactly the user's path
// (docs/resolve-lowlevel.md, "Hand-written switchboxes").
#include "npusim/frontend/Tile.hpp"
#include "npusim/model/StreamSwitch.hpp"

#include <memory>
#include <string>
#include <vector>

namespace npusim::iron {

using model::WireBundle;

/// aie.connect<src_bundle : src_channel, dst_bundle : dst_channel>.
struct Connect {
    WireBundle src_bundle = WireBundle::DMA;
    int src_channel = 0;
    WireBundle dst_bundle = WireBundle::DMA;
    int dst_channel = 0;
    std::string str() const; ///< "connect<South : 1, DMA : 0>"
};

namespace detail {
struct SwitchboxState {
    int uid = 0;
    Tile tile;
    bool shim_mux = false; ///< aie.shim_mux rather than aie.switchbox
    std::vector<Connect> connects;
    std::string describe() const; ///< "switchbox on Tile(0,2)" / "shim_mux on Tile(0,0)"
};
} // namespace detail

/// aie.switchbox(tile) { aie.connect<...> ... }
class Switchbox {
public:
    Switchbox(Tile tile, std::vector<Connect> connects);
    const std::shared_ptr<detail::SwitchboxState>& state() const { return state_; }

protected:
    std::shared_ptr<detail::SwitchboxState> state_;
};

/// aie.shim_mux(tile) { aie.connect<DMA : c, North : p> ... }: a shim tile's mux.
class ShimMux : public Switchbox {
public:
    ShimMux(Tile tile, std::vector<Connect> connects);
};

} // namespace npusim::iron
