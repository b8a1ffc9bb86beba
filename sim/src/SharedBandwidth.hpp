#pragma once
// A memory path several DMA channels share: the host memory (DDR / NoC) behind every
// shim channel (ddr_bytes_per_cycle), and a mem tile's banks behind its 12 channels
// (memtile_memory_bytes_per_cycle). Each chunk a channel reads or writes through it reserves
// ceil(bytes / bytes_per_cycle) cycles of a single server of that rate, from the chunk's start on,
// in the earliest cycles still free (a reservation may fill several gaps between others). A chunk
// ends at the later of its own stream time and its reservation's end, so any number of channels
// together move at most bytes_per_cycle, while a lone channel still runs at its own rate.
// Approximation (docs/timing-model.md): reservations are made in the order processes make them,
// which with temporal decoupling is not always simulated-time order. Filling gaps keeps a
// reservation made early for a late cycle (a process that ran ahead) from delaying one made later
// for an earlier cycle; only reservations that contend for the same free cycles depend on the
// order. Aggregate bandwidth is exact; the share of each channel is approximate.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npusim::sim {

class SharedBandwidth {
public:
    SharedBandwidth(std::string label, double bytes_per_cycle)
        : label_(std::move(label)), rate_(bytes_per_cycle),
          whole_rate_(bytes_per_cycle >= 1 && std::floor(bytes_per_cycle) == bytes_per_cycle
                          ? static_cast<std::uint64_t>(bytes_per_cycle)
                          : 0) {}
    /// Reserve `bytes` starting no earlier than `start` (>= now, simulated time; no reservation
    /// made from here on starts before now, so what ended by then is forgotten); returns the cycle
    /// the reservation ends.
    std::uint64_t reserve(std::uint64_t bytes, std::uint64_t start, std::uint64_t now = 0) {
        bytes_ += bytes;
        std::uint64_t need = whole_rate_ ? (bytes + whole_rate_ - 1) / whole_rate_
                                         : static_cast<std::uint64_t>(std::ceil(static_cast<double>(bytes) / rate_));
        while (head_ < busy_.size() && busy_[head_].end <= now) ++head_;
        if (head_ == busy_.size()) busy_.clear(), head_ = 0;
        if (need == 0) return start;
        if (busy_.empty() || start > busy_.back().end) { // after everything booked (the usual case)
            busy_.push_back({start, start + need});
            return start + need;
        }
        if (start == busy_.back().end) return busy_.back().end += need;
        // Fill the free cycles from `start` on, earliest first.
        std::size_t i = head_;
        while (busy_[i].end <= start) ++i;
        std::uint64_t t = start;
        for (std::size_t j = i; j < busy_.size() && need > 0; ++j) {
            if (busy_[j].begin > t) {
                const auto take = std::min(need, busy_[j].begin - t);
                busy_.insert(busy_.begin() + static_cast<std::ptrdiff_t>(j), Interval{t, t + take});
                need -= take;
                t += take;
                if (need == 0) break;
                ++j; // past the piece, onto the interval it fills up to
            }
            t = std::max(t, busy_[j].end);
        }
        if (need > 0) {
            busy_.push_back({t, t + need});
            t += need;
        }
        merge_from(i == head_ ? i : i - 1);
        return t;
    }
    /// A link of `bytes_per_cycle` moves data through this path.
    void attach(double bytes_per_cycle) { attached_ += bytes_per_cycle; }
    /// The links through it can together move more than its rate: then (and only then) it can hold
    /// a transfer, and the order of reservations matters.
    bool contended() const { return attached_ > rate_; }
    /// A chunk that took `cycles` on its stream was held `extra` cycles longer by this path.
    void count_delay(std::uint64_t extra) { delay_cycles_ += extra; }
    const std::string& label() const { return label_; }
    std::uint64_t bytes() const { return bytes_; }
    double bytes_per_cycle() const { return rate_; }
    /// Cycles chunks waited for this path beyond their own stream time (0: it never bounded a transfer).
    std::uint64_t delay_cycles() const { return delay_cycles_; }
    /// The server's booked cycles still to come, as disjoint [begin, end) intervals (for tests).
    std::vector<std::pair<std::uint64_t, std::uint64_t>> booked() const {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> v;
        for (std::size_t i = head_; i < busy_.size(); ++i) v.emplace_back(busy_[i].begin, busy_[i].end);
        return v;
    }

private:
    struct Interval {
        std::uint64_t begin, end;
    };
    /// Join the intervals from index i on that touch.
    void merge_from(std::size_t i) {
        std::size_t out = i;
        for (std::size_t k = i + 1; k < busy_.size(); ++k) {
            if (busy_[k].begin <= busy_[out].end)
                busy_[out].end = std::max(busy_[out].end, busy_[k].end);
            else
                busy_[++out] = busy_[k];
        }
        busy_.resize(out + 1);
    }
    std::string label_;
    double rate_;
    double attached_ = 0; ///< the links' rates summed (attach)
    std::uint64_t whole_rate_; ///< rate_ if it is a whole number of bytes (integer division), else 0
    std::vector<Interval> busy_; ///< booked cycles, sorted and disjoint; those before head_ are over
    std::size_t head_ = 0;
    std::uint64_t bytes_ = 0;
    std::uint64_t delay_cycles_ = 0;
};

} // namespace npusim::sim
