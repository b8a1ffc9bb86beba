// The register address map per generation (model/RegisterMap.hpp) against the toolchain's target
// model and register database (mlir-aie at 3ca0193): lib/Dialect/AIE/IR/AIETargetModel.cpp
// getDmaBdAddress L825-847, getDmaControlAddress L856-878, getLocalLockAddress L1169-1188 (NPU2's
// model derives from AIE2's, include/aie/Dialect/AIE/IR/AIETargetModel.h L898), and the shim BD word
// layout of lib/Dialect/AIE/Util/aie_registers_aie2.json (DMA_BD0_0..7) that AIEDMATasksToNPU.cpp
// L649-671 writes.
#include "npusim/model/RegisterMap.hpp"

#include <catch2/catch.hpp>

using namespace npusim::model;

TEST_CASE("the register map places locks, BDs and task queues where the toolchain does", "[model][registers]") {
    for (const char* name : {"npu1", "npu2"}) {
        INFO(name);
        const auto& dev = device_by_name(name);
        const auto& m = RegisterMap::of(dev);
        CHECK(m.lock_value(TileKind::Compute, 1) == 0x1F010);
        CHECK(m.lock_value(TileKind::Mem, 0) == 0xC0000); // chaining_channels' "lock at 0xC0000"
        CHECK(m.lock_value(TileKind::Shim, 2) == 0x14020);
        CHECK(m.bd_word(TileKind::Shim, 1, 1) == 0x1D024); // chaining_channels' address patch of BD 1
        CHECK(m.bd_word(TileKind::Mem, 47, 7) == 0xA05FC);
        CHECK(m.dma_ctrl(TileKind::Shim, Direction::MM2S, 1) == 0x1D218);
        CHECK(m.task_queue(TileKind::Shim, Direction::S2MM, 0) == 0x1D204);
        CHECK(m.task_queue(TileKind::Mem, Direction::MM2S, 5) == 0xA065C);
        CHECK(m.dma_ctrl(TileKind::Compute, Direction::MM2S, 0) == 0x1DE10);

        auto r = m.decode(dev, TileKind::Mem, 0xC03F0);
        CHECK(r.kind == RegisterRef::Kind::LockValue);
        CHECK(r.index == 63);
        CHECK(r.name == "Lock63_value");
        r = m.decode(dev, TileKind::Shim, 0x1D01C);
        CHECK(r.kind == RegisterRef::Kind::BdWord);
        CHECK((r.index == 0 && r.word == 7));
        r = m.decode(dev, TileKind::Shim, 0x1D214);
        CHECK(r.kind == RegisterRef::Kind::TaskQueue);
        CHECK(r.name == "DMA_MM2S_0_Task_Queue");
        CHECK(m.decode(dev, TileKind::Compute, 0x32000).name == "Core_Control");
        CHECK(m.decode(dev, TileKind::Compute, 0x32000).kind == RegisterRef::Kind::Named);
        CHECK(m.decode(dev, TileKind::Compute, 0x1F100).kind == RegisterRef::Kind::Unknown); // lock 16: none
        CHECK(m.decode(dev, TileKind::Compute, 0x1F100).name == "offset 0x1f100");
    }
}

TEST_CASE("an array address splits into column, row and offset within the device only", "[model][registers]") {
    const auto& dev = device_by_name("npu1_1col");
    const auto t = RegisterMap::split(dev, RegisterMap::join({0, 2}, 0x1F000));
    REQUIRE(t);
    CHECK(t->tile == TileCoord{0, 2});
    CHECK(t->offset == 0x1F000);
    CHECK(RegisterMap::join({1, 0}, 0x1D004) == 0x0201D004u);
    CHECK_FALSE(RegisterMap::split(dev, RegisterMap::join({1, 0}, 0))); // one column only
    CHECK_FALSE(RegisterMap::split(dev, RegisterMap::join({0, 6}, 0))); // rows 0..5
}

TEST_CASE("shim BD fields survive their eight words", "[model][registers]") {
    ShimBdFields f;
    f.buffer_length = 1024;
    f.address_low = 0x40;
    f.enable_packet = 1;
    f.packet_id = 17;
    f.packet_type = 5;
    f.d0_wrap = 8;
    f.d0_step = 0;
    f.d1_wrap = 4;
    f.d1_step = 15;
    f.d2_step = 31;
    f.iteration_wrap = 3;
    f.iteration_step = 127;
    f.valid_bd = 1;
    f.lock_acq_enable = 1;
    f.lock_acq_value = -1; // acquire-greater-equal 1
    f.lock_acq_id = 3;
    f.lock_rel_value = 1;
    f.lock_rel_id = 4;
    std::uint32_t w[8];
    f.encode(w);
    // Word 7 as AIEDMATasksToNPU.cpp L664-671 packs it: valid [25], rel value [24:18], rel id
    // [16:13], acq enable [12], acq value [11:5], acq id [3:0].
    CHECK(w[7] == ((1u << 25) | (1u << 18) | (4u << 13) | (1u << 12) | (0x7Fu << 5) | 3u));
    CHECK(w[2] == ((1u << 30) | (17u << 19) | (5u << 16)));
    const auto g = ShimBdFields::decode(w);
    CHECK(g.buffer_length == 1024);
    CHECK(g.address_low == 0x40);
    CHECK((g.packet_id == 17 && g.packet_type == 5 && g.enable_packet == 1));
    CHECK((g.d0_wrap == 8 && g.d1_wrap == 4 && g.d1_step == 15 && g.d2_step == 31));
    CHECK((g.iteration_wrap == 3 && g.iteration_step == 127));
    CHECK((g.lock_acq_value == -1 && g.lock_acq_id == 3 && g.lock_rel_value == 1 && g.lock_rel_id == 4));
}
