// E6's structure at a reduced size, simulated end to end: A and B re-tiled into r x s / s x t
// blocks on mem tiles, a worker accumulating C += A.B in the blocked layout, C un-tiled on the way
// out, shim taps with a repeat dimension. Golden: a plain int64 triple loop, truncated to int32.
#include "npusim/iron.hpp"
#include "npusim/kernels/matmul.hpp"
#include "npusim/kernels/zero.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <random>

using namespace npusim;
using namespace npusim::iron;

TEST_CASE("single-core matmul with mem-tile re-tiling matches an int64 reference", "[sim][matmul]") {
    const std::int64_t M = 64, K = 96, N = 64, m = 32, k = 32, n = 32, r = 4, s = 4, t = 4;
    ObjectFifo inA(tensor<std::int16_t>({m, k}), "inA"), inB(tensor<std::int16_t>({k, n}), "inB"),
        memC(tensor<std::int32_t>({m, n}), "memC");
    auto memA = inA.cons().forward({.name = "memA", .dims_to_stream = {{m / r, r * k}, {k / s, s}, {r, k}, {s, 1}}});
    auto memB = inB.cons().forward({.name = "memB", .dims_to_stream = {{k / s, s * n}, {n / t, t}, {s, n}, {t, 1}}});
    auto outC =
        memC.cons().forward({.name = "outC", .dims_to_stream = {{m / r, r * n}, {r, t}, {n / t, r * t}, {t, 1}}});
    Kernel mm(
        "matmul_i16_i32",
        +[](const std::int16_t* a, const std::int16_t* b, std::int32_t* c) {
            kernels::matmul_i16_i32(a, b, c, 32, 32, 32, 4, 4, 4);
        },
        {tensor<std::int16_t>({m, k}), tensor<std::int16_t>({k, n}), tensor<std::int32_t>({m, n})},
        [](std::span<const KernelArg>) {
            return kernels::matmul_cycles(32, 32, 32, kernels::mm_cc_loop(false, kernels::MmInput::i16, 4, 64));
        });
    Kernel zero("zero_i32", +[](std::int32_t* c) { kernels::zero_i32(c, 32, 32); }, {tensor<std::int32_t>({m, n})});
    const std::int64_t tiles = (M / m) * (N / n), ksteps = K / k;
    Worker w(
        [tiles, ksteps](ObjectFifoHandle a, ObjectFifoHandle b, ObjectFifoHandle c, Kernel kmm, Kernel kz) {
            for (std::int64_t i = 0; i < tiles; ++i) {
                auto ec = c.acquire(1);
                kz(ec);
                for (std::int64_t j = 0; j < ksteps; ++j) {
                    auto ea = a.acquire(1), eb = b.acquire(1);
                    kmm(ea, eb, ec);
                    a.release(1);
                    b.release(1);
                }
                c.release(1);
            }
        },
        fn_args(memA.cons(), memB.cons(), memC.prod(), mm, zero), {.stack_size = 0xD00, .name = "matmul"});
    Runtime rt(
        [=](RuntimeData A, RuntimeData B, RuntimeData C, ObjectFifoHandle ha, ObjectFifoHandle hb,
            ObjectFifoHandle hc) {
            for (std::int64_t i = 0; i < M / m; ++i) {
                TaskGroup g;
                // row block i of A, each k-tile, repeated for every column block of C (stride 0)
                ha.fill(A, {.tap = TensorAccessPattern({M, K}, i * m * K, {N / n, K / k, m, k}, {0, k, K, 1}),
                            .group = &g});
                // B in column-block-major order
                hb.fill(B,
                        {.tap = TensorAccessPattern({K, N}, 0, {N / n, K / k, k, n}, {n, k * N, N, 1}), .group = &g});
                hc.drain(C, {.tap = TensorAccessPattern({M, N}, i * m * N, {1, N / n, m, n}, {0, n, N, 1}),
                             .wait = true,
                             .group = &g});
                g.finish();
            }
        },
        fn_args(tensor<std::int16_t>({M, K}), tensor<std::int16_t>({K, N}), tensor<std::int32_t>({M, N}), inA.prod(),
                inB.prod(), outC.cons()));
    const auto net = Program("npu1_1col", rt, {w}, "matmul_small").resolve();

    std::mt19937 rng(1726250518u);
    std::vector<std::int16_t> A(static_cast<std::size_t>(M * K)), B(static_cast<std::size_t>(K * N));
    for (auto& x : A) x = static_cast<std::int16_t>(static_cast<int>(rng() % 16384) - 8192);
    for (auto& x : B) x = static_cast<std::int16_t>(static_cast<int>(rng() % 16384) - 8192);
    std::vector<std::uint8_t> ab(A.size() * 2), bb(B.size() * 2);
    std::memcpy(ab.data(), A.data(), ab.size());
    std::memcpy(bb.data(), B.data(), bb.size());
    const auto res = sim::simulate(net, {ab, bb, std::vector<std::uint8_t>(static_cast<std::size_t>(M * N * 4))}, {});
    std::vector<std::int32_t> C(static_cast<std::size_t>(M * N));
    std::memcpy(C.data(), res.host[2].data(), res.host[2].size());
    for (std::int64_t i = 0; i < M; ++i)
        for (std::int64_t j = 0; j < N; ++j) {
            std::int64_t acc = 0;
            for (std::int64_t q = 0; q < K; ++q)
                acc += static_cast<std::int64_t>(A[static_cast<std::size_t>(i * K + q)]) *
                       B[static_cast<std::size_t>(q * N + j)];
            REQUIRE(C[static_cast<std::size_t>(i * N + j)] == static_cast<std::int32_t>(acc));
        }
    REQUIRE(res.cores.size() == 1);
    // The body loops forever (while_true): after the last tile it starts the next pass, zeroes a
    // fresh C buffer and then waits for A, which never comes. So one extra zero call.
    CHECK(res.cores[0].kernel_calls == static_cast<std::uint64_t>(tiles * (ksteps + 1) + 1));
    CHECK(res.cores[0].iterations == 1);
}
