// MLIR export (frontend/src/export): channel pins, the generic form, scratchpad parameters and element
// copies, against mlir-aie's IRON lit tests (test/python/*.py @ 3ca0193c) and its dialect definitions.
#include "support/ExportDesigns.hpp"
#include "support/FileCheck.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::file_check;
using npusim::test::lines_of;
using npusim::test::barrier_design;
using npusim::test::buffer_design;
using npusim::test::task_group_design;

namespace {

// test/python/objFifo_iron_dma_channel_pin.py: a producer worker and `n_cons` consumer workers on
// one fifo, its ends pinned as given (std::nullopt: first-free assignment).
Program channel_pin_design(const std::string& name, std::optional<int> prod_channel,
                           const std::vector<std::optional<int>>& cons_channels) {
    const auto ty = tensor<std::int32_t>({16});
    ObjectFifo of(ty, name);
    auto body = [](ObjectFifoHandle h) {
        range_(4, [&](std::int64_t) {
            h.acquire(1);
            h.release(1);
        });
    };
    std::vector<Worker> workers{Worker(body, fn_args(of.prod({.channel = prod_channel})), {.tile = Tile(0, 2)})};
    for (std::size_t i = 0; i < cons_channels.size(); ++i)
        workers.emplace_back(body, fn_args(of.cons({.channel = cons_channels[i]})),
                             WorkerOptions{.tile = Tile(0, 3 + static_cast<int>(i))});
    Runtime rt([] {}, fn_args());
    return Program("npu1_1col", rt, workers);
}

} // namespace

TEST_CASE("export: objFifo_iron_dma_channel_pin.py prints channel pins as prod_dma_channel and cons_dma_channels",
          "[export]") {
    // ObjectFifo.resolve (python/iron/dataflow/objectfifo.py) stamps the pins onto the create op;
    // the test's CHECK-DAG lines, verbatim.
    CHECK(file_check(export_mlir(channel_pin_design("of_pin", 1, {1})),
                     {"CHECK-DAG: aie.objectfifo @of_pin({{.*}}) {cons_dma_channels = array<i32: 1>, "
                      "prod_dma_channel = 1 : i32} : !aie.objectfifo<memref<16xi32>>"}) == "");
    // An unpinned consumer next to a pinned one is -1; an unpinned producer prints no attribute. (The
    // lit test pins channel 2, which only resolve_program accepts: a compute tile has S2MM channels 0
    // and 1, and the export resolves first, as the stateful transform would refuse it
    // (test/objectFifo-stateful-transform/dma_channel_pinning/bad_channel_out_of_range.mlir).)
    const std::string partial = export_mlir(channel_pin_design("of_partial", std::nullopt, {std::nullopt, 1}));
    CHECK(file_check(partial, {"CHECK-DAG: aie.objectfifo @of_partial({{.*}}) {cons_dma_channels = array<i32: -1, "
                               "1>} : !aie.objectfifo<memref<16xi32>>"}) == "");
    CHECK_THROWS_WITH(export_mlir(channel_pin_design("of_partial", std::nullopt, {std::nullopt, 2})),
                      Catch::Contains("pinned S2MM DMA channel 2 is out of range"));
    CHECK(partial.find("prod_dma_channel") == std::string::npos);
    // Nothing pinned: neither attribute.
    const std::string none = export_mlir(channel_pin_design("of_free", std::nullopt, {std::nullopt}));
    CHECK(none.find("dma_channel") == std::string::npos);
    // Port::dma(n) is the same pin.
    const std::string ported = export_mlir(test::passthrough({.type = tensor<std::int32_t>({16}),
                                                              .body =
                                                                  [](ObjectFifoHandle i, ObjectFifoHandle o) {
                                                                      i.acquire(1);
                                                                      o.acquire(1);
                                                                      i.release(1);
                                                                      o.release(1);
                                                                  },
                                                              .in_cons = {.port = Port::dma(1)},
                                                              .out_prod = {.port = Port::dma(0)},
                                                              .host_elements = 16,
                                                              .program = "ported"}));
    CHECK(file_check(ported, {"CHECK-DAG: aie.objectfifo @in({{.*}}) {cons_dma_channels = array<i32: 1>} : "
                              "!aie.objectfifo<memref<16xi32>>",
                              "CHECK-DAG: aie.objectfifo @out({{.*}}) {prod_dma_channel = 0 : i32} : "
                              "!aie.objectfifo<memref<16xi32>>"}) == "");
}

