// E12 vision/edge_detect and color_detect, and vision/color_threshold (mlir-aie
// programming_examples/vision): the
// golden on every device with both kernel builds, the lowered structure the examples are about
// (a broadcast, a delay fifo of depth 7, a self-loop fifo, a filter Buffer; a split/join with RTPs
// behind barriers) and the parameter rules.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

using namespace npusim;
using namespace npusim::harness;

namespace {

RunOptions vision_opts(const std::string& device, KernelSet k = KernelSet::reference) {
    return test::run_opts(device, 5, k);
}

const model::FifoEndpointInfo& end_of(const model::Netlist& n, const std::string& fifo, const std::string& end) {
    for (const auto& e : n.fifo_ends)
        if (e.fifo == fifo && e.end == end) return e;
    FAIL("no fifo end " << fifo << " " << end);
    throw 0;
}

} // namespace

TEST_CASE("edge_detect matches the image-level golden on every device, reference and AIE-API kernels",
          "[examples][edge_detect]") {
    const Params small{{"width", 64}, {"height", 36}}; // test.cpp's small size
    for (const auto& dev : model::all_devices())
        for (auto k : {KernelSet::reference, KernelSet::aie}) {
            INFO(dev.name << " " << kernel_set_name(k));
            const auto r = run_design(design_by_name("edge_detect"), dev.name, small, vision_opts(dev.name, k));
            REQUIRE(r.checks.size() == 1);
            CHECK(r.checks[0].elements == 64u * 36u * 4u);
            CHECK(r.all_match);
            CHECK(r.workers == 4);
        }
    // The two kernel builds compute the same bytes in the same cycles.
    const auto a = run_design(design_by_name("edge_detect"), "npu2", small, vision_opts("npu2"));
    const auto b = run_design(design_by_name("edge_detect"), "npu2", small, vision_opts("npu2", KernelSet::aie));
    CHECK(a.result.host == b.result.host);
    CHECK(a.result.cycles == b.result.cycles);
    // The golden is not trivial: random pixels give edges (mask 255, so R, G, B saturate) and flat
    // spots (the original pixel); alpha always saturates.
    const auto& spec = design_by_name("edge_detect");
    auto inst = spec.build(model::device_by_name("npu1"), spec.resolve_params(small), 5);
    const auto in = inst.inputs.at("in").values<std::int8_t>();
    const auto want = inst.reference(inst.inputs).at("out").values<std::int8_t>();
    std::size_t edges = 0, kept = 0;
    for (std::size_t px = 0; px < in.size() / 4; ++px) {
        CHECK(want[4 * px + 3] == -1);
        const bool all_sat = want[4 * px] == -1 && want[4 * px + 1] == -1 && want[4 * px + 2] == -1;
        const bool same =
            want[4 * px] == in[4 * px] && want[4 * px + 1] == in[4 * px + 1] && want[4 * px + 2] == in[4 * px + 2];
        edges += all_sat ? 1 : 0;
        kept += same && !all_sat ? 1 : 0;
        CHECK((all_sat || same));
    }
    CHECK(edges > 64);
    CHECK(kept > 64);
}

TEST_CASE("edge_detect at a width of five 32-pixel blocks: filter2dLine's carried left neighbour in the golden",
          "[examples][edge_detect]") {
    // the first pixel of blocks 2, 3 and 4 takes the pixel two to its left (filter2d.cc:144-145)
    const Params wide{{"width", 160}, {"height", 4}};
    for (auto k : {KernelSet::reference, KernelSet::aie}) {
        INFO(kernel_set_name(k));
        const auto r = run_design(design_by_name("edge_detect"), "npu1", wide, vision_opts("npu1", k));
        REQUIRE(r.checks.size() == 1);
        CHECK(r.checks[0].elements == 160u * 4u * 4u);
        CHECK(r.all_match);
    }
}

