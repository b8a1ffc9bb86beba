#include "npusim/model/Netlist.hpp"

#include <algorithm>
#include <bit>
#include <fmt/format.h>
#include <set>

namespace npusim::model {

std::string Provenance::describe() const {
    std::string s = object.empty() ? std::string("<unnamed>") : fmt::format("'{}'", object);
    if (!role.empty()) s += " " + role;
    if (element >= 0) s += fmt::format(", element {}", element);
    return s;
}

std::string to_string(const StreamEndpoint& e) {
    return fmt::format("{} {} {}", to_string(e.tile), direction_name(e.dir), e.channel);
}

std::uint32_t packet_header(int packet_id, int packet_type, TileCoord source) {
    std::uint32_t h = (static_cast<std::uint32_t>(packet_id) & 0x1fu) |
                      ((static_cast<std::uint32_t>(packet_type) & 0x7u) << 12) |
                      ((static_cast<std::uint32_t>(source.row) & 0x1fu) << 16) |
                      ((static_cast<std::uint32_t>(source.col) & 0x7fu) << 21);
    // Odd parity: bit 31 set when bits 30:0 hold an even number of ones (AIETargetNPU.cpp, the
    // control-packet stream header: `hdr | (0x1 & parity(hdr)) << 31`).
    if (std::popcount(h) % 2 == 0) h |= 0x80000000u;
    return h;
}

std::uint64_t ShimTask::bytes() const {
    auto inner = [](const std::vector<Dim>& d, std::size_t from) {
        std::uint64_t words = 1;
        for (std::size_t i = from; i < d.size(); ++i) words *= d[i].size;
        return words;
    };
    if (chain_passes == 0) return inner(dims, 0) * 4;
    std::uint64_t words = inner(dims, 1);
    for (const auto& b : chain) words += inner(b.dims, 1);
    return words * chain_passes * 4;
}

const char* fifo_end_holding_name(FifoEndHolding h) {
    switch (h) {
    case FifoEndHolding::OwnCopy: return "own copy";
    case FifoEndHolding::SharedPool: return "shared pool";
    case FifoEndHolding::LinkPool: return "link pool";
    case FifoEndHolding::SharesProducerPool: return "shares the producer's pool";
    case FifoEndHolding::SharesLinkPool: return "shares the link pool";
    case FifoEndHolding::Runtime: return "runtime (host memory)";
    case FifoEndHolding::StreamPort: return "core stream port";
    }
    return "?";
}

bool FifoEndpointInfo::owns_buffers() const {
    return holding == FifoEndHolding::OwnCopy || holding == FifoEndHolding::SharedPool ||
           holding == FifoEndHolding::LinkPool;
}

std::string FifoEndpointInfo::describe() const { return fmt::format("fifo '{}' {}", fifo, end); }

std::string CascadeConnection::describe() const {
    return fmt::format("cascade from worker '{}' on {} to worker '{}' on {}", src_worker, to_string(src), dst_worker,
                       to_string(dst));
}

std::vector<TileCoord> Netlist::tiles_used() const {
    std::set<TileCoord> s;
    for (const auto& b : buffers) s.insert(b.tile);
    for (const auto& l : locks) s.insert(l.tile);
    for (const auto& c : channels) s.insert(c.tile);
    for (const auto& c : cores) s.insert(c.tile);
    for (const auto& f : flows) {
        s.insert(f.source.tile);
        for (const auto& d : f.dests) s.insert(d.tile);
    }
    for (const auto& f : packet_flows) {
        s.insert(f.source.tile);
        for (const auto& d : f.dests) s.insert(d.tile);
    }
    for (const auto& t : tasks) s.insert(t.tile);
    return {s.begin(), s.end()};
}

namespace {
std::string dims_str(const std::vector<Dim>& dims) {
    if (dims.empty()) return "linear";
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i)
        s += fmt::format("{}<{},{}>", i ? "," : "", dims[i].size, dims[i].stride);
    return s + "] words";
}
} // namespace

