#pragma once
// The options of one npusim subcommand, registered on its CLI11 App (CLI/CLI.hpp stays inside
// tools/*.cpp: nothing that includes this header needs CLI11). Values are kept as the user wrote
// them and checked only when the command runs - after CLI11 has seen the whole command line, so
// `npusim CMD ... --help` prints the help whatever else it holds - by the same functions and in the
// same words as before (parse_u64, parse_param, ...): a bad value is a UsageError (exit 2).
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace npusim::tools {

/// A subcommand on the App: `run` does its work once the command line parsed (it calls
/// CliOptions::apply first). Adding a subcommand is one function that returns one of these.
struct Command {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

/// A subcommand `name` of `app` with `description` (its lines of the command list) and `footer` (the
/// notes its help ends with): the one place a command's source meets CLI11's App.
CLI::App* add_command(CLI::App& app, const std::string& name, const std::string& description,
                      const std::string& footer = {});

class CliOptions {
public:
    /// `heading` titles the options in the help ("run options"); `cmd` names the command in errors.
    CliOptions(CLI::App& sub, std::string cmd, std::string heading);

    /// `--name VALUE` or `--name=VALUE`; the last one given counts. `apply` checks and stores it.
    CliOptions& value(const std::string& name, const std::string& placeholder, const std::string& help,
                      std::function<void(const std::string&)> apply);
    /// As value(), repeatable: `apply` sees every value, in the order given.
    CliOptions& repeated(const std::string& name, const std::string& placeholder, const std::string& help,
                         std::function<void(const std::string&)> apply);
    /// `--name`, without a value (`--name=x` is a usage error: "--name takes no value").
    CliOptions& flag(const std::string& name, const std::string& help, bool& target);
    /// The positional design name; a second positional argument is "CMD: unexpected argument".
    CliOptions& design(std::string& target);

    /// Checks what CLI11 left over ("CMD: unknown option '--x'", "CMD: unexpected argument 'x'"),
    /// then applies the values in the order the options were declared. UsageError on a bad one.
    void apply() const;
    const std::string& command() const { return cmd_; }

private:
    /// UsageError when the value `v` of option `name` is an option itself (its value was forgotten).
    void refuse_option_value(const std::string& name, const std::string& v) const;

    CLI::App& sub_;
    std::string cmd_, heading_;
    std::vector<std::function<void()>> checks_, steps_;
    std::vector<std::shared_ptr<void>> storage_; ///< the raw values CLI11 writes into
};

} // namespace npusim::tools
