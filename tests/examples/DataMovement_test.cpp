// Invariant (issue 10): a design that only moves data reproduces its input, checked against the
// input bytes themselves rather than the design's own reference: E1 (passThroughLine copies),
// E2 (mem-tile forward), E11 (memcpy, DMA-only and through workers) give back the input byte for
// byte; E10 (the shim DMA's column-major read) gives back its transpose, computed here with Eigen.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignSpec.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/sim/Simulator.hpp"

#include <Eigen/Core>
#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {

struct Run {
    std::vector<std::vector<std::uint8_t>> before, after;
};

Run run(const std::string& design, const std::string& device, const Params& overrides = {}) {
    const auto& spec = design_by_name(design);
    const auto& dev = model::device_by_name(device);
    const auto inst = spec.build(dev, spec.resolve_params(overrides), BuildOptions(11));
    Run r;
    r.before = inst.host();
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(dev.arch);
    r.after = sim::simulate(inst.program.resolve(), r.before, o).host;
    return r;
}

} // namespace

TEST_CASE("copy designs give back their input byte for byte", "[examples][invariants]") {
    struct Case {
        const char* design;
        const char* device;
        Params params;
    };
    const std::vector<Case> cases = {
        {"passthrough_kernel", "npu1_1col", {}},
        {"passthrough_kernel", "npu2", {{"bits", 16}}},
        {"passthrough_dmas", "npu1_2col", {}},
        {"passthrough_dmas", "npu2_1col", {{"size", 65536}, {"tile", 4096}}},
        {"memcpy", "npu1", {{"columns", 4}, {"channels", 2}, {"bypass", 1}}},
        {"memcpy", "npu2", {{"columns", 2}, {"channels", 2}, {"bypass", 0}}},
    };
    for (const auto& c : cases) {
        INFO(c.design << " on " << c.device);
        const auto r = run(c.design, c.device, c.params);
        REQUIRE(r.before.size() >= 2);
        REQUIRE_FALSE(r.before.front().empty());
        // The first argument is the input, the last the output (a zeroed buffer before the run).
        CHECK(r.after.back() == r.before.front());
        CHECK(r.after.front() == r.before.front()); // the input is left as it was
    }
}

TEST_CASE("transpose_dma gives back the transpose of its input", "[examples][invariants]") {
    for (const char* device : {"npu1_1col", "npu2"}) {
        INFO(device);
        const std::int64_t M = 64, K = 32;
        const auto r = run("transpose_dma", device, {{"M", M}, {"K", K}});
        using Mat = Eigen::Matrix<std::int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        REQUIRE(r.before.front().size() == static_cast<std::size_t>(M * K * 4));
        const Eigen::Map<const Mat> a(reinterpret_cast<const std::int32_t*>(r.before.front().data()), M, K);
        const Eigen::Map<const Mat> c(reinterpret_cast<const std::int32_t*>(r.after.back().data()), K, M);
        CHECK(c == a.transpose());
    }
}
