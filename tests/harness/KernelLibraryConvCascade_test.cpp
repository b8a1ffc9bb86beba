// The built-in library's cascade halves of the split bottleneck 1x1 convolution
// (harness/KernelLibraryConv.hpp; mlir-aie python/iron/kernels/conv.py bn_conv2dk1_partial_put_i8
// :454-496, bn_conv2dk1_partial_get_relu_i8 :499-539 at 3ca0193): IRON's names and signatures, their
// refusals, and the pair run on two cores joined by a CascadeFlow with both kernel sets (and the sets
// mixed across the cascade), the output equal to the whole 1x1 convolution written out here.
#include "npusim/harness/KernelLibraryConv.hpp"
#include "npusim/iron.hpp"
#include "support/HostBytes.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

namespace iks = npusim::harness::iron_kernels;

namespace {

std::vector<std::string> casclib_types(const npusim::iron::Kernel& k) {
    std::vector<std::string> out;
    for (const auto& t : k.arg_types()) out.push_back(t.str());
    return out;
}

constexpr std::int64_t kCasW = 7, kCasCi = 32, kCasCo = 16, kCasWc = 2 * 8 * 16; // two output groups

// put on (0,3) -> cascade -> get on (0,2), each with its weight half in a Buffer: one call each with
// oc = `oc`, scale `scale`; the host's input and the output
npusim::sim::SimResult casclib_run(const npusim::iron::Kernel& put, const npusim::iron::Kernel& get,
                                   const std::vector<std::int8_t>& in, const std::vector<std::int8_t>& w_put,
                                   const std::vector<std::int8_t>& w_get, std::int64_t oc, std::int64_t scale) {
    using namespace npusim;
    using namespace npusim::iron;
    const auto in_ty = tensor<std::int8_t>({kCasW * kCasCi});
    const auto w_ty = tensor<std::int8_t>({kCasWc});
    const auto o_ty = tensor<std::uint8_t>({kCasW * kCasCo});
    ObjectFifo fin(in_ty, "act", 1), fo(o_ty, "out", 1);
    const Buffer bwp(w_ty, "wts_put", test::bytes_of(w_put)), bwg(w_ty, "wts_get", test::bytes_of(w_get));
    Worker top(
        [=](ObjectFifoHandle ia, Buffer bw, Kernel k) {
            auto a = ia.acquire(1);
            k(a, bw.view(), kCasW, kCasCi, kCasCo, 2, 0, 0, oc);
            ia.release(1);
        },
        fn_args(fin.cons(), bwp, put), WorkerOptions{.tile = Tile(0, 3), .name = "put"});
    Worker bottom(
        [=](ObjectFifoHandle ia, ObjectFifoHandle oo, Buffer bw, Kernel k) {
            auto a = ia.acquire(1);
            auto o = oo.acquire(1);
            k(a, bw.view(), o, kCasW, kCasCi, kCasCo, scale, 2, 1, 0, 0, oc);
            ia.release(1);
            oo.release(1);
        },
        fn_args(fin.cons(), fo.prod(), bwg, get), WorkerOptions{.tile = Tile(0, 2), .name = "get"});
    CascadeFlow(top, bottom);
    Runtime rt(
        [](RuntimeData ha, RuntimeData ho, ObjectFifoHandle pa, ObjectFifoHandle co_) {
            pa.fill(ha);
            co_.drain(ho, {.wait = true});
        },
        fn_args(in_ty, o_ty, fin.prod(), fo.cons()));
    const auto net = Program(model::device_by_name("npu1_1col"), rt, {top, bottom}, "bn_partial").resolve();
    return sim::simulate(net, {test::bytes_of(in), std::vector<std::uint8_t>(kCasW * kCasCo, 0x77)},
                         test::sim_opts("npu1_1col"));
}

} // namespace

