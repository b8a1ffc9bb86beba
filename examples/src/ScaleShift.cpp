// E15 ml/scale_shift (mlir-aie programming_examples/ml/scale_shift/scale_shift.py @ 3ca0193c):
// D = A * B + C in bf16 in two passes over the same two workers, switched by a run-time parameter
// and synchronised with the runtime sequence by a WorkerRuntimeBarrier per worker.
//   inA, inB: bf16[2048] fifos split through a mem tile into memA0/1, memB0/1: bf16[1024] (L84-96)
//   outC: bf16[2048] joined from memC0/1 (L98-107)
//   rtp0/1: Buffer i32[1] = 1, use_write_rtp (L111-119); barrier0/1: WorkerRuntimeBarrier() (L120)
//   worker i: barrier.wait_for_value(1); is_mul = rtp[0]; tiles_per_core x { acquire memCi, memAi,
//     memBi; eltwise_mul_add(a, b, c, is_mul); release } ; barrier.release_with_value(1) (L122-134)
//   sequence: rtp = 1; barriers set(1); TaskGroup { fill A, fill B, drain D wait }; then rtp = 0;
//     barriers set(1); TaskGroup { fill D (phase 1's output) as A, fill C as B, drain D wait } (L152-175)
// The worker loops forever (IRON's default while_true); after phase 1 its barrier lock is 2 (1 +
// release 1, acquire-equal does not decrement), so it waits until the sequence sets 1 again.
// Golden (independent of the kernel): per element, trunc(trunc(a * b) + c), each step computed in
// float and its magnitude truncated to bf16 by bit manipulation: upstream's vector entry
// (scale_shift.cc L28-69) sets no rounding mode, so the core's reset mode (floor) rounds each
// aie::mul / aie::add result back to bf16 (npusim's model, kernels_ref/aie_api/README.md).
#include "Design.hpp"
#include "npusim/kernels/scale_shift.hpp"
#include "npusim/model/Error.hpp"

#include <cmath>
#include <cstring>
#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

// A float's magnitude truncated to bf16: its upper 16 bits.
bfloat16 truncate_bf16(float f) {
    std::uint32_t u = 0;
    std::memcpy(&u, &f, 4);
    return bfloat16::from_bits(static_cast<std::uint16_t>(u >> 16));
}

} // namespace

