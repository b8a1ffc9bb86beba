// The CLI contract (README.md "Using it", docs/errors.md): commands, output, --json, and exit codes 0-4 with their messages.
#include "CliRun.hpp"
#include "CliSupport.hpp"
#include "ProgressLine.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/iron.hpp"
#include "support/Passthrough.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace npusim;

namespace {
using npusim::test::cli;
using npusim::test::Out;

// A design that deadlocks: the worker waits on a fifo the runtime never fills.
void register_test_designs() {
    static bool done = false;
    if (done) return;
    done = true;
    harness::DesignSpec s;
    s.name = "test_starved";
    s.description = "test: deadlocks";
    s.devices = {"npu1_1col"};
    s.build = [](const model::DeviceSpec& dev, const harness::Params&, const harness::BuildOptions&) {
        using namespace iron;
        const auto t = tensor<std::int32_t>({16});
        auto program = npusim::test::passthrough({.type = t,
                                                  .body = npusim::test::acquire_release,
                                                  .seq = [](RuntimeData, RuntimeData b, ObjectFifoHandle,
                                                            ObjectFifoHandle o) { o.drain(b, {.wait = true}); },
                                                  .host_elements = 16,
                                                  .spec = &dev,
                                                  .program = "test_starved",
                                                  .worker = {.name = "starving"}});
        return harness::DesignInstance(
            std::move(program), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor(DType::i32, {16})}},
            [](const harness::Tensors& x) {
                return harness::Tensors{{"b", x.at("a")}};
            },
            "test_starved");
    };
    harness::register_design(s);

    // A kernel that writes one word past its output view (the memory check).
    harness::DesignSpec ov;
    ov.name = "test_overrun";
    ov.description = "test: a kernel writes past its output";
    ov.devices = {"npu1_1col"};
    ov.build = [](const model::DeviceSpec& dev, const harness::Params&, const harness::BuildOptions&) {
        using namespace iron;
        Kernel over(
            "copy_over",
            [](std::span<const KernelArg> a) {
                const auto* x = reinterpret_cast<const std::int32_t*>(a[0].data);
                auto* y = reinterpret_cast<std::int32_t*>(a[1].data);
                for (int i = 0; i < 17; ++i) y[i] = x[i % 16] + 1;
            },
            {tensor<std::int32_t>({16}), tensor<std::int32_t>({16})}, cost::fixed(10));
        const auto t = tensor<std::int32_t>({16});
        auto program = npusim::test::passthrough({.type = t,
                                                  .body = npusim::test::kernel_body(over),
                                                  .host_elements = 16,
                                                  .spec = &dev,
                                                  .program = "test_overrun"});
        std::vector<std::int32_t> a(16);
        for (int i = 0; i < 16; ++i) a[static_cast<std::size_t>(i)] = i;
        return harness::DesignInstance(
            std::move(program), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor::from(t.shape, a)}},
            [t](const harness::Tensors& x) {
                auto v = x.at("a").values<std::int32_t>();
                for (auto& e : v) e += 1;
                return harness::Tensors{{"b", harness::Tensor::from(t.shape, v)}};
            },
            "test_overrun");
    };
    harness::register_design(ov);

    // Native code that never returns: a kernel that spins (param where=0) or a body that spins
    // before its first fifo call, i.e. already in the resolve-time trace (where=1).
    harness::DesignSpec sp;
    sp.name = "test_spin";
    sp.description = "test: native code that never returns";
    sp.devices = {"npu1_1col"};
    sp.params = {{"where", 0, "0: in a kernel, 1: in the body during the resolve-time trace"}};
    sp.build = [](const model::DeviceSpec& dev, const harness::Params& p, const harness::BuildOptions&) {
        using namespace iron;
        Kernel spin(
            "spin",
            [](std::span<const KernelArg>) {
                volatile bool forever = true;
                while (forever) {}
            },
            {tensor<std::int32_t>({16})}, cost::fixed(10));
        const bool in_body = p.at("where") == 1;
        const auto t = tensor<std::int32_t>({16});
        auto program = npusim::test::passthrough({.type = t,
                                                  .body =
                                                      [in_body, spin](ObjectFifoHandle i, ObjectFifoHandle o) {
                                                          volatile bool forever = in_body;
                                                          while (forever) {}
                                                          auto e = i.acquire(1);
                                                          auto f = o.acquire(1);
                                                          spin(f);
                                                          (void)e;
                                                          i.release(1);
                                                          o.release(1);
                                                      },
                                                  .host_elements = 16,
                                                  .spec = &dev,
                                                  .program = "test_spin",
                                                  .worker = {.name = "spinner"}});
        return harness::DesignInstance(
            std::move(program), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor(DType::i32, {16})}},
            [](const harness::Tensors& x) {
                return harness::Tensors{{"b", x.at("a")}};
            },
            "test_spin");
    };
    harness::register_design(sp);

    // A kernel with a 16 MiB local array, touched from its top down as a growing stack would be.
    harness::DesignSpec st;
    st.name = "test_big_stack";
    st.description = "test: a kernel whose local array overflows the core stack";
    st.devices = {"npu1_1col"};
    st.build = [](const model::DeviceSpec& dev, const harness::Params&, const harness::BuildOptions&) {
        using namespace iron;
        Kernel big(
            "big_local",
            [](std::span<const KernelArg> a) {
                constexpr std::size_t kBytes = 16u << 20;
                volatile char local[kBytes];
                for (std::size_t i = kBytes; i >= 4096; i -= 4096) local[i - 1] = 1;
                std::memcpy(a[0].data, const_cast<const char*>(&local[kBytes - 64]), 64);
            },
            {tensor<std::int32_t>({16})}, cost::fixed(10));
        const auto t = tensor<std::int32_t>({16});
        auto program = npusim::test::passthrough({.type = t,
                                                  .body =
                                                      [big](ObjectFifoHandle i, ObjectFifoHandle o) {
                                                          auto e = i.acquire(1);
                                                          auto f = o.acquire(1);
                                                          big(f);
                                                          (void)e;
                                                          i.release(1);
                                                          o.release(1);
                                                      },
                                                  .host_elements = 16,
                                                  .spec = &dev,
                                                  .program = "test_big_stack",
                                                  .worker = {.name = "deep"}});
        return harness::DesignInstance(
            std::move(program), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor(DType::i32, {16})}},
            [](const harness::Tensors& x) {
                return harness::Tensors{{"b", x.at("a")}};
            },
            "test_big_stack");
    };
    harness::register_design(st);

    // Six drains pushed before any await while a slow worker makes each object: the fifth push
    // finds the shim queue full (see tests/sim/TaskQueue_test.cpp).
    harness::DesignSpec q;
    q.name = "test_queue_flood";
    q.description = "test: overflows a shim task queue";
    q.devices = {"npu1_1col"};
    q.build = [](const model::DeviceSpec& dev, const harness::Params&, const harness::BuildOptions&) {
        using namespace iron;
        auto program = npusim::test::passthrough(
            {.type = tensor<std::int32_t>({64}),
             .body =
                 [](ObjectFifoHandle i, ObjectFifoHandle o) {
                     auto e = i.acquire(1);
                     auto f = o.acquire(1);
                     std::memcpy(f.data(), e.data(), 256);
                     add_cycles(100000);
                     i.release(1);
                     o.release(1);
                 },
             .seq =
                 [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                     i.fill(a);
                     for (int k = 0; k < 6; ++k)
                         o.drain(b, {.tap = TensorAccessPattern({384}, 64 * k, {64}, {1}), .wait = true});
                 },
             .host_elements = 384,
             .spec = &dev,
             .program = "test_queue_flood",
             .worker = {.name = "slow"}});
        const auto t = tensor<std::int32_t>({384});
        std::vector<std::int32_t> a(384);
        for (std::size_t k = 0; k < a.size(); ++k) a[k] = static_cast<std::int32_t>(k * 7);
        return harness::DesignInstance(
            std::move(program), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor::from({384}, a)}},
            [](const harness::Tensors& x) {
                return harness::Tensors{{"b", x.at("a")}};
            },
            "test_queue_flood");
    };
    harness::register_design(q);
}
} // namespace

