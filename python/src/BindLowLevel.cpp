// IRON's hand-written data movement for Python (aie.iron Lock, Flow, TileDma with its DmaChannels
// and Bds, and the runtime's shim_dma_single_bd_task / dma_start_task / dma_await_task /
// dma_free_task): the frontend's low-level peers of ObjectFifo (frontend/Lock.hpp, Flow.hpp,
// TileDma.hpp, Runtime.hpp), registered on a Runtime with add_flow / add_lock / add_tile_dma.
#include "Bindings.hpp"

#include "npusim/frontend/Flow.hpp"
#include "npusim/frontend/Lock.hpp"
#include "npusim/frontend/PacketFlow.hpp"
#include "npusim/frontend/Runtime.hpp"
#include "npusim/frontend/Switchbox.hpp"
#include "npusim/frontend/TileDma.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <optional>
#include <tuple>

namespace npusim::python {

namespace {

using PadDims = std::vector<std::pair<std::int64_t, std::int64_t>>;

iron::Bd make_bd(const iron::Buffer& buffer, std::int64_t offset, std::optional<std::int64_t> length,
                 std::vector<iron::Acquire> acquires, std::vector<iron::Release> releases, int next,
                 std::vector<std::int64_t> sizes, std::vector<std::int64_t> strides, std::optional<PadDims> pad,
                 std::optional<std::pair<int, int>> packet) {
    iron::Bd b{.buffer = buffer};
    b.offset = offset;
    b.length = length;
    b.acquires = std::move(acquires);
    b.releases = std::move(releases);
    b.next = next;
    b.sizes = std::move(sizes);
    b.strides = std::move(strides);
    b.pad_dimensions = std::move(pad);
    if (packet) b.packet = iron::BdPacket{.pkt_type = packet->first, .pkt_id = packet->second};
    return b;
}

} // namespace

void bind_low_level(py::module_& m) {
    py::class_<iron::Lock>(m, "Lock")
        .def(py::init<iron::Tile, std::optional<int>, int, std::string>(), py::arg("tile"),
             py::arg("lock_id") = py::none(), py::arg("init") = 0, py::arg("name") = "")
        .def_property_readonly("name", &iron::Lock::name);
    py::class_<iron::Acquire>(m, "Acquire")
        .def(py::init([](const iron::Lock& l, int value, bool greater_equal) {
                 return iron::Acquire{l, value, greater_equal};
             }),
             py::arg("lock"), py::arg("value") = 1, py::arg("greater_equal") = true);
    py::class_<iron::Release>(m, "Release")
        .def(py::init([](const iron::Lock& l, int value) { return iron::Release{l, value}; }), py::arg("lock"),
             py::arg("value") = 1);
    py::class_<iron::Bd>(m, "Bd")
        .def(py::init(&make_bd), py::arg("buffer"), py::arg("offset") = 0, py::arg("length") = py::none(),
             py::arg("acquires") = std::vector<iron::Acquire>{}, py::arg("releases") = std::vector<iron::Release>{},
             py::arg("next") = iron::Bd::self, py::arg("sizes") = std::vector<std::int64_t>{},
             py::arg("strides") = std::vector<std::int64_t>{}, py::arg("pad_dimensions") = py::none(),
             py::arg("packet") = py::none());
    py::class_<iron::DmaChannel>(m, "DmaChannel")
        .def(py::init([](bool s2mm, int channel, std::vector<iron::Bd> bds, std::int64_t pad_value) {
                 return iron::DmaChannel{s2mm ? iron::DMAChannelDir::S2MM : iron::DMAChannelDir::MM2S, channel,
                                         std::move(bds), pad_value};
             }),
             py::arg("s2mm"), py::arg("channel"), py::arg("bds"), py::arg("pad_value") = 0);
    py::class_<iron::TileDma>(m, "TileDma")
        .def(py::init<iron::Tile, std::vector<iron::DmaChannel>, std::string>(), py::arg("tile"),
             py::arg("channels"), py::arg("name") = "")
        .def_property_readonly("name", &iron::TileDma::name);
    py::class_<iron::Flow>(m, "Flow").def(
        py::init([](iron::Tile src, iron::Tile dst, int src_channel, int dst_channel, std::string shim_symbol) {
            return iron::Flow(src, dst, {.src_channel = src_channel, .dst_channel = dst_channel,
                                         .shim_symbol = std::move(shim_symbol)});
        }),
        py::arg("src"), py::arg("dst"), py::arg("src_channel") = 0, py::arg("dst_channel") = 0,
        py::arg("shim_symbol") = "");
    // IRON PacketFlow(pkt_id, src, dst, *, src_channel, dst_channel, extra_dsts, keep_pkt_header,
    // shim_symbol) (flow.py at 3ca0193); extra_dsts as (tile, channel) pairs of DMA S2MM ports.
    py::class_<iron::PacketFlow>(m, "PacketFlow")
        .def(py::init([](int pkt_id, iron::Tile src, iron::Tile dst, int src_channel, int dst_channel,
                         const std::vector<std::pair<iron::Tile, int>>& extra_dsts, bool keep_pkt_header,
                         std::string shim_symbol) {
                 iron::PacketFlowOptions o;
                 o.src_channel = src_channel;
                 o.dst_channel = dst_channel;
                 for (const auto& [t, c] : extra_dsts) o.extra_dsts.push_back({t, c});
                 o.keep_pkt_header = keep_pkt_header;
                 o.shim_symbol = std::move(shim_symbol);
                 return iron::PacketFlow(pkt_id, src, dst, std::move(o));
             }),
             py::arg("pkt_id"), py::arg("src"), py::arg("dst"), py::arg("src_channel") = 0, py::arg("dst_channel") = 0,
             py::arg("extra_dsts") = std::vector<std::pair<iron::Tile, int>>{}, py::arg("keep_pkt_header") = false,
             py::arg("shim_symbol") = "")
        .def_property_readonly("pkt_id", &iron::PacketFlow::pkt_id);
    m.def("runtime_add_flow", [](iron::Runtime& rt, const iron::Flow& f) { rt.add_flow(f); });
    m.def("runtime_add_flow", [](iron::Runtime& rt, const iron::PacketFlow& f) { rt.add_flow(f); });
    m.def("runtime_add_lock", [](iron::Runtime& rt, const iron::Lock& l) { rt.add_lock(l); });
    m.def("runtime_add_tile_dma", [](iron::Runtime& rt, const iron::TileDma& d) { rt.add_tile_dma(d); });
    // aie.dialects.aie switchbox / shim_mux with their connect(src_bundle, src_channel, dst_bundle,
    // dst_channel) calls: bundles as WireBundle values (AIEAttrs.td, the enum's .value in Python).
    m.def(
        "runtime_add_switchbox",
        [](iron::Runtime& rt, const iron::Tile& tile, bool shim_mux,
           const std::vector<std::tuple<int, int, int, int>>& connects) {
            std::vector<iron::Connect> cs;
            for (const auto& [sb, sc, db, dc] : connects) {
                const auto s = model::wire_bundle_from_int(sb), d = model::wire_bundle_from_int(db);
                if (!s || !d)
                    throw npusim::DesignError(
                        fmt::format("connect: wire bundle {} is not a WireBundle (0..10)", s ? db : sb));
                cs.push_back({*s, sc, *d, dc});
            }
            if (shim_mux)
                rt.add_switchbox(iron::ShimMux(tile, std::move(cs)));
            else
                rt.add_switchbox(iron::Switchbox(tile, std::move(cs)));
        },
        py::arg("rt"), py::arg("tile"), py::arg("shim_mux"), py::arg("connects"));
    m.def(
        "shim_dma_single_bd_task",
        [](const std::string& symbol, const iron::RuntimeData& mem, std::optional<iron::TensorAccessPattern> tap,
           bool issue_token, std::optional<std::pair<int, int>> packet) {
            iron::ShimTaskOptions o;
            o.tap = std::move(tap);
            o.issue_token = issue_token;
            if (packet) o.packet = iron::BdPacket{.pkt_type = packet->first, .pkt_id = packet->second};
            return iron::shim_dma_single_bd_task(symbol, mem, std::move(o));
        },
        py::arg("symbol"), py::arg("mem"), py::arg("tap") = py::none(), py::arg("issue_token") = false,
        py::arg("packet") = py::none());
    // aiex.dma_configure_task's BD blocks joined by next_bd: [(mem, tap or None), ...] in chain order.
    m.def(
        "shim_dma_bd_chain",
        [](const std::string& symbol,
           const std::vector<std::pair<iron::RuntimeData, std::optional<iron::TensorAccessPattern>>>& bds,
           bool issue_token, int repeat_count) {
            std::vector<iron::ShimChainBd> chain;
            for (const auto& [mem, tap] : bds) chain.push_back({mem, tap});
            return iron::shim_dma_bd_chain(symbol, chain, {.issue_token = issue_token, .repeat_count = repeat_count});
        },
        py::arg("symbol"), py::arg("bds"), py::arg("issue_token") = false, py::arg("repeat_count") = 0);
    m.def("dma_start_task", &iron::dma_start_task);
    m.def("dma_await_task", &iron::dma_await_task);
    m.def("dma_free_task", &iron::dma_free_task);
}

} // namespace npusim::python
