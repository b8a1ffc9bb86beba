// The run-time kernel compiler (harness/KernelCompiler.hpp): ExternalFunction sources compiled for the
// host when the program runs, cached by content, loaded with dlopen and run in designs; its errors.
// Each test case uses its own cache folder (NPUSIM_CACHE_DIR), so compile counts start from nothing.
#include "npusim/frontend/ExternalFunction.hpp"
#include "npusim/harness/KernelCompiler.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;

namespace {

const std::string kExternal = std::string(NPUSIM_TEST_SOURCE_DIR) + "/external";

// NPUSIM_CACHE_DIR pointing at a fresh folder for the test case's life.
struct FreshCache {
    test::TempDir dir{"npusim_kcache"};
    std::string saved;
    bool had = false;
    FreshCache() {
        if (const char* v = std::getenv("NPUSIM_CACHE_DIR")) {
            had = true;
            saved = v;
        }
        ::setenv("NPUSIM_CACHE_DIR", dir.path.c_str(), 1);
    }
    ~FreshCache() {
        if (had)
            ::setenv("NPUSIM_CACHE_DIR", saved.c_str(), 1);
        else
            ::unsetenv("NPUSIM_CACHE_DIR");
    }
};

// An AIE-API kernel: out = in * factor >> 3, rounded to nearest even and saturated to int16 (modes
// the kernel sets itself), 32 lanes at a time over 64 elements.
const char* const kScaleSource = R"(#include <aie_api/aie.hpp>
#include <cstdint>
extern "C" void jit_scale(const int16_t* in, int16_t* out, int32_t factor) {
    aie::set_rounding(aie::rounding_mode::conv_even);
    aie::set_saturation(aie::saturation_mode::saturate);
    for (int i = 0; i < 64; i += 32) {
        const aie::vector<int16, 32> x = aie::load_v<32>(in + i);
        aie::store_v(out + i, aie::mul(x, int16(factor)).template to_vector<int16>(3));
    }
}
)";

std::int16_t scale_ref(std::int16_t x, std::int32_t factor) {
    const double v = std::nearbyint(static_cast<double>(x) * factor / 8.0); // ties to even (default FE mode)
    return static_cast<std::int16_t>(std::clamp(v, -32768.0, 32767.0));
}

// Bytes through a one-worker design: in -> k(in, out[, scalar]) -> out, `obj` bytes per object.
template <class Call>
std::vector<std::uint8_t> run_bytes(const ExternalFunction& f, const TensorType& obj,
                                    const std::vector<std::uint8_t>& in, Call call) {
    ObjectFifo a(obj, "a"), b(obj, "b");
    const auto objs = static_cast<std::int64_t>(in.size() / obj.bytes());
    Worker w(
        [objs, call](ObjectFifoHandle i, ObjectFifoHandle o, ExternalFunction k) {
            for (std::int64_t t = 0; t < objs; ++t) {
                auto ei = i.acquire(1);
                auto eo = o.acquire(1);
                call(k, ei, eo);
                i.release(1);
                o.release(1);
            }
        },
        fn_args(a.cons(), b.prod(), f), {.name = "jit"});
    const auto ty = TensorType{obj.dtype, {objs * obj.elements()}};
    Runtime rt(
        [](RuntimeData x, RuntimeData y, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(x);
            o.drain(y, {.wait = true});
        },
        fn_args(ty, ty, a.prod(), b.cons()));
    const auto r =
        sim::simulate(Program("npu2_1col", rt, {w}).resolve(), {in, std::vector<std::uint8_t>(in.size())}, {});
    return r.host[1];
}

} // namespace

