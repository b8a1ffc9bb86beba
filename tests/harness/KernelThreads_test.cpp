// Engine variants that must not change a run: kernel calls on a thread pool
// (SimOptions::kernel_threads) and lock run-ahead (SimOptions::lock_run_ahead). Every registered
// design gives the same outputs, cycles, statistics, errors and trace (the same sink calls in the
// same order) with calls handed to two pool threads as with every call on the simulating thread,
// and with run-ahead locks as with every acquirer waiting in SystemC.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/sim/TraceSink.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

using namespace npusim;
using namespace npusim::harness;
using namespace npusim::test;

namespace {
// Every trace call as one line of text, in the order the simulator made them.
class RecordingSink final : public sim::TraceSink {
public:
    std::vector<std::string> lines;
    void add_track(int track, const sim::TrackInfo& info) override {
        lines.push_back(fmt::format("track {} {} {},{}", track, info.name, info.col, info.row));
    }
    void span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) override {
        lines.push_back(fmt::format("span {} {} {} {}", track, name, begin, end));
    }
    void detailed_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin, std::uint64_t end,
                       sim::TraceArgs args) override {
        lines.push_back(
            fmt::format("dspan {} {} {} {} {}{}", track, static_cast<int>(kind), name, begin, end, text(args)));
    }
    void instant(int track, sim::TraceKind kind, std::string_view name, std::uint64_t cycle,
                 sim::TraceArgs args) override {
        lines.push_back(fmt::format("instant {} {} {} {}{}", track, static_cast<int>(kind), name, cycle, text(args)));
    }
    void counter(int track, std::uint64_t cycle, std::int64_t value) override {
        lines.push_back(fmt::format("counter {} {} {}", track, cycle, value));
    }
    void finish(std::uint64_t end_cycle) override { lines.push_back(fmt::format("finish {}", end_cycle)); }

private:
    static std::string text(sim::TraceArgs args) {
        std::string s;
        for (const auto& a : args)
            s += a.is_number ? fmt::format(" {}={}", a.key, a.number) : fmt::format(" {}='{}'", a.key, a.text);
        return s;
    }
};

struct Outcome {
    std::string error; ///< what the run threw, if it did
    bool all_match = false;
    sim::SimResult result;
    std::vector<std::string> trace;
};

struct Variant {
    unsigned threads = 1;
    bool check_memory = false; // kernel calls go to the pool only without the memory check
    bool lock_run_ahead = true;
};

Outcome run(const DesignSpec& d, KernelSet kernels, Variant v) {
    const auto& device = d.devices.front();
    RecordingSink sink;
    auto o = run_opts(device);
    o.kernels = kernels;
    o.sim.check_memory = v.check_memory;
    o.sim.kernel_threads = v.threads;
    o.sim.kernel_pool_min_nanos = 0; // every call of a pooled core, however short
    o.sim.lock_run_ahead = v.lock_run_ahead;
    o.sim.trace = &sink;
    Outcome out;
    try {
        auto rep = run_design(d, device, {}, o);
        out.all_match = rep.all_match;
        out.result = std::move(rep.result);
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    out.trace = std::move(sink.lines);
    return out;
}
// Where two traces part: the index of the first differing event and both events there.
std::string first_difference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    const auto first = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    if (first.first == a.end() && first.second == b.end()) return "";
    return fmt::format("event {}: first run '{}', second run '{}'", first.first - a.begin(),
                       first.first == a.end() ? "" : *first.first, first.second == b.end() ? "" : *first.second);
}

