#include "ReportText.hpp"

#include <fmt/format.h>

namespace npusim::sim {

std::string grouped(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
    return fmt::format("{} {}", grouped(n), n == 1 ? one : many);
}

std::string singular(const std::string& unit) {
    return !unit.empty() && unit.back() == 's' ? unit.substr(0, unit.size() - 1) : unit;
}

std::string ordinal(std::uint64_t n) {
    const char* suffix = "th";
    if (n % 100 < 11 || n % 100 > 13) {
        if (n % 10 == 1) suffix = "st";
        if (n % 10 == 2) suffix = "nd";
        if (n % 10 == 3) suffix = "rd";
    }
    return fmt::format("{}{}", n, suffix);
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

} // namespace npusim::sim
