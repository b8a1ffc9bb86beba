// The command line as CLI11 parses it (tools/Cli.cpp, tools/CliOptions.cpp): the same option forms
// on every subcommand, each subcommand's own --help, and CLI11's errors in npusim's words (exit
// code 2, "npusim: usage error: ...", or the JSON error document with --json).
#include "CliRun.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>

using npusim::test::cli;

namespace {

// Every subcommand and the options its help must show.
const std::map<std::string, std::vector<std::string>>& subcommand_options() {
    static const std::map<std::string, std::vector<std::string>> m = {
        {"list", {"--json", "-h, --help"}},
        {"devices", {"--json", "-h, --help"}},
        {"timing", {"--device", "--json"}},
        {"args", {"--device", "--param", "--seed", "--kernels", "--json"}},
        {"run", {"--device",       "--param",     "--seed",      "--kernels",    "--json",       "--what-if",
                 "--input",        "--expect",    "--save-outputs", "--rtol",    "--atol",       "--tolerance",
                 "--max-cycles",   "--core-stack", "--timeout",  "--timing",     "--trace",      "--trace-format",
                 "--vcd",          "--dot",       "--html",      "--netlist",    "--alloc-scheme", "--progress",
                 "--iters",        "--warmup",    "--cold",      "--no-memory-check", "--werror", "--queue-wait"}},
        {"golden", {"--device", "--param", "--input", "--expect", "--save-outputs", "--what-if", "--queue-wait"}},
        {"depth", {"--device", "--param", "--max-depth", "--jobs", "--seed", "--max-cycles", "--timeout", "--json",
                   "--csv", "--progress"}},
        {"sweep", {"--param", "--device", "--kernels", "--jobs", "--serial", "--seed", "--max-cycles", "--timeout",
                   "--json", "--csv", "--progress"}},
        {"export", {"--device", "--param", "--link-with", "-o FILE", "--generic", "--print-commands", "--chess",
                    "--full-elf", "--json"}},
    };
    return m;
}

} // namespace

TEST_CASE("cli: every subcommand's --help prints its usage and its options, exit 0", "[cli][help]") {
    for (const auto& [cmd, opts] : subcommand_options()) {
        INFO(cmd);
        for (const char* flag : {"--help", "-h"}) {
            const auto h = cli({cmd, flag});
            CHECK(h.code == 0);
            CHECK(h.err.empty());
            CHECK_THAT(h.out, Catch::StartsWith("usage:\n  npusim " + cmd));
            CHECK_THAT(h.out, Catch::Contains("exit codes:"));
            for (const auto& o : opts) CHECK_THAT(h.out, Catch::Contains("\n  " + o));
        }
        // `npusim help CMD` is the same text; --help wins over whatever else the line holds.
        CHECK(cli({"help", cmd}).out == cli({cmd, "--help"}).out);
        CHECK(cli({cmd, "--bogus", "--help"}).code == 0);
    }
    // A long description is wrapped under its option, not cut.
    const auto run = cli({"run", "--help"}).out;
    CHECK_THAT(run, Catch::Contains("  --tolerance allclose|nearly-equal\n                       allclose (numpy): "));
    CHECK_THAT(run, Catch::Contains("--no-enforce-dma-queue-depth"));
    // The whole usage: every command and every option section.
    const auto all = cli({"--help"});
    CHECK(all.code == 0);
    CHECK(cli({"help"}).out == all.out);
    for (const auto& [cmd, opts] : subcommand_options()) {
        CHECK_THAT(all.out, Catch::Contains("\n  npusim " + cmd));
        for (const auto& o : opts)
            if (o != "-h, --help") CHECK_THAT(all.out, Catch::Contains("\n  " + o));
    }
    CHECK_THAT(all.out, Catch::Contains("-h, --help on every command"));
}

