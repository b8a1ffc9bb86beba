// `npusim hw` and `npusim compare` without an NPU: the buffer-object plan from a design's runtime
// arguments, the documented exit code 6 from the real XRT (Debian's libxrt-dev) finding no device,
// file errors before XRT is touched, and the comparison report from recorded outputs.
#include "CliRun.hpp"
#include "HwCommand.hpp"

#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/NpyFile.hpp"
#include "npusim/hw/BufferPlan.hpp"
#include "npusim/hw/XrtRunner.hpp"
#include "npusim/model/TimingParams.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace npusim;
using npusim::test::cli;
using npusim::test::Out;

namespace {

std::filesystem::path scratch(const std::string& name) {
    static const npusim::test::TempDir base("npusim_hw_cli_tests"); // removed at exit
    auto d = base.path / name;
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

void write(const std::filesystem::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

} // namespace

TEST_CASE("hw without an NPU: the plan, then exit 6 with XRT's own reason", "[cli][hw]") {
    const auto d = scratch("nodevice");
    write(d / "final.xclbin", "not an xclbin, XRT never gets to read it\n");
    write(d / "insts.txt", "06030100\n00000105\n");
    const Out r = cli({"hw", "vector_scalar_mul", "--xclbin", (d / "final.xclbin").string(), "--insts",
                       (d / "insts.txt").string(), "--iters", "10", "--warmup", "2"});
    CHECK(r.code == 6);
    CHECK(r.out.find("insts   " + (d / "insts.txt").string() + " (2 words, text form)") != std::string::npos);
    CHECK(r.out.find("kernel(3, bo_instr, 2, bo_a, bo_c, bo_factor) (warm-up 2, timed 10)") != std::string::npos);
    CHECK(r.out.find("         3  a                     8192  host_only  to device\n") != std::string::npos);
    CHECK(r.out.find("         4  c                     8192  host_only  from device\n") != std::string::npos);
    if (hw::XrtRunner::xrt_version().empty()) {
        CHECK(r.err.find("npusim: no XRT: this npusim was built without XRT") != std::string::npos);
    } else {
        CHECK(r.err.find("npusim: no NPU device: XRT " + hw::XrtRunner::xrt_version() + " cannot open device 0 (") !=
              std::string::npos);
        CHECK(r.err.find("see docs/hardware.md") != std::string::npos);
    }
    const Out j = cli({"hw", "vector_scalar_mul", "--xclbin", (d / "final.xclbin").string(), "--insts",
                       (d / "insts.txt").string(), "--json"});
    CHECK(j.code == 6);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["status"] == "hardware_error");
}

TEST_CASE("hw checks its files before XRT: xclbin, instruction stream, options", "[cli][hw]") {
    const auto d = scratch("files");
    write(d / "insts.bin", std::string("\x00\x00\x03\x06", 4));
    write(d / "empty.bin", "");
    write(d / "x.xclbin", "x");
    const Out missing = cli({"hw", "passthrough_kernel", "--xclbin", (d / "none.xclbin").string(), "--insts",
                             (d / "insts.bin").string()});
    CHECK(missing.code == 2);
    CHECK(missing.err.find("xclbin '" + (d / "none.xclbin").string() + "' cannot be read") != std::string::npos);
    const Out empty = cli({"hw", "passthrough_kernel", "--xclbin", (d / "x.xclbin").string(), "--insts",
                           (d / "empty.bin").string()});
    CHECK(empty.code == 2);
    CHECK(empty.err.find("is empty: the NPU needs at least one instruction word") != std::string::npos);
    const Out no_insts = cli({"hw", "passthrough_kernel", "--xclbin", (d / "x.xclbin").string()});
    CHECK(no_insts.code == 2);
    CHECK(no_insts.err.find("hw: --insts FILE is required") != std::string::npos);
    const Out wrong_device = cli({"hw", "scratchpad_offset", "--device", "npu1", "--xclbin", (d / "x.xclbin").string(),
                                  "--insts", (d / "insts.bin").string()});
    CHECK(wrong_device.code == 2);
    CHECK(wrong_device.err.find("design 'scratchpad_offset' does not run on npu1") != std::string::npos);
}

TEST_CASE("the buffer-object plan of registered designs follows their runtime arguments", "[cli][hw][bo]") {
    for (const std::string name : {"passthrough_kernel", "vector_scalar_mul", "vector_vector_add", "color_threshold"}) {
        INFO(name);
        const auto& spec = harness::design_by_name(name);
        const auto& dev = model::device_by_name(spec.devices.front());
        const auto inst = spec.build(dev, spec.resolve_params({}), harness::BuildOptions(1));
        std::vector<hw::HostArg> args;
        for (const auto& a : inst.args)
            args.push_back({a.name,
                            a.role == harness::ArgRole::input    ? hw::HostArg::Role::input
                            : a.role == harness::ArgRole::output ? hw::HostArg::Role::output
                            : a.role == harness::ArgRole::inout  ? hw::HostArg::Role::inout
                                                                 : hw::HostArg::Role::unused,
                            a.bytes()});
        const hw::BufferPlan plan(name, 8, args);
        REQUIRE(plan.bos().size() == inst.args.size() + 1);
        // The runtime sequence's arguments, in order: Program's tensors are the BOs' order.
        REQUIRE(inst.program.runtime().state()->tensors.size() == inst.args.size());
        for (std::size_t i = 0; i < inst.args.size(); ++i) {
            const auto& b = plan.bos()[i + 1];
            CHECK(b.name == inst.args[i].name);
            CHECK(b.group_id == 3 + static_cast<int>(i));
            CHECK(b.bytes == inst.program.runtime().state()->tensors[i].bytes());
            CHECK(b.from_device == inst.args[i].is_checked());
        }
    }
}

TEST_CASE("compare against recorded outputs: equal, a changed element, and times", "[cli][hw][compare]") {
    const auto d = scratch("compare");
    const Out run = cli({"run", "vector_scalar_mul", "--seed", "5", "--save-outputs", d.string()});
    REQUIRE(run.code == 0);
    std::ofstream(d / "times.txt") << "# us per run\n20.0, 22.0\n24.0\n";

    const Out same = cli({"compare", "vector_scalar_mul", "--seed", "5", "--hw-outputs", d.string(), "--hw-times",
                          (d / "times.txt").string()});
    CHECK(same.code == 0);
    CHECK(same.out.find("  c             4096           0  0\n") != std::string::npos);
    CHECK(same.out.find("measured over 3 runs: avg 22.00 us, min 20.00 us, max 24.00 us") != std::string::npos);
    CHECK(same.out.find("result: PASS") != std::string::npos);

    // Another seed: the simulation's outputs differ from the recorded ones.
    const Out other = cli({"compare", "vector_scalar_mul", "--seed", "6", "--hw-outputs", d.string()});
    CHECK(other.code == 1);
    CHECK(other.out.find("result: FAIL") != std::string::npos);

    // One element changed in the "hardware's" output: named by its index.
    auto t = harness::NpyFile::read((d / "c.npy").string());
    t.data[100 * model::dtype_bytes(t.dtype)] ^= 1; // c[100]
    harness::NpyFile::write((d / "c.npy").string(), t);
    const Out one = cli({"compare", "vector_scalar_mul", "--seed", "5", "--hw-outputs", d.string(), "--json"});
    CHECK(one.code == 1);
    const auto doc = nlohmann::json::parse(one.out);
    CHECK(doc["document"] == "compare");
    CHECK(doc["status"] == "mismatch");
    CHECK(doc["outputs"][0]["mismatches"] == 1);
    CHECK(doc["outputs"][0]["first_mismatches"].get<std::string>().starts_with("[100]"));
    // Structured as run's `first`: index, got and want as numbers (got is the hardware's, c[100] ^ 1).
    REQUIRE(doc["outputs"][0]["first"].size() == 1);
    const auto& first = doc["outputs"][0]["first"][0];
    CHECK(first["index"] == 100);
    CHECK(first["got"].is_number_integer());
    CHECK((first["got"].get<std::int64_t>() ^ first["want"].get<std::int64_t>()) == 1);
    CHECK(first["got_text"].is_string());
    CHECK(doc["simulation"]["cycles"].is_number_integer());
    CHECK(doc["hardware"]["times"].is_null());
    CHECK(doc["ratio"].is_null());
    CHECK(doc["simulation"]["matches_reference"] == true);

    // A recorded output missing: the file named.
    std::filesystem::remove(d / "c.npy");
    const Out gone = cli({"compare", "vector_scalar_mul", "--seed", "5", "--hw-outputs", d.string()});
    CHECK(gone.code == 2);
    CHECK(gone.err.find("c.npy") != std::string::npos);
}

TEST_CASE("the comparison report: times, ratio and per-output lines", "[hw][compare]") {
    harness::OutputCheck c;
    c.arg = "out";
    c.elements = 16;
    c.match = true;
    const auto t = tools::summarize_times({10, 30, 20});
    CHECK(t.runs == 3);
    CHECK(t.min_us == 10);
    CHECK(t.max_us == 30);
    CHECK(t.avg_us == 20);
    const std::string s = tools::comparison_text({c}, 5.0, 10.0, t);
    CHECK(s.find("  out             16           0  0\n") != std::string::npos);
    CHECK(s.find("simulated: array 5.00 us, as a host times it 10.00 us") != std::string::npos);
    CHECK(s.find("measured / simulated = 2.00") != std::string::npos);
    CHECK(tools::comparison_text({c}, 5.0, 10.0, {}).find("no times recorded") != std::string::npos);
}

TEST_CASE("compare --warmup 0: the simulated host time includes the cold start once", "[cli][hw][compare]") {
    const auto d = scratch("compare_cold");
    REQUIRE(cli({"run", "vector_scalar_mul", "--seed", "5", "--save-outputs", d.string()}).code == 0);
    const auto t = model::TimingParams::for_arch(model::device_by_name("npu1_1col").arch);
    REQUIRE(t.host_cold_start_us > 0);
    auto sim_of = [&](const char* warmup) {
        const Out o = cli({"compare", "vector_scalar_mul", "--seed", "5", "--hw-outputs", d.string(), "--iters", "4",
                           "--warmup", warmup, "--json"});
        REQUIRE(o.code == 0);
        return nlohmann::json::parse(o.out)["simulation"];
    };
    const auto cold = sim_of("0"), warm = sim_of("1");
    CHECK(cold["cold"] == true);
    CHECK(warm["cold"] == false);
    // the mean of 4 timed runs, the first of which pays host_cold_start_us
    CHECK(cold["npu_time_us"].get<double>() - cold["array_time_us"].get<double>() ==
          Approx(t.host_invocation_latency_us + t.host_cold_start_us / 4));
    CHECK(warm["npu_time_us"].get<double>() - warm["array_time_us"].get<double>() ==
          Approx(t.host_invocation_latency_us));
    const Out text = cli({"compare", "vector_scalar_mul", "--seed", "5", "--hw-outputs", d.string()});
    CHECK(text.out.find(fmt::format("host_cold_start_us = {:.0f} us once in 1 run", t.host_cold_start_us)) !=
          std::string::npos);
}
