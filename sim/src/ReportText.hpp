#pragma once
// Small text helpers of the deadlock and limit reports (grouped numbers and counted nouns are
// model/Text.hpp's, shared by every layer): ordinals ("2nd") and joined lists. One place, so every part of a report
// writes numbers the same way.
#include "npusim/model/Text.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::sim {

using model::grouped; // npusim/model/Text.hpp
using model::plural;
/// A plural unit's singular: "iterations" -> "iteration", "BDs" -> "BD".
std::string singular(const std::string& unit);
/// "1st", "2nd", "3rd", "4th", "11th", "21st".
std::string ordinal(std::uint64_t n);
/// The items of `v` separated by `sep`.
std::string join(const std::vector<std::string>& v, const std::string& sep);

} // namespace npusim::sim