// The second run's outcome is the first's in every observable (not in scheduler_waits).
void check_same(const Outcome& first, const Outcome& second) {
    CHECK(second.error == first.error);
    CHECK(second.all_match == first.all_match);
    CHECK(second.result.cycles == first.result.cycles);
    CHECK(second.result.host == first.result.host);
    CHECK(second.result.bd_transfers == first.result.bd_transfers);
    CHECK(second.result.warnings == first.result.warnings);
    REQUIRE(second.result.cores.size() == first.result.cores.size());
    for (std::size_t i = 0; i < first.result.cores.size(); ++i) {
        const auto& a = first.result.cores[i];
        const auto& b = second.result.cores[i];
        INFO("core " << a.worker);
        CHECK(b.busy_cycles == a.busy_cycles);
        CHECK(b.stall_cycles == a.stall_cycles);
        CHECK(b.kernel_calls == a.kernel_calls);
        CHECK(b.iterations == a.iterations);
    }
    REQUIRE(second.result.channels.size() == first.result.channels.size());
    for (std::size_t i = 0; i < first.result.channels.size(); ++i) {
        const auto& a = first.result.channels[i];
        const auto& b = second.result.channels[i];
        INFO("channel " << a.label);
        CHECK(b.bytes == a.bytes);
        CHECK(b.bds == a.bds);
        CHECK(b.active_cycles == a.active_cycles);
        CHECK(b.stream_stall_cycles == a.stream_stall_cycles);
        CHECK(b.lock_stall_cycles == a.lock_stall_cycles);
    }
    REQUIRE(second.result.invocations.size() == first.result.invocations.size());
    for (std::size_t i = 0; i < first.result.invocations.size(); ++i) {
        CHECK(second.result.invocations[i].begin_cycle == first.result.invocations[i].begin_cycle);
        CHECK(second.result.invocations[i].end_cycle == first.result.invocations[i].end_cycle);
    }
    // The same trace calls in the same order: the engine hands its sink the events sorted by
    // what happened (CanonicalTraceSink), however the processes interleaved them.
    CHECK(second.trace.size() == first.trace.size());
    CHECK(first_difference(first.trace, second.trace) == ""); // (not the whole traces: they are long)
}
} // namespace

TEST_CASE("every registered design runs the same with kernel calls on two pool threads, reference and AIE-API kernels",
          "[harness][kernel-threads][slow]") {
    int designs = 0, aie_designs = 0; // with the AIE-API kernels: the designs that have them
    for (const auto& d : all_designs())
        for (const auto kernels : {KernelSet::reference, KernelSet::aie}) {
            INFO("design " << d.name << " on " << d.devices.front() << ", kernels " << kernel_set_name(kernels));
            const auto serial = run(d, kernels, {.threads = 1});
            const auto pooled = run(d, kernels, {.threads = 2});
            if (kernels == KernelSet::reference)
                ++designs;
            else if (serial.error.empty())
                ++aie_designs;
            check_same(serial, pooled);
        }
    CHECK(designs >= 40);
    CHECK(aie_designs >= 5);
}

// Lock run-ahead: an ObjectFifo ring lock's acquirer takes a release made ahead of time without
// waiting in SystemC for its cycle (SemaphoreLock::set_run_ahead). With the memory check on (the
// default), which compares tile memory around kernel calls and fifo operations.
namespace {
struct RunAheadCount {
    int designs = 0; ///< registered designs
    int ran = 0; ///< of them, those that ran without an error (with these kernels)
    int fewer = 0; ///< those with fewer SystemC waits with run-ahead
};
/// A run's SystemC scheduling: its threads' waits and its methods' activations (the DMA channels).
std::uint64_t scheduling(const sim::SimResult& r) { return r.scheduler_waits + r.scheduler_activations; }
RunAheadCount compare_run_ahead(KernelSet kernels) {
    RunAheadCount n;
    for (const auto& d : all_designs()) {
        INFO("design " << d.name << " on " << d.devices.front() << ", kernels " << kernel_set_name(kernels));
        const auto waiting = run(d, kernels, {.check_memory = true, .lock_run_ahead = false});
        const auto ahead = run(d, kernels, {.check_memory = true, .lock_run_ahead = true});
        check_same(waiting, ahead);
        CHECK(scheduling(ahead.result) <= scheduling(waiting.result));
        ++n.designs;
        if (waiting.error.empty()) ++n.ran; // (not: a design without AIE-API kernels, or one that fails on purpose)
        if (scheduling(ahead.result) < scheduling(waiting.result)) ++n.fewer;
    }
    return n;
}
} // namespace

TEST_CASE("every registered design runs the same with lock run-ahead off, with fewer SystemC waits on",
          "[harness][run-ahead][slow]") {
    const auto n = compare_run_ahead(KernelSet::reference);
    CHECK(n.designs >= 40);
    // A ring saves waits where its releaser runs ahead of the acquirer (a core's kernel time, a
    // DMA's transfer) and the acquirer arrives after the release was made: 14 of 43 designs today.
    CHECK(n.fewer * 4 >= n.designs);
}

// The AIE-API kernels cost other cycles than the references, so the processes meet in other orders.
TEST_CASE("the designs with AIE-API kernels run the same with lock run-ahead off", "[harness][run-ahead][slow]") {
    CHECK(compare_run_ahead(KernelSet::aie).ran >= 5);
}
