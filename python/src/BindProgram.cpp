// Program, its MLIR export and its simulation for Python: simulate() runs a resolved program on
// host tensors (bytes) and returns what the run report holds (cycles, outputs, per-core figures),
// writing a Perfetto trace or a VCD when asked.
#include "Bindings.hpp"

#include "CrashReporter.hpp"
#include "ExitGuard.hpp"

#include "npusim/frontend/MlirExport.hpp"
#include "npusim/frontend/Program.hpp"
#include "npusim/sim/Simulator.hpp"
#include "npusim/sim/Diagnosis.hpp"
#include "npusim/traces/HtmlReportSink.hpp"
#include "npusim/traces/PerfettoTraceSink.hpp"
#include "npusim/traces/TeeTraceSink.hpp"
#include "npusim/traces/VcdTraceSink.hpp"

#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <unistd.h>

namespace npusim::python {

namespace {

/// A program resolved once (its runtime sequence run once, as IRON traces it once): simulate() runs
/// it again and again without running the Python sequence function again.
struct ResolvedNetlist {
    std::shared_ptr<const model::Netlist> net;
};

/// Before native design code runs (a resolve-time trace, a simulation): a kernel or body that
/// crashes ends the process with `npusim run`'s kernel error report and exit code 2
/// (tools/CrashReporter.cpp), not a bare signal. Installed at each call, since the host program
/// may have put its own handlers in since (pytest's faulthandler), which then keep any signal
/// raised outside design code.
iron::Program const& with_crash_reporter(const iron::Program& p) {
    tools::CrashReporter::install();
    return p;
}

py::dict simulate(const iron::Program& program, const std::vector<py::buffer>& host_in, std::uint64_t max_cycles,
                  std::uint32_t iters, const std::string& trace_path, const std::string& vcd_path,
                  const std::string& html_path, const std::vector<iron::DepthOverride>& depths,
                  const std::optional<ResolvedNetlist>& resolved, std::size_t core_stack) {
    std::shared_ptr<const model::Netlist> owned;
    if (resolved && depths.empty()) {
        owned = resolved->net;
    } else {
        iron::ResolveOptions ro;
        ro.depth_overrides = depths;
        owned = std::make_shared<const model::Netlist>(with_crash_reporter(program).resolve(ro));
    }
    const model::Netlist& net = *owned;
    // No copy in or out: the run reads and writes each writable host buffer (C-contiguous: numpy
    // arrays) where it lies. A read-only buffer, or one sharing memory with an earlier one (the same
    // array given twice), is copied first, so that every tensor of the run has memory of its own as
    // in a C++ run; its result comes back as new bytes.
    std::vector<py::buffer_info> infos;
    std::vector<std::vector<std::uint8_t>> copies(host_in.size());
    std::vector<std::span<std::uint8_t>> host;
    for (std::size_t i = 0; i < host_in.size(); ++i) {
        infos.push_back(host_in[i].request());
        const auto& info = infos.back();
        auto* p = static_cast<std::uint8_t*>(info.ptr);
        const auto n = static_cast<std::size_t>(info.size * info.itemsize);
        bool shared = info.readonly;
        for (std::size_t j = 0; j < i && !shared; ++j)
            shared = n && !host[j].empty() && p < host[j].data() + host[j].size() && host[j].data() < p + n;
        if (shared) {
            copies[i].assign(p, p + n);
            host.emplace_back(copies[i].data(), n);
        } else {
            host.emplace_back(p, n);
        }
    }
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(program.device().arch);
    o.max_cycles = max_cycles;
    o.invocations = iters;
    if (core_stack) { // `--core-stack BYTES` of `npusim python`, as `npusim run --core-stack`
        if (core_stack < sim::kMinCoreStackBytes || core_stack > sim::kMaxCoreStackBytes)
            throw py::value_error(fmt::format("--core-stack expects {} up to {} bytes (1 GiB), got {}",
                                              sim::kMinCoreStackBytes, sim::kMaxCoreStackBytes, core_stack));
        o.core_stack_bytes = core_stack;
    }
    std::vector<std::unique_ptr<sim::TraceSink>> sinks;
    std::vector<sim::TraceSink*> raw;
    if (!trace_path.empty()) sinks.push_back(std::make_unique<traces::PerfettoTraceSink>(trace_path));
    if (!vcd_path.empty()) sinks.push_back(std::make_unique<traces::VcdTraceSink>(vcd_path));
    // The HTML report is written once the outcome is known (as `npusim run --html` writes it).
    traces::HtmlReportSink* html = nullptr;
    if (!html_path.empty()) {
        sinks.push_back(std::make_unique<traces::HtmlReportSink>(html_path, false));
        html = static_cast<traces::HtmlReportSink*>(sinks.back().get());
    }
    for (auto& s : sinks) raw.push_back(s.get());
    std::unique_ptr<sim::TraceSink> tee;
    if (raw.size() == 1) o.trace = raw[0];
    if (raw.size() > 1) {
        tee = std::make_unique<traces::TeeTraceSink>(raw);
        o.trace = tee.get();
    }
    sim::SimResult r;
    try {
        tools::CrashReporter::install();
        // Native code calling exit() or quick_exit() during the run ends the process as `npusim
        // run` does (exit code 2, the kernel named), not silently with its own status; disarmed
        // when the simulation returns or throws, so the script's own sys.exit() is untouched.
        const tools::ExitGuardScope exit_guard("", [](const std::string& msg) {
            const std::string line = "npusim: kernel error: " + msg + "\n";
            std::fflush(stdout);
            (void)!::write(2, line.data(), line.size());
        });
        r = sim::simulate_in_place(net, host, o);
    } catch (const SimulationError& e) {
        if (html) {
            const auto* d = sim::diagnosis_of(e);
            const bool limit = e.kind() == SimulationError::Kind::Limit;
            html->write({.status = e.kind() == SimulationError::Kind::Deadlock ? "deadlock" : limit ? "limit" : "error",
                         .message = e.what(),
                         .diagnosis = d,
                         .design = program.name(),
                         .device = program.device().name});
        }
        throw;
    }
    if (html) html->write({.result = &r});
    py::dict d;
    d["cycles"] = r.cycles;
    d["clock_mhz"] = o.timing.clock_mhz;
    // The tensors after the run: None where the run wrote the caller's buffer itself, else the
    // bytes of its copy.
    py::list out;
    for (std::size_t i = 0; i < host.size(); ++i) {
        if (copies[i].empty() && host[i].data() == infos[i].ptr)
            out.append(py::none());
        else
            out.append(py::bytes(reinterpret_cast<const char*>(copies[i].data()), copies[i].size()));
    }
    d["host"] = out;
    py::list inv;
    for (const auto& i : r.invocations) inv.append(i.cycles());
    d["invocation_cycles"] = inv;
    py::list cores;
    for (const auto& c : r.cores) {
        py::dict cd;
        cd["worker"] = c.worker;
        cd["tile"] = py::make_tuple(c.tile.col, c.tile.row);
        cd["busy_cycles"] = c.busy_cycles;
        cd["kernel_cycles"] = c.kernel_cycles;
        cd["body_cycles"] = c.body_cycles;
        cd["stall_cycles"] = c.stall_cycles;
        cd["kernel_calls"] = c.kernel_calls;
        cd["iterations"] = c.iterations;
        cores.append(cd);
    }
    d["cores"] = cores;
    d["bytes_moved"] = r.bytes_moved;
    d["warnings"] = r.warnings;
    return d;
}

} // namespace

void bind_program(py::module_& m) {
    py::class_<iron::DepthOverride>(m, "DepthOverride")
        .def(py::init([](std::string fifo, int consumer, int depth) { return iron::DepthOverride{std::move(fifo), consumer, depth}; }),
             py::arg("fifo"), py::arg("consumer"), py::arg("depth"));
    py::class_<iron::Program>(m, "Program")
        .def(py::init<const std::string&, iron::Runtime, std::vector<iron::Worker>, std::string>(), py::arg("device"),
             py::arg("runtime"), py::arg("workers"), py::arg("name") = "design")
        .def_property_readonly("name", &iron::Program::name)
        .def_property_readonly("device", [](const iron::Program& p) { return p.device().name; })
        .def_property_readonly("arch", [](const iron::Program& p) { return std::string(model::arch_name(p.device().arch)); })
        .def(
            "enable_trace",
            [](iron::Program& p, std::uint64_t size, std::optional<std::vector<iron::Worker>> workers) {
                p.enable_trace(size, std::move(workers));
            },
            py::arg("trace_size"), py::arg("workers") = py::none())
        .def("check", [](const iron::Program& p) { (void)with_crash_reporter(p).resolve(); }, "Resolve the program (DesignError if it cannot be).")
        .def(
            "resolve_once",
            [](const iron::Program& p) {
                return ResolvedNetlist{std::make_shared<const model::Netlist>(with_crash_reporter(p).resolve())};
            },
            "Resolve the program (DesignError if it cannot be) and keep the result for simulate(resolved=).")
        .def(
            "export_mlir",
            [](const iron::Program& p, bool generic) {
                iron::ExportOptions o;
                o.generic = generic;
                return iron::export_mlir(p, o);
            },
            py::arg("generic") = false,
            "The MLIR export (npusim export); generic: every op in MLIR's generic form, as --generic.")
        .def(
            "fifo_ends",
            [](const iron::Program& p) {
                py::list out;
                for (const auto& e : p.resolve().fifo_ends) {
                    py::dict d;
                    d["fifo"] = e.fifo;
                    d["consumer"] = e.consumer;
                    d["end"] = e.describe();
                    d["declared"] = e.declared;
                    d["depth"] = e.depth;
                    d["object_bytes"] = e.object_bytes;
                    d["owns_buffers"] = e.owns_buffers();
                    d["tile"] = py::make_tuple(e.tile.col, e.tile.row);
                    out.append(d);
                }
                return out;
            },
            "Every fifo endpoint of the resolved design (model::FifoEndpointInfo), for depth analysis.");
    py::class_<ResolvedNetlist>(m, "ResolvedNetlist");
    m.def("install_crash_reporter", &tools::CrashReporter::install,
          "Install the crash reporter now (resolve and simulate do it before running design code).");
    m.def("simulate", &simulate, py::arg("program"), py::arg("host"), py::arg("max_cycles") = 0, py::arg("iters") = 1,
          py::arg("trace") = "", py::arg("vcd") = "", py::arg("html") = "", py::arg("depths") = std::vector<iron::DepthOverride>{},
          py::arg("resolved") = py::none(), py::arg("core_stack") = 0);
}

} // namespace npusim::python
