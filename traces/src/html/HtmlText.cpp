#include "HtmlText.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace npusim::traces::html {

std::string escape_html(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 8);
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string script_json_string(std::string_view s) {
    std::string out = "\"";
    out.reserve(s.size() + 2);
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '<': out += "\\u003c"; break;
            case '>': out += "\\u003e"; break;
            case '&': out += "\\u0026"; break;
            default:
                if (c < 0x20 || c == 0x7f)
                    out += fmt::format("\\u{:04x}", c);
                else
                    out += static_cast<char>(c);
            }
            ++i;
            continue;
        }
        // A well-formed UTF-8 sequence is copied; anything else becomes U+FFFD.
        const int len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        bool ok = len > 0 && i + static_cast<std::size_t>(len) <= n && !(c == 0xC0 || c == 0xC1 || c > 0xF4);
        for (int k = 1; ok && k < len; ++k) ok = (p[i + static_cast<std::size_t>(k)] & 0xC0) == 0x80;
        if (ok) {
            out.append(s.substr(i, static_cast<std::size_t>(len)));
            i += static_cast<std::size_t>(len);
        } else {
            out += "\\ufffd";
            ++i;
        }
    }
    out += '"';
    return out;
}

std::string tile_str(model::TileCoord t) { return fmt::format("({},{})", t.col, t.row); }

std::string bytes_str(std::uint64_t b) {
    if (b >= (1u << 20) && b % (1u << 20) == 0) return fmt::format("{} MiB", b >> 20);
    if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", b >> 10);
    return fmt::format("{} B", grouped(b));
}

std::string pct(double v) { return fmt::format("{:.1f}%", v); }

std::string bar(double percent, const char* cls) {
    const double w = std::clamp(percent, 0.0, 100.0);
    return fmt::format(R"(<div class="bar{}{}"><span style="width:{:.1f}%"></span></div>)", *cls ? " " : "", cls, w);
}

std::string status_class(const std::string& status) {
    if (status == "PASS") return "pass";
    if (status == "FAIL") return "fail";
    if (status == "deadlock") return "deadlock";
    if (status == "limit") return "limit";
    if (status == "error") return "error";
    return "finished";
}

} // namespace npusim::traces::html
