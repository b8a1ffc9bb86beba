// The built-in library's conv2dk3 and conv2dk14 (harness/KernelLibraryConv.hpp; mlir-aie
// python/iron/kernels/conv.py conv2dk3 :57-99, conv2dk14 :165-194 at 3ca0193): IRON's names and
// signatures, their refusals, and conv2dk3 run in a one-core design with both kernel sets on a
// channel slice of a shared weights buffer (as ml/bottleneck's two 3x3 workers), the output equal to
// the reference called directly; a call whose channel slice leaves the weights is a kernel error
// naming it. (conv2dk14 runs in tests/python/test_kernels_conv.py.)
#include "npusim/harness/KernelLibraryConv.hpp"
#include "npusim/iron.hpp"
#include "npusim/kernels/conv2dk3.hpp"
#include "support/HostBytes.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

#include <random>

namespace iks = npusim::harness::iron_kernels;

namespace {

std::vector<std::string> k3lib_types(const npusim::iron::Kernel& k) {
    std::vector<std::string> out;
    for (const auto& t : k.arg_types()) out.push_back(t.str());
    return out;
}

// one middle row (check 1) through `k` on one core; the host's three lines, weights and the output
std::vector<std::uint8_t> k3lib_run(const npusim::iron::Kernel& k, const std::vector<std::uint8_t>& lines,
                                    const std::vector<std::int8_t>& w, std::int64_t ci, std::int64_t co,
                                    std::int64_t offset, std::int64_t scale) {
    using namespace npusim;
    using namespace npusim::iron;
    const auto line_ty = tensor<std::uint8_t>({32 * ci});
    const auto lines_ty = tensor<std::uint8_t>({3 * 32 * ci});
    const auto w_ty = tensor<std::int8_t>({static_cast<std::int64_t>(w.size())});
    const auto o_ty = tensor<std::uint8_t>({32 * co});
    ObjectFifo fl(line_ty, "lines", 3), fw(w_ty, "wts", 1), fo(o_ty, "out", 1);
    Worker wk(
        [=](ObjectFifoHandle il, ObjectFifoHandle iw, ObjectFifoHandle oo, Kernel kern) {
            auto ew = iw.acquire(1);
            auto el = il.acquire(3);
            auto eo = oo.acquire(1);
            kern(el[0], el[1], el[2], ew, eo, 32, ci, co, 3, 3, 1, scale, offset);
            il.release(3);
            iw.release(1);
            oo.release(1);
        },
        fn_args(fl.cons(), fw.cons(), fo.prod(), k), WorkerOptions{.name = "k3"});
    Runtime rt(
        [](RuntimeData hl, RuntimeData hw, RuntimeData ho, ObjectFifoHandle pl, ObjectFifoHandle pw,
           ObjectFifoHandle co_) {
            pl.fill(hl);
            pw.fill(hw);
            co_.drain(ho, {.wait = true});
        },
        fn_args(lines_ty, w_ty, o_ty, fl.prod(), fw.prod(), fo.cons()));
    const auto net = Program(model::device_by_name("npu1_1col"), rt, {wk}, "k3").resolve();
    const auto r =
        sim::simulate(net, {lines, test::bytes_of(w), std::vector<std::uint8_t>(32 * co)}, test::sim_opts("npu1_1col"));
    return r.host[2];
}

} // namespace

TEST_CASE("conv2dk3: IRON's name and signature, its refusals", "[harness][kernel_library]") {
    const auto k = iks::conv2dk3(32, 64, 32, DType::u8, 64);
    CHECK(k.name() == "conv2dk3_ui8");
    CHECK(k3lib_types(k) == std::vector<std::string>{"u8[2048]", "u8[2048]", "u8[2048]", "i8[36864]", "u8[1024]",
                                                     "i32 scalar", "i32 scalar", "i32 scalar", "i32 scalar",
                                                     "i32 scalar", "i32 scalar", "i32 scalar", "i32 scalar"});
    CHECK(k3lib_types(iks::conv2dk3(32, 16, 8, DType::u8, -1, npusim::harness::KernelSet::aie))[3] == "i8[1152]");
    CHECK_THROWS_WITH(iks::conv2dk3(), Catch::Contains("conv2dk3(): act_dtype=int8 builds aie2/conv2dk3.cc with "
                                                       "-DINT8_ACT, which does not compile"));
    CHECK_THROWS_WITH(iks::conv2dk3(32, 64, 64, DType::i16),
                      "conv2dk3(): act_dtype must be np.int8 or np.uint8, got i16");
    CHECK_THROWS_WITH(iks::conv2dk3(64, 64, 64, DType::u8),
                      Catch::StartsWith("conv2dk3(): input_width=64: aie2/conv2dk3.cc's "
                                        "vector kernel computes 32 pixels"));
    CHECK_THROWS_WITH(iks::conv2dk3(32, 60, 64, DType::u8), Catch::Contains("conv2dk3(): input_channels=60"));
    CHECK_THROWS_WITH(iks::conv2dk3(32, 64, 64, DType::u8, 32),
                      "conv2dk3(): weight_output_channels=32 must be a multiple of 8 and at least output_channels=64");
}

