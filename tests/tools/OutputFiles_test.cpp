// Output files and what reaches the user however a command ends: every output path checked before
// the work (tools/OutputPaths.hpp), outputs written under a temporary name and renamed when
// complete (traces::OutputFile), argument names that are not plain file names refused, stdout
// that cannot be written reported, and the report of a crash in native code (tools/ExitReport.hpp).
#include "CliRun.hpp"
#include "support/Passthrough.hpp"
#include "CliSupport.hpp"
#include "support/TempDir.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/NpyFile.hpp"
#include "npusim/iron.hpp"
#include "npusim/traces/OutputFile.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <streambuf>

using namespace npusim;
using npusim::test::TempDir;
using npusim::test::cli;
using npusim::test::Out;

namespace {

// A passthrough of 16 i32 whose kernel adds one, with arguments named `a` and `b`; `crash` makes the
// kernel divide by zero (SIGFPE).
harness::DesignSpec passthrough_spec(const std::string& name, std::string a, std::string b, bool crash) {
    harness::DesignSpec s;
    s.name = name;
    s.description = "test: output files";
    s.devices = {"npu1_1col"};
    s.build = [name, a, b, crash](const model::DeviceSpec& dev, const harness::Params&, const harness::BuildOptions&) {
        using namespace iron;
        Kernel add(
            crash ? "divide" : "add_one",
            [crash](std::span<const KernelArg> k) {
                const auto* x = reinterpret_cast<const std::int32_t*>(k[0].data);
                auto* y = reinterpret_cast<std::int32_t*>(k[1].data);
                volatile int zero = 0;
                for (int i = 0; i < 16; ++i) y[i] = crash ? x[i] / zero : x[i] + 1;
            },
            {tensor<std::int32_t>({16}), tensor<std::int32_t>({16})}, cost::fixed(10));
        const auto t = tensor<std::int32_t>({16});
        std::vector<std::int32_t> v(16, 1);
        return harness::DesignInstance(
            test::passthrough({.type = tensor<std::int32_t>({16}), .body = test::kernel_body(add),
                               .host_elements = 16, .spec = &dev, .program = name}), {harness::ArgSpec::input(a, t), harness::ArgSpec::output(b, t)},
            {{a, harness::Tensor::from(t.shape, v)}},
            [t, a, b](const harness::Tensors& x) {
                auto r = x.at(a).values<std::int32_t>();
                for (auto& e : r) e += 1;
                return harness::Tensors{{b, harness::Tensor::from(t.shape, r)}};
            },
            name);
    };
    return s;
}

void register_designs() {
    static bool done = false;
    if (done) return;
    done = true;
    harness::register_design(passthrough_spec("test_out_escape", "a", "../escaped", false));
    harness::register_design(passthrough_spec("test_out_absolute", "/tmp/npusim_abs_in", "b", false));
    harness::register_design(passthrough_spec("test_out_crash", "a", "b", true));
}

std::string read_back(const std::filesystem::path& p) {
    std::ifstream f(p);
    return {std::istreambuf_iterator<char>(f), {}};
}

// The files in `dir`, sorted, by name.
std::vector<std::string> names_in(const std::filesystem::path& dir) {
    std::vector<std::string> v;
    for (const auto& e : std::filesystem::directory_iterator(dir)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
}

// A stream whose every write fails, as stdout on a full disk does.
struct FullBuf : std::streambuf {
    int overflow(int) override { return traits_type::eof(); }
    std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

Out cli_in_child(const std::vector<std::string>& args) {
    auto r = tools::run_cli_in_child(args);
    return {r.code, "", std::move(r.output)};
}

} // namespace

TEST_CASE("outputs: two outputs naming the same file are a usage error, before anything runs", "[cli][outputs]") {
    TempDir dir("npusim_out_same");
    const auto x = dir.file("x.json");
    auto r = cli({"run", "passthrough_dmas", "--trace", x, "--vcd", x});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::EndsWith("npusim: usage error: --trace and --vcd name the same file '" + x +
                                      "': each output needs its own file\n"));
    // Written differently, still the same file; the --save-outputs folder counts too.
    r = cli({"run", "passthrough_dmas", "--html", x, "--dot", dir.file("./x.json")});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("--dot and --html name the same file"));
    r = cli({"run", "passthrough_dmas", "--save-outputs", dir.file("o"), "--trace", dir.file("o")});
    CHECK(r.code == 2);
    CHECK(names_in(dir.path).empty()); // nothing created
    // A device may take several outputs.
    CHECK(cli({"run", "passthrough_dmas", "--trace", "/dev/null", "--vcd", "/dev/null"}).code == 0);
}

