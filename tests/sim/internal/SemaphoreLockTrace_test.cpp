// What SemaphoreLock tells a trace sink: an instant for every acquire, release and set (with who
// and how much) besides the value counter, so a release and the acquire it allows in the same
// cycle are two events at that cycle even though the value ends where it started.
#include "Rig.hpp"
#include "SemaphoreLock.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace npusim;
using npusim::test::TestProcess;

namespace {

struct Recorder final : sim::TraceSink {
    std::vector<std::string> events;
    void add_track(int, const sim::TrackInfo&) override {}
    void span(int, std::string_view, std::uint64_t, std::uint64_t) override {}
    void instant(int track, sim::TraceKind, std::string_view name, std::uint64_t cycle, sim::TraceArgs args) override {
        std::string s = std::to_string(cycle) + " " + std::to_string(track) + " " + std::string(name);
        for (const auto& a : args)
            s += " " + std::string(a.key) + "=" + (a.is_number ? std::to_string(a.number) : std::string(a.text));
        events.push_back(s);
    }
    void counter(int track, std::uint64_t cycle, std::int64_t value) override {
        events.push_back(std::to_string(cycle) + " " + std::to_string(track) + " value " + std::to_string(value));
    }
    void finish(std::uint64_t) override {}
};

} // namespace

TEST_CASE("lock instants: a release and the acquire it unblocks in one cycle are two events", "[sim][lock][trace]") {
    sim::ScContextGuard ctx;
    const auto timing = model::TimingParams::for_arch(model::Arch::AIE2);
    sim::RunControl run;
    Recorder rec;
    sim::TraceTracks tracks(&rec);
    const sim::RunServices services{run, tracks, timing};
    const int track = tracks.add({sim::TrackInfo::Kind::Lock, 0, 2, "lk"});
    sim::SemaphoreLock lock(services, 0, "lk", "(0,2)", 0, 63, track);
    TestProcess waiter(services, "core", [&](TestProcess& p) { lock.acquire_ge(1, p.clock(), p.state()); });
    TestProcess releaser(services, "dma", [&](TestProcess& p) {
        p.clock().wait_cycles(10);
        lock.release(1, p.clock(), test::who("dma"));
        p.clock().wait_cycles(5);
        lock.set(3, p.clock(), "runtime");
        CHECK(lock.try_acquire_ge_at(2, 20, "dma"));
    });
    waiter.start();
    releaser.start();
    sc_core::sc_start();
    REQUIRE_FALSE(run.error());
    const std::vector<std::string> want = {
        "10 0 release lock=lk by=dma amount=1",
        "10 0 value 1",
        "10 0 value 0",
        "10 0 acquire lock=lk by=core amount=1",
        "16 0 value 3",
        "16 0 set lock=lk by=runtime amount=3",
        "20 0 value 1",
        "20 0 acquire lock=lk by=dma amount=2",
    };
    CHECK(rec.events == want);
}
