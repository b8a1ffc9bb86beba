// E6 and E7: the lowered structure (buffers, locks, BDs and DMA channels per tile) must be what
// the toolchain builds for the same design, derived from the lowering rules of
// docs/resolve.md "Rule labels" (R4 depths, R5 locks, R7 channels, R8 BD chains,
// R9 join/distribute); and the default-size designs must produce the golden result.
#include "npusim/harness/DesignRunner.hpp"

#include <catch2/catch.hpp>
#include <map>

using namespace npusim;
using namespace npusim::harness;

namespace {
struct TileCounts {
    int buffers = 0, locks = 0, bds = 0, s2mm = 0, mm2s = 0;
    std::uint64_t bytes = 0;
};
std::map<model::TileCoord, TileCounts> count(const model::Netlist& n) {
    std::map<model::TileCoord, TileCounts> m;
    for (const auto& b : n.buffers) {
        ++m[b.tile].buffers;
        m[b.tile].bytes += b.bytes;
    }
    for (const auto& l : n.locks) ++m[l.tile].locks;
    for (const auto& c : n.channels) {
        m[c.tile].bds += static_cast<int>(c.bds.size());
        ++(c.dir == model::Direction::S2MM ? m[c.tile].s2mm : m[c.tile].mm2s);
    }
    for (const auto& f : n.flows) {
        if (f.source.tile.row == 0) ++m[f.source.tile].mm2s;
        for (const auto& d : f.dests)
            if (d.tile.row == 0) ++m[d.tile].s2mm;
    }
    return m;
}
model::Netlist lower(const std::string& design, const std::string& device) {
    const auto& spec = design_by_name(design);
    auto inst = spec.build(model::device_by_name(device), spec.resolve_params({}), 1);
    return inst.program.resolve();
}
} // namespace

TEST_CASE("matmul_single_core lowers like the toolchain", "[examples][matmul][structure]") {
    // Derivation (m = k = n = 32; i16 A, B: 2 KiB objects; i32 C: 4 KiB):
    //  core (0,2): memA_cons, memB_cons (consumer copies) and memC (producer) at depth
    //    max acquire 1 + 1 = 2 (R4): 6 buffers, a lock pair each (R5): 6 locks; S2MM 0/1 and MM2S 0
    //    with one BD per buffer (R8): 6 BDs.  2*2048 + 2*2048 + 2*4096 = 16 KiB.
    //  mem tile (0,1): three forwards (inA->memA, inB->memB, memC->outC), each one pool at the
    //    declared depth 2 (R4), one lock pair, an S2MM and an MM2S chain of 2 BDs: 6 buffers,
    //    6 locks, 3 + 3 channels, 12 BDs.
    //  shim (0,0): MM2S for inA and inB, S2MM for outC (R7); no buffers, no locks here (the
    //    toolchain's unused 0/0 shim lock pair is not modelled).
    const auto n = lower("matmul_single_core", "npu1_1col");
    auto c = count(n);
    const auto core = c[{0, 2}], mem = c[{0, 1}], shim = c[{0, 0}];
    CHECK(core.buffers == 6);
    CHECK(core.locks == 6);
    CHECK(core.bds == 6);
    CHECK(core.s2mm == 2);
    CHECK(core.mm2s == 1);
    CHECK(core.bytes == 16384);
    CHECK(mem.buffers == 6);
    CHECK(mem.locks == 6);
    CHECK(mem.bds == 12);
    CHECK(mem.s2mm == 3);
    CHECK(mem.mm2s == 3);
    CHECK(shim.mm2s == 2);
    CHECK(shim.s2mm == 1);
    CHECK(n.flows.size() == 6);
    CHECK(n.cores.size() == 1);
}

