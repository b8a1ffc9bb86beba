// `npusim run` / `npusim golden` as a golden-model test tool, end to end: .npy inputs, saved
// outputs, expected files (deliberately wrong ones too), float tolerances, --kernels=aie, and the
// error texts and exit codes for files that do not fit.
#include "CliRun.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/NpyFile.hpp"
#include "npusim/iron.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

using namespace npusim;
using namespace npusim::harness;

namespace {

using npusim::test::Out;
using npusim::test::cli;
// CHECK(r.code == code), showing the output when it fails.
#define CHECK_CODE(r, want)                                                                                            \
    do {                                                                                                               \
        INFO((r).out << (r).err);                                                                                      \
        CHECK((r).code == (want));                                                                                     \
    } while (false)

using npusim::test::TempDir;

// A float design: y = x * 0.1f (f32, rtol 1e-6) and z = bf16(x * 3) (bf16, rtol 1e-2), computed in
// the core body. Its reference does the same float arithmetic.
constexpr std::int64_t kN = 64;
void register_float_design() {
    static bool done = false;
    if (done) return;
    done = true;
    DesignSpec s;
    s.name = "test_fscale";
    s.description = "test: f32 and bf16 outputs";
    s.devices = {"npu1_1col", "npu2_1col"};
    s.kernels_note = "no external kernel: the body computes";
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        using namespace iron;
        const auto f_ty = tensor<float>({kN}), b_ty = tensor<bfloat16>({kN});
        ObjectFifo fx(f_ty, "x"), fy(f_ty, "y"), fz(b_ty, "z");
        Worker w(
            [](ObjectFifoHandle hx, ObjectFifoHandle hy, ObjectFifoHandle hz) {
                auto ex = hx.acquire(1), ey = hy.acquire(1), ez = hz.acquire(1);
                auto x = ex.as<float>();
                auto y = ey.as<float>();
                auto z = ez.as<bfloat16>();
                for (std::size_t i = 0; i < x.size(); ++i) {
                    y[i] = x[i] * 0.1f;
                    z[i] = bfloat16(x[i] * 3.0f);
                }
                add_cycles(2 * x.size());
                hx.release(1);
                hy.release(1);
                hz.release(1);
            },
            fn_args(fx.cons(), fy.prod(), fz.prod()), {.name = "fscale"});
        Runtime rt(
            [](RuntimeData x, RuntimeData y, RuntimeData z, ObjectFifoHandle hx, ObjectFifoHandle hy,
               ObjectFifoHandle hz) {
                hx.fill(x);
                hy.drain(y, {.wait = true});
                hz.drain(z, {.wait = true});
            },
            fn_args(f_ty, f_ty, b_ty, fx.prod(), fy.cons(), fz.cons()));
        std::vector<float> x(kN);
        for (std::int64_t i = 0; i < kN; ++i)
            x[static_cast<std::size_t>(i)] = static_cast<float>(i) * 1.25f - 30.0f + static_cast<float>(o.seed);
        auto reference = [f_ty, b_ty](const Tensors& in) {
            const auto xs = get(in, "x").values<float>();
            std::vector<float> y(xs.size());
            std::vector<bfloat16> z(xs.size());
            for (std::size_t i = 0; i < xs.size(); ++i) {
                y[i] = xs[i] * 0.1f;
                z[i] = bfloat16(xs[i] * 3.0f);
            }
            return Tensors{{"y", Tensor::from(f_ty.shape, y)}, {"z", Tensor::from(b_ty.shape, z)}};
        };
        return DesignInstance(
            Program(dev, rt, {w}, "test_fscale"),
            {ArgSpec::input("x", f_ty), ArgSpec::output("y", f_ty, 1e-6, 0), ArgSpec::output("z", b_ty, 1e-2, 0)},
            {{"x", Tensor::from(f_ty.shape, x)}}, reference, "test_fscale");
    };
    register_design(s);
}

} // namespace

TEST_CASE("cli: inputs from .npy files, outputs saved as .npy", "[cli][golden]") {
    TempDir d("npusim_cli_golden_io");
    std::vector<std::int16_t> a(4096);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int16_t>(static_cast<int>(i % 2000) - 1000);
    NpyFile::write(d.file("a.npy"), Tensor::from<std::int16_t>({4096}, a));
    NpyFile::write(d.file("f.npy"), Tensor::from<std::int32_t>({1}, {5}));
    const auto r = cli({"run", "vector_scalar_mul", "--input", "a=" + d.file("a.npy"),
                        "--input=factor=" + d.file("f.npy"), "--save-outputs", d.file("out")});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains(fmt::format("  inputs       a i16[4096] ({}), factor i32[1] ({})\n",
                                                  d.file("a.npy"), d.file("f.npy"))));
    CHECK_THAT(r.out, Catch::Contains("  output c (arg 1)          4,096 elements  match\n"));
    CHECK_THAT(r.out, Catch::Contains(fmt::format(
                          "  saved        4 files to {}: a.npy c.npy c.expected.npy factor.npy\n", d.file("out"))));
    const auto c = NpyFile::read(d.file("out/c.npy")).values<std::int16_t>();
    for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(c[i] == static_cast<std::int16_t>(a[i] * 5));
    CHECK(NpyFile::read(d.file("out/c.expected.npy")).values<std::int16_t>() == c);
    // `golden` is the same command.
    const auto g = cli({"golden", "vector_scalar_mul", "--input", "a=" + d.file("a.npy")});
    CHECK(g.code == 0);
    CHECK_THAT(g.out, Catch::Contains("result: PASS"));
}

