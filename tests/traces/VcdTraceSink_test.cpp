// VcdTraceSink: header, scopes, declarations and the exact ordered value changes.
#include "npusim/traces/VcdTraceSink.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using npusim::sim::TrackInfo;
using npusim::traces::VcdTraceSink;
using Kind = TrackInfo::Kind;

namespace {

struct VcdTempDir : npusim::test::TempDir {
    VcdTempDir() : npusim::test::TempDir("npusim_vcd_test") {}
};
using npusim::test::slurp;

} // namespace

TEST_CASE("VcdTraceSink identifiers are short and unique", "[traces][vcd]") {
    CHECK(VcdTraceSink::identifier(0) == "!");
    CHECK(VcdTraceSink::identifier(1) == "\"");
    CHECK(VcdTraceSink::identifier(93) == "~");
    CHECK(VcdTraceSink::identifier(94) == "!!");
    CHECK(VcdTraceSink::identifier(95) == "\"!");
    CHECK(VcdTraceSink::identifier(94 + 94 * 94 - 1) == "~~");
    CHECK(VcdTraceSink::identifier(94 + 94 * 94) == "!!!");
    std::set<std::string> seen;
    for (std::size_t n = 0; n < 20000; ++n) {
        std::string id = VcdTraceSink::identifier(n);
        for (char c : id) REQUIRE((c >= '!' && c <= '~'));
        REQUIRE(seen.insert(id).second);
    }
}

TEST_CASE("VcdTraceSink sanitizes names and scopes", "[traces][vcd]") {
    CHECK(VcdTraceSink::sanitize("core (0,2) worker_0") == "core_0_2_worker_0");
    CHECK(VcdTraceSink::sanitize("(0,2) S2MM 0") == "0_2_S2MM_0");
    CHECK(VcdTraceSink::sanitize("in_cons_prod_lock_0") == "in_cons_prod_lock_0");
    CHECK(VcdTraceSink::sanitize("a . b") == "a_b");
    CHECK(VcdTraceSink::sanitize("a _b") == "a_b");
    CHECK(VcdTraceSink::sanitize("a[3].x$y") == "a_3_x_y");
    CHECK(VcdTraceSink::sanitize(" !! ") == "");
    CHECK(VcdTraceSink::scope_name({Kind::Lock, 3, 1, "l"}) == "tile_3_1");
    CHECK(VcdTraceSink::scope_name({Kind::Runtime, 0, 0, "r"}) == "runtime");
}

