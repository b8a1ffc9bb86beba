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
      rate_(stream_link_rate(sender_bytes_per_cycle, timing.stream_bytes_per_cycle, rx_)),
      rate_cost_(rate_cost(timing, rate_)), latency_(latency_cycles) {}

namespace {
bool all_posted(const std::vector<StreamReceiver*>& rx) {
    for (auto* r : rx)
        if (!r->posted) return false;
    return true;
}
} // namespace

void StreamLink::send(const std::uint8_t* data, std::uint64_t n, ProcessClock& clk, ProcessState& ps, ChannelTime& time,
                      const std::vector<StreamReceiver*>* to) {
    StreamSend s;
    begin_send(s, data, n, to);
    for (auto w = step(s, clk, ps, time); !w.done(); w = step(s, clk, ps, time)) clk.wait_for(w);
}

void StreamLink::begin_send(StreamSend& s, const std::uint8_t* data, std::uint64_t n,
                            const std::vector<StreamReceiver*>* to) {
    s.data = data;
    s.n = n;
    s.off = 0;
    s.rx = to ? to : &rx_;
    s.first = true;
    s.latency = -1;
    s.waiting = StreamSend::Waiting::Nothing;
    s.ahead.clear();
    sending_ = n;
    sent_ = 0;
}

Wake StreamLink::step(StreamSend& s, ProcessClock& clk, ProcessState& ps, ChannelTime& time) {
    const auto& rx = *s.rx;
    for (;;) {
        switch (s.waiting) {
        case StreamSend::Waiting::Arrival:
            // The chunk has arrived: deliver it, then go on with the next one.
            s.waiting = StreamSend::Waiting::Nothing;
            time.active += s.cycles;
            for (auto* r : rx) {
                r->accept(s.data + s.off, s.chunk);
                r->remaining -= s.chunk;
                if (r->remaining == 0) {
                    r->posted = false;
                    r->arrival_path = clk.path();
                    r->on_filled();
                }
            }
            stats_.bytes_moved += s.chunk * rx.size();
            delivered_ += s.chunk;
            s.off += s.chunk;
            sent_ = s.off;
            s.ahead.advance(s.off);
            continue;
        case StreamSend::Waiting::Posts:
            if (!all_posted(rx)) return Wake::keep_local(posted_);
            s.waiting = StreamSend::Waiting::Nothing;
            time.stream_stall += clk.local_cycles() - s.waited_from; // the local time may stay ...
            sender_waiting_ = false;
            ps.status = ProcessState::Status::Running;
            break;
        case StreamSend::Waiting::Nothing:
            if (s.off >= s.n) {
                sending_ = sent_ = 0;
                return {};
            }
            if (!all_posted(rx)) {
                ps.status = ProcessState::Status::WaitStream;
                ps.since = clk.local_cycles();
                sender_waiting_ = true;
                s.waited_from = clk.local_cycles();
                s.waiting = StreamSend::Waiting::Posts;
                return Wake::keep_local(posted_);
            }
            break;
        }
        std::uint64_t chunk = s.n - s.off;
        std::uint64_t start = clk.local_cycles();
        for (auto* r : rx) {
            chunk = std::min(chunk, r->remaining);
            start = std::max(start, r->ready_at);
            clk.join(r->ready_path); // the receiver that posted last determined the start
        }
        if (start > now_cycles() &&
            std::any_of(shared_.begin(), shared_.end(), [](const SharedBandwidth* p) { return p->contended(); })) {
            // A chunk through a shared path its links can oversubscribe (host memory behind more
            // than 12 shim channels at 4 B/cycle) reserves it at its start in simulated time:
            // reservations that contend for the same cycles are then made in simulated-time order,
            // not in the order processes running ahead reach them, so the share each channel gets
            // does not depend on the engine's scheduling. A path that cannot be oversubscribed
            // never holds a chunk, and is reserved without the wait.
            time.stream_stall += start - clk.local_cycles();
            return Wake::until(start);
        }
        time.stream_stall += start - clk.local_cycles(); // ... and a receiver posted after it
        const auto route_latency = s.latency >= 0 ? static_cast<std::uint32_t>(s.latency) : latency_;
        const std::uint32_t latency = s.first ? route_latency : 0;
        auto cycles = stream_transfer_cycles(chunk, rate_, latency);
        s.first = false;
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
        // The chunk's cycles on the sender's chain (it waits for them in SystemC below).
        clk.extend_path(PathCost::SwitchHop, latency);
        clk.extend_path(rate_cost_, own - latency);
        if (bound)
            clk.extend_path(bound->label().rfind("host memory", 0) == 0 ? PathCost::HostMemory : PathCost::MemTileBanks,
                            cycles - own);
        s.chunk = chunk;
        s.cycles = cycles;
        s.waiting = StreamSend::Waiting::Arrival;
        return Wake::until(start + cycles); // one wait: until the chunk has arrived
    }
}

void StreamLink::post_receive(StreamReceiver& r, std::uint64_t n, ProcessClock& clk, ProcessState& ps) {
    r.remaining = n;
    r.ready_at = clk.local_cycles();
    r.ready_path = clk.path();
    r.posted = true;
    posted_.notify();
    ps.status = ProcessState::Status::WaitStream;
    ps.since = clk.local_cycles();
}

void StreamLink::receive(StreamReceiver& r, std::uint64_t n, ProcessClock& clk, ProcessState& ps) {
    if (n == 0) return;
    post_receive(r, n, clk, ps);
    while (r.posted) clk.wait(r.filled);
    clk.set_local_cycles(now_cycles()); // the data arrived at or after the time this receiver posted
    clk.join(r.arrival_path);
    ps.status = ProcessState::Status::Running;
}

} // namespace npusim::sim
