#pragma once
// Small text helpers of the deadlock and limit reports: grouped numbers ("12,345"), counted nouns
// ("1 object", "3 objects"), ordinals ("2nd") and joined lists. One place, so every part of a report
// writes numbers the same way.
#include <cstdint>
#include <string>
#include <vector>

namespace npusim::sim {

/// `v` with a comma every three digits: 1234567 -> "1,234,567".
std::string grouped(std::uint64_t v);
/// "1 object", "2,048 objects".
std::string plural(std::uint64_t n, const char* one, const char* many);
/// A plural unit's singular: "iterations" -> "iteration", "BDs" -> "BD".
std::string singular(const std::string& unit);
/// "1st", "2nd", "3rd", "4th", "11th", "21st".
std::string ordinal(std::uint64_t n);
/// The items of `v` separated by `sep`.
std::string join(const std::vector<std::string>& v, const std::string& sep);

} // namespace npusim::sim
