// Hand-written stream-switch connections: Switchbox / ShimMux (aie.switchbox, aie.shim_mux,
// aie.connect) checked as mlir-aie's verifiers check them (lib/Dialect/AIE/IR/AIEDialect.cpp at
// 3ca0193: TileOp::verify L1636-1640, ShimMuxOp::verify L1735-1761, SwitchboxOp::verify L2795-2866;
// AIEInterfaces.td L49 IsShimTile) and followed hop by hop as aie-find-flows follows them
// (lib/Dialect/AIE/Transforms/AIEFindFlows.cpp L84-96, L159-268) in
// frontend/src/resolve/SwitchboxLowering.cpp.
#include "Designs.hpp"

namespace npusim::errcat {

namespace {
using B = WireBundle;
const Tile kSbShim(0, 0), kSbMem(0, 1), kSbCore(0, 2);

// The manual_switchbox column: shim MM2S 0 -> compute S2MM 0 and compute MM2S 0 -> shim S2MM 0,
// with a TileDma on the compute tile; `boxes` replaces the routes.
struct Sb {
    std::vector<Switchbox> boxes = {
        ShimMux(kSbShim, {{B::DMA, 0, B::North, 3}, {B::North, 2, B::DMA, 0}}),
        Switchbox(kSbShim, {{B::South, 3, B::North, 1}, {B::North, 0, B::South, 2}}),
        Switchbox(kSbMem, {{B::South, 1, B::North, 1}, {B::North, 0, B::South, 0}}),
        Switchbox(kSbCore, {{B::South, 1, B::DMA, 0}, {B::DMA, 0, B::South, 0}}),
    };
    std::vector<Flow> flows = {};
};

model::Netlist resolve_sb(Sb s) {
    Buffer in(i32(64), "sb_in", {}, kSbCore), out(i32(64), "sb_out", {}, kSbCore);
    Lock a(kSbCore, std::nullopt, 1, "a"), b(kSbCore, std::nullopt, 0, "b");
    Runtime rt([](RuntimeData) {}, fn_args(i32(64)));
    for (const auto& x : s.boxes) rt.add_switchbox(x);
    for (const auto& f : s.flows) rt.add_flow(f);
    rt.add_tile_dma(
        TileDma(kSbCore,
                {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = in, .acquires = {{a}}, .releases = {{b}}}}},
                 DmaChannel{DMAChannelDir::MM2S, 0, {Bd{.buffer = out, .acquires = {{b}}, .releases = {{a}}}}}},
                "sb_dma"));
    return resolve(Program("npu1_1col", rt, {}, "sb"));
}

// The column's routes with the compute tile's switchbox replaced by `core`.
Sb with_core(std::vector<Connect> core) {
    Sb s;
    s.boxes.back() = Switchbox(kSbCore, std::move(core));
    return s;
}
} // namespace

