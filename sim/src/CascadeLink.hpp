#pragma once
// CascadeLink: one cascade connection (Netlist::cascades entry) between two cores: an in-order
// channel of 512-bit words with a small FIFO. A put blocks while the FIFO is full, a get while it
// is empty; nothing ticks per cycle. Each word carries the time it entered the FIFO, so both ends
// keep their own local times (temporal decoupling, docs/architecture.md): a word becomes visible
// to the getter `latency` cycles after its put, and word n can enter only after word n - depth
// has left. The caller advances its own time by at least one cycle per word (the cascade port
// moves at most one word per cycle). docs/timing-model.md "Cascade".
#include "ProcessClock.hpp"
#include "ProcessState.hpp"
#include "npusim/model/Netlist.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace npusim::sim {

class CascadeLink {
public:
    /// Words the connection holds between a put and the matching get: 2 in the sender's output
    /// FIFO + 2 in the receiver's input FIFO (docs/hardware-sources.md, cascade_bits row: AM020
    /// "512-bit cascade stream, 2-deep FIFO each side"); [est] that the two FIFOs add up, with no
    /// extra register stage between them.
    static constexpr std::size_t kDepthWords = 4;

    CascadeLink(const model::CascadeConnection& conn, std::uint32_t latency_cycles, std::size_t depth = kDepthWords);

    /// Put one word at the putter's time `at`; blocks in SystemC while the FIFO is full (`ps`
    /// then says so). Returns the cycle the word entered the FIFO (>= at).
    std::uint64_t put(const std::byte* word, std::uint64_t at, ProcessClock& clk, ProcessState& ps);
    /// Get one word at the getter's time `at`; blocks while the FIFO is empty. Returns the cycle
    /// the getter took it (>= at, >= the word's put + latency).
    std::uint64_t get(std::byte* word, std::uint64_t at, ProcessClock& clk, ProcessState& ps);

    /// Teardown: wake both ends so they unwind.
    void wake_all() { changed_.notify(); }

    const model::CascadeConnection& connection() const { return conn_; }
    std::uint64_t words_put() const { return put_; }
    std::uint64_t words_got() const { return got_; }
    std::size_t words_held() const { return fifo_.size(); }
    std::size_t depth() const { return depth_; }
    /// Cycles the getter waited for words and the putter for room (in its own time).
    std::uint64_t get_stall_cycles() const { return get_stall_; }
    std::uint64_t put_stall_cycles() const { return put_stall_; }

private:
    struct Word {
        std::array<std::byte, model::kCascadeWordBytes> bytes;
        std::uint64_t ready; ///< cycle the getter can take it
    };
    const model::CascadeConnection& conn_;
    std::uint32_t latency_;
    std::size_t depth_;
    std::deque<Word> fifo_;
    std::vector<std::uint64_t> taken_at_; ///< per slot (word number mod depth): when it was taken
    std::uint64_t put_ = 0, got_ = 0;
    std::uint64_t get_stall_ = 0, put_stall_ = 0;
    std::string waits_for_word_, waits_for_room_; ///< ProcessState::detail texts
    sc_core::sc_event changed_;
};

} // namespace npusim::sim