TEST_CASE("an ExternalFunction compiled from source_string runs in a design, byte-exact", "[harness][jit]") {
    FreshCache cache;
    const auto tile = tensor<std::int16_t>({64});
    ExternalFunction f("jit_scale", {tile, tile, scalar<std::int32_t>()}, {.source_string = kScaleSource});
    CHECK(f.build().source_file == "<source_string>");
    std::vector<std::int16_t> in(256);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::int16_t>((i * 997) % 65536 - 32768);
    in[0] = 1; // 1 * 100 / 8 = 12.5: a tie, to even (12)
    in[1] = 3; // 37.5 -> 38
    in[2] = 32767; // saturates
    in[3] = -32768;
    const auto out =
        run_bytes(f, tile, bytes_of(in), [](const ExternalFunction& k, auto& i, auto& o) { k(i, o, 100); });
    std::vector<std::int16_t> want(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) want[i] = scale_ref(in[i], 100);
    CHECK(want[0] == 12);
    CHECK(want[1] == 38);
    CHECK(want[2] == 32767);
    CHECK(want[3] == -32768);
    CHECK(out == bytes_of(want));
}

TEST_CASE("a second use of the same source is a cache hit, a changed flag compiles again", "[harness][jit]") {
    FreshCache cache;
    const auto tile = tensor<std::int32_t>({64});
    const std::vector<ArgType> types{tile, tile, scalar<std::int32_t>()};
    // the linked builds of ext_affine.cc (tests/harness/CMakeLists.txt) have one include dir: none matches
    const ExternalFunctionOptions opts{.source_file = kExternal + "/ext_affine.cc",
                                       .include_dirs = {kExternal + "/include", kExternal},
                                       .compile_flags = {"-DDIM_M=64"}};
    const auto before = harness::kernel_compiler_stats();
    ExternalFunction first("ext_affine", types, opts); // no linked build has these include dirs
    const auto after_first = harness::kernel_compiler_stats();
    CHECK(after_first.compiles == before.compiles + 1);
    ExternalFunction second("ext_affine", types, opts);
    const auto after_second = harness::kernel_compiler_stats();
    CHECK(after_second.compiles == after_first.compiles); // not compiled again
    CHECK(after_second.cache_hits == after_first.cache_hits + 1);
    CHECK(&first.build() == &second.build());
    std::vector<std::int32_t> in(128);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::int32_t>(i) * 11 - 500;
    const auto out =
        run_bytes(second, tile, bytes_of(in), [](const ExternalFunction& k, auto& i, auto& o) { k(i, o, 3); });
    std::vector<std::int32_t> want(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) want[i] = in[i] * 3 + 5; // ext_affine_offset.h: EXT_OFFSET 5
    CHECK(out == bytes_of(want));

    auto other = opts;
    other.compile_flags = {"-DDIM_M=32"};
    ExternalFunction third("ext_affine", types, other);
    CHECK(harness::kernel_compiler_stats().compiles == after_second.compiles + 1);
}

TEST_CASE("a header the build read changed: the cached library is rebuilt", "[harness][jit]") {
    FreshCache cache;
    test::TempDir inc("npusim_kinc");
    std::ofstream(inc.file("ext_affine_offset.h")) << "#define EXT_OFFSET 5\n";
    const auto tile = tensor<std::int32_t>({64});
    const std::vector<ArgType> types{tile, tile, scalar<std::int32_t>()};
    const ExternalFunctionOptions opts{.source_file = kExternal + "/ext_affine.cc",
                                       .include_dirs = {inc.path.string()},
                                       .compile_flags = {"-DDIM_M=64"}};
    std::vector<std::int32_t> in(64, 10);
    const auto run = [&](const ExternalFunction& f) {
        return run_bytes(f, tile, bytes_of(in), [](const ExternalFunction& k, auto& i, auto& o) { k(i, o, 2); });
    };
    const auto c0 = harness::kernel_compiler_stats().compiles;
    CHECK(run(ExternalFunction("ext_affine", types, opts)) == bytes_of(std::vector<std::int32_t>(64, 25)));
    std::ofstream(inc.file("ext_affine_offset.h")) << "#define EXT_OFFSET 7\n";
    CHECK(run(ExternalFunction("ext_affine", types, opts)) == bytes_of(std::vector<std::int32_t>(64, 27)));
    CHECK(harness::kernel_compiler_stats().compiles == c0 + 2);
}

