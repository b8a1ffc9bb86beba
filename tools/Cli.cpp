#include "Cli.hpp"
#include "CliOptions.hpp"
#include "CliSupport.hpp"
#include "DepthCommand.hpp"
#include "PythonCommand.hpp"
#include "ExitReport.hpp"
#include "CalibrateCommand.hpp"
#include "ExportCommand.hpp"
#include "HelpFormatter.hpp"
#include "HwCommand.hpp"
#include "InfoCommands.hpp"
#include "JsonDocument.hpp"
#include "MpiSession.hpp"
#include "OutputPaths.hpp"
#include "RunCommand.hpp"
#include "RunReport.hpp"
#include "SweepCommand.hpp"

#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/HostMemory.hpp"
#include "npusim/harness/NpyFile.hpp"
#include "npusim/hw/HardwareError.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/sim/Diagnosis.hpp"
#include "npusim/traces/OutputFile.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <regex>
#include <sstream>

namespace npusim::tools {

namespace {

// The lines of the command list that are not a subcommand's (each subcommand's own lines are its
// description; tools/HelpFormatter.hpp puts them together).
const char* const kTopLines =
    "  npusim                         run the default demo design and print its summary\n"
    "  npusim --version               npusim's version (also: npusim version)\n"
    "  npusim help [COMMAND]          this usage, or one command's (also: npusim COMMAND --help)\n";

// The error that ended a command: the error document on `out` (--json; with the diagnosis of a
// deadlock or limit, and the files the failed run wrote), else "npusim: KIND: MESSAGE" on `err`.
int error_exit(bool json, std::ostream& out, std::ostream& err, const std::string& status, const std::string& kind,
               const std::string& msg, int code, const sim::Diagnosis* diagnosis = nullptr) {
    if (json) {
        auto j = json_document("error", {{"status", status}, {"error", {{"kind", kind}, {"message", msg}}}});
        if (diagnosis)
            j[diagnosis->trigger == sim::Diagnosis::Trigger::Deadlock ? "deadlock" : "limit"] =
                diagnosis_json(*diagnosis);
        j["files"] = nlohmann::json::object(); // what the run wrote up to the failure
        for (const auto& [key, path] : failed_run_files()) j["files"][key] = path;
        out << j.dump(2) << "\n";
    } else {
        err << "npusim: " << kind << ": " << msg << (msg.empty() || msg.back() == '\n' ? "" : "\n");
    }
    return code;
}

// A CLI11 parse error in npusim's words, naming the option.
std::string usage_message(const CLI::ParseError& e) {
    const std::string m = e.what();
    static const std::regex missing(R"(^(\S+): \d+ required .* missing$)"); // "--device: 1 required NAME missing"
    static const std::regex override(R"(^-*(\S+) was given a disallowed flag override$)");
    std::smatch g;
    if (std::regex_match(m, g, missing)) return g[1].str() + " needs a value";
    if (std::regex_match(m, g, override)) return "--" + g[1].str() + " takes no value";
    return m;
}

// CLI11 reads `--flag=true` and `--flag=` as the flag given: npusim's flags take no value at all.
void refuse_flag_values(const CLI::App& sub, const std::vector<std::string>& args) {
    for (const auto& a : args) {
        if (a == "--") break;
        const auto eq = a.find('=');
        if (!a.starts_with("--") || eq == std::string::npos) continue;
        const auto* o = sub.get_option_no_throw(a.substr(0, eq));
        if (o != nullptr && o->get_expected_max() == 0) // a flag
            throw UsageError(fmt::format("{} takes no value", a.substr(0, eq)));
    }
}

// The App: every subcommand, each one function that registers its options and what it runs. A new
// subcommand is one more such function and one line here:
//   Command add_x(CLI::App& app, std::ostream& out) {
//       auto* sub = app.add_subcommand("x", "  npusim x DESIGN [options]     what it does");
//       auto r = std::make_shared<XArgs>();
//       auto o = std::make_shared<CliOptions>(*sub, "x", "x options");
//       o->design(r->design);
//       o->value("--opt", "N", "what it means", [r](const std::string& v) { r->n = parse_u64(v, "--opt"); });
//       return {sub, [r, o, &out] { o->apply(); return run_x(*r, out); }};
//   }
// A command with a parser of its own (a function of the argument list) takes its arguments as given:
// sub->allow_extras() and sub->prefix_command(), then parse(sub->remaining()) in its run.
struct Cli {
    CLI::App app{"npusim", "npusim"};
    std::vector<Command> commands;
    bool version = false;

