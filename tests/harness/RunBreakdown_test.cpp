// The run summary's breakdown: per-tile time by cause, achieved MACs against peak, and
// the unit that bounds throughput, checked on runs whose answer is known independently.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/RunBreakdown.hpp"
#include "npusim/model/ComputePeak.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("a memcpy over every column of npu2 is bound by the shared host memory", "[harness][breakdown]") {
    // 16 paths of 4 B/cycle would move 128 B/cycle; the host memory serves 50 (SharedBandwidth_test).
    const auto rep = run_design(design_by_name("memcpy"), "npu2",
                                {{"size", 4 << 20}, {"columns", 8}, {"channels", 2}, {"bypass", 1}}, 1, {});
    REQUIRE(rep.all_match);
    const auto b = run_breakdown(rep.result, model::device_by_name("npu2"));
    CHECK(b.bound.kind == Bottleneck::Kind::SharedPath);
    CHECK(b.bound.name == "host memory (DDR)");
    CHECK(b.bound.busy_fraction >= kBoundBusyFraction);
    CHECK(b.bound.busy_fraction <= 1.0);
    CHECK(b.macs == 0); // a copy declares no MACs
    // Shim and mem tiles of the 8 columns, no cores.
    CHECK(b.tiles.size() == 16);
    for (const auto& t : b.tiles) {
        INFO(model::to_string(t.tile));
        CHECK(t.worker.empty());
        CHECK(t.channels == 4);
        CHECK(t.dma_active_cycles > 0);
        CHECK(t.dma_active_cycles <= 4 * b.cycles); // never more than the run per channel
        CHECK(t.dma_active_cycles + t.dma_stream_stall_cycles + t.dma_lock_stall_cycles <= 4 * b.cycles);
    }
    // A lone channel is bound by its own stream rate: the channel, not the host memory.
    const auto one = run_design(design_by_name("memcpy"), "npu2",
                                {{"size", 1 << 18}, {"columns", 1}, {"channels", 1}, {"bypass", 1}}, 1, {});
    const auto b1 = run_breakdown(one.result, model::device_by_name("npu2"));
    CHECK(b1.bound.kind == Bottleneck::Kind::Channel);
    CHECK(b1.bound.busy_fraction >= kBoundBusyFraction);
}

TEST_CASE("matmul: the MACs the kernels declare, per core never above the matrix unit's peak", "[harness][breakdown]") {
    const std::int64_t M = 128, K = 128, N = 128;
    const auto rep = run_design(design_by_name("matmul_single_core"), "npu1_1col",
                                {{"M", M}, {"K", K}, {"N", N}, {"m", 32}, {"k", 32}, {"n", 32}}, 1, {});
    REQUIRE(rep.all_match);
    const auto b = run_breakdown(rep.result, model::device_by_name("npu1_1col"));
    CHECK(b.macs == static_cast<std::uint64_t>(M * K * N)); // the product's MACs, counted once
    CHECK(b.mac_cores == 1);
    const double peak = model::matmul_mac_peak(model::Arch::AIE2, DType::i16).macs_per_cycle;
    CHECK(b.peak_macs_per_cycle == peak);
    CHECK(b.macs_per_kernel_cycle() <= peak);
    // A 32^3 i16 call is 512 cycles of the matrix unit and 352 of mm.cc's per-outer-iteration fill,
    // C stores and loop control (kernels::matmul_cycles), 864 + 8 overhead: 59% of peak; the zeroing
    // calls lower it a little more.
    CHECK(b.macs_per_kernel_cycle() > 0.5 * peak);
    CHECK(b.macs_per_kernel_cycle() < 512.0 / 872.0 * peak);
    CHECK(b.macs_per_cycle() < b.macs_per_kernel_cycle()); // the run also moves data and waits
    REQUIRE(b.tiles.size() >= 3);
    const auto core = std::find_if(b.tiles.begin(), b.tiles.end(), [](const TileTime& t) { return !t.worker.empty(); });
    REQUIRE(core != b.tiles.end());
    CHECK(core->kernel_cycles == rep.result.cores[0].kernel_cycles);
    CHECK(core->kernel_cycles + core->body_cycles == rep.result.cores[0].busy_cycles);
    CHECK(core->kernel_cycles + core->body_cycles + core->core_lock_stall_cycles <= b.cycles);
}

