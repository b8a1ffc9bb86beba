// SummaryTraceSink: per-track totals and the rendered table.
#include "npusim/traces/SummaryTraceSink.hpp"

#include <catch2/catch.hpp>

using npusim::sim::TrackInfo;
using npusim::traces::SummaryTraceSink;
using Kind = TrackInfo::Kind;

TEST_CASE("SummaryTraceSink totals spans and lock values", "[traces][summary]") {
    SummaryTraceSink sink;
    sink.add_track(0, {Kind::Core, 0, 2, "core (0,2) worker_0"});
    sink.add_track(1, {Kind::Dma, 0, 2, "(0,2) S2MM 0"});
    sink.add_track(2, {Kind::Lock, 0, 2, "in_cons_prod_lock_0"});
    sink.add_track(3, {Kind::Runtime, 0, 0, "runtime sequence"});
    sink.counter(2, 0, 2);
    sink.span(1, "bd 0", 10, 30);
    sink.span(1, "bd 1", 30, 40);
    sink.span(0, "kernel", 20, 50);
    sink.counter(2, 20, 0);
    sink.span(0, "kernel", 60, 90);
    sink.span(0, "empty", 90, 90);
    sink.counter(2, 50, 1);
    sink.span(3, "await", 0, 100);

    SECTION("accessors") {
        CHECK(!sink.end_cycle());
        const auto* core = sink.find(0);
        REQUIRE(core);
        CHECK(core->spans == 3);
        CHECK(core->busy_cycles == 60);
        CHECK(!sink.busy_percent(*core)); // not finished yet
        const auto* lock = sink.find(2);
        REQUIRE(lock);
        CHECK(lock->spans == 0);
        CHECK(lock->counter_updates == 3);
        CHECK(*lock->min_value == 0);
        CHECK(*lock->max_value == 2);
        CHECK(sink.find(99) == nullptr);
        CHECK(sink.tracks().size() == 4);

        sink.finish(200);
        CHECK(*sink.end_cycle() == 200);
        CHECK(*sink.busy_percent(*core) == Approx(30.0));
        CHECK(*sink.busy_percent(*sink.find(1)) == Approx(15.0));
    }

    SECTION("table") {
        sink.finish(200);
        const std::string expected = "track                tile   spans  busy cycles  busy %  values\n"
                                     "core (0,2) worker_0  (0,2)      3           60    30.0\n"
                                     "(0,2) S2MM 0         (0,2)      2           30    15.0\n"
                                     "in_cons_prod_lock_0  (0,2)      0            0     0.0  0..2\n"
                                     "runtime sequence     -          1          100    50.0\n"
                                     "end cycle: 200\n";
        CHECK(sink.table() == expected);
    }

    SECTION("table before finish and with end cycle 0") {
        const std::string before = sink.table();
        CHECK_THAT(before, Catch::Contains("core (0,2) worker_0  (0,2)      3           60       -\n"));
        CHECK_THAT(before, Catch::EndsWith("end cycle: (run not finished)\n"));
        sink.finish(0);
        CHECK_THAT(sink.table(), Catch::Contains("     -  0..2\n"));
    }
}

TEST_CASE("SummaryTraceSink rejects unknown and duplicate tracks", "[traces][summary]") {
    SummaryTraceSink sink;
    sink.add_track(4, {Kind::Core, 0, 2, "core"});
    CHECK_THROWS_AS(sink.add_track(4, {Kind::Core, 0, 2, "core"}), std::invalid_argument);
    CHECK_THROWS_WITH(sink.span(5, "k", 0, 1), Catch::Contains("SummaryTraceSink: span on track 5"));
    CHECK_THROWS_AS(sink.counter(5, 0, 1), std::out_of_range);
    CHECK(sink.table() == "track  tile   spans  busy cycles  busy %  values\n"
                          "core   (0,2)      0            0       -\n"
                          "end cycle: (run not finished)\n");
}