TEST_CASE("the core modes a run-time kernel sets stay with its worker for the next call", "[harness][jit]") {
    FreshCache cache;
    // in[0] == 1: select conv_even / saturate first; every call: out = in * 100 >> 3 with the worker's
    // current modes (hardware reset: floor / none). (The body's own calls cannot choose: resolve traces
    // the body once before the run.)
    const char* const source = R"(#include <aie_api/aie.hpp>
#include <cstdint>
extern "C" void jit_modes(const int16_t* in, int16_t* out) {
    if (in[0] == 1) {
        aie::set_rounding(aie::rounding_mode::conv_even);
        aie::set_saturation(aie::saturation_mode::saturate);
    }
    for (int i = 0; i < 64; i += 32)
        aie::store_v(out + i, aie::mul(aie::load_v<32>(in + i), int16(100)).template to_vector<int16>(3));
}
)";
    const auto tile = tensor<std::int16_t>({64});
    ExternalFunction f("jit_modes", {tile, tile}, {.source_string = source});
    std::vector<std::int16_t> in(128, 0);
    in[0] = 1; // 12.5: floor 12, conv_even 12
    in[1] = 3; // 37.5: floor 37, conv_even 38
    in[2] = 32767; // floor / none wraps, saturate clamps
    in[64] = 3;
    in[65] = 32767;
    const auto out = run_bytes(f, tile, bytes_of(in), [](const ExternalFunction& k, auto& i, auto& o) { k(i, o); });
    std::vector<std::int16_t> got(128);
    std::memcpy(got.data(), out.data(), out.size());
    CHECK(got[1] == 38);
    CHECK(got[2] == 32767);
    CHECK(got[64] == 38); // the second call set nothing: the modes of the first call stayed
    CHECK(got[65] == 32767);
}

TEST_CASE("two processes building the same source at once share one cache entry", "[harness][jit]") {
    FreshCache cache;
    harness::HostKernelSpec spec{.source_string = kScaleSource, .names = {"jit_scale"}};
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) _exit(harness::build_host_kernel(spec).ok ? 0 : 1);
    const auto mine = harness::build_host_kernel(spec);
    int status = -1;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK(mine.ok);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    // one entry, no temporary or stale folder left, and a later build is a hit on it
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(cache.dir.path / "kernels"))
        names.push_back(e.path().filename().string());
    REQUIRE(names.size() == 1);
    CHECK(names[0].front() != '.');
    const auto again = harness::build_host_kernel(spec);
    CHECK(again.from_cache);
    CHECK(again.library.parent_path().filename() == names[0]);
}

TEST_CASE("a source using aie:: without including aie.hpp builds as under Peano", "[harness][jit]") {
    FreshCache cache;
    const auto tile = tensor<std::int32_t>({64});
    // included after aie.hpp by its user (mm.cc and zero.cc): compiles and runs
    ExternalFunction f("jit_zero_then_copy", {tile, tile}, {.source_file = kExternal + "/jit_uses_zero.cc"});
    std::vector<std::int32_t> in(64);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::int32_t>(i) - 7;
    CHECK(run_bytes(f, tile, bytes_of(in), [](const ExternalFunction& k, auto& i, auto& o) { k(i, o); }) ==
          bytes_of(in));
    // on its own, nothing declares aie::, as under Peano: its driver force-includes only the
    // intrinsics header (aiev2intrin.h / aie2pintrin.h), which has no aie:: (docs/upstream-kernels.md)
    CHECK_THROWS_WITH(ExternalFunction("jit_zero_alone", {tile}, {.source_file = kExternal + "/jit_zero_alone.cc"}),
                      Catch::StartsWith("ExternalFunction 'jit_zero_alone': " + kExternal +
                                        "/jit_zero_alone.cc does not compile for the host: " + kExternal +
                                        "/jit_zero.cc:") &&
                          Catch::EndsWith("error: 'aie' does not name a type (it uses aie:: without including "
                                          "<aie_api/aie.hpp>, which fails under Peano too: a source like mlir-aie's "
                                          "zero.cc is meant to be included after aie.hpp, as mm.cc includes it)"));
}

