// packet_flow_merge: two tile MM2S streams merged onto the shim's S2MM 0 by PacketFlows; its
// output is the inputs' tiles interleaved (computed here, not by the design's reference), with
// each packet's header word in front when keep_header=1.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("packet_flow_merge interleaves the two inputs' tiles byte for byte", "[examples][packet]") {
    for (const int keep : {0, 1}) {
        INFO("keep_header " << keep);
        const auto& spec = design_by_name("packet_flow_merge");
        const auto& dev = model::device_by_name("npu1_1col");
        const auto inst = spec.build(dev, spec.resolve_params({{"size", 512}, {"tile", 128}, {"keep_header", keep}}),
                                     BuildOptions(9));
        const auto host = inst.host();
        REQUIRE(host.size() == 3);
        std::vector<std::int32_t> a(512), b(512);
        std::memcpy(a.data(), host[0].data(), 2048);
        std::memcpy(b.data(), host[1].data(), 2048);
        // Headers: ids 3 and 7, type 0, source (0,2): 3 | 2 << 16 has 3 ones -> no parity bit;
        // 7 | 2 << 16 has 4 ones -> bit 31.
        const std::int32_t ha = 0x00020003, hb = static_cast<std::int32_t>(0x80020007u);
        std::vector<std::int32_t> expect;
        for (int t = 0; t < 4; ++t) {
            if (keep) expect.push_back(ha);
            expect.insert(expect.end(), a.begin() + t * 128, a.begin() + (t + 1) * 128);
            if (keep) expect.push_back(hb);
            expect.insert(expect.end(), b.begin() + t * 128, b.begin() + (t + 1) * 128);
        }
        const auto r = sim::simulate(inst.program.resolve(), host, {});
        std::vector<std::int32_t> c(r.host[2].size() / 4);
        std::memcpy(c.data(), r.host[2].data(), r.host[2].size());
        CHECK(c == expect);
    }
    CHECK(run_design(design_by_name("packet_flow_merge"), "npu2", {}, 3, {}).all_match);
}
