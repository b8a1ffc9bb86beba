#include "CliSupport.hpp"

#include <charconv>
#include <fmt/format.h>

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

std::string grouped(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

} // namespace npusim::tools