TEST_CASE("a source including only lut_based_ops.h, as aie2/bf16_exp.cc, gets the AIE API through it",
          "[harness][jit]") {
    // mlir-aie's AIE2 lut_based_ops.h includes aie_api/aie.hpp (aie_runtime_lib/AIE2/lut_based_ops.h:14 at
    // 3ca0193); so does the host layer's. No prelude is needed for the sources IRON compiles.
    FreshCache cache;
    const auto tile = tensor<std::int32_t>({64});
    ExternalFunction f("jit_lut_only", {tile, tile},
                       {.source_string = "#include <lut_based_ops.h>\n"
                                         "extern \"C\" void jit_lut_only(int32_t* in, int32_t* out) {\n"
                                         "    for (int i = 0; i < 64; i += 16) {\n"
                                         "        v16int32 v = aie::load_v<16>(in + i);\n"
                                         "        aie::store_v(out + i, aie::add(v, v));\n"
                                         "    }\n}\n"});
    std::vector<std::int32_t> in(64), want(64);
    for (std::size_t i = 0; i < in.size(); ++i) want[i] = 2 * (in[i] = static_cast<std::int32_t>(i) * 3 - 50);
    CHECK(run_bytes(f, tile, bytes_of(in), [](const ExternalFunction& k, auto& i, auto& o) { k(i, o); }) ==
          bytes_of(want));
}

TEST_CASE("a source whose first header uses int16_t and chess_storage builds, as under Peano", "[harness][jit]") {
    // Peano's force-included intrinsics header brings <stdint.h>, the scalar names and the empty
    // chess_* spellings (llvm-aie aiebase_typedefs.h, aiebase_chess.h) before the first line; mlir-aie's
    // magika kernels include a table header using them before aie.hpp (ml/magika/inc/lut_group2.h:7).
    FreshCache cache;
    const auto tile = tensor<std::int16_t>({32});
    ExternalFunction f("jit_table_first", {tile},
                       {.source_string =
                            "int16_t chess_storage(% chess_alignof(v16int16)) jit_table[4] = {1, -2, 3, -4};\n"
                            "int16 jit_more = 5;\n"
                            "#include <aie_api/aie.hpp>\n"
                            "extern \"C\" void jit_table_first(int16_t* out) {\n"
                            "    for (int i = 0; i < 32; ++i) out[i] = jit_table[i % 4] * jit_more;\n"
                            "}\n"});
    std::vector<std::int16_t> want(32);
    for (std::size_t i = 0; i < want.size(); ++i)
        want[i] = static_cast<std::int16_t>(5 * (i % 2 ? -1 : 1) * static_cast<int>(i % 4 + 1));
    CHECK(run_bytes(f, tile, bytes_of(std::vector<std::int16_t>(32)),
                    [](const ExternalFunction& k, auto&, auto& o) { k(o); }) == bytes_of(want));
}