TEST_CASE("VcdTraceSink writes declarations and sorted value changes", "[traces][vcd]") {
    VcdTempDir dir;
    const fs::path file = dir.path / "trace.vcd";
    VcdTraceSink sink(file.string());
    CHECK(sink.path() == file.string());

    sink.add_track(0, {Kind::Core, 0, 2, "core (0,2) worker_0"});
    sink.add_track(1, {Kind::Dma, 0, 2, "(0,2) S2MM 0"});
    sink.add_track(2, {Kind::Lock, 0, 2, "in_cons_prod_lock_0"});
    sink.add_track(3, {Kind::Dma, 0, 1, "(0,1) MM2S 0"});
    sink.add_track(4, {Kind::Dma, 0, 0, "(0,0) S2MM 0"});
    sink.add_track(5, {Kind::Runtime, 0, 0, "runtime sequence"});
    sink.add_track(6, {Kind::Core, 1, 2, "core \"q\"\tname"});
    sink.add_track(7, {Kind::Lock, 0, 2, "in_cons_prod_lock_0"}); // same name as track 2
    sink.add_track(8, {Kind::Dma, 0, 2, "???"}); // sanitizes to nothing
    sink.counter(2, 0, 2);
    sink.span(3, "mm2s", 5, 15);
    sink.span(1, "bd 0", 10, 30);
    sink.counter(2, 20, 1);
    sink.span(1, "bd 1", 30, 40); // back to back with bd 0: no change at 30
    sink.span(0, "kernel_a", 20, 50);
    sink.counter(7, 35, 1);
    sink.counter(2, 50, 3);
    sink.counter(2, 50, 2); // same cycle: the last value wins
    sink.span(6, "k", 55, 55); // zero length: invisible
    sink.span(4, "shim", 40, 60);
    sink.counter(0, 60, 9); // counter on a wire track: ignored
    sink.span(2, "x", 60, 61); // span on a lock track: ignored
    sink.counter(7, 65, 1); // unchanged value: not written
    sink.span(5, "await out", 0, 70);
    sink.finish(100);

    const std::string expected = "$version npusim VcdTraceSink $end\n"
                                 "$comment 1 ns = 1 cycle $end\n"
                                 "$timescale 1ns $end\n"
                                 "$scope module npusim $end\n"
                                 "$scope module runtime $end\n"
                                 "$var wire 1 ! runtime_sequence $end\n"
                                 "$upscope $end\n"
                                 "$scope module tile_0_0 $end\n"
                                 "$var wire 1 \" dma_0_0_S2MM_0 $end\n"
                                 "$upscope $end\n"
                                 "$scope module tile_0_1 $end\n"
                                 "$var wire 1 # dma_0_1_MM2S_0 $end\n"
                                 "$upscope $end\n"
                                 "$scope module tile_0_2 $end\n"
                                 "$var wire 1 $ core_0_2_worker_0 $end\n"
                                 "$var wire 1 % dma_0_2_S2MM_0 $end\n"
                                 "$var reg 6 & in_cons_prod_lock_0 $end\n"
                                 "$var reg 6 ' in_cons_prod_lock_0_2 $end\n"
                                 "$var wire 1 ( dma_8 $end\n"
                                 "$upscope $end\n"
                                 "$scope module tile_1_2 $end\n"
                                 "$var wire 1 ) core_q_name $end\n"
                                 "$upscope $end\n"
                                 "$upscope $end\n"
                                 "$enddefinitions $end\n"
                                 "#0\n"
                                 "$dumpvars\n"
                                 "1!\n"
                                 "0\"\n"
                                 "0#\n"
                                 "0$\n"
                                 "0%\n"
                                 "b10 &\n"
                                 "bx '\n"
                                 "0(\n"
                                 "0)\n"
                                 "$end\n"
                                 "#5\n"
                                 "1#\n"
                                 "#10\n"
                                 "1%\n"
                                 "#15\n"
                                 "0#\n"
                                 "#20\n"
                                 "1$\n"
                                 "b1 &\n"
                                 "#35\n"
                                 "b1 '\n"
                                 "#40\n"
                                 "0%\n"
                                 "1\"\n"
                                 "#50\n"
                                 "0$\n"
                                 "b10 &\n"
                                 "#60\n"
                                 "0\"\n"
                                 "#70\n"
                                 "0!\n"
                                 "#100\n";
    CHECK(slurp(file) == expected);
}

TEST_CASE("VcdTraceSink keeps overlapping spans high and widens out-of-range lock values", "[traces][vcd]") {
    VcdTempDir dir;
    const fs::path file = dir.path / "odd.vcd";
    VcdTraceSink sink(file.string());
    sink.add_track(10, {Kind::Core, 0, 2, "core"});
    sink.add_track(11, {Kind::Lock, 0, 2, "lock"});
    sink.span(10, "a", 0, 20);
    sink.span(10, "b", 10, 30); // overlaps a
    sink.counter(11, 5, 64); // needs 7 bits
    sink.finish(30); // ends at the last change: no extra timestamp

    const std::string text = slurp(file);
    CHECK_THAT(text, Catch::Contains("$var wire 1 ! core $end\n$var reg 7 \" lock $end\n"));
    CHECK_THAT(text, Catch::EndsWith("$dumpvars\n1!\nbx \"\n$end\n#5\nb1000000 \"\n#30\n0!\n"));
}

TEST_CASE("VcdTraceSink names the path it cannot write", "[traces][vcd]") {
    VcdTempDir dir;
    const std::string bad = (dir.path / "missing" / "t.vcd").string();
    VcdTraceSink sink(bad);
    sink.add_track(0, {Kind::Core, 0, 2, "core"});
    CHECK_THROWS_WITH(sink.finish(1), Catch::StartsWith("cannot write VCD trace to '" + bad + "': "));
    CHECK_THROWS_AS(sink.span(1, "k", 0, 1), std::out_of_range);
    CHECK_THROWS_AS(sink.add_track(0, {Kind::Core, 0, 2, "again"}), std::invalid_argument);
}