TEST_CASE("edge_detect lowers its broadcast, delay fifo, self-loop fifo and filter Buffer as the example has them",
          "[examples][edge_detect]") {
    const auto& spec = design_by_name("edge_detect");
    auto inst = spec.build(model::device_by_name("npu1"), spec.resolve_params({}), 1);
    const auto n = inst.program.resolve();
    // inOF_L3L2 is a broadcast: the forward link on the mem tile (its cons(7) comes first, as in
    // edge_detect.py) and worker rgba2gray.
    const auto& delay_in = end_of(n, "inOF_L3L2", "consumer 0");
    const auto& gray_in = end_of(n, "inOF_L3L2", "consumer 1");
    CHECK(gray_in.tile.row >= 2);
    CHECK(delay_in.tile.row == 1);
    // cons(7) on the mem tile keeps 7 RGBA lines; the forwarded fifo inOF_L2L1 is declared depth 7.
    CHECK(delay_in.depth == 7);
    CHECK(end_of(n, "inOF_L2L1", "producer").declared == 7);
    // OF_2to3 depth 4 (the filter holds 3 lines), OF_local depth 1 with both ends on one tile.
    CHECK(end_of(n, "OF_2to3", "producer").declared == 4);
    const auto& local_p = end_of(n, "OF_local", "producer");
    const auto& local_c = end_of(n, "OF_local", "consumer 0");
    CHECK(local_p.tile == local_c.tile);
    CHECK(local_p.declared == 1);
    // The Laplacian in Q12 sits in a buffer named 'kernel' with its initial values.
    const auto kb = std::find_if(n.buffers.begin(), n.buffers.end(), [](const auto& b) { return b.name == "kernel"; });
    REQUIRE(kb != n.buffers.end());
    REQUIRE(kb->init.size() == 18);
    std::int16_t k[9];
    std::memcpy(k, kb->init.data(), 18);
    CHECK(std::vector<std::int16_t>(k, k + 9) == std::vector<std::int16_t>{0, 4096, 0, 4096, -16384, 4096, 0, 4096, 0});
    // upstream's default size (1920 x 1080) runs and matches.
    const auto r = run_design(spec, "npu1", {}, vision_opts("npu1"));
    CHECK(r.all_match);
    CHECK(r.checks[0].elements == 1920u * 1080u * 4u);
}

TEST_CASE("edge_detect parameter rules", "[examples][edge_detect]") {
    const auto& spec = design_by_name("edge_detect");
    CHECK_THROWS_WITH(
        run_design(spec, "npu1", {{"width", 100}}, vision_opts("npu1")),
        "design 'edge_detect': parameter width=100 must be a multiple of 32 and at least 64 (filter2dLine "
        "processes 32 pixels a step, with a first and a last step)");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"width", 32}}, vision_opts("npu1")),
                      Catch::Matchers::Contains("parameter width=32 must be a multiple of 32 and at least 64"));
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"height", 1}}, vision_opts("npu1")),
                      "design 'edge_detect': parameter height=1 must be at least 2 (the filter's top and bottom "
                      "borders)");
}

TEST_CASE("color_threshold thresholds every byte with the run-time parameters on every device",
          "[examples][color_threshold]") {
    const Params small{{"width", 128}, {"height", 64}};
    for (const auto& dev : model::all_devices())
        for (auto k : {KernelSet::reference, KernelSet::aie}) {
            INFO(dev.name << " " << kernel_set_name(k));
            const auto r = run_design(design_by_name("color_threshold"), dev.name, small, vision_opts(dev.name, k));
            REQUIRE(r.checks.size() == 1);
            CHECK(r.checks[0].elements == 128u * 64u);
            CHECK(r.all_match);
            CHECK(r.workers == 4);
        }
    // The RTPs, not a constant in the kernel, decide: the Buffers start at zero (no initial value),
    // so a worker that ran before the sequence wrote them would threshold at 0 with maximum 0.
    const auto& spec = design_by_name("color_threshold");
    auto inst = spec.build(model::device_by_name("npu1"), spec.resolve_params(small), 5);
    const auto n = inst.program.resolve();
    int rtps = 0;
    for (const auto& b : n.buffers)
        if (b.name.rfind("rtp", 0) == 0) {
            ++rtps;
            CHECK(b.bytes == 64);
            CHECK(std::all_of(b.init.begin(), b.init.end(), [](std::uint8_t x) { return x == 0; }));
        }
    CHECK(rtps == 4);
    const auto in = inst.inputs.at("in").values<std::int8_t>();
    const auto want = inst.reference(inst.inputs).at("out").values<std::int8_t>();
    std::size_t on = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        CHECK(want[i] == (static_cast<std::uint8_t>(in[i]) > 50 ? -1 : 0));
        on += want[i] == -1 ? 1 : 0;
    }
    CHECK(on > in.size() / 2); // 205 of 256 byte values are above 50
    CHECK(on < in.size());
}