    Cli(std::ostream& out, std::ostream& err) {
        app.formatter(std::make_shared<HelpFormatter>());
        app.description(kTopLines);
        app.allow_extras(); // reported in npusim's words (run_cli)
        app.require_subcommand(0, 1);
        app.set_help_flag("-h,--help", "this help");
        app.add_flag("--version", version, "npusim's version")->disable_flag_override();
        commands.push_back(add_list_command(app, out));
        commands.push_back(add_devices_command(app, out));
        commands.push_back(add_run_command(app, "run", out, err));
        commands.push_back(add_run_command(app, "golden", out, err));
        commands.push_back(add_args_command(app, out));
        commands.push_back(add_timing_command(app, out));
        commands.push_back(add_depth_command(app, out, err));
        commands.push_back(add_sweep_command(app, out, err));
        commands.push_back(add_export_command(app, out));
        commands.push_back(add_calibrate_command(app, out, err));
        commands.push_back(add_python_command(app, out, err));
        commands.push_back(add_hw_command(app, out));
        commands.push_back(add_compare_command(app, out));
        commands.push_back(add_help_command(app, out));
        commands.push_back(add_version_command(app, out));
        app.footer(kNpyNote); // after the subcommands: they would inherit it
    }

    // The subcommand's help when one was chosen, else the whole usage.
    std::string help() const { return app.help(); }
};

// The usage line of the command a usage error concerns (the first line of its description), and
// where its options are: not the whole help, which would bury the error.
std::string usage_hint(const CLI::App* app) {
    const CLI::App* sub = nullptr;
    if (app)
        for (const auto* s : app->get_subcommands())
            if (s->parsed()) sub = s;
    if (!sub) return "usage: npusim COMMAND [options] (`npusim --help` lists the commands and their options)\n";
    std::string line = sub->get_description().substr(0, sub->get_description().find('\n'));
    line.erase(0, line.find_first_not_of(' '));
    // Up to the description beside it (after two spaces, or after "[options] ").
    if (const auto gap = line.find("  "); gap != std::string::npos) line.erase(gap);
    if (const auto opts = line.find("[options] "); opts != std::string::npos) line.erase(opts + 9);
    return fmt::format("usage: {} (`npusim {} --help` for its options)\n", line, sub->get_name());
}

int run_command(std::optional<Cli>& cli, const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// A rank other than 0: the command runs (its share of a sweep), what it prints is dropped.
int run_cli_quietly(const std::vector<std::string>& args, std::ostream& sink) {
    std::optional<Cli> cli;
    try {
        return run_command(cli, args, sink, sink);
    } catch (const std::exception& e) {
        return classify_error(e).code;
    }
}

} // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    clear_failed_run_files();
    bool json = false;
    for (const auto& a : args) json |= a == "--json";
    // Under mpirun every rank runs this; rank 0 alone speaks (it gathers what the others did), so
    // one document comes out, on success and on error.
    std::ostringstream silenced;
    if (launched_by_mpi() && launcher_rank() > 0) return run_cli_quietly(args, silenced);
    exit_report::begin(json);
    std::optional<Cli> cli;
    try {
        const int code = run_command(cli, args, out, err);
        // What the command printed must have arrived (stdout a full disk, a closed pipe): an output
        // lost is an error, not exit 0.
        check_stream_written(out, "standard output");
        return code;
    } catch (const UsageError& e) {
        if (!json) err << usage_hint(cli ? &cli->app : nullptr);
        const auto c = classify_error(e);
        return error_exit(json, out, err, c.status, c.kind, e.what(), c.code);
    } catch (const std::exception& e) {
        const auto c = classify_error(e);
        const auto* sim_error = dynamic_cast<const SimulationError*>(&e);
        // With --json the document goes to stdout, unless stdout is what failed.
        const bool doc = json && out.good();
        return error_exit(doc, out, err, c.status, c.kind, error_message(e), c.code,
                          sim_error ? sim::diagnosis_of(*sim_error) : nullptr);
    }
}

namespace {

int run_command(std::optional<Cli>& cli, const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty()) {
        RunArgs r;
        r.design = harness::default_design();
        out << "npusim demo: simulating the IRON passthrough_kernel design (see `npusim --help`)\n\n";
        return cmd_run(r, out, err);
    }
    cli.emplace(out, err);
    std::vector<std::string> reversed(args.rbegin(), args.rend()); // as CLI11 takes them
    try {
        cli->app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        out << cli->help(); // the chosen command's, or the whole usage
        return 0;
    } catch (const CLI::ParseError& e) {
        throw UsageError(usage_message(e));
    }
    if (cli->version) {
        out << "npusim " << npusim_version() << "\n";
        return 0;
    }
    const auto extra = cli->app.remaining();
    for (const auto& c : cli->commands) {
        if (!c.app->parsed()) continue;
        if (!extra.empty()) // after `--`
            throw UsageError(fmt::format("{}: unexpected argument '{}'", c.app->get_name(), extra.front()));
        refuse_flag_values(*c.app, args);
        return c.run();
    }
    if (!extra.empty() && extra.front().size() > 1 && extra.front()[0] == '-')
        throw UsageError(fmt::format("unknown option '{}'", extra.front().substr(0, extra.front().find('='))));
    throw UsageError(fmt::format("unknown command '{}'", extra.empty() ? std::string() : extra.front()));
}

} // namespace

