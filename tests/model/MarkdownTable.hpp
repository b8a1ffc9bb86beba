#pragma once
// Reads a table out of a markdown file in docs/, so tests can check that a doc lists exactly what
// a code table holds.
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace npusim::test {

inline std::string read_doc(const std::string& name) {
    const std::string path = std::string(NPUSIM_DOCS_DIR) + "/" + name;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// The cells of a markdown table row "| a | b |" -> {"a", "b"} (trimmed).
inline std::vector<std::string> markdown_cells(const std::string& line) {
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '|') {
            const auto b = cell.find_first_not_of(' ');
            const auto e = cell.find_last_not_of(' ');
            cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
            cell.clear();
        } else {
            cell += line[i];
        }
    }
    return cells;
}

/// The body rows of the table whose header line is exactly `header` (empty when there is none).
inline std::vector<std::vector<std::string>> markdown_table(const std::string& text, const std::string& header) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        if (!inside) {
            inside = line == header;
            if (inside) std::getline(in, line); // the |---| separator
            continue;
        }
        if (line.empty() || line[0] != '|') break;
        rows.push_back(markdown_cells(line));
    }
    return rows;
}

} // namespace npusim::test