TEST_CASE("color_threshold parameter rules", "[examples][color_threshold]") {
    const auto& spec = design_by_name("color_threshold");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"width", 100}}, vision_opts("npu1")),
                      "design 'color_threshold': parameter width=100 must be a positive multiple of 64 "
                      "(thresholdLine processes 64 u8 lanes a step)");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"height", 10}}, vision_opts("npu1")),
                      "design 'color_threshold': parameter height=10 must be a positive multiple of 4 (the W x H "
                      "byte image is read in RGBA lines of 4W bytes)");
}

TEST_CASE("color_detect matches the per-stage golden on every device, reference and AIE-API kernels",
          "[examples][color_detect]") {
    const Params small{{"width", 64}, {"height", 36}};
    for (const auto& dev : model::all_devices())
        for (auto k : {KernelSet::reference, KernelSet::aie}) {
            INFO(dev.name << " " << kernel_set_name(k));
            const auto r = run_design(design_by_name("color_detect"), dev.name, small, vision_opts(dev.name, k));
            REQUIRE(r.checks.size() == 1);
            CHECK(r.checks[0].elements == 64u * 36u * 4u);
            CHECK(r.all_match);
            CHECK(r.workers == 4);
        }
    // The golden keeps some pixels (hue in (30, 40] or (90, 160]) and blacks out the others.
    const auto& spec = design_by_name("color_detect");
    auto inst = spec.build(model::device_by_name("npu1"), spec.resolve_params(small), 5);
    const auto in = inst.inputs.at("in").values<std::int8_t>();
    const auto want = inst.reference(inst.inputs).at("out").values<std::int8_t>();
    std::size_t kept = 0, dark = 0;
    for (std::size_t px = 0; px < in.size() / 4; ++px) {
        CHECK(want[4 * px + 3] == in[4 * px + 3]);
        const bool same =
            want[4 * px] == in[4 * px] && want[4 * px + 1] == in[4 * px + 1] && want[4 * px + 2] == in[4 * px + 2];
        const bool black = want[4 * px] == 0 && want[4 * px + 1] == 0 && want[4 * px + 2] == 0;
        kept += same && !black ? 1 : 0;
        dark += black ? 1 : 0;
        CHECK((same || black));
    }
    CHECK(kept > 200);
    CHECK(dark > 200);
    // Its structure: OF_2to34 has two consumers (the threshold workers), the delay fifo keeps 6
    // lines on the mem tile, and the self-loop fifos have both ends on one tile.
    const auto n = inst.program.resolve();
    CHECK(end_of(n, "OF_2to34", "consumer 0").tile != end_of(n, "OF_2to34", "consumer 1").tile);
    CHECK(end_of(n, "inOF_L3L2", "consumer 0").depth == 6);
    for (const char* f : {"OF_3to3", "OF_4to4", "OF_5to5a", "OF_5to5b"}) {
        INFO(f);
        CHECK(end_of(n, f, "producer").tile == end_of(n, f, "consumer 0").tile);
        CHECK(end_of(n, f, "producer").declared == 1);
    }
}

TEST_CASE("color_detect parameter rules", "[examples][color_detect]") {
    const auto& spec = design_by_name("color_detect");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"width", 96}}, vision_opts("npu1")),
                      "design 'color_detect': parameter width=96 must be a positive multiple of 64 (thresholdLine "
                      "and bitwiseORLine process 64 u8 lanes a step)");
    CHECK_THROWS_WITH(run_design(spec, "npu1", {{"height", 0}}, vision_opts("npu1")),
                      "design 'color_detect': parameter height=0 must be positive");
}
