// Every structural error of resolve() and of the design API, with its exact message.
#include "npusim/iron.hpp"
#include "npusim/kernels/passthrough.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;

namespace {
using test::acquire_release;
using test::passthrough;

void copy_body(ObjectFifoHandle i, ObjectFifoHandle o) { acquire_release(i, o); }
} // namespace

TEST_CASE("a fifo too large for tile memory", "[frontend][errors]") {
    auto p =
        passthrough({.type = tensor<std::int32_t>({8192}), .body = copy_body, .program = "t"}); // 2 x 32 KiB per side
    CHECK_THROWS_WITH(p.resolve(),
                      "compute tile (0,2): Basic sequential allocation also failed. Out of data memory: needs 132096 "
                      "B (stack 1024 B, 'in' 2 x 32768 B, 'out' 2 x 32768 B) but the tile has 65536 B");
}

TEST_CASE("acquire(n) with n larger than the depth", "[frontend][errors]") {
    auto p = passthrough({.body =
                              [](ObjectFifoHandle i, ObjectFifoHandle o) {
                                  auto e = i.acquire(3);
                                  (void)o;
                                  (void)e;
                              },
                          .program = "t"});
    CHECK_THROWS_WITH(p.resolve(), "worker 'w': acquire(3) on fifo 'in' consumer 0 exceeds its depth 2");
}

TEST_CASE("release of more than held", "[frontend][errors]") {
    auto p = passthrough({.body =
                              [](ObjectFifoHandle i, ObjectFifoHandle o) {
                                  auto e = i.acquire(1);
                                  (void)e;
                                  (void)o;
                                  i.release(2);
                              },
                          .program = "t"});
    CHECK_THROWS_WITH(p.resolve(), "worker 'w': release(2) on fifo 'in' consumer 0 but only 1 element(s) are held");
}

TEST_CASE("a kernel called with wrong-size views", "[frontend][errors]") {
    Kernel k("passThroughLine", kernels::passThroughLine_u8,
             {tensor<std::uint8_t>({512}), tensor<std::uint8_t>({512}), scalar<std::int32_t>()});
    const auto p = passthrough({.type = tensor<std::uint8_t>({1024}),
                                .body =
                                    [k](ObjectFifoHandle i, ObjectFifoHandle o) {
                                        auto e = i.acquire(1);
                                        auto f = o.acquire(1);
                                        k(e, f, 512);
                                        i.release(1);
                                        o.release(1);
                                    },
                                .device = "npu1"});
    CHECK_THROWS_WITH(p.resolve(),
                      "worker 'w': kernel 'passThroughLine' argument 0: expects u8[512] (512 elements), got a view of "
                      "'in' with 1024 u8 elements");
}

TEST_CASE("kernel argument declarations must fit the native function", "[frontend][errors]") {
    CHECK_THROWS_WITH(Kernel("k", kernels::passThroughLine_u8, {tensor<std::uint8_t>({8}), tensor<std::uint8_t>({8})}),
                      "kernel 'k': the native function takes 3 arguments but 2 argument types are declared");
    CHECK_THROWS_WITH(
        Kernel("k", kernels::passThroughLine_u8,
               {tensor<std::int32_t>({8}), tensor<std::uint8_t>({8}), scalar<std::int32_t>()}),
        "kernel 'k': argument 0 is declared i32[8] (4 B elements) but the native pointer has 1 B elements");
}

TEST_CASE("a fill whose pattern does not fit the tensor", "[frontend][errors]") {
    const auto p =
        passthrough({.body = copy_body,
                     .seq =
                         [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                             i.fill(a, {.tap = TensorAccessPattern({1024}, 512, {1, 1, 2, 512}, {0, 0, 512, 1})});
                             o.drain(b, {.wait = true});
                         },
                     .device = "npu1"});
    CHECK_THROWS_WITH(
        p.resolve(),
        "fill of fifo 'in' with runtime argument 0 (i32[1024]): access pattern tap(offset=512, "
        "sizes=[1,1,2,512], strides=[0,0,512,1]) reaches elements 512..1535, outside the tensor's 1024 elements");
}

TEST_CASE("tap and raw sizes are mutually exclusive, fill needs the producer handle", "[frontend][errors]") {
    auto make = [](std::function<void(RuntimeData, ObjectFifoHandle, ObjectFifoHandle)> seq) {
        ObjectFifo in(tensor<std::int32_t>({256}), "in"), out(tensor<std::int32_t>({256}), "out");
        Worker w(copy_body, fn_args(in.cons(), out.prod()), {.name = "w"});
        Runtime rt(seq, fn_args(tensor<std::int32_t>({1024}), in.prod(), out.cons()));
        return Program("npu1", rt, {w});
    };
    CHECK_THROWS_WITH(make([](RuntimeData a, ObjectFifoHandle i, ObjectFifoHandle) {
                          i.fill(a, {.tap = TensorAccessPattern::linear({1024}),
                                     .sizes = std::vector<std::int64_t>{1024},
                                     .strides = std::vector<std::int64_t>{1}});
                      }).resolve(),
                      "fifo 'in': fill() takes either tap= or sizes=/strides=/offset=/transfer_len=, not both");
    CHECK_THROWS_WITH(make([](RuntimeData a, ObjectFifoHandle, ObjectFifoHandle o) { o.fill(a); }).resolve(),
                      "fifo 'out': fill() needs the producer handle (prod()), got a consumer handle");
}

