// A shim MM2S as the source of a PacketFlow (IRON shim_dma_single_bd_task(packet=(type, id)),
// aiex.py shim_dma_bd L268-310 at 3ca0193; npu_writebd's enable_packet): each task goes out as one
// packet - its header word (AM025 stream switch packet header, model::packet_header), then the
// data - and reaches the flow's destination byte-exact. With keep_pkt_header the destination writes
// the header too, and a compute tile forwarding that buffer sends the header on as plain data.
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/CoreCopyLoop.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>

#include <numeric>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;

namespace {

// shim MM2S 0 --PacketFlow(id 5)--> compute S2MM 0 (buffer of `rx_words`); the worker copies it to
// a buffer the compute MM2S 0 streams back (circuit Flow) to the shim's S2MM 0, into `c`.
// `raw`: the shim side by registers instead of shim_dma_single_bd_task.
model::Netlist packet_loop(bool keep_header, bool raw, const char* device) {
    const Tile shim(0, 0), core(0, 2);
    const std::int64_t n = 64, rx = keep_header ? n + 1 : n;
    const auto in_ty = tensor<std::int32_t>({n}), rx_ty = tensor<std::int32_t>({rx});
    const auto loop = test::core_copy_loop(core, rx_ty);
    Runtime rt(
        [raw, rx](RuntimeData a, RuntimeData c) {
            if (raw) {
                npu_writebd({.bd_id = 0, .buffer_length = 64, .column = 0, .row = 0, .enable_packet = 1,
                             .packet_id = 5, .packet_type = 2});
                npu_address_patch(0x1D004, 0, 0);
                npu_push_queue(0, 0, 1, 0, false, 0, 0);
                const Task out = shim_dma_single_bd_task("out", c, {.issue_token = true});
                dma_start_task(out);
                dma_await_task(out);
                return;
            }
            (void)rx;
            const Task in = shim_dma_single_bd_task("in", a, {.packet = BdPacket{2, 5}});
            const Task out = shim_dma_single_bd_task("out", c, {.issue_token = true});
            dma_start_task(in);
            dma_start_task(out);
            dma_await_task(out);
            dma_free_task(in);
        },
        fn_args(in_ty, rx_ty));
    rt.add_flow(PacketFlow(5, shim, core, {.keep_pkt_header = keep_header, .shim_symbol = "in"}));
    rt.add_flow(Flow(core, shim, {.shim_symbol = "out"}));
    for (const auto& l : {loop.in_empty, loop.in_full, loop.out_empty, loop.out_full}) rt.add_lock(l);
    rt.add_tile_dma(loop.dma);
    return Program(device, rt, {loop.worker}, "shim_packets").resolve();
}

} // namespace

TEST_CASE("a shim MM2S sends its task as a packet through a PacketFlow, byte-exact", "[examples][packets]") {
    for (const char* device : {"npu1_1col", "npu2_1col"}) {
        for (bool raw : {false, true}) {
            INFO(device << (raw ? " by registers" : " by shim_dma_single_bd_task"));
            const auto net = packet_loop(false, raw, device);
            REQUIRE(!net.tasks.empty());
            CHECK(net.tasks[0].packet_id == 5);
            CHECK(net.tasks[0].packet_type == 2);
            std::vector<std::int32_t> a(64);
            std::iota(a.begin(), a.end(), -20);
            const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(256, 0)}, {});
            CHECK(r.host[1] == bytes_of(a));
        }
    }
}

TEST_CASE("a kept packet header lands in the buffer and is forwarded as data", "[examples][packets]") {
    for (const char* device : {"npu1_1col", "npu2_1col"}) {
        INFO(device);
        const auto net = packet_loop(true, false, device);
        std::vector<std::int32_t> a(64);
        std::iota(a.begin(), a.end(), 1000);
        const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(65 * 4, 0)}, {});
        std::vector<std::int32_t> expect{static_cast<std::int32_t>(model::packet_header(5, 2, {0, 0}))};
        expect.insert(expect.end(), a.begin(), a.end());
        CHECK(r.host[1] == bytes_of(expect));
    }
}

