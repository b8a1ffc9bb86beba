// Cascades in simulation: words move in order between the two cores, the cascade's time is
// counted (a late putter delays the getter; a full FIFO stops the putter), a cascade wait that can
// never end is a diagnosed deadlock naming the cascade, and cascade calls without a CascadeFlow
// are protocol errors. docs/timing-model.md "Cascade".
#include "npusim/iron.hpp"
#include "npusim/sim/Diagnosis.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <set>

using namespace npusim;
using namespace npusim::iron;
using Catch::Matchers::Contains;
using npusim::test::bytes_of;

namespace {

using Word = std::array<std::int32_t, 16>; // one 512-bit cascade word

struct Chain {
    model::Netlist net;
    std::vector<std::int32_t> in;
};

// in -> top (0,3): x * 2 put on the cascade -> bottom (0,2): get, + 1 -> out. `objects` objects of
// 16 int32; the top worker charges `top_cycles` before each put.
Chain two_worker_chain(int objects, std::uint64_t top_cycles, const std::string& device = "npu1_1col") {
    ObjectFifo in(tensor<std::int32_t>({16}), "in"), out(tensor<std::int32_t>({16}), "out");
    Worker top(
        [top_cycles](ObjectFifoHandle i) {
            auto e = i.acquire(1);
            Word w;
            for (std::size_t k = 0; k < 16; ++k) w[k] = e.as<std::int32_t>()[k] * 2;
            if (top_cycles) add_cycles(top_cycles);
            cascade_put(w.data());
            i.release(1);
        },
        fn_args(in.cons()), {.tile = Tile(0, 3), .name = "top"});
    Worker bottom(
        [](ObjectFifoHandle o) {
            auto e = o.acquire(1);
            Word w;
            cascade_get(w.data());
            for (std::size_t k = 0; k < 16; ++k) e.as<std::int32_t>()[k] = w[k] + 1;
            o.release(1);
        },
        fn_args(out.prod()), {.tile = Tile(0, 2), .name = "bottom"});
    CascadeFlow(top, bottom);
    const std::int64_t n = 16 * objects;
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({n}), tensor<std::int32_t>({n}), in.prod(), out.cons()));
    Chain c{Program(device, rt, {top, bottom}, "cascade_chain").resolve(), {}};
    for (std::int64_t k = 0; k < n; ++k) c.in.push_back(static_cast<std::int32_t>(k * 3 - 7));
    return c;
}

sim::SimResult run(const Chain& c) {
    return sim::simulate(c.net, {bytes_of(c.in), std::vector<std::uint8_t>(c.in.size() * 4)}, {});
}

} // namespace

TEST_CASE("cascade words move in order from one core to the next", "[sim][cascade]") {
    for (const std::string dev : {"npu1_1col", "npu2"}) {
        const auto c = two_worker_chain(8, 0, dev);
        const auto r = run(c);
        std::vector<std::int32_t> got(c.in.size());
        std::memcpy(got.data(), r.host[1].data(), r.host[1].size());
        for (std::size_t k = 0; k < got.size(); ++k) REQUIRE(got[k] == c.in[k] * 2 + 1);
        CHECK(r.cycles > 0);
    }
}

TEST_CASE("cascade timing: a slow putter delays the getter by its own time", "[sim][cascade][timing]") {
    const auto fast = run(two_worker_chain(8, 0));
    const auto slow = run(two_worker_chain(8, 2000));
    // The getter cannot finish before the putter's 8 x 2000 cycles; the rest of the run (fill,
    // drain, dispatch) overlaps them.
    CHECK(slow.cycles >= 8 * 2000);
    CHECK(slow.cycles <= fast.cycles + 8 * 2000 + 500);
    const auto& bottom = slow.cores.at(1);
    CHECK(bottom.worker == "bottom");
    // After the first word, every word comes 2000 cycles after the previous one.
    CHECK(bottom.cascade_stall_cycles >= 7 * 2000 - 100);
    CHECK(bottom.stall_cycles >= bottom.cascade_stall_cycles);
    CHECK(slow.cores.at(0).cascade_stall_cycles == 0);
}

