#include "PacketSwitch.hpp"

#include "npusim/model/Error.hpp"

#include <cstring>
#include <fmt/format.h>

namespace npusim::sim {

int PacketSwitch::add_source(const model::StreamEndpoint& e) {
    for (std::size_t i = 0; i < sources_.size(); ++i)
        if (sources_[i] == e) return static_cast<int>(i);
    sources_.push_back(e);
    return static_cast<int>(sources_.size()) - 1;
}

void PacketSwitch::add_route(int source, int packet_id, std::vector<StreamReceiver*> dests, bool keep_header,
                             std::uint32_t latency) {
    routes_[{source, packet_id}] = Route{std::move(dests), keep_header, latency};
}

std::uint32_t PacketSwitch::data_header(int source, const std::uint8_t* data, std::uint64_t n,
                                        const std::string& who) const {
    const auto& port = sources_.at(static_cast<std::size_t>(source));
    if (n < 4)
        throw SimulationError(SimulationError::Kind::Protocol,
                              fmt::format("{}: sends no packet header of its own on packet port {}, and its {} B of "
                                          "data hold no header word",
                                          who, model::to_string(port), n));
    std::uint32_t h = 0;
    std::memcpy(&h, data, 4);
    const int id = static_cast<int>(h & 0x1fu);
    if (!routes(source, id)) {
        std::string ids;
        for (const auto& [key, route] : routes_)
            if (key.first == source) ids += fmt::format("{}{}", ids.empty() ? "" : ", ", key.second);
        throw SimulationError(SimulationError::Kind::Protocol,
                              fmt::format("{}: sends no packet header of its own, so the first word of its data "
                                          "(0x{:08X}) is the packet's header, and its packet id {} matches no "
                                          "PacketFlow from {} (ids {})",
                                          who, h, id, model::to_string(port), ids));
    }
    return h;
}

int PacketSwitch::next_grant() const {
    if (waiting_.empty()) return -1;
    auto it = waiting_.upper_bound(last_);
    return it == waiting_.end() ? *waiting_.begin() : *it;
}

void PacketSwitch::send(int source, int packet_id, std::uint32_t header, const std::uint8_t* data, std::uint64_t n,
                        ProcessClock& clk, ProcessState& ps, ChannelTime& time) {
    Send p;
    begin_send(p, source, packet_id, header, data, n);
    for (auto w = step(p, clk, ps, time); !w.done(); w = step(p, clk, ps, time)) clk.wait_for(w);
}

void PacketSwitch::begin_send(Send& p, int source, int packet_id, std::uint32_t header, const std::uint8_t* data,
                              std::uint64_t n) {
    auto it = routes_.find({source, packet_id});
    if (it == routes_.end()) // resolve checks every BD's id against its port's packet flows
        throw SimulationError(SimulationError::Kind::Protocol,
                              fmt::format("{}: packet id {} from {} has no packet flow", link_->label(), packet_id,
                                          model::to_string(sources_.at(static_cast<std::size_t>(source)))));
    p.stage = Send::Stage::Sync;
    p.source = source;
    p.route = &it->second;
    p.header = header;
    p.data = data;
    p.n = n;
}

Wake PacketSwitch::step(Send& p, ProcessClock& clk, ProcessState& ps, ChannelTime& time) {
    switch (p.stage) {
    case Send::Stage::Sync:
        // Arbitrate at this sender's own time, after every sender of the same cycle has asked.
        p.stage = Send::Stage::Ask;
        if (clk.pending()) return Wake::pending();
        [[fallthrough]];
    case Send::Stage::Ask:
        waiting_.insert(p.source);
        free_.notify(sc_core::SC_ZERO_TIME);
        p.from = clk.local_cycles();
        ps.status = ProcessState::Status::WaitStream;
        ps.since = p.from;
        p.stage = Send::Stage::Grant;
        return Wake::on(free_);
    case Send::Stage::Grant: {
        if (busy_ || next_grant() != p.source) return Wake::on(free_);
        ps.status = ProcessState::Status::Running;
        time.stream_stall += clk.local_cycles() - p.from;
        waiting_.erase(p.source);
        busy_ = true;
        last_ = p.source;
        const Route& r = *p.route;
        const std::uint8_t* payload = p.data;
        std::uint64_t bytes = p.n;
        if (r.keep_header) {
            staging_.resize(p.n + 4);
            std::memcpy(staging_.data(), &p.header, 4);
            std::memcpy(staging_.data() + 4, p.data, p.n);
            payload = staging_.data();
            bytes = p.n + 4;
        } else {
            // The destination drops the header, but it took its word slot on the stream.
            const auto slot = stream_transfer_cycles(4, link_->bytes_per_cycle(), 0);
            clk.advance(slot, link_->rate_path_cost());
            time.active += slot;
        }
        link_->begin_send(p.link, payload, bytes, &r.dests);
        p.link.latency = r.latency; // this flow's own route, not the group's longest
        p.stage = Send::Stage::Stream;
        [[fallthrough]];
    }
    case Send::Stage::Stream: {
        Wake w;
        try {
            w = link_->step(p.link, clk, ps, time);
        } catch (...) {
            busy_ = false;
            throw;
        }
        if (!w.done()) return w;
        busy_ = false;
        free_.notify(sc_core::SC_ZERO_TIME);
        return {};
    }
    }
    return {};
}

} // namespace npusim::sim
