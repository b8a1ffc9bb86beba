// The built-in library's split bottleneck stage (harness/KernelLibraryConvSplit.hpp; mlir-aie
// python/iron/kernels/conv.py bn_conv2dk3_dw_out_split :542-584, bn_conv2dk1_input_split_partial_put_ui8
// :587-624, bn_conv2dk1_input_split_partial_skip_get :626-668 at 3ca0193): IRON's names and signatures,
// their refusals, and the input-split pair run on two cores joined by a CascadeFlow with both kernel
// sets (mixed across the cascade too), the output equal to the projection + skip written out here.
// (The depthwise split runs in a design in tests/python/test_kernels_conv.py.)
#include "npusim/harness/KernelLibraryConvSplit.hpp"
#include "npusim/iron.hpp"
#include "support/HostBytes.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

#include <random>

namespace iks = npusim::harness::iron_kernels;

namespace {

std::vector<std::string> splitlib_types(const npusim::iron::Kernel& k) {
    std::vector<std::string> out;
    for (const auto& t : k.arg_types()) out.push_back(t.str());
    return out;
}

// the halves' inputs are 16 channels each of a 32-channel depthwise output; 16 output channels
constexpr std::int64_t kSplW = 7, kSplHalf = 16, kSplCo = 16, kSplWc = 2 * 8 * 16;

// put on (0,3) -> cascade -> get on (0,2), each reading its half of the host's input (a mem tile
// split): one call each with oc, weight_index 1 of output_split 2 (output group oc + 1), scale and
// skip_scale, input_channels `call_ci` and input_split 2; the host's input, skip and the output
npusim::sim::SimResult splitlib_run(const npusim::iron::Kernel& put, const npusim::iron::Kernel& get,
                                    const std::vector<std::uint8_t>& in, const std::vector<std::int8_t>& skip,
                                    const std::vector<std::int8_t>& w_put, const std::vector<std::int8_t>& w_get,
                                    std::int64_t oc, std::int64_t scale, std::int64_t skip_scale,
                                    std::int64_t call_ci = 2 * kSplHalf) {
    using namespace npusim;
    using namespace npusim::iron;
    const auto in_ty = tensor<std::uint8_t>({2 * kSplW * kSplHalf});
    const auto half_ty = tensor<std::uint8_t>({kSplW * kSplHalf});
    const auto w_ty = tensor<std::int8_t>({kSplWc});
    const auto o_ty = tensor<std::int8_t>({kSplW * kSplCo});
    ObjectFifo fin(in_ty, "act", 1), fskip(o_ty, "skip", 1), fo(o_ty, "out", 1);
    auto halves = fin.cons().split({0, kSplW * kSplHalf}, {.obj_types = {half_ty, half_ty}});
    const Buffer bwp(w_ty, "wts_put", test::bytes_of(w_put)), bwg(w_ty, "wts_get", test::bytes_of(w_get));
    Worker top(
        [=](ObjectFifoHandle ia, Buffer bw, Kernel k) {
            auto a = ia.acquire(1);
            k(a, bw.view(), kSplW, call_ci, kSplCo, 2, 1, 0, oc);
            ia.release(1);
        },
        fn_args(halves[0].cons(), bwp, put), WorkerOptions{.tile = Tile(0, 3), .name = "put"});
    Worker bottom(
        [=](ObjectFifoHandle ia, ObjectFifoHandle is, ObjectFifoHandle oo, Buffer bw, Kernel k) {
            auto a = ia.acquire(1);
            auto s = is.acquire(1);
            auto o = oo.acquire(1);
            k(a, bw.view(), o, s, kSplW, call_ci, kSplCo, scale, skip_scale, 2, 2, 1, 0, oc);
            ia.release(1);
            is.release(1);
            oo.release(1);
        },
        fn_args(halves[1].cons(), fskip.cons(), fo.prod(), bwg, get), WorkerOptions{.tile = Tile(0, 2), .name = "get"});
    CascadeFlow(top, bottom);
    Runtime rt(
        [](RuntimeData ha, RuntimeData hs, RuntimeData ho, ObjectFifoHandle pa, ObjectFifoHandle ps,
           ObjectFifoHandle co_) {
            pa.fill(ha);
            ps.fill(hs);
            co_.drain(ho, {.wait = true});
        },
        fn_args(in_ty, o_ty, o_ty, fin.prod(), fskip.prod(), fo.cons()));
    const auto net = Program(model::device_by_name("npu1_1col"), rt, {top, bottom}, "bn_split").resolve();
    return sim::simulate(net, {in, test::bytes_of(skip), std::vector<std::uint8_t>(kSplW * kSplCo, 0x77)},
                         test::sim_opts("npu1_1col"));
}

std::int64_t splitlib_even(std::int64_t s, int scale) { // s / 2^scale to the nearest, ties to even
    const std::int64_t d = std::int64_t{1} << scale;
    std::int64_t q = s / d;
    if (s % d != 0 && s < 0) --q;
    const std::int64_t r2 = 2 * (s - q * d);
    return r2 > d || (r2 == d && q % 2 != 0) ? q + 1 : q;
}

} // namespace