TEST_CASE("outputs: stdout that cannot be written is a file error, not exit 0", "[cli][outputs]") {
    FullBuf full;
    std::ostream out(&full);
    std::ostringstream err;
    CHECK(tools::run_cli({"list"}, out, err) == 2);
    CHECK(err.str() == "npusim: file error: cannot write standard output: I/O error\n");
    // --json: the error document cannot go where the output could not; it is said on stderr.
    std::ostringstream err2;
    std::ostream out2(&full);
    CHECK(tools::run_cli({"run", "passthrough_dmas", "--json"}, out2, err2) == 2);
    CHECK_THAT(err2.str(), Catch::EndsWith("npusim: file error: cannot write standard output: I/O error\n"));
}

TEST_CASE("outputs: every output path is checked before the simulation, a failure is a file error",
          "[cli][outputs]") {
    TempDir dir("npusim_out_check");
    const std::string missing = dir.file("no/such/dir/f");
    for (const auto& opt : {"--trace", "--vcd", "--dot", "--html"}) {
        INFO(opt);
        auto r = cli({"run", "passthrough_dmas", opt, missing, "--json"});
        CHECK(r.code == 2);
        auto doc = nlohmann::json::parse(r.out);
        CHECK(doc["status"] == "file_error");
        CHECK(doc["error"]["message"] ==
              std::string("cannot write ") + opt + " '" + missing + "': No such file or directory");
        r = cli({"run", "passthrough_dmas", opt, dir.path.string()});
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Catch::EndsWith("npusim: file error: cannot write " + std::string(opt) + " '" +
                                          dir.path.string() + "': it is a directory\n"));
        r = cli({"run", "passthrough_dmas", opt, ""});
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Catch::EndsWith("npusim: usage error: " + std::string(opt) + " needs a file name\n"));
    }
    // --save-outputs: a file where the folder should be, or below one.
    std::ofstream(dir.file("plain")) << "x";
    auto r = cli({"run", "passthrough_dmas", "--save-outputs", dir.file("plain")});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::EndsWith("npusim: file error: cannot write --save-outputs '" + dir.file("plain") +
                                      "': it exists and is not a directory\n"));
    r = cli({"run", "passthrough_dmas", "--save-outputs", dir.file("plain/sub")});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("is not a directory"));
    CHECK(cli({"run", "passthrough_dmas", "--save-outputs", ""}).code == 2);
    // -o, --csv.
    r = cli({"export", "passthrough_dmas", "-o", missing});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::EndsWith("npusim: file error: cannot write -o '" + missing +
                                      "': No such file or directory\n"));
    r = cli({"sweep", "passthrough_dmas", "--csv", missing, "--serial"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::EndsWith("npusim: file error: cannot write --csv '" + missing +
                                      "': No such file or directory\n"));
    // A failed write of the trace itself is a file error too.
    r = cli({"run", "passthrough_dmas", "--trace", "/dev/full", "--json"});
    CHECK(r.code == 2);
    CHECK(nlohmann::json::parse(r.out)["status"] == "file_error");
}

