// aie_kernel bindings keep the AIE core modes (rounding, saturation) per worker.
#include "npusim/harness/AieKernel.hpp"
#include "npusim/iron.hpp"
#include "support/RunOptions.hpp"

#include <aie_api/aie.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

using namespace npusim;
using namespace npusim::harness;
using namespace npusim::test;

namespace {
// An AIE-API-style kernel that reports the rounding mode it finds, then sets its own (the value
// of in[0]) and leaves it set, as kernels do on the hardware.
void mode_probe(const std::int32_t* in, std::int32_t* out, std::int32_t n) {
    out[0] = static_cast<std::int32_t>(aie::get_rounding());
    for (std::int32_t i = 1; i < n; ++i) out[i] = in[i];
    aie::set_rounding(static_cast<aie::rounding_mode>(in[0]));
}
} // namespace

TEST_CASE("AIE core modes are kept per worker although all cores share one thread", "[golden][aie]") {
    using namespace iron;
    constexpr std::int64_t tile = 16, tiles = 6;
    const auto tile_ty = tensor<std::int32_t>({tile}), vec_ty = tensor<std::int32_t>({tile * tiles});
    auto modes = make_aie_core_modes(); // one register file for the design, one entry per worker
    Kernel probe =
        aie_kernel("mode_probe", &mode_probe, {tile_ty, tile_ty, scalar<std::int32_t>()}, cost::fixed(50), modes);
    std::vector<ObjectFifo> ins, outs;
    std::vector<Worker> workers;
    for (int w = 0; w < 2; ++w) {
        ins.emplace_back(tile_ty, fmt::format("in{}", w), 2);
        outs.emplace_back(tile_ty, fmt::format("out{}", w), 2);
        workers.emplace_back(
            [](ObjectFifoHandle i, ObjectFifoHandle o, Kernel k) {
                for (std::int64_t t = 0; t < tiles; ++t) {
                    auto ei = i.acquire(1);
                    auto eo = o.acquire(1);
                    k(ei, eo, static_cast<std::int32_t>(tile));
                    i.release(1);
                    o.release(1);
                }
            },
            fn_args(ins.back().cons(), outs.back().prod(), probe), WorkerOptions{.name = fmt::format("probe{}", w)});
    }
    Runtime rt(
        [](RuntimeData a0, RuntimeData a1, RuntimeData c0, RuntimeData c1, ObjectFifoHandle i0, ObjectFifoHandle i1,
           ObjectFifoHandle o0, ObjectFifoHandle o1) {
            i0.fill(a0);
            i1.fill(a1);
            o0.drain(c0, {.wait = true});
            o1.drain(c1, {.wait = true});
        },
        fn_args(vec_ty, vec_ty, vec_ty, vec_ty, ins[0].prod(), ins[1].prod(), outs[0].cons(), outs[1].cons()));
    const auto net = Program(model::device_by_name("npu1_2col"), rt, workers, "modes").resolve();
    // Worker 0 sets conv_even (12), worker 1 symmetric_inf (11).
    std::vector<std::int32_t> a0(tile * tiles, 12), a1(tile * tiles, 11);
    const std::vector<std::uint8_t> zero(vec_ty.bytes());
    aie::set_rounding(aie::rounding_mode::ceil); // the thread's own modes must survive the run
    const auto r = sim::simulate(net, {to_bytes(a0), to_bytes(a1), zero, zero}, sim_opts("npu1_2col"));
    CHECK(aie::get_rounding() == aie::rounding_mode::ceil);
    npusim::aie_api::reset_core_modes();
    for (int w = 0; w < 2; ++w) {
        const auto c = from_bytes<std::int32_t>(r.host[static_cast<std::size_t>(2 + w)]);
        INFO("worker " << w);
        CHECK(c[0] == 0); // the first call sees the reset mode (floor)
        for (std::int64_t t = 1; t < tiles; ++t) CHECK(c[static_cast<std::size_t>(t * tile)] == (w == 0 ? 12 : 11));
    }
}