ErrorClass classify_error(const std::exception& e) {
    if (const auto* c = dynamic_cast<const ClassifiedError*>(&e)) return c->cls;
    if (dynamic_cast<const std::bad_alloc*>(&e)) return {2, "error", "out of host memory"};
    if (dynamic_cast<const UsageError*>(&e)) return {2, "usage_error", "usage error"};
    if (dynamic_cast<const DesignError*>(&e)) return {2, "design_error", "design error"};
    if (dynamic_cast<const harness::NpyError*>(&e) || dynamic_cast<const FileError*>(&e) ||
        dynamic_cast<const traces::OutputFileError*>(&e))
        return {2, "file_error", "file error"};
    if (const auto* h = dynamic_cast<const hw::HardwareError*>(&e))
        return {static_cast<int>(ExitCode::Hardware), "hardware_error", hw::HardwareError::kind_name(h->kind())};
    if (const auto* s = dynamic_cast<const SimulationError*>(&e)) {
        const auto code = static_cast<int>(exit_code_for(s->kind()));
        switch (s->kind()) {
        case SimulationError::Kind::Deadlock: return {code, "deadlock", "deadlock"};
        case SimulationError::Kind::Limit: return {code, "limit", "limit reached"};
        case SimulationError::Kind::Kernel: return {code, "error", "kernel error"};
        case SimulationError::Kind::Mismatch: return {code, "error", "size mismatch"};
        case SimulationError::Kind::Internal: return {code, "internal_error", "internal error"};
        case SimulationError::Kind::Protocol: break;
        }
        return {code, "error", "protocol error"};
    }
    return {2, "error", "error"};
}

std::string error_message(const std::exception& e) {
    // A run's own allocations are estimated and checked (harness::run_design names the design);
    // one that fails elsewhere (reading inputs, writing a long run's trace) is named here, with the
    // memory this process may use, instead of a bare "std::bad_alloc".
    if (dynamic_cast<const std::bad_alloc*>(&e)) {
        const auto limit = harness::host_memory_limit();
        return fmt::format("a memory allocation failed (std::bad_alloc) while the command ran; this process may use "
                           "{} more ({}): a smaller design or fewer outputs (--trace, --html and --vcd of a long run "
                           "hold every span), or more memory",
                           limit.bytes ? fmt::format("{:.1f} MiB", static_cast<double>(limit.bytes) / (1u << 20))
                                       : std::string("an unknown amount"),
                           limit.source.empty() ? std::string("no limit could be read") : limit.source);
    }
    return e.what();
}

} // namespace npusim::tools
