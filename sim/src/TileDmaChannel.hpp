#pragma once
// A DMA channel of a compute or mem tile walking its BD chain: per BD, acquire the BD's lock,
// move the BD's bytes as one timed stream transaction (MM2S: read tile memory through the BD's
// address pattern; S2MM: write it), release the BD's lock, follow next_bd.
//
// An S2MM channel is driven by its sender: when a BD is filled, on_filled() (running in the
// sender's process at the arrival time) releases the BD's lock, moves to the next BD and, if that
// BD's lock can be taken at once, posts it. The channel's own process only wakes when a lock has
// to be waited for, so an S2MM BD costs no SystemC activation of its own.
//
// The channel is a SystemC method, not a thread (SimProcess::is_method): a state machine that
// runs its BD chain until it must wait (for a BD's lock, a receiver's post, a chunk's arrival, the
// packet switch's grant, the fill of its own posted BD) and names what it waits for. It runs no
// user code, so it needs no stack; a method's activation costs SystemC about 0.4x a thread's wait
// (BM_SystemCWaitVsMethod).
#include "PacketSwitch.hpp"
#include "SemaphoreLock.hpp"
#include "SimProcess.hpp"
#include "StreamLink.hpp"
#include "TileMemory.hpp"
#include "npusim/model/AddressPattern.hpp"
#include "npusim/model/Netlist.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace npusim::sim {

/// What a tile DMA channel uses of its run.
struct TileDmaServices {
    RunServices run;
    const std::vector<model::NetBuffer>& buffers;
    TileMemory& memory;
    LockTable& locks;
    RunStats& stats;
};

class TileDmaChannel final : public SimProcess, public StreamReceiver {
public:
    TileDmaChannel(const TileDmaServices& services, const model::DmaChannelProgram& prog);
    void set_link(StreamLink* link) { link_ = link; }
    /// MM2S into packet flows: its BDs' packets go through `sw` as its sender `source`
    /// (the switch's link is this channel's link too).
    void set_packet_port(PacketSwitch* sw, int source) {
        packet_ = sw;
        packet_source_ = source;
        link_ = &sw->link();
    }

    void accept(const std::uint8_t* data, std::uint64_t n) override;
    void on_filled() override;
    std::string label() const override;
    const model::DmaChannelProgram& program() const { return prog_; }
    std::uint64_t bytes() const { return bytes_; }
    std::uint64_t bds_done() const { return bds_done_; }
    const ChannelTime& time() const { return time_; }
    int current_bd() const { return bd_; }
    ProcessView view() const override;
    void wake_all() {
        filled.notify();
        wake_.notify();
    }

    bool is_method() const override { return true; }

private:
    void activate() override;
    /// Start taking the current BD's lock (acquire_bd_lock goes on with it); a wait is traced as a
    /// lock stall. `waiting_since`: the cycle the channel began waiting for it while asleep
    /// (on_filled), if so.
    void begin_bd_lock(const model::BufferDescriptor& bd, std::uint64_t waiting_since = UINT64_MAX);
    /// Go on taking it: Done when taken (and its stall noted), else what to wait for.
    Wake acquire_bd_lock(const model::BufferDescriptor& bd);
    /// MM2S: the current BD's lock is taken; set it up and start sending its data.
    void start_bd(const model::BufferDescriptor& bd);
    /// MM2S: the current BD's data was sent; count and trace it, release its lock.
    void finish_bd(const model::BufferDescriptor& bd);
    /// The BD waited `stall` cycles from `from` for its acquire of `lock`: counted and traced.
    void note_lock_stall(const model::BufferDescriptor& bd, const SemaphoreLock& lock, std::uint64_t from,
                         std::uint64_t stall);
    /// Trace one BD's transfer [begin, end) with its fifo, role, element, bytes and BD id, and the
    /// last `streaming` cycles of it as the time its data moved.
    /// The checks are inline (a compare per BD without a trace).
    void trace_bd(const model::BufferDescriptor& bd, std::uint64_t begin, std::uint64_t end, std::uint64_t bytes,
                  std::uint64_t streaming) {
        if (track_ >= 0) emit_bd(bd, begin, end, bytes, streaming);
    }
    /// Trace `cycles` of waiting on the stream from `from` ("back-pressure" or "starved").
    void trace_stream_stall(const model::BufferDescriptor& bd, std::uint64_t from, std::uint64_t cycles,
                            std::string_view why) {
        if (track_ >= 0 && cycles > 0) emit_stream_stall(bd, from, cycles, why);
    }
    void emit_bd(const model::BufferDescriptor& bd, std::uint64_t begin, std::uint64_t end, std::uint64_t bytes,
                 std::uint64_t streaming);
    void emit_stream_stall(const model::BufferDescriptor& bd, std::uint64_t from, std::uint64_t cycles,
                           std::string_view why);
    void gather_padded(const model::BufferDescriptor& bd, std::int64_t base);
    /// S2MM: offer the current BD's capacity from cycle `at`, with the channel's chain to there.
    void post(std::uint64_t at, const CriticalPath& path);
    bool advance(); ///< move to the next BD; false when the chain ended
    const std::vector<model::NetBuffer>& buffers_;
    LockTable& locks_;
    RunStats& stats_;
    const model::DmaChannelProgram& prog_;
    TileMemory& memory_;
    std::uint8_t* mem_;
    std::vector<std::uint8_t*> bd_mem_; ///< per BD: the memory of its buffer's tile
    std::vector<model::AddressPattern> patterns_; ///< per BD
    std::vector<std::string> bd_labels_; ///< per BD: "BD 2 (fifo 'in' consumer copy, element 0)"
    StreamLink* link_ = nullptr;
    PacketSwitch* packet_ = nullptr;
    int packet_source_ = -1;
    std::vector<std::uint8_t> packet_staging_; ///< a header word and the BD's data (circuit flow)
    std::optional<model::AddressPattern::Cursor> cursor_;
    std::vector<std::uint8_t> staging_;
    int bd_ = 0;
    int repeats_left_ = 0;
    bool chain_done_ = false;
    /// Where activate() goes on (MM2S: a BD's lock, its send, the next BD; S2MM: a BD's lock,
    /// asleep while on_filled keeps the chain going).
    enum class Phase { Start, Mm2sBd, Mm2sLock, Mm2sSend, Mm2sNext, S2mmBd, S2mmLock, S2mmAsleep, Done };
    Phase phase_ = Phase::Start;
    int repeat_ = 0; ///< MM2S: executions of the current BD so far (BufferDescriptor::repeat)
    LockAcquire acquire_; ///< the current BD's lock acquire
    std::uint64_t lock_from_ = 0, lock_stall_ = 0;
    std::uint64_t waiting_since_ = UINT64_MAX; ///< S2MM: see begin_bd_lock
    std::uint64_t active_before_ = 0, stalled_before_ = 0, total_ = 0; ///< MM2S: the BD in progress
    StreamSend send_;
    PacketSwitch::Send packet_send_;
    bool thread_asleep_ = false; ///< S2MM: the process waits for on_filled to hand back
    std::uint64_t resume_at_ = 0;
    CriticalPath resume_path_; ///< the chain on_filled reached at resume_at_
    int watching_ = -1; ///< S2MM asleep until this lock's next release (on_filled), or -1
    std::uint64_t bd_begin_ = 0;
    sc_core::sc_event wake_;
    std::uint64_t bytes_ = 0;
    std::uint64_t bds_done_ = 0;
    ChannelTime time_;
};

} // namespace npusim::sim
