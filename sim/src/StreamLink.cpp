#include "StreamLink.hpp"

#include <algorithm>

namespace npusim::sim {

double stream_link_rate(double sender_bytes_per_cycle, double stream_bytes_per_cycle,
                        const std::vector<StreamReceiver*>& receivers) {
    double rate = std::min(sender_bytes_per_cycle, stream_bytes_per_cycle);
    for (auto* r : receivers) rate = std::min(rate, r->bytes_per_cycle);
    return rate;
}

StreamLink::StreamLink(const model::TimingParams& timing, RunStats& stats, std::string label,
                       std::vector<StreamReceiver*> receivers, double sender_bytes_per_cycle,
                       std::uint32_t latency_cycles)
    : stats_(stats), label_(std::move(label)), rx_(std::move(receivers)),
      rate_(stream_link_rate(sender_bytes_per_cycle, timing.stream_bytes_per_cycle, rx_)), latency_(latency_cycles) {}

void StreamLink::send(const std::uint8_t* data, std::uint64_t n, ProcessClock& clk, ProcessState& ps, ChannelTime& time,
                      const std::vector<StreamReceiver*>* to) {
    const auto& rx = to ? *to : rx_;
    std::uint64_t off = 0;
    bool first = true;
    sending_ = n;
    sent_ = 0;
    auto all_posted = [&] {
        for (auto* r : rx)
            if (!r->posted) return false;
        return true;
    };
    while (off < n) {
        if (!all_posted()) {
            ps.status = ProcessState::Status::WaitStream;
            ps.since = clk.local_cycles();
            sender_waiting_ = true;
            const auto waited_from = clk.local_cycles();
            while (!all_posted()) clk.wait_keep_local(posted_);
            time.stream_stall += clk.local_cycles() - waited_from; // the local time may stay ...
            sender_waiting_ = false;
            ps.status = ProcessState::Status::Running;
        }
        std::uint64_t chunk = n - off;
        std::uint64_t start = clk.local_cycles();
        for (auto* r : rx) {
            chunk = std::min(chunk, r->remaining);
            start = std::max(start, r->ready_at);
        }
        time.stream_stall += start - clk.local_cycles(); // ... and a receiver posted after it
        auto cycles = stream_transfer_cycles(chunk, rate_, first ? latency_ : 0);
        first = false;
        // A shim end shares the host-memory bandwidth with every other shim channel, a mem-tile
        // end its tile's banks with the tile's other channels.
        // The path that ends last bounds the chunk and is charged the delay.
        const auto own = cycles;
        SharedBandwidth* bound = nullptr;
        for (auto* path : shared_) {
            const auto held = path->reserve(chunk, start, now_cycles()) - start;
            if (held > cycles) cycles = held, bound = path;
        }
        if (bound) bound->count_delay(cycles - own);
        clk.sync_to(start + cycles); // one wait: until the chunk has arrived
        time.active += cycles;
        for (auto* r : rx) {
            r->accept(data + off, chunk);
            r->remaining -= chunk;
            if (r->remaining == 0) {
                r->posted = false;
                r->on_filled();
            }
        }
        stats_.bytes_moved += chunk * rx.size();
        delivered_ += chunk;
        off += chunk;
        sent_ = off;
    }
    sending_ = sent_ = 0;
}

void StreamLink::receive(StreamReceiver& r, std::uint64_t n, ProcessClock& clk, ProcessState& ps) {
    if (n == 0) return;
    r.remaining = n;
    r.ready_at = clk.local_cycles();
    r.posted = true;
    posted_.notify();
    ps.status = ProcessState::Status::WaitStream;
    ps.since = clk.local_cycles();
    while (r.posted) clk.wait(r.filled);
    clk.set_local_cycles(now_cycles()); // the data arrived at or after the time this receiver posted
    ps.status = ProcessState::Status::Running;
}

} // namespace npusim::sim
