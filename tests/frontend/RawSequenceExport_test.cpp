// The register-level sequence ops in the MLIR export (frontend/src/export/SequenceExporter.cpp), in
// IRON's forms (AIEX.td at 3ca0193: npu.write32 L807-820, npu.maskwrite32 L913-925, npu.sync L977-990,
// npu.address_patch L1006-1020, npu.push_queue L779-795, npu.writebd L1196-1235): constant operands
// from arith.constant, attributes as the ops define them.
#include "npusim/iron.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;

namespace {
Program raw_program() {
    const auto ty = tensor<std::int32_t>({64});
    ObjectFifo in(ty, "in"), out(ty, "out");
    Worker w(
        [](ObjectFifoHandle i, ObjectFifoHandle o) {
            i.acquire(1);
            o.acquire(1);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), out.prod()), {.name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            npu_write32(0x32000, 1, 0, 2);
            npu_maskwrite32(0x1D200, 0x100, 0x1F00, 0, 0);
            npu_blockwrite(0x1D0A0, {64, 0}, 0, 0);
            npu_writebd({.bd_id = 5, .buffer_length = 64, .column = 0, .row = 0});
            npu_address_patch(0x1D0A4, 0, 0);
            npu_push_queue(0, 0, 1, 0, true, 0, 5);
            npu_sync(0, 0, 1, 0, 1, 1);
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(ty, ty, in.prod(), out.cons()));
    return Program("npu1_1col", rt, {w}, "raw_export");
}
} // namespace

TEST_CASE("raw sequence ops export as IRON's aiex.npu ops", "[frontend][export][rawops]") {
    const auto text = export_mlir(raw_program());
    INFO(text);
    CHECK_THAT(text, Catch::Contains("aiex.npu.write32(%"));
    CHECK_THAT(text, Catch::Contains(") {column = 0 : i32, row = 2 : i32} : i32, i32"));
    CHECK_THAT(text, Catch::Contains("aiex.npu.maskwrite32(%"));
    CHECK_THAT(text, Catch::Contains("aiex.npu.writebd {bd_id = 5 : i32, buffer_length = 64 : i32, buffer_offset = 0 "
                                     ": i32, burst_length = 0 : i32, column = 0 : i32"));
    CHECK_THAT(text, Catch::Contains(" : i32) {addr = 118948 : ui32, arg_idx = 0 : i32}"));
    CHECK_THAT(text, Catch::Contains("aiex.npu.push_queue(0, 0, MM2S : 0) bd_id %"));
    CHECK_THAT(text, Catch::Contains("{issue_token = true} : i32, i32"));
    CHECK_THAT(text, Catch::Contains("aiex.npu.sync(%"));
    CHECK_THAT(text, Catch::Contains(" : i32, i32, i32, i32, i32, i32"));
    const auto generic = export_mlir(raw_program(), {.generic = true});
    INFO(generic);
    CHECK_THAT(generic, Catch::Contains("\"aiex.npu.push_queue\"("));
    CHECK_THAT(generic, Catch::Contains("direction = 1 : i32"));
    CHECK_THAT(generic, Catch::Contains("\"aiex.npu.address_patch\"("));
    CHECK_THAT(generic, Catch::Contains("addr = 118948 : ui32")); // DMA_BD5_1 of (0,0): 0x1D0A4
}
