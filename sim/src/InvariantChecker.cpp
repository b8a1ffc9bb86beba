#include "InvariantChecker.hpp"

#include "npusim/model/AddressPattern.hpp"

#include <fmt/format.h>

namespace npusim::sim {

namespace {

[[noreturn]] void broken(const model::Netlist& net, const std::string& what) {
    throw SimulationError(SimulationError::Kind::Internal,
                          fmt::format("design '{}': simulator invariant broken: {}. This is a bug in npusim, not in "
                                      "the design; please report it with the design",
                                      net.design, what));
}

} // namespace

void InvariantChecker::check_netlist(const model::Netlist& net) {
    const auto& dev = *net.device;
    for (const auto& b : net.buffers) {
        const auto mem = dev.resources(b.tile).memory_bytes;
        if (b.address + b.bytes > mem)
            broken(net, fmt::format("buffer '{}' ({} B) spans bytes {}..{} of tile {}, whose data memory has {} B",
                                    b.name, b.bytes, b.address, b.address + b.bytes, model::to_string(b.tile), mem));
    }
    for (const auto& l : net.locks) {
        const int max = dev.resources(l.tile).lock_max_value;
        if (l.init < 0 || l.init > max)
            broken(net, fmt::format("lock '{}' on tile {} starts at {}, outside 0..{}", l.name,
                                    model::to_string(l.tile), l.init, max));
    }
    for (const auto& c : net.cores)
        if (c.param_sync_lock >= static_cast<int>(net.locks.size()))
            broken(net, fmt::format("the parameter-sync lock {} of worker '{}' is not among the {} locks",
                                    c.param_sync_lock, c.worker, net.locks.size()));
    for (const auto& op : net.sequence)
        if (op.kind == model::RuntimeOp::Kind::UpdateFromScratchpad &&
            (op.value < 0 || op.value >= static_cast<int>(net.scratchpad_params.size()) || op.buffer < 0 ||
             op.buffer >= static_cast<int>(net.buffers.size())))
            broken(net, fmt::format("a scratchpad update names parameter {} of {} and buffer {} of {}", op.value,
                                    net.scratchpad_params.size(), op.buffer, net.buffers.size()));
    for (std::size_t i = 0; i < net.cascades.size(); ++i) {
        const auto& c = net.cascades[i];
        const auto n = static_cast<int>(net.cores.size());
        if (c.src_core < 0 || c.src_core >= n || c.dst_core < 0 || c.dst_core >= n ||
            net.cores[static_cast<std::size_t>(c.src_core)].cascade_out != static_cast<int>(i) ||
            net.cores[static_cast<std::size_t>(c.dst_core)].cascade_in != static_cast<int>(i))
            broken(net, fmt::format("the {} does not match the cascade ports of its cores", c.describe()));
    }
    for (const auto& t : net.tasks) {
        if (t.host_tensor < 0 || static_cast<std::size_t>(t.host_tensor) >= net.host_tensors.size())
            broken(net, fmt::format("shim task {} ({}) refers to host tensor {} of {}", t.id, t.prov.describe(),
                                    t.host_tensor, net.host_tensors.size()));
        if (t.offset_param >= static_cast<int>(net.scratchpad_params.size()))
            broken(net, fmt::format("shim task {} ({}) takes its offset from scratchpad parameter {} of {}", t.id,
                                    t.prov.describe(), t.offset_param, net.scratchpad_params.size()));
        const auto& h = net.host_tensors[static_cast<std::size_t>(t.host_tensor)];
        const model::AddressPattern pat(static_cast<std::int64_t>(t.offset_bytes), t.dims);
        if (pat.total_bytes() && (pat.min_offset() < 0 || pat.max_offset() >= static_cast<std::int64_t>(h.bytes)))
            broken(net, fmt::format("shim task {} ({}) reaches bytes {}..{} of host tensor '{}', which has {} B", t.id,
                                    t.prov.describe(), pat.min_offset(), pat.max_offset(), h.name, h.bytes));
    }
}

void InvariantChecker::check_end(const model::Netlist& net, const std::vector<std::unique_ptr<StreamLink>>& links,
                                 const LockTable& locks) {
    for (const auto& l : links)
        for (const auto* r : l->receivers())
            if (r->written != l->delivered())
                broken(net, fmt::format("flow {} delivered {} B but its receiver {} wrote {} B", l->label(),
                                        l->delivered(), r->label(), r->written));
    for (std::size_t i = 0; i < locks.size(); ++i) {
        const auto& l = locks.at(static_cast<int>(i));
        const auto g = l.ledger();
        const int v = l.final_value();
        if (v < 0 || v > g.max)
            broken(net, fmt::format("lock '{}' on {} ends at {}, outside 0..{}", l.name(), l.where(), v, g.max));
        if (v != g.base + g.released - g.acquired)
            broken(net, fmt::format("lock '{}' on {} ends at {} but its ledger gives {} + {} released - {} acquired",
                                    l.name(), l.where(), v, g.base, g.released, g.acquired));
    }
}

void InvariantChecker::check_cascades(const model::Netlist& net,
                                      const std::vector<std::unique_ptr<CascadeLink>>& cascades) {
    for (const auto& l : cascades)
        if (l->words_put() != l->words_got() + l->words_held() || l->words_held() > l->depth())
            broken(net, fmt::format("the {} took {} words and gave {}, but its FIFO holds {} (at most {})",
                                    l->connection().describe(), l->words_put(), l->words_got(), l->words_held(),
                                    l->depth()));
}

} // namespace npusim::sim
