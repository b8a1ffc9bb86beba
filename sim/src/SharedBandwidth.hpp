#pragma once
// A memory path several DMA channels share (issue 11): the host memory (DDR / NoC) behind every
// shim channel (ddr_bytes_per_cycle), and a mem tile's banks behind its 12 channels
// (memtile_memory_bytes_per_cycle). Each chunk a channel reads or writes through it reserves
// ceil(bytes / bytes_per_cycle) cycles, one reservation after the other from the chunk's start (a
// single server of that rate). A chunk ends at the later of its own stream time and its
// reservation's end, so any number of channels together move at most bytes_per_cycle, while a lone
// channel still runs at its own rate.
// Approximation (docs/timing-model.md): reservations are served in the order processes make them;
// with temporal decoupling that is not always simulated-time order, which can delay a chunk by
// another's reservation. Aggregate bandwidth is exact; the share of each channel is approximate.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

namespace npusim::sim {

class SharedBandwidth {
public:
    SharedBandwidth(std::string label, double bytes_per_cycle) : label_(std::move(label)), rate_(bytes_per_cycle) {}
    /// Reserve `bytes` starting no earlier than `start`; returns the cycle the reservation ends.
    std::uint64_t reserve(std::uint64_t bytes, std::uint64_t start) {
        free_at_ =
            std::max(free_at_, start) + static_cast<std::uint64_t>(std::ceil(static_cast<double>(bytes) / rate_));
        bytes_ += bytes;
        return free_at_;
    }
    /// A chunk that took `cycles` on its stream was held `extra` cycles longer by this path.
    void count_delay(std::uint64_t extra) { delay_cycles_ += extra; }
    const std::string& label() const { return label_; }
    std::uint64_t bytes() const { return bytes_; }
    double bytes_per_cycle() const { return rate_; }
    /// Cycles chunks waited for this path beyond their own stream time (0: it never bounded a transfer).
    std::uint64_t delay_cycles() const { return delay_cycles_; }

private:
    std::string label_;
    double rate_;
    std::uint64_t free_at_ = 0;
    std::uint64_t bytes_ = 0;
    std::uint64_t delay_cycles_ = 0;
};

} // namespace npusim::sim
