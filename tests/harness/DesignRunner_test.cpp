// run_design: .npy inputs, expected files, saved outputs, and the errors for files and names that
// do not fit the design.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/NpyFile.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <fmt/format.h>
#include <thread>

using namespace npusim;
using namespace npusim::harness;
using namespace npusim::test;

TEST_CASE("run_design with .npy inputs, an expected file, and saved outputs", "[golden]") {
    TempDir dir("npusim_golden_test");
    const auto& spec = design_by_name("vector_scalar_mul");
    const Params p{{"size", 1024}, {"tile", 512}}; // the i16 kernels need 512-element tiles
    std::vector<std::int16_t> a(1024);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int16_t>(static_cast<int>(i) * 129 - 16000);
    NpyFile::write(dir.file("a.npy"), Tensor::from<std::int16_t>({1024}, a));
    NpyFile::write(dir.file("f.npy"), Tensor::from<std::int32_t>({1}, {-3}));
    auto o = run_opts("npu2");
    o.input_files = {{"a", dir.file("a.npy")}, {"factor", dir.file("f.npy")}};
    o.save_dir = dir.file("out");
    const auto rep = run_design(spec, "npu2", p, o);
    REQUIRE(rep.all_match);
    CHECK(rep.arg_sources == std::vector<std::string>{dir.file("a.npy"), "-", dir.file("f.npy")});
    CHECK(rep.saved_files.size() == 4);
    const auto c = NpyFile::read(dir.file("out/c.npy")).values<std::int16_t>();
    for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(c[i] == static_cast<std::int16_t>(a[i] * -3));
    CHECK(NpyFile::read(dir.file("out/c.expected.npy")).data == NpyFile::read(dir.file("out/c.npy")).data);
    CHECK(NpyFile::read(dir.file("out/factor.npy")).values<std::int32_t>()[0] == -3);
    CHECK(NpyFile::read(dir.file("out/a.npy")).values<std::int16_t>() == a);

    // A deliberately wrong expected file: two elements off.
    auto wrong = c;
    wrong[3] += 1;
    wrong[200] -= 5;
    NpyFile::write(dir.file("wrong.npy"), Tensor::from<std::int16_t>({1024}, wrong));
    o.save_dir.clear();
    o.expected_files = {{"c", dir.file("wrong.npy")}};
    const auto bad = run_design(spec, "npu2", p, o);
    CHECK_FALSE(bad.all_match);
    REQUIRE(bad.checks.size() == 1);
    CHECK(bad.checks[0].mismatches == 2);
    CHECK(bad.checks[0].mismatch_indices == std::vector<std::uint64_t>{3, 200});
    CHECK(bad.checks[0].expected_from == dir.file("wrong.npy"));
    CHECK(bad.checks[0].first[0].got == std::to_string(c[3]));
    CHECK(bad.checks[0].first[0].want == std::to_string(c[3] + 1));
}