TEST_CASE("bn_conv2dk1_partial_put_i8 / _get_relu_i8: IRON's names and signatures, their refusals",
          "[harness][kernel_library]") {
    const auto put = iks::bn_conv2dk1_partial_put_i8();
    CHECK(put.name() == "bn13_1_conv2dk1_i8_ui8_partial_width_put_new");
    CHECK(casclib_types(put) == std::vector<std::string>{"i8[560]", "i8[4800]", "i32 scalar", "i32 scalar",
                                                         "i32 scalar", "i32 scalar", "i32 scalar", "i32 scalar",
                                                         "i32 scalar"});
    const auto get = iks::bn_conv2dk1_partial_get_relu_i8(7, 80, 480, 4800, 14, npusim::harness::KernelSet::aie);
    CHECK(get.name() == "bn14_1_conv2dk1_i8_ui8_partial_width_get_new");
    const auto gt = casclib_types(get);
    CHECK(std::vector<std::string>(gt.begin(), gt.begin() + 3) ==
          std::vector<std::string>{"i8[560]", "i8[4800]", "u8[3360]"});
    CHECK(gt.size() == 12);
    std::vector<npusim::iron::KernelArg> args(12);
    args[4].ivalue = 80;
    args[7].ivalue = 2;
    CHECK(get.cost(args) == 7u * 8 * 40 + 56);
    CHECK_THROWS_WITH(iks::bn_conv2dk1_partial_put_i8(7, 80, 4800, 12),
                      "bn_conv2dk1_partial_put_i8(): block_index must be 13 or 14 (the only per-block symbols "
                      "defined in the .cc), got 12.");
    CHECK_THROWS_WITH(iks::bn_conv2dk1_partial_get_relu_i8(6),
                      Catch::StartsWith("bn_conv2dk1_partial_get_relu_i8(): input_width=6 must be in 7..4096"));
    CHECK_THROWS_WITH(iks::bn_conv2dk1_partial_put_i8(7, 12),
                      Catch::StartsWith("bn_conv2dk1_partial_put_i8(): input_channels=12 must be a multiple of 8"));
    CHECK_THROWS_WITH(iks::bn_conv2dk1_partial_get_relu_i8(7, 80, 12),
                      Catch::StartsWith("bn_conv2dk1_partial_get_relu_i8(): output_channels=12 must be"));
}

TEST_CASE("bn_conv2dk1 cascade halves on two cores: put + get is the whole 1x1 convolution, to even, ReLU",
          "[harness][kernel_library]") {
    using npusim::harness::KernelSet;
    std::mt19937 rng(53);
    std::vector<std::int8_t> in(kCasW * kCasCi), wp(kCasWc), wg(kCasWc);
    for (auto& v : in) v = static_cast<std::int8_t>(static_cast<int>(rng() & 0xff) - 128);
    for (auto* w : {&wp, &wg})
        for (auto& v : *w) v = static_cast<std::int8_t>(static_cast<int>(rng() & 0xff) - 128);
    const std::int64_t oc = 1, scale = 9, chunk = kCasCi / 2;
    std::vector<std::uint8_t> want(kCasW * kCasCo, 0); // the other groups keep the output buffer's zeros
    for (std::int64_t x = 0; x < kCasW; ++x)
        for (std::int64_t o = 0; o < 8; ++o) {
            std::int64_t s = 0;
            for (std::int64_t c = 0; c < kCasCi; ++c) {
                const auto& w = c < chunk ? wp : wg;
                const std::int64_t i = c % chunk;
                s += std::int64_t{in[static_cast<std::size_t>((c / 8) * kCasW * 8 + x * 8 + c % 8)]} *
                     w[static_cast<std::size_t>(oc * chunk * 8 + (i / 8) * 64 + (i % 8) * 8 + o)];
            }
            const double q = std::nearbyint(static_cast<double>(s) / (1 << scale)); // to even (default mode)
            want[static_cast<std::size_t>((oc * kCasW + x) * 8 + o)] =
                static_cast<std::uint8_t>(q < 0 ? 0 : q > 255 ? 255 : q);
        }
    for (const auto put_ks : {KernelSet::reference, KernelSet::aie})
        for (const auto get_ks : {KernelSet::reference, KernelSet::aie}) {
            const auto put = iks::bn_conv2dk1_partial_put_i8(kCasW, kCasCi, kCasWc, 13, put_ks);
            const auto get = iks::bn_conv2dk1_partial_get_relu_i8(kCasW, kCasCi, kCasCo, kCasWc, 13, get_ks);
            const auto r = casclib_run(put, get, in, wp, wg, oc, scale);
            CHECK(r.host[1] == want);
            CHECK(r.cycles > 0);
        }
    // a weight group past the weights is a kernel error naming the call's oc
    try {
        casclib_run(iks::bn_conv2dk1_partial_put_i8(kCasW, kCasCi, kCasWc),
                    iks::bn_conv2dk1_partial_get_relu_i8(kCasW, kCasCi, kCasCo, kCasWc), in, wp, wg, 2, scale);
        FAIL("a weight group past the weights ran");
    } catch (const npusim::SimulationError& e) {
        // either worker's check stops the run (both calls name the same group)
        CHECK_THAT(std::string(e.what()),
                   Catch::Contains("_1_conv2dk1_i8_ui8_partial_width_") &&
                       Catch::Contains("oc=2 needs 384 weights (8 output channels x 16 input channels per group), "
                                       "the factory's weight_count is 256"));
    }
}
