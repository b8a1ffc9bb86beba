// HostPrefetch: a shim DMA channel asks for its host range one window (4 KiB) ahead of its position.
// Each byte is asked for once, never past the range's end, and a cleared range asks for nothing.
// (What the hint buys is measured, not tested: docs/performance.md, "Data movement against a memcpy
// floor", "What an object costs now".)
#include "HostPrefetch.hpp"

#include <catch2/catch.hpp>

#include <vector>

using npusim::sim::HostPrefetch;

TEST_CASE("host prefetch asks one window ahead of the position and never past the range", "[sim][prefetch]") {
    std::vector<std::uint8_t> host(10000);
    HostPrefetch p;
    p.reset(host.data(), host.size(), false);
    CHECK(p.asked() == 0);
    p.advance(0);
    CHECK(p.asked() == HostPrefetch::kWindowBytes);
    p.advance(100); // inside what was asked: only the window's new tail
    CHECK(p.asked() == 100 + HostPrefetch::kWindowBytes);
    p.advance(50); // behind the position asked for: nothing
    CHECK(p.asked() == 100 + HostPrefetch::kWindowBytes);
    p.advance(8000); // near the end: clamped to the range
    CHECK(p.asked() == host.size());
    p.advance(host.size());
    CHECK(p.asked() == host.size());
}

TEST_CASE("host prefetch follows a receiver's moved bytes and starts again on reset", "[sim][prefetch]") {
    std::vector<std::uint8_t> host(3 * 4096 + 16);
    HostPrefetch p;
    p.reset(host.data() + 16, 3 * 4096, true); // not line-aligned, as a malloc'd tensor is not
    p.advance(0);
    CHECK(p.asked() == 4096);
    p.moved(4096);
    CHECK(p.asked() == 8192);
    p.moved(1000);
    CHECK(p.asked() == 5096 + 4096);
    p.moved(3096);
    CHECK(p.asked() == 3 * 4096);
    p.reset(host.data(), 64, false);
    CHECK(p.asked() == 0);
    p.moved(0);
    CHECK(p.asked() == 64);
    p.clear();
    p.advance(0);
    CHECK(p.asked() == 0);
}
