// The golden-testing harness: comparison of outputs (exact integers, rtol/atol floats), the
// mismatch report, DesignInstance's argument checks, run_design with .npy inputs / expected files /
// saved outputs, the AIE-API kernel builds of E1 and E3, and per-worker AIE core modes.
#include "npusim/harness/AieKernel.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/NpyFile.hpp"
#include "npusim/iron.hpp"
#include "npusim/model/Error.hpp"

#include <aie_api/aie.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <fmt/format.h>
#include <filesystem>
#include <limits>

using namespace npusim;
using namespace npusim::harness;

namespace {

sim::SimOptions sim_opts(const std::string& device) {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::device_by_name(device).arch);
    return o;
}

RunOptions run_opts(const std::string& device, std::uint64_t seed = 1) {
    RunOptions o;
    o.seed = seed;
    o.sim = sim_opts(device);
    return o;
}

ArgSpec out_arg(DType t, std::vector<std::int64_t> shape, double rtol = 0, double atol = 0) {
    ArgSpec a;
    a.name = "y";
    a.dtype = t;
    a.shape = std::move(shape);
    a.role = ArgRole::output;
    a.rtol = rtol;
    a.atol = atol;
    return a;
}

// A scratch directory removed at the end of the test.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name) : path(std::filesystem::temp_directory_path() / name) {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string file(const std::string& n) const { return (path / n).string(); }
};

} // namespace

TEST_CASE("integer outputs are compared exactly, with indices and values side by side", "[golden]") {
    const auto arg = out_arg(DType::i16, {8});
    const auto want = Tensor::from<std::int16_t>({8}, {1, 2, 3, 4, 5, 6, 7, -32768});
    auto got = want;
    CHECK(compare_output(arg, 2, got, want, 0.5, 100).match);   // tolerances do not apply to integers
    auto g = want.values<std::int16_t>();
    g[1] = 3;
    g[5] = 7;
    g[6] = 8;
    g[7] = 32767;
    got = Tensor::from({8}, g);
    const auto c = compare_output(arg, 2, got, want, 0.5, 100);
    CHECK_FALSE(c.match);
    CHECK(c.name == "y (arg 2)");
    CHECK(c.elements == 8);
    CHECK(c.mismatches == 4);
    CHECK(c.mismatch_indices == std::vector<std::uint64_t>{1, 5, 6, 7});
    CHECK(c.index_summary() == "[1], [5]..[7]");
    REQUIRE(c.first.size() == 4);
    CHECK(c.first[3].got == "32767");
    CHECK(c.first[3].want == "-32768");
    CHECK(c.first_mismatches == "[1] got 3 want 2; [5] got 7 want 6; [6] got 8 want 7; [7] got 32767 want -32768");
    CHECK(describe_mismatches(c, "  ") == "  4 of 8 elements differ at [1], [5]..[7]\n"
                                          "  index    got    want\n"
                                          "    [1]      3       2\n"
                                          "    [5]      7       6\n"
                                          "    [6]      8       7\n"
                                          "    [7]  32767  -32768\n");
}

TEST_CASE("many mismatches: indices kept up to a limit, ranges summarised, the rest counted", "[golden]") {
    const auto arg = out_arg(DType::u8, {3000});
    const Tensor want(DType::u8, {3000});
    Tensor got = want;
    for (std::size_t i = 100; i < 3000; i += 2) got.data[i] = 1;
    const auto c = compare_output(arg, 0, got, want, 0, 0);
    CHECK(c.mismatches == 1450);
    CHECK(c.mismatch_indices.size() == OutputCheck::kMaxIndices);
    CHECK(c.first.size() == OutputCheck::kMaxShown);
    CHECK(c.index_summary(3) == "[100], [102], [104], ...");
    CHECK_THAT(describe_mismatches(c), Catch::EndsWith("    ... 1442 more\n"));
    // Multi-dimensional outputs show numpy indices.
    const auto arg2 = out_arg(DType::i32, {2, 3});
    auto g2 = Tensor::from<std::int32_t>({2, 3}, {0, 0, 0, 0, 9, 9});
    const auto c2 = compare_output(arg2, 0, g2, Tensor(DType::i32, {2, 3}), 0, 0);
    CHECK(c2.index_summary() == "[1, 1]..[1, 2]");
    CHECK(c2.first_mismatches == "[1, 1] got 9 want 0; [1, 2] got 9 want 0");
    CHECK(format_index(5, {}) == "[5]");
}

