#pragma once
// The host memory (DDR / NoC) path every shim DMA channel shares (issue 11): each chunk a shim
// channel reads or writes reserves ceil(bytes / ddr_bytes_per_cycle) cycles of it, one reservation
// after the other from the chunk's start (a single server of that rate). A chunk ends at the later
// of its own stream time and its reservation's end, so any number of channels together move at
// most ddr_bytes_per_cycle, while a lone channel still runs at its own rate (4 B/cycle < DDR).
// Approximation (docs/timing-model.md): reservations are served in the order processes make them;
// with temporal decoupling that is not always simulated-time order, which can delay a chunk by
// another's reservation. Aggregate bandwidth is exact; the share of each channel is approximate.
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace npusim::sim {

class DdrBandwidth {
public:
    explicit DdrBandwidth(double bytes_per_cycle) : rate_(bytes_per_cycle) {}
    /// Reserve `bytes` starting no earlier than `start`; returns the cycle the reservation ends.
    std::uint64_t reserve(std::uint64_t bytes, std::uint64_t start) {
        free_at_ = std::max(free_at_, start) +
                   static_cast<std::uint64_t>(std::ceil(static_cast<double>(bytes) / rate_));
        bytes_ += bytes;
        return free_at_;
    }
    std::uint64_t bytes() const { return bytes_; }
    double bytes_per_cycle() const { return rate_; }

private:
    double rate_;
    std::uint64_t free_at_ = 0;
    std::uint64_t bytes_ = 0;
};

} // namespace npusim::sim
