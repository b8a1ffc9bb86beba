#include "ErrorCatalog.hpp"

#include "Cli.hpp"
#include "CliSupport.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace npusim::errcat {

int exit_code_of_kind(const std::string& kind) {
    if (kind == kMismatch) return 1;
    if (kind == kDeadlock) return 3;
    if (kind == kLimit) return 4;
    if (kind == kInternal) return 5;
    if (kind == kNoDevice || kind == kNoXrt || kind == kXrt) return 6;
    return 2;
}

void Catalog::component(std::string name, std::string intro) { components_.push_back({name, std::move(intro)}); }

Entry& Catalog::add(Entry e) {
    if (components_.empty()) throw std::logic_error("error catalog: an entry before the first component");
    e.component = components_.back().name;
    e.site = site_;
    for (const auto& x : entries_)
        if (x.id == e.id) throw std::logic_error("error catalog: id '" + e.id + "' is used twice");
    entries_.push_back(std::move(e));
    return entries_.back();
}

namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    if (from.empty()) return s;
    for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
        s.replace(p, from.size(), to);
    return s;
}

Outcome from_exception(const std::exception& e, const Context& ctx) {
    const auto c = tools::classify_error(e);
    return {true, c.code, c.kind, replace_all(e.what(), ctx.tmp, "$TMP")};
}

// "npusim: <kind>: <message>" from what the CLI wrote (after the usage text of a usage error).
Outcome parse_cli(int code, const std::string& err, const Context& ctx) {
    Outcome o;
    o.exit_code = code;
    o.failed = code != 0;
    const std::string text = replace_all(err, ctx.tmp, "$TMP");
    for (std::size_t line = 0; line < text.size();) {
        if (text.compare(line, 8, "npusim: ") == 0) {
            const auto colon = text.find(": ", line + 8);
            if (colon != std::string::npos) {
                o.kind = text.substr(line + 8, colon - line - 8);
                o.message = text.substr(colon + 2);
                if (!o.message.empty() && o.message.back() == '\n') o.message.pop_back();
                return o;
            }
        }
        const auto nl = text.find('\n', line);
        if (nl == std::string::npos) break;
        line = nl + 1;
    }
    o.message = text;
    return o;
}

std::vector<std::string> with_tmp(std::vector<std::string> args, const Context& ctx) {
    for (auto& a : args) a = replace_all(a, "$TMP", ctx.tmp);
    return args;
}

std::string command_text(const std::vector<std::string>& args) {
    std::string s = "npusim";
    for (const auto& a : args) {
        const bool quote = a.empty() || a.find_first_of(" '\"*?;&|<>()") != std::string::npos;
        s += " " + (quote ? "'" + a + "'" : a);
    }
    return s;
}

} // namespace

Entry& Catalog::api(std::string id, std::string kind, std::string message, std::string code,
                    std::function<void(const Context&)> fn) {
    Entry e;
    e.id = std::move(id);
    e.kind = std::move(kind);
    e.message = std::move(message);
    // The preprocessor turns the line breaks of the code into spaces: none after '(' or before ')'.
    e.trigger = replace_all(replace_all(std::move(code), "( ", "("), " )", ")");
    e.run = [fn = std::move(fn)](const Context& ctx) {
        try {
            fn(ctx);
        } catch (const std::exception& ex) {
            return from_exception(ex, ctx);
        } catch (...) {
            return Outcome{true, 2, "?", "(an exception that is not a std::exception)"};
        }
        return Outcome{};
    };
    return add(std::move(e));
}

Entry& Catalog::cli(std::string id, std::string kind, std::string message, std::vector<std::string> args,
                    std::string setup_text, std::function<void(const Context&)> setup) {
    Entry e;
    e.id = std::move(id);
    e.kind = std::move(kind);
    e.message = std::move(message);
    e.trigger = (setup_text.empty() ? "" : setup_text + "; ") + command_text(args);
    e.run = [args = std::move(args), setup = std::move(setup)](const Context& ctx) {
        if (setup) setup(ctx);
        std::ostringstream out, err;
        const int code = tools::run_cli(with_tmp(args, ctx), out, err);
        return parse_cli(code, err.str(), ctx);
    };
    return add(std::move(e));
}

Entry& Catalog::cli_forked(std::string id, std::string kind, std::string message, std::vector<std::string> args) {
    Entry e;
    e.id = std::move(id);
    e.kind = std::move(kind);
    e.message = std::move(message);
    e.trigger = command_text(args);
    e.run = [args = std::move(args)](const Context& ctx) {
        const auto [code, text] = tools::run_cli_in_child(with_tmp(args, ctx));
        return parse_cli(code, text, ctx);
    };
    return add(std::move(e));
}

