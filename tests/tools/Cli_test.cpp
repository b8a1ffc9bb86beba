// The CLI contract (README.md "Using it", docs/errors.md): commands, output, --json, and exit codes 0-4 with their messages.
#include "CliRun.hpp"
#include "CliSupport.hpp"
#include "CliTestDesigns.hpp"
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
using npusim::test::register_test_designs;

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
