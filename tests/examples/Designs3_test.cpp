// E5 (single core and mem-tile split/join), E9, E10 and E11 (bypass and kernel, columns x
// channels) at their default sizes on npu1_1col, npu1, npu2_1col and npu2 (the mem-tile E5 on
// npu1_2col and npu2_2col instead of the one-column devices, which cannot route it), each against
// its golden reference; plus reduced sizes, the AIE-API kernel builds and the parameter errors.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {
const char* const kDevices[] = {"npu1_1col", "npu1", "npu2_1col", "npu2"};

sim::SimOptions designs3_opts(const std::string& device) { return test::sim_opts(device); }

RunReport require_pass(const std::string& design, const std::string& device, const Params& p = {}) {
    INFO(design << " on " << device);
    RunOptions ro;
    ro.seed = 11;
    ro.sim = designs3_opts(device);
    auto rep = run_design(design_by_name(design), device, p, ro);
    for (const auto& c : rep.checks) {
        INFO(c.name << ": " << c.first_mismatches);
        CHECK(c.match);
    }
    REQUIRE(rep.all_match);
    REQUIRE_FALSE(rep.checks.empty());
    CHECK(rep.result.cycles > 0);
    return rep;
}

// The AIE-API kernel build of a design (not listed in its kernel_sets yet, so built directly):
// it must pass and compute the same outputs as the reference build.
void require_aie_pass(const std::string& design, const std::string& device, const Params& p = {}) {
    INFO(design << " on " << device << " (aie kernels)");
    const auto& spec = design_by_name(design);
    const auto& dev = model::device_by_name(device);
    const auto params = spec.resolve_params(p);
    auto ref = spec.build(dev, params, BuildOptions(11, KernelSet::reference));
    auto aie = spec.build(dev, params, BuildOptions(11, KernelSet::aie));
    const auto r_ref = sim::simulate(ref.program.resolve(), ref.host(), designs3_opts(device));
    const auto r_aie = sim::simulate(aie.program.resolve(), aie.host(), designs3_opts(device));
    for (const auto& c : aie.check(r_aie.host)) {
        INFO(c.name << ": " << c.first_mismatches);
        CHECK(c.match);
    }
    CHECK(r_aie.host == r_ref.host);
    CHECK(r_aie.cycles == r_ref.cycles); // the same cost models
}
} // namespace

TEST_CASE("E5 vector_reduce_max passes on npu1_1col, npu1, npu2_1col and npu2", "[examples][e5]") {
    for (const char* device : kDevices) require_pass("vector_reduce_max", device);
    require_pass("vector_reduce_max", "npu1", {{"size", 128}}); // the kernel's minimum: 8 vectors
    require_aie_pass("vector_reduce_max", "npu2");
}

TEST_CASE("E5 vector_reduce_max_memtile passes on npu1_2col, npu1, npu2_2col and npu2", "[examples][e5]") {
    for (const char* device : {"npu1_2col", "npu1", "npu2_2col", "npu2"})
        require_pass("vector_reduce_max_memtile", device);
    require_pass("vector_reduce_max_memtile", "npu1_3col", {{"size", 2048}}); // one object: one segment per worker
    require_aie_pass("vector_reduce_max_memtile", "npu2", {{"size", 16384}});
    // Four workers need five southward flows out of one column; one-column devices have four.
    CHECK_FALSE(design_by_name("vector_reduce_max_memtile").supports("npu1_1col"));
    CHECK_FALSE(design_by_name("vector_reduce_max_memtile").supports("npu2_1col"));
}

TEST_CASE("E5 vector_reduce_max_memtile: the maximum of each segment reaches worker 0 through the join",
          "[examples][e5]") {
    // Random inputs in [-1000, 1000) put 999 in every segment; plant a unique maximum instead, in
    // each of the four 512-element segments of an object in turn.
    const auto& spec = design_by_name("vector_reduce_max_memtile");
    auto inst = spec.build(model::device_by_name("npu2_2col"), spec.resolve_params({{"size", 4096}}), 5);
    const auto net = inst.program.resolve();
    for (std::size_t seg = 0; seg < 4; ++seg) {
        INFO("maximum in segment " << seg);
        auto in = inst.inputs;
        auto v = get(in, "in").values<std::int32_t>();
        v[2048 + seg * 512 + 33] = 123456; // second object
        in["in"] = Tensor::from<std::int32_t>({4096}, v);
        const auto r = sim::simulate(net, inst.host_tensors(in), designs3_opts("npu2_2col"));
        const auto checks = inst.check(in, r.host);
        REQUIRE(checks.size() == 1);
        INFO(checks[0].first_mismatches);
        CHECK(checks[0].match);
    }
}

TEST_CASE("E9 row_wise_bias_add passes on npu1_1col, npu1, npu2_1col and npu2", "[examples][e9]") {
    for (const char* device : kDevices) require_pass("row_wise_bias_add", device);
    require_pass("row_wise_bias_add", "npu1", {{"M", 192}, {"N", 256}});
    require_pass("row_wise_bias_add", "npu1_1col", {{"M", 64}, {"N", 128}, {"m", 16}, {"n", 64}});
    require_aie_pass("row_wise_bias_add", "npu2", {{"M", 96}, {"N", 128}});
}

