#pragma once
// SwitchboxLowering: hand-written stream-switch connections (Switchbox / ShimMux, mlir-aie's
// aie.switchbox / aie.shim_mux / aie.connect) into stream flows whose paths are the user's own.
// Each switchbox is checked as SwitchboxOp::verify and ShimMuxOp::verify check it (AIEDialect.cpp
// at 3ca0193), with the port counts and legal connections of model/StreamSwitch.hpp; then every
// route is followed hop by hop from the DMA channel that feeds it to the DMA channels it reaches,
// as aie-find-flows follows them (AIEFindFlows.cpp ConnectivityAnalysis). A route that ends where
// no connect takes it, or a connect no route reaches, is refused: nothing would move the data.
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

class StreamRouter;

/// Runtime.add_switchbox: check every switchbox and shim mux, follow their routes and add one
/// netlist flow (pinned_route) per source DMA channel. Runs after the TileDmas are lowered: each
/// tile end must have a BD program.
void lower_switchboxes(ResolveContext& ctx);
/// The pinned routes hold their switch connections: the router routes the other flows around them.
void reserve_pinned_routes(const ResolveContext& ctx, StreamRouter& router);

} // namespace npusim::iron::detail
