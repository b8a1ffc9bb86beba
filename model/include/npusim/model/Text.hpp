#pragma once
// The text helpers every layer's reports share: numbers with thousands separators, counted nouns and
// JSON string literals. One home, so a summary, a deadlock report, a trace and the HTML report write
// the same number the same way.
#include <cstdint>
#include <string>
#include <string_view>

namespace npusim::model {

/// `v` with a comma every three digits: 1234567 -> "1,234,567".
std::string grouped(std::uint64_t v);

/// A count with its noun: "1 object", "2,048 objects".
std::string plural(std::uint64_t n, const char* one, const char* many);

/// A JSON string literal, quotes included, as nlohmann::json writes it (UTF-8 kept as is; invalid
/// UTF-8 becomes U+FFFD instead of throwing). The HTML report embeds JSON in a <script> and uses
/// its own script-safe form (traces/src/html/HtmlText.hpp).
std::string json_string(std::string_view s);

} // namespace npusim::model