TEST_CASE("float outputs use |got - want| <= atol + rtol * |want|, NaN matches NaN", "[golden]") {
    const auto arg = out_arg(DType::f32, {6});
    const auto want = Tensor::from<float>({6}, {1.0f, 100.0f, 0.0f, NAN, INFINITY, -2.0f});
    auto got = Tensor::from<float>({6}, {1.0f + 2e-6f, 100.01f, 1e-9f, NAN, INFINITY, -2.0f});
    auto c = compare_output(arg, 1, got, want, 2e-4, 1e-8);
    INFO(describe_mismatches(c));
    CHECK(c.match);
    CHECK(c.is_float);
    CHECK(c.max_abs_err == Approx(0.01).epsilon(1e-3));
    CHECK(c.max_rel_err == Approx(1e-4).epsilon(1e-2));
    // Tighter: 100.01 vs 100 (rel 1e-4) and 1e-9 vs 0 fail; NaN vs number and inf vs -inf fail.
    got = Tensor::from<float>({6}, {1.0f, 100.01f, 1e-9f, 1.0f, -INFINITY, NAN});
    c = compare_output(arg, 1, got, want, 1e-5, 0);
    CHECK(c.mismatches == 5);
    CHECK(c.mismatch_indices == std::vector<std::uint64_t>{1, 2, 3, 4, 5});
    CHECK(std::isinf(c.max_abs_err));
    CHECK(c.first[0].got == "100.01");
    CHECK(c.first[0].want == "100");
    CHECK(c.first[1].rel_err == std::numeric_limits<double>::infinity());
    CHECK(c.first[2].got == "1");
    CHECK(c.first[2].want == "nan");
    CHECK(c.first[3].got == "-inf");
    const auto text = describe_mismatches(c, "");
    CHECK_THAT(text, Catch::StartsWith("5 of 6 elements differ at [1]..[5]\nmax abs err inf, max rel err inf (tolerance: rtol 1e-05, atol 0)\n"
                                       "index     got  want  abs err  rel err\n"
                                       "  [1]  100.01   100     0.01   0.0001\n"
                                       "  [2]   1e-09     0    1e-09      inf\n"
                                       "  [3]       1   nan      inf      inf\n"));
}

TEST_CASE("bf16 outputs: tolerance in float, values shown as the shortest bf16 decimal", "[golden]") {
    const auto arg = out_arg(DType::bf16, {3});
    const auto want = Tensor::from<bfloat16>({3}, {bfloat16(0.1f), bfloat16(1.0f), bfloat16(-3.0f)});
    // One bf16 ulp above each: 1.0078125 for 1.0.
    std::vector<bfloat16> g = want.values<bfloat16>();
    for (auto& x : g) x = bfloat16::from_bits(static_cast<std::uint16_t>(x.bits + 1));
    const auto got = Tensor::from({3}, g);
    CHECK(compare_output(arg, 0, got, want, 1e-2, 0).match);
    const auto c = compare_output(arg, 0, got, want, 1e-3, 0);
    CHECK(c.mismatches == 3);
    CHECK(c.first[0].want == "0.1");
    CHECK(c.first[0].got == "0.1006");
    CHECK(c.first[1].got == "1.01");    // 1.0078125: the neighbours are 1 and 1.015625
    CHECK(c.first[2].got == "-3.02");   // -3.015625
    CHECK(format_value(DType::bf16, reinterpret_cast<const std::uint8_t*>(&g[1].bits)) == "1.01");
    const bfloat16 third(1.0f / 3);
    CHECK(format_value(DType::bf16, reinterpret_cast<const std::uint8_t*>(&third.bits)) == "0.334");   // 0.333984375
    const float f = 0.1f;
    CHECK(format_value(DType::f32, reinterpret_cast<const std::uint8_t*>(&f)) == "0.1");
}

