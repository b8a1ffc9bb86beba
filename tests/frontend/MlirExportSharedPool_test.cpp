// MLIR export of what mlir-aie's ml/mobilenet bottlenecks give IRON (3ca0193): a self-loop fifo
// with disable_synchronization and a delegate tile (bottleneck/regular.py l.472-486), and a kernel
// argument that is a slice of a weights Buffer taken with aie.extras' memref.view
// (`memref_view(wts.op, [n], shift=k)`, regular.py l.511-516).
#include "support/FileCheck.hpp"

#include "npusim/frontend/MlirExport.hpp"
#include "npusim/iron.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

using namespace npusim;
using namespace npusim::iron;
using Catch::Matchers::Contains;
using npusim::test::file_check;

namespace {

void pool_view_kernel(const std::int8_t*, const std::int8_t*, std::int8_t*) {}

const TensorType kPoolRow = tensor<std::int8_t>({16});
const TensorType kPoolWts = tensor<std::int8_t>({64});
const TensorType kPoolWtsPart = tensor<std::int8_t>({16});
const TensorType kPoolWts2D = tensor<std::int8_t>({8, 8});
const std::string kPoolWtsName = "wts";

// Worker 'w' on (1,2): in -> loop (self-loop, depth 2, `loop_opts`) -> out, calling `k` on an
// element, the 16 weights at byte `shift` of Buffer 'wts' (of `wts_type`) and an element.
Program pool_export_design(FifoOptions loop_opts, std::int64_t shift, const TensorType& wts_type = kPoolWts) {
    ObjectFifo in(kPoolRow, "in"), out(kPoolRow, "out"), loop(kPoolRow, "loop", 2, std::move(loop_opts));
    Buffer wts(wts_type, kPoolWtsName, std::vector<std::uint8_t>(64, 1));
    Kernel k("k", &pool_view_kernel, {kPoolRow, kPoolRow, kPoolRow});
    Worker w(
        [shift](ObjectFifoHandle i, ObjectFifoHandle o, ObjectFifoHandle lp, ObjectFifoHandle lc, Buffer b,
                Kernel kern) {
            const Element part(b.view().data() + shift, &kPoolWtsPart, &kPoolWtsName);
            auto x = i.acquire(1);
            auto y = lp.acquire(1);
            kern(x, part, y);
            lp.release(1);
            i.release(1);
            auto z = lc.acquire(1);
            auto r = o.acquire(1);
            kern(z, part, r);
            o.release(1);
            lc.release(1);
        },
        fn_args(in.cons(), out.prod(), loop.prod(), loop.cons(), wts, k), {.tile = Tile(1, 2), .name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(kPoolRow, kPoolRow, in.prod(), out.cons()));
    return Program("npu1", rt, {w}, "pool");
}

} // namespace

// ObjectFifo.resolve: `disable_synchronization=... or None` on the create op, then op.allocate(tile)
// right after it; program.py resolve_program declares the delegate tile after the fifo's ends. The
// attribute and the op as test/objectFifo-stateful-transform/debug_features/*.mlir and
// test/python/objFifo.py print them.
TEST_CASE("export: disable_synchronization and aie.objectfifo.allocate", "[export]") {
    const std::string m =
        export_mlir(pool_export_design({.disable_synchronization = true, .delegate_tile = Tile(0, 2)}, 0));
    CHECK(file_check(m, {"CHECK: %[[W:.+]] = aie.logical_tile<CoreTile>(1, 2)",
                         "CHECK: %[[D:.+]] = aie.logical_tile<CoreTile>(0, 2)",
                         "CHECK: aie.objectfifo @loop(%[[W]], {%[[W]]}, 2 : i32) {disable_synchronization = true} : "
                         "!aie.objectfifo<memref<16xi8>>",
                         "CHECK-NEXT: aie.objectfifo.allocate @loop(%[[D]])", "CHECK-NEXT: aie.objectfifo @out("}) ==
          "");
    const std::string g = export_mlir(
        pool_export_design({.disable_synchronization = true, .delegate_tile = Tile(0, 2)}, 0), {.generic = true});
    CHECK(file_check(g, {"CHECK: disable_synchronization = true", "CHECK: \"aie.objectfifo.allocate\"(%{{.+}}) "
                                                                  "{objFifo_name = @loop} : (index) -> ()"}) == "");
    // Neither option: neither the attribute nor the op.
    const std::string plain = export_mlir(pool_export_design({}, 0));
    CHECK(plain.find("disable_synchronization") == std::string::npos);
    CHECK(plain.find("aie.objectfifo.allocate") == std::string::npos);
}

// mlir-python-extras' memref.view: arith.constant <byte shift> : index, then memref.view of the
// 1-D i8 source to the slice's memref; one view serves both calls in its scope.
TEST_CASE("export: a kernel argument that is part of a Buffer is a memref.view", "[export]") {
    const std::string m = export_mlir(pool_export_design({}, 32));
    CHECK(
        file_check(m, {"CHECK: %[[C:.+]] = arith.constant 32 : index",
                       "CHECK-NEXT: %[[V:view.*]] = memref.view %wts[%[[C]]][] : memref<64xi8> to memref<16xi8>",
                       "CHECK: func.call @k(%{{.+}}, %[[V]], %{{.+}}) : (memref<16xi8>, memref<16xi8>, memref<16xi8>)",
                       "CHECK: func.call @k(%{{.+}}, %[[V]], %{{.+}})"}) == "");
    CHECK(m.find("memref.view", m.find("memref.view") + 1) == std::string::npos);
    const std::string g = export_mlir(pool_export_design({}, 32), {.generic = true});
    CHECK(g.find("= \"memref.view\"(%wts, %c32) : (memref<64xi8>, index) -> memref<16xi8>") != std::string::npos);
    // memref.view takes a 1-D i8 source (MemRefOps.td ViewOp).
    CHECK_THROWS_WITH(export_mlir(pool_export_design({}, 16, kPoolWts2D)),
                      Contains("kernel 'k' argument 1 is part of 'wts' (i8[8,8], at byte 16): the op that gives such "
                               "a view, memref.view, takes a 1-D i8 source"));
}
