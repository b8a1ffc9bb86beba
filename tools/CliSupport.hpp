#pragma once
// What the npusim subcommands share: the usage error (exit code 2, printed with the usage text)
// and the parsing and number formatting of the command line.
#include "CliOptions.hpp"

#include "npusim/harness/DesignParams.hpp"
#include "npusim/harness/RunOutcome.hpp"
#include "npusim/model/Text.hpp"

#include <cstdint>
#include <stdexcept>
#include <map>
#include <string>
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
/// `NAME=FILE.npy` (--input, --expect) into `into`; UsageError naming `opt` when malformed or NAME repeats.
void parse_named_file(const std::string& kv, const std::string& opt, std::map<std::string, std::string>& into);

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
/// Registers the design and the options depth and sweep share: --seed, --max-cycles, --timeout,
/// --json, --progress, --csv FILE. In the help, `what` names one unit of the command's work
/// ("configuration", "point") and `csv_rows` what a CSV row is ("endpoint and depth").
void add_batch_options(CliOptions& o, const BatchOptionTargets& t, const std::string& what,
                       const std::string& csv_rows);

/// The exit code of a batch of runs (sweep's points, depth's configurations): 0 when at least one ran
/// and matched; when none did, 1 if every one ran and mismatched, 3 if every one deadlocked, 4 if
/// every one reached a limit or timed out, else 2 (refused, errors, crashes, a mix; also no runs).
int batch_exit_code(const std::vector<harness::RunOutcome>& outcomes);
/// How batch_exit_code's codes arise, for the help of a command whose unit of work is `unit`
/// ("point", "configuration").
std::string batch_exit_note(const std::string& unit);
/// "3 deadlock, 1 refused": how many of `outcomes` have each status, for the message that no run
/// matched.
std::string status_counts(const std::vector<harness::RunOutcome>& outcomes);

/// 1234567 -> "1,234,567".
using model::grouped; // npusim/model/Text.hpp

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