TEST_CASE("cli: a deliberately wrong expected file gives exit code 1 and an aligned report", "[cli][golden]") {
    TempDir d("npusim_cli_golden_wrong");
    REQUIRE(cli({"run", "vector_scalar_mul", "--seed", "4", "--save-outputs", d.file("ok")}).code == 0);
    auto c = NpyFile::read(d.file("ok/c.npy")).values<std::int16_t>();
    const auto orig = c;
    c[7] = static_cast<std::int16_t>(c[7] + 1);
    for (int i = 100; i < 110; ++i)
        c[static_cast<std::size_t>(i)] = static_cast<std::int16_t>(c[static_cast<std::size_t>(i)] - 2);
    NpyFile::write(d.file("wrong.npy"), Tensor::from<std::int16_t>({4096}, c));
    const auto r = cli({"run", "vector_scalar_mul", "--seed", "4", "--expect", "c=" + d.file("wrong.npy")});
    CHECK(r.code == 1);
    CHECK_THAT(r.out,
               Catch::Contains(fmt::format("  output c (arg 1)          4,096 elements  MISMATCH (11 differ)  vs {}\n",
                                           d.file("wrong.npy"))));
    CHECK_THAT(r.out, Catch::Contains("    11 of 4096 elements differ at [7], [100]..[109]\n"));
    CHECK_THAT(r.out, Catch::Contains("    ... 3 more\n"));
    // The side-by-side table: header, then one row per value, right-aligned columns.
    const auto table = r.out.find('\n', r.out.find("differ at [7]"));
    REQUIRE(table != std::string::npos);
    std::istringstream rows(r.out.substr(table + 1));
    std::string header, first;
    std::getline(rows, header);
    std::getline(rows, first);
    CHECK_THAT(header, Catch::Matches(R"(    \s*index\s+got\s+want)"));
    CHECK_THAT(first, Catch::Matches(fmt::format(R"(\s+\[7\]\s+{}\s+{})", orig[7], c[7])));
    CHECK(header.size() == first.size());
    CHECK_THAT(r.out, Catch::EndsWith("result: FAIL (output mismatch)\n"));
    // --json carries the indices and the values.
    const auto j = nlohmann::json::parse(
        cli({"run", "vector_scalar_mul", "--seed", "4", "--json", "--expect", "c=" + d.file("wrong.npy")}).out);
    CHECK(j["status"] == "mismatch");
    CHECK(j["outputs"][0]["mismatch_indices"][0] == 7);
    // Values as numbers (and as the summary's text).
    CHECK(j["outputs"][0]["first"][0]["got"] == orig[7]);
    CHECK(j["outputs"][0]["first"][0]["want"] == c[7]);
    CHECK(j["outputs"][0]["first"][0]["got_text"] == std::to_string(orig[7]));
    CHECK(j["outputs"][0]["expected_from"] == d.file("wrong.npy"));
}

