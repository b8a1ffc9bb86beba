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

void PacketSwitch::add_route(int source, int packet_id, std::vector<StreamReceiver*> dests, bool keep_header) {
    routes_[{source, packet_id}] = Route{std::move(dests), keep_header};
}

int PacketSwitch::next_grant() const {
    if (waiting_.empty()) return -1;
    auto it = waiting_.upper_bound(last_);
    return it == waiting_.end() ? *waiting_.begin() : *it;
}

void PacketSwitch::send(int source, int packet_id, std::uint32_t header, const std::uint8_t* data, std::uint64_t n,
                        ProcessClock& clk, ProcessState& ps, ChannelTime& time) {
    auto it = routes_.find({source, packet_id});
    if (it == routes_.end()) // resolve checks every BD's id against its port's packet flows
        throw SimulationError(SimulationError::Kind::Protocol,
                              fmt::format("{}: packet id {} from {} has no packet flow", link_->label(), packet_id,
                                          model::to_string(sources_.at(static_cast<std::size_t>(source)))));
    // Arbitrate at this sender's own time, after every sender of the same cycle has asked.
    clk.sync();
    waiting_.insert(source);
    free_.notify(sc_core::SC_ZERO_TIME);
    const auto from = clk.local_cycles();
    ps.status = ProcessState::Status::WaitStream;
    ps.since = from;
    clk.wait(free_);
    while (busy_ || next_grant() != source) clk.wait(free_);
    ps.status = ProcessState::Status::Running;
    time.stream_stall += clk.local_cycles() - from;
    waiting_.erase(source);
    busy_ = true;
    last_ = source;
    const Route& r = it->second;
    const std::uint8_t* payload = data;
    std::uint64_t bytes = n;
    if (r.keep_header) {
        staging_.resize(n + 4);
        std::memcpy(staging_.data(), &header, 4);
        std::memcpy(staging_.data() + 4, data, n);
        payload = staging_.data();
        bytes = n + 4;
    } else {
        // The destination drops the header, but it took its word slot on the stream.
        const auto slot = stream_transfer_cycles(4, link_->bytes_per_cycle(), 0);
        clk.advance(slot);
        time.active += slot;
    }
    try {
        link_->send(payload, bytes, clk, ps, time, &r.dests);
    } catch (...) {
        busy_ = false;
        throw;
    }
    busy_ = false;
    free_.notify(sc_core::SC_ZERO_TIME);
}

} // namespace npusim::sim