TEST_CASE("the default demo runs and passes", "[cli]") {
    const auto r = cli({});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("npusim: passthrough_kernel on npu1_1col (AIE2, 1 column)"));
    CHECK_THAT(r.out, Catch::Contains("result: PASS"));
}

TEST_CASE("list and devices", "[cli]") {
    const auto l = cli({"list"});
    CHECK(l.code == 0);
    for (const char* d : {"passthrough_kernel ", "passthrough_dmas ", "vector_scalar_mul ", "vector_vector_add "})
        CHECK_THAT(l.out, Catch::Contains(d));
    const auto d = cli({"devices"});
    CHECK(d.code == 0);
    CHECK_THAT(d.out, Catch::Contains("npu2_7col"));
}

TEST_CASE("run prints an aligned summary, --json one object", "[cli]") {
    const auto r = cli({"run", "vector_scalar_mul", "--device", "NPU2", "--param", "bits=32"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("npusim: vector_scalar_mul on npu2 (AIE2P, 8 columns)"));
    CHECK_THAT(r.out, Catch::Contains("  parameters   bits=32 factor=3 size=4096 tile=1024 trace_size=0\n"));
    const auto j = cli({"run", "passthrough_dmas", "--json"});
    REQUIRE(j.code == 0);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["status"] == "pass");
    CHECK(doc["cycles"].get<std::uint64_t>() > 0);
    CHECK(doc["outputs"][0]["match"] == true);
    CHECK(doc["stats"]["bd_transfers"].get<int>() > 0);
}

