// ArithInference (which arith op a store computed) and LoopIndex (a range_ index in element
// indices), the two pieces the exporter uses to write a body's element work as IRON's
// python/iron/buffer.py __getitem__/__setitem__ and the mlir bindings' ArithValue operators emit it.
#include "export/ArithInference.hpp"
#include "export/LoopIndex.hpp"

#include "npusim/kernels/bfloat16.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <stdexcept>

using namespace npusim;
using namespace npusim::iron::detail::mlir;

namespace {
bool has(const std::vector<StoreExpr>& v, StoreExpr e) { return std::find(v.begin(), v.end(), e) != v.end(); }
} // namespace

TEST_CASE("store_candidates: a copy first, then ops of two loads, then a load and a constant", "[export][arith]") {
    const std::vector<LoadedValue> loads{{3, 100}, {5, 7}};
    const auto copy = store_candidates(loads, DType::i32, 7);
    REQUIRE(!copy.empty());
    CHECK(copy.front() == StoreExpr{ArithOp::copy, 5, 0, 0});
    const auto sum = store_candidates(loads, DType::i32, 107);
    REQUIRE(!sum.empty());
    CHECK(sum.front() == StoreExpr{ArithOp::add, 3, 5, 0}); // body order: the first load on the left
    CHECK(has(store_candidates(loads, DType::i32, 93), StoreExpr{ArithOp::sub, 3, 5, 0}));
    CHECK(has(store_candidates(loads, DType::i32, 101), StoreExpr{ArithOp::add_const, 3, 0, 1}));
    // i8 wraps: 100 + 100 = 200 = -56.
    CHECK(has(store_candidates(loads, DType::i8, 200), StoreExpr{ArithOp::add, 3, 3, 0}));
    // Signed max: -1 (0xFFFFFFFF) against 7 is 7; unsigned (u32) it is 0xFFFFFFFF.
    CHECK(evaluate({ArithOp::max, 0, 1, 0}, DType::i32, 0xFFFFFFFFu, 7) == 7u);
    CHECK(evaluate({ArithOp::max, 0, 1, 0}, DType::u32, 0xFFFFFFFFu, 7) == 0xFFFFFFFFu);
}

TEST_CASE("store_candidates: bf16 ops round to nearest even, floats take no constant", "[export][arith]") {
    const auto three = bfloat16(3.0f).bits, four = bfloat16(4.0f).bits;
    const std::vector<LoadedValue> loads{{0, three}, {1, four}};
    const auto c = store_candidates(loads, DType::bf16, bfloat16(12.0f).bits);
    CHECK(has(c, StoreExpr{ArithOp::mul, 0, 1, 0}));
    CHECK(std::none_of(c.begin(), c.end(), [](const StoreExpr& e) { return e.op == ArithOp::add_const; }));
    CHECK(arith_op_name(ArithOp::mul, DType::bf16) == "arith.mulf");
    CHECK(arith_op_name(ArithOp::add_const, DType::i16) == "arith.addi");
    CHECK(arith_op_name(ArithOp::min, DType::u8) == "arith.minui");
}

namespace {
// A region with one memref index constant (value v) and an op using it.
Region access(ValueIds& ids, IndexConstants& k, int buf, std::int64_t v, int& id) {
    Region r;
    id = ids.next();
    r.ops.push_back(constant_op(id, v, "index"));
    k[id] = v;
    Op load;
    load.result = ids.next();
    load.text = {lit("memref.load "), ref(buf), lit("["), ref(id), lit("] : memref<64xi32>")};
    load.gen = generic("memref.load", {buf, id}, {}, "i32");
    r.ops.push_back(std::move(load));
    return r;
}
} // namespace

TEST_CASE("bind_loop_index: buf[i] uses the index, buf[2 * i + 1] computes it, i * i is refused",
          "[export][loop]") {
    auto refuse = [](const std::string& why) { throw std::runtime_error(why); };
    auto bind = [&](std::int64_t va, std::int64_t vb, std::int64_t vc) {
        ValueIds ids;
        IndexConstants k;
        const int buf = ids.next();
        int ia = 0, ib = 0, ic = 0;
        Region a = access(ids, k, buf, va, ia), b = access(ids, k, buf, vb, ib), c = access(ids, k, buf, vc, ic);
        const int iva = ids.next(), ivb = ids.next(), ivc = ids.next();
        a.args = {iva};
        b.args = {ivb};
        c.args = {ivc};
        const LoopTrace tc{&c, ivc, 3};
        bind_loop_index({&a, iva, 1}, {&b, ivb, 2}, &tc, k, ids, refuse);
        CHECK(region_signature(a) == region_signature(b));
        return region_signature(a);
    };
    // Index 1, 2, 3 at i = 1, 2, 3: the load takes the loop index itself, no constant.
    CHECK(bind(1, 2, 3) == "(v0 )\nv1=memref.load o0[v0] : memref<64xi32>\n");
    // 3, 5, 7: arith.muli by 2, then arith.addi of the offset 1.
    const std::string two = bind(3, 5, 7);
    CHECK(two == "(v0 )\nv1=arith.constant 2 : index\nv2=arith.muli v0, v1 : index\nv3=arith.constant 1 : index\n"
                 "v4=arith.addi v3, v2 : index\nv5=memref.load o0[v4] : memref<64xi32>\n");
    // 1, 4, 9 (i * i) fits no line through all three.
    CHECK_THROWS_WITH(bind(1, 4, 9), Catch::Contains("an element index is 1, 4 and 9 where the loop index is 1, 2 "
                                                     "and 3"));
}
