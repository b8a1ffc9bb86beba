#pragma once
// Forwards every call to several sinks, in the order given (e.g. Perfetto + VCD + summary).
#include "npusim/sim/TraceSink.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::traces {

class TeeTraceSink final : public sim::TraceSink {
public:
    /// The sinks are not owned and must outlive the tee; null entries are dropped, so optional
    /// sinks can be passed as they are.
    explicit TeeTraceSink(std::vector<sim::TraceSink*> sinks);

    void begin_run(const sim::RunInfo& info) override;
    void add_track(int track, const sim::TrackInfo& info) override;
    void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) override;
    /// Each sink gets the detailed call (and applies its own default if it has no override).
    void detailed_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                       sim::TraceArgs args) override;
    void instant(int track, sim::TraceKind kind, std::string_view name, std::uint64_t cycle,
                 sim::TraceArgs args) override;
    void counter(int track, std::uint64_t cycle, std::int64_t value) override;
    /// Finishes every sink even if one throws (one unwritable file does not cost the others),
    /// then rethrows the first exception.
    void finish(std::uint64_t end_cycle) override;
    /// Every sink's warnings, in sink order.
    std::vector<std::string> warnings() const override;

    const std::vector<sim::TraceSink*>& sinks() const noexcept { return sinks_; }

private:
    std::vector<sim::TraceSink*> sinks_;
};

} // namespace npusim::traces