void Catalog::internal(std::string id, std::string message, std::string reason) {
    if (components_.empty()) throw std::logic_error("error catalog: an entry before the first component");
    internals_.push_back({std::move(id), components_.back().name, site_, std::move(message), std::move(reason)});
}

const Catalog& catalog() {
    static const Catalog c = [] {
        Catalog k;
        add_design_api(k);
        add_design_api_tiling(k);
        add_resolve(k);
        add_resolve_lowering(k);
        add_shared_pool(k);
        add_lowlevel(k);
        add_raw_sequence(k);
        add_switchbox(k);
        add_model(k);
        add_simulation(k);
        add_harness(k);
        add_cli(k);
        add_export(k);
        add_scratchpad(k);
        add_padding(k);
        add_hardware(k);
        add_recorded_body(k);
        add_calibrate(k);
        add_block_float(k);
        return k;
    }();
    return c;
}

void write_file(const Context& ctx, const std::string& name, const std::string& text) {
    std::ofstream f(std::filesystem::path(ctx.tmp) / name, std::ios::binary);
    f << text;
    if (!f) throw std::runtime_error("error catalog: cannot write " + name);
}

Outcome run_entry(const Entry& e) {
    static int serial = 0;
    const auto dir = std::filesystem::temp_directory_path() /
                     ("npusim_errcat_" + std::to_string(::getpid()) + "_" + std::to_string(++serial));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    Context ctx{dir.string()};
    Outcome o;
    try {
        o = e.run(ctx);
    } catch (...) {
        std::filesystem::remove_all(dir);
        throw;
    }
    std::filesystem::remove_all(dir);
    return o;
}

namespace {
bool match_from(const std::string& p, std::size_t i, const std::string& t, std::size_t j) {
    while (i < p.size()) {
        if (p.compare(i, 5, "<...>") == 0) {
            i += 5;
            if (i == p.size()) return true;
            for (std::size_t k = j; k <= t.size(); ++k)
                if (match_from(p, i, t, k)) return true;
            return false;
        }
        if (p.compare(i, 3, "<N>") == 0) {
            i += 3;
            std::size_t k = j;
            while (k < t.size() && ((t[k] >= '0' && t[k] <= '9') || ((t[k] == ',' || t[k] == '.') && k > j))) ++k;
            if (k == j) return false;
            // A number may end in ',' or '.' that belong to the text after it.
            for (std::size_t end = k; end > j; --end)
                if (match_from(p, i, t, end)) return true;
            return false;
        }
        if (j >= t.size() || p[i] != t[j]) return false;
        ++i;
        ++j;
    }
    return j == t.size();
}

// A Markdown code span holding `s` on one line (newlines shown as ⏎, table pipes escaped).
std::string code_span(std::string s) {
    s = replace_all(s, "\n", " ⏎ ");
    s = replace_all(s, "|", "\\|");
    std::size_t longest = 0, run = 0;
    for (char ch : s) {
        run = ch == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    const bool pad = !s.empty() && (s.front() == '`' || s.back() == '`');
    return fence + (pad ? " " : "") + s + (pad ? " " : "") + fence;
}
} // namespace

bool matches(const std::string& pattern, const std::string& text) { return match_from(pattern, 0, text, 0); }

std::string markdown(const Catalog& c) {
    std::ostringstream md;
    md << "<!-- Generated by tools/error-catalog.sh from tests/docs/catalog/*.cpp; do not edit by hand. -->\n\n";
    md << "## The catalog\n\n";
    md << c.entries().size() << " errors, each triggered and checked by `tests/docs/ErrorCatalog_test.cpp`";
    md << "; " << c.internals().size() << " internal checks listed after them.\n\n";
    for (const auto& comp : c.components()) {
        bool any = false;
        for (const auto& e : c.entries()) any |= e.component == comp.name;
        if (!any) continue;
        md << "### " << comp.name << "\n\n";
        if (!comp.intro.empty()) md << comp.intro << "\n\n";
        md << "| id | exit | message | trigger | reported in |\n|---|---|---|---|---|\n";
        for (const auto& e : c.entries())
            if (e.component == comp.name)
                md << "| `" << e.id << "` | " << exit_code_of_kind(e.kind) << " " << e.kind << " | "
                   << code_span(e.message) << " | " << code_span(e.trigger) << " | " << e.site << " |\n";
        md << "\n";
    }
    md << "## Internal checks\n\n";
    md << "These guard invariants of npusim's own code. No design, command line or file reaches them (the reason "
          "is given for each); if one is ever reported, it is a bug in npusim.\n\n";
    md << "| id | message | why no input reaches it | in |\n|---|---|---|---|\n";
    for (const auto& i : c.internals())
        md << "| `" << i.id << "` | " << code_span(i.message) << " | " << replace_all(i.reason, "|", "\\|") << " | "
           << i.site << " |\n";
    return md.str();
}

} // namespace npusim::errcat