TEST_CASE("cli: --opt value and --opt=value mean the same on every subcommand", "[cli][parse]") {
    struct Case {
        std::vector<std::string> head; // the command and its design
        std::string opt, value;
        int code; // what the command gives
        std::string says; // and a line of its output (stdout, else stderr)
    };
    const std::vector<Case> cases = {
        {{"timing"}, "--device", "npu2", 0, "timing model for npu2 (AIE2P)"},
        {{"args", "vector_scalar_mul"}, "--param", "bits=32", 0, "c       output  i32[4096]"},
        {{"args", "vector_scalar_mul"}, "--device", "npu9", 2, "unknown device 'npu9'"},
        {{"run", "passthrough_dmas"}, "--seed", "7", 0, "result: PASS"},
        {{"run", "passthrough_dmas"}, "--max-cycles", "many", 2, "--max-cycles expects a non-negative integer"},
        {{"golden", "vector_scalar_mul"}, "--param", "bits=32", 0, "bits=32"},
        {{"golden", "vector_scalar_mul"}, "--tolerance", "exact", 2, "--tolerance expects allclose or nearly-equal"},
        {{"depth", "passthrough_dmas"}, "--jobs", "0", 2, "--jobs expects an integer in 1..256, got '0'"},
        {{"depth", "passthrough_dmas"}, "--max-depth", "64", 2, "--max-depth expects an integer in 1..63"},
        {{"sweep", "vector_scalar_mul"}, "--param", "bits=16,32", 0, "2 points"},
        {{"sweep", "vector_scalar_mul"}, "--kernels", "fast", 2, "--kernels expects ref or aie, got 'fast'"},
        {{"export", "passthrough_dmas"}, "--device", "npu2", 0, "aie.device(npu2"},
        {{"export", "memcpy"}, "--link-with", "k", 2, "--link-with expects KERNEL=FILE.o, got 'k'"},
    };
    for (const auto& c : cases) {
        auto spaced = c.head, joined = c.head;
        spaced.push_back(c.opt);
        spaced.push_back(c.value);
        joined.push_back(c.opt + "=" + c.value);
        INFO(c.head[0] << " " << c.opt << " " << c.value);
        const auto a = cli(spaced), b = cli(joined);
        CHECK(a.code == c.code);
        CHECK(b.code == c.code);
        CHECK_THAT((c.code == 0 ? a.out : a.err), Catch::Contains(c.says));
        if (c.head[0] != "sweep" && c.head[0] != "run" && c.head[0] != "golden") // these print wall times
            CHECK(a.out == b.out);
        CHECK(a.err == b.err);
    }
    // The last of a value option counts; a repeatable one keeps every value, in order.
    CHECK_THAT(cli({"timing", "--device", "npu1", "--device=npu2"}).out, Catch::StartsWith("timing model for npu2"));
    const auto sweep = cli({"sweep", "vector_scalar_mul", "--param=bits=16,32", "--device", "npu1_1col,npu2", "--json"});
    REQUIRE(sweep.code == 0);
    CHECK(nlohmann::json::parse(sweep.out)["points"].size() == 4);
    // --what-if adds up over its occurrences, each ablation once, in the order given.
    const auto w = cli({"run", "passthrough_dmas", "--what-if", "ideal-locks", "--what-if=free-kernels,ideal-locks",
                        "--json"});
    REQUIRE(w.code == 0);
    const auto wj = nlohmann::json::parse(w.out)["what_if"];
    REQUIRE(wj.size() == 2);
    CHECK(wj[0]["name"] == "ideal-locks");
    CHECK(wj[1]["name"] == "free-kernels");
    // A value option's value may follow it as the design does: `--param K=V DESIGN` is not `--param K=V K2=V2`.
    CHECK(cli({"args", "--param", "bits=32", "vector_scalar_mul"}).code == 0);
}

TEST_CASE("cli: an unknown option is a usage error naming it, on every subcommand", "[cli][parse]") {
    for (const auto& [cmd, opts] : subcommand_options()) {
        INFO(cmd);
        std::vector<std::string> args{cmd};
        if (cmd != "list" && cmd != "devices" && cmd != "timing") args.push_back("passthrough_dmas");
        args.push_back("--bogus=3");
        const auto r = cli(args);
        CHECK(r.code == 2);
        // That command's usage line and where its options are (not the whole help), then the error.
        CHECK_THAT(r.err, Catch::StartsWith("usage: npusim " + cmd));
        CHECK_THAT(r.err, Catch::Contains("(`npusim " + cmd + " --help` for its options)\nnpusim: usage error: "));
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 2);
        CHECK_THAT(r.err, Catch::EndsWith("\nnpusim: usage error: " + cmd + ": unknown option '--bogus'\n"));
        args.push_back("--json");
        const auto j = cli(args);
        CHECK(j.code == 2);
        CHECK(j.err.empty());
        const auto doc = nlohmann::json::parse(j.out);
        CHECK(doc["status"] == "usage_error");
        CHECK(doc["error"]["message"] == cmd + ": unknown option '--bogus'");
    }
    auto r = cli({"--bogus"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::EndsWith("npusim: usage error: unknown option '--bogus'\n"));
    r = cli({"list", "extra"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::EndsWith("npusim: usage error: list: unexpected argument 'extra'\n"));
}

TEST_CASE("cli: a value option without its value is a usage error naming it", "[cli][parse]") {
    const std::vector<std::vector<std::string>> lines = {
        {"run", "passthrough_dmas", "--device"},    {"golden", "passthrough_dmas", "--seed"},
        {"args", "passthrough_dmas", "--param"},    {"timing", "--device"},
        {"depth", "passthrough_dmas", "--max-depth"}, {"sweep", "passthrough_dmas", "--jobs"},
        {"export", "passthrough_dmas", "-o"},       {"run", "passthrough_dmas", "--timing="},
    };
    for (const auto& args : lines) {
        INFO(args[0] << " " << args.back());
        const auto r = cli(args);
        CHECK(r.code == 2);
        const auto opt = args.back().substr(0, args.back().find('='));
        CHECK_THAT(r.err, Catch::EndsWith("npusim: usage error: " + opt + " needs a value\n"));
    }
    // A flag given a value, even one CLI11 would read as the flag (true, empty).
    for (const char* v : {"--progress=1", "--progress=true", "--progress=", "--serial=yes"}) {
        INFO(v);
        const auto r = cli({"sweep", "passthrough_dmas", v});
        CHECK(r.code == 2);
        const std::string opt(v, std::string(v).find('='));
        CHECK_THAT(r.err, Catch::EndsWith("npusim: usage error: " + opt + " takes no value\n"));
    }
    const auto j = cli({"list", "--json=true"});
    CHECK(j.code == 2);
    CHECK_THAT(j.err, Catch::EndsWith("npusim: usage error: --json takes no value\n"));
}

TEST_CASE("cli: --version and version print npusim's version, exit 0", "[cli][parse]") {
    const auto v = cli({"--version"});
    CHECK(v.code == 0);
    CHECK(v.out == "npusim 0.1.0\n");
    CHECK(v.err.empty());
    CHECK(cli({"version"}).out == v.out);
    CHECK(cli({"--version=2"}).code == 2);
    const auto h = cli({"help", "frobnicate"});
    CHECK(h.code == 2);
    CHECK_THAT(h.err, Catch::EndsWith("npusim: usage error: help: unknown command 'frobnicate'\n"));
}