TEST_CASE("run_design rejects files and names that do not fit the design", "[golden]") {
    TempDir dir("npusim_golden_errors");
    const auto& spec = design_by_name("vector_scalar_mul");
    NpyFile::write(dir.file("i32.npy"), Tensor(DType::i32, {4096}));
    NpyFile::write(dir.file("short.npy"), Tensor(DType::i16, {100}));
    auto o = run_opts("npu1");
    auto error_of = [&](std::map<std::string, std::string> inputs, std::map<std::string, std::string> expected = {}) {
        o.input_files = std::move(inputs);
        o.expected_files = std::move(expected);
        try {
            (void)run_design(spec, "npu1", {}, o);
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    CHECK(
        error_of({{"a", dir.file("i32.npy")}}) ==
        fmt::format(
            "'{}': dtype int32 ('<i4') does not match input 'a' of design 'vector_scalar_mul', which is int16 ('<i2'), "
            "shape (4096,)",
            dir.file("i32.npy")));
    CHECK(error_of({{"a", dir.file("short.npy")}}) ==
          fmt::format("'{}': shape (100,) does not match input 'a' of design 'vector_scalar_mul', which has shape "
                      "(4096,) (int16)",
                      dir.file("short.npy")));
    CHECK(error_of({{"a", dir.file("missing.npy")}}) ==
          fmt::format("cannot open '{}': No such file or directory", dir.file("missing.npy")));
    CHECK(error_of({{"x", dir.file("short.npy")}}) ==
          "--input: design 'vector_scalar_mul' has no argument 'x' (inputs: a, factor)");
    CHECK(error_of({{"c", dir.file("short.npy")}}) ==
          "--input: argument 'c' of design 'vector_scalar_mul' is an output, not an input (inputs: a, factor)");
    CHECK(error_of({}, {{"a", dir.file("short.npy")}}) ==
          "--expect: argument 'a' of design 'vector_scalar_mul' is an input, not an output (outputs: c)");
    CHECK(error_of({}, {{"c", dir.file("short.npy")}}) ==
          fmt::format("'{}': shape (100,) does not match output 'c' of design 'vector_scalar_mul', which has shape "
                      "(4096,) (int16)",
                      dir.file("short.npy")));
    o.input_files.clear();
    o.expected_files.clear();
    o.rtol = 0.5;
    const auto rep = run_design(spec, "npu1", {}, o);
    CHECK(rep.all_match);
    CHECK(rep.notes == std::vector<std::string>{"design 'vector_scalar_mul' has no float outputs: rtol/atol do not "
                                                "apply, integer outputs are compared exactly"});
    auto e2 = run_opts("npu1");
    e2.input_files = {{"b", dir.file("i32.npy")}};
    CHECK_THROWS_WITH(run_design(design_by_name("passthrough_dmas"), "npu1", {}, e2),
                      "--input: argument 'b' of design 'passthrough_dmas' is unused, not an input (inputs: a)");
}

TEST_CASE("a design too large for the host memory is a design error naming its size, never std::bad_alloc",
          "[golden][memory]") {
    const auto& spec = design_by_name("passthrough_kernel");
    // The run needs about 3x its arguments (2 x 4096 B here): refused against a 16 KiB budget.
    RunOptions ro;
    ro.host_memory_bytes = 16 << 10;
    CHECK_THROWS_WITH(run_design(spec, "npu1_1col", {}, ro),
                      "design 'passthrough_kernel' (bits=8 size=4096 tile=1024) on npu1_1col: its runtime arguments "
                      "take 8 KiB and a run needs about 3 times that (24 KiB), more than the 16 KiB of host memory "
                      "available");
    ro.host_memory_bytes = 1 << 20;
    CHECK_NOTHROW(run_design(spec, "npu1_1col", {}, ro));
    // More invocations keep each measured one's outputs (4096 B) and, with more than one measured,
    // a copy of the input (4096 B): 3 x 4096 + 4096 more here.
    ro.host_memory_bytes = 32 << 10;
    CHECK_NOTHROW(run_design(spec, "npu1_1col", {}, ro));
    ro.iters = 3;
    ro.warmup = 1;
    CHECK_THROWS_WITH(run_design(spec, "npu1_1col", {}, ro),
                      "design 'passthrough_kernel' (bits=8 size=4096 tile=1024) on npu1_1col: its runtime arguments "
                      "take 8 KiB and a run needs about 3 times that, plus 16 KiB for 4 invocations (40 KiB), more "
                      "than the 32 KiB of host memory available");
    // 100 TB: refused from the estimate (the machine's limit), before anything is allocated.
    CHECK_THROWS_WITH(run_design(spec, "npu1_1col", {{"size", 100'000'000'000'000}}, RunOptions{}),
                      Catch::StartsWith("design 'passthrough_kernel' (bits=8 size=100000000000000 tile=1024) on "
                                        "npu1_1col: its runtime arguments take 181.9 TiB and a run needs about 3 times "
                                        "that (545.7 TiB), more than the "));
}

TEST_CASE("a 40960^3 matmul is refused from its parameters, before its inputs are allocated", "[golden][memory]") {
    RunOptions ro;
    ro.host_memory_bytes = std::uint64_t{16} << 30; // a 16 GiB machine, whatever this one has
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(run_design(design_by_name("matmul_single_core"), "npu1", {{"M", 40960}, {"K", 40960}, {"N", 40960}, {"n", 640}},
                                 ro),
                      Catch::Contains("on npu1: its runtime arguments take 12.5 GiB and a run needs about 3 times "
                                      "that (37.5 GiB), more than the 16 GiB of host memory available"));
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 1.0);
}

TEST_CASE("a std::bad_alloc in a run is a design error naming the run and what it was doing", "[golden][memory]") {
    // passthrough_kernel, with a reference that runs out of memory.
    DesignSpec spec = design_by_name("passthrough_kernel");
    spec.name = "greedy";
    const auto build = spec.build;
    spec.build = [build](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        DesignInstance inst = build(dev, p, o);
        inst.reference = [](const Tensors&) -> Tensors { throw std::bad_alloc(); };
        return inst;
    };
    RunOptions ro;
    ro.host_memory_bytes = 1 << 30;
    CHECK_THROWS_WITH(run_design(spec, "npu1_1col", {}, ro),
                      "design 'greedy' (bits=8 size=4096 tile=1024) on npu1_1col: out of host memory (std::bad_alloc) "
                      "while computing the expected outputs; 1 GiB of host memory was available when the run started");
    // While building: the design's build function itself.
    spec.build = [](const model::DeviceSpec&, const Params&, const BuildOptions&) -> DesignInstance {
        throw std::bad_alloc();
    };
    CHECK_THROWS_WITH(run_design(spec, "npu1_1col", {}, ro),
                      "design 'greedy' (bits=8 size=4096 tile=1024) on npu1_1col: out of host memory (std::bad_alloc) "
                      "while building the design and generating its inputs; 1 GiB of host memory was available when "
                      "the run started");
}

TEST_CASE("the inputs move into the simulator and are kept only where still needed: iters, --save", "[golden]") {
    // The reference of the last invocation runs before the simulation; the inputs are kept for
    // the references of earlier checked invocations and for the saved input files.
    TempDir dir("npusim_golden_kept_inputs");
    const auto& spec = design_by_name("invocation_counter");
    const auto inst = spec.build(model::device_by_name("npu1_1col"), spec.resolve_params({}), 7);
    auto o = run_opts("npu1_1col", 7);
    o.iters = 3;
    o.warmup = 1;
    o.save_dir = dir.file("out");
    const auto rep = run_design(spec, "npu1_1col", {}, o);
    CHECK(rep.all_match);
    REQUIRE(rep.invocations.size() == 4);
    for (std::uint32_t i = 1; i < 4; ++i) CHECK(rep.invocations[i].all_match);
    CHECK(NpyFile::read(dir.file("out/in.npy")).data == inst.inputs.at("in").data);
    CHECK(NpyFile::read(dir.file("out/out.expected.npy")).data == rep.result.host[1]);
    // One invocation, inputs from a file, outputs saved: the saved input is the file's.
    const auto& vsm = design_by_name("vector_scalar_mul");
    std::vector<std::int16_t> a(4096);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int16_t>(i * 7);
    NpyFile::write(dir.file("a.npy"), Tensor::from<std::int16_t>({4096}, a));
    auto v = run_opts("npu1_1col");
    v.input_files = {{"a", dir.file("a.npy")}};
    v.save_dir = dir.file("vsm");
    const auto r = run_design(vsm, "npu1_1col", {}, v);
    CHECK(r.all_match);
    CHECK(NpyFile::read(dir.file("vsm/a.npy")).values<std::int16_t>() == a);
    CHECK(NpyFile::read(dir.file("vsm/c.npy")).data == r.result.host[1]);
}

// The wall time by phase (`npusim run`'s "wall time" line, stats.*_seconds in --json): building the
// design and its inputs is counted apart from resolve. A design whose build takes 60 ms more shows
// it there, not in resolve (before, resolve_seconds counted the build too: on E1 at 64 MiB,
// "resolve 465 ms" was almost all input generation).
TEST_CASE("run_design times the build apart from resolve, simulate, reference and check", "[golden]") {
    DesignSpec slow = design_by_name("passthrough_kernel");
    slow.build = [orig = slow.build](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        return orig(dev, p, o);
    };
    const auto rep = run_design(slow, "npu1_1col", {}, run_opts("npu1_1col", 3));
    CHECK(rep.all_match);
    CHECK(rep.build_seconds >= 0.06);
    CHECK(rep.resolve_seconds < 0.06);
    CHECK(rep.resolve_seconds > 0);
    CHECK(rep.simulate_seconds > 0);
    CHECK(rep.reference_seconds > 0);
    CHECK(rep.check_seconds > 0);
}

// E1's and memcpy's inputs are Tensor::random_bits of their seed (8 bytes per draw of
// mt19937_64; tests/harness/Tensor_test.cpp checks those bytes against the draws).
TEST_CASE("the data-movement designs' inputs are the random bits of their seed", "[golden]") {
    const auto& dev = model::device_by_name("npu1_1col");
    const auto& e1 = design_by_name("passthrough_kernel");
    for (const std::int64_t bits : {8, 16, 32}) {
        const auto inst = e1.build(dev, e1.resolve_params({{"size", 8192}, {"bits", bits}}), 5);
        const auto& in = inst.inputs.at("in");
        CHECK(in.data == Tensor::random_bits(in.dtype, {8192}, 5).data);
    }
    const auto& mc = design_by_name("memcpy");
    const auto inst = mc.build(dev, mc.resolve_params({}), 9);
    const auto& a = inst.inputs.at("a");
    CHECK(a.data == Tensor::random_bits(DType::i32, a.shape, 9).data);
}