void add_switchbox(Catalog& c) {
    c.component("Hand-written switchboxes",
                "Switchbox and ShimMux (aie.switchbox, aie.shim_mux, aie.connect): each connection checked as the "
                "toolchain's verifier checks it, each route followed from its DMA channel to the DMA channels it "
                "reaches (`frontend/src/resolve/SwitchboxLowering.cpp`, docs/resolve-lowlevel.md \"Hand-written "
                "switchboxes\").");
    c.site("frontend/src/resolve/SwitchboxLowering.cpp");
    NPUSIM_ERROR(
        c, "switchbox.unpinned", kDesign,
        "switchbox on AnyComputeTile: a switchbox configures one physical tile; pin its tile (Tile(col, row)), "
        "npusim does not place hand-written switchboxes",
        resolve_sb({.boxes = {Switchbox(AnyComputeTile, {{B::South, 1, B::DMA, 0}})}}));
    NPUSIM_ERROR(c, "switchbox.shim_mux_not_shim", kDesign,
                 "shim_mux on Tile(0,1): 'aie.shim_mux' op failed to verify that op exists in a shim tile (tile (0,1) "
                 "is a mem tile)",
                 resolve_sb({.boxes = {ShimMux(kSbMem, {{B::DMA, 0, B::North, 3}})}}));
    NPUSIM_ERROR(c, "switchbox.two_per_tile", kDesign,
                 "switchbox on Tile(0,2): 'aie.tile' op can only have one switchbox (tile (0,2) has another)",
                 resolve_sb({.boxes = {Switchbox(kSbCore, {{B::South, 1, B::DMA, 0}}),
                                       Switchbox(kSbCore, {{B::DMA, 0, B::South, 0}})}}));
    NPUSIM_ERROR(c, "switchbox.same_dest", kDesign,
                 "switchbox on Tile(0,2): connect<South : 2, DMA : 0>: 'aie.connect' op targets same dst as another "
                 "connect op (DMA : 0 is taken)",
                 resolve_sb(with_core({{B::South, 1, B::DMA, 0}, {B::South, 2, B::DMA, 0}, {B::DMA, 0, B::South, 0}})));
    NPUSIM_ERROR(c, "switchbox.negative_index", kDesign,
                 "switchbox on Tile(0,2): connect<South : -1, DMA : 0>: 'aie.connect' op source index cannot be less "
                 "than zero",
                 resolve_sb(with_core({{B::South, -1, B::DMA, 0}})));
    NPUSIM_ERROR(c, "switchbox.index_bound", kDesign,
                 "switchbox on Tile(0,2): connect<South : 1, DMA : 2>: 'aie.connect' op index 2 for dest bundle DMA "
                 "must be less than 2",
                 resolve_sb(with_core({{B::South, 1, B::DMA, 2}})));
    NPUSIM_ERROR(c, "switchbox.bundle_absent", kDesign,
                 "switchbox on Tile(0,1): connect<South : 1, East : 0>: 'aie.connect' op dest bundle East not "
                 "supported; index: 0, bound: 0",
                 resolve_sb({.boxes = {Switchbox(kSbMem, {{B::South, 1, B::East, 0}})}}));
    NPUSIM_ERROR(c, "switchbox.illegal_connection", kDesign,
                 "switchbox on Tile(0,1): connect<South : 1, North : 2>: 'aie.connect' op illegal stream switch "
                 "connection",
                 resolve_sb({.boxes = {Switchbox(kSbMem, {{B::South, 1, B::North, 2}})}}));
    NPUSIM_ERROR(c, "switchbox.bundle_not_modelled", kDesign,
                 "switchbox on Tile(0,2): connect<Trace : 0, South : 0>: npusim simulates switchbox routes between DMA "
                 "channels only; bundle Trace is not modelled",
                 resolve_sb(with_core({{B::Trace, 0, B::South, 0}})));
    NPUSIM_ERROR(c, "switchbox.mux_same_dest", kDesign,
                 "shim_mux on Tile(0,0): connect<DMA : 1, North : 3>: 'aie.connect' op targets same destination "
                 "North : 3 as another connect operation",
                 resolve_sb({.boxes = {ShimMux(kSbShim, {{B::DMA, 0, B::North, 3}, {B::DMA, 1, B::North, 3}})}}));
    NPUSIM_ERROR(
        c, "switchbox.mux_port", kDesign,
        "shim_mux on Tile(0,0): connect<DMA : 0, North : 5>: a shim mux joins the shim DMA to fixed switch "
        "ports: connect<DMA : 0, North : 3>, <DMA : 1, North : 7> (MM2S) and <North : 2, DMA : 0>, <North : 3, "
        "DMA : 1> (S2MM), as the router writes them (AIECreatePathFindFlows.cpp L116-119, L143-146); npusim "
        "simulates no other shim mux connection",
        resolve_sb({.boxes = {ShimMux(kSbShim, {{B::DMA, 0, B::North, 5}})}}));
    NPUSIM_ERROR(
        c, "switchbox.dead_end", kDesign,
        "switchbox on Tile(0,1): connect<South : 1, North : 1>: sends to the switchbox of (0,2) South : 1, but "
        "no connect there takes it: the route does not connect (<...>)",
        resolve_sb(with_core({{B::South, 2, B::DMA, 0}, {B::DMA, 0, B::South, 0}})));
    NPUSIM_ERROR(
        c, "switchbox.orphan", kDesign,
        "switchbox on Tile(0,2): connect<South : 4, North : 4>: no DMA channel's stream reaches South : 4 of "
        "this switch, so the connection carries nothing: the route does not connect (<...>)",
        resolve_sb(with_core({{B::South, 1, B::DMA, 0}, {B::DMA, 0, B::South, 0}, {B::South, 4, B::North, 4}})));
    NPUSIM_ERROR(c, "switchbox.end_taken", kDesign,
                 "switchbox route (0,2) MM2S 0 -> (0,0) S2MM 0: (0,0) S2MM 0 is already an end of 'Flow Tile(0,2) "
                 "DMA:0 -> Tile(0,0) DMA:0' flow; a DMA channel carries one stream",
                 resolve_sb({.flows = {Flow(kSbCore, kSbShim)}}));
}

} // namespace npusim::errcat
