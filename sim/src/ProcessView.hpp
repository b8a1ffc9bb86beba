#pragma once
// What the deadlock analyzer sees of one process when a run stops: its kind, its netlist index,
// its state and what it waits on, and its progress counters. Each process builds its own view
// (SimProcess::view), so the analyzer knows no process class.
#include "ProcessState.hpp"
#include "npusim/model/Netlist.hpp"
#include "npusim/sim/Diagnosis.hpp"

#include <cstdint>
#include <vector>

namespace npusim::sim {

class StreamLink;

struct ProcessView {
    enum class Kind { Worker, TileDma, ShimDma, Runtime };
    Kind kind = Kind::Worker;
    const ProcessState* state = nullptr;
    int index = -1; ///< Worker: Netlist::cores index; TileDma: Netlist::channels index
    model::StreamEndpoint endpoint; ///< TileDma / ShimDma
    const StreamLink* link = nullptr; ///< TileDma / ShimDma: its stream (nullptr: none)
    /// S2MM receiving a BD: bytes of that BD still missing and its size (0/0 when not receiving).
    std::uint64_t rx_remaining = 0, rx_total = 0;
    /// MM2S sending: bytes of the current BD / task sent and its size.
    std::uint64_t tx_done = 0, tx_total = 0;
    /// ShimDma: the task in progress (-1: none), tasks queued behind it, bytes moved by every
    /// task so far (completed and current).
    int task = -1;
    std::vector<int> queued;
    /// Runtime: the task it awaits (-1: none); the channel whose queue it waits on for a slot.
    int awaited_task = -1;
    bool waits_for_queue = false;
    model::StreamEndpoint queue_channel;
    int next_op = 0; ///< Runtime: index of the instruction it is at
    /// Worker: per ring (CoreProgram::rings order) objects held, acquired, released.
    struct RingCount {
        int held = 0;
        std::uint64_t acquired = 0, released = 0;
    };
    std::vector<RingCount> rings;
    /// Worker blocked on a cascade (ProcessState::Status::WaitCascade): the Netlist::cascades
    /// index, whether it puts (else gets), and the words the cascade FIFO holds now.
    int cascade = -1;
    bool cascade_put = false;
    std::size_t cascade_words = 0;
    std::size_t cascade_depth = 0;
    std::uint64_t cascade_words_put = 0, cascade_words_got = 0; ///< that cascade's totals so far
    ProcessProgress progress; ///< counters and last action (filled by the process)
};

} // namespace npusim::sim
