#include "HelpFormatter.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <sstream>
#include <vector>

namespace npusim::tools {

const char* const kExitCodesNote =
    "exit codes: 0 outputs match, 1 output mismatch, 2 design, usage or file error, 3 deadlock,\n"
    "4 limit reached, 5 internal error (a bug in npusim), 6 the NPU could not run (hw, compare: no NPU,\n"
    "no XRT, or XRT failed)\n";

const char* const kOptionFormsNote =
    "options: --option value or --option=value; given twice, a repeatable option keeps both values, any\n"
    "other the last; -h, --help on every command\n";

const char* const kNpyNote = ".npy files: NumPy format 1.0/2.0/3.0, little-endian, C order; int8 uint8 int16 int32 "
                             "uint32\nfloat32 and bfloat16 (descr '<V2' or 'bfloat16').\n";

namespace {

constexpr std::size_t kNameWidth = 20; // "  --device NAME" and the description from column 23
constexpr std::size_t kWidth = 104;

std::string with_newline(std::string s) {
    if (!s.empty() && s.back() != '\n') s += '\n';
    return s;
}

// One option: "  --name PLACEHOLDER" and its description beside it (below when the name is long).
std::string option_line(const CLI::Option* o) {
    std::string names = o->get_name(false, true);
    for (std::size_t p = names.find(','); p != std::string::npos; p = names.find(',', p + 2)) names.replace(p, 1, ", ");
    if (!o->get_type_name().empty()) names += " " + o->get_type_name();
    std::string line = "  " + names;
    if (names.size() >= kNameWidth)
        line += "\n" + std::string(kNameWidth + 3, ' ');
    else
        line += std::string(kNameWidth + 1 - names.size(), ' ');
    return line + HelpFormatter::wrap(o->get_description(), kNameWidth + 3, kWidth) + "\n";
}

// The options of `app` under their headings, each heading once (`done` holds the headings printed);
// without -h/--help when `with_help` is off (the whole usage says once that every command takes it).
std::string option_sections(const CLI::App* app, std::set<std::string>& done, bool with_help) {
    std::vector<std::string> headings;
    for (const auto* o : app->get_options()) {
        const auto& g = o->get_group();
        if (g.empty() || o->get_positional()) continue;
        if (std::find(headings.begin(), headings.end(), g) == headings.end()) headings.push_back(g);
    }
    std::string text;
    for (const auto& h : headings) {
        if (!done.insert(h).second) continue;
        text += "\n" + h + ":\n";
        for (const auto* o : app->get_options())
            if (o->get_group() == h && !o->get_positional() && (with_help || o != app->get_help_ptr()))
                text += option_line(o);
    }
    return text;
}

} // namespace

std::string HelpFormatter::wrap(const std::string& text, std::size_t indent, std::size_t width) {
    std::istringstream words(text);
    std::string out, word;
    std::size_t col = indent;
    bool first = true;
    while (words >> word) {
        if (!first && col + 1 + word.size() > width) {
            out += "\n" + std::string(indent, ' ');
            col = indent;
            first = true;
        }
        if (!first) {
            out += ' ';
            ++col;
        }
        out += word;
        col += word.size();
        first = false;
    }
    return out;
}

std::string HelpFormatter::make_help(const CLI::App* app, std::string, CLI::AppFormatMode) const {
    std::set<std::string> done;
    if (app->get_parent() != nullptr) { // one command
        std::string text = "usage:\n" + with_newline(app->get_description()) + option_sections(app, done, true);
        if (!app->get_footer().empty()) text += "\n" + with_newline(app->get_footer());
        return text + "\n" + kOptionFormsNote + kExitCodesNote;
    }
    // The whole usage: every command's lines, then every command's options.
    std::string text = "usage:\n" + with_newline(app->get_description());
    const auto subs = app->get_subcommands([](const CLI::App*) { return true; });
    for (const auto* s : subs) text += with_newline(s->get_description());
    for (const auto* s : subs)
        if (!s->get_description().empty()) text += option_sections(s, done, false); // not help, version
    if (!app->get_footer().empty()) text += "\n" + with_newline(app->get_footer());
    return text + "\n" + kOptionFormsNote + kExitCodesNote;
}

} // namespace npusim::tools