TEST_CASE("VcdTraceSink: lock acquire and release instants trigger event variables, both in one cycle",
          "[traces][vcd][locks]") {
    VcdTempDir dir;
    const fs::path file = dir.path / "events.vcd";
    VcdTraceSink sink(file.string());
    sink.add_track(0, {Kind::Lock, 0, 2, "lk"});
    sink.add_track(1, {Kind::Lock, 0, 2, "quiet"});
    sink.add_track(2, {Kind::Core, 0, 2, "core"});
    using npusim::sim::TraceKind;
    sink.counter(0, 0, 0);
    sink.counter(1, 0, 1);
    sink.instant(2, TraceKind::LockAcquire, "acquire request", 3, {}); // not a lock track: ignored
    // A hand-off in cycle 10: the value goes 0 -> 1 -> 0 within the cycle and does not change.
    sink.counter(0, 10, 1);
    sink.instant(0, TraceKind::LockRelease, "release", 10, {});
    sink.counter(0, 10, 0);
    sink.instant(0, TraceKind::LockAcquire, "acquire", 10, {});
    sink.instant(0, TraceKind::LockAcquire, "acquire", 10, {}); // twice in one step: one trigger
    sink.instant(0, TraceKind::LockRelease, "release", 0, {}); // at time 0: right after $dumpvars
    sink.finish(20);

    const std::string text = slurp(file);
    // lk, its two events (acquire, release: no set), quiet (no events), the core wire.
    CHECK_THAT(text, Catch::Contains("$var reg 6 ! lk $end\n"
                                     "$var event 1 \" lk_acquire $end\n"
                                     "$var event 1 # lk_release $end\n"
                                     "$var reg 6 $ quiet $end\n"
                                     "$var wire 1 % core $end\n"));
    CHECK_THAT(text, Catch::Contains("$dumpvars\nb0 !\nb1 $\n0%\n$end\n1#\n#10\n1#\n1\"\n#20\n"));
}

TEST_CASE("VcdTraceSink: $dumpvars shows a lock's initial value, its cycle-0 acquires follow at #0",
          "[traces][vcd][locks]") {
    VcdTempDir dir;
    const fs::path file = dir.path / "initial.vcd";
    VcdTraceSink sink(file.string());
    TrackInfo prod{Kind::Lock, 0, 2, "prod_lock"};
    prod.initial = 2; // a fifo's free slots
    TrackInfo wide{Kind::Lock, 0, 2, "wide"};
    wide.initial = 100; // needs 7 bits, although no sample is above 63
    TrackInfo still{Kind::Lock, 0, 2, "still"};
    still.initial = 3; // never sampled: keeps its initial value, not x
    sink.add_track(0, prod);
    sink.add_track(1, {Kind::Dma, 0, 2, "dma"});
    sink.add_track(2, wide);
    sink.add_track(3, still);
    // As the engine reports a lock: one sample per cycle, its value at the end of the cycle. An
    // acquire in cycle 0 took prod_lock from 2 to 1.
    sink.counter(0, 0, 1);
    sink.span(1, "bd", 0, 10);
    sink.counter(2, 0, 100); // unchanged in cycle 0: nothing at #0
    sink.counter(0, 10, 2);
    sink.counter(2, 12, 5);
    sink.finish(20);

    const std::string text = slurp(file);
    CHECK_THAT(text, Catch::Contains("$var reg 6 ! prod_lock $end\n$var wire 1 \" dma $end\n"
                                     "$var reg 7 # wide $end\n$var reg 6 $ still $end\n"));
    CHECK_THAT(text, Catch::EndsWith("#0\n$dumpvars\nb10 !\n1\"\nb1100100 #\nb11 $\n$end\n"
                                     "b1 !\n#10\nb10 !\n0\"\n#12\nb101 #\n#20\n"));
}
