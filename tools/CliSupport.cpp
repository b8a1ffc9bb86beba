#include "CliSupport.hpp"

#include "Cli.hpp"

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

std::optional<std::string> OptionReader::next() {
    if (inline_value_) throw UsageError(fmt::format("{} takes no value", name_));
    if (started_) ++i_;
    started_ = true;
    if (i_ >= a_.size()) return std::nullopt;
    name_ = a_[i_];
    if (name_.size() > 2 && name_.starts_with("--") && name_.find('=') != std::string::npos) {
        inline_value_ = name_.substr(name_.find('=') + 1);
        name_ = name_.substr(0, name_.find('='));
    }
    return name_;
}

std::string OptionReader::value() {
    if (inline_value_) return *std::exchange(inline_value_, std::nullopt);
    if (i_ + 1 >= a_.size()) throw UsageError(fmt::format("{} needs a value", name_));
    return a_[++i_];
}

std::string grouped(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
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

void read_batch_option(std::string_view cmd, const std::string& s, OptionReader& opts, const BatchOptionTargets& t) {
    if (s == "--seed")
        t.seed = parse_count(opts.value(), s, 0, UINT64_MAX);
    else if (s == "--max-cycles")
        t.max_cycles = parse_count(opts.value(), s, 1, UINT64_MAX);
    else if (s == "--timeout")
        t.timeout_seconds = static_cast<double>(parse_count(opts.value(), s, 1, 86'400));
    else if (s == "--json")
        t.json = true;
    else if (s == "--progress")
        t.progress = true;
    else if (s == "--csv") {
        t.csv_file = opts.value();
        if (t.csv_file.empty()) throw UsageError("--csv needs a file name");
    } else if (!s.empty() && s[0] == '-')
        throw UsageError(fmt::format("{}: unknown option '{}'", cmd, s));
    else if (t.design.empty())
        t.design = s;
    else
        throw UsageError(fmt::format("{}: unexpected argument '{}'", cmd, s));
}

} // namespace npusim::tools