TEST_CASE("E10 transpose_dma passes on npu1_1col, npu1, npu2_1col and npu2", "[examples][e10]") {
    for (const char* device : kDevices) require_pass("transpose_dma", device);
    require_pass("transpose_dma", "npu1", {{"M", 16}, {"K", 48}}); // not square
    require_pass("transpose_dma", "npu2", {{"M", 40}, {"K", 8}});
}

TEST_CASE("E11 memcpy passes in bypass and kernel mode, columns x channels", "[examples][e11]") {
    for (const char* device : kDevices) {
        const std::int64_t all = model::device_by_name(device).cols;
        for (std::int64_t bypass : {1, 0})
            for (std::int64_t chans : {1, 2})
                for (std::int64_t cols : all == 1 ? std::vector<std::int64_t>{1} : std::vector<std::int64_t>{1, all})
                    require_pass("memcpy", device, {{"bypass", bypass}, {"channels", chans}, {"columns", cols}});
    }
    require_pass("memcpy", "npu1_3col",
                 {{"bypass", 1}, {"columns", 3}, {"channels", 2}, {"size", 6144}}); // one line per path
    require_aie_pass("memcpy", "npu1", {{"bypass", 0}, {"columns", 2}, {"channels", 2}, {"size", 4096}});
    const auto rep = require_pass("memcpy", "npu2", {{"bypass", 0}, {"columns", 8}, {"channels", 2}});
    CHECK(rep.workers == 16);
}

// One mem tile has 6 S2MM channels: unpinned forwards beyond that go to the next mem tile.
TEST_CASE("E11 memcpy bypass with more paths than one mem tile has channels", "[examples][e11]") {
    require_pass("memcpy", "npu1", {{"bypass", 1}, {"columns", 4}, {"channels", 2}});
    require_pass("memcpy", "npu2", {{"bypass", 1}, {"columns", 8}, {"channels", 1}});
    require_pass("memcpy", "npu2", {{"bypass", 1}, {"columns", 8}, {"channels", 2}});
}

TEST_CASE("E5, E9, E10, E11 reject parameters they cannot run", "[examples]") {
    const auto run = [](const std::string& d, const std::string& dev, const Params& p) {
        return run_design(design_by_name(d), dev, p, 1, designs3_opts(dev));
    };
    CHECK_THROWS_WITH(
        run("vector_reduce_max", "npu1", {{"size", 112}}),
        "design 'vector_reduce_max': reduce_max_vector reads whole 16 x i32 vectors, at least 8 of them; size = 112 is "
        "not a multiple of 16 of at least 128");
    CHECK_THROWS_WITH(run("vector_reduce_max_memtile", "npu1", {{"size", 3000}}),
                      "design 'vector_reduce_max_memtile': parameter size=3000 must be a positive multiple of 2048 "
                      "(one of_in object)");
    CHECK_THROWS_WITH(run("row_wise_bias_add", "npu1", {{"n", 16}, {"N", 2304}}),
                      "design 'row_wise_bias_add': the kernel adds the bias in 32-float vectors; parameter n=16 is not "
                      "a multiple of 32");
    CHECK_THROWS_WITH(run("row_wise_bias_add", "npu1", {{"M", 700}}),
                      "design 'row_wise_bias_add': parameter M=700 must be a positive multiple of m=96");
    CHECK_THROWS_WITH(run("memcpy", "npu1_1col", {{"columns", 2}}),
                      "design 'memcpy': parameter columns=2 does not fit device npu1_1col, which has 1 column");
    CHECK_THROWS_WITH(run("memcpy", "npu1", {{"columns", 5}}),
                      "design 'memcpy': parameter columns=5 does not fit device npu1, which has 4 columns");
    CHECK_THROWS_WITH(run("memcpy", "npu1", {{"channels", 3}}),
                      "design 'memcpy': parameter channels=3 must be one of 1, 2");
    CHECK_THROWS_WITH(
        run("memcpy", "npu1", {{"columns", 4}, {"channels", 2}, {"size", 4096}}),
        "design 'memcpy': parameter size=4096 must be a positive multiple of 8192 (1024-element lines x columns=4 x "
        "channels=2)");
}

TEST_CASE("per_tile: 16 drains pushed in the implicit task group before any await pass, as on hardware (mlir-aie "
          "programming_examples/basic/tiling_exploration/per_tile, run.lit and run_strix.lit)",
          "[examples][queue]") {
    // Each small drain retires before the command processor's next push (shim_task_dispatch_cycles
    // apart), so the 4-deep queue never overflows although 16 tasks are started before any await.
    for (const char* dev : kDevices) {
        const auto rep = require_pass("per_tile", dev);
        CHECK(rep.result.shim_tasks == 16);
    }
    // Tiles of 4 x 2 over an 8 x 8 tensor: 8 drains.
    CHECK(require_pass("per_tile", "npu1_1col", {{"th", 4}}).result.shim_tasks == 8);
}

TEST_CASE("init_values_repeat and vec_vec_add_objfifo_init: mlir-aie's mem-tile init_values examples pass",
          "[examples][memtile_endpoint]") {
    for (const char* dev : kDevices) {
        require_pass("init_values_repeat", dev);
        require_pass("vec_vec_add_objfifo_init", dev);
    }
    require_pass("init_values_repeat", "npu1_1col", {{"N", 256}, {"repeat", 1}});
}