TEST_CASE("run-time compiler errors", "[harness][jit][errors]") {
    FreshCache cache;
    const auto t64 = tensor<std::int32_t>({64});
    CHECK_THROWS_WITH(
        ExternalFunction("jit_bad", {t64},
                         {.source_string = "#include <cstdint>\nextern \"C\" void jit_bad(int32_t* p) {\n"
                                           "    p[0] = undefined_thing;\n}\n"}),
        "ExternalFunction 'jit_bad': its source_string does not compile for the host: source_string.cc:3:12: "
        "error: 'undefined_thing' was not declared in this scope");
    CHECK_THROWS_WITH(
        ExternalFunction("jit_piece", {t64},
                         {.source_string = "#include <aie_api/aie.hpp>\nextern \"C\" void jit_piece(int32_t* p) {\n"
                                           "    aie::store_v(p, aie::no_such_piece(aie::load_v<16>(p)));\n}\n"}),
        "ExternalFunction 'jit_piece': its source_string does not compile for the host: source_string.cc:3:26: "
        "error: 'no_such_piece' is not a member of 'aie' (it needs aie::no_such_piece, which npusim's AIE-API "
        "host layer does not provide)");
    CHECK_THROWS_WITH(ExternalFunction("jit_nope", {t64}, {.source_string = "extern \"C\" void other(int* p) {}\n"}),
                      "ExternalFunction 'jit_nope': its source_string defines no function 'jit_nope'");
    CHECK_THROWS_WITH(ExternalFunction("jit_gone", {t64}, {.source_file = "no/such/jit_gone.cc"}),
                      Catch::StartsWith("ExternalFunction 'jit_gone': source_file no/such/jit_gone.cc does not "
                                        "exist (relative paths are taken from the working directory, "));
    // arg_types are checked against the compiled signature, as for linked builds
    CHECK_THROWS_WITH(
        ExternalFunction("jit_scale", {t64, t64, scalar<std::int32_t>()}, {.source_string = kScaleSource}),
        "ExternalFunction 'jit_scale': arg_types[0] is i32[64] (4 B elements) but parameter 0 of the "
        "compiled function points to 2 B elements");
    const char* saved = std::getenv("CXX");
    const std::string saved_cxx = saved ? saved : "";
    ::setenv("CXX", "/no/such/compiler", 1);
    CHECK_THROWS_WITH(ExternalFunction("jit_cxx", {t64}, {.source_string = "extern \"C\" void jit_cxx(int*) {}\n"}),
                      "ExternalFunction 'jit_cxx': cannot compile its source_string: cannot run the C++ compiler "
                      "'/no/such/compiler' (cannot run /no/such/compiler: No such file or directory); set CXX to a "
                      "C++20 compiler");
    if (saved)
        ::setenv("CXX", saved_cxx.c_str(), 1);
    else
        ::unsetenv("CXX");
}

TEST_CASE("the missing AIE-API piece is read from the compiler's first error", "[harness][jit]") {
    using harness::missing_aie_piece;
    CHECK(missing_aie_piece("In file included from a.cc:3:\ngelu.cc:40:20: error: 'tanh' is not a member of 'aie'\n"
                            "x.cc:1:1: error: 'other' is not a member of 'aie'") == "aie::tanh"); // the first
    CHECK(missing_aie_piece("r.cc:9:5: error: ‘invsqrt’ is not a member of ‘aie’") == "aie::invsqrt");
    CHECK(missing_aie_piece("silu.cc:12:9: error: 'getTanhBf16' was not declared in this scope") == "getTanhBf16");
    CHECK(missing_aie_piece("f.cc:3:1: error: static assertion failed: npusim aie_api: sliding_mul is not supported") ==
          "npusim aie_api: sliding_mul is not supported");
    CHECK(missing_aie_piece("m.cc:7:3: error: 'bfp16ebs8' does not name a type") == "bfp16ebs8");
    CHECK(missing_aie_piece("b.cc:9:3: error: 'undef_v16acc64' was not declared in this scope") == "undef_v16acc64");
    CHECK(missing_aie_piece("g.cc:21:28: error: 'T8_2x64_lo' was not declared in this scope") == "T8_2x64_lo");
    // the source's own names: a typo, a variable another #if branch declares (upstream threshold.cc:292)
    CHECK(missing_aie_piece("t.cc:292:30: error: 'max_va' was not declared in this scope").empty());
    CHECK(missing_aie_piece("c.cc:530:9: error: 'tmp_a' was not declared in this scope").empty());
    CHECK(missing_aie_piece("mm.cc:36:21: error: no match for 'operator+=' (operand types are 'npusim::bfloat16' and "
                            "'float')") == "operator+= on npusim::bfloat16 and float");
    CHECK(missing_aie_piece("m.cc:7:3: error: 'class aie::vector<int, 16>' has no member named 'extract_elem'") ==
          "aie::vector::extract_elem");
    CHECK(missing_aie_piece("m.cc:7:3: error: conversion from 'aie::accum<accfloat, 16>' to non-scalar type "
                            "'aie::vector<bfloat16, 16>' requested") ==
          "conversion aie::accum<accfloat, 16> -> aie::vector<bfloat16, 16>");
    CHECK(missing_aie_piece("m.cc:7:3: error: expected ';' before '}' token").empty());
    CHECK(missing_aie_piece("b.cc:12:6: error: variable or field 'zero_v' declared void\n"
                            "b.cc:12:23: error: 'v64bfp16ebs8' was not declared in this scope") == "v64bfp16ebs8");
    CHECK(harness::first_compiler_error("In file included from a.cc:3:\nb.h:2:1: warning: w\nb.h:4:2: error: e\n") ==
          "b.h:4:2: error: e");
}