TEST_CASE("cli: float outputs pass within the design's tolerance and fail outside --rtol/--atol", "[cli][golden]") {
    register_float_design();
    TempDir d("npusim_cli_golden_float");
    auto r = cli({"run", "test_fscale", "--save-outputs", d.file("out")});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(
        r.out,
        Catch::Contains(
            "  output y (arg 1)             64 elements  match  (max abs err 0, max rel err 0; rtol 1e-06, atol 0)\n"));
    CHECK_THAT(
        r.out,
        Catch::Contains(
            "  output z (arg 2)             64 elements  match  (max abs err 0, max rel err 0; rtol 0.01, atol 0)\n"));
    // bf16 is saved with descr '<V2'.
    CHECK(NpyFile::read(d.file("out/z.npy")).dtype == DType::bf16);

    // Expected y off by a relative 1e-5 at two places, z off by one bf16 ulp at one.
    auto y = NpyFile::read(d.file("out/y.npy")).values<float>();
    y[5] *= 1.00001f;
    y[40] *= 0.99999f;
    NpyFile::write(d.file("y.npy"), Tensor::from<float>({kN}, y));
    auto z = NpyFile::read(d.file("out/z.npy")).values<bfloat16>();
    z[3] = bfloat16::from_bits(static_cast<std::uint16_t>(z[3].bits + 1));
    NpyFile::write(d.file("z.npy"), Tensor::from<bfloat16>({kN}, z));
    const std::string ey = "y=" + d.file("y.npy"), ez = "z=" + d.file("z.npy");

    r = cli({"run", "test_fscale", "--expect", ey, "--expect", ez});
    CHECK(r.code == 1); // y fails rtol 1e-6; z passes rtol 1e-2
    CHECK_THAT(r.out, Catch::Contains("  output y (arg 1)             64 elements  MISMATCH (2 differ)  (max abs err"));
    CHECK_THAT(r.out, Catch::Contains("    2 of 64 elements differ at [5], [40]\n"));
    CHECK_THAT(r.out, Catch::Contains("(tolerance: rtol 1e-06, atol 0)\n"));
    CHECK_THAT(r.out, Catch::Matches(R"([\s\S]*\n +index +got +want +abs err +rel err\n +\[5\] [\s\S]*)"));
    CHECK_THAT(r.out, Catch::Contains("  output z (arg 2)             64 elements  match"));

    r = cli({"run", "test_fscale", "--expect", ey, "--rtol", "1e-4"});
    CHECK_CODE(r, 0);
    // --rtol applies to every float output: z's one-ulp difference (rel 0.0065) now fails.
    r = cli({"run", "test_fscale", "--expect", ey, "--expect", ez, "--rtol", "1e-4"});
    CHECK_CODE(r, 1);
    CHECK_THAT(r.out,
               Catch::Contains(
                   "  output y (arg 1)             64 elements  match  (max abs err 2.29e-05, max rel err 1.01e-05; "
                   "rtol 0.0001, atol 0)  vs "));
    r = cli({"run", "test_fscale", "--expect", ey, "--expect", ez, "--rtol=0", "--atol=0"});
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("  output z (arg 2)             64 elements  MISMATCH (1 differ)"));
    CHECK_THAT(r.out, Catch::Contains("    1 of 64 elements differ at [3]\n"));
    r = cli({"run", "test_fscale", "--expect", ey, "--atol", "0.01"});
    CHECK(r.code == 0);
    // --tolerance nearly-equal (mlir-aie verify.py): y's relative 1e-5 differences are under
    // rtol x (|got| + |want|) with rtol 6e-6, which allclose's rtol x |want| is not.
    r = cli({"run", "test_fscale", "--expect", ey, "--rtol", "6e-6"});
    CHECK_CODE(r, 1);
    r = cli({"run", "test_fscale", "--expect", ey, "--rtol", "6e-6", "--tolerance", "nearly-equal"});
    CHECK_CODE(r, 0);
    r = cli({"run", "test_fscale", "--tolerance", "close"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("--tolerance expects allclose or nearly-equal, got 'close'"));
}

