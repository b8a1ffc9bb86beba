// E13 relu (mlir-aie ml/eltwise_unary/eltwise_unary.py, through IRON's transform_parallel): the
// golden on every device and column count, the AIE-API build, the parameter rules, and bandwidth
// scaling over columns: each (column, channel) path moves 4 B/cycle in and 4 B/cycle out, so
// doubling the columns doubles the throughput until all paths together reach the host memory's
// ddr_bytes_per_cycle (50 B/cycle, sim/src/DdrBandwidth.hpp), which then caps it.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace npusim;
using namespace npusim::harness;

namespace {

RunOptions opts(const std::string& device) { return test::run_opts(device, 7); }

// Bytes per cycle of a warm invocation (the second of two: every shim channel is past its cold
// dispatch) moving `size` bf16 elements in and out.
double throughput(const std::string& device, std::int64_t columns, std::int64_t channels, std::int64_t size,
                  double ddr = 0) {
    auto o = opts(device);
    if (ddr > 0) o.sim.timing.ddr_bytes_per_cycle = ddr;
    o.warmup = 1;
    const auto rep =
        run_design(design_by_name("relu"), device, {{"size", size}, {"columns", columns}, {"channels", channels}}, o);
    REQUIRE(rep.all_match);
    REQUIRE(rep.invocations.size() == 2);
    return 2.0 * 2.0 * static_cast<double>(size) / static_cast<double>(rep.invocations.back().cycles);
}

} // namespace

TEST_CASE("relu matches max(a, 0) on every device, with 1 and 2 channels", "[examples][relu]") {
    for (const auto& dev : model::all_devices())
        for (std::int64_t ch : {1, 2}) {
            INFO(dev.name << " channels=" << ch);
            const auto r = run_design(design_by_name("relu"), dev.name, {{"size", 8192 * dev.cols}, {"channels", ch}},
                                      opts(dev.name));
            REQUIRE(r.checks.size() == 1);
            CHECK(r.checks[0].elements == static_cast<std::uint64_t>(8192 * dev.cols));
            CHECK(r.checks[0].mismatches == 0);
            CHECK(r.all_match);
            CHECK(r.workers == static_cast<std::size_t>(dev.cols * ch));
        }
    // The golden is not the kernel: a wrong kernel result is a mismatch.
    const auto& spec = design_by_name("relu");
    auto inst = spec.build(model::device_by_name("npu1_1col"), spec.resolve_params({}), 3);
    const auto want = inst.reference(inst.inputs).at("b").values<bfloat16>();
    const auto in = inst.inputs.at("a").values<bfloat16>();
    std::size_t negative = 0, zero_out = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        negative += float(in[i]) < 0 ? 1 : 0;
        zero_out += float(want[i]) == 0 ? 1 : 0;
        CHECK(float(want[i]) >= 0);
    }
    CHECK(negative > in.size() / 3); // inputs in [-3, 3): about half are negative ...
    CHECK(zero_out >= negative); // ... and every one of them is 0 in the golden
}

TEST_CASE("relu with the AIE-API kernel source matches the reference build bit for bit", "[examples][relu][aie]") {
    auto ref = opts("npu2"), aie = opts("npu2");
    aie.kernels = KernelSet::aie;
    const Params p{{"size", 65536}};
    const auto r1 = run_design(design_by_name("relu"), "npu2", p, ref);
    const auto r2 = run_design(design_by_name("relu"), "npu2", p, aie);
    CHECK(r2.all_match);
    CHECK(r1.result.host == r2.result.host);
    CHECK(r1.result.cycles == r2.result.cycles);
}

TEST_CASE("relu parameter rules", "[examples][relu]") {
    const auto o = opts("npu1");
    CHECK_THROWS_WITH(run_design(design_by_name("relu"), "npu1", {{"columns", 5}}, o),
                      "design 'relu': parameter columns=5 does not fit device npu1, which has 4 columns");
    CHECK_THROWS_WITH(run_design(design_by_name("relu"), "npu1", {{"size", 1024}}, o),
                      "design 'relu': parameter size=1024 must be a positive multiple of 8192 (tile_size 1024 x "
                      "columns=4 x channels=2)");
    CHECK_THROWS_AS(run_design(design_by_name("relu"), "npu1", {{"channels", 3}}, o), DesignError);
}

TEST_CASE("relu: doubling the columns doubles the throughput until the shared DDR bandwidth caps it",
          "[examples][relu][ddr]") {
    // npu2, 2 channels, 2^21 bf16 elements (4 MiB in, 4 MiB out), warm invocation. Each column
    // moves 2 channels x 2 directions x 4 B/cycle = 16 B/cycle. npu2's host memory gives 50 GB/s,
    // 27.78 B/cycle at its 1.8 GHz array clock (ddr_bytes_per_cycle): 1 column (16 asked) runs at
    // its streams' rate, 2 columns (32 asked) are already capped near it, and more columns add
    // nothing. (At the 1 GHz npu2 clock npusim assumed before, the cap was 50 B/cycle and 2 columns
    // still doubled.)
    const double cap = model::TimingParams::for_arch(model::Arch::AIE2P).ddr_bytes_per_cycle;
    REQUIRE(cap > 16);
    REQUIRE(cap < 32);
    const std::int64_t size = 1 << 21;
    std::map<std::int64_t, double> bw;
    for (std::int64_t c : {1, 2, 4, 8}) bw[c] = throughput("npu2", c, 2, size);
    for (const auto& [c, v] : bw) INFO(c << " columns: " << v << " B/cycle");
    CHECK(bw[1] > 0.9 * 16);
    CHECK(bw[1] <= 16);
    CHECK(bw[2] > 0.9 * cap); // 32 B/cycle asked: capped near the host memory
    CHECK(bw[2] <= cap);
    CHECK(bw[2] / bw[1] < 1.9); // no longer doubles
    CHECK(bw[4] <= cap);
    CHECK(bw[4] / bw[2] < 1.05);
    CHECK(bw[8] <= cap); // no faster than the host memory
    CHECK(bw[8] / bw[4] < 1.05);
    // Without the shared limit the 8 columns scale on (98.5 B/cycle, x3.3 over 2 columns; the 32
    // task pushes of the serial controller, 520 cycles each, are what keeps it below 128 at this
    // size): the cap is the DDR, not the design.
    const double wide = throughput("npu2", 8, 2, size, 1000);
    CHECK(wide > 3.0 * bw[2]);
    CHECK(wide <= 8 * 16);
    // npu1 (4 columns), 1 channel: 8 B/cycle per column, 32 for 4, under the cap: doubles twice
    // (7.7, 15.4, 30.4 B/cycle).
    const double n1 = throughput("npu1", 1, 1, size), n2 = throughput("npu1", 2, 1, size),
                 n4 = throughput("npu1", 4, 1, size);
    CHECK(n2 / n1 > 1.9);
    CHECK(n4 / n2 > 1.9);
    CHECK(n4 <= 32);
}
