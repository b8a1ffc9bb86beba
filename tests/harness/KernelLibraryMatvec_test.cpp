// The built-in library's mv, cascade_mm and conv2dk1_i8 (harness/KernelLibraryMatvec.hpp,
// KernelLibraryConv.hpp): IRON's names and signatures (python/iron/kernels/linalg.py mv :205-252,
// cascade_mm :255-333, conv.py conv2dk1_i8 :145-166 at 3ca0193), their checks, and mv run in a
// one-core design with both kernel sets, its output equal to sums written out here. cascade_mm and
// conv2dk1_i8 run in the matmul_cascade and conv2d designs (tests/examples, both kernel sets).
#include "npusim/harness/KernelLibraryConv.hpp"
#include "npusim/harness/KernelLibraryMatvec.hpp"
#include "npusim/iron.hpp"
#include "support/HostBytes.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <random>

namespace iks = npusim::harness::iron_kernels;

namespace {

std::vector<std::string> mvlib_types(const npusim::iron::Kernel& k) {
    std::vector<std::string> out;
    for (const auto& t : k.arg_types()) out.push_back(t.str());
    return out;
}

// c = 0, then c += A * b once, on one core: the host's A, b and c
std::vector<std::int32_t> mvlib_run(const npusim::iron::Kernel& mv, const npusim::iron::Kernel& zero,
                                    const std::vector<std::int16_t>& a, const std::vector<std::int16_t>& b,
                                    std::int64_t m) {
    using namespace npusim;
    using namespace npusim::iron;
    const auto a_ty = tensor<std::int16_t>({static_cast<std::int64_t>(a.size())});
    const auto b_ty = tensor<std::int16_t>({static_cast<std::int64_t>(b.size())});
    const auto c_ty = tensor<std::int32_t>({m});
    ObjectFifo fa(a_ty, "A", 1), fb(b_ty, "b", 1), fc(c_ty, "c", 1);
    Worker w(
        [](ObjectFifoHandle ia, ObjectFifoHandle ib, ObjectFifoHandle oc, Kernel k, Kernel z) {
            auto ea = ia.acquire(1);
            auto eb = ib.acquire(1);
            auto ec = oc.acquire(1);
            z(ec);
            k(ea, eb, ec);
            ia.release(1);
            ib.release(1);
            oc.release(1);
        },
        fn_args(fa.cons(), fb.cons(), fc.prod(), mv, zero), WorkerOptions{.name = "mv"});
    Runtime rt(
        [](RuntimeData ha, RuntimeData hb, RuntimeData hc, ObjectFifoHandle pa, ObjectFifoHandle pb,
           ObjectFifoHandle cc) {
            pa.fill(ha);
            pb.fill(hb);
            cc.drain(hc, {.wait = true});
        },
        fn_args(a_ty, b_ty, c_ty, fa.prod(), fb.prod(), fc.cons()));
    const auto net = Program(model::device_by_name("npu1_1col"), rt, {w}, "mv").resolve();
    const auto r = sim::simulate(net, {test::bytes_of(a), test::bytes_of(b), std::vector<std::uint8_t>(m * 4)},
                                 test::sim_opts("npu1_1col"));
    return test::values_of<std::int32_t>(r.host[2]);
}

} // namespace

TEST_CASE("mv: IRON's signature, the zero sibling, and c = A * b in one core with either kernel set",
          "[harness][kernel_library]") {
    using namespace npusim;
    const auto mv = iks::mv();
    CHECK(mv.name() == "matvec_vectorized_i16_i32");
    CHECK(mvlib_types(mv) == std::vector<std::string>{"i16[1024]", "i16[32]", "i32[32]"});
    CHECK(iks::mv(32, 32, DType::i16, DType::i32, false).name() == "matvec_scalar_i16_i32");
    CHECK(iks::mv_zero().name() == "zero_vectorized_i32");
    CHECK(iks::mv_zero(32, false).name() == "zero_scalar_i32");
    CHECK(mvlib_types(iks::mv_zero(48)) == std::vector<std::string>{"i32[48]"});

    const std::int64_t m = 32, k = 64;
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> d(-32768, 32767);
    std::vector<std::int16_t> a(m * k), b(k);
    for (auto& x : a) x = static_cast<std::int16_t>(d(rng));
    for (auto& x : b) x = static_cast<std::int16_t>(d(rng));
    for (const bool vec : {true, false}) {
        // the sums written out: A row-major for the scalar kernel, word-transposed (mv.cc:44-53) for the vector one
        std::vector<std::int32_t> want(m);
        for (std::int64_t r = 0; r < m; ++r) {
            std::uint32_t s = 0;
            for (std::int64_t c = 0; c < k; ++c) {
                const auto at = vec ? (c / 2) * 2 * m + 2 * r + c % 2 : r * k + c;
                s += static_cast<std::uint32_t>(std::int32_t{a[static_cast<std::size_t>(at)]} * b[static_cast<std::size_t>(c)]);
            }
            want[static_cast<std::size_t>(r)] = static_cast<std::int32_t>(s);
        }
        for (const auto ks : {harness::KernelSet::reference, harness::KernelSet::aie}) {
            INFO((vec ? "vectorized" : "scalar") << (ks == harness::KernelSet::aie ? " aie" : " reference"));
            CHECK(mvlib_run(iks::mv(m, k, DType::i16, DType::i32, vec, ks), iks::mv_zero(m, vec, ks), a, b, m) == want);
        }
    }
}