TEST_CASE("conv2dk3 runs a channel slice of shared weights, both kernel sets equal to the reference",
          "[harness][kernel_library]") {
    std::mt19937 rng(34);
    const std::int64_t ci = 16, co = 8, wco = 16, offset = 8, scale = 9;
    std::vector<std::uint8_t> lines(3 * 32 * ci);
    for (auto& v : lines) v = static_cast<std::uint8_t>(rng() & 0xff);
    std::vector<std::int8_t> w(9 * ci * wco);
    for (auto& v : w) v = static_cast<std::int8_t>(rng() & 0xff);
    std::vector<std::uint8_t> want(32 * co);
    npusim::kernels::conv2dk3_u8(lines.data(), lines.data() + 32 * ci, lines.data() + 64 * ci, w.data(), want.data(),
                                 32, ci, co, 3, 3, 1, scale, offset);
    for (const auto ks : {npusim::harness::KernelSet::reference, npusim::harness::KernelSet::aie}) {
        const auto k = iks::conv2dk3(32, ci, co, DType::u8, wco, ks);
        CHECK(k3lib_run(k, lines, w, ci, co, offset, scale) == want);
        try {
            k3lib_run(k, lines, w, ci, co, 16, scale);
            FAIL("a channel slice past the weights ran");
        } catch (const npusim::SimulationError& e) {
            CHECK(std::string(e.what()) ==
                  "worker 'k3': kernel 'conv2dk3_ui8' threw: conv2dk3_ui8: channel_offset=16 + "
                  "output_channels=8 exceeds the weights' 16 output channels "
                  "(weight_output_channels)");
        }
    }
}

TEST_CASE("conv2dk14: IRON's name and signature, its refusals, a cost per generation", "[harness][kernel_library]") {
    const auto k = iks::conv2dk14();
    CHECK(k.name() == "conv2dk14_i8");
    CHECK(k3lib_types(k) == std::vector<std::string>{"u8[12544]", "i8[12544]", "i8[2048]", "i32 scalar", "i32 scalar",
                                                     "i32 scalar", "i32 scalar", "i32 scalar"});
    CHECK(k3lib_types(iks::conv2dk14(448, 16, 32, 14, npusim::model::Arch::AIE2, npusim::harness::KernelSet::aie))[2] ==
          "i8[8192]");
    std::vector<npusim::iron::KernelArg> args(8);
    args[3].ivalue = 224;
    args[5].ivalue = 16;
    args[6].ivalue = 14;
    CHECK(k.cost(args) == 4 * 98 + 4);
    CHECK(iks::conv2dk14(224, 16, 16, 14, npusim::model::Arch::AIE2).cost(args) == 4 * 98 * 2 + 4);
    CHECK_THROWS_WITH(iks::conv2dk14(224, 16, 16, 7),
                      Catch::StartsWith("conv2dk14(): kernel_width=7: aie2p/conv2dk14.cc's "
                                        "vector kernel reads its second tile group"));
    CHECK_THROWS_WITH(iks::conv2dk14(112),
                      Catch::StartsWith("conv2dk14(): input_width=112 must be a positive multiple of "
                                        "16 * kernel_width = 224"));
    CHECK_THROWS_WITH(iks::conv2dk14(224, 16, 12), "conv2dk14(): output_channels=12 must be a positive multiple of 8");
}

TEST_CASE("bn_conv2dk3_dw: IRON's names and signature per stride, its refusals", "[harness][kernel_library]") {
    CHECK(iks::bn_conv2dk3_dw().name() == "conv2dk3_dw_stride1_relu_ui8_ui8");
    const auto k2 = iks::bn_conv2dk3_dw(32, 64, 64, 2, npusim::harness::KernelSet::aie);
    CHECK(k2.name() == "conv2dk3_dw_stride2_relu_ui8_ui8");
    CHECK(k3lib_types(k2) == std::vector<std::string>{"u8[2048]", "u8[2048]", "u8[2048]", "i8[576]", "u8[1024]",
                                                      "i32 scalar", "i32 scalar", "i32 scalar", "i32 scalar",
                                                      "i32 scalar", "i32 scalar", "i32 scalar", "i32 scalar"});
    std::vector<npusim::iron::KernelArg> args(13);
    args[5].ivalue = 32;
    args[7].ivalue = 64;
    args[10].ivalue = 1;
    CHECK(k2.cost(args) == 16 * 64 * 9);
    CHECK_THROWS_WITH(iks::bn_conv2dk3_dw(32, 64, 64, 3), "bn_conv2dk3_dw(): stride must be 1 or 2, got 3");
    CHECK_THROWS_WITH(iks::bn_conv2dk3_dw(32, 32, 64),
                      Catch::StartsWith("bn_conv2dk3_dw(): input_channels=32 and "
                                        "output_channels=64 must be positive multiples"));
    CHECK_THROWS_WITH(iks::bn_conv2dk3_dw(31, 64, 64, 2),
                      Catch::StartsWith("bn_conv2dk3_dw(): input_width=31 must be"));
}

TEST_CASE("bn_conv2dk3: IRON's name and signature, its refusals", "[harness][kernel_library]") {
    const auto k = iks::bn_conv2dk3(32, 64, 64, npusim::harness::KernelSet::aie);
    CHECK(k.name() == "conv2dk3_stride2_i8");
    CHECK(k3lib_types(k) == std::vector<std::string>{"i8[2048]", "i8[2048]", "i8[2048]", "i8[36864]", "u8[1024]",
                                                     "i32 scalar", "i32 scalar", "i32 scalar", "i32 scalar",
                                                     "i32 scalar", "i32 scalar", "i32 scalar", "i32 scalar"});
    std::vector<npusim::iron::KernelArg> args(13);
    args[5].ivalue = 32;
    args[6].ivalue = 64;
    args[7].ivalue = 64;
    args[10].ivalue = 0;
    CHECK(k.cost(args) == 16u * 64 * 64 * 6);
    CHECK_THROWS_WITH(iks::bn_conv2dk3(30), Catch::StartsWith("bn_conv2dk3(): input_width=30 must be a multiple of 4"));
    CHECK_THROWS_WITH(iks::bn_conv2dk3(32, 12),
                      Catch::StartsWith("bn_conv2dk3(): input_channels=12 must be a positive"));
}