TEST_CASE("cli: files that do not fit the design are errors with exit code 2", "[cli][golden]") {
    TempDir d("npusim_cli_golden_err");
    NpyFile::write(d.file("i32.npy"), Tensor(DType::i32, {4096}));
    NpyFile::write(d.file("2d.npy"), Tensor(DType::i16, {64, 64}));
    {
        std::ofstream f(d.file("junk.npy"));
        f << "not numpy";
    }
    auto r = cli({"run", "vector_scalar_mul", "--input", "a=" + d.file("missing.npy")});
    CHECK(r.code == 2);
    CHECK(r.err ==
          fmt::format("npusim: file error: cannot open '{}': No such file or directory\n", d.file("missing.npy")));
    r = cli({"run", "vector_scalar_mul", "--input", "a=" + d.file("i32.npy")});
    CHECK(r.code == 2);
    CHECK(r.err ==
          fmt::format(
              "npusim: file error: '{}': dtype int32 ('<i4') does not match input 'a' of design 'vector_scalar_mul', "
              "which is int16 ('<i2'), shape (4096,)\n",
              d.file("i32.npy")));
    r = cli({"run", "vector_scalar_mul", "--input", "a=" + d.file("2d.npy")});
    CHECK(r.code == 2);
    CHECK(r.err ==
          fmt::format(
              "npusim: file error: '{}': shape (64, 64) does not match input 'a' of design 'vector_scalar_mul', which "
              "has shape (4096,) (int16)\n",
              d.file("2d.npy")));
    r = cli({"run", "vector_scalar_mul", "--expect", "c=" + d.file("junk.npy")});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("not a .npy file"));
    r = cli({"run", "vector_scalar_mul", "--input", "c=" + d.file("2d.npy")});
    CHECK(r.code == 2);
    CHECK(r.err == "npusim: design error: --input: argument 'c' of design 'vector_scalar_mul' is an output, not an "
                   "input (inputs: a, "
                   "factor)\n");
    r = cli({"run", "vector_scalar_mul", "--input", "q=" + d.file("2d.npy")});
    CHECK(r.err ==
          "npusim: design error: --input: design 'vector_scalar_mul' has no argument 'q' (inputs: a, factor)\n");
    r = cli({"run", "vector_scalar_mul", "--json", "--input", "a=" + d.file("i32.npy")});
    CHECK(r.code == 2);
    CHECK(nlohmann::json::parse(r.out)["status"] == "file_error");
    // Usage errors.
    r = cli({"run", "vector_scalar_mul", "--input", "a.npy"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("npusim: usage error: --input expects NAME=FILE.npy, got 'a.npy'"));
    r = cli({"run", "vector_scalar_mul", "--rtol", "tight"});
    CHECK_THAT(r.err, Catch::Contains("npusim: usage error: --rtol expects a non-negative number, got 'tight'"));
    r = cli({"run", "vector_scalar_mul", "--atol=-1"});
    CHECK_THAT(r.err, Catch::Contains("npusim: usage error: --atol expects a non-negative number, got '-1'"));
    r = cli({"run", "vector_scalar_mul", "--kernels", "chess"});
    CHECK_THAT(r.err, Catch::Contains("npusim: usage error: --kernels expects ref or aie, got 'chess'"));
    r = cli({"run", "vector_scalar_mul", "--json=yes"});
    CHECK_THAT(r.err, Catch::Contains("npusim: usage error: --json takes no value"));
    r = cli({"run", "vector_scalar_mul", "--input", "a=x.npy", "--input", "a=y.npy"});
    CHECK_THAT(r.err, Catch::Contains("npusim: usage error: --input a is given twice"));
    // Tolerances on an integer design are noted, not applied.
    r = cli({"run", "vector_scalar_mul", "--rtol", "0.5"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out,
               Catch::Contains("  note: design 'vector_scalar_mul' has no float outputs: rtol/atol do not apply"));
}

TEST_CASE("cli: --kernels=aie runs E1 and E3 with the AIE-API kernels on npu1 and npu2", "[cli][golden][aie]") {
    for (const char* device : {"npu1", "npu2"}) {
        for (const char* design : {"passthrough_kernel", "vector_scalar_mul"}) {
            INFO(design << " on " << device);
            const auto r = cli({"run", design, "--kernels=aie", "--device", device});
            CHECK(r.code == 0);
            CHECK_THAT(r.out, Catch::Contains("  kernels      aie (AIE-API kernel sources, kernels_ref/aie)\n"));
            CHECK_THAT(r.out, Catch::Contains("result: PASS"));
            const auto ref = cli({"run", design, "--kernels", "ref", "--device", device});
            CHECK(ref.code == 0);
            CHECK_THAT(ref.out, Catch::Contains("  kernels      ref (reference C++ kernels)\n"));
        }
    }
    auto r = cli({"run", "passthrough_dmas", "--kernels=aie"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err,
               Catch::StartsWith(
                   "npusim: design error: design 'passthrough_dmas' has no AIE-API kernel build (no kernel: data "
                   "moves by DMA only); designs with one: passthrough_kernel, vector_scalar_mul"));
    r = cli({"run", "vector_vector_add", "--kernels=aie"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("(no external kernel: the add runs in the core body)"));
    r = cli({"run", "vector_vector_add"});
    CHECK_THAT(r.out, Catch::Contains("  kernels      no external kernel: the add runs in the core body\n"));
}

TEST_CASE("cli: args lists a design's runtime arguments, help documents the golden options", "[cli][golden]") {
    const auto r = cli({"args", "vector_scalar_mul", "--param", "bits=32"});
    CHECK(r.code == 0);
    CHECK(r.out == "arg name    role    type       npy       comparison\n"
                   "0   a       input   i32[4096]  <i4       -\n"
                   "1   c       output  i32[4096]  <i4       exact\n"
                   "2   factor  input   i32[1]     <i4       -\n");
    // The help wraps descriptions at its width: compare with its whitespace runs as one space.
    const auto help = std::regex_replace(cli({"--help"}).out, std::regex(R"(\s+)"), " ");
    for (const char* s :
         {"npusim golden DESIGN", "--input NAME=FILE", "--expect NAME=FILE", "--save-outputs DIR", "--rtol X", "--atol Y",
          "--kernels ref|aie", "passthrough_dmas (E2) and transpose_dma move data by DMA only (no kernel)",
          "vector_vector_add (E4) has no external kernel", "passthrough_kernel (E1: passThrough)",
          "vector_scalar_mul (E3: scale)"})
        CHECK_THAT(help, Catch::Contains(s));
}