TEST_CASE("a dtype or shape disagreement is reported, not compared", "[golden]") {
    const auto c = compare_output(out_arg(DType::i32, {4}), 1, Tensor(DType::i32, {3}), Tensor(DType::i32, {4}), 0, 0);
    CHECK_FALSE(c.match);
    CHECK(c.error == "cannot compare: got i32[3], expected i32[4], the argument is i32[4]");
    CHECK(describe_mismatches(c) == "    cannot compare: got i32[3], expected i32[4], the argument is i32[4]\n");
}

TEST_CASE("goldens come from the actual inputs: the reference runs on what was simulated", "[golden]") {
    const auto& spec = design_by_name("vector_scalar_mul");
    const auto inst = spec.build(model::device_by_name("npu1"), spec.resolve_params({{"size", 64}, {"tile", 32}}), 5);
    REQUIRE(inst.args.size() == 3);
    CHECK(inst.args[0].name == "a");
    CHECK(inst.args[1].role == ArgRole::output);
    CHECK(inst.args[2].type_str() == "i32[1]");
    Tensors in = inst.inputs;
    in["a"] = Tensor::from<std::int16_t>({64}, std::vector<std::int16_t>(64, 1000));
    in["factor"] = Tensor::from<std::int32_t>({1}, {-40});
    const auto want = inst.expected(in);
    CHECK(want.at("c").values<std::int16_t>()[0] == static_cast<std::int16_t>(-40000));   // wraps like numpy astype
    // Host tensors lay the inputs out per argument; outputs start zeroed.
    const auto host = inst.host_tensors(in);
    REQUIRE(host.size() == 3);
    CHECK(host[1] == std::vector<std::uint8_t>(128));
    auto after = host;
    after[1] = want.at("c").data;
    CHECK(inst.check(in, after)[0].match);
    CHECK_FALSE(inst.check(after)[0].match);   // against the seed inputs it differs
}

TEST_CASE("DesignInstance checks the declared arguments against the runtime sequence", "[golden]") {
    using namespace iron;
    const auto& dev = model::device_by_name("npu1_1col");
    auto make = [&] {
        ObjectFifo in(tensor<std::int32_t>({16}), "in");
        ObjectFifo out = in.cons().forward();
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                i.fill(a);
                o.drain(b, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), in.prod(), out.cons()));
        return Program(dev, rt, {}, "t");
    };
    const auto i32 = tensor<std::int32_t>({16});
    auto ref = [](const Tensors& in) { return Tensors{{"b", get(in, "a")}}; };
    const Tensors in{{"a", Tensor(DType::i32, {16})}};
    CHECK_NOTHROW(DesignInstance(make(), {ArgSpec::input("a", i32), ArgSpec::output("b", i32)}, in, ref, "t"));
    CHECK_THROWS_WITH(DesignInstance(make(), {ArgSpec::input("a", i32)}, in, ref, "t"),
                      "design 't' declares 1 runtime arguments, its runtime sequence takes 2");
    CHECK_THROWS_WITH(DesignInstance(make(), {ArgSpec::input("a", i32), ArgSpec::output("b", tensor<std::int16_t>({16}))}, in, ref, "t"),
                      "design 't': runtime argument 1 'b' is declared i16[16] but the runtime sequence takes i32[16]");
    CHECK_THROWS_WITH(DesignInstance(make(), {ArgSpec::input("a", i32), ArgSpec::output("a", i32)}, in, ref, "t"),
                      "design 't': two runtime arguments are called 'a'");
    CHECK_THROWS_WITH(DesignInstance(make(), {ArgSpec::input("a", i32), ArgSpec::input("b", i32)}, in, ref, "t"),
                      "design 't': no generated data for input 'b'");
    CHECK_THROWS_WITH(DesignInstance(make(), {ArgSpec::input("a", i32), ArgSpec::output("b", i32)},
                                     {{"a", Tensor(DType::i32, {8})}}, ref, "t"),
                      "design 't': generated data for input 'a' is i32[8], the argument is i32[16]");
    const DesignInstance bad_ref(make(), {ArgSpec::input("a", i32), ArgSpec::output("b", i32)}, in,
                                 [](const Tensors&) { return Tensors{{"b", Tensor(DType::i32, {4})}}; }, "t");
    CHECK_THROWS_WITH(bad_ref.expected(in), "design 't': the reference computes i32[4] for output 'b', the argument is i32[16]");
}

