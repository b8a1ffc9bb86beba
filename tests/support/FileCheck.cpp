#include "support/FileCheck.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>

namespace npusim::test {

namespace {

std::string squeeze(const std::string& s) { // FileCheck canonicalizes runs of horizontal whitespace
    std::string o;
    for (char c : s)
        if (!(c == ' ' && !o.empty() && o.back() == ' ')) o += c;
    return o;
}

std::string escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) o += '\\';
        o += c;
    }
    return o;
}

} // namespace

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> v;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
}

std::string file_check(const std::string& output, const std::vector<std::string>& checks) {
    const auto lines = lines_of(output);
    std::map<std::string, std::string> vars;
    std::size_t next = 0; // first line a CHECK may match
    for (const auto& check : checks) {
        const auto colon = check.find(": ");
        const std::string kind = check.substr(0, colon), pat = squeeze(check.substr(colon + 2));
        std::string re;
        std::vector<std::string> captures;
        for (std::size_t i = 0; i < pat.size();) {
            if (pat.compare(i, 2, "{{") == 0) {
                const auto e = pat.find("}}", i);
                re += "(?:" + pat.substr(i + 2, e - i - 2) + ")";
                i = e + 2;
            } else if (pat.compare(i, 2, "[[") == 0) {
                const auto e = pat.find("]]", i);
                const std::string body = pat.substr(i + 2, e - i - 2);
                const auto c = body.find(':');
                if (c == std::string::npos) {
                    re += escape(vars.at(body));
                } else {
                    captures.push_back(body.substr(0, c));
                    re += "(" + body.substr(c + 1) + ")";
                }
                i = e + 2;
            } else {
                re += escape(std::string(1, pat[i]));
                ++i;
            }
        }
        const std::regex rx(re);
        const std::size_t from = kind == "CHECK-DAG" ? 0 : next;
        const std::size_t to = kind == "CHECK-NEXT" ? std::min(next + 1, lines.size()) : lines.size();
        bool found = false;
        for (std::size_t l = from; l < to && !found; ++l) {
            std::smatch m;
            const std::string line = squeeze(lines[l]);
            if (!std::regex_search(line, m, rx)) continue;
            for (std::size_t k = 0; k < captures.size(); ++k) vars[captures[k]] = m[k + 1].str();
            if (kind != "CHECK-DAG") next = l + 1;
            found = true;
        }
        if (!found) return check;
    }
    return "";
}

} // namespace npusim::test