TEST_CASE("a header a task on a shim packet source carries must be one a flow routes", "[examples][packets]") {
    const Tile shim(0, 0), core(0, 2);
    const auto ty = tensor<std::int32_t>({64});
    auto design = [&](std::optional<BdPacket> pk) {
        Buffer b(ty, "b", {}, core);
        Lock e(core, 0, 1, "e"), f(core, 1, 0, "f");
        Runtime rt(
            [pk](RuntimeData a) {
                const Task t = shim_dma_single_bd_task("in", a, {.issue_token = true, .packet = pk});
                dma_start_task(t);
                dma_await_task(t);
            },
            fn_args(ty));
        rt.add_flow(PacketFlow(5, shim, core, {.shim_symbol = "in"}));
        rt.add_lock(e);
        rt.add_lock(f);
        rt.add_tile_dma(TileDma(core, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = b, .acquires = {{e}}, .releases = {{f}}}}}}, "rx"));
        return Program("npu1_1col", rt, {}, "p").resolve();
    };
    // A task without a header of its own sends one in its data (the next test case).
    CHECK_NOTHROW(design(std::nullopt));
    CHECK_THROWS_WITH(design(BdPacket{0, 6}), "task 0 ('in' shim_dma_single_bd_task): its packet id 6 matches no "
                                              "PacketFlow from (0,0) MM2S 0 (ids 5)");
    CHECK_NOTHROW(design(BdPacket{0, 5}));
}

// A shim task without packet= on a PacketFlow's source sends the host's words as they are: the
// first is the packet's header (sim/src/PacketSwitch.hpp), dropped at the destination; the core
// gets the rest. A first word whose id no flow routes stops the run naming the task, port and id.
TEST_CASE("a shim task without a header of its own sends its data's first word as the header",
          "[examples][packets]") {
    const Tile shim(0, 0), core(0, 2);
    const auto in_ty = tensor<std::int32_t>({65}), ty = tensor<std::int32_t>({64});
    const auto loop = test::core_copy_loop(core, ty);
    Runtime rt(
        [](RuntimeData a, RuntimeData c) {
            const Task in = shim_dma_single_bd_task("in", a);
            const Task out = shim_dma_single_bd_task("out", c, {.issue_token = true});
            dma_start_task(in);
            dma_start_task(out);
            dma_await_task(out);
            dma_free_task(in);
        },
        fn_args(in_ty, ty));
    rt.add_flow(PacketFlow(5, shim, core, {.shim_symbol = "in"}));
    rt.add_flow(Flow(core, shim, {.shim_symbol = "out"}));
    for (const auto& l : {loop.in_empty, loop.in_full, loop.out_empty, loop.out_full}) rt.add_lock(l);
    rt.add_tile_dma(loop.dma);
    const auto net = Program("npu2_1col", rt, {loop.worker}, "data_header").resolve();
    REQUIRE(net.tasks.at(0).packet_id < 0);
    std::vector<std::int32_t> a(65);
    std::iota(a.begin(), a.end(), 40);
    a[0] = static_cast<std::int32_t>(model::packet_header(5, 1, {0, 0}));
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(256, 0)}, {});
    CHECK(r.host[1] == bytes_of(std::vector<std::int32_t>(a.begin() + 1, a.end())));
    a[0] = 6; // id 6: no flow from the shim's MM2S 0 routes it
    CHECK_THROWS_WITH(sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(256, 0)}, {}),
                      "task 0 ('in' shim_dma_single_bd_task): sends no packet header of its own, so the first word "
                      "of its data (0x00000006) is the packet's header, and its packet id 6 matches no PacketFlow "
                      "from (0,0) MM2S 0 (ids 5)");
}