namespace {
// Sums the stream-stall spans of every DMA track, by channel.
struct StallSums final : sim::TraceSink {
    std::map<int, model::StreamEndpoint> endpoint;
    std::map<std::string, std::uint64_t> stall; // to_string(endpoint) -> cycles
    std::set<std::string> causes;
    void add_track(int t, const sim::TrackInfo& i) override {
        if (i.kind == sim::TrackInfo::Kind::Dma) endpoint[t] = {{i.col, i.row}, i.dir, i.channel};
    }
    void span(int, std::string_view, std::uint64_t, std::uint64_t) override {}
    void detailed_span(int t, sim::TraceKind k, std::string_view name, std::uint64_t b, std::uint64_t e,
                       sim::TraceArgs) override {
        if (k != sim::TraceKind::StreamStall) return;
        REQUIRE(endpoint.count(t));
        stall[model::to_string(endpoint[t])] += e - b;
        causes.emplace(name);
    }
    void counter(int, std::uint64_t, std::int64_t) override {}
    void finish(std::uint64_t) override {}
};
} // namespace

TEST_CASE("the trace's stream-stall spans add up to each channel's stream-wait cycles", "[harness][breakdown][trace]") {
    StallSums sums;
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2);
    o.trace = &sums;
    const auto rep = run_design(design_by_name("vector_scalar_mul"), "npu1_1col", {}, 1, o);
    REQUIRE(rep.all_match);
    std::uint64_t total = 0;
    for (const auto& ch : rep.result.channels) {
        INFO(model::to_string(ch.channel));
        CHECK(sums.stall[model::to_string(ch.channel)] == ch.stream_stall_cycles);
        total += ch.stream_stall_cycles;
    }
    CHECK(total > 0); // E3's core consumes slower than the shim delivers: somebody waits
    CHECK(sums.causes.count("stream stall: starved") == 1);
}

// E8's cascade kernels wait on each other's words: the breakdown splits the cores' stall into lock
// and cascade waits (CoreStats::cascade_stall_cycles), and the trace draws the cascade part as
// cascade-stall spans right after each lengthened kernel call, adding up to the same cycles.
TEST_CASE("cascade waits: their own breakdown column and trace spans that add up to them",
          "[harness][breakdown][trace][cascade]") {
    struct CoreSpans final : sim::TraceSink {
        std::map<int, model::TileCoord> tile;
        std::map<std::string, std::uint64_t> cascade; // to_string(tile) -> cycles
        std::map<std::string, std::uint64_t> last_kernel_end;
        bool after_kernel = true;
        void add_track(int t, const sim::TrackInfo& i) override {
            if (i.kind == sim::TrackInfo::Kind::Core) tile[t] = {i.col, i.row};
        }
        void span(int, std::string_view, std::uint64_t, std::uint64_t) override {}
        void detailed_span(int t, sim::TraceKind k, std::string_view, std::uint64_t b, std::uint64_t e,
                           sim::TraceArgs) override {
            if (!tile.count(t)) return;
            const auto key = model::to_string(tile[t]);
            if (k == sim::TraceKind::KernelCall) last_kernel_end[key] = e;
            if (k != sim::TraceKind::CascadeStall) return;
            cascade[key] += e - b;
            after_kernel = after_kernel && last_kernel_end[key] == b;
        }
        void counter(int, std::uint64_t, std::int64_t) override {}
        void finish(std::uint64_t) override {}
    } spans;
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2P);
    o.trace = &spans;
    const auto rep = run_design(design_by_name("matmul_cascade"), "npu2", {{"M", 128}, {"N", 128}, {"K", 256}}, 1, o);
    REQUIRE(rep.all_match);
    const auto b = run_breakdown(rep.result, model::device_by_name("npu2"));
    std::uint64_t cascade_total = 0;
    for (const auto& c : rep.result.cores) {
        const auto key = model::to_string(c.tile);
        INFO(key);
        const auto t =
            std::find_if(b.tiles.begin(), b.tiles.end(), [&](const TileTime& x) { return x.tile == c.tile; });
        REQUIRE(t != b.tiles.end());
        CHECK(t->core_cascade_stall_cycles == c.cascade_stall_cycles);
        CHECK(t->core_lock_stall_cycles + t->core_cascade_stall_cycles == c.stall_cycles);
        CHECK(spans.cascade[key] == c.cascade_stall_cycles);
        cascade_total += c.cascade_stall_cycles;
    }
    CHECK(cascade_total > 0); // the chain's getters wait for their putters' words
    CHECK(spans.after_kernel);
}
