// SharedBandwidth: a single server of the path's rate, reserved chunk by chunk in the earliest free
// cycles from each chunk's start. Reservations made in start order queue one after the other;
// one made early for a late cycle (a process that ran ahead) leaves the cycles before it free for
// reservations made later for earlier cycles.
#include "SharedBandwidth.hpp"

#include <catch2/catch.hpp>

#include <utility>
#include <vector>

using npusim::sim::SharedBandwidth;
using Booked = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

TEST_CASE("reservations in start order queue behind each other on the shared server", "[sim][shared-path]") {
    SharedBandwidth ddr("host memory (DDR)", 50.0);
    CHECK(ddr.reserve(2048, 100) == 100 + 41); // ceil(2048 / 50) = 41 cycles
    CHECK(ddr.reserve(2048, 110) == 141 + 41); // busy until 141: queues
    CHECK(ddr.reserve(1000, 182) == 182 + 20); // starts as the server frees: one interval
    CHECK(ddr.booked() == Booked{{100, 202}});
    CHECK(ddr.reserve(100, 500) == 502); // after a gap
    CHECK(ddr.booked() == Booked{{100, 202}, {500, 502}});
    CHECK(ddr.bytes() == 2048 + 2048 + 1000 + 100);
}

TEST_CASE("a reservation made late for an earlier cycle fills the free cycles before later ones",
          "[sim][shared-path]") {
    SharedBandwidth banks("mem tile (0,1) banks", 4.0);
    CHECK(banks.reserve(400, 1000) == 1100); // booked first, for cycles 1000..1100
    CHECK(banks.reserve(200, 100) == 150); // earlier cycles are free: not behind it
    CHECK(banks.booked() == Booked{{100, 150}, {1000, 1100}});
    // 1000 cycles of work from 900: 100 free cycles before 1000, then the rest after 1100.
    CHECK(banks.reserve(4000, 900) == 1100 + 900);
    CHECK(banks.booked() == Booked{{100, 150}, {900, 2000}});
    // A gap filled exactly joins its neighbours.
    CHECK(banks.reserve(200, 50) == 100);
    CHECK(banks.booked() == Booked{{50, 150}, {900, 2000}});
}

TEST_CASE("what ended before simulated time is forgotten, and a fractional rate rounds up", "[sim][shared-path]") {
    SharedBandwidth ddr("host memory (DDR)", 2.5);
    CHECK(ddr.reserve(10, 0) == 4); // 10 / 2.5
    CHECK(ddr.reserve(11, 10) == 15); // ceil(4.4) = 5
    CHECK(ddr.booked() == Booked{{0, 4}, {10, 15}});
    CHECK(ddr.reserve(5, 20, /*now=*/12) == 22);
    CHECK(ddr.booked() == Booked{{10, 15}, {20, 22}}); // {0, 4} ended before cycle 12
    CHECK(ddr.reserve(0, 30, 30) == 30); // nothing to move: no reservation
    CHECK(ddr.booked().empty());
}