// Elaborator::packet_switches gives each packet flow its own route latency (its path's hops x
// switch_hop_latency_cycles): a flow joined at its destination by a flow with a longer route keeps
// its own timing (before, every flow of a group took the group's longest route).
TEST_CASE("each packet flow pays its own route's hops, not the longest of its group", "[examples][packets]") {
    const Tile shim(0, 0), near(0, 2), far(0, 5);
    auto run = [&](bool with_far, model::Netlist* out) {
        std::vector<std::int32_t> v(64);
        std::iota(v.begin(), v.end(), 3);
        const auto ty = tensor<std::int32_t>({64});
        const Buffer src = Buffer::with_values(ty, "src", v, near);
        const Buffer far_src = Buffer::with_values(ty, "far_src", v, far);
        const Lock never(far, std::nullopt, 0, "never");
        Runtime rt(
            [](RuntimeData c) {
                const Task t = shim_dma_single_bd_task("out", c, {.issue_token = true});
                dma_start_task(t);
                dma_await_task(t);
            },
            fn_args(ty));
        rt.add_flow(PacketFlow(3, near, shim, {.shim_symbol = "out"}));
        rt.add_tile_dma(TileDma(near, {DmaChannel{DMAChannelDir::MM2S, 0, {Bd{.buffer = src, .next = Bd::none, .packet = BdPacket{0, 3}}}}}, "near_tx"));
        if (with_far) { // its BD waits on a lock nobody releases: it never sends
            rt.add_flow(PacketFlow(4, far, shim));
            rt.add_lock(never);
            rt.add_tile_dma(TileDma(far, {DmaChannel{DMAChannelDir::MM2S, 0, {Bd{.buffer = far_src, .acquires = {{never}}, .next = Bd::none, .packet = BdPacket{0, 4}}}}}, "far_tx"));
        }
        *out = Program("npu1_1col", rt, {}, "hops").resolve();
        const auto r = sim::simulate(*out, {std::vector<std::uint8_t>(256, 0)}, {});
        CHECK(r.host[0] == bytes_of(v));
        return r.cycles;
    };
    model::Netlist alone, joined;
    const auto c_alone = run(false, &alone);
    const auto c_joined = run(true, &joined);
    REQUIRE(joined.packet_flows.size() == 2);
    CHECK(joined.packet_flows[0].paths.at(0).size() < joined.packet_flows[1].paths.at(0).size());
    CHECK(c_joined == c_alone);
}

// SimEngine::analyzer gives the deadlock analysis one link per packet source: the wait-for graph
// follows the shim's packet sender to the channel that does not take its data.
TEST_CASE("the deadlock report follows a packet link from its sender to the receiver it waits for",
          "[examples][packets][deadlock]") {
    const Tile shim(0, 0), core(0, 2);
    const auto ty = tensor<std::int32_t>({64});
    Buffer b(ty, "b", {}, core);
    Lock e(core, 0, 0, "stuck"), f(core, 1, 0, "full"); // nothing releases 'stuck'
    Runtime rt(
        [](RuntimeData a) {
            const Task t = shim_dma_single_bd_task("in", a, {.issue_token = true, .packet = BdPacket{0, 5}});
            dma_start_task(t);
            dma_await_task(t);
        },
        fn_args(ty));
    rt.add_flow(PacketFlow(5, shim, core, {.shim_symbol = "in"}));
    rt.add_lock(e);
    rt.add_lock(f);
    rt.add_tile_dma(TileDma(core, {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = b, .acquires = {{e}}, .releases = {{f}}}}}}, "rx"));
    const auto net = Program("npu1_1col", rt, {}, "stuck_packets").resolve();
    try {
        sim::simulate(net, {std::vector<std::uint8_t>(256, 1)}, {});
        FAIL("expected a deadlock");
    } catch (const SimulationError& x) {
        REQUIRE(x.kind() == SimulationError::Kind::Deadlock);
        const std::string msg = x.what();
        INFO(msg);
        CHECK_THAT(msg, Catch::Contains("shim DMA (0,0) MM2S 0 sends task 0 ('in' shim_dma_single_bd_task)"));
        CHECK_THAT(msg, Catch::Contains("it waits for DMA (0,2) S2MM 0 to take data"));
        CHECK_THAT(msg, Catch::Contains("DMA (0,2) S2MM 0 waits to run BD 0 ('rx' S2MM channel 0 Bd, element 0): lock "
                                        "stuck on (0,2) is 0, needs >= 1"));
    }
}
