// ExternalFunction (frontend/ExternalFunction.hpp, after mlir-aie python/iron/kernel.py): a user's
// AIE-API source, tests/harness/external/ext_affine.cc, built at build time by the CMake helper
// npusim_add_external_function twice (-DDIM_M=64 and -DDIM_M=32, tests/harness/CMakeLists.txt), is
// found by name, source, flags and include dirs, checked against its compiled signature, and run in
// a design whose outputs are checked against a plain loop here.
#include "npusim/frontend/ExternalFunction.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace npusim;
using namespace npusim::iron;

namespace {

ExternalFunctionOptions affine_build(int dim_m) {
    return {.source_file = "ext_affine.cc",
            .include_dirs = {"external/include"},
            .compile_flags = {"-DDIM_M=" + std::to_string(dim_m)}};
}

// in: i32[n] through fifo objects of `obj` (the kernel's DIM_M elements, any shape); out = f(in, 3)
std::vector<std::int32_t> run_affine(const ExternalFunction& f, const TensorType& obj, std::int64_t n,
                                     const std::vector<std::int32_t>& in) {
    ObjectFifo a(obj, "a"), b(obj, "b");
    const std::int64_t objs = n / obj.elements();
    Worker w(
        [objs](ObjectFifoHandle i, ObjectFifoHandle o, ExternalFunction k) {
            for (std::int64_t t = 0; t < objs; ++t) {
                auto ei = i.acquire(1);
                auto eo = o.acquire(1);
                k(ei, eo, 3);
                i.release(1);
                o.release(1);
            }
        },
        fn_args(a.cons(), b.prod(), f), {.name = "affine"});
    const auto ty = tensor<std::int32_t>({n});
    Runtime rt(
        [](RuntimeData x, RuntimeData y, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(x);
            o.drain(y, {.wait = true});
        },
        fn_args(ty, ty, a.prod(), b.cons()));
    const auto net = Program("npu1_1col", rt, {w}).resolve();
    std::vector<std::uint8_t> bytes(in.size() * 4);
    std::memcpy(bytes.data(), in.data(), bytes.size());
    const auto r = sim::simulate(net, {bytes, std::vector<std::uint8_t>(bytes.size())}, {});
    std::vector<std::int32_t> out(in.size());
    std::memcpy(out.data(), r.host[1].data(), bytes.size());
    return out;
}

std::vector<std::int32_t> ramp(std::size_t n) {
    std::vector<std::int32_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int32_t>(i * 7) - 300;
    return v;
}

} // namespace

TEST_CASE("an ExternalFunction runs the build made with its -D flags", "[harness][external]") {
    for (int m : {64, 32}) {
        INFO("DIM_M=" << m);
        const auto tile = tensor<std::int32_t>({m});
        ExternalFunction f("ext_affine", {tile, tile, scalar<std::int32_t>()}, affine_build(m));
        CHECK(f.tile_size() == m);
        CHECK(f.build().compile_flags == std::vector<std::string>{"-DDIM_M=" + std::to_string(m)});
        const auto in = ramp(256);
        const auto out = run_affine(f, tile, 256, in);
        for (std::size_t i = 0; i < in.size(); ++i) REQUIRE(out[i] == in[i] * 3 + 5);
    }
}

TEST_CASE("a 2-D fifo object collapses onto the 1-D kernel signature", "[harness][external]") {
    const auto tile = tensor<std::int32_t>({64});
    ExternalFunction f("ext_affine", {tile, tile, scalar<std::int32_t>()}, affine_build(64));
    const auto in = ramp(128);
    const auto out = run_affine(f, tensor<std::int32_t>({4, 16}), 128, in);
    for (std::size_t i = 0; i < in.size(); ++i) REQUIRE(out[i] == in[i] * 3 + 5);
}