TEST_CASE("export: the generic form spells each op with its ODS attribute names and explicit terminators",
          "[export][generic]") {
    ExportOptions o;
    o.generic = true;
    const std::string m = export_mlir(channel_pin_design("of_pin", 1, {1}), o);
    // builtin.module and aie.device (AIEDevice npu1_1col = 5, AIEAttrs.td), the device's implicit
    // aie.end (SingleBlockImplicitTerminator<"EndOp">) printed; logical tiles (AIETileType CoreTile =
    // 0); ObjectFifoCreateOp's arguments by name, sorted as MLIR sorts a dictionary; scf.for with
    // its block argument and the scf.yield its pretty form elides; acquire/release with
    // ObjectFifoPort Produce = 0, Consume = 1; aie.core's result.
    CHECK(
        file_check(
            m,
            {"CHECK: \"builtin.module\"() ({",
             "CHECK-NEXT: \"aie.device\"() ({",
             "CHECK-NEXT: %[[P:.*]] = \"aie.logical_tile\"() {col = 0 : i32, row = 2 : i32, tile_type = 0 : i32} "
             ": () -> index",
             "CHECK-NEXT: %[[C:.*]] = \"aie.logical_tile\"() {col = 0 : i32, row = 3 : i32, tile_type = 0 : i32} "
             ": () -> index",
             "CHECK-NEXT: \"aie.objectfifo\"(%[[P]], %[[C]]) {cons_dma_channels = array<i32: 1>, "
             "dimensionsFromStreamPerConsumer = #aie<bd_dim_layout_array_array{{\\[\\[\\]\\]}}>, dimensionsToStream = "
             "#aie<bd_dim_layout_array[]>, elemNumber = 2 : i32, elemType = !aie.objectfifo<memref<16xi32>>, "
             "prod_dma_channel = 1 : i32, sym_name = \"of_pin\"} : (index, index) -> ()",
             "CHECK-NEXT: %{{.*}} = \"aie.core\"(%[[P]]) ({",
             "CHECK-NEXT: %[[LO:.*]] = \"arith.constant\"() {value = 0 : index} : () -> index",
             "CHECK-NEXT: %[[HI:.*]] = \"arith.constant\"() {value = 9223372036854775807 : index} : () -> index",
             "CHECK-NEXT: %[[ST:.*]] = \"arith.constant\"() {value = 1 : index} : () -> index",
             "CHECK-NEXT: \"scf.for\"(%[[LO]], %[[HI]], %[[ST]]) ({",
             "CHECK-NEXT: ^bb0(%arg0: index):",
             "CHECK: \"scf.for\"(",
             "CHECK-NEXT: ^bb0(%arg1: index):",
             "CHECK-NEXT: %{{.*}} = \"aie.objectfifo.acquire\"() {objFifo_name = @of_pin, port = 0 : i32, size = "
             "1 : i32} : () -> !aie.objectfifosubview<memref<16xi32>>",
             "CHECK-NEXT: %{{.*}} = \"aie.objectfifo.subview.access\"(%{{.*}}) {index = 0 : i32} : "
             "(!aie.objectfifosubview<memref<16xi32>>) -> memref<16xi32>",
             "CHECK-NEXT: \"aie.objectfifo.release\"() {objFifo_name = @of_pin, port = 0 : i32, size = 1 : i32} "
             ": () -> ()",
             "CHECK-NEXT: \"scf.yield\"() : () -> ()",
             "CHECK-NEXT: }) : (index, index, index) -> ()",
             "CHECK-NEXT: \"scf.yield\"() : () -> ()",
             "CHECK-NEXT: }) : (index, index, index) -> ()",
             "CHECK-NEXT: \"aie.end\"() : () -> ()",
             "CHECK-NEXT: }) : (index) -> index",
             "CHECK: \"aie.objectfifo.release\"() {objFifo_name = @of_pin, port = 1 : i32, size = 1 : i32}",
             "CHECK: \"aie.runtime_sequence\"() ({",
             "CHECK-NEXT: }) : () -> ()",
             "CHECK-NEXT: \"aie.end\"() : () -> ()",
             "CHECK-NEXT: }) {device = 5 : i32} : () -> ()",
             "CHECK-NEXT: }) : () -> ()"}) == "");
    // The pretty form of the same design is unchanged by the option.
    CHECK(export_mlir(channel_pin_design("of_pin", 1, {1})).starts_with("module {\n  aie.device(npu1_1col) {\n"));
}

