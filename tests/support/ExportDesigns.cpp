#include "support/ExportDesigns.hpp"

#include "support/Passthrough.hpp"

#include <cstdint>

namespace npusim::test {

using namespace npusim::iron;

namespace {

void noop_line(const std::uint8_t*, std::uint8_t*, std::int32_t) {}
void noop_scale(const std::int16_t*, std::int16_t*, const std::int32_t*, std::int32_t) {}

} // namespace

// test/python/barrier.py: a WorkerRuntimeBarrier is an aie.lock on the worker's tile, waits and
// releases are aie.use_lock with an i32 constant, set() is aiex.set_lock (python/iron/worker.py
// WorkerRuntimeBarrier.wait_for_value / release_with_value / set).
Program barrier_design() {
    WorkerRuntimeBarrier barrier;
    Worker w(
        [](WorkerRuntimeBarrier b) {
            b.wait_for_value(1);
            b.release_with_value(1);
        },
        fn_args(barrier));
    Runtime rt([barrier](RuntimeData) { barrier.set(1); }, fn_args(tensor<std::int32_t>({16})));
    return Program("npu2_1col", rt, {w});
}

// test/python/buffer.py: local Buffers are aie.buffer with sym_name (one initialised), the kernel a
// func.func private with link_with, each int argument a fresh arith.constant.
Program buffer_design() {
    const auto line = tensor<std::uint8_t>({4096});
    ObjectFifo in(line, "in"), out(line, "out");
    Buffer buf1(line, "uninit_local_buf");
    Buffer buf2 = Buffer::splat<std::uint8_t>(line, "init_local_buf", 0);
    Kernel k("passThroughLine", &noop_line, {line, line, scalar<std::int32_t>()});
    Worker w(
        [k](ObjectFifoHandle i, ObjectFifoHandle o, Buffer b1, Buffer b2) {
            auto eo = o.acquire(1);
            auto ei = i.acquire(1);
            k(ei, b1.view(), 4096);
            k(b1.view(), b2.view(), 4096);
            k(b2.view(), eo, 4096);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), out.prod(), buf1, buf2));
    Runtime rt(
        [](RuntimeData a, RuntimeData b, RuntimeData, ObjectFifoHandle ih, ObjectFifoHandle oh) {
            ih.fill(a);
            oh.drain(b, {.wait = true});
        },
        fn_args(line, line, line, in.prod(), out.cons()));
    return Program("npu2_1col", rt, {w});
}

// test/python/runtimesequence.py task_group_drain_sequence: a TaskGroup closes with the awaits of
// its waited tasks, then frees of all of them (ActiveSequence.emit_transfer, #3387).
Program task_group_design() {
    const auto ty = tensor<std::int32_t>({1024});
    ObjectFifo of0(ty, "of0"), of1(ty, "of1"), iof2(ty, "iof2");
    Worker w([](ObjectFifoHandle, ObjectFifoHandle, ObjectFifoHandle) {}, fn_args(of0.cons(), of1.prod(), iof2.prod()));
    Runtime rt(
        [](RuntimeData a, RuntimeData b, RuntimeData c, ObjectFifoHandle in0, ObjectFifoHandle out1,
           ObjectFifoHandle out2) {
            TaskGroup tg;
            in0.fill(a, {.group = &tg});
            out1.drain(b, {.wait = true, .group = &tg});
            out2.drain(c, {.wait = true, .group = &tg});
            tg.finish();
        },
        fn_args(ty, ty, ty, of0.prod(), of1.cons(), iof2.cons()));
    return Program("npu2", rt, {w});
}

// test/python/placer_tests.py compute_one_in_two_links: each forward() gets its own MemTile, the
// link's fifos and aie.objectfifo.link print at the sort position of its first fifo.
Program forward_design() {
    const auto ty = tensor<std::int32_t>({1024});
    ObjectFifo of0(ty, "of0"), in1(ty, "in1"), in2(ty, "in2");
    ObjectFifo out1 = in1.cons().forward(AnyMemTile, ty, std::nullopt, "out1");
    ObjectFifo out2 = in2.cons().forward(AnyMemTile, ty, std::nullopt, "out_2");
    Worker w([](ObjectFifoHandle) {}, fn_args(of0.cons()));
    Runtime rt(
        [](RuntimeData a, RuntimeData b, RuntimeData c, RuntimeData d, RuntimeData e, ObjectFifoHandle h0,
           ObjectFifoHandle h1, ObjectFifoHandle h2, ObjectFifoHandle o1, ObjectFifoHandle o2) {
            h0.fill(a);
            h1.fill(b);
            h2.fill(c);
            o1.drain(d, {.wait = true});
            o2.drain(e, {.wait = true});
        },
        fn_args(ty, ty, ty, ty, ty, of0.prod(), in1.prod(), in2.prod(), out1.cons(), out2.cons()));
    return Program("npu2", rt, {w});
}

