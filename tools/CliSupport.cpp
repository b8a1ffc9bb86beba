#include "CliSupport.hpp"

#include "Cli.hpp"
#include "OutputPaths.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fmt/format.h>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace npusim::tools {

std::uint64_t parse_u64(const std::string& s, const std::string& opt) {
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size())
        throw UsageError(fmt::format("{} expects a non-negative integer, got '{}'", opt, s));
    return v;
}

std::int64_t parse_i64(const std::string& s, const std::string& what) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size())
        throw UsageError(fmt::format("{} expects an integer, got '{}'", what, s));
    return v;
}

std::uint64_t parse_count(const std::string& s, const std::string& opt, std::uint64_t lo, std::uint64_t hi) {
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi)
        throw UsageError(fmt::format("{} expects an integer in {}..{}, got '{}'", opt, lo, hi, s));
    return v;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

void parse_param(const std::string& kv, harness::Params& params) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError(fmt::format("--param expects K=V, got '{}'", kv));
    const std::string key = kv.substr(0, eq), v = kv.substr(eq + 1);
    // a named parameter (dtype_in=i8) takes a name; the design checks it is one of its names
    std::int64_t n = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if ((ec != std::errc() || p != v.data() + v.size()) && !v.empty() && harness::param_takes_names(key))
        params[key] = harness::param_name_code(v);
    else
        params[key] = parse_i64(v, "--param " + key);
}

void parse_named_file(const std::string& kv, const std::string& opt, std::map<std::string, std::string>& into) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
        throw UsageError(fmt::format("{} expects NAME=FILE.npy, got '{}'", opt, kv));
    const auto name = kv.substr(0, eq);
    if (into.count(name)) throw UsageError(fmt::format("{} {} is given twice", opt, name));
    into[name] = kv.substr(eq + 1);
}

int batch_exit_code(const std::vector<harness::RunOutcome>& outcomes) {
    using S = harness::RunOutcome::Status;
    auto all = [&](std::initializer_list<S> of) {
        return !outcomes.empty() && std::all_of(outcomes.begin(), outcomes.end(), [&](const harness::RunOutcome& o) {
                   return std::find(of.begin(), of.end(), o.status) != of.end();
               });
    };
    if (std::any_of(outcomes.begin(), outcomes.end(), [](const harness::RunOutcome& o) { return o.ok(); })) return 0;
    if (all({S::Mismatch})) return 1;
    if (all({S::Deadlock})) return 3;
    if (all({S::Limit, S::Timeout})) return 4;
    return 2;
}

std::string batch_exit_note(const std::string& unit) {
    return fmt::format("exit codes of {0}: 0 at least one {1} ran and matched (each {1}'s status is in the table); when "
                       "none did: 1 every {1} ran and mismatched, 3 every {1} deadlocked, 4 every {1} reached a limit "
                       "or timed out, 2 otherwise (refused, errors, crashes or a mix), and for a usage, design or file "
                       "error of the command itself.\n",
                       unit == "point" ? "sweep" : "depth", unit);
}

std::string status_counts(const std::vector<harness::RunOutcome>& outcomes) {
    std::map<std::string, std::size_t> n;
    for (const auto& o : outcomes) ++n[harness::to_string(o.status)];
    std::string s;
    for (const auto& [status, count] : n) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", count, status);
    return s;
}

ChildRun run_cli_in_child(const std::vector<std::string>& args) {
    int fds[2];
    if (::pipe(fds) != 0)
        throw std::runtime_error(fmt::format("run_cli_in_child: pipe failed: {}", std::strerror(errno)));
    std::cout.flush();
    std::cerr.flush();
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw std::runtime_error(fmt::format("run_cli_in_child: fork failed: {}", std::strerror(errno)));
    }
    if (pid == 0) {
        // The child's stdout and stderr go to the pipe: what the watchdog or the crash reporter
        // writes before it ends the process arrives too.
        ::close(fds[0]);
        ::dup2(fds[1], 1);
        ::dup2(fds[1], 2);
        const int code = run_cli(args, std::cout, std::cerr);
        std::cout.flush();
        std::cerr.flush();
        ::_exit(code);
    }
    ::close(fds[1]);
    ChildRun r;
    char buf[4096];
    for (;;) {
        const auto n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        r.output.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    int st = 0;
    while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return r;
}

void add_batch_options(CliOptions& o, const BatchOptionTargets& t, const std::string& what,
                       const std::string& csv_rows) {
    o.design(t.design);
    o.value("--seed", "N", "seed of the generated inputs (default 1)",
            [t](const std::string& v) { t.seed = parse_count(v, "--seed", 0, UINT64_MAX); });
    o.value("--max-cycles", "N", fmt::format("per simulation; a {} that reaches it is \"limit\"", what),
            [t](const std::string& v) { t.max_cycles = parse_count(v, "--max-cycles", 1, UINT64_MAX); });
    o.value("--timeout", "S", "kill a worker process after S seconds (default 600): \"timeout\"",
            [t](const std::string& v) {
                t.timeout_seconds = static_cast<double>(parse_count(v, "--timeout", 1, 86'400));
            });
    o.flag("--json", "one JSON object instead of the table", t.json);
    o.value("--csv", "FILE", "also write the table to FILE as CSV, one row per " + csv_rows,
            [t](const std::string& v) { t.csv_file = output_name("--csv", v); });
    o.flag("--progress", "the progress line on stderr even when stderr is not a terminal", t.progress);
}

} // namespace npusim::tools
