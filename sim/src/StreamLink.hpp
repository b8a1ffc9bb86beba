#pragma once
// A stream flow from one MM2S channel to one or more S2MM channels. Data moves as timed
// transactions: the sender offers a whole BD, each receiver posts the capacity of its current BD,
// and a chunk of min(offer, every receiver's capacity) moves in one step of
//   ceil(bytes / rate) cycles (+ route latency on the first chunk of each sender BD),
// starting when the sender and every receiver are ready (each side's local time, so neither has to
// wait in SystemC before offering or posting),
// rate = the slowest of the stream and the two DMA channels. A receiver that has not posted
// back-pressures the sender (a broadcast waits for all its destinations).
#include "HostPrefetch.hpp"
#include "ProcessClock.hpp"
#include "ProcessState.hpp"
#include "RunServices.hpp"
#include "SharedBandwidth.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::sim {

/// Where a DMA channel's time went, for the run summary (ChannelStats): moving data on its stream,
/// waiting on the stream (a sender for a receiver to post, a receiver for data), waiting for a
/// BD's lock. The rest of the run is overhead (BD setup, task dispatch) and idle.
struct ChannelTime {
    std::uint64_t active = 0;
    std::uint64_t stream_stall = 0;
    std::uint64_t lock_stall = 0;
};

/// The receiving side of a stream: an S2MM channel writing into tile or host memory.
class StreamReceiver {
public:
    virtual ~StreamReceiver() = default;
    /// Write the next `n` bytes of the current BD.
    virtual void accept(const std::uint8_t* data, std::uint64_t n) = 0;
    virtual std::string label() const = 0;
    /// The current BD is complete (remaining reached 0, posted is false). Runs in the sender's
    /// process at the arrival time. Default: wake the receiver's process.
    virtual void on_filled() { filled.notify(); }
    bool posted = false;
    std::uint64_t remaining = 0;
    /// Bytes this receiver actually wrote to memory (its accept() counts them), for the
    /// end-of-run invariant: equal to what the link delivered (InvariantChecker).
    std::uint64_t written = 0;
    std::uint64_t ready_at = 0; ///< the receiver's local time when it posted
    CriticalPath ready_path; ///< the receiver's chain when it posted (the sender joins it)
    /// The sender's chain at the arrival of the BD's last byte, set before on_filled: the chain
    /// the receiver goes on with.
    CriticalPath arrival_path;
    double bytes_per_cycle = 4.0;
    sc_core::sc_event filled;
};

/// Cycles to move `bytes` over a link at `bytes_per_cycle`, plus `latency_cycles` (the route's
/// latency, charged on the first chunk of each sender BD). Inline, and the ceiling without libm's
/// ceil (a call at the baseline ISA): the truncation rounded up when it dropped a fraction, which
/// is ceil for every quotient below 2^63.
inline std::uint64_t stream_transfer_cycles(std::uint64_t bytes, double bytes_per_cycle, std::uint32_t latency_cycles) {
    const double q = static_cast<double>(bytes) / bytes_per_cycle;
    auto cycles = static_cast<std::uint64_t>(q);
    if (static_cast<double>(cycles) < q) ++cycles;
    return cycles + latency_cycles;
}

/// The rate of a link: the slowest of the sender channel, the stream, and every receiver channel.
double stream_link_rate(double sender_bytes_per_cycle, double stream_bytes_per_cycle,
                        const std::vector<StreamReceiver*>& receivers);

/// A send in progress (StreamLink::begin_send, StreamLink::step): what send() keeps between its
/// waits, so that a sender without a stack of its own (a state machine the scheduler calls: the
/// DMA channels) can wait by returning and go on at its next activation.
struct StreamSend {
    const std::uint8_t* data = nullptr;
    std::uint64_t n = 0;
    std::uint64_t off = 0;
    const std::vector<StreamReceiver*>* rx = nullptr;
    bool first = true; ///< the next chunk is the transfer's first (pays the route latency)
    /// The route latency this send pays (a packet flow's own route), -1: the link's.
    std::int64_t latency = -1;
    /// What the last step waited for: nothing, every receiver's post, or a chunk's arrival.
    enum class Waiting { Nothing, Posts, Arrival };
    Waiting waiting = Waiting::Nothing;
    std::uint64_t waited_from = 0; ///< Posts: the sender's local time when it began waiting
    std::uint64_t chunk = 0; ///< Arrival: the chunk's bytes and cycles
    std::uint64_t cycles = 0;
    /// The source's next lines, asked for as each chunk is delivered: set by a sender reading host
    /// memory (a shim MM2S), empty otherwise (begin_send clears it).
    HostPrefetch ahead;
};