TEST_CASE("cascade_mm and conv2dk1_i8: IRON's names and signatures", "[harness][kernel_library]") {
    using namespace npusim;
    const auto c = iks::cascade_mm(32, 16, 8, DType::i16, DType::i32);
    CHECK(c.get_only.name() == "matmul_scalar_cascade_get_only_i16_i32");
    CHECK(c.put_only.name() == "matmul_scalar_cascade_put_only_i16_i32");
    CHECK(c.put_get.name() == "matmul_scalar_cascade_put_get_i16_i32");
    CHECK(c.zero.name() == "zero_scalar_i32");
    const std::vector<std::string> abc{"i16[512]", "i16[128]", "i32[256]"};
    CHECK(mvlib_types(c.get_only) == abc);
    CHECK(mvlib_types(c.put_only) == abc);
    CHECK(mvlib_types(c.put_get) == abc);
    CHECK(iks::cascade_mm().get_only.name() == "matmul_scalar_cascade_get_only_i16_i16");
    const auto conv = iks::conv2dk1_i8();
    CHECK(conv.name() == "conv2dk1_i8");
    CHECK(mvlib_types(conv) == std::vector<std::string>{"i8[2048]", "i8[4096]", "i8[2048]", "i32 scalar", "i32 scalar",
                                                        "i32 scalar", "i32 scalar"});
    // conv2dk1: conv2dk1.cc's symbols, uint8 output
    CHECK(iks::conv2dk1().name() == "conv2dk1_i8");
    const auto ui8 = iks::conv2dk1(32, 64, 64, DType::u8, harness::KernelSet::aie);
    CHECK(ui8.name() == "conv2dk1_ui8");
    CHECK(mvlib_types(ui8) == std::vector<std::string>{"u8[2048]", "i8[4096]", "u8[2048]", "i32 scalar", "i32 scalar",
                                                       "i32 scalar", "i32 scalar"});
    // conv2dk1_skip: conv2dk1_skip.cc's symbols; two channel halves, the skip in the activation type
    const auto skip = iks::conv2dk1_skip(32, 64, 64, DType::u8);
    CHECK(skip.name() == "conv2dk1_skip_ui8");
    CHECK(iks::conv2dk1_skip().name() == "conv2dk1_skip_i8");
    const auto st = mvlib_types(skip);
    CHECK(std::vector<std::string>(st.begin(), st.begin() + 5) ==
          std::vector<std::string>{"u8[1024]", "u8[1024]", "i8[4096]", "u8[2048]", "u8[2048]"});
    CHECK(st.size() == 10);
    // conv2dk1_skip_init: the projection's weights after the main ones, skip_input_channels defaulting to ci
    const auto si = iks::conv2dk1_skip_init(32, 64, 32, DType::i8, 16);
    CHECK(si.name() == "conv2dk1_skip_init_i8");
    const auto sit = mvlib_types(si);
    CHECK(std::vector<std::string>(sit.begin(), sit.begin() + 5) ==
          std::vector<std::string>{"u8[1024]", "u8[1024]", "i8[2560]", "u8[1024]", "i8[512]"});
    CHECK(sit.size() == 12);
    CHECK(mvlib_types(iks::conv2dk1_skip_init())[4] == "i8[2048]");
    // the bottleneck 1x1 convolutions IRON builds with -DREGULAR
    CHECK(iks::bn_conv2dk1_relu().name() == "conv2dk1_relu_i8_ui8");
    CHECK(mvlib_types(iks::bn_conv2dk1_relu(8, 16, 8)) ==
          std::vector<std::string>{"i8[128]", "i8[128]", "u8[64]", "i32 scalar", "i32 scalar", "i32 scalar", "i32 scalar"});
    const auto bi8 = iks::bn_conv2dk1_i8(32, 64, 64, harness::KernelSet::aie);
    CHECK(bi8.name() == "conv2dk1_ui8_i8");
    CHECK(mvlib_types(bi8)[0] == "u8[2048]");
    CHECK(mvlib_types(bi8)[2] == "i8[2048]");
    CHECK(iks::bn_conv2dk1_skip().name() == "conv2dk1_skip_ui8_ui8_i8");
    const auto bsk = iks::bn_conv2dk1_skip(32, 64, 64, DType::i8, harness::KernelSet::aie);
    CHECK(bsk.name() == "conv2dk1_skip_ui8_i8_i8");
    CHECK(mvlib_types(bsk) == std::vector<std::string>{"u8[2048]", "i8[4096]", "i8[2048]", "i8[2048]", "i32 scalar",
                                                       "i32 scalar", "i32 scalar", "i32 scalar", "i32 scalar"});
}