TEST_CASE("matmul_whole_array lowers like the toolchain on npu1 (4 x 4)", "[examples][matmul][structure]") {
    // Derivation (m = k = 64, n = 32; A 8 KiB, B 4 KiB, C 4 KiB per core, C_L2L3 16 KiB):
    //  each core: A_L2L1_r and B_L2L1_c consumer copies (broadcast: one per consumer, R3) and
    //    C_L1L2_c_r producer, depth 2 each: 6 buffers, 6 locks, S2MM 0/1 + MM2S 0, 6 BDs.
    //  each mem tile c: A_L3L2_c split into one sub-fifo (pool 2 x 8 KiB, one lock pair, S2MM and
    //    MM2S chains of 2 BDs), B forward (pool 2 x 4 KiB, one pair, 2 + 2 BDs), C join of 4
    //    (pool 2 x 16 KiB owned by C_L2L3_c, 4 lock pairs (R9), 4 S2MM channels of 2 BDs and one
    //    MM2S of depth x 4 = 8 BDs): 6 buffers, 12 locks, S2MM 6, MM2S 3, 24 BDs.
    //  each shim c: MM2S for A_L3L2_c and B_L3L2_c, S2MM for C_L2L3_c.
    //  flows: per row A_L3L2_r + A_L2L1_r (broadcast to 4), per column B_L3L2_c + B_L2L1_c
    //    (broadcast to 4) + 4 C_L1L2 + C_L2L3 = 4 x 2 + 4 x 7 = 36.
    const auto n = lower("matmul_whole_array", "npu1");
    auto c = count(n);
    for (int col = 0; col < 4; ++col) {
        INFO("column " << col);
        for (int row = 2; row < 6; ++row) {
            const auto t = c[{col, row}];
            CHECK(t.buffers == 6);
            CHECK(t.locks == 6);
            CHECK(t.bds == 6);
            CHECK(t.s2mm == 2);
            CHECK(t.mm2s == 1);
        }
        const auto mem = c[{col, 1}];
        CHECK(mem.buffers == 6);
        CHECK(mem.locks == 12);
        CHECK(mem.bds == 24);
        CHECK(mem.s2mm == 6);
        CHECK(mem.mm2s == 3);
        CHECK(mem.bytes == 2 * 8192 + 2 * 4096 + 2 * 16384);
        const auto shim = c[{col, 0}];
        CHECK(shim.mm2s == 2);
        CHECK(shim.s2mm == 1);
    }
    CHECK(n.flows.size() == 36);
    CHECK(n.cores.size() == 16);
    std::size_t broadcasts = 0;
    for (const auto& f : n.flows) broadcasts += f.dests.size() == 4 ? 1 : 0;
    CHECK(broadcasts == 8); // A_L2L1_r and B_L2L1_c
}

TEST_CASE("matmul designs produce the golden result", "[examples][matmul]") {
    sim::SimOptions o;
    for (const auto& [design, device] :
         std::vector<std::pair<std::string, std::string>>{{"matmul_single_core", "npu1_1col"},
                                                          {"matmul_single_core", "npu2"},
                                                          {"matmul_whole_array", "npu1"},
                                                          {"matmul_whole_array", "npu2"}}) {
        INFO(design << " on " << device);
        o.timing = model::TimingParams::for_arch(model::device_by_name(device).arch);
        const auto rep = run_design(design_by_name(design), device, {}, 3, o);
        for (const auto& ch : rep.checks) {
            INFO(ch.name);
            CHECK(ch.match);
        }
        CHECK(rep.all_match);
    }
    // a reduced single-core size and a 5-column whole array
    o.timing = model::TimingParams::for_arch(model::Arch::AIE2P);
    CHECK(run_design(design_by_name("matmul_single_core"), "npu2_1col", {{"M", 128}, {"K", 64}, {"N", 96}}, 4, o)
              .all_match);
    CHECK(run_design(design_by_name("matmul_whole_array"), "npu2_5col", {{"N", 640}}, 4, o).all_match);
}

TEST_CASE("designs with kernels pass with the AIE-API kernel builds (--kernels=aie)", "[examples][aie]") {
    const std::vector<std::tuple<std::string, std::string, Params>> runs = {
        {"matmul_single_core", "npu1", {{"M", 128}, {"K", 64}, {"N", 64}}},
        {"matmul_single_core", "npu2_1col", {{"M", 64}, {"K", 64}, {"N", 128}}},
        {"matmul_whole_array", "npu1", {}},
        {"matmul_whole_array", "npu2", {{"K", 128}}},
        {"vector_reduce_max", "npu2", {}},
        {"vector_reduce_max_memtile", "npu1", {{"size", 8192}}},
        {"row_wise_bias_add", "npu1_1col", {{"M", 192}, {"N", 256}}},
        {"memcpy", "npu2", {{"bypass", 0}, {"columns", 2}, {"channels", 2}}},
    };
    for (const auto& [design, device, params] : runs) {
        INFO(design << " on " << device);
        RunOptions o;
        o.kernels = KernelSet::aie;
        o.sim.timing = model::TimingParams::for_arch(model::device_by_name(device).arch);
        const auto rep = run_design(design_by_name(design), device, params, o);
        for (const auto& ch : rep.checks) {
            INFO(ch.name);
            CHECK(ch.match);
        }
        CHECK(rep.all_match);
    }
}