TEST_CASE("run: the summary breaks time down by tile and cause, MACs against peak, and the bound", "[cli]") {
    const auto r = cli({"run", "matmul_single_core", "--param", "M=64", "--param", "K=64", "--param", "N=64"});
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("  time by tile, % of the run's "));
    CHECK_THAT(r.out, Catch::Contains("  tile    kind     worker            kernel    body lock wait  ch streaming "
                                      "stream wait lock wait\n"));
    CHECK_THAT(r.out, Catch::Contains("  (0,2)   compute  "));
    // 64^3 = 262,144 MACs on one core whose i16 unit peaks at 64 MAC/cycle (AIE2).
    CHECK_THAT(r.out, Catch::Contains("  compute      262,144 MACs on 1 core: "));
    CHECK_THAT(r.out, Catch::Contains("of their 64 MAC/cycle peak)"));
    CHECK((r.out.find("  bound by     ") != std::string::npos || r.out.find("  busiest      ") != std::string::npos));
    const auto j = cli({"run", "memcpy", "--device", "npu2", "--param", "size=4194304", "--param", "columns=8",
                        "--param", "channels=2", "--json"});
    REQUIRE(j.code == 0);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["breakdown"]["bound"]["kind"] == "shared_path");
    CHECK(doc["breakdown"]["bound"]["name"] == "host memory (DDR)");
    CHECK(doc["breakdown"]["bound"]["bounds_throughput"] == true);
    CHECK(doc["breakdown"]["tiles"].size() == 16);
    CHECK(doc["stats"]["shared_paths"][0]["label"] == "host memory (DDR)");
    CHECK(doc["stats"]["shared_paths"][0]["delay_cycles"].get<std::uint64_t>() > 0);
    CHECK(doc["stats"]["channels"][0]["active_cycles"].get<std::uint64_t>() > 0);
}

TEST_CASE("run --progress: whole lines with done/total, rate and elapsed time when stderr is not a terminal", "[cli]") {
    const auto r = cli({"run", "vector_scalar_mul", "--progress"});
    REQUIRE(r.code == 0);
    CHECK(r.err.find('\r') == std::string::npos); // a log gets lines, not carriage returns
    // The last report: every instruction of E3's sequence done (2 fills/drains + awaits).
    CHECK_THAT(r.err,
               Catch::Matches("(?:.|\n)*  progress: (\\d+)/\\1 sequence ops \\(100%\\), [0-9,]+ cycles simulated, "
                              "[0-9.]+ M cycles/s, [0-9.]+ MiB moved, [0-9.]+ s elapsed \\(end\\)\n"));
    // In place on a terminal: a carriage return before each report, the last one ends the line.
    std::ostringstream tty;
    tools::ProgressLine line(tty, true);
    sim::SimProgress p;
    p.cycles = 1000;
    p.ops_total = 4;
    p.wall_seconds = 0.5;
    line(p);
    p.wall_seconds = 0.55; // within 0.1 s of the last: not printed
    line(p);
    p.ops_done = 4;
    p.final = true;
    p.wall_seconds = 0.56;
    line(p);
    const auto text = tty.str();
    CHECK(std::count(text.begin(), text.end(), '\r') == 2);
    CHECK(text.back() == '\n');
    CHECK_THAT(text, Catch::Contains("4/4 sequence ops (100%)"));
    CHECK(tools::ProgressLine::format(p).find("0.00 M cycles/s") != std::string::npos); // 1000 / 0.56 s
}

TEST_CASE("run --what-if: each ablation alone beside the baseline, outputs checked on every run", "[cli]") {
    const auto r =
        cli({"run", "vector_scalar_mul", "--what-if", "free-kernels,zero-host-latency", "--what-if", "free-kernels"});
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("  what-if: each ablation alone against the baseline"));
    CHECK_THAT(r.out, Catch::Contains("  scenario                    cycles    change     npu time  outputs\n"));
    CHECK(r.out.find("  free-kernels   ") == r.out.rfind("  free-kernels   ")); // named twice, run once
    const auto j = cli({"run", "vector_scalar_mul", "--what-if", "all", "--json"});
    REQUIRE(j.code == 0);
    const auto doc = nlohmann::json::parse(j.out);
    REQUIRE(doc["what_if"].size() == 4);
    const auto base = doc["cycles"].get<std::uint64_t>();
    std::map<std::string, nlohmann::json> by;
    for (const auto& w : doc["what_if"]) by[w["name"].get<std::string>()] = w;
    // E3's kernels hide behind its DMA: free kernels change nothing there. In a matmul, where
    // cores are busy, they shorten the run.
    CHECK(by["free-kernels"]["cycles"].get<std::uint64_t>() <= base);
    CHECK(by["free-kernels"]["match"] == true); // the kernels still compute
    CHECK(by["ideal-locks"]["cycles"].get<std::uint64_t>() < base);
    CHECK(by["unlimited-ddr"]["cycles"].get<std::uint64_t>() <= base); // one channel each way: not DDR-bound
    CHECK(by["zero-host-latency"]["cycles"].get<std::uint64_t>() == base); // host time only
    CHECK(by["zero-host-latency"]["npu_time_us"].get<double>() ==
          Approx(doc["npu_time_us"].get<double>() - doc["host_invocation_latency_us"].get<double>()));
    const auto mm = cli({"run", "matmul_single_core", "--param", "M=128", "--param", "K=128", "--param", "N=128",
                         "--what-if", "free-kernels", "--json"});
    REQUIRE(mm.code == 0);
    const auto mdoc = nlohmann::json::parse(mm.out);
    CHECK(mdoc["what_if"][0]["cycles"].get<std::uint64_t>() < mdoc["cycles"].get<std::uint64_t>());
    const auto bad = cli({"run", "vector_scalar_mul", "--what-if", "free-dma"});
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("--what-if: unknown ablation 'free-dma' (one of: free-kernels, unlimited-ddr, "
                                        "ideal-locks, zero-host-latency, all, sensitivity)"));
}

