// The buffer objects of an NPU run, as mlir-aie's host programs allocate them
// (programming_examples/basic/passthrough_dmas/test.cpp): instructions at group_id(1), cacheable;
// runtime arguments in order at group_id(3 + i), host-only; inputs synced to the device, outputs
// back; the run kernel(3, bo_instr, words, bo_0, ...).
#include "npusim/hw/BufferPlan.hpp"
#include "npusim/model/Error.hpp"

#include <catch2/catch.hpp>

using npusim::hw::BufferPlan;
using npusim::hw::HostArg;
using Role = npusim::hw::HostArg::Role;

TEST_CASE("BufferPlan: instructions at group 1, arguments at 3+i in order with their sizes", "[hw][bo]") {
    const BufferPlan p("d", 18, {{"a", Role::input, 4096}, {"factor", Role::input, 4}, {"c", Role::output, 4096},
                                 {"acc", Role::inout, 64}, {"spare", Role::unused, 128}});
    const auto& b = p.bos();
    REQUIRE(b.size() == 6);
    CHECK(b[0].name == "instructions");
    CHECK(b[0].group_id == 1);
    CHECK(b[0].bytes == 72);
    CHECK(b[0].cacheable);
    CHECK(b[0].to_device);
    CHECK_FALSE(b[0].from_device);
    CHECK(b[0].arg == -1);
    const char* names[] = {"a", "factor", "c", "acc", "spare"};
    const std::uint64_t bytes[] = {4096, 4, 4096, 64, 128};
    for (int i = 0; i < 5; ++i) {
        INFO(names[i]);
        CHECK(b[i + 1].name == names[i]);
        CHECK(b[i + 1].group_id == 3 + i);
        CHECK(b[i + 1].bytes == bytes[i]);
        CHECK_FALSE(b[i + 1].cacheable);
        CHECK(b[i + 1].arg == i);
    }
    // inputs to the device, outputs from it, inouts both ways; an unused argument is still
    // allocated and synced (defined contents), never read back
    CHECK((b[1].to_device && !b[1].from_device));
    CHECK((!b[3].to_device && b[3].from_device));
    CHECK((b[4].to_device && b[4].from_device));
    CHECK((b[5].to_device && !b[5].from_device));
    CHECK(p.kernel_call() == "kernel(3, bo_instr, 18, bo_a, bo_factor, bo_c, bo_acc, bo_spare)");
    const std::string t = p.table();
    CHECK(t.find("         1  instructions            72  cacheable  to device\n") != std::string::npos);
    CHECK(t.find("         6  acc                     64  host_only  to and from device\n") != std::string::npos);
}

TEST_CASE("BufferPlan refuses an empty instruction stream and an empty argument", "[hw][bo]") {
    CHECK_THROWS_WITH(BufferPlan("d", 0, {}), Catch::Contains("design 'd': the instruction stream is empty"));
    CHECK_THROWS_AS(BufferPlan("d", 0, {}), npusim::DesignError);
    CHECK_THROWS_WITH(BufferPlan("d", 2, {{"a", Role::input, 8}, {"b", Role::output, 0}}),
                      "design 'd': runtime argument 1 ('b') has 0 bytes; XRT cannot allocate an empty buffer object");
}
