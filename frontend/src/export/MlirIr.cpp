#include "export/MlirIr.hpp"

#include <map>
#include <set>

namespace npusim::iron::detail::mlir {

Piece lit(std::string s) { return Piece{std::move(s), -1}; }
Piece ref(int id) { return Piece{{}, id}; }

namespace {

struct Counters {
    int anon = 0;
    int arg = 0;
    int conflict = 0;
};

class Namer {
public:
    void name_region(const Region& r, Counters c) {
        used_.emplace_back();
        for (int a : r.args) names_[a] = "%arg" + std::to_string(c.arg++);
        for (const auto& op : r.ops)
            if (op.result >= 0)
                names_[op.result] = op.hint.empty() ? "%" + std::to_string(c.anon++) : unique(op.hint, c);
        for (const auto& op : r.ops)
            for (const auto& nested : op.regions) name_region(nested, c);
        used_.pop_back();
    }
    const std::string& name(int id) const { return names_.at(id); }

private:
    bool used(const std::string& n) const {
        for (const auto& s : used_)
            if (s.count(n)) return true;
        return false;
    }
    std::string unique(const std::string& hint, Counters& c) {
        std::string n = hint;
        while (used(n)) n = hint + "_" + std::to_string(c.conflict++);
        used_.back().insert(n);
        return "%" + n;
    }
    std::map<int, std::string> names_;
    std::vector<std::set<std::string>> used_;
};

void print_text(const Text& t, const Namer& names, std::string& out) {
    for (const auto& p : t) out += p.value >= 0 ? names.name(p.value) : p.text;
}

void print_op(const Op& op, const Namer& names, int indent, std::string& out) {
    out.append(static_cast<std::size_t>(indent), ' ');
    if (op.result >= 0) out += names.name(op.result) + " = ";
    print_text(op.text, names, out);
    for (const auto& r : op.regions) {
        out += " {\n";
        for (const auto& inner : r.ops) print_op(inner, names, indent + 2, out);
        out.append(static_cast<std::size_t>(indent), ' ');
        out += "}";
    }
    print_text(op.tail, names, out);
    out += "\n";
}

} // namespace

std::string print_module(const Op& top) {
    Namer names;
    for (const auto& r : top.regions) names.name_region(r, Counters{});
    std::string out;
    print_op(top, names, 0, out);
    return out;
}

} // namespace npusim::iron::detail::mlir