TEST_CASE("run --device a,b: the same design on several devices, cycles and output digests side by side", "[cli]") {
    const auto r = cli({"run", "vector_scalar_mul", "--device", "npu1_1col,npu2,npu1_1col"});
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("npusim: vector_scalar_mul on 2 devices (same parameters, seed 1)\n"));
    CHECK_THAT(r.out, Catch::Contains("  npu1_1col  AIE2      1 "));
    CHECK_THAT(r.out, Catch::Contains("  npu2       AIE2P     8 "));
    CHECK_THAT(r.out, Catch::Contains("  outputs: identical on every device\n"));
    CHECK_THAT(r.out, Catch::EndsWith("result: PASS on every device\n"));
    // A device the design does not support: its row says why, the others still run, exit code 2.
    const auto m = cli({"run", "matmul_whole_array", "--device", "npu1_3col,npu2", "--json"}); // 3 columns: no
    CHECK(m.code == 2);
    const auto doc = nlohmann::json::parse(m.out);
    REQUIRE(doc["devices"].size() == 2);
    CHECK(doc["devices"][0]["status"] == "design_error");
    CHECK(doc["devices"][1]["status"] == "pass");
    CHECK(doc["devices"][1]["output_digests"]["C"].get<std::string>().size() == 16);
    const auto t = cli({"run", "vector_scalar_mul", "--device", "npu1,npu2", "--trace", "/tmp/x.json"});
    CHECK(t.code == 2);
    CHECK_THAT(t.err, Catch::Contains("--trace, --vcd, --dot and --html write one run's files: give one device"));
    const auto e = cli({"run", "vector_scalar_mul", "--device", "npu1,,npu2"});
    CHECK(e.code == 2);
    CHECK_THAT(e.err, Catch::Contains("--device 'npu1,,npu2': an empty device name in the list"));
}