TEST_CASE("export: the generic form of the runtime sequence, buffers, barriers and kernel declarations",
          "[export][generic]") {
    ExportOptions o;
    o.generic = true;
    o.link_with["passThroughLine"] = "passThrough.cc.o";
    const std::string b = export_mlir(barrier_design(), o);
    // LockAction Acquire = 0 / Release = 1; aiex.set_lock's I32Attr value; the sequence's block
    // arguments typed on its ^bb0 label.
    CHECK(file_check(b, {"CHECK: %[[LOCK:.*]] = \"aie.lock\"(%{{.*}}) : (index) -> index",
                         "CHECK: \"aie.use_lock\"(%[[LOCK]], %{{.*}}) {action = 0 : i32} : (index, i32) -> ()",
                         "CHECK: \"aie.use_lock\"(%[[LOCK]], %{{.*}}) {action = 1 : i32} : (index, i32) -> ()",
                         "CHECK: \"aie.runtime_sequence\"() ({", "CHECK-NEXT: ^bb0(%arg0: memref<16xi32>):",
                         "CHECK: \"aiex.set_lock\"(%[[LOCK]]) {value = 1 : i32} : (index) -> ()"}) == "");
    const std::string f = export_mlir(buffer_design(), o);
    // BufferOp's initial_value is an ElementsAttr of the buffer's type; a func.func declaration has
    // an empty body region, its signature is function_type, private is sym_visibility.
    CHECK(file_check(f, {"CHECK: %init_local_buf = \"aie.buffer\"(%{{.*}}) {initial_value = dense<0> : "
                         "memref<4096xui8>, sym_name = \"init_local_buf\"} : (index) -> memref<4096xui8>",
                         "CHECK: \"func.func\"() ({",
                         "CHECK-NEXT: }) {function_type = ({{.*}}) -> (), link_with = \"passThrough.cc.o\", "
                         "sym_name = \"passThroughLine\", sym_visibility = \"private\"} : () -> ()"}) == "");
    const std::string t = export_mlir(task_group_design(), o);
    // DMABDOp: its five operand groups (AttrSizedOperandSegments) and the static_* attributes;
    // dma_configure_task_for's alloc symbol and its index result.
    CHECK(file_check(t, {"CHECK: %[[T:.*]] = \"aiex.dma_configure_task_for\"() ({",
                         "CHECK-NEXT: \"aie.dma_bd\"(%arg{{.}}) {operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>, "
                         "static_len = {{[0-9]+}} : i32, static_offset = 0 : i32, static_sizes = array<i64: "
                         "{{.*}}>, static_strides = array<i64: {{.*}}>} : (memref<{{.*}}>) -> ()",
                         "CHECK-NEXT: \"aie.end\"() : () -> ()", "CHECK-NEXT: }) {alloc = @{{.*}}} : () -> index",
                         "CHECK-NEXT: \"aiex.dma_start_task\"(%[[T]]) : (index) -> ()"}) == "");
}

namespace {

void scale_by(const std::int32_t*, std::int32_t*, std::int16_t) {}

// A worker passing ScratchpadParameter `scale` (i32, narrowed to the kernel's i16) to a kernel; the
// sequence syncs the parameters and fills with offset_parameter `off` (declared by use only).
Program scratchpad_export_design() {
    const auto ty = tensor<std::int32_t>({8});
    ScratchpadParameter scale("scale", DType::i32), off("off", DType::i32);
    ObjectFifo in(ty, "in"), out(ty, "out");
    Kernel k("scale_by", &scale_by, {ty, ty, scalar<std::int16_t>()});
    Worker w(
        [](ObjectFifoHandle i, ObjectFifoHandle o, ScratchpadParameter p, Kernel kern) {
            const auto v = static_cast<std::int16_t>(p.read<std::int32_t>());
            auto a = i.acquire(1);
            auto b = o.acquire(1);
            kern(a, b, v);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), out.prod(), scale, k), {.name = "w"});
    Runtime rt(
        [off](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            sync_parameters();
            i.fill(a, {.tap = TensorAccessPattern({32}, 0, {1, 1, 1, 8}, {0, 0, 0, 1}), .offset_parameter = off});
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({32}), ty, in.prod(), out.cons()));
    return Program("npu2_1col", rt, {w}, "spad");
}

} // namespace

