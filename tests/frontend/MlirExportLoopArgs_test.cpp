// MLIR export: a range_ index passed to a kernel's integer parameter. IRON casts the index to the
// parameter's type (python/helpers/dialects/func.py `call`: an IndexType value for an IntegerType
// input becomes `arith.index_cast`), as upstream ml/mobilenet's bottleneck/cascade.py:113-116
// passes its loop variables `WeightIndex` and `oc` to the kernel.
#include "support/FileCheck.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <string>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::file_check;

namespace {

void noop_indexed(const std::int32_t*, std::int32_t*, std::int32_t) {}

// A passthrough whose body calls k(in, out, arg(i, j)) in range_(4) { range_(3) } (or, with
// `nested` false, in one range_(3) with arg(i, 0)).
Program loop_arg_design(const std::function<std::int64_t(std::int64_t, std::int64_t)>& arg, bool nested) {
    const auto ty = tensor<std::int32_t>({16});
    Kernel k("indexed", &noop_indexed, {ty, ty, scalar<std::int32_t>()});
    return test::passthrough({.type = ty,
                              .body =
                                  [arg, nested, k](ObjectFifoHandle i, ObjectFifoHandle o) {
                                      auto a = i.acquire(1);
                                      auto b = o.acquire(1);
                                      auto inner = [&](std::int64_t outer) {
                                          range_(3, [&](std::int64_t n) {
                                              k(a, b, static_cast<std::int32_t>(arg(n, outer)));
                                          });
                                      };
                                      if (nested)
                                          range_(4, inner);
                                      else
                                          inner(0);
                                      i.release(1);
                                      o.release(1);
                                  },
                              .host_elements = ty.elements(),
                              .program = "loop_arg",
                              .worker = {.name = "w"}});
}

} // namespace

TEST_CASE("export: a range_ index passed to a kernel's integer parameter is arith.index_cast of the index",
          "[export]") {
    // cascade.py:115-116: `for oc in range_(OC8): k(..., oc)`.
    const std::string m = export_mlir(loop_arg_design([](std::int64_t i, std::int64_t) { return i; }, false));
    INFO(m);
    CHECK(file_check(m, {"CHECK: scf.for %[[IV:.+]] = %{{.*}} to %c3 step %{{.*}} {",
                         "CHECK-NEXT: %[[CAST:.+]] = arith.index_cast %[[IV]] : index to i32",
                         "CHECK-NEXT: func.call @indexed(%{{.*}}, %{{.*}}, %[[CAST]]) : (memref<16xi32>, "
                         "memref<16xi32>, i32) -> ()"}) == "");
    // A constant argument stays an arith.constant of the parameter's type.
    const std::string c = export_mlir(loop_arg_design([](std::int64_t, std::int64_t) { return 7; }, false));
    CHECK(file_check(c, {"CHECK: scf.for {{.*}} to %c3", "CHECK-NEXT: %[[C:.+]] = arith.constant 7 : i32",
                         "CHECK-NEXT: func.call @indexed(%{{.*}}, %{{.*}}, %[[C]])"}) == "");
    CHECK(c.find("index_cast") == std::string::npos);
}

TEST_CASE("export: a kernel argument coef * i + offset over two loops is the index arithmetic, then the cast",
          "[export]") {
    // 3 * j + i: the inner loop binds i (offset 3 * j), the outer one binds the offset to j.
    const std::string m =
        export_mlir(loop_arg_design([](std::int64_t i, std::int64_t j) { return 3 * j + i; }, true));
    INFO(m);
    CHECK(file_check(m, {"CHECK: scf.for %[[J:.+]] = %{{.*}} to %c4 step %{{.*}} {",
                         "CHECK: scf.for %[[I:.+]] = %{{.*}} to %c3 step %{{.*}} {",
                         "CHECK: %[[SUM:.+]] = arith.addi %{{.*}}, %[[I]] : index",
                         "CHECK-NEXT: %[[CAST:.+]] = arith.index_cast %[[SUM]] : index to i32",
                         "CHECK-NEXT: func.call @indexed(%{{.*}}, %{{.*}}, %[[CAST]])"}) == "");
    CHECK(file_check(m, {"CHECK: arith.muli %[[J:.+]], %{{.*}} : index"}) == "");
}

TEST_CASE("export: a kernel argument that is no line in the loop index is refused naming the values", "[export]") {
    CHECK_THROWS_WITH(
        export_mlir(loop_arg_design([](std::int64_t i, std::int64_t) { return i * i; }, false)),
        "worker 'w': cannot export its body: range_(0, 3, 1): a kernel's integer argument is 1, 4 and 0 where the "
        "loop index is 1, 2 and 0 (only a value of the form coef * i + offset has ops in the export)");
}
