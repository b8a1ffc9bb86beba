#include "CliOptions.hpp"

#include "CliSupport.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace npusim::tools {

CliOptions::CliOptions(CLI::App& sub, std::string cmd, std::string heading)
    : sub_(sub), cmd_(std::move(cmd)), heading_(std::move(heading)) {
    sub_.allow_extras(); // left over, they are reported by apply() in npusim's words
    if (auto* help = sub_.get_help_ptr()) help->group(heading_);
}

CliOptions& CliOptions::value(const std::string& name, const std::string& placeholder, const std::string& help,
                              std::function<void(const std::string&)> apply) {
    auto raw = std::make_shared<std::string>();
    storage_.push_back(raw);
    auto* opt = sub_.add_option(name, *raw, help)
                    ->type_name(placeholder)
                    ->group(heading_)
                    ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    steps_.push_back([opt, raw, apply = std::move(apply)] {
        if (opt->count() > 0) apply(*raw);
    });
    return *this;
}

CliOptions& CliOptions::repeated(const std::string& name, const std::string& placeholder, const std::string& help,
                                 std::function<void(const std::string&)> apply) {
    auto raw = std::make_shared<std::vector<std::string>>();
    storage_.push_back(raw);
    // One value per occurrence: `--param a=1 DESIGN` leaves DESIGN to the positional.
    sub_.add_option(name, *raw, help)->type_name(placeholder)->group(heading_)->allow_extra_args(false);
    steps_.push_back([raw, apply = std::move(apply)] {
        for (const auto& v : *raw) apply(v);
    });
    return *this;
}

CliOptions& CliOptions::flag(const std::string& name, const std::string& help, bool& target) {
    sub_.add_flag(name, target, help)->group(heading_)->disable_flag_override();
    return *this;
}

CliOptions& CliOptions::design(std::string& target) {
    sub_.add_option("design", target, "the design (see `npusim list`)")->group("");
    return *this;
}

void CliOptions::apply() const {
    for (const auto& s : sub_.remaining()) {
        if (s.size() > 1 && s[0] == '-') // the option's name, without a value written onto it
            throw UsageError(fmt::format("{}: unknown option '{}'", cmd_, s.substr(0, s.find('='))));
        throw UsageError(fmt::format("{}: unexpected argument '{}'", cmd_, s));
    }
    for (const auto& s : steps_) s();
}

} // namespace npusim::tools