// python/iron/program.py resolve_program: fn_args parameters at module scope before aie.device,
// offset_parameter-only ones after it; scratchpad_parameter.py read() -> aiex.read_scratchpad_parameter;
// runtime.py sync_parameters() -> aiex.sync_scratchpad_parameters_from_host; dmatask.py
// offset_parameter= -> the dma_bd's offset_parameter attribute. Forms as mlir-aie's
// test/npu-xrt/scratchpad_params/aie.mlir and scratchpad_addr_offset/aie.mlir write them; generic
// attribute names from AIEX.td (ScratchpadParameterOp sym_name/type, ReadScratchpadParameterOp
// parameter) and AIEOps.td (DMABDOp offset_parameter).
TEST_CASE("export: ScratchpadParameter declarations, reads, the sync and offset_parameter", "[export][scratchpad]") {
    const std::string m = export_mlir(scratchpad_export_design());
    const auto l = lines_of(m);
    REQUIRE(l.size() > 3);
    CHECK(l[0] == "module {");
    CHECK(l[1] == "  aiex.scratchpad_parameter @scale : i32");
    CHECK(l[2] == "  aie.device(npu2_1col) {");
    CHECK(l[l.size() - 2] == "  aiex.scratchpad_parameter @off : i32");
    CHECK(file_check(m, {"CHECK: %[[V:.+]] = aiex.read_scratchpad_parameter @scale : i32",
                         "CHECK: %[[N:.+]] = arith.trunci %[[V]] : i32 to i16",
                         "CHECK: func.call @scale_by(%{{.*}}, %{{.*}}, %[[N]]) : (memref<8xi32>, memref<8xi32>, i16)",
                         "CHECK: aie.runtime_sequence(", "CHECK-NEXT: aiex.sync_scratchpad_parameters_from_host",
                         "CHECK: aie.dma_bd(%arg0 : memref<32xi32> offset = 0 len = 8 sizes = [1, 1, 1, 8] strides = "
                         "[0, 0, 0, 1]) {offset_parameter = @off}"}) == "");
    const std::string g = export_mlir(scratchpad_export_design(), {.generic = true});
    CHECK(g.find("\"aiex.scratchpad_parameter\"() {sym_name = \"scale\", type = i32} : () -> ()") !=
          std::string::npos);
    CHECK(g.find("= \"aiex.read_scratchpad_parameter\"() {parameter = @scale} : () -> i32") != std::string::npos);
    CHECK(g.find("\"aiex.sync_scratchpad_parameters_from_host\"() : () -> ()") != std::string::npos);
    CHECK(g.find("offset_parameter = @off") != std::string::npos);
}

// The body copies elements (out_elem[i] = in_elem[i], as scratchpad_addr_offset/aie_design.py):
// memref.load then memref.store of the loaded value. Under fills where both slots held the same
// value the copy changed nothing, and an earlier export dropped the stores.
TEST_CASE("export: an element copied in the body is memref.load then memref.store of the load", "[export]") {
    const auto ty = tensor<std::int32_t>({8});
    auto design = [&](bool add_one) {
        return test::passthrough({.type = ty,
                                  .body =
                                      [add_one](ObjectFifoHandle i, ObjectFifoHandle o) {
                                          auto a = i.acquire(1);
                                          auto b = o.acquire(1);
                                          for (std::int64_t n = 0; n < 2; ++n)
                                              b.at<std::int32_t>(n) = a.at<std::int32_t>(n) + (add_one ? 1 : 0);
                                          i.release(1);
                                          o.release(1);
                                      },
                                  .host_elements = ty.elements(),
                                  .program = "t",
                                  .worker = {.name = "copy"}});
    };
    const std::string m = export_mlir(design(false));
    CHECK(file_check(m, {"CHECK: %[[IN:.+]] = aie.objectfifo.subview.access %{{.*}}[0] : "
                         "!aie.objectfifosubview<memref<8xi32>> -> memref<8xi32>",
                         "CHECK: %[[OUT:.+]] = aie.objectfifo.subview.access",
                         "CHECK-NEXT: %[[I0:.+]] = arith.constant 0 : index",
                         "CHECK-NEXT: %[[V0:.+]] = memref.load %[[IN]][%[[I0]]] : memref<8xi32>",
                         "CHECK-NEXT: %[[J0:.+]] = arith.constant 0 : index",
                         "CHECK-NEXT: memref.store %[[V0]], %[[OUT]][%[[J0]]] : memref<8xi32>",
                         "CHECK-NEXT: %[[I1:.+]] = arith.constant 1 : index",
                         "CHECK-NEXT: %[[V1:.+]] = memref.load %[[IN]][%[[I1]]] : memref<8xi32>",
                         "CHECK-NEXT: %[[J1:.+]] = arith.constant 1 : index",
                         "CHECK-NEXT: memref.store %[[V1]], %[[OUT]][%[[J1]]] : memref<8xi32>",
                         "CHECK-NEXT: aie.objectfifo.release @in(Consume, 1)"}) == "");
    // in[n] + 1 (refused before element arithmetic was exported): IRON's `x + 1` makes the integer an
    // arith.constant of x's type, then arith.addi, then the store's index constant and memref.store.
    CHECK(file_check(export_mlir(design(true)),
                     {"CHECK: %[[IN:.+]] = aie.objectfifo.subview.access",
                      "CHECK: %[[OUT:.+]] = aie.objectfifo.subview.access",
                      "CHECK-NEXT: %[[I0:.+]] = arith.constant 0 : index",
                      "CHECK-NEXT: %[[V0:.+]] = memref.load %[[IN]][%[[I0]]] : memref<8xi32>",
                      "CHECK-NEXT: %[[C1:.+]] = arith.constant 1 : i32",
                      "CHECK-NEXT: %[[S0:.+]] = arith.addi %[[V0]], %[[C1]] : i32",
                      "CHECK-NEXT: %[[J0:.+]] = arith.constant 0 : index",
                      "CHECK-NEXT: memref.store %[[S0]], %[[OUT]][%[[J0]]] : memref<8xi32>"}) == "");
}