TEST_CASE("run_design with .npy inputs, an expected file, and saved outputs", "[golden]") {
    TempDir dir("npusim_golden_test");
    const auto& spec = design_by_name("vector_scalar_mul");
    const Params p{{"size", 1024}, {"tile", 512}};   // the i16 kernels need 512-element tiles
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
    CHECK(error_of({{"a", dir.file("i32.npy")}}) ==
          fmt::format("'{}': dtype int32 ('<i4') does not match input 'a' of design 'vector_scalar_mul', which is int16 ('<i2'), "
                      "shape (4096,)",
                      dir.file("i32.npy")));
    CHECK(error_of({{"a", dir.file("short.npy")}}) ==
          fmt::format("'{}': shape (100,) does not match input 'a' of design 'vector_scalar_mul', which has shape (4096,) (int16)",
                      dir.file("short.npy")));
    CHECK(error_of({{"a", dir.file("missing.npy")}}) == fmt::format("cannot open '{}': No such file or directory", dir.file("missing.npy")));
    CHECK(error_of({{"x", dir.file("short.npy")}}) == "--input: design 'vector_scalar_mul' has no argument 'x' (inputs: a, factor)");
    CHECK(error_of({{"c", dir.file("short.npy")}}) ==
          "--input: argument 'c' of design 'vector_scalar_mul' is an output, not an input (inputs: a, factor)");
    CHECK(error_of({}, {{"a", dir.file("short.npy")}}) ==
          "--expect: argument 'a' of design 'vector_scalar_mul' is an input, not an output (outputs: c)");
    CHECK(error_of({}, {{"c", dir.file("short.npy")}}) ==
          fmt::format("'{}': shape (100,) does not match output 'c' of design 'vector_scalar_mul', which has shape (4096,) (int16)",
                      dir.file("short.npy")));
    o.input_files.clear();
    o.expected_files.clear();
    o.rtol = 0.5;
    const auto rep = run_design(spec, "npu1", {}, o);
    CHECK(rep.all_match);
    CHECK(rep.notes ==
          std::vector<std::string>{"design 'vector_scalar_mul' has no float outputs: rtol/atol do not apply, integer outputs are compared exactly"});
    auto e2 = run_opts("npu1");
    e2.input_files = {{"b", dir.file("i32.npy")}};
    CHECK_THROWS_WITH(run_design(design_by_name("passthrough_dmas"), "npu1", {}, e2),
                      "--input: argument 'b' of design 'passthrough_dmas' is unused, not an input (inputs: a)");
}

TEST_CASE("kernels=aie: E1 and E3 bind the AIE-API kernel builds and pass on npu1 and npu2", "[golden][aie]") {
    for (const char* device : {"npu1_1col", "npu1", "npu2_1col", "npu2"}) {
        for (auto ks : {KernelSet::reference, KernelSet::aie}) {
            INFO(device << " kernels=" << kernel_set_name(ks));
            auto o = run_opts(device, 11);
            o.kernels = ks;
            for (std::int64_t bits : {8, 16, 32}) {
                const auto r = run_design(design_by_name("passthrough_kernel"), device, {{"bits", bits}}, o);
                INFO("E1 bits=" << bits);
                CHECK(r.kernels == ks);
                CHECK(r.all_match);
            }
            for (std::int64_t bits : {16, 32}) {
                const auto r = run_design(design_by_name("vector_scalar_mul"), device, {{"bits", bits}, {"factor", -29}}, o);
                INFO("E3 bits=" << bits << ": " << (r.checks.empty() ? "" : r.checks[0].first_mismatches));
                CHECK(r.all_match);
            }
        }
    }
    // The AIE-API and reference builds compute the same bits, cycle counts use the same cost models.
    auto ref = run_opts("npu2", 3), aie = run_opts("npu2", 3);
    aie.kernels = KernelSet::aie;
    const auto r1 = run_design(design_by_name("vector_scalar_mul"), "npu2", {{"bits", 32}, {"factor", 70000}}, ref);
    const auto r2 = run_design(design_by_name("vector_scalar_mul"), "npu2", {{"bits", 32}, {"factor", 70000}}, aie);
    CHECK(r1.result.host == r2.result.host);
    CHECK(r1.result.cycles == r2.result.cycles);
}

