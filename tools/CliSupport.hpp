#pragma once
// What the npusim subcommands share: the usage error (exit code 2, printed with the usage text)
// and the parsing and number formatting of the command line.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace npusim::tools {

/// A bad command line: exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// `s` as a non-negative integer, else UsageError naming the option `opt`.
std::uint64_t parse_u64(const std::string& s, const std::string& opt);
/// `s` as an integer, else UsageError naming `what`.
std::int64_t parse_i64(const std::string& s, const std::string& what);
/// 1234567 -> "1,234,567".
std::string grouped(std::uint64_t v);

} // namespace npusim::tools
