#include "CascadeLink.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

namespace npusim::sim {

CascadeLink::CascadeLink(const model::CascadeConnection& conn, std::uint32_t latency_cycles, std::size_t depth)
    : conn_(conn), latency_(latency_cycles), depth_(std::max<std::size_t>(1, depth)), taken_at_(depth_, 0),
      waits_for_word_(fmt::format("cascade_get: waits for a cascade word from worker '{}' on {} (the {})",
                                  conn.src_worker, model::to_string(conn.src), conn.describe())),
      waits_for_room_(fmt::format("cascade_put: the cascade to worker '{}' on {} is full ({} words; the {})",
                                  conn.dst_worker, model::to_string(conn.dst), depth_, conn.describe())) {}

std::uint64_t CascadeLink::put(const std::byte* word, std::uint64_t at, ProcessClock& clk, ProcessState& ps) {
    if (fifo_.size() >= depth_) {
        ps.status = ProcessState::Status::WaitCascade;
        ps.ring = nullptr;
        ps.prov = nullptr;
        ps.detail = waits_for_room_;
        ps.since = at;
        while (fifo_.size() >= depth_) clk.wait_keep_local(changed_);
        ps.status = ProcessState::Status::Running;
    }
    std::uint64_t t = at;
    // Word n enters when word n - depth has left (the slot it frees).
    if (put_ >= depth_) t = std::max(t, taken_at_[static_cast<std::size_t>(put_ % depth_)]);
    put_stall_ += t - at;
    Word w;
    std::memcpy(w.bytes.data(), word, w.bytes.size());
    w.ready = t + latency_;
    fifo_.push_back(w);
    ++put_;
    changed_.notify(sc_core::SC_ZERO_TIME);
    return t;
}

std::uint64_t CascadeLink::get(std::byte* word, std::uint64_t at, ProcessClock& clk, ProcessState& ps) {
    if (fifo_.empty()) {
        ps.status = ProcessState::Status::WaitCascade;
        ps.ring = nullptr;
        ps.prov = nullptr;
        ps.detail = waits_for_word_;
        ps.since = at;
        while (fifo_.empty()) clk.wait_keep_local(changed_);
        ps.status = ProcessState::Status::Running;
    }
    const Word& w = fifo_.front();
    const std::uint64_t t = std::max(at, w.ready);
    get_stall_ += t - at;
    std::memcpy(word, w.bytes.data(), w.bytes.size());
    fifo_.pop_front();
    taken_at_[static_cast<std::size_t>(got_ % depth_)] = t;
    ++got_;
    changed_.notify(sc_core::SC_ZERO_TIME);
    return t;
}

} // namespace npusim::sim
