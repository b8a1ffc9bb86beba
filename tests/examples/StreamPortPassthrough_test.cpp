// stream_port_passthrough: a kernel puts every word of each line on the core's stream port
// (Port::stream(0), upstream aie_stream=(0, 0)); the host gets the input back byte for byte, with
// the reference kernel and with the AIE-API build (kernels_ref/aie/passThroughStream.cc, put_ms).
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("stream_port_passthrough gives back its input byte for byte with either kernel build",
          "[examples][stream_port]") {
    const auto& spec = design_by_name("stream_port_passthrough");
    for (const char* device : {"npu1_1col", "npu2"}) {
        std::vector<std::vector<std::uint8_t>> hosts;
        std::vector<std::uint64_t> cycles;
        for (const auto ks : {KernelSet::reference, KernelSet::aie}) {
            INFO(device << (ks == KernelSet::aie ? " aie" : " ref"));
            const auto& dev = model::device_by_name(device);
            const auto inst =
                spec.build(dev, spec.resolve_params({{"size", 2048}, {"tile", 256}}), BuildOptions(9, ks));
            const auto before = inst.host();
            REQUIRE(before.size() == 2);
            REQUIRE(before[0].size() == 2048 * 4);
            sim::SimOptions o;
            o.timing = model::TimingParams::for_arch(dev.arch);
            const auto r = sim::simulate(inst.program.resolve(), before, o);
            CHECK(r.host[1] == before[0]); // the independent reference: out is in
            REQUIRE(r.cores.size() == 1);
            CHECK(r.cores[0].iterations == 2048 / 256);
            // 2048 words leave the core port at one word per cycle at best.
            CHECK(r.cycles >= 2048);
            hosts.push_back(r.host[1]);
            cycles.push_back(r.cycles);
        }
        CHECK(hosts[0] == hosts[1]);
        CHECK(cycles[0] == cycles[1]); // the two builds put the same words at the same times
    }
    CHECK(run_design(spec, "npu2_1col", {}, 3, {}).all_match);
    CHECK_THROWS_WITH(run_design(spec, "npu2", {{"tile", 1000}}, 1, {}),
                      "design 'stream_port_passthrough': parameter size=4096 must be a positive multiple of tile=1000");
}