TEST_CASE("a kernel whose name is overloaded takes the extern \"C\" overload of its declared types", "[harness][jit]") {
    FreshCache cache;
    // A template beside its extern "C" entry of the same name, as mlir-aie's aie2p/rms_norm.cc
    // writes it (3ca0193, lines 14 and 70): &jit_twice is an overload set, which the wrapper cannot
    // take the address of without a type; the declared arg_types give it.
    const std::string source = R"(#include <cstdint>
template <typename T, int Lanes> void jit_twice(const T* in, T* out, int32_t n) {
    for (int32_t i = 0; i < n; ++i) out[i] = static_cast<T>(in[i] * 2 + Lanes - Lanes);
}
extern "C" {
void jit_twice(int32_t* in, int32_t* out, int32_t n) { jit_twice<int32_t, 16>(in, out, n); }
}
)";
    const auto tile = tensor<std::int32_t>({64});
    ExternalFunction f("jit_twice", {tile, tile, scalar<std::int32_t>()}, {.source_string = source});
    REQUIRE(f.build().params.size() == 3); // the extern "C" one: two pointers of 4 bytes, a scalar
    CHECK(f.build().params[0].bytes == 4);
    CHECK_FALSE(f.build().params[2].is_pointer);
    std::vector<std::int32_t> in(128), want(128);
    for (std::size_t i = 0; i < in.size(); ++i) {
        in[i] = static_cast<std::int32_t>(i) * 3 - 50;
        want[i] = in[i] * 2;
    }
    CHECK(run_bytes(f, tile, bytes_of(in), [](const ExternalFunction& k, auto& i, auto& o) { k(i, o, 64); }) ==
          bytes_of(want));
    // declared types that match no overload: the compiler's error on the cast, not a wrong pick
    CHECK_THROWS_WITH(
        ExternalFunction("jit_twice", {tensor<std::int16_t>({64}), tensor<std::int16_t>({64}), scalar<std::int32_t>()},
                         {.source_string = source}),
        Catch::StartsWith("ExternalFunction 'jit_twice': its source_string does not compile for the host: "));
}

TEST_CASE("a source sees the generation's name macro, __AIE2__ or __AIE2P__, as under Peano", "[harness][jit]") {
    // Peano's intrinsics header defines the name with __AIE_ARCH__ (llvm-aie aiev2_defines.h: __AIE2__,
    // aie2p_defines.h: __AIE2P__); mlir-aie's aie2/rgba2hue.cc picks its vector path with #ifdef __AIE2__.
    FreshCache cache;
    const char* const probe =
        "#if defined(__AIE2__) == defined(__AIE2P__)\n#error one generation name\n#endif\n"
        "#if defined(__AIE2__) != (__AIE_ARCH__ == 20)\n#error __AIE2__ with __AIE_ARCH__ 20\n#endif\n"
        "extern \"C\" int jit_generation() {\n#ifdef __AIE2__\n  return 2;\n#else\n  return 21;\n#endif\n}\n";
    for (const auto& [arch, want] : {std::pair{model::Arch::AIE2, 2}, std::pair{model::Arch::AIE2P, 21}}) {
        harness::HostKernelSpec spec;
        spec.source_string = probe;
        spec.arch = arch;
        const auto lib = harness::build_host_kernel(spec);
        INFO(lib.first_error);
        REQUIRE(lib.ok);
        const auto fn = reinterpret_cast<int (*)()>(::dlsym(lib.handle, "jit_generation"));
        REQUIRE(fn != nullptr);
        CHECK(fn() == want);
    }
}
