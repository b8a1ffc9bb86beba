#pragma once
// Asks the host's caches for the host memory a shim DMA channel reads or writes next. A design that
// streams a large tensor through host memory (E1, and every design whose tensors outgrow the
// caches) finds each chunk's source (a shim MM2S) or destination (a shim S2MM) cold, and a chunk's
// copy runs at the end of its transfer, after the simulation of the steps between. Asked for one
// window ahead, the lines arrive while those steps are simulated instead of stalling the copy
// (docs/performance.md, "Data movement against a memcpy floor", "What an object costs now"). A hint only: nothing a
// run computes depends on it, and it never touches memory outside the range it was given.
#include <algorithm>
#include <cstdint>

namespace npusim::sim {

class HostPrefetch {
public:
    /// How far ahead of the channel's position bytes are asked for: one 4 KiB object, E1's.
    static constexpr std::uint64_t kWindowBytes = 4096;
    static constexpr std::uint64_t kLineBytes = 64;

    /// A new range: `n` bytes from `base`, read (for_write false) or written, in order.
    void reset(const std::uint8_t* base, std::uint64_t n, bool for_write) {
        base_ = base;
        n_ = n;
        asked_ = 0;
        at_ = 0;
        for_write_ = for_write;
    }
    /// Nothing to ask for (a range the channel does not walk in order).
    void clear() { reset(nullptr, 0, false); }

    /// The channel is at byte `at` of its range: ask for the bytes of [at, at + kWindowBytes) not
    /// asked for yet, one line at a time from the first of them.
    /// The steps start at that byte, not at its line's start. Measured: starting each window at the
    /// line's start (one line more per window, on the page after the window's when the range is not
    /// line-aligned, as a malloc'd tensor is not) made E1 at 64 MiB 17 % slower than these
    /// steps (1,042 against 889 ns per object).
    void advance(std::uint64_t at) {
        const auto to = std::min(n_, at + kWindowBytes);
        const auto from = std::max(asked_, at);
        if (from >= to) return;
        const std::uint8_t* const end = base_ + to;
        if (for_write_) {
            for (const std::uint8_t* p = base_ + from; p < end; p += kLineBytes) __builtin_prefetch(p, 1, 3);
        } else {
            for (const std::uint8_t* p = base_ + from; p < end; p += kLineBytes) __builtin_prefetch(p, 0, 3);
        }
        asked_ = to;
    }
    /// The channel moved `n` more bytes of its range in order: advance to its new position.
    void moved(std::uint64_t n) { advance(at_ += n); }
    /// The range's bytes asked for so far: [0, asked()).
    std::uint64_t asked() const { return asked_; }

private:
    const std::uint8_t* base_ = nullptr;
    std::uint64_t n_ = 0;
    std::uint64_t asked_ = 0;
    std::uint64_t at_ = 0; ///< moved(): the position so far
    bool for_write_ = false;
};

} // namespace npusim::sim
