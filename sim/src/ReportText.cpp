#include "ReportText.hpp"

#include <fmt/format.h>

namespace npusim::sim {

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
