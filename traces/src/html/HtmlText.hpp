#pragma once
// Text helpers of the HTML report: escaping for HTML and for the embedded JSON, and the number
// formats the report's tables use.
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Text.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace npusim::traces::html {

/// Text for HTML content and attribute values: & < > " ' as entities.
std::string escape_html(std::string_view s);
/// A JSON string literal (quotes included) safe inside a <script> element: < > & as \u003c \u003e
/// \u0026, control characters escaped, invalid UTF-8 as U+FFFD.
std::string script_json_string(std::string_view s);

/// 1234567 -> "1,234,567".
using model::grouped; // npusim/model/Text.hpp
/// "(col,row)".
std::string tile_str(model::TileCoord t);
/// "4 KiB", "1 MiB", "1,000 B".
std::string bytes_str(std::uint64_t b);
/// "12.5%".
std::string pct(double v);
/// A horizontal bar `percent` wide (clamped to 0..100), of class "bar" and `cls`.
std::string bar(double percent, const char* cls = "");
/// The CSS suffix of a status badge: "pass", "fail", "deadlock", "limit", "error", "finished".
std::string status_class(const std::string& status);

} // namespace npusim::traces::html
