#include "CliSupport.hpp"

#include <charconv>
#include <fmt/format.h>
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

} // namespace npusim::tools
