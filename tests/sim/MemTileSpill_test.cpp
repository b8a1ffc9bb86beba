// A mem tile's fifo elements that do not fit its memory go to a neighbour mem tile, as mlir-aie's
// ObjectFifo lowering places them (AIEObjectFifoStatefulTransform.cpp at 3ca0193,
// createObjectFifoElements l.1029-1099): resolve moves the buffer and the mem tile's DMA reads and
// writes it in the neighbour's memory (AM020: a mem tile DMA addresses the memory of its west and
// east neighbours). With no neighbour that has room
// the tile is refused, saying so.
#include "npusim/frontend/MlirExport.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;

namespace {
// shim -> big (i32[n], `depth` objects) -> forwarded at a mem tile -> shim, `objects` objects.
Program spill_forward(const std::string& dev, std::int64_t n, int depth, int objects, Tile at = AnyMemTile) {
    ObjectFifo big(tensor<std::int32_t>({n}), "big", depth);
    auto fwd = big.cons().forward({.tile = at, .name = "fwd"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({n * objects}), tensor<std::int32_t>({n * objects}), big.prod(), fwd.cons()));
    return Program(dev, rt, {}, "spill_forward");
}
const model::NetBuffer& spill_buffer(const model::Netlist& net, const std::string& name) {
    for (const auto& b : net.buffers)
        if (b.name == name) return b;
    FAIL("no buffer " << name);
    throw;
}
} // namespace

TEST_CASE("a full mem tile's second element goes to its east neighbour, and the data passes byte-exact",
          "[sim][spill]") {
    // 2 x 320000 B > 512 KiB: element 0 fits (0,1); element 1 does not (l.1039-1040) and (0,1) has
    // no west neighbour, so it goes east to (1,1) (l.1060-1069).
    const auto p = spill_forward("npu2", 80000, 2, 3);
    const auto net = p.resolve();
    CHECK(spill_buffer(net, "big_cons_buff_0").tile == model::TileCoord{0, 1});
    CHECK(spill_buffer(net, "big_cons_buff_1").tile == model::TileCoord{1, 1});
    // The locks and channels stay on (0,1): only the buffer moves (createObjectFifoLocks takes
    // creation_tile, l.1117-1119).
    for (const auto& l : net.locks)
        if (l.name.rfind("big_cons", 0) == 0) CHECK(l.tile == model::TileCoord{0, 1});
    // The export is IRON's module (aie.objectfifo on logical tiles): the fifo's buffers, and so
    // their spill, are made by aiecc's own ObjectFifo lowering of it, never declared there.
    const std::string mlir = export_mlir(p);
    CHECK(mlir.find("aie.objectfifo @big(") != std::string::npos);
    CHECK(mlir.find("big_cons_buff") == std::string::npos);
    // Three objects through the two buffers: the DMA of (0,1) writes and reads (1,1)'s memory.
    std::vector<std::uint8_t> in(3 * 320000), out(in.size());
    for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<std::uint8_t>(k * 7 + k / 4099);
    const auto r = sim::simulate(net, {in, out}, {});
    const bool byte_exact = r.host[1] == in; // not CHECK(a == b): a failure would print 960,000 bytes
    CHECK(byte_exact);
}

TEST_CASE("the neighbour with less memory used takes the element, west first on a tie", "[sim][spill]") {
    // At (2,1): both (1,1) and (3,1) are empty, so the west one takes element 1 (stable sort,
    // left pushed first, l.1047-1077); element 2 then goes to (3,1), which has less used.
    const auto p = spill_forward("npu2", 80000, 3, 3, Tile(2, 1));
    const auto net = p.resolve();
    CHECK(spill_buffer(net, "big_cons_buff_0").tile == model::TileCoord{2, 1});
    CHECK(spill_buffer(net, "big_cons_buff_1").tile == model::TileCoord{1, 1});
    CHECK(spill_buffer(net, "big_cons_buff_2").tile == model::TileCoord{3, 1});
    std::vector<std::uint8_t> in(3 * 320000), out(in.size());
    for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<std::uint8_t>(k * 13 + k / 1021);
    const auto r = sim::simulate(net, {in, out}, {});
    const bool byte_exact = r.host[1] == in; // not CHECK(a == b): a failure would print 960,000 bytes
    CHECK(byte_exact);
}

TEST_CASE("with no neighbour that has room the mem tile is refused, naming why", "[sim][spill][errors]") {
    // npu1_1col: one column, no neighbour mem tile.
    CHECK_THROWS_WITH(spill_forward("npu1_1col", 80000, 2, 2).resolve(),
                      "mem tile (0,1): Basic sequential allocation also failed. Out of data memory: needs 640000 B "
                      "('big' 2 x 320000 B) but the tile has 524288 B; buffer big_cons_buff_1 of 320000 B does not "
                      "fit, and no neighbour mem tile shares memory with this one");
    // npu2 at (0,1), three elements: element 1 fills (1,1), element 2 fits neither.
    CHECK_THROWS_WITH(spill_forward("npu2", 80000, 3, 3).resolve(),
                      "mem tile (0,1): Basic sequential allocation also failed. Out of data memory: needs 640000 B "
                      "('big' 2 x 320000 B) but the tile has 524288 B; buffer big_cons_buff_2 of 320000 B does not "
                      "fit, nor in its neighbour mem tile (1,1) (320000 of 524288 B used)");
}

TEST_CASE("a BD on a buffer its DMA cannot address is refused by the simulator", "[sim][spill][errors]") {
    // A mem tile DMA reaches its own and its west and east neighbours' memories only: a netlist
    // with the spilled buffer two columns away (which resolve never makes) does not run.
    auto net = spill_forward("npu2", 80000, 2, 2).resolve();
    for (auto& b : net.buffers)
        if (b.name == "big_cons_buff_1") b.tile = {2, 1};
    std::vector<std::uint8_t> in(2 * 320000), out(in.size());
    CHECK_THROWS_WITH(sim::simulate(net, {in, out}, {}),
                      "DMA (0,1) S2MM 0: BD 1 of 'big' link S2MM, element 1 uses buffer 'big_cons_buff_1' on tile "
                      "(2,1), whose memory this DMA cannot address");
}