TEST_CASE("too many DMA channels on a tile", "[frontend][errors]") {
    ObjectFifo a(tensor<std::int32_t>({16}), "a"), b(tensor<std::int32_t>({16}), "b"),
        c(tensor<std::int32_t>({16}), "c"), z(tensor<std::int32_t>({16}), "z");
    Worker w([](ObjectFifoHandle, ObjectFifoHandle, ObjectFifoHandle, ObjectFifoHandle) {},
             fn_args(a.cons(), b.cons(), c.cons(), z.prod()), {.name = "w"});
    const auto t = tensor<std::int32_t>({16});
    Runtime rt(
        [](RuntimeData x, ObjectFifoHandle ha, ObjectFifoHandle hb, ObjectFifoHandle hc, ObjectFifoHandle hz) {
            ha.fill(x);
            hb.fill(x);
            hc.fill(x);
            hz.drain(x, {.wait = true});
        },
        fn_args(t, a.prod(), b.prod(), c.prod(), z.cons()));
    // On one column the shim runs out of MM2S channels first (three fills, two channels) ...
    CHECK_THROWS_WITH(Program("npu1_1col", rt, {w}).resolve(),
                      "fifo 'c' producer: no shim tile of npu1_1col has a free MM2S DMA channel");
    // ... with four columns the shims have room and the worker's tile is the limit.
    CHECK_THROWS_WITH(
        Program("npu1", rt, {w}).resolve(),
        "compute tile (0,2): fifo 'c' (consumer 0) needs a S2MM DMA channel but all 2 are in use (by fifo 'a' "
        "(consumer 0), fifo 'b' (consumer 0))");
}

TEST_CASE("fifos without producer or consumer", "[frontend][errors]") {
    ObjectFifo in(tensor<std::int32_t>({16}), "in"), lonely(tensor<std::int32_t>({16}), "lonely");
    Worker w([](ObjectFifoHandle, ObjectFifoHandle) {}, fn_args(in.cons(), lonely.cons()), {.name = "w"});
    Runtime rt([](RuntimeData, ObjectFifoHandle) {}, fn_args(tensor<std::int32_t>({16}), in.prod()));
    CHECK_THROWS_WITH(Program("npu1", rt, {w}).resolve(),
                      "fifo 'lonely' has no producer: pass its prod() handle to a Worker or the Runtime");
}

TEST_CASE("design API misuse is reported at construction", "[frontend][errors]") {
    ObjectFifo f(tensor<std::int32_t>({16}), "f");
    auto c = f.cons();
    Worker w1([](ObjectFifoHandle) {}, fn_args(c), {.name = "one"});
    CHECK_THROWS_WITH(
        Worker([](ObjectFifoHandle) {}, fn_args(c), {.name = "two"}),
        "worker 'two': fifo 'f' consumer 0 handle is already used by worker 'one'; call cons() again for another "
        "consumer");
    CHECK_THROWS_WITH(Worker([] {}, {.tile = Tile(0, 1), .name = "m"}),
                      "worker 'm': tile Tile(0,1) is not a compute tile (rows 0 and 1 are shim and mem tiles)");
    CHECK_THROWS_WITH(ObjectFifo(tensor<std::int32_t>({16}), "d", 0), "fifo 'd': depth 0 must be >= 1");
    CHECK_THROWS_WITH(Worker([](ObjectFifo) {}, fn_args(f)),
                      "Worker: fifo 'f' was passed itself; pass a handle (prod() or cons())");
}

TEST_CASE("objects that move through DMA must be whole 32-bit words (DMABDOp::verify)", "[frontend][errors]") {
    auto p = passthrough({.type = tensor<std::uint8_t>({1022}), .body = copy_body, .program = "t"});
    CHECK_THROWS_WITH(p.resolve(), Catch::StartsWith("fifo 'in': object type u8[1022] is 1022 B, but it moves through "
                                                     "DMA: transfer length must be multiple of 4 (i.e., represent 4 "
                                                     "byte aligned address) (DMABDOp::verify)"));
}