TEST_CASE("bn_conv2dk3_dw_out_split / input-split halves: IRON's names and signatures, their refusals",
          "[harness][kernel_library]") {
    const auto dw = iks::bn_conv2dk3_dw_out_split();
    CHECK(dw.name() == "bn13_conv2dk3_ui8_out_split");
    auto t = splitlib_types(dw);
    CHECK(std::vector<std::string>(t.begin(), t.begin() + 6) ==
          std::vector<std::string>{"u8[3360]", "u8[3360]", "u8[3360]", "i8[4320]", "u8[1680]", "u8[1680]"});
    CHECK(t.size() == 14);
    const auto put = iks::bn_conv2dk1_input_split_partial_put_ui8(7, 240, 9600, 14, npusim::harness::KernelSet::aie);
    CHECK(put.name() == "bn14_1_conv2dk1_ui8_ui8_input_split_partial_width_put_new");
    CHECK(splitlib_types(put) == std::vector<std::string>{"u8[1680]", "i8[9600]", "i32 scalar", "i32 scalar",
                                                          "i32 scalar", "i32 scalar", "i32 scalar", "i32 scalar",
                                                          "i32 scalar"});
    const auto get = iks::bn_conv2dk1_input_split_partial_skip_get();
    CHECK(get.name() == "bn_13_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new");
    t = splitlib_types(get);
    CHECK(std::vector<std::string>(t.begin(), t.begin() + 4) ==
          std::vector<std::string>{"u8[1680]", "i8[9600]", "i8[560]", "i8[560]"});
    CHECK(t.size() == 14);
    std::vector<npusim::iron::KernelArg> args(14);
    args[5].ivalue = 480;
    args[9].ivalue = 2;
    CHECK(get.cost(args) == 7u * 8 * 240 + 2 * 56);
    args[6].ivalue = 7;
    args[8].ivalue = 480;
    args[11].ivalue = 1;
    CHECK(dw.cost(args) == 7u * 480 * 9);
    CHECK_THROWS_WITH(iks::bn_conv2dk3_dw_out_split(7, 480, 240, 12),
                      "bn_conv2dk3_dw_out_split(): block_index must be 13 or 14 (the only per-block symbols defined "
                      "in the .cc), got 12.");
    CHECK_THROWS_WITH(iks::bn_conv2dk3_dw_out_split(1), Catch::StartsWith("bn_conv2dk3_dw_out_split(): input_width=1 must be in 2..256"));
    CHECK_THROWS_WITH(iks::bn_conv2dk3_dw_out_split(7, 480, 12),
                      "bn_conv2dk3_dw_out_split(): output_split_channels=12 must be a positive multiple of 8 up to 4096");
    CHECK_THROWS_WITH(iks::bn_conv2dk1_input_split_partial_skip_get(7, 240, 80, 9600, 15),
                      Catch::StartsWith("bn_conv2dk1_input_split_partial_skip_get(): block_index must be 13 or 14"));
    CHECK_THROWS_WITH(iks::bn_conv2dk1_input_split_partial_put_ui8(6),
                      Catch::StartsWith("bn_conv2dk1_input_split_partial_put_ui8(): input_width=6 must be in 7..4096"));
    CHECK_THROWS_WITH(iks::bn_conv2dk1_input_split_partial_skip_get(7, 240, 12),
                      "bn_conv2dk1_input_split_partial_skip_get(): output_channels=12 must be a positive multiple of 8 "
                      "up to 4096");
}