TEST_CASE("ExternalFunction errors", "[harness][external][errors]") {
    const auto t64 = tensor<std::int32_t>({64});
    const std::vector<ArgType> types{t64, t64, scalar<std::int32_t>()};
    CHECK_THROWS_WITH(ExternalFunction("", types, affine_build(64)), "ExternalFunction: Kernel name cannot be empty.");
    CHECK_THROWS_WITH(ExternalFunction("ext_affine", types),
                      "ExternalFunction 'ext_affine': source_file or source_string must be provided.");
    // with the run-time compiler (installed in this program: KernelCompiler_test includes its header),
    // a source_string is compiled (here: a function with no parameters) and a source_file no linked
    // build matches is compiled from the working directory (tests/harness/KernelCompiler_test.cpp runs them)
    REQUIRE(external_compiler());
    CHECK_THROWS_WITH(
        ExternalFunction("ext_affine", types, {.source_string = "extern \"C\" void ext_affine() {}"}),
        "ExternalFunction 'ext_affine': arg_types has 3 entries, the compiled 'ext_affine' (<source_string> []) takes "
        "0 parameters");
    CHECK_THROWS_WITH(ExternalFunction("ext_nope", types, {.source_file = "ext_nope.cc"}),
                      Catch::StartsWith("ExternalFunction 'ext_nope': source_file ext_nope.cc does not exist (relative "
                                        "paths are taken from the working directory, "));
    // without it (a program that links only the frontend), only linked builds exist
    const ExternalCompiler saved = set_external_compiler({});
    CHECK_THROWS_WITH(
        ExternalFunction("ext_affine", types, {.source_string = "void ext_affine() {}"}),
        "ExternalFunction 'ext_affine': source_string needs npusim's run-time kernel compiler, which this program "
        "does not link: link npusim::harness and include npusim/harness/KernelCompiler.hpp (or npusim/npusim.hpp)");
    CHECK_THROWS_WITH(ExternalFunction("ext_nope", types, {.source_file = "ext_nope.cc"}),
                      "ExternalFunction 'ext_nope': no build of 'ext_nope' is linked into this program; compile "
                      "ext_nope.cc with npusim_add_external_function(... NAME ext_nope) "
                      "(cmake/NpusimExternalFunction.cmake)");
    CHECK_THROWS_WITH(ExternalFunction("ext_affine", types, affine_build(16)),
                      Catch::StartsWith("ExternalFunction 'ext_affine': no linked build of 'ext_affine' has source "
                                        "ext_affine.cc, compile flags [-DDIM_M=16] and 1 include dir; the builds are: "
                                        "ext_affine.cc [-DDIM_M=") &&
                          Catch::Contains("ext_affine.cc [-DDIM_M=64]") &&
                          Catch::Contains("ext_affine.cc [-DDIM_M=32]"));
    CHECK_THROWS_WITH(
        ExternalFunction("ext_affine", types, {.source_file = "ext_affine.cc", .compile_flags = {"-DDIM_M=64"}}),
        Catch::StartsWith("ExternalFunction 'ext_affine': no linked build of 'ext_affine' has source "
                          "ext_affine.cc, compile flags [-DDIM_M=64] and 0 include dirs"));
    CHECK_THROWS_WITH(
        ExternalFunction("ext_affine", {t64, t64}, affine_build(64)),
        "ExternalFunction 'ext_affine': arg_types has 2 entries, the compiled 'ext_affine' (ext_affine.cc "
        "[-DDIM_M=64]) takes 3 parameters");
    CHECK_THROWS_WITH(ExternalFunction("ext_affine", {t64, t64, t64}, affine_build(64)),
                      "ExternalFunction 'ext_affine': arg_types[2] is i32[64] but parameter 2 of the compiled function "
                      "is a scalar");
    CHECK_THROWS_WITH(
        ExternalFunction("ext_affine", {tensor<std::int16_t>({64}), t64, scalar<std::int32_t>()}, affine_build(64)),
        "ExternalFunction 'ext_affine': arg_types[0] is i16[64] (2 B elements) but parameter 0 of the compiled "
        "function points to 4 B elements");
    set_external_compiler(saved);
    ExternalFunction f("ext_affine", types, affine_build(64));
    CHECK_THROWS_WITH(f.tile_size(2), "ExternalFunction 'ext_affine': Argument 2 does not have a shape or is not an "
                                      "array type.");
    CHECK_THROWS_WITH(f.tile_size(3), "ExternalFunction 'ext_affine': Argument index 3 out of range (max: 2)");
    // call-time checks, as ExternalFunction.__call__: the count, scalars, shapes (8x8 does not collapse onto
    // a 2-D signature of 4x16)
    CHECK_THROWS_WITH(
        run_affine(ExternalFunction("ext_affine", {tensor<std::int32_t>({4, 16}), t64, scalar<std::int32_t>()},
                                    affine_build(64)),
                   tensor<std::int32_t>({8, 8}), 64, ramp(64)),
        Catch::Contains("ExternalFunction 'ext_affine': Argument 0: expected (4, 16)/i32, got (8, 8)/i32 "
                        "('a')"));
}
