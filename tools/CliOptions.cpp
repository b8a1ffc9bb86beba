#include "CliOptions.hpp"

#include "CliSupport.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace npusim::tools {

CLI::App* add_command(CLI::App& app, const std::string& name, const std::string& description,
                      const std::string& footer) {
    CLI::App* sub = app.add_subcommand(name, description);
    if (!footer.empty()) sub->footer(footer);
    return sub;
}

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
    checks_.push_back([this, opt, name, raw] {
        if (opt->count() > 0) refuse_option_value(name, *raw);
    });
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
    checks_.push_back([this, name, raw] {
        for (const auto& v : *raw) refuse_option_value(name, v);
    });
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

void CliOptions::refuse_option_value(const std::string& name, const std::string& v) const {
    // `--trace --alloc-scheme bank-aware` is a --trace whose value was forgotten, not a file named
    // "--alloc-scheme". A value that begins with "--", or is one of the command's options, is refused;
    // a file of such a name is written ./--name.
    const std::string head = v.substr(0, v.find('='));
    const bool option_like = (v.size() > 2 && v.starts_with("--")) ||
                             (v.size() > 1 && v[0] == '-' && sub_.get_option_no_throw(head) != nullptr);
    if (option_like)
        throw UsageError(fmt::format("{} needs a value, got the option '{}' (a file of that name: ./{})",
                                     name.substr(0, name.find(',')), head, v));
}

void CliOptions::apply() const {
    for (const auto& c : checks_) c(); // before anything else: a swallowed option shifts what follows
    for (const auto& s : sub_.remaining()) {
        if (s.size() > 1 && s[0] == '-') // the option's name, without a value written onto it
            throw UsageError(fmt::format("{}: unknown option '{}'", cmd_, s.substr(0, s.find('='))));
        throw UsageError(fmt::format("{}: unexpected argument '{}'", cmd_, s));
    }
    for (const auto& s : steps_) s();
}

} // namespace npusim::tools