std::string Netlist::dump() const {
    std::string out = fmt::format("netlist of '{}' on {}\n", design, device ? device->name : "?");
    for (const auto& w : warnings) out += fmt::format("warning: {}\n", w);
    out += "buffers:\n";
    for (const auto& b : buffers)
        out += fmt::format("  {:<28} {:>8} @0x{:05x} {:>7} B  {}\n", b.name, to_string(b.tile), b.address, b.bytes,
                           b.prov.describe());
    out += "fifo ends:\n";
    for (const auto& e : fifo_ends) {
        std::string what = fifo_end_holding_name(e.holding);
        if (e.owns_buffers())
            what += fmt::format(", depth {} x {} B (declared {}{})", e.depth, e.object_bytes, e.declared,
                                e.overridden ? ", override" : "");
        else if (!e.pool_owner.empty())
            what += " of " + e.pool_owner;
        out += fmt::format("  {:<36} {:>8}  {}\n", e.describe(), to_string(e.tile), what);
    }
    out += "locks:\n";
    for (const auto& l : locks)
        out += fmt::format("  {:<28} {:>8} id {:>2} init {:>2}  {}\n", l.name, to_string(l.tile), l.id, l.init,
                           l.prov.describe());
    out += "dma channels:\n";
    for (const auto& c : channels) {
        out +=
            fmt::format("  {} {} {} ({} BDs{}) {}\n", to_string(c.tile), direction_name(c.dir), c.channel, c.bds.size(),
                        c.repeat_count ? fmt::format(", chain repeat {}", c.repeat_count) : "", c.prov.describe());
        for (const auto& bd : c.bds) {
            auto lk = [&](int i) { return i < 0 ? std::string("-") : locks[static_cast<std::size_t>(i)].name; };
            out += fmt::format("    bd {:>2}: {}[{}+{}] {}  acq {}{}{}  rel {}+{}  next {}{}{}\n", bd.bd_id,
                               bd.buffer >= 0 ? buffers[static_cast<std::size_t>(bd.buffer)].name : "?",
                               bd.offset_bytes, bd.length_bytes, dims_str(bd.dims), lk(bd.acquire_lock),
                               bd.acquire_equal ? "==" : ">=", bd.acquire_value, lk(bd.release_lock), bd.release_value,
                               bd.next, bd.repeat ? fmt::format("  repeat {}", bd.repeat) : "",
                               bd.packet_id >= 0 ? fmt::format("  packet {}/{}", bd.packet_type, bd.packet_id) : "");
        }
    }
    out += "flows:\n";
    for (const auto& f : flows) {
        // A core's stream port (aie_stream end) prints as the toolchain's Core:<port> bundle.
        auto core_port = [](const StreamEndpoint& e) {
            return fmt::format("{} Core {}", to_string(e.tile), e.channel);
        };
        out += fmt::format("  {} ->", f.from_core ? core_port(f.source) : to_string(f.source));
        for (std::size_t i = 0; i < f.dests.size(); ++i)
            out += fmt::format(" {} ({} hops)", f.to_core ? core_port(f.dests[i]) : to_string(f.dests[i]),
                               f.switch_hops(i));
        out += fmt::format("  {}\n", f.prov.describe());
    }
    if (!packet_flows.empty()) out += "packet flows:\n";
    for (const auto& f : packet_flows) {
        out += fmt::format("  id {} {} ->", f.packet_id, to_string(f.source));
        for (std::size_t i = 0; i < f.dests.size(); ++i)
            out += fmt::format(" {} ({} hops)", to_string(f.dests[i]), i < f.paths.size() ? f.paths[i].size() : 0);
        out += fmt::format("{}  {}\n", f.keep_pkt_header ? "  keep_pkt_header" : "", f.prov.describe());
    }
    out += "cascades:\n";
    for (const auto& c : cascades)
        out += fmt::format("  {} -> {}  512-bit words, worker '{}' -> worker '{}'\n", to_string(c.src),
                           to_string(c.dst), c.src_worker, c.dst_worker);
    out += "cores:\n";
    for (const auto& c : cores)
        out += fmt::format("  {:<20} {}  stack {} B, {} rings\n", c.worker, to_string(c.tile), c.stack_bytes,
                           c.rings.size());
    if (!scratchpad_params.empty()) {
        out += "scratchpad parameters:\n";
        for (std::size_t i = 0; i < scratchpad_params.size(); ++i)
            out +=
                fmt::format("  {} {:<16} {} {}\n", i, scratchpad_params[i].name, dtype_name(scratchpad_params[i].dtype),
                            scratchpad_params[i].kind == ScratchpadParam::Kind::Core ? "core" : "addr");
    }
    out += "host tensors:\n";
    for (std::size_t i = 0; i < host_tensors.size(); ++i)
        out += fmt::format("  arg {} {:<12} {} {} B\n", i, host_tensors[i].name, dtype_name(host_tensors[i].dtype),
                           host_tensors[i].bytes);
    out += "runtime sequence:\n";
    for (const auto& op : sequence) {
        switch (op.kind) {
        case RuntimeOp::Kind::StartTask: {
            const auto& t = tasks[static_cast<std::size_t>(op.task)];
            // The outermost dimension is the queue push's repeat count (size - 1, AIEDmaToNpu).
            const std::uint32_t reps = t.dims.empty() ? 0 : t.dims.front().size - 1;
            out += fmt::format("  start task {} ({}) on {} {} {} bd {} arg {} +{} {}  queue repeat {}{}\n", t.id,
                               t.prov.describe(), to_string(t.tile), direction_name(t.dir), t.channel, t.bd_id,
                               t.host_tensor, t.offset_bytes, dims_str(t.dims), reps, t.issue_token ? " token" : "");
            if (t.offset_param >= 0)
                out +=
                    fmt::format("    + offset_parameter '{}' x {} B\n",
                                scratchpad_params[static_cast<std::size_t>(t.offset_param)].name, t.offset_param_scale);
            break;
        }
        case RuntimeOp::Kind::AwaitTask: out += fmt::format("  await task {}\n", op.task); break;
        case RuntimeOp::Kind::FreeTask: out += fmt::format("  free task {}\n", op.task); break;
        case RuntimeOp::Kind::WriteBuffer:
            out += fmt::format("  write {} B to {}+{}\n", op.data.size(),
                               buffers[static_cast<std::size_t>(op.buffer)].name, op.offset_bytes);
            break;
        case RuntimeOp::Kind::SetLock:
            out += fmt::format("  set lock {} = {}\n", locks[static_cast<std::size_t>(op.lock)].name, op.value);
            break;
        case RuntimeOp::Kind::CreateScratchpad:
            out += fmt::format("  create scratchpad ({} B)\n", scratchpad_params.size() * 4);
            break;
        case RuntimeOp::Kind::UpdateFromScratchpad:
            out +=
                fmt::format("  update {} += scratchpad[{}] ({})\n", buffers[static_cast<std::size_t>(op.buffer)].name,
                            op.value, scratchpad_params[static_cast<std::size_t>(op.value)].name);
            break;
        }
    }
    if (trace.enabled) {
        out += fmt::format("trace: buffer {} B\n", trace.buffer_bytes);
        for (const auto& u : trace.units) {
            std::string events;
            for (const auto& e : u.events) {
                events += (events.empty() ? "" : " ") + e.name;
                if (e.port_channel >= 0)
                    events += fmt::format("(DMA {} {})", e.port_master ? "S2MM" : "MM2S", e.port_channel);
            }
            out += fmt::format("  {}_trace {}{}: {}\n", trace_unit_type_name(u.type), to_string(u.tile),
                               u.worker.empty() ? "" : " " + u.worker, events);
        }
    }
    return out;
}

} // namespace npusim::model
