// Traces of real runs: the mlir-aie-shaped JSON (--trace-format mlir-aie) read by a reimplementation
// of mlir-aie's cycle-summary rule (python/utils/trace/utils.py get_cycles_summary, which
// get_trace_summary.py prints), enable_trace's choices and trace-buffer limit, and a lock hand-off
// within one cycle in the rich Perfetto trace and in the VCD.
#include "Cli.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/traces/MlirAieTraceSink.hpp"
#include "npusim/traces/PerfettoTraceSink.hpp"
#include "npusim/traces/TeeTraceSink.hpp"
#include "npusim/traces/VcdTraceSink.hpp"
#include "support/RunOptions.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace npusim;
using nlohmann::json;

namespace {

json read_json(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    return json::parse(in);
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// mlir-aie's get_cycles_summary, rule for rule: one entry per process_name event (indexed by pid
/// in file order); walking the events in file order, an INSTR_EVENT_0 "B" starts a kernel
/// invocation on its pid unless one is open, an INSTR_EVENT_1 "B" ends the open one and records
/// ts(event1) - ts(event0). Returns process name -> the recorded deltas.
std::map<std::string, std::vector<std::int64_t>> cycles_summary(const json& data) {
    std::vector<std::string> names;
    std::vector<std::vector<std::int64_t>> deltas;
    std::vector<bool> in_kernel;
    std::vector<std::int64_t> event0;
    for (const auto& x : data)
        if (x["name"] == "process_name") {
            names.push_back(x["args"]["name"].get<std::string>());
            deltas.emplace_back();
            in_kernel.push_back(false);
            event0.push_back(0);
        }
    for (const auto& x : data) {
        const auto idx = x["pid"].get<std::size_t>();
        if (x["name"] == "INSTR_EVENT_0" && x["ph"] == "B" && !in_kernel.at(idx)) {
            event0[idx] = x["ts"].get<std::int64_t>();
            in_kernel[idx] = true;
        }
        if (x["name"] == "INSTR_EVENT_1" && x["ph"] == "B" && in_kernel.at(idx)) {
            deltas[idx].push_back(x["ts"].get<std::int64_t>() - event0[idx]);
            in_kernel[idx] = false;
        }
    }
    std::map<std::string, std::vector<std::int64_t>> out;
    for (std::size_t i = 0; i < names.size(); ++i) out[names[i]] = deltas[i];
    return out;
}

/// The shape parse.py gives its output: a list, metadata first (a process_name then eight
/// thread_names per pid, pids 0.. in order), then B/E events with empty args, per pid in time
/// order, each B closed by an E on the same thread before the next B there.
void check_mlir_aie_shape(const json& data) {
    REQUIRE(data.is_array());
    std::size_t i = 0;
    int pid = 0;
    for (; i < data.size() && data[i]["ph"] == "M"; ++pid) {
        REQUIRE(data[i]["name"] == "process_name");
        CHECK(data[i]["pid"] == pid);
        for (int tid = 0; tid < 8; ++tid) {
            const auto& t = data.at(i + 1 + static_cast<std::size_t>(tid));
            CHECK(t["name"] == "thread_name");
            CHECK(t["pid"] == pid);
            CHECK(t["tid"] == tid);
        }
        i += 9;
    }
    int last_pid = 0;
    std::uint64_t last_ts = 0;
    std::map<std::pair<int, int>, bool> open;
    for (; i < data.size(); ++i) {
        const auto& e = data[i];
        INFO(e.dump());
        REQUIRE((e["ph"] == "B" || e["ph"] == "E"));
        CHECK(e["args"] == json::object());
        const int p = e["pid"].get<int>();
        const auto ts = e["ts"].get<std::uint64_t>();
        CHECK(p >= last_pid);
        CHECK(p < pid);
        if (p != last_pid) last_ts = 0;
        CHECK(ts >= last_ts);
        last_pid = p;
        last_ts = ts;
        bool& o = open[{p, e["tid"].get<int>()}];
        CHECK(o == (e["ph"] == "E"));
        o = e["ph"] == "B";
    }
    for (const auto& [k, o] : open) CHECK_FALSE(o);
}

struct Run {
    sim::SimResult result;
    json trace;
};

/// Build `design` on `device`, optionally configure its trace, simulate it with `sink` attached.
template <class Configure>
sim::SimResult simulate_design(const std::string& design, const std::string& device, const harness::Params& params,
                               sim::TraceSink& sink, Configure configure) {
    const auto& spec = harness::design_by_name(design);
    const auto& dev = model::device_by_name(device);
    auto inst = spec.build(dev, spec.resolve_params(params), harness::BuildOptions(1));
    configure(inst.program);
    const auto net = inst.program.resolve();
    auto so = npusim::test::sim_opts(device);
    so.trace = &sink;
    auto r = sim::simulate(net, inst.host(), so);
    for (const auto& c : inst.check(r.host)) CHECK(c.match);
    return r;
}

Run run_mlir_aie(const std::string& design, const std::string& device, const harness::Params& params,
                 const npusim::test::TempDir& d) {
    traces::MlirAieTraceSink sink(d.file(design + ".json"));
    auto r = simulate_design(design, device, params, sink, [](iron::Program&) {});
    return {std::move(r), read_json(d.file(design + ".json"))};
}

} // namespace

TEST_CASE("mlir-aie trace: the cycle-summary rule counts every kernel call of every core", "[traces][mlir-aie]") {
    npusim::test::TempDir d("npusim_mlir_aie_summary");
    struct Case {
        std::string design, device;
        harness::Params params;
    };
    const std::vector<Case> cases = {
        {"passthrough_kernel", "npu1_1col", {}},
        {"passthrough_kernel", "npu2", {{"bits", 16}}},
        {"matmul_single_core", "npu1_1col", {{"M", 64}, {"K", 64}, {"N", 64}}},
        {"matmul_single_core", "npu2_1col", {{"M", 64}, {"K", 128}, {"N", 64}}},
    };
    for (const auto& c : cases) {
        INFO(c.design << " on " << c.device);
        const auto run = run_mlir_aie(c.design, c.device, c.params, d);
        check_mlir_aie_shape(run.trace);
        const auto summary = cycles_summary(run.trace);
        REQUIRE(summary.size() == run.result.cores.size()); // one core process per core, nothing else
        for (const auto& core : run.result.cores) {
            const auto name = traces::MlirAieTraceSink::process_name(model::TraceUnitType::Core, core.tile);
            REQUIRE(summary.count(name));
            const auto& deltas = summary.at(name);
            CHECK(core.kernel_calls > 0);
            CHECK(deltas.size() == core.kernel_calls);
            std::int64_t total = 0;
            for (auto v : deltas) {
                CHECK(v > 0);
                total += v;
            }
            // event0..event1 brackets the call, so the deltas add up to the kernels' busy cycles
            // (busy_cycles also counts add_cycles, which these designs do not use).
            CHECK(static_cast<std::uint64_t>(total) == core.busy_cycles);
        }
        // The default core events, IRON's _get_default_events_for_tile, as thread names.
        const std::vector<std::string> want = {"INSTR_EVENT_0", "INSTR_EVENT_1", "INSTR_VECTOR",   "MEMORY_STALL",
                                               "STREAM_STALL",  "LOCK_STALL",    "PORT_RUNNING_0", "PORT_RUNNING_1"};
        for (int tid = 0; tid < 8; ++tid)
            CHECK(run.trace.at(1 + static_cast<std::size_t>(tid))["args"]["name"] ==
                  want[static_cast<std::size_t>(tid)]);
        CHECK(run.result.warnings.empty());
    }
}

TEST_CASE("mlir-aie trace: enable_trace picks workers, tiles and events, a full trace buffer drops events with a "
          "warning",
          "[traces][mlir-aie]") {
    npusim::test::TempDir d("npusim_mlir_aie_enable_trace");
    const harness::Params params = {{"size", 8192}};
    const std::string file = d.file("t.json");
    model::TileCoord traced_tile;
    std::string traced_worker;
    auto configure = [&](std::uint64_t size) {
        return [&, size](iron::Program& p) {
            REQUIRE(p.workers().size() == 4);
            traced_worker = p.workers()[2].name();
            iron::TraceOptions o;
            o.trace_size = size;
            o.workers = std::vector<iron::Worker>{p.workers()[2]};
            o.coretile_events = std::vector<iron::TraceEvent>{"INSTR_EVENT_1", "LOCK_STALL", "INSTR_EVENT_0",
                                                              "INSTR_LOCK_ACQUIRE_REQ", "INSTR_LOCK_RELEASE_REQ"};
            o.tiles = {{0, 1}, {0, 0}}; // the mem tile and the shim tile, with their default events
            p.enable_trace(o);
        };
    };
    sim::SimResult full;
    {
        traces::MlirAieTraceSink sink(file);
        full = simulate_design("vector_reduce_max_memtile", "npu1", params, sink, configure(1 << 20));
        CHECK(sink.totals().dropped == 0);
        CHECK(sink.totals().packets > 0);
    }
    for (const auto& c : full.cores)
        if (c.worker == traced_worker) traced_tile = c.tile;
    const json data = read_json(file);
    check_mlir_aie_shape(data);
    // pid order: core, then shim, then mem tile (parse.py's packet types 0, 2, 3).
    std::vector<std::string> processes;
    for (const auto& x : data)
        if (x["name"] == "process_name") processes.push_back(x["args"]["name"].get<std::string>());
    CHECK(processes ==
          std::vector<std::string>{fmt::format("core_trace for tile{},{}", traced_tile.row, traced_tile.col),
                                   "shim_trace for tile0,0", "memtile_trace for tile1,0"});
    CHECK(data[1]["args"]["name"] == "INSTR_EVENT_1");
    CHECK(data[3]["args"]["name"] == "INSTR_EVENT_0");
    CHECK(data[8]["args"]["name"] == "NONE"); // padding
    CHECK(data[10]["args"]["name"] == "DMA_S2MM_0_START_TASK"); // the shim's defaults
    CHECK(data[19]["args"]["name"] == "PORT_RUNNING_0"); // the mem tile's defaults
    std::set<std::string> fired;
    for (const auto& x : data)
        if (x["ph"] == "B") fired.insert(fmt::format("{}:{}", x["pid"].get<int>(), x["name"].get<std::string>()));
    for (const char* e :
         {"0:INSTR_EVENT_0", "0:INSTR_EVENT_1", "0:LOCK_STALL", "0:INSTR_LOCK_ACQUIRE_REQ", "0:INSTR_LOCK_RELEASE_REQ",
          "1:DMA_MM2S_0_START_TASK", "1:DMA_S2MM_0_FINISHED_TASK", "2:PORT_RUNNING_0", "2:PORT_RUNNING_4"})
        CHECK(fired.count(e));
    // The summary, with event0 in slot 2 and event1 in slot 0, still finds every call of the worker.
    const auto summary = cycles_summary(data);
    for (const auto& c : full.cores)
        if (c.worker == traced_worker) CHECK(summary.at(processes[0]).size() == c.kernel_calls);
    CHECK(full.warnings.empty());

    // A buffer of 4 packets: what does not fit is dropped, and the run says so.
    traces::MlirAieTraceSink small(file);
    const auto r = simulate_design("vector_reduce_max_memtile", "npu1", params, small, configure(128));
    CHECK(small.totals().buffer_packets == 4);
    CHECK(small.totals().dropped > 0);
    CHECK(small.totals().events > 0);
    bool warned = false;
    for (const auto& w : r.warnings)
        if (w.find("trace buffer full: enable_trace's trace_size of 128 B holds 4 packets") != std::string::npos)
            warned = true;
    CHECK(warned);
    check_mlir_aie_shape(read_json(file));
}

TEST_CASE("enable_trace is checked when the design resolves", "[traces][mlir-aie]") {
    const auto& spec = harness::design_by_name("passthrough_kernel");
    auto inst = spec.build(model::device_by_name("npu1_1col"), spec.resolve_params({}), harness::BuildOptions(1));
    inst.program.enable_trace(8192, std::nullopt,
                              std::vector<iron::TraceEvent>{"INSTR_EVENT_0", "A", "B", "C", "D", "E", "F", "G", "H"});
    CHECK_THROWS_WITH(inst.program.resolve(), Catch::Contains("at most 8 events can be traced at once, have 9"));
    inst.program.enable_trace(8192, std::nullopt, std::vector<iron::TraceEvent>{"INSTR_EVENT_9"});
    CHECK_THROWS_WITH(inst.program.resolve(),
                      Catch::Contains("'INSTR_EVENT_9' is not an event npusim knows for core trace units on AIE2"));
    // workers=None traces the workers with WorkerOptions::trace: none here, so no core unit.
    inst.program.enable_trace(8192);
    const auto net = inst.program.resolve();
    CHECK(net.trace.enabled);
    CHECK(net.trace.buffer_bytes == 8192);
    CHECK(net.trace.units.empty());
    inst.program.enable_trace(0); // as IRON's trace_size=None: no trace
    CHECK_FALSE(inst.program.resolve().trace.enabled);
}

TEST_CASE("a lock hand-off within one cycle shows in the Perfetto trace (two instants) and in the VCD (two events)",
          "[traces][locks]") {
    npusim::test::TempDir d("npusim_lock_handoff");
    traces::PerfettoTraceSink perfetto(d.file("t.json"));
    traces::VcdTraceSink vcd(d.file("t.vcd"));
    traces::TeeTraceSink tee({&perfetto, &vcd});
    simulate_design("passthrough_kernel", "npu1_1col", {}, tee, [](iron::Program&) {});

    const json doc = read_json(d.file("t.json"));
    REQUIRE(doc.is_object());
    CHECK(doc["displayTimeUnit"] == "ns");
    CHECK(doc["otherData"]["ts_unit"] == "cycles");
    const auto& events = doc["traceEvents"];
    std::map<std::pair<int, int>, std::string> thread; // (pid, tid) -> lock name
    for (const auto& e : events)
        if (e["name"] == "thread_name") thread[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
    // (pid, tid, ts) -> names of the lock instants there, in file order
    std::map<std::tuple<int, int, std::uint64_t>, std::vector<std::string>> at;
    for (const auto& e : events)
        if (e["ph"] == "i" && (e["name"] == "acquire" || e["name"] == "release")) { // lock tracks
            CHECK(e["s"] == "t");
            CHECK(e["args"].contains("by"));
            at[{e["pid"].get<int>(), e["tid"].get<int>(), e["ts"].get<std::uint64_t>()}].push_back(e["name"]);
        }
    std::string lock;
    std::uint64_t when = 0;
    for (const auto& [k, names] : at) {
        const auto rel = std::find(names.begin(), names.end(), "release");
        if (rel != names.end() && std::find(rel, names.end(), "acquire") != names.end()) {
            lock = thread.at({std::get<0>(k), std::get<1>(k)});
            when = std::get<2>(k);
            break;
        }
    }
    INFO("no lock released and acquired in one cycle");
    REQUIRE_FALSE(lock.empty());

    // The VCD: the lock's _release and _acquire events both fire at #when.
    const std::string text = slurp(d.file("t.vcd"));
    auto id_of = [&](const std::string& var) {
        const auto pos = text.find(" " + var + " $end");
        REQUIRE(pos != std::string::npos);
        const auto start = text.rfind(' ', pos - 1) + 1;
        return text.substr(start, pos - start);
    };
    INFO("lock " << lock << " at cycle " << when);
    const std::string acq = id_of(traces::VcdTraceSink::sanitize(lock) + "_acquire");
    const std::string rel = id_of(traces::VcdTraceSink::sanitize(lock) + "_release");
    CHECK_THAT(text, Catch::Contains("$var event 1 " + acq + " "));
    const auto step = text.find(fmt::format("\n#{}\n", when));
    REQUIRE(step != std::string::npos);
    const auto next = text.find("\n#", step + 1);
    const std::string block = text.substr(step, next == std::string::npos ? std::string::npos : next - step) + "\n";
    CHECK_THAT(block, Catch::Contains("\n1" + rel + "\n"));
    CHECK_THAT(block, Catch::Contains("\n1" + acq + "\n"));
}

TEST_CASE(
    "npusim run --trace-format: mlir-aie writes the mlir-aie file, unknown formats and a format without --trace are "
    "usage errors",
    "[cli][traces]") {
    npusim::test::TempDir d("npusim_cli_trace_format");
    std::ostringstream o, e;
    int code =
        tools::run_cli({"run", "passthrough_kernel", "--trace", d.file("m.json"), "--trace-format=mlir-aie"}, o, e);
    REQUIRE(code == 0);
    CHECK_THAT(o.str(), Catch::Contains("trace written to " + d.file("m.json") + " (mlir-aie format"));
    const json m = read_json(d.file("m.json"));
    check_mlir_aie_shape(m);
    CHECK(m[0]["args"]["name"] == "core_trace for tile2,0");
    std::ostringstream o2, e2;
    code = tools::run_cli({"run", "passthrough_kernel", "--trace", d.file("m.json"), "--trace-format", "perfetto"}, o2,
                          e2);
    CHECK(code == 2);
    CHECK_THAT(e2.str(), Catch::Contains("--trace-format expects rich or mlir-aie, got 'perfetto'"));
    std::ostringstream o3, e3;
    code = tools::run_cli({"run", "passthrough_kernel", "--trace-format", "mlir-aie"}, o3, e3);
    CHECK(code == 2);
    CHECK_THAT(e3.str(), Catch::Contains("--trace-format mlir-aie needs --trace FILE.json"));
}

TEST_CASE("the VCD of a run starts every lock at its initial value, cycle 0's acquires follow at #0",
          "[traces][locks][vcd]") {
    npusim::test::TempDir d("npusim_vcd_lock_init");
    traces::VcdTraceSink vcd(d.file("t.vcd"));
    simulate_design("passthrough_kernel", "npu1_1col", {}, vcd, [](iron::Program&) {});
    const auto& spec = harness::design_by_name("passthrough_kernel");
    auto inst = spec.build(model::device_by_name("npu1_1col"), spec.resolve_params({}), harness::BuildOptions(1));
    const auto net = inst.program.resolve();
    REQUIRE_FALSE(net.locks.empty());

    const std::string text = slurp(d.file("t.vcd"));
    const auto dump = text.find("#0\n$dumpvars\n");
    const auto dump_end = text.find("$end\n", dump);
    const auto first_step = text.find("\n#", dump_end);
    REQUIRE(dump != std::string::npos);
    REQUIRE(first_step != std::string::npos);
    const std::string dumpvars = text.substr(dump, dump_end - dump);
    const std::string at_zero = text.substr(dump_end + 5, first_step + 1 - (dump_end + 5)); // after $dumpvars, at #0
    int changed_in_cycle0 = 0;
    for (const auto& l : net.locks) {
        INFO("lock " << l.name << " init " << l.init);
        const auto pos = text.find(" " + traces::VcdTraceSink::sanitize(l.name) + " $end");
        REQUIRE(pos != std::string::npos);
        const auto start = text.rfind(' ', pos - 1) + 1;
        const std::string id = text.substr(start, pos - start);
        const std::string bits = l.init == 0 ? "0" : fmt::format("{:b}", l.init);
        CHECK_THAT(dumpvars, Catch::Contains("\nb" + bits + " " + id + "\n"));
        if (at_zero.find(" " + id + "\n") != std::string::npos) ++changed_in_cycle0;
    }
    INFO(at_zero);
    CHECK(changed_in_cycle0 > 0); // the run acquires a lock in cycle 0: its change follows $dumpvars
}
