// The recorded-body interpreter (frontend/RecordedBody.hpp): recordings built as the Python tracer
// builds them, simulated; outputs checked against an independent computation, cycles against a
// native C++ body doing the same work.
#include "npusim/frontend/RecordedBody.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;
namespace rec = npusim::iron::recorded;
using rec::Operand;

namespace {

constexpr std::int64_t kSize = 256, kTile = 16;

std::vector<std::uint8_t> bytes_of(const std::vector<std::int32_t>& v) {
    std::vector<std::uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

/// out = (a + b) * 3 - (a >> 1), element by element, through a recorded body over three fifos;
/// `native` builds the same design with a C++ body charging the same cycles (5 ops per element:
/// two loads, add, mul... see below) instead.
sim::SimResult run_design(bool native, const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b) {
    const auto vec_ty = tensor<std::int32_t>({kSize}), tile_ty = tensor<std::int32_t>({kTile});
    ObjectFifo f0(tile_ty, "in0"), f1(tile_ty, "in1"), fo(tile_ty, "out");
    std::optional<Worker> w;
    if (native) {
        w.emplace(
            [](ObjectFifoHandle x, ObjectFifoHandle y, ObjectFifoHandle z) {
                for (std::int64_t t = 0; t < kSize / kTile; ++t) {
                    auto ex = x.acquire(1), ey = y.acquire(1), ez = z.acquire(1);
                    for (std::int64_t i = 0; i < kTile; ++i) {
                        const auto p = static_cast<std::uint32_t>(ex.at<std::int32_t>(i));
                        const auto q = static_cast<std::uint32_t>(ey.at<std::int32_t>(i));
                        ez.at<std::int32_t>(i) = static_cast<std::int32_t>((p + q) * 3u - static_cast<std::uint32_t>(
                                                                                              ex.at<std::int32_t>(i) >> 1));
                    }
                    // three loads and a store per element, each charged by Element::at; the
                    // arithmetic between them is not (it issues in the same bundle)
                    x.release(1);
                    y.release(1);
                    z.release(1);
                }
            },
            fn_args(f0.cons(), f1.cons(), fo.prod()), WorkerOptions{.name = "body"});
    } else {
        rec::Builder r("body");
        r.loop_begin(Operand::imm(0), Operand::imm(kSize / kTile), Operand::imm(1));
        const int ex = r.acquire(0, 1), ey = r.acquire(1, 1), ez = r.acquire(2, 1);
        const int i = r.loop_begin(Operand::imm(0), Operand::imm(kTile), Operand::imm(1));
        const int p = r.load(ex, Operand::r(i)), q = r.load(ey, Operand::r(i));
        const int s = r.binary(rec::BinOp::Add, Operand::r(p), Operand::r(q));
        const int m = r.binary(rec::BinOp::Mul, Operand::r(s), Operand::imm(3));
        const int p2 = r.load(ex, Operand::r(i));
        const int h = r.binary(rec::BinOp::Shr, Operand::r(p2), Operand::imm(1));
        const int d = r.binary(rec::BinOp::Sub, Operand::r(m), Operand::r(h));
        r.store(ez, Operand::r(i), Operand::r(d));
        r.loop_end();
        r.release(0, 1);
        r.release(1, 1);
        r.release(2, 1);
        r.loop_end();
        w.emplace(rec::make_worker(r.finish(), {.fifos = {f0.cons(), f1.cons(), fo.prod()}}, {.name = "body"}));
    }
    Runtime rt(
        [](RuntimeData x, RuntimeData y, RuntimeData z, ObjectFifoHandle h0, ObjectFifoHandle h1, ObjectFifoHandle ho) {
            h0.fill(x);
            h1.fill(y);
            ho.drain(z, {.wait = true});
        },
        fn_args(vec_ty, vec_ty, vec_ty, f0.prod(), f1.prod(), fo.cons()));
    const auto net = Program("npu2", rt, {*w}, "recorded").resolve();
    return sim::simulate(net, {bytes_of(a), bytes_of(b), std::vector<std::uint8_t>(kSize * 4)}, {});
}

} // namespace

TEST_CASE("a recorded body computes what numpy would and costs what its C++ twin costs", "[sim][recorded]") {
    std::vector<std::int32_t> a(kSize), b(kSize);
    for (std::int64_t k = 0; k < kSize; ++k) {
        a[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(k * 7919 - 1000000) * (k % 3 == 0 ? 1000 : 1);
        b[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(2147483000 - k * 13);
    }
    const auto r = run_design(false, a, b);
    std::vector<std::int32_t> out(kSize);
    std::memcpy(out.data(), r.host[2].data(), kSize * 4);
    for (std::size_t k = 0; k < out.size(); ++k) {
        // independent: 64-bit arithmetic, truncated to int32 (numpy's int32 wraparound)
        const std::int64_t want64 = (static_cast<std::int64_t>(a[k]) + b[k]) * 3 - (a[k] >> 1);
        REQUIRE(out[k] == static_cast<std::int32_t>(want64));
    }
    const auto twin = run_design(true, a, b);
    CHECK(twin.host[2] == r.host[2]);
    CHECK(twin.cycles == r.cycles);
    REQUIRE(r.cores.size() == 1);
    // three loads and one store per element (core_element_access_cycles each, 1 by default)
    CHECK(r.cores[0].body_cycles == 4 * kSize * model::TimingParams{}.core_element_access_cycles);
}

TEST_CASE("recorded bodies: kernel calls with element and scalar arguments, buffers, errors", "[sim][recorded]") {
    const auto ty = tensor<std::int32_t>({8});
    ObjectFifo fi(ty, "in"), fo(ty, "out");
    Kernel k(
        "scale_add", +[](const std::int32_t* in, std::int32_t* out, std::int32_t f, std::int32_t n) {
            for (std::int32_t i = 0; i < n; ++i) out[i] = in[i] * f + i;
        },
        {ty, ty, scalar<std::int32_t>(), scalar<std::int32_t>()}, cost::fixed(10));
    Buffer acc(ty, "acc");
    rec::Builder r("kern");
    const int e = r.acquire(0, 1), o = r.acquire(1, 1);
    const int buf = r.buffer_view(0);
    const int f = r.load(buf, Operand::imm(0));
    const int f1 = r.binary(rec::BinOp::Add, Operand::r(f), Operand::imm(2)); // 2 on the first pass, 3, ...
    r.store(buf, Operand::imm(0), Operand::r(f1));
    r.call(0, {{.is_element = true, .elem = e}, {.is_element = true, .elem = o},
               {.scalar = Operand::r(f1)}, {.scalar = Operand::imm(8)}});
    r.release(0, 1);
    r.release(1, 1);
    Worker w = rec::make_worker(r.finish(), {.fifos = {fi.cons(), fo.prod()}, .kernels = {k}, .buffers = {acc}},
                                {.name = "kern"});
    const auto vty = tensor<std::int32_t>({16});
    Runtime rt(
        [](RuntimeData x, RuntimeData z, ObjectFifoHandle hi, ObjectFifoHandle ho) {
            hi.fill(x);
            ho.drain(z, {.wait = true});
        },
        fn_args(vty, vty, fi.prod(), fo.cons()));
    const auto net = Program("npu2", rt, {w}, "kern").resolve();
    std::vector<std::int32_t> a(16);
    for (int i = 0; i < 16; ++i) a[static_cast<std::size_t>(i)] = i * 5 - 20;
    const auto res = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(64)}, {});
    std::vector<std::int32_t> out(16);
    std::memcpy(out.data(), res.host[1].data(), 64);
    for (int i = 0; i < 16; ++i) {
        const int factor = i < 8 ? 2 : 4;
        REQUIRE(out[static_cast<std::size_t>(i)] == a[static_cast<std::size_t>(i)] * factor + i % 8);
    }

    SECTION("an unclosed loop is refused by finish()") {
        rec::Builder bad("open");
        bad.loop_begin(Operand::imm(0), Operand::imm(2), Operand::imm(1));
        REQUIRE_THROWS_WITH(bad.finish(), "recorded body 'open': 1 loop(s) still open at the end of the body");
        REQUIRE_THROWS_WITH(rec::binop_from_name("pow"), "recorded body: unknown arithmetic operation 'pow'");
    }
}

TEST_CASE("recorded bodies: if_/else_ blocks run the branch their condition picks", "[sim][recorded]") {
    // y[i] = x[i] > 10 ? x[i] * 2 : -x[i]; then, without an else: y[0] = 99 if x[0] == 0
    const auto ty = tensor<std::int32_t>({16});
    ObjectFifo fi(ty, "in"), fo(ty, "out");
    rec::Builder r("branchy");
    const int e = r.acquire(0, 1), o = r.acquire(1, 1);
    const int i = r.loop_begin(Operand::imm(0), Operand::imm(16), Operand::imm(1));
    const int x = r.load(e, Operand::r(i));
    const int big = r.binary(rec::BinOp::Gt, Operand::r(x), Operand::imm(10));
    const int id = r.if_begin(Operand::r(big));
    const int twice = r.binary(rec::BinOp::Mul, Operand::r(x), Operand::imm(2));
    r.store(o, Operand::r(i), Operand::r(twice));
    r.if_end();
    r.else_begin(id);
    const int neg = r.binary(rec::BinOp::Sub, Operand::imm(0), Operand::r(x));
    r.store(o, Operand::r(i), Operand::r(neg));
    r.else_end();
    r.loop_end();
    const int x0 = r.load(e, Operand::imm(0));
    const int zero = r.binary(rec::BinOp::Eq, Operand::r(x0), Operand::imm(0));
    r.if_begin(Operand::r(zero));
    r.store(o, Operand::imm(0), Operand::imm(99));
    r.if_end();
    r.release(0, 1);
    r.release(1, 1);
    Worker w = rec::make_worker(r.finish(), {.fifos = {fi.cons(), fo.prod()}}, {.name = "branchy"});
    Runtime rt(
        [](RuntimeData a, RuntimeData z, ObjectFifoHandle hi, ObjectFifoHandle ho) {
            hi.fill(a);
            ho.drain(z, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({32}), tensor<std::int32_t>({32}), fi.prod(), fo.cons()));
    const auto net = Program("npu2", rt, {w}, "branchy").resolve();
    std::vector<std::int32_t> a(32);
    for (int k = 0; k < 32; ++k) a[static_cast<std::size_t>(k)] = (k * 7) % 23 - (k >= 16 ? 0 : 0);
    a[16] = 5; // the second object's first element is not zero: no 99 there
    const auto res = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(128)}, {});
    std::vector<std::int32_t> out(32);
    std::memcpy(out.data(), res.host[1].data(), 128);
    for (std::size_t k = 0; k < 32; ++k) {
        const std::int32_t want = k % 16 == 0 && a[k] == 0 ? 99 : (a[k] > 10 ? a[k] * 2 : -a[k]);
        REQUIRE(out[k] == want);
    }
    CHECK(out[0] == 99);
}