TEST_CASE("a full cascade FIFO stops the putter until the getter takes a word", "[sim][cascade][timing]") {
    // The top worker puts 8 words per iteration; the bottom one takes one word every 500 cycles.
    ObjectFifo in(tensor<std::int32_t>({16}), "in"), out(tensor<std::int32_t>({16}), "out");
    Worker top(
        [](ObjectFifoHandle i) {
            auto e = i.acquire(1);
            Word w{};
            for (int k = 0; k < 8; ++k) {
                w[0] = k;
                cascade_put(w.data());
            }
            i.release(1);
        },
        fn_args(in.cons()), {.tile = Tile(0, 3), .name = "top"});
    Worker bottom(
        [](ObjectFifoHandle o) {
            auto e = o.acquire(1);
            Word w{};
            for (int k = 0; k < 8; ++k) {
                add_cycles(500);
                cascade_get(w.data());
                e.as<std::int32_t>()[static_cast<std::size_t>(k)] = w[0];
            }
            o.release(1);
        },
        fn_args(out.prod()), {.tile = Tile(0, 2), .name = "bottom"});
    CascadeFlow(top, bottom);
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), in.prod(), out.cons()));
    const auto net = Program("npu1_1col", rt, {top, bottom}, "full_cascade").resolve();
    // The waits are also trace spans on the cores' tracks (category cascade_stall in the rich trace,
    // CASCADE_STALL in mlir-aie's): they add up to the stall the core counts, and say which way.
    struct CascadeSpans final : sim::TraceSink {
        std::map<int, std::string> core; // track -> worker
        std::map<std::string, std::uint64_t> cycles;
        std::set<std::string> names;
        void add_track(int t, const sim::TrackInfo& i) override {
            if (i.kind == sim::TrackInfo::Kind::Core) core[t] = i.name;
        }
        void span(int, std::string_view, std::uint64_t, std::uint64_t) override {}
        void detailed_span(int t, sim::TraceKind k, std::string_view name, std::uint64_t b, std::uint64_t e,
                           sim::TraceArgs) override {
            if (k != sim::TraceKind::CascadeStall) return;
            REQUIRE(core.count(t));
            CHECK(e > b);
            cycles[core[t]] += e - b;
            names.emplace(name);
        }
        void counter(int, std::uint64_t, std::int64_t) override {}
        void finish(std::uint64_t) override {}
    } spans;
    sim::SimOptions opts;
    opts.trace = &spans;
    const auto r = sim::simulate(net, {std::vector<std::uint8_t>(64), std::vector<std::uint8_t>(64)}, opts);
    std::uint64_t traced = 0;
    for (const auto& [name, c] : spans.cycles) traced += c;
    CHECK(traced == r.cores.at(0).cascade_stall_cycles + r.cores.at(1).cascade_stall_cycles);
    CHECK(spans.names.count("cascade stall: put to bottom") == 1);
    std::vector<std::int32_t> got(16);
    std::memcpy(got.data(), r.host[1].data(), 64);
    for (int k = 0; k < 8; ++k) CHECK(got[static_cast<std::size_t>(k)] == k);
    // 4 words fit (2 + 2 FIFO slots); the other 4 wait for the getter, which takes one per 500
    // cycles: the 6th, 7th and 8th wait 500 cycles each after the 5th (the getter may have
    // started before the putter, so the 5th may wait less).
    CHECK(r.cores.at(0).cascade_stall_cycles >= 3 * 500 - 10);
    CHECK(r.cores.at(0).cascade_stall_cycles <= 4 * 500);
}

TEST_CASE("a cascade whose sender never puts is a diagnosed deadlock naming the cascade", "[sim][cascade][deadlock]") {
    ObjectFifo out(tensor<std::int32_t>({16}), "out");
    Worker top([] { add_cycles(10); }, {.tile = Tile(0, 3), .while_true = false, .name = "top"});
    Worker bottom(
        [](ObjectFifoHandle o) {
            auto e = o.acquire(1);
            cascade_get(e.as<std::int32_t>().data());
            o.release(1);
        },
        fn_args(out.prod()), {.tile = Tile(0, 2), .name = "bottom"});
    CascadeFlow(top, bottom);
    Runtime rt([](RuntimeData b, ObjectFifoHandle o) { o.drain(b, {.wait = true}); },
               fn_args(tensor<std::int32_t>({16}), out.cons()));
    const auto net = Program("npu1_1col", rt, {top, bottom}, "never_put").resolve();
    try {
        sim::simulate(net, {std::vector<std::uint8_t>(64)}, {});
        FAIL("no deadlock");
    } catch (const SimulationError& e) {
        REQUIRE(e.kind() == SimulationError::Kind::Deadlock);
        const auto* d = sim::diagnosis_of(e);
        REQUIRE(d);
        CHECK(d->case_id == "cascade_never_put");
        CHECK_THAT(d->case_explanation,
                   Contains("worker 'bottom' on (0,2) waits for a cascade word from worker 'top' on the cascade from "
                            "worker 'top' on (0,3) to worker 'bottom' on (0,2), but that worker has finished after "
                            "putting 0 word(s)"));
        CHECK_THAT(std::string(e.what()),
                   Contains("worker 'bottom' on (0,2) cascade_get: waits for a cascade word from worker 'top' on "
                            "(0,3)"));
        bool edge = false;
        for (const auto& x : d->edges)
            if (x.label == "waits for a word") edge = true;
        CHECK(edge);
    }
}

TEST_CASE("cascade calls need a CascadeFlow at that end", "[sim][cascade][errors]") {
    ObjectFifo out(tensor<std::int32_t>({16}), "out");
    Worker w(
        [](ObjectFifoHandle o) {
            auto e = o.acquire(1);
            cascade_put(e.as<std::int32_t>().data());
            o.release(1);
        },
        fn_args(out.prod()), {.tile = Tile(0, 2), .name = "lonely"});
    Runtime rt([](RuntimeData b, ObjectFifoHandle o) { o.drain(b, {.wait = true}); },
               fn_args(tensor<std::int32_t>({16}), out.cons()));
    const auto net = Program("npu1_1col", rt, {w}, "no_cascade").resolve();
    CHECK_THROWS_WITH(sim::simulate(net, {std::vector<std::uint8_t>(64)}, {}),
                      "worker 'lonely': cascade_put: no CascadeFlow starts at this worker, so its core has no cascade "
                      "output");
    CHECK_THROWS_WITH(cascade_put(nullptr), "cascade_put() called outside a worker body");
    CHECK_THROWS_WITH(cascade_get(nullptr), "cascade_get() called outside a worker body");
}