// iron-mlir-golden.md §1.10: the classic vector_scalar_mul, its inner loop written with range_.
Program vector_scalar_mul_design(bool use_range) {
    const auto tile_ty = tensor<std::int16_t>({1024}), tensor_ty = tensor<std::int16_t>({4096});
    const auto scalar_ty = tensor<std::int32_t>({1});
    ObjectFifo of_in(tile_ty, "in"), of_factor(scalar_ty, "infactor"), of_out(tile_ty, "out");
    Kernel scale("vector_scalar_mul_vector", &noop_scale, {tile_ty, tile_ty, scalar_ty, scalar<std::int32_t>()});
    Worker w(
        [use_range](ObjectFifoHandle i, ObjectFifoHandle f, ObjectFifoHandle o, Kernel k) {
            auto ef = f.acquire(1);
            auto step = [&](std::int64_t) {
                auto ei = i.acquire(1);
                auto eo = o.acquire(1);
                k(ei, eo, ef, 1024);
                i.release(1);
                o.release(1);
            };
            if (use_range)
                range_(4, step);
            else
                for (int n = 0; n < 4; ++n) step(n);
            f.release(1);
        },
        fn_args(of_in.cons(), of_factor.cons(), of_out.prod(), scale));
    Runtime rt(
        [](RuntimeData a, RuntimeData f, RuntimeData c, ObjectFifoHandle ih, ObjectFifoHandle fh, ObjectFifoHandle oh) {
            ih.fill(a);
            fh.fill(f);
            oh.drain(c, {.wait = true});
        },
        fn_args(tensor_ty, scalar_ty, tensor_ty, of_in.prod(), of_factor.prod(), of_out.cons()));
    return Program("npu1_1col", rt, {w});
}

// iron-mlir-golden.md §1.3 (R), test/python/buffer_resolution.py test 1 (its golden: MlirExport_test.cpp).
Program rtp_load_design() {
    Buffer rtp = Buffer(tensor<std::int32_t>({16}), "my_rtp").use_write_rtp();
    return test::passthrough({.buffers = {rtp},
                              .type = tensor<std::int32_t>({64}),
                              .body =
                                  [rtp](ObjectFifoHandle i, ObjectFifoHandle o) {
                                      [[maybe_unused]] const std::int32_t scale = rtp.at<std::int32_t>(0);
                                      i.acquire(1);
                                      o.acquire(1);
                                      i.release(1);
                                      o.release(1);
                                  },
                              .seq =
                                  [rtp](RuntimeData a, RuntimeData b, ObjectFifoHandle ih, ObjectFifoHandle oh) {
                                      rtp[0] = 7;
                                      rtp[1] = 3;
                                      ih.fill(a);
                                      oh.drain(b, {.wait = true});
                                  },
                              .host_elements = 64,
                              .worker = {}});
}

// iron-mlir-golden.md §1.8 (R), test/python/worker_buffer_sharing.py, unplaced.
Program shared_buffer_design() {
    const auto ty = tensor<std::int32_t>({64});
    ObjectFifo out(ty, "out");
    Buffer shared(ty, "shared_l1", {}, Tile(0, 2));
    Worker prod([](Buffer b) { b.at<std::int32_t>(0) = 1; }, fn_args(shared), {.tile = Tile(0, 2)});
    Worker cons(
        [](ObjectFifoHandle o, Buffer b) {
            o.acquire(1);
            [[maybe_unused]] const std::int32_t x = b.at<std::int32_t>(0);
            o.release(1);
        },
        fn_args(out.prod(), shared), {.tile = Tile(0, 3)});
    Runtime rt([](RuntimeData c, ObjectFifoHandle oh) { oh.drain(c, {.wait = true}); }, fn_args(ty, out.cons()));
    return Program("npu2_1col", rt, {prod, cons});
}

} // namespace npusim::test
