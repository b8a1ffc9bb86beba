// The CLI contract, continued from Cli_test.cpp: the files a run writes (--trace, --vcd, --html, --dot),
// also when it fails, the failure documents of --json, the guards, and the JSON documents' headers.
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
using npusim::test::cli;
using npusim::test::Out;
using npusim::test::register_test_designs;

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
    CHECK_THAT(over.err, Catch::Contains("the task queue of shim (0,0) S2MM 0 is full (4 tasks queued behind the one in "
                                         "progress, task 1 ('out' drain)) when starting task 6 ('out' drain)"));
    CHECK_THAT(over.err, Catch::Contains("or run with --queue-wait"));
    const auto ok = cli({"run", "test_queue_flood", "--queue-wait", "--json"});
    REQUIRE(ok.code == 0);
    const auto doc = nlohmann::json::parse(ok.out);
    CHECK(doc["status"] == "pass");
    CHECK(doc["stats"]["queue_waits"].get<int>() == 1); // the 6th drain waits for the channel to take one
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
    // Its lowest byte first: 12 MiB below the stack's end, inside the guard region under every core
    // stack (CoroutineStackCache::kGuardBytes), so it faults there and is reported the same way
    // instead of writing into memory mapped below the stack.
    const auto low = cli_in_child({"run", "test_big_stack", "--param", "first=1"});
#if !defined(__SANITIZE_ADDRESS__)
    CHECK(low.code == 2);
    CHECK_THAT(low.err,
               Catch::Contains("crashed with SIGSEGV (invalid memory access). Most likely its stack overflowed"));
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