TEST_CASE("mv / cascade_mm / conv2dk1_i8 errors", "[harness][kernel_library][errors]") {
    using namespace npusim;
    CHECK_THROWS_WITH(iks::mv(32, 32, DType::i16, DType::i16), "mv(): only (np.int16, np.int32) is supported, got (i16, i16)");
    CHECK_THROWS_WITH(iks::mv(32, 12), "mv(): dim_m=32 and dim_k=12 must be multiples of 16 and 8 for the vectorized "
                                       "kernel (mv.cc's static_asserts, r = 16, s = 8)");
    CHECK_NOTHROW(iks::mv(24, 12, DType::i16, DType::i32, false)); // the scalar kernel takes any size
    CHECK_THROWS_WITH(iks::mv(0, 32), "mv(): dim_m=0 must be positive");
    CHECK_THROWS_WITH(iks::cascade_mm(64, 64, 64, DType::bf16, DType::bf16),
                      "cascade_mm(): the bf16 -> bf16 build is not in npusim's kernel library (i16 -> i16 and i16 -> "
                      "i32 are)");
    CHECK_THROWS_WITH(iks::cascade_mm(64, 64, 64, DType::i16, DType::i8),
                      Catch::Contains("cascade_mm(): unsupported (input_dtype, output_dtype) = (i16, i8)"));
    CHECK_THROWS_WITH(iks::conv2dk1_i8(30), Catch::Contains("conv2dk1_i8(): input_width=30 must be a positive multiple of 4"));
    CHECK_THROWS_WITH(iks::conv2dk1_i8(32, 64, 0), Catch::Contains("output_channels=0"));
    CHECK_THROWS_WITH(iks::conv2dk1(32, 64, 64, DType::bf16), "conv2dk1(): act_dtype must be np.int8 or np.uint8, got bf16");
    CHECK_THROWS_WITH(iks::conv2dk1(32, 20, 64), Catch::Contains("conv2dk1(): input_channels=20"));
    CHECK_THROWS_WITH(iks::conv2dk1_skip(32, 24, 64), Catch::Contains("conv2dk1_skip(): input_channels=24 must be a "
                                                                      "multiple of 16"));
    CHECK_THROWS_WITH(iks::conv2dk1_skip(32, 64, 64, DType::i32), Catch::Contains("act_dtype must be np.int8"));
    CHECK_THROWS_WITH(iks::conv2dk1_skip_init(32, 64, 64, DType::u8), Catch::Contains("it computes nothing"));
    CHECK_THROWS_WITH(iks::bn_conv2dk1_relu(32, 60, 64), Catch::Contains("bn_conv2dk1_relu(): input_channels=60"));
    // the bottleneck 1x1 builds are scalar loops over every pixel: any positive width (mobilenet's 14,
    // pipeline.py:79 / regular.py:91), channels still in groups of 8, which the loops count
    for (const std::int64_t w : {14, 7, 1}) {
        CHECK(mvlib_types(iks::bn_conv2dk1_relu(w, 16, 8))[2] == fmt::format("u8[{}]", w * 8));
        CHECK(mvlib_types(iks::bn_conv2dk1_i8(w, 16, 8, harness::KernelSet::aie))[0] == fmt::format("u8[{}]", w * 16));
        CHECK(mvlib_types(iks::bn_conv2dk1_skip(w, 16, 8, DType::i8))[3] == fmt::format("i8[{}]", w * 8));
    }
    CHECK_THROWS_WITH(iks::bn_conv2dk1_relu(0), "bn_conv2dk1_relu(): input_width=0 must be positive");
    CHECK_THROWS_WITH(iks::bn_conv2dk1_i8(14, 64, 12),
                      "bn_conv2dk1_i8(): output_channels=12 must be a positive multiple of 8 (upstream's loops run "
                      "over output_channels / 8 groups of 8 channels and would skip the rest)");
    CHECK_THROWS_WITH(iks::bn_conv2dk1_skip(-2), "bn_conv2dk1_skip(): input_width=-2 must be positive");
    CHECK_THROWS_WITH(iks::conv2dk1_i8(14), Catch::Contains("conv2dk1_i8(): input_width=14 must be a positive multiple of 4"));
    CHECK_THROWS_WITH(iks::bn_conv2dk1_skip(32, 64, 64, DType::bf16),
                      "bn_conv2dk1_skip(): skip_dtype must be np.uint8 or np.int8, got bf16");
}