TEST_CASE("more workers than compute tiles", "[frontend][errors]") {
    std::vector<Worker> ws;
    std::vector<ObjectFifo> fs;
    for (int i = 0; i < 5; ++i) fs.emplace_back(tensor<std::int32_t>({16}), "f" + std::to_string(i));
    for (int i = 0; i < 5; ++i)
        ws.emplace_back([](ObjectFifoHandle) {}, fn_args(fs[static_cast<std::size_t>(i)].cons()));
    Runtime rt(
        [](RuntimeData, ObjectFifoHandle, ObjectFifoHandle, ObjectFifoHandle, ObjectFifoHandle, ObjectFifoHandle) {},
        fn_args(tensor<std::int32_t>({16}), fs[0].prod(), fs[1].prod(), fs[2].prod(), fs[3].prod(), fs[4].prod()));
    CHECK_THROWS_WITH(Program("npu1_1col", rt, ws).resolve(),
                      "worker 'worker_4': no free compute tile left on npu1_1col (4 compute tiles, 5 workers)");
}

TEST_CASE("shim BD ids run out when tasks are never finished", "[frontend][errors]") {
    ObjectFifo in(tensor<std::int32_t>({16}), "in"), out(tensor<std::int32_t>({16}), "out");
    Worker w(copy_body, fn_args(in.cons(), out.prod()), {.name = "w"});
    Runtime rt(
        [](RuntimeData a, ObjectFifoHandle i, ObjectFifoHandle) {
            for (int k = 0; k < 17; ++k) i.fill(a, {.managed = false});
        },
        fn_args(tensor<std::int32_t>({16}), in.prod(), out.cons()));
    CHECK_THROWS_WITH(
        Program("npu1", rt, {w}).resolve(),
        "fill of fifo 'in' (tap(offset=0, sizes=[1,1,1,16], strides=[0,0,0,1])): shim tile (0,0) has no free BD "
        "id (all 16 are held by unfinished tasks; finish a TaskGroup or free tasks first)");
}

TEST_CASE("task groups: strict mixing, unfinished groups, awaits", "[frontend][errors]") {
    auto make = [](std::function<void(RuntimeData, ObjectFifoHandle, ObjectFifoHandle)> seq) {
        ObjectFifo in(tensor<std::int32_t>({16}), "in"), out(tensor<std::int32_t>({16}), "out");
        Worker w(copy_body, fn_args(in.cons(), out.prod()), {.name = "w"});
        Runtime rt(seq, fn_args(tensor<std::int32_t>({16}), in.prod(), out.cons()));
        return Program("npu1", rt, {w});
    };
    CHECK_THROWS_WITH(
        make([](RuntimeData a, ObjectFifoHandle i, ObjectFifoHandle o) {
            TaskGroup g;
            i.fill(a, {.group = &g});
            o.drain(a, {.wait = true});
            g.finish();
        }).resolve(),
        "runtime sequence mixes the implicit default task group with explicit TaskGroups (strict_task_groups); "
        "pass group= to every transfer or to none");
    CHECK_THROWS_WITH(make([](RuntimeData a, ObjectFifoHandle i, ObjectFifoHandle) {
                          TaskGroup g;
                          i.fill(a, {.group = &g});
                      }).resolve(),
                      "runtime sequence ended with TaskGroup 1 not finished; call finish()");
    CHECK_THROWS_WITH(make([](RuntimeData a, ObjectFifoHandle i, ObjectFifoHandle) {
                          i.fill(a, {.managed = false}).await_();
                      }).resolve(),
                      "fifo 'in': only a wait=true transfer can be awaited");
    CHECK_THROWS_WITH(TaskGroup(), "TaskGroup must be constructed inside the runtime sequence");
}

TEST_CASE("pinned tiles must exist and be free", "[frontend][errors]") {
    ObjectFifo in(tensor<std::int32_t>({16}), "in"), out(tensor<std::int32_t>({16}), "out");
    Worker w(copy_body, fn_args(in.cons(), out.prod()), {.tile = Tile(3, 2), .name = "w"});
    Runtime rt(
        [](RuntimeData a, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(a, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({16}), in.prod(), out.cons()));
    Program p("npu1_2col", rt, {w});
    CHECK_THROWS_WITH(p.resolve(),
                      "worker 'w': tile (3,2) is not a compute tile of npu1_2col (2 columns, compute rows 2-5)");
}

TEST_CASE("a runtime sequence that throws says where: the design and how far it was recorded", "[frontend][errors]") {
    const auto p = passthrough({.type = tensor<std::int32_t>({16}),
                                .body = acquire_release,
                                .seq =
                                    [](RuntimeData a, RuntimeData, ObjectFifoHandle i, ObjectFifoHandle) {
                                        i.fill(a);
                                        throw std::runtime_error("tile size out of range");
                                    },
                                .host_elements = 16,
                                .program = "thrower"});
    CHECK_THROWS_WITH(p.resolve(),
                      "design 'thrower': the runtime sequence threw while it was recorded (after 1 recorded "
                      "operation(s)): tile size out of range");
}