TEST_CASE("outputs: an option whose value is an option is a usage error, no file of that name is written",
          "[cli][outputs]") {
    TempDir dir("npusim_out_optval");
    const auto cwd = std::filesystem::current_path();
    std::filesystem::current_path(dir.path);
    const auto r = cli({"run", "passthrough_dmas", "--trace", "--alloc-scheme", "bank-aware"});
    const auto s = cli({"sweep", "passthrough_dmas", "--csv", "--json"});
    const auto p = cli({"run", "passthrough_dmas", "--param", "--seed"});
    const auto files = names_in(dir.path);
    std::filesystem::current_path(cwd);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::EndsWith("npusim: usage error: --trace needs a value, got the option '--alloc-scheme' "
                                      "(a file of that name: ./--alloc-scheme)\n"));
    CHECK(s.code == 2);
    CHECK(nlohmann::json::parse(s.out)["error"]["message"] ==
          "--csv needs a value, got the option '--json' (a file of that name: ./--json)");
    CHECK(p.code == 2);
    CHECK_THAT(p.err, Catch::Contains("--param needs a value, got the option '--seed'"));
    CHECK(files.empty());
}

TEST_CASE("outputs: argument names that are not plain file names are refused by --save-outputs, naming the argument",
          "[cli][outputs]") {
    register_designs();
    TempDir dir("npusim_out_names");
    const auto save = dir.file("save");
    auto r = cli({"run", "test_out_escape", "--save-outputs", save});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::EndsWith("npusim: design error: --save-outputs: output '../escaped' of design "
                                      "'test_out_escape' cannot be saved as '../escaped.npy': its name is not a plain "
                                      "file name (it holds '/' or is '.', '..' or empty) and would be written outside '" +
                                      save + "'\n"));
    r = cli({"run", "test_out_absolute", "--save-outputs", save});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("input '/tmp/npusim_abs_in' of design 'test_out_absolute' cannot be saved"));
    CHECK_FALSE(std::filesystem::exists(dir.file("escaped.npy")));
    CHECK_FALSE(std::filesystem::exists("/tmp/npusim_abs_in.npy"));
    // Without --save-outputs the names are only names.
    CHECK(cli({"run", "test_out_escape"}).code == 0);
    CHECK(harness::is_plain_file_name("a.b"));
    for (const char* bad : {"", ".", "..", "a/b", "/a"}) CHECK_FALSE(harness::is_plain_file_name(bad));
}

TEST_CASE("outputs: a run that fails leaves a previous file whole and creates no empty one", "[cli][outputs]") {
    TempDir dir("npusim_out_keep");
    const auto trace = dir.file("t.json"), vcd = dir.file("w.vcd");
    std::ofstream(trace) << "previous";
    // A design error before the simulation: neither file touched, no temporary file left.
    const auto r = cli({"run", "passthrough_dmas", "--param", "size=3", "--trace", trace, "--vcd", vcd});
    CHECK(r.code == 2);
    CHECK(read_back(trace) == "previous");
    CHECK(names_in(dir.path) == std::vector<std::string>{"t.json"});
    // A complete run replaces it.
    CHECK(cli({"run", "passthrough_dmas", "--trace", trace}).code == 0);
    CHECK(read_back(trace).starts_with("{"));
    CHECK(names_in(dir.path) == std::vector<std::string>{"t.json"});
}

TEST_CASE("outputs: traces::OutputFile renames a complete file onto its name, an unfinished one leaves the "
          "previous file",
          "[cli][outputs]") {
    TempDir dir("npusim_out_file");
    const auto p = dir.file("f.txt");
    std::ofstream(p) << "old";
    {
        traces::OutputFile f(p, "test file");
        f.write("new, half");
        CHECK(names_in(dir.path).size() == 2); // the temporary file beside it
        CHECK(read_back(p) == "old");
    } // destroyed without close(): abandoned
    CHECK(read_back(p) == "old");
    CHECK(names_in(dir.path) == std::vector<std::string>{"f.txt"});
    {
        traces::OutputFile f(p, "test file");
        f.write("new");
        traces::OutputFile::remove_unfinished(); // what a crash report does
        CHECK(names_in(dir.path) == std::vector<std::string>{"f.txt"});
    }
    {
        traces::OutputFile f(p, "test file");
        f.write("new");
        f.close();
    }
    CHECK(read_back(p) == "new");
    CHECK(names_in(dir.path) == std::vector<std::string>{"f.txt"});
    CHECK_THROWS_WITH(traces::OutputFile(dir.path.string(), "test file"),
                      "cannot write test file to '" + dir.path.string() + "': Is a directory");
}

