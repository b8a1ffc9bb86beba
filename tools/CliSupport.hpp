#pragma once
// What the npusim subcommands share: the usage error (exit code 2, printed with the usage text)
// and the parsing and number formatting of the command line.
#include "npusim/harness/DesignParams.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::tools {

/// A bad command line: exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// `s` as a non-negative integer, else UsageError naming the option `opt`.
std::uint64_t parse_u64(const std::string& s, const std::string& opt);
/// `s` as an integer, else UsageError naming `what`.
std::int64_t parse_i64(const std::string& s, const std::string& what);
/// `s` as an integer in lo..hi, else UsageError naming the option `opt`.
std::uint64_t parse_count(const std::string& s, const std::string& opt, std::uint64_t lo, std::uint64_t hi);
/// A CSV field: as is, or quoted (with its quotes doubled) when it holds a comma, quote or newline.
std::string csv_field(const std::string& s);
/// "K=V" of `--param` into `params` (UsageError unless V is an integer).
void parse_param(const std::string& kv, harness::Params& params);

/// Reads the options of a subcommand, `--opt value` or `--opt=value`, from args[start..].
class OptionReader {
public:
    OptionReader(const std::vector<std::string>& args, std::size_t start) : a_(args), i_(start) {}
    /// The next argument (an option's name with its "=value" split off), nullopt after the last.
    /// UsageError if the previous option was given "=value" but takes none.
    std::optional<std::string> next();
    /// The value of the current option (UsageError when it has none).
    std::string value();

private:
    const std::vector<std::string>& a_;
    std::size_t i_;
    bool started_ = false;
    std::string name_;
    std::optional<std::string> inline_value_;
};

/// Where the options `depth` and `sweep` share go.
struct BatchOptionTargets {
    std::string& design; ///< the positional design name
    bool& json;
    bool& progress;
    std::string& csv_file;
    std::uint64_t& seed;
    std::uint64_t& max_cycles;
    double& timeout_seconds;
};
/// The option `s` of `cmd` (depth, sweep) that is none of its own: --seed, --max-cycles, --timeout,
/// --json, --progress, --csv FILE or the design; UsageError for anything else ("CMD: unknown option").
void read_batch_option(std::string_view cmd, const std::string& s, OptionReader& opts, const BatchOptionTargets& t);

/// 1234567 -> "1,234,567".
std::string grouped(std::uint64_t v);

/// What a command run in a child process gave: its exit code (128 + the signal when a signal ended
/// it) and its stdout and stderr, interleaved as written (one pipe).
struct ChildRun {
    int code = 0;
    std::string output;
};
/// Run `npusim ARGS` (run_cli) in a forked child, for callers that must survive a command that ends
/// its process (the --timeout watchdog, a crash report). Throws std::runtime_error if the pipe or
/// the fork fails.
ChildRun run_cli_in_child(const std::vector<std::string>& args);

} // namespace npusim::tools
