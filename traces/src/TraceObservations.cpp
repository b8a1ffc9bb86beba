#include "npusim/traces/TraceObservations.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace npusim::traces {

namespace {

enum class SlotUse { Ignore, Pulse, SpanLength, Total };
struct SlotClass {
    SlotUse use = SlotUse::Ignore;
    ObservationKind kind = ObservationKind::Kernel;
};

/// How an event slot is observed (the header's table). Names as MlirAieTraceSink fires them.
SlotClass classify(std::string_view name) {
    if (name == "INSTR_EVENT_0" || name == "INSTR_EVENT_1" || name == "INSTR_CALL" || name == "INSTR_RETURN")
        return {SlotUse::Pulse, ObservationKind::Kernel};
    if (name == "INSTR_VECTOR") return {SlotUse::SpanLength, ObservationKind::Kernel};
    if (name == "INSTR_LOCK_ACQUIRE_REQ" || name == "INSTR_LOCK_RELEASE_REQ")
        return {SlotUse::Pulse, ObservationKind::Lock};
    if (name == "LOCK_STALL" || name == "CASCADE_STALL") return {SlotUse::Total, ObservationKind::Lock};
    if (name.starts_with("PORT_RUNNING_")) return {SlotUse::Total, ObservationKind::Dma};
    if (name.starts_with("DMA_")) {
        if (name.ends_with("_STALLED_LOCK")) return {SlotUse::Total, ObservationKind::Lock};
        if (name.ends_with("_STREAM_STARVATION") || name.ends_with("_STREAM_BACKPRESSURE"))
            return {SlotUse::Total, ObservationKind::Dma};
        if (name.ends_with("_START_TASK") || name.ends_with("_FINISHED_BD") || name.ends_with("_FINISHED_TASK"))
            return {SlotUse::Pulse, ObservationKind::Dma};
    }
    return {};
}

std::string unit_name(const TraceUnitRecord& u) {
    return fmt::format("{} tile{},{}", model::trace_unit_type_name(u.type), u.tile.row, u.tile.col);
}

const TraceUnitRecord* find_unit(const MlirAieTraceFile& t, const TraceUnitRecord& like) {
    for (const auto& u : t.units)
        if (u.type == like.type && u.tile == like.tile) return &u;
    return nullptr;
}

} // namespace

const char* observation_kind_name(ObservationKind k) {
    switch (k) {
    case ObservationKind::Kernel: return "kernel spans";
    case ObservationKind::Lock: return "lock stalls";
    case ObservationKind::Dma: return "DMA activity";
    case ObservationKind::NpuTime: return "NPU time";
    }
    return "?";
}

const char* observation_kind_unit(ObservationKind k) { return k == ObservationKind::NpuTime ? "us" : "cycles"; }

std::vector<Observation> trace_observations(const MlirAieTraceFile& trace, const MlirAieTraceFile* measured) {
    std::vector<Observation> out;
    for (const auto& u : trace.units) {
        const TraceUnitRecord* m = measured ? find_unit(*measured, u) : &u;
        if (!m) continue;
        auto used = [&](std::size_t s) {
            return classify(u.slot_names[s]).use != SlotUse::Ignore && m->slot_names[s] == u.slot_names[s];
        };
        std::optional<std::uint64_t> t0;
        for (std::size_t s = 0; s < u.spans.size(); ++s)
            if (used(s) && !u.spans[s].empty()) t0 = std::min(t0.value_or(UINT64_MAX), u.spans[s].front().begin);
        if (!t0) continue;
        const std::string unit = unit_name(u);
        for (std::size_t s = 0; s < u.spans.size(); ++s) {
            const auto& name = u.slot_names[s];
            const auto c = used(s) ? classify(name) : SlotClass{};
            const auto& spans = u.spans[s];
            switch (c.use) {
            case SlotUse::Ignore: break;
            case SlotUse::Pulse:
                for (std::size_t i = 0; i < spans.size(); ++i)
                    out.push_back(
                        {fmt::format("{} {} #{}", unit, name, i), c.kind, static_cast<double>(spans[i].begin - *t0)});
                break;
            case SlotUse::SpanLength:
                for (std::size_t i = 0; i < spans.size(); ++i)
                    out.push_back({fmt::format("{} {} #{} length", unit, name, i), c.kind,
                                   static_cast<double>(spans[i].end - spans[i].begin)});
                break;
            case SlotUse::Total: {
                double total = 0;
                for (const auto& sp : spans) total += static_cast<double>(sp.end - sp.begin);
                out.push_back({fmt::format("{} {} total", unit, name), c.kind, total});
                if (!spans.empty()) { // where the activity starts and ends
                    out.push_back({fmt::format("{} {} first", unit, name), c.kind,
                                   static_cast<double>(spans.front().begin - *t0)});
                    std::uint64_t last = 0;
                    for (const auto& sp : spans) last = std::max(last, sp.end);
                    out.push_back({fmt::format("{} {} last", unit, name), c.kind, static_cast<double>(last - *t0)});
                }
                break;
            }
            }
        }
    }
    return out;
}

std::vector<double> align_observations(const MlirAieTraceFile& measured_trace, const std::vector<Observation>& measured,
                                       const MlirAieTraceFile& simulated_trace, const std::string& what) {
    auto refuse = [&](const std::string& why) {
        return DesignError(fmt::format("trace file {} is not a trace of {}: {}", measured_trace.origin, what, why));
    };
    // The same units, with the same events in their slots, and as many pulses and calls.
    for (const auto& u : measured_trace.units) {
        const auto* s = find_unit(simulated_trace, u);
        if (!s) {
            std::string traced;
            for (const auto& v : simulated_trace.units) traced += (traced.empty() ? "" : ", ") + unit_name(v);
            throw refuse(fmt::format("the trace has the unit '{}', which the simulated run does not trace (it "
                                     "traces: {})",
                                     unit_name(u), traced.empty() ? "nothing" : traced));
        }
        for (std::size_t i = 0; i < u.slot_names.size(); ++i) {
            const auto& a = u.slot_names[i];
            const auto& b = s->slot_names[i];
            if (classify(a).use == SlotUse::Ignore) continue; // not recorded, or nothing npusim fires
            if (a != b)
                throw refuse(fmt::format("slot {} of '{}' holds {} in the trace and {} in the simulated run", i,
                                         unit_name(u), a.empty() ? "no event" : a, b.empty() ? "no event" : b));
            const auto use = classify(a).use;
            if ((use == SlotUse::Pulse || use == SlotUse::SpanLength) && u.spans[i].size() != s->spans[i].size())
                throw refuse(fmt::format("'{}' has {} {} event(s) in the trace and {} in the simulated run (another "
                                         "design, other parameters, or a trace buffer that filled up)",
                                         unit_name(u), u.spans[i].size(), a, s->spans[i].size()));
        }
    }
    std::map<std::string, double> sim;
    for (const auto& o : trace_observations(simulated_trace, &measured_trace)) sim.emplace(o.key, o.value);
    std::vector<double> out;
    out.reserve(measured.size());
    for (const auto& o : measured) {
        auto it = sim.find(o.key);
        // A total or a pulse slot that stayed empty in the simulated run: nothing happened there.
        out.push_back(it == sim.end() ? 0.0 : it->second);
    }
    return out;
}

} // namespace npusim::traces
