#include "StreamLink.hpp"

#include "SimEngine.hpp"

#include <algorithm>
#include <cmath>

namespace npusim::sim {

StreamLink::StreamLink(SimEngine& eng, std::string label, std::vector<StreamReceiver*> receivers,
                       double sender_bytes_per_cycle, std::uint32_t latency_cycles)
    : eng_(eng), label_(std::move(label)), rx_(std::move(receivers)), latency_(latency_cycles) {
    rate_ = std::min(sender_bytes_per_cycle, eng.timing().stream_bytes_per_cycle);
    for (auto* r : rx_) rate_ = std::min(rate_, r->bytes_per_cycle);
}

void StreamLink::send(const std::uint8_t* data, std::uint64_t n, ProcessClock& clk, ProcessState& ps, std::uint64_t* active) {
    std::uint64_t off = 0;
    bool first = true;
    auto all_posted = [&] {
        for (auto* r : rx_)
            if (!r->posted) return false;
        return true;
    };
    while (off < n) {
        if (!all_posted()) {
            ps.status = ProcessState::Status::WaitStream;
            sender_waiting_ = true;
            while (!all_posted()) clk.wait_keep_local(posted_);
            sender_waiting_ = false;
            ps.status = ProcessState::Status::Running;
        }
        std::uint64_t chunk = n - off;
        std::uint64_t start = clk.local_cycles();
        for (auto* r : rx_) {
            chunk = std::min(chunk, r->remaining);
            start = std::max(start, r->ready_at);
        }
        const auto cycles = static_cast<std::uint64_t>(std::ceil(static_cast<double>(chunk) / rate_)) + (first ? latency_ : 0);
        first = false;
        clk.pending = start + cycles - now_cycles();   // one wait: until the chunk has arrived
        clk.sync();
        if (active) *active += cycles;
        for (auto* r : rx_) {
            r->accept(data + off, chunk);
            r->remaining -= chunk;
            if (r->remaining == 0) {
                r->posted = false;
                r->on_filled();
            }
        }
        eng_.add_bytes(chunk * rx_.size());
        off += chunk;
    }
}

void StreamLink::receive(StreamReceiver& r, std::uint64_t n, ProcessClock& clk, ProcessState& ps) {
    if (n == 0) return;
    r.remaining = n;
    r.ready_at = clk.local_cycles();
    r.posted = true;
    posted_.notify();
    ps.status = ProcessState::Status::WaitStream;
    while (r.posted) clk.wait(r.filled);
    clk.pending = 0;   // the data arrived at or after the time this receiver posted
    ps.status = ProcessState::Status::Running;
}

} // namespace npusim::sim