namespace {
/// Each 8-value object of `in` goes out with its halves swapped: the upper half read through a view
/// at byte `view_at` (16: values 4..7) of the acquired element, the lower through the element itself.
sim::SimResult run_swapped_halves(std::int64_t view_at, const std::vector<std::int32_t>& a) {
    const auto ty = tensor<std::int32_t>({8}), vty = tensor<std::int32_t>({16});
    ObjectFifo fi(ty, "in"), fo(ty, "out");
    rec::Builder r("halves");
    const int e = r.acquire(0, 1), o = r.acquire(1, 1);
    const int hi = r.element_view(e, view_at, tensor<std::int32_t>({4}));
    const int i = r.loop_begin(Operand::imm(0), Operand::imm(4), Operand::imm(1));
    r.store(o, Operand::r(i), Operand::r(r.load(hi, Operand::r(i))));
    const int j = r.binary(rec::BinOp::Add, Operand::r(i), Operand::imm(4));
    r.store(o, Operand::r(j), Operand::r(r.load(e, Operand::r(i))));
    r.loop_end();
    r.release(0, 1);
    r.release(1, 1);
    Worker w = rec::make_worker(r.finish(), {.fifos = {fi.cons(), fo.prod()}}, {.name = "halves"});
    Runtime rt(
        [](RuntimeData x, RuntimeData z, ObjectFifoHandle h_in, ObjectFifoHandle h_out) {
            h_in.fill(x);
            h_out.drain(z, {.wait = true});
        },
        fn_args(vty, vty, fi.prod(), fo.cons()));
    const auto net = Program("npu2", rt, {w}, "halves").resolve();
    return sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(64)}, {});
}
} // namespace

TEST_CASE("recorded bodies: a view into an element (memref.view) reads its part of the memory", "[sim][recorded]") {
    std::vector<std::int32_t> a(16);
    for (int k = 0; k < 16; ++k) a[static_cast<std::size_t>(k)] = 1000 * k - 7;
    const auto res = run_swapped_halves(16, a);
    std::vector<std::int32_t> out(16);
    std::memcpy(out.data(), res.host[1].data(), 64);
    for (std::size_t k = 0; k < 16; ++k) REQUIRE(out[k] == a[(k / 8) * 8 + (k % 8 + 4) % 8]);
    // a view that ends past its element is refused when the body runs, naming both
    REQUIRE_THROWS_WITH(run_swapped_halves(20, a),
                        Catch::Contains("a view of i32[4] at byte 20 of 'in' (i32[8]) ends past it"));
    rec::Builder bad("bad");
    REQUIRE_THROWS_WITH(bad.element_view(0, 0, tensor<std::int32_t>({4})),
                        "recorded body 'bad': element_view of element register 0, which the body has not made");
}