TEST_CASE("outputs: a crash in native code prints the JSON error document with --json and names the outputs it did "
          "not write",
          "[cli][outputs][crash]") {
#if !defined(__SANITIZE_ADDRESS__) // AddressSanitizer reports the fault itself
    register_designs();
    TempDir dir("npusim_out_crash");
    const auto trace = dir.file("t.json");
    std::ofstream(trace) << "previous";
    const auto j = cli_in_child({"run", "test_out_crash", "--json", "--trace", trace});
    CHECK(j.code == 2);
    const auto doc = nlohmann::json::parse(j.err); // stdout and stderr share the pipe: only JSON is written
    CHECK(doc["document"] == "error");
    CHECK(doc["schema_version"] == 1);
    CHECK(doc["status"] == "error");
    CHECK(doc["error"]["kind"] == "kernel error");
    const std::string msg = doc["error"]["message"];
    CHECK_THAT(msg, Catch::StartsWith("worker 'w' was running kernel 'divide'"));
    CHECK_THAT(msg, Catch::EndsWith("crashed with SIGFPE (arithmetic error, e.g. an integer division by zero); not "
                                    "written: --trace '" + trace + "' (files of those names are left as they were)"));
    CHECK(doc["files"].empty());
    CHECK(read_back(trace) == "previous");
    CHECK(names_in(dir.path) == std::vector<std::string>{"t.json"});
    const auto t = cli_in_child({"run", "test_out_crash"});
    CHECK(t.code == 2);
    CHECK_THAT(t.err, Catch::StartsWith("npusim: kernel error: worker 'w' was running kernel 'divide'"));
#endif
}

TEST_CASE("outputs: the watchdog names the outputs it did not write", "[cli][outputs][timeout][slow]") {
    // The catalog's spinning kernel lives in Cli_test; a body that spins in its trace is enough here.
    harness::DesignSpec s;
    s.name = "test_out_spin";
    s.description = "test: a body that never returns";
    s.devices = {"npu1_1col"};
    s.build = [](const model::DeviceSpec& dev, const harness::Params&, const harness::BuildOptions&) {
        using namespace iron;
        ObjectFifo in(tensor<std::int32_t>({16}), "in"), out(tensor<std::int32_t>({16}), "out");
        Worker w(
            [](ObjectFifoHandle, ObjectFifoHandle) {
                volatile bool forever = true;
                while (forever) {}
            },
            fn_args(in.cons(), out.prod()), {.name = "spinner"});
        Runtime rt([](RuntimeData, RuntimeData b, ObjectFifoHandle, ObjectFifoHandle o) { o.drain(b, {.wait = true}); },
                   fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), in.prod(), out.cons()));
        const auto t = tensor<std::int32_t>({16});
        return harness::DesignInstance(
            Program(dev, rt, {w}, "test_out_spin"), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor(DType::i32, {16})}},
            [](const harness::Tensors& x) { return harness::Tensors{{"b", x.at("a")}}; }, "test_out_spin");
    };
    static bool registered = false;
    if (!registered) harness::register_design(s);
    registered = true;
    TempDir dir("npusim_out_spin");
    const auto r = cli_in_child({"run", "test_out_spin", "--timeout", "1", "--vcd", dir.file("w.vcd")});
    CHECK(r.code == 4);
    CHECK_THAT(r.err, Catch::Contains("it has not returned, so npusim stops here; not written: --vcd '" +
                                      dir.file("w.vcd") + "' (files of those names are left as they were)"));
    CHECK(names_in(dir.path).empty());
}
