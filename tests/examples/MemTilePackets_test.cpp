// A DMA BD without a packet header of its own on a PacketFlow's source port sends its words as
// they are, and its first word is the packet's header (sim/src/PacketSwitch.hpp): a mem tile that
// keeps the headers of the packets it receives forwards each to the compute tile its id names,
// byte-exact (mlir-aie basic/packet_switch's mem tile: its input S2MM/MM2S pair, packet_switch.py
// L253-281, and the flows into and out of it, L308-370 at 3ca0193).
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"
#include "support/PacketForward.hpp"

#include <catch2/catch.hpp>

#include <numeric>
#include <string>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;

namespace {

struct ForwardRun {
    std::vector<std::int32_t> a, b;
    sim::SimResult r;
};

ForwardRun run_forward(const test::PacketForwardOptions& o) {
    ForwardRun f{std::vector<std::int32_t>(static_cast<std::size_t>(o.n)),
                 std::vector<std::int32_t>(static_cast<std::size_t>(o.n)), {}};
    std::iota(f.a.begin(), f.a.end(), 100);
    std::iota(f.b.begin(), f.b.end(), -7000);
    const auto net = test::packet_forward(o).resolve();
    const std::size_t c_bytes = static_cast<std::size_t>(o.n + (o.keep_at_core ? 1 : 0)) * 4;
    f.r = sim::simulate(net,
                        {bytes_of(f.a), bytes_of(f.b), std::vector<std::uint8_t>(c_bytes, 0),
                         std::vector<std::uint8_t>(static_cast<std::size_t>(o.n) * 4, 0)},
                        {});
    return f;
}

} // namespace

TEST_CASE("a mem tile forwards header-kept packets to two cores by the id in their data", "[examples][packets]") {
    for (const char* device : {"npu1_1col", "npu2_1col"}) {
        INFO(device);
        // id 1 -> (0,2) -> c; id 2 -> (0,3) -> d.
        auto f = run_forward({.device = device});
        CHECK(f.r.host[2] == bytes_of(f.a));
        CHECK(f.r.host[3] == bytes_of(f.b));
        // The ids swapped: a goes to (0,3), b to (0,2).
        f = run_forward({.id_a = 2, .id_b = 1, .device = device});
        CHECK(f.r.host[2] == bytes_of(f.b));
        CHECK(f.r.host[3] == bytes_of(f.a));
    }
}

TEST_CASE("a packet forwarded by its data header keeps that header where the route keeps it", "[examples][packets]") {
    // The (0,2) flow keeps the header: (0,2) receives, and sends back, the shim's header word
    // (type 0, id 1, source (0,0)) before a's data.
    const auto f = run_forward({.keep_at_core = true});
    std::vector<std::int32_t> expect{static_cast<std::int32_t>(model::packet_header(1, 0, {0, 0}))};
    expect.insert(expect.end(), f.a.begin(), f.a.end());
    CHECK(f.r.host[2] == bytes_of(expect));
    CHECK(f.r.host[3] == bytes_of(f.b));
}

TEST_CASE("a forwarded packet costs what a packet with its own header costs", "[examples][packets]") {
    // The forwarding BD moves n + 1 words, of which the switch takes the first as the header: the
    // stream carries the same words as a BD of n data words with packet = {0, id} would. So the run
    // takes as many cycles whichever ids route a and b (the two cores are symmetric).
    const auto one = run_forward({});
    const auto two = run_forward({.id_a = 2, .id_b = 1});
    CHECK(one.r.cycles == two.r.cycles);
    CHECK(one.r.cycles > 0);
}

TEST_CASE("a data header whose id no flow from the port routes stops the run naming BD, port and id",
          "[examples][packets]") {
    // id 3 reaches the mem tile (its flow from the shim) but no flow goes on from the mem tile with it.
    const auto net = test::packet_forward({.id_b = 3, .id3_to_mem_only = true}).resolve();
    std::vector<std::uint8_t> in(64, 0), out(64, 0);
    try {
        sim::simulate(net, {in, in, out, out}, {});
        FAIL("expected a protocol error");
    } catch (const SimulationError& x) {
        CHECK(x.kind() == SimulationError::Kind::Protocol);
        // 0x80000003: the shim's header for type 0, id 3 from (0,0), with its odd-parity bit.
        CHECK(std::string(x.what()) ==
              "DMA (0,1) MM2S 0 BD 1 ('mem_dma' MM2S channel 0 Bd, element 0): sends no packet header of its own, "
              "so the first word of its data (0x80000003) is the packet's header, and its packet id 3 matches no "
              "PacketFlow from (0,1) MM2S 0 (ids 1, 2)");
    }
}