TEST_CASE("exit code 2: design and usage errors", "[cli]") {
    auto r = cli({"run", "no_such_design"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("npusim: design error: unknown design 'no_such_design'"));
    r = cli({"run", "passthrough_kernel", "--device", "npu9"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("npusim: design error: unknown device 'npu9'"));
    r = cli({"run", "passthrough_kernel", "--param", "tile"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("npusim: usage error: --param expects K=V, got 'tile'"));
    r = cli({"frobnicate"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("unknown command 'frobnicate'"));
    r = cli({"run", "passthrough_kernel", "--max-cycles", "many"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("--max-cycles expects a non-negative integer, got 'many'"));
    r = cli({"run", "passthrough_kernel", "--json", "--param", "size=1000"});
    CHECK(r.code == 2);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["status"] == "design_error");
    CHECK(doc["error"]["message"] ==
          "design 'passthrough_kernel': parameter size=1000 must be a positive multiple of tile=1024");
}

TEST_CASE("run: a named parameter takes a name (--param dtype_in=i8)", "[cli]") {
    auto r = cli({"run", "matmul_single_core", "--param", "M=64", "--param", "K=64", "--param", "N=64", "--param",
                  "dtype_in=i8", "--param=dtype_out=i32"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("match"));
    r = cli({"run", "matmul_single_core", "--param", "dtype_in=i4"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("npusim: design error: design 'matmul_single_core': parameter dtype_in=i4 is "
                                        "not one of bf16, i8, i16"));
    r = cli({"run", "matmul_whole_array", "--device", "npu1", "--param", "dtype_in=i16", "--param", "dtype_out=i8"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("design 'matmul_whole_array': dtype_in=i16 dtype_out=i8 is not a combination "
                                      "the mm kernel builds (i8->i8, i8->i16, i8->i32, i16->i16, i16->i32, "
                                      "bf16->bf16, bf16->f32)"));
    // a parameter without names still takes integers only (a usage error, as before)
    r = cli({"run", "matmul_single_core", "--param", "M=big"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("--param M expects an integer, got 'big'"));
}

TEST_CASE("exit code 3: deadlock, with the report", "[cli]") {
    register_test_designs();
    const auto r = cli({"run", "test_starved"});
    CHECK(r.code == 3);
    CHECK_THAT(r.err, Catch::StartsWith("npusim: deadlock: deadlock at cycle"));
    CHECK_THAT(r.err, Catch::Contains("worker 'starving' on (0,2): acquire(1) on fifo 'in' consumer 0"));
}

TEST_CASE("exit code 4: cycle limit", "[cli]") {
    const auto r = cli({"run", "passthrough_kernel", "--max-cycles", "100"});
    CHECK(r.code == 4);
    CHECK_THAT(r.err, Catch::Contains("reached the cycle limit of 100 cycles"));
}

TEST_CASE("timing overrides from a file change the cycle count", "[cli]") {
    const auto base =
        nlohmann::json::parse(cli({"run", "passthrough_kernel", "--json"}).out)["cycles"].get<std::uint64_t>();
    const std::string path = "npusim_cli_test_timing.json";
    {
        std::ofstream f(path);
        f << R"({"stream_bytes_per_cycle": 1})";
    }
    const auto slow = nlohmann::json::parse(cli({"run", "passthrough_kernel", "--json", "--timing", path}).out);
    CHECK(slow["cycles"].get<std::uint64_t>() > base);
    std::remove(path.c_str());
    const auto bad = cli({"run", "passthrough_kernel", "--timing", "/nonexistent.json"});
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("cannot open timing file '/nonexistent.json'"));
}

TEST_CASE("traces are always built in: --trace, --vcd and --html write their files", "[cli]") {
    npusim::test::TempDir d("npusim_cli_traces");
    const auto r = cli({"run", "passthrough_kernel", "--trace", d.file("t.json"), "--vcd=" + d.file("t.vcd")});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("  trace written to " + d.file("t.json") + " (open in ui.perfetto.dev)\n"));
    CHECK_THAT(r.out, Catch::Contains("  waveform written to " + d.file("t.vcd") + " (open with GTKWave)\n"));
    std::ifstream trace(d.file("t.json"));
    REQUIRE(trace);
    const auto doc = nlohmann::json::parse(trace);
    CHECK_FALSE(doc.empty());
    std::ifstream vcd(d.file("t.vcd"));
    std::string first;
    std::getline(vcd, first);
    CHECK_FALSE(first.empty());
    const auto h = cli({"run", "passthrough_kernel", "--html", d.file("r.html")});
    INFO(h.out << h.err);
    REQUIRE(h.code == 0);
    CHECK_THAT(h.out, Catch::Contains("  report written to " + d.file("r.html") + " (open in a browser)\n"));
    std::ifstream in(d.file("r.html"));
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK_THAT(page, Catch::StartsWith("<!DOCTYPE html>"));
    CHECK_THAT(page, Catch::Contains("status-pass"));
    CHECK_THAT(page, Catch::Contains("id=\"design-graph\""));
    CHECK_THAT(page, Catch::Contains("\"worker 'passthrough' on (0,2)\""));
    CHECK_THAT(page, !Catch::Contains("id=\"deadlock-graph\""));
}

TEST_CASE("a run that fails still writes its --html report: the deadlock graph, exit code kept", "[cli]") {
    npusim::test::TempDir d("npusim_cli_html");
    const auto r = cli({"run", "deadlock_fill_less", "--html", d.file("d.html"), "--json"});
    INFO(r.out << r.err);
    CHECK(r.code == 3);
    CHECK_THAT(r.err,
               Catch::Contains("  report written to " + d.file("d.html") + " (up to the failure; open in a browser)"));
    std::ifstream in(d.file("d.html"));
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK_THAT(page, Catch::Contains("status-deadlock"));
    CHECK_THAT(page, Catch::Contains("id=\"deadlock-graph\""));
    CHECK_THAT(page, Catch::Contains("fill_less_than_consumed"));
    CHECK_THAT(page, Catch::Contains("blocked: ")); // the blocked spans on the timeline
    // A report that cannot be written is noted; the deadlock keeps its exit code.
    const auto full = cli({"run", "deadlock_fill_less", "--html", "/dev/full"});
    CHECK(full.code == 3);
    CHECK_THAT(full.err, Catch::Contains("  --html: cannot write HTML report to '/dev/full': No space left on device"));
    CHECK_THAT(full.err, Catch::Contains("npusim: deadlock: "));
    // A cycle limit is reported the same way.
    const auto bad = cli({"run", "passthrough_kernel", "--html", d.file("bad.html"), "--max-cycles", "100"});
    CHECK(bad.code == 4);
    std::ifstream bin(d.file("bad.html"));
    const std::string limit((std::istreambuf_iterator<char>(bin)), std::istreambuf_iterator<char>());
    CHECK_THAT(limit, Catch::Contains("status-limit"));
}

TEST_CASE("queue-wait: a queue overflow is exit code 4 at that push, --queue-wait waits for a slot and passes",
          "[cli][queue]") {
    register_test_designs();
    const auto over = cli({"run", "test_queue_flood"});
    CHECK(over.code == 4);
    CHECK_THAT(over.err, Catch::Contains("the task queue of shim (0,0) S2MM 0 is full (4 tasks pending) when starting "
                                         "task 5 ('out' drain)"));
    CHECK_THAT(over.err, Catch::Contains("or run with --queue-wait"));
    const auto ok = cli({"run", "test_queue_flood", "--queue-wait", "--json"});
    REQUIRE(ok.code == 0);
    const auto doc = nlohmann::json::parse(ok.out);
    CHECK(doc["status"] == "pass");
    CHECK(doc["stats"]["queue_waits"].get<int>() == 2);
    CHECK_THAT(cli({"--help"}).out, Catch::Contains("--queue-wait"));
    CHECK_THAT(cli({"--help"}).out, Catch::Contains("--werror"));
    CHECK(cli({"run", "per_tile", "--werror"}).code == 0); // no resolve-time warning
}

TEST_CASE("iters and warmup: the summary shows first and steady-state cycles, --json every invocation",
          "[cli][invocations]") {
    const auto r = cli({"run", "invocation_counter", "--iters", "3", "--warmup", "1"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("  invocations  4 (1 warm-up): first "));
    CHECK_THAT(r.out, Catch::Contains("cycles, steady state "));
    CHECK_THAT(r.out, Catch::Contains("result: PASS"));
    const auto j = cli({"golden", "invocation_counter", "--iters=2", "--json"});
    REQUIRE(j.code == 0);
    const auto doc = nlohmann::json::parse(j.out);
    REQUIRE(doc["invocations"].size() == 2);
    CHECK(doc["invocations"][1]["index"] == 1);
    CHECK(doc["invocations"][1]["match"] == true);
    CHECK(doc["invocations"][0]["warmup"] == false);
    const auto bad = cli({"run", "invocation_counter", "--iters", "0"});
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("--iters expects 1 up to 1000000, got 0"));
}

TEST_CASE("a deadlocked run still writes its trace and waveform, with each blocked wait open up to the failure, a "
          "bad output path fails before simulating",
          "[cli][trace]") {
    register_test_designs();
    npusim::test::TempDir d("npusim_cli_deadlock_traces");
    const auto r = cli({"run", "test_starved", "--trace", d.file("t.json"), "--vcd", d.file("t.vcd")});
    REQUIRE(r.code == 3);
    CHECK_THAT(r.err, Catch::Contains("  trace written to " + d.file("t.json") + " (up to the failure)\n"));
    CHECK_THAT(r.err, Catch::Contains("  waveform written to " + d.file("t.vcd") + " (up to the failure)\n"));
    std::ifstream trace(d.file("t.json"));
    REQUIRE(trace);
    const auto doc = nlohmann::json::parse(trace);
    const auto& events = doc.is_array() ? doc : doc["traceEvents"];
    bool blocked_worker = false;
    for (const auto& e : events)
        if (e.contains("name") && e["name"].is_string() &&
            e["name"].get<std::string>().starts_with("blocked: acquire(1) on fifo 'in' consumer 0"))
            blocked_worker = true;
    CHECK(blocked_worker);
    std::ifstream vcd(d.file("t.vcd"));
    std::string text((std::istreambuf_iterator<char>(vcd)), std::istreambuf_iterator<char>());
    CHECK_THAT(text, Catch::Contains("$enddefinitions"));

    const auto bad = cli({"run", "passthrough_kernel", "--trace", "/nonexistent/dir/t.json"});
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("cannot write --trace '/nonexistent/dir/t.json'"));
}

TEST_CASE("a deadlock with --json carries the structured deadlock object, --dot writes the wait-for graph, which "
          "Graphviz renders",
          "[cli][deadlock]") {
    register_test_designs();
    npusim::test::TempDir d("npusim_cli_deadlock_dot");
    const auto r = cli({"run", "test_starved", "--json", "--dot", d.file("g.dot")});
    REQUIRE(r.code == 3);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["status"] == "deadlock");
    const auto& dl = doc["deadlock"];
    CHECK(dl["case"]["id"] == "fill_less_than_consumed");
    CHECK(dl["design"] == "test_starved");
    // Nodes and edges by id; the chain starts at the runtime sequence and ends at the idle shim channel.
    std::set<std::string> ids;
    for (const auto& n : dl["nodes"]) ids.insert(n["id"].get<std::string>());
    CHECK(ids.count("process:runtime"));
    CHECK(ids.count("lock:in_cons_cons_lock_0"));
    for (const auto& e : dl["edges"]) {
        CHECK(ids.count(e["from"].get<std::string>()));
        CHECK(ids.count(e["to"].get<std::string>()));
    }
    REQUIRE(dl["chain"].size() >= 3);
    CHECK(dl["chain"].front()["process"] == "process:runtime");
    CHECK(dl["chain"].back()["process"] == "process:shim DMA (0,0) MM2S 0");
    CHECK(dl["chain"].back()["step"] == dl["chain"].size());
    bool worker = false;
    for (const auto& p : dl["progress"])
        if (p["process"] == "worker 'starving' on (0,2)") {
            worker = true;
            CHECK(p["state"] == "blocked");
            CHECK(p["fifo_ends"].size() == 2);
        }
    CHECK(worker);
    // The DOT file renders with Graphviz's dot.
    REQUIRE(std::filesystem::exists(d.file("g.dot")));
    const std::string cmd =
        "dot -Tsvg '" + d.file("g.dot") + "' -o '" + d.file("g.svg") + "' 2>'" + d.file("err") + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::ifstream svg(d.file("g.svg"));
    std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
    CHECK_THAT(text, Catch::Contains("<svg"));
    CHECK_THAT(text, Catch::Contains("worker &#39;starving&#39; on (0,2)"));
}

TEST_CASE("a run that finishes writes no --dot graph and says so, a bad --dot path fails before simulating",
          "[cli][deadlock]") {
    npusim::test::TempDir d("npusim_cli_dot_ok");
    const auto ok = cli({"run", "passthrough_kernel", "--dot", d.file("g.dot")});
    CHECK(ok.code == 0);
    CHECK_FALSE(std::filesystem::exists(d.file("g.dot")));
    CHECK_THAT(ok.err, Catch::Contains("--dot: the run finished, so there is no wait-for graph to draw"));
    const auto bad = cli({"run", "passthrough_kernel", "--dot", "/nonexistent/dir/g.dot"});
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("cannot write --dot '/nonexistent/dir/g.dot'"));
}

TEST_CASE("a deadlock whose --dot graph cannot be written still reports the deadlock, exit 3", "[cli][deadlock]") {
    // /dev/full opens but refuses every write: the note names the reason, the report and code stay.
    const auto r = cli({"run", "deadlock_fill_less", "--dot", "/dev/full"});
    CHECK(r.code == 3);
    CHECK_THAT(r.err, Catch::Contains("--dot: cannot write '/dev/full': No space left on device; the report follows"));
    CHECK_THAT(r.err, Catch::Contains("[fill_less_than_consumed]"));
}

TEST_CASE("a cycle limit with --json carries the limit object with every process's progress", "[cli][limit]") {
    const auto r = cli({"run", "passthrough_kernel", "--max-cycles", "300", "--json"});
    REQUIRE(r.code == 4);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["status"] == "limit");
    CHECK(doc["limit"]["case"]["id"].get<std::string>().size() > 0);
    CHECK(doc["limit"]["progress"].size() >= 3);
}

TEST_CASE("a kernel writing past its output view is a kernel error (exit 2) naming it, --no-memory-check lets it "
          "pass as the NPU would",
          "[cli][memory]") {
    register_test_designs();
    const auto r = cli({"run", "test_overrun"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err,
               Catch::StartsWith("npusim: kernel error: worker 'w': kernel 'copy_over' wrote outside the views it "
                                 "was given"));
    CHECK_THAT(r.err, Catch::Contains("right after the end of view 'out' (64 B)"));
    const auto off = cli({"run", "test_overrun", "--no-memory-check"});
    CHECK(off.code == 0);
}

namespace {
// Run the CLI in a child process (the watchdog ends the process it runs in): exit code and output.
Out cli_in_child(std::vector<std::string> args) {
    auto r = tools::run_cli_in_child(args);
    return {r.code, "", std::move(r.output)};
}
} // namespace

TEST_CASE("the wall-clock limit (--timeout): a kernel that never returns is named and the run ends with exit code 4 "
          "within a second of "
          "the limit, so is a body looping in its resolve-time trace",
          "[cli][timeout][slow]") {
    register_test_designs();
    const auto t0 = std::chrono::steady_clock::now();
    const auto k = cli_in_child({"run", "test_spin", "--timeout", "1"});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(k.code == 4);
    CHECK(seconds < 3.0);
    CHECK_THAT(k.err, Catch::Contains("npusim: limit reached: wall-clock limit of 1 s reached (--timeout): worker "
                                      "'spinner' is running kernel 'spin' (entered at cycle "));
    CHECK_THAT(k.err, Catch::Contains("it has not returned, so npusim stops here"));
    const auto b = cli_in_child({"run", "test_spin", "--param", "where=1", "--timeout", "1", "--json"});
    CHECK(b.code == 4);
    const auto doc = nlohmann::json::parse(b.err); // stdout and stderr share the pipe; only JSON is written
    CHECK(doc["status"] == "limit");
    CHECK(doc["error"]["message"] == "wall-clock limit of 1 s reached (--timeout): worker 'spinner' is running its "
                                     "body in the resolve-time trace of its body; it has not returned, so npusim "
                                     "stops here");
}

TEST_CASE("a kernel that overflows the core stack is reported with its worker, kernel and how to raise the stack "
          "(exit 2), --core-stack gives it room",
          "[cli][crash]") {
    register_test_designs();
    const auto r = cli_in_child({"run", "test_big_stack"});
#if defined(__SANITIZE_ADDRESS__)
    CHECK(r.code != 0); // AddressSanitizer reports the overflow itself
#else
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("npusim: kernel error: worker 'deep' was running kernel 'big_local' (entered at "
                                      "cycle "));
    CHECK_THAT(r.err,
               Catch::Contains("crashed with SIGSEGV (invalid memory access). Most likely its stack overflowed"));
    CHECK_THAT(r.err, Catch::Contains("raise it with --core-stack BYTES"));
#endif
    const auto ok = cli_in_child({"run", "test_big_stack", "--core-stack", "67108864"});
    CHECK(ok.code != 2);
    const auto bad = cli({"run", "test_big_stack", "--core-stack", "1000"});
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("--core-stack expects 1048576 up to 1073741824 bytes (1 GiB), got 1000"));
}

// Every JSON document starts with what it is and the versions of its schema and of npusim
// (tools/JsonDocument.hpp, docs/json.md), on every subcommand that prints one.
TEST_CASE("cli: every --json document names itself, its schema version and npusim's version", "[cli][json]") {
    const std::vector<std::pair<std::string, std::vector<std::string>>> docs = {
        {"list", {"list", "--json"}},
        {"devices", {"devices", "--json"}},
        {"timing", {"timing", "--device=npu2", "--json"}},
        {"args", {"args", "vector_scalar_mul", "--json"}},
        {"run", {"run", "vector_scalar_mul", "--json"}},
        {"run_devices", {"run", "vector_scalar_mul", "--device", "npu1_1col,npu2", "--json"}},
        {"error", {"run", "no_such_design", "--json"}},
        {"depth", {"depth", "passthrough_dmas", "--max-depth", "2", "--json"}},
        {"sweep", {"sweep", "vector_scalar_mul", "--param", "bits=16,32", "--json"}},
        {"export", {"export", "vector_scalar_mul", "--json"}},
        {"calibrate", {"calibrate", "vector_scalar_mul", "--npu-time-us", "300", "--fit", "host_invocation_latency_us", "--json"}},
    };
    for (const auto& [kind, args] : docs) {
        INFO(kind);
        const auto r = cli(args);
        const auto j = nlohmann::json::parse(r.out); // one document, nothing before or after it
        CHECK(j["document"] == kind);
        CHECK(j["schema_version"] == 1);
        CHECK(j["npusim_version"] == cli({"--version"}).out.substr(7, cli({"--version"}).out.size() - 8));
    }
    CHECK(cli({"--version"}).out == "npusim 0.1.0\n");
}

TEST_CASE("cli: --netlist with --json is one document holding the netlist, and each subcommand has --help",
          "[cli][json]") {
    const auto r = cli({"run", "passthrough_dmas", "--netlist", "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    // Structured (docs/json-schema/run.schema.json): what the text dump shows, as fields.
    const auto& n = j["netlist"];
    REQUIRE(n.is_object());
    CHECK(n["design"] == "passthrough_dmas");
    CHECK(n["device"] == "npu1_1col");
    REQUIRE_FALSE(n["channels"].empty());
    REQUIRE_FALSE(n["channels"][0]["bds"].empty());
    CHECK(n["channels"][0]["bds"][0]["length_bytes"].is_number_integer());
    CHECK(n["channels"][0]["tile"].contains("col"));
    REQUIRE_FALSE(n["tasks"].empty());
    CHECK(n["tasks"][0]["dir"] == "MM2S");
    CHECK(n["host_tensors"].size() >= 2);
    CHECK(n["sequence"][0]["kind"] == "start_task");
    for (const char* cmd : {"run", "depth", "sweep", "timing", "list", "calibrate"}) {
        const auto h = cli({cmd, "--help"});
        CHECK(h.code == 0);
        CHECK_THAT(h.out, Catch::StartsWith("usage:"));
        CHECK_THAT(h.out, Catch::Contains(std::string("  npusim ") + cmd));
        CHECK_THAT(h.out, Catch::Contains("exit codes:"));
    }
    // Each command's help is its own: its lines and the options it reads, not the others'.
    const auto run_help = cli({"run", "--help"}).out, depth_help = cli({"depth", "--help"}).out;
    CHECK_THAT(run_help, Catch::Contains("run options") && Catch::Contains(".npy files") &&
                             !Catch::Contains("depth options") && !Catch::Contains("npusim sweep"));
    CHECK_THAT(depth_help,
               Catch::Contains("--max-depth") && !Catch::Contains("run options") && !Catch::Contains("sweep options"));
    CHECK_THAT(cli({"sweep", "-h"}).out, Catch::Contains("--serial") && !Catch::Contains("--max-depth"));
    CHECK_THAT(cli({"export", "--help"}).out, Catch::Contains("--print-commands") && !Catch::Contains("--what-if"));
    CHECK(cli({"--help"}).out.size() > run_help.size() + depth_help.size()); // the whole usage
    CHECK(cli({"timing", "--device=npu2"}).code == 0); // the --opt=value form, as everywhere
}
