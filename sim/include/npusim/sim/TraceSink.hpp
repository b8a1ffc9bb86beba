#pragma once
// What the simulator reports about time: tracks (one per core, DMA channel, lock) carrying spans
// (a kernel call, a lock stall, a BD transfer), instants (a lock acquired or released) and counters
// (lock values). traces/ implements sinks (Perfetto JSON, mlir-aie JSON, VCD, summary). Spans are
// reported when they end, in time order per track; instants when they happen (a release at the
// cycle it takes effect, which may lie ahead of simulated time). Times are cycles of the array's
// clock (RunInfo::clock_mhz).
//
// The interface has two levels. add_track/span/counter/finish are what every sink implements.
// begin_run, detailed_span, instant and warnings carry more (what a span stands for, key/value
// arguments, lock hand-offs) and have defaults, so a sink written against the first level keeps
// working: detailed_span forwards to span() the kinds that were spans before it existed (kernel
// calls, transfers, blocked waits, other) and drops lock and stream stalls and streaming (sub-spans
// of a transfer); instants are dropped.
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Netlist.hpp"
#include "npusim/model/TimingParams.hpp"
#include "npusim/model/TraceConfig.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npusim::sim {

struct TrackInfo {
    enum class Kind { Core, Dma, Lock, Runtime } kind = Kind::Core;
    int col = 0;
    int row = 0;
    std::string name; ///< "core (0,2) worker_0", "(0,2) S2MM 0", "in_cons_prod_lock_0"
    /// Dma tracks: the channel (direction and number); -1 when not a DMA channel.
    int channel = -1;
    model::Direction dir = model::Direction::S2MM;
    /// Lock tracks: the lock's initial value, its value before anything happens in cycle 0 (the
    /// counter samples are values at the end of a cycle, so a cycle-0 acquire hides it there).
    std::optional<std::int64_t> initial;

    TrackInfo() = default;
    TrackInfo(Kind k, int c, int r, std::string n, int ch = -1, model::Direction d = model::Direction::S2MM)
        : kind(k), col(c), row(r), name(std::move(n)), channel(ch), dir(d) {}
};

/// What a span or instant stands for.
enum class TraceKind : std::uint8_t {
    Other, ///< anything else (runtime waits)
    KernelCall, ///< core track: one kernel call, its call overhead included
    Transfer, ///< DMA track: one BD (tile DMA) or one task (shim DMA), from ready to done
    Streaming, ///< DMA track (tile DMA): within a Transfer, the cycles its data moves on the stream
    LockStall, ///< core or DMA track: waiting for a lock to reach a value
    StreamStall, ///< DMA track: an MM2S waiting for its receivers (back-pressure), an S2MM for data (starved)
    /// core track: waiting on a cascade (a get for a word, a put for room); inside a kernel call, the
    /// cycles the call was lengthened by its cascade words, drawn right after the call's own span
    CascadeStall,
    Blocked, ///< any track: a wait still open when the run failed (up to the failure cycle)
    LockAcquire, ///< instant. Lock track: the acquire is granted; core track: the core requests it
    LockRelease, ///< instant. Lock track: the release takes effect; core track: the core issues it
    LockSet, ///< instant on a lock track: the runtime sequence set the value
};

/// One key/value argument of a span or instant (shown in Perfetto's args pane).
struct TraceArg {
    std::string_view key;
    std::string_view text; ///< when !is_number
    std::int64_t number = 0;
    bool is_number = false;
    static TraceArg num(std::string_view k, std::int64_t v) { return {k, {}, v, true}; }
    static TraceArg str(std::string_view k, std::string_view v) { return {k, v, 0, false}; }
};
using TraceArgs = std::span<const TraceArg>;

/// What a sink learns about the run before its tracks.
struct RunInfo {
    std::string design;
    std::string device; ///< "npu1_1col"
    model::Arch arch = model::Arch::AIE2;
    double clock_mhz = 0; ///< the array clock: one cycle lasts 1 / clock_mhz microseconds
    /// The design's trace configuration (Program::enable_trace), or null if it has none. Valid
    /// until finish() returns.
    const model::TraceConfig* trace_config = nullptr;
    /// The netlist being simulated (the design graph: tiles, buffers, locks, flows) and the run's
    /// timing parameters (channel peaks). Valid until finish() returns: a sink that needs them
    /// later copies what it uses.
    const model::Netlist* netlist = nullptr;
    const model::TimingParams* timing = nullptr;
};

class TraceSink {
public:
    virtual ~TraceSink() = default;
    /// Called once before any track is added.
    virtual void begin_run(const RunInfo& /*info*/) {}
    /// Called once per track before the run; returns nothing, tracks are numbered in call order.
    virtual void add_track(int track, const TrackInfo& info) = 0;
    /// A span [begin, end) in cycles on a track.
    virtual void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) = 0;
    /// A span that says what it is and carries arguments. Default: span(), except for LockStall,
    /// StreamStall, CascadeStall and Streaming.
    virtual void detailed_span(int track, TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                               TraceArgs /*args*/) {
        if (kind != TraceKind::LockStall && kind != TraceKind::StreamStall && kind != TraceKind::CascadeStall &&
            kind != TraceKind::Streaming)
            span(track, name, begin, end);
    }
    /// Something that happens at one cycle (a lock acquire or release). Default: ignored.
    virtual void instant(int /*track*/, TraceKind /*kind*/, std::string_view /*name*/, std::uint64_t /*cycle*/,
                         TraceArgs /*args*/) {}
    /// A counter value from `cycle` on (lock values).
    virtual void counter(int track, std::uint64_t cycle, std::int64_t value) = 0;
    /// The run ended at `end_cycle` (flush files here).
    virtual void finish(std::uint64_t end_cycle) = 0;
    /// What the sink has to tell the run after finish() (e.g. trace events dropped because the
    /// design's trace buffer was full); the simulator adds them to the run's warnings.
    virtual std::vector<std::string> warnings() const { return {}; }
};

} // namespace npusim::sim