class StreamLink {
public:
    StreamLink(const model::TimingParams& timing, RunStats& stats, std::string label,
               std::vector<StreamReceiver*> receivers, double sender_bytes_per_cycle, std::uint32_t latency_cycles);

    /// Move n bytes from `data` to every receiver; returns when all were delivered. Adds the
    /// cycles data moved and the cycles the sender waited for receivers to `time`.
    /// `to`: only these receivers (a packet's destinations, PacketSwitch); default: all of them.
    /// A thread's send: begin_send, then step and wait as each step says.
    void send(const std::uint8_t* data, std::uint64_t n, ProcessClock& clk, ProcessState& ps, ChannelTime& time,
              const std::vector<StreamReceiver*>* to = nullptr);
    /// Start sending n bytes from `data` (to `to`, or to every receiver): `s` holds the transfer.
    void begin_send(StreamSend& s, const std::uint8_t* data, std::uint64_t n,
                    const std::vector<StreamReceiver*>* to = nullptr);
    /// Go on with `s` until it must wait, and say what for: every receiver's post (keeping the
    /// sender's local time) or the arrival of the chunk in flight; the sender then waits and steps
    /// again. A chunk is delivered at the step after its arrival. Done: every byte was delivered.
    Wake step(StreamSend& s, ProcessClock& clk, ProcessState& ps, ChannelTime& time);
    /// Post a receiver's BD of n bytes and wait until it is filled.
    void receive(StreamReceiver& r, std::uint64_t n, ProcessClock& clk, ProcessState& ps);
    /// receive() without the wait: post the BD; the receiver is filled when `r.posted` is false
    /// again (r.filled is notified then, or r.on_filled is called).
    void post_receive(StreamReceiver& r, std::uint64_t n, ProcessClock& clk, ProcessState& ps);

    const std::string& label() const { return label_; }
    /// A receiver posted: wake the sender if it waits for that (only send() waits on it, with
    /// sender_waiting() set; an immediate notification with nobody waiting does nothing, and cost
    /// about 74 instructions per object on E1, whose sender is usually the one posting).
    void notify_posted() {
        if (sender_waiting_) posted_.notify();
    }
    const std::vector<StreamReceiver*>& receivers() const { return rx_; }
    bool sender_waiting() const { return sender_waiting_; }
    double bytes_per_cycle() const { return rate_; }
    /// The timing parameter the link's rate comes from (rate_cost), for the chain of a process
    /// that times a word on it itself.
    PathCost rate_path_cost() const { return rate_cost_; }
    /// The sender's current transfer: bytes delivered so far and its size (0/0 between transfers).
    std::uint64_t sent() const { return sent_; }
    std::uint64_t sending() const { return sending_; }
    /// A shared memory path this link reads from or writes to: the host memory for a shim end, a
    /// mem tile's banks for a mem-tile end. Every chunk reserves its bytes on each (a broadcast
    /// reads its source once and writes each destination).
    void add_shared(SharedBandwidth* path) {
        shared_.push_back(path);
        path->attach(rate_);
    }
    const std::vector<SharedBandwidth*>& shared() const { return shared_; }
    /// Bytes delivered to every receiver since the run began.
    std::uint64_t delivered() const { return delivered_; }

private:
    RunStats& stats_;
    std::string label_;
    std::vector<StreamReceiver*> rx_;
    double rate_;
    PathCost rate_cost_; ///< the parameter rate_ comes from (rate_cost)
    std::uint32_t latency_;
    bool sender_waiting_ = false;
    std::uint64_t sent_ = 0, sending_ = 0;
    std::uint64_t delivered_ = 0;
    std::vector<SharedBandwidth*> shared_;
    sc_core::sc_event posted_;
};

} // namespace npusim::sim
