// MemoryGuard with the TileMemory write log: after its core waited, a guard takes what others wrote
// meanwhile from the log (catch_up) instead of copying its tiles again. A write nobody logged is
// still found; a guard that missed dropped log entries copies its tiles again.
#include "MemoryGuard.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace npusim;
using namespace npusim::model;
using Range = sim::MemoryGuard::Range;

namespace {
std::vector<NetBuffer> two_buffers() {
    std::vector<NetBuffer> b;
    b.push_back({"x", {0, 2}, 0x000, 256, {}, {}});
    b.push_back({"y", {0, 2}, 0x100, 256, {}, {}});
    return b;
}
} // namespace

TEST_CASE("catch_up takes logged writes by others, and a write nobody logged is still found", "[sim][memory]") {
    const auto bufs = two_buffers();
    sim::TileMemory mem(bufs);
    sim::MemoryGuard a(mem, {{0, 2}}), b(mem, {{0, 2}}); // two cores that reach tile (0,2)
    a.snapshot();
    b.snapshot();
    // While both cores wait, a DMA fills x and logs it; then core a resumes (catch_up) and writes y,
    // which it holds, and publishes y before it waits again.
    std::memset(mem.buffer(0), 7, 256);
    mem.note_write({0, 2}, mem.buffer(0), mem.buffer(0) + 256);
    a.catch_up();
    std::memset(mem.buffer(1), 9, 16);
    const Range y{mem.buffer(1), mem.buffer(1) + 256, "y"};
    CHECK(a.check({&y, 1}).empty()); // a may write y, and has taken the DMA's x
    CHECK_FALSE(a.check({}).empty()); // (its own y is not in its copy: allowed while it holds y)
    a.publish({&y, 1});
    b.catch_up();
    CHECK(b.check({}).empty()); // b took both logged writes
    // A write nobody logs (a wild kernel) is found by every guard that watches the tile.
    mem.buffer(0)[5] = 1;
    b.catch_up();
    const auto bad = b.check({});
    CHECK(bad.find("1 byte(s) changed from tile (0,2) offset 0x5") == 0);
    CHECK(bad.find("inside buffer 'x'") != std::string::npos);
}

TEST_CASE("a guard that missed dropped log entries copies its tiles again", "[sim][memory]") {
    const auto bufs = two_buffers();
    sim::TileMemory mem(bufs);
    sim::MemoryGuard a(mem, {{0, 2}}), b(mem, {{0, 2}});
    b.snapshot();
    for (std::size_t i = 0; i < sim::TileMemory::kLogCapacity + 10; ++i) {
        mem.buffer(0)[i % 256] = static_cast<std::uint8_t>(i);
        mem.note_write({0, 2}, mem.buffer(0) + i % 256, mem.buffer(0) + i % 256 + 1);
    }
    CHECK(mem.log_begin() > 0); // the oldest entries are gone
    CHECK(mem.log_end() == sim::TileMemory::kLogCapacity + 10);
    b.catch_up(); // falls back to a full copy
    CHECK(b.check({}).empty());
}

TEST_CASE("writes are logged only for tiles another guard watches", "[sim][memory]") {
    const auto bufs = two_buffers();
    sim::TileMemory mem(bufs);
    mem.note_write({0, 2}, mem.buffer(0), mem.buffer(0) + 4); // no guard yet
    CHECK(mem.log_end() == 0);
    sim::MemoryGuard a(mem, {{0, 2}});
    const Range x{mem.buffer(0), mem.buffer(0) + 256, "x"};
    a.publish({&x, 1}); // its own tile, nobody else watches: nothing to log
    CHECK_FALSE(a.shares_tiles());
    CHECK(mem.log_end() == 0);
    mem.note_write({0, 2}, mem.buffer(0), mem.buffer(0) + 4); // a DMA: a's guard wants it
    CHECK(mem.log_end() == 1);
    mem.note_write({0, 3}, mem.buffer(0), mem.buffer(0) + 4); // a tile nobody watches
    CHECK(mem.log_end() == 1);
}

// check_within: the compare an acquire that did not wait makes (CoreProcess::acquire_check), over
// the objects it took only. Changes elsewhere are left for the next full check.
TEST_CASE("check_within looks only inside its ranges and describes a change there as check does", "[sim][memory]") {
    const auto bufs = two_buffers();
    sim::TileMemory mem(bufs);
    sim::MemoryGuard g(mem, {{0, 2}});
    g.snapshot();
    const Range x{mem.buffer(0), mem.buffer(0) + 256, "x"};
    const Range y{mem.buffer(1), mem.buffer(1) + 256, "y"};
    mem.buffer(1)[40] = 3; // into y
    CHECK(g.check_within({&x, 1}, {}).empty()); // not looked at
    const auto bad = g.check_within({&y, 1}, {&x, 1});
    CHECK(bad.find("1 byte(s) changed from tile (0,2) offset 0x128") == 0);
    CHECK(bad.find("inside buffer 'y' (") != std::string::npos);
    CHECK(bad == g.check({&x, 1})); // the same report as the full check's
    CHECK(g.partial_checks() == 2);
    CHECK(g.full_checks() == 1);
}