DesignSpec make_scale_shift() {
    DesignSpec s;
    s.name = "scale_shift";
    s.description = "E15: ml/scale_shift, D = A * B + C in bf16 over two phases of the same 2 workers, switched by "
                    "a use_write_rtp Buffer and synchronised by WorkerRuntimeBarriers";
    s.params = {{"size", 65536, "bf16 elements (IRON --length; a multiple of 2048)"}};
    s.devices = every_device();
    s.kernel_sets = {KernelSet::reference};
    s.kernels_note = "reference eltwise_mul_add_bf16 (kernels_ref/scale_shift.hpp)";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "scale_shift";
        constexpr std::int64_t kCores = 2, kTile = kernels::kScaleShiftElements;
        const std::int64_t size = p.at("size");
        if (size <= 0 || size % (kTile * kCores) != 0)
            throw DesignError(fmt::format("design '{}': parameter size={} must be a positive multiple of {}", design,
                                          size, kTile * kCores));
        const std::int64_t tiles_per_core = size / kTile / kCores;
        const auto tensor_ty = tensor<bfloat16>({size});
        const auto tile_ty = tensor<bfloat16>({kTile});
        const auto memtile_ty = tensor<bfloat16>({kTile * kCores});
        ObjectFifo inA(memtile_ty, "inA"), inB(memtile_ty, "inB"), outC(memtile_ty, "outC");
        const std::vector<std::int64_t> offsets{0, kTile};
        const std::vector<TensorType> tiles(kCores, tile_ty);
        const auto memA = inA.cons().split(offsets, {.obj_types = tiles, .names = {"memA0", "memA1"}});
        const auto memB = inB.cons().split(offsets, {.obj_types = tiles, .names = {"memB0", "memB1"}});
        const auto memC = outC.prod().join(offsets, {.obj_types = tiles, .names = {"memC0", "memC1"}});
        const std::vector<ArgType> types{tile_ty, tile_ty, tile_ty, scalar<std::int32_t>()};
        auto cost = [](std::span<const KernelArg>) {
            return kernels::eltwise_mul_add_bf16_cycles(kernels::kScaleShiftElements);
        };
        void (*ref)(const bfloat16*, const bfloat16*, bfloat16*, std::int32_t) =
            +[](const bfloat16* a, const bfloat16* b, bfloat16* c, std::int32_t is_mul) {
                kernels::eltwise_mul_add_bf16(a, b, c, is_mul, kernels::kScaleShiftElements);
            };
        std::vector<Buffer> rtps;
        std::vector<WorkerRuntimeBarrier> barriers;
        std::vector<Worker> workers;
        for (std::int64_t i = 0; i < kCores; ++i) {
            rtps.push_back(
                Buffer::splat<std::int32_t>(tensor<std::int32_t>({1}), fmt::format("rtp{}", i), 1).use_write_rtp());
            barriers.emplace_back(0, fmt::format("barrier{}", i));
            Kernel mul_add("eltwise_mul_add_bf16_vector", ref, types, cost);
            workers.emplace_back(
                [tiles_per_core](ObjectFifoHandle of_a, ObjectFifoHandle of_b, ObjectFifoHandle of_c, Kernel k,
                                 Buffer rtp, WorkerRuntimeBarrier barrier) {
                    barrier.wait_for_value(1);
                    const std::int32_t is_mul = rtp.at<std::int32_t>(0); // is_mul = my_rtp[0]: memref.load
                    for (std::int64_t t = 0; t < tiles_per_core; ++t) {
                        auto c = of_c.acquire(1);
                        auto a = of_a.acquire(1);
                        auto b = of_b.acquire(1);
                        k(a, b, c, is_mul);
                        of_a.release(1);
                        of_b.release(1);
                        of_c.release(1);
                    }
                    barrier.release_with_value(1);
                },
                fn_args(memA[static_cast<std::size_t>(i)].cons(), memB[static_cast<std::size_t>(i)].cons(),
                        memC[static_cast<std::size_t>(i)].prod(), mul_add, rtps.back(), barriers.back()),
                WorkerOptions{.name = fmt::format("scale_shift_{}", i)});
        }
        Runtime rt(
            [rtps, barriers](RuntimeData A, RuntimeData B, RuntimeData C, RuntimeData D, ObjectFifoHandle a_h,
                             ObjectFifoHandle b_h, ObjectFifoHandle c_h) {
                auto set_rtps = [&](std::int32_t v) {
                    for (const auto& r : rtps) r[0] = v;
                };
                // Phase 1: multiply, D = A * B.
                set_rtps(1);
                for (const auto& b : barriers) b.set(1);
                TaskGroup tg1;
                a_h.fill(A, {.group = &tg1});
                b_h.fill(B, {.group = &tg1});
                c_h.drain(D, {.wait = true, .group = &tg1});
                tg1.finish();
                // Phase 2: add, D = D + C (phase 1's output is the left operand).
                set_rtps(0);
                for (const auto& b : barriers) b.set(1);
                TaskGroup tg2;
                a_h.fill(D, {.group = &tg2});
                b_h.fill(C, {.group = &tg2});
                c_h.drain(D, {.wait = true, .group = &tg2});
                tg2.finish();
            },
            fn_args(tensor_ty, tensor_ty, tensor_ty, tensor_ty, inA.prod(), inB.prod(), outC.cons()));
        std::mt19937_64 rng(o.seed);
        auto draw = [&](double lo, double hi) {
            std::vector<bfloat16> v(static_cast<std::size_t>(size));
            for (auto& x : v)
                x = bfloat16(static_cast<float>(lo + static_cast<double>(rng() >> 11) * 0x1.0p-53 * (hi - lo)));
            return v;
        };
        const auto a = draw(-4, 4), b = draw(-4, 4), c = draw(-2, 2);
        auto reference = [](const Tensors& t) {
            const auto x = get(t, "A").values<bfloat16>(), y = get(t, "B").values<bfloat16>(),
                       z = get(t, "C").values<bfloat16>();
            std::vector<bfloat16> d(x.size());
            for (std::size_t i = 0; i < x.size(); ++i) {
                const bfloat16 prod = truncate_bf16(float(x[i]) * float(y[i]));
                d[i] = truncate_bf16(float(prod) + float(z[i]));
            }
            return tensors("D", Tensor::from({static_cast<std::int64_t>(d.size())}, d));
        };
        return DesignInstance(Program(dev, rt, workers, design),
                              {ArgSpec::input("A", tensor_ty), ArgSpec::input("B", tensor_ty),
                               ArgSpec::input("C", tensor_ty), ArgSpec::output("D", tensor_ty)},
                              tensors("A", Tensor::from(tensor_ty.shape, a), "B", Tensor::from(tensor_ty.shape, b), "C",
                                      Tensor::from(tensor_ty.shape, c)),
                              reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_scale_shift, 116);

} // namespace npusim::examples
