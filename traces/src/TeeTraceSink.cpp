#include "npusim/traces/TeeTraceSink.hpp"

#include <algorithm>
#include <exception>
#include <utility>

namespace npusim::traces {

TeeTraceSink::TeeTraceSink(std::vector<sim::TraceSink*> sinks) : sinks_(std::move(sinks)) {
    sinks_.erase(std::remove(sinks_.begin(), sinks_.end(), nullptr), sinks_.end());
}

void TeeTraceSink::begin_run(const sim::RunInfo& info) {
    for (sim::TraceSink* s : sinks_) s->begin_run(info);
}

void TeeTraceSink::add_track(int track, const sim::TrackInfo& info) {
    for (sim::TraceSink* s : sinks_) s->add_track(track, info);
}

void TeeTraceSink::span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) {
    for (sim::TraceSink* s : sinks_) s->span(track, name, begin, end);
}

void TeeTraceSink::detailed_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin,
                                 std::uint64_t end, sim::TraceArgs args) {
    for (sim::TraceSink* s : sinks_) s->detailed_span(track, kind, name, begin, end, args);
}

void TeeTraceSink::instant(int track, sim::TraceKind kind, std::string_view name, std::uint64_t cycle,
                           sim::TraceArgs args) {
    for (sim::TraceSink* s : sinks_) s->instant(track, kind, name, cycle, args);
}

void TeeTraceSink::counter(int track, std::uint64_t cycle, std::int64_t value) {
    for (sim::TraceSink* s : sinks_) s->counter(track, cycle, value);
}

void TeeTraceSink::finish(std::uint64_t end_cycle) {
    std::exception_ptr first;
    for (sim::TraceSink* s : sinks_) {
        try {
            s->finish(end_cycle);
        } catch (...) {
            if (!first) first = std::current_exception();
        }
    }
    if (first) std::rethrow_exception(first);
}

std::vector<std::string> TeeTraceSink::warnings() const {
    std::vector<std::string> all;
    for (const sim::TraceSink* s : sinks_)
        for (auto& w : s->warnings()) all.push_back(std::move(w));
    return all;
}

} // namespace npusim::traces