TEST_CASE("input-split halves on two cores: put + get is the projection of both halves, to even, plus the skip",
          "[harness][kernel_library]") {
    using npusim::harness::KernelSet;
    std::mt19937 rng(63);
    std::vector<std::uint8_t> in(2 * kSplW * kSplHalf); // [half][c/8][x][c%8]
    for (auto& v : in) v = static_cast<std::uint8_t>(rng() & 0xff);
    std::vector<std::int8_t> wp(kSplWc), wg(kSplWc), skip(kSplW * kSplCo);
    for (auto* w : {&wp, &wg, &skip})
        for (auto& v : *w) v = static_cast<std::int8_t>(static_cast<int>(rng() & 0xff) - 128);
    const std::int64_t call_oc = 0, group = call_oc + kSplCo / (8 * 2) * 1, scale = 10;
    for (const std::int64_t skip_scale : {0, 1}) {
        std::vector<std::uint8_t> want(kSplW * kSplCo, 0); // the other group keeps the core buffer's zeros
        for (std::int64_t x = 0; x < kSplW; ++x)
            for (std::int64_t o = 0; o < 8; ++o) {
                std::int64_t s = 0;
                for (int h = 0; h < 2; ++h)
                    for (std::int64_t c = 0; c < kSplHalf; ++c)
                        s += std::int64_t{in[static_cast<std::size_t>(h * kSplW * kSplHalf + (c / 8) * kSplW * 8 +
                                                                      x * 8 + c % 8)]} *
                             (h == 0 ? wp : wg)[static_cast<std::size_t>(call_oc * kSplHalf * 8 + (c / 8) * 64 +
                                                                         (c % 8) * 8 + o)];
                const std::int64_t conv = std::clamp<std::int64_t>(splitlib_even(s, static_cast<int>(scale)), -128, 127);
                const std::size_t at = static_cast<std::size_t>((group * kSplW + x) * 8 + o);
                const std::int64_t sum = conv + skip[at];
                const std::int64_t r = skip_scale > 0 ? splitlib_even(sum, static_cast<int>(skip_scale)) : sum;
                want[at] = static_cast<std::uint8_t>(static_cast<std::int8_t>(std::clamp<std::int64_t>(r, -128, 127)));
            }
        for (const auto put_ks : {KernelSet::reference, KernelSet::aie})
            for (const auto get_ks : {KernelSet::reference, KernelSet::aie}) {
                const auto put = iks::bn_conv2dk1_input_split_partial_put_ui8(kSplW, kSplHalf, kSplWc, 13, put_ks);
                const auto get =
                    iks::bn_conv2dk1_input_split_partial_skip_get(kSplW, kSplHalf, kSplCo, kSplWc, 13, get_ks);
                const auto r = splitlib_run(put, get, in, skip, wp, wg, call_oc, scale, skip_scale);
                INFO("skip_scale " << skip_scale);
                CHECK(r.host[2] == want);
                CHECK(r.cycles > 0);
            }
    }
    // a call reading more channels than its input holds is a kernel error naming the counts
    try {
        splitlib_run(iks::bn_conv2dk1_input_split_partial_put_ui8(kSplW, kSplHalf, kSplWc),
                     iks::bn_conv2dk1_input_split_partial_skip_get(kSplW, kSplHalf, kSplCo, kSplWc), in, skip, wp, wg,
                     0, scale, 0, 4 * kSplHalf);
        FAIL("a call past its input ran");
    } catch (const npusim::SimulationError& e) {
        // either worker's check stops the run (both calls pass the same counts)
        CHECK_THAT(std::string(e.what()),
                   Catch::Contains("input_channels=64 / input_split=2 must be a positive multiple of 8 of at most the "
                                   "factory's 16 input channels"));
    }
}