TEST_CASE("kernels=aie is refused where a design has no kernel or the tile is not whole vectors", "[golden][aie]") {
    auto o = run_opts("npu1");
    o.kernels = KernelSet::aie;
    CHECK_THROWS_WITH(run_design(design_by_name("passthrough_dmas"), "npu1", {}, o),
                      "design 'passthrough_dmas' has no AIE-API kernel build (no kernel: data moves by DMA only); designs with one: "
                      "passthrough_kernel, vector_scalar_mul, matmul_single_core, matmul_whole_array, vector_reduce_max, "
                      "vector_reduce_max_memtile, row_wise_bias_add, memcpy");
    CHECK_THROWS_WITH(run_design(design_by_name("vector_vector_add"), "npu1", {}, o),
                      Catch::StartsWith("design 'vector_vector_add' has no AIE-API kernel build (no external kernel: the add runs in "
                                        "the core body)"));
    CHECK_THROWS_WITH(run_design(design_by_name("passthrough_kernel"), "npu1", {{"size", 4000}, {"tile", 40}}, o),
                      "design 'passthrough_kernel': the AIE-API passThrough kernel works on whole 512-bit vectors of 64 elements; "
                      "parameter tile=40 is not a multiple of 64");
    CHECK_THROWS_WITH(run_design(design_by_name("vector_scalar_mul"), "npu1", {{"size", 4080}, {"tile", 48}}, o),
                      "design 'vector_scalar_mul': the AIE-API scale kernel works on whole 512-bit vectors of 32 elements; parameter "
                      "tile=48 is not a multiple of 32");
    CHECK(kernel_set_by_name("aie") == KernelSet::aie);
    CHECK(kernel_set_by_name("reference") == KernelSet::reference);
    CHECK_THROWS_WITH(kernel_set_by_name("chess"), "unknown kernel set 'chess' (kernel sets: ref, aie)");
}

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
    auto modes = make_aie_core_modes();   // one register file for the design, one entry per worker
    Kernel probe = aie_kernel("mode_probe", &mode_probe, {tile_ty, tile_ty, scalar<std::int32_t>()}, cost::fixed(50), modes);
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
        [](RuntimeData a0, RuntimeData a1, RuntimeData c0, RuntimeData c1, ObjectFifoHandle i0, ObjectFifoHandle i1, ObjectFifoHandle o0,
           ObjectFifoHandle o1) {
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
    aie::set_rounding(aie::rounding_mode::ceil);   // the thread's own modes must survive the run
    const auto r = sim::simulate(net, {to_bytes(a0), to_bytes(a1), zero, zero}, sim_opts("npu1_2col"));
    CHECK(aie::get_rounding() == aie::rounding_mode::ceil);
    npusim::aie_api::reset_core_modes();
    for (int w = 0; w < 2; ++w) {
        const auto c = from_bytes<std::int32_t>(r.host[static_cast<std::size_t>(2 + w)]);
        INFO("worker " << w);
        CHECK(c[0] == 0);   // the first call sees the reset mode (floor)
        for (std::int64_t t = 1; t < tiles; ++t) CHECK(c[static_cast<std::size_t>(t * tile)] == (w == 0 ? 12 : 11));
    }
}
