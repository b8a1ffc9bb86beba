#include "CompareDevices.hpp"

#include "Cli.hpp"
#include "CliSupport.hpp"
#include "JsonDocument.hpp"
#include "ProgressLine.hpp"
#include "RunGuard.hpp"
#include "RunReport.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <unistd.h>
#include <utility>

namespace npusim::tools {

namespace {

// --device a,b,c: the devices in the order given, each once.
std::vector<std::string> device_list(const std::string& v) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    for (;;) {
        const auto comma = v.find(',', pos);
        const std::string name = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (name.empty()) throw UsageError(fmt::format("--device '{}': an empty device name in the list", v));
        const std::string canonical = model::device_by_name(name).name;
        if (std::find(out.begin(), out.end(), canonical) == out.end()) out.push_back(canonical);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return out;
}

// FNV-1a over an output's bytes: equal outputs on two devices have equal digests.
std::uint64_t digest(const std::vector<std::uint8_t>& bytes) {
    std::uint64_t h = 1469598103934665603ull;
    for (auto b : bytes) h = (h ^ b) * 1099511628211ull;
    return h;
}

struct DeviceRow {
    std::string device;
    std::optional<harness::RunReport> rep;
    model::TimingParams timing;
    ErrorClass error;
    std::string message;
};

// The digest of output `arg` of a run, if it has one.
std::optional<std::uint64_t> output_digest(const harness::RunReport& rep, const std::string& arg) {
    for (const auto& c : rep.checks)
        if (c.arg == arg && c.arg_index >= 0 && static_cast<std::size_t>(c.arg_index) < rep.result.host.size())
            return digest(rep.result.host[static_cast<std::size_t>(c.arg_index)]);
    return std::nullopt;
}

struct DevicesSummary {
    std::vector<std::string> outputs; ///< by name, in the first successful run's order
    int code = 0;
    bool identical = true;
};

DevicesSummary summarize(const std::vector<DeviceRow>& rows) {
    DevicesSummary s;
    for (const auto& row : rows)
        if (row.rep && s.outputs.empty())
            for (const auto& c : row.rep->checks) s.outputs.push_back(c.arg);
    std::map<std::string, std::uint64_t> first_digest;
    for (const auto& row : rows) {
        if (!row.rep) {
            s.code = std::max(s.code, row.error.code);
            continue;
        }
        if (!row.rep->all_match) s.code = std::max(s.code, 1);
        for (const auto& o : s.outputs) {
            const auto d = output_digest(*row.rep, o);
            if (!d) continue;
            const auto [it, fresh] = first_digest.try_emplace(o, *d);
            if (!fresh && it->second != *d) s.identical = false;
        }
    }
    return s;
}

// The run_devices document of `rows`, and the exit code they give.
std::pair<nlohmann::json, int> devices_document(const std::string& design, const std::vector<DeviceRow>& rows) {
    const auto s = summarize(rows);
    auto j = json_document("run_devices", {{"design", design}, {"devices", nlohmann::json::array()}});
    for (const auto& row : rows) {
        nlohmann::json d;
        if (row.rep) {
            d = run_report_json(*row.rep, row.timing);
            for (const auto& o : s.outputs)
                if (const auto dg = output_digest(*row.rep, o)) d["output_digests"][o] = fmt::format("{:016x}", *dg);
        } else {
            d = {{"device", row.device},
                 {"status", row.error.status},
                 {"error", {{"kind", row.error.kind}, {"message", row.message}}}};
        }
        j["devices"].push_back(std::move(d));
    }
    j["outputs_identical"] = s.identical;
    j["status"] = s.code == 0 ? "pass" : "fail";
    return {std::move(j), s.code};
}

} // namespace

// --device a,b: the same design, parameters and seed on each device, outputs and cycles side by side.
int run_on_devices(const RunArgs& r, std::ostream& out, std::ostream& err) {
    const auto devices = device_list(r.device);
    for (const auto* f : {&r.trace_file, &r.vcd_file, &r.dot_file, &r.html_file})
        if (!f->empty())
            throw UsageError(
                "--trace, --vcd, --dot and --html write one run's files: give one device, not a --device list");
    if (!r.save_dir.empty()) throw UsageError("--save-outputs writes one run's files: give one device, not a list");
    if (!r.what_if.empty()) throw UsageError("--what-if compares ablations on one device: give one device, not a list");
    if (r.netlist) throw UsageError("--netlist prints one device's netlist: give one device, not a list");
    const auto& spec = harness::design_by_name(r.design);
    std::vector<DeviceRow> rows;
    std::optional<ProgressLine> progress; // --progress: on stderr, in place on a terminal
    if (r.progress) progress.emplace(err, &err == &std::cerr && ::isatty(STDERR_FILENO));
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const auto& d = devices[i];
        const auto& dev = model::device_by_name(d);
        const auto ro = run_options(r, dev, RunKind::device_list, progress ? &*progress : nullptr);
        DeviceRow row{d, std::nullopt, ro.sim.timing, {}, {}};
        // With --json, a guard that ends the process (the watchdog, the exit guard) prints the
        // whole document: the devices run so far, this one with its error, the rest not run.
        GuardDocument doc;
        if (r.json)
            doc = [&rows, &devices, &r, i](const char* status, const char* kind, const std::string& message) {
                const ErrorClass stopped{std::string(status) == "limit" ? 4 : 2, status, kind};
                std::vector<DeviceRow> all = rows;
                all.push_back({devices[i], std::nullopt, {}, stopped, message});
                for (std::size_t k = i + 1; k < devices.size(); ++k)
                    all.push_back({devices[k],
                                   std::nullopt,
                                   {},
                                   stopped,
                                   fmt::format("not run: npusim stopped while running on {}", devices[i])});
                return devices_document(r.design, all).first.dump(2);
            };
        try {
            row.rep = guarded_run(r, spec, d, ro, "on " + d, out, err, std::move(doc));
        } catch (const std::exception& e) {
            row.error = classify_error(e);
            row.message = e.what();
        }
        rows.push_back(std::move(row));
    }
    const auto summary = summarize(rows);
    const auto& outputs = summary.outputs;
    const int code = summary.code;
    const bool identical = summary.identical;
    if (r.json) {
        out << devices_document(r.design, rows).first.dump(2) << "\n";
        return code;
    }
    out << fmt::format("npusim: {} on {} devices (same parameters, seed {})\n", r.design, rows.size(), r.seed);
    std::string head = fmt::format("  {:<10} {:<6} {:>4} {:>14} {:>11} {:>11}", "device", "arch", "cols", "cycles",
                                   "array time", "npu time");
    auto rtrim = [](std::string s) {
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s;
    };
    for (const auto& o : outputs) head += fmt::format("  {:<24}", o + " (digest, check)");
    out << rtrim(head) << "\n";
    for (const auto& row : rows) {
        const auto& dev = model::device_by_name(row.device);
        std::string line = fmt::format("  {:<10} {:<6} {:>4}", row.device, model::arch_name(dev.arch), dev.cols);
        if (!row.rep) {
            out << line << "  " << row.error.kind << ": " << row.message << "\n";
            continue;
        }
        const auto cycles = row.rep->result.cycles;
        const double array_us = static_cast<double>(cycles) / row.timing.clock_mhz;
        line += fmt::format(" {:>14} {:>8.1f} us {:>8.1f} us", grouped(cycles), array_us,
                            array_us + row.timing.host_latency_us(row.rep->cold));
        for (const auto& o : outputs) {
            const auto d = output_digest(*row.rep, o);
            bool match = false;
            for (const auto& c : row.rep->checks)
                if (c.arg == o) match = c.match;
            line += fmt::format("  {:<24}", d ? fmt::format("{:016x} {}", *d, match ? "ok" : "MISMATCH") : "-");
        }
        out << rtrim(line) << "\n";
    }
    const bool all_ran = std::all_of(rows.begin(), rows.end(), [](const DeviceRow& x) { return x.rep.has_value(); });
    if (all_ran && rows.size() > 1)
        out << (identical ? "  outputs: identical on every device\n"
                          : "  outputs: DIFFER between devices (the digests above): a portability bug\n");
    out << (code == 0 ? "result: PASS on every device\n" : "result: FAIL\n");
    return code;
}

} // namespace npusim::tools
