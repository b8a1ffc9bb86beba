#include "export/MlirIr.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace npusim::iron::detail::mlir {

Piece lit(std::string s) { return Piece{std::move(s), -1}; }
Piece ref(int id) { return Piece{{}, id}; }

Generic generic(std::string name, std::vector<int> operands, std::vector<std::string> attrs, std::string result_type,
                std::string terminator) {
    return Generic{std::move(name), std::move(operands), std::move(attrs), std::move(result_type),
                   std::move(terminator)};
}

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
        for (std::size_t i = 0; i < r.args.size(); ++i) {
            names_[r.args[i]] = "%arg" + std::to_string(c.arg++);
            if (i < r.arg_types.size()) types_[r.args[i]] = r.arg_types[i];
        }
        for (const auto& op : r.ops)
            if (op.result >= 0) {
                names_[op.result] = op.hint.empty() ? "%" + std::to_string(c.anon++) : unique(op.hint, c);
                types_[op.result] = op.gen.result_type;
            }
        for (const auto& op : r.ops)
            for (const auto& nested : op.regions) name_region(nested, c);
        used_.pop_back();
    }
    const std::string& name(int id) const { return names_.at(id); }
    /// The type of value `id`; a value whose definition gave none is a bug in the exporter.
    const std::string& type(int id) const {
        auto it = types_.find(id);
        if (it == types_.end() || it->second.empty())
            throw std::logic_error("MLIR export: value " + name(id) + " has no type for the generic form");
        return it->second;
    }

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
    std::map<int, std::string> types_;
    std::vector<std::set<std::string>> used_;
};

void print_text(const Text& t, const Namer& names, std::string& out) {
    for (const auto& p : t) out += p.value >= 0 ? names.name(p.value) : p.text;
}

void print_label(const Op& op, int indent, std::string& out) {
    out.append(static_cast<std::size_t>(std::max(indent - 2, 0)), ' ');
    out += op.label + ":\n";
}

void print_op(const Op& op, const Namer& names, int indent, std::string& out) {
    if (!op.label.empty()) return print_label(op, indent, out);
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

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
}

// OperationPrinter::printGenericOp (mlir/lib/IR/AsmPrinter.cpp): "name"(operands) ({regions})
// {attributes} : (operand types) -> result types; block arguments on a ^bb0 label.
void print_generic_op(const Op& op, const Namer& names, int indent, std::string& out) {
    if (!op.label.empty()) return print_label(op, indent, out);
    const Generic& g = op.gen;
    if (g.name.empty()) throw std::logic_error("MLIR export: an op has no generic form: " + op.text.front().text);
    out.append(static_cast<std::size_t>(indent), ' ');
    if (op.result >= 0) out += names.name(op.result) + " = ";
    std::vector<std::string> operands, types;
    for (int v : g.operands) {
        operands.push_back(names.name(v));
        types.push_back(names.type(v));
    }
    out += "\"" + g.name + "\"(" + joined(operands) + ")";
    if (!g.successors.empty()) out += "[" + joined(g.successors) + "]";
    if (g.empty_region) out += " ({\n" + std::string(static_cast<std::size_t>(indent), ' ') + "})";
    if (!op.regions.empty()) {
        out += " (";
        for (std::size_t i = 0; i < op.regions.size(); ++i) {
            const Region& r = op.regions[i];
            out += i ? ", {\n" : "{\n";
            if (!r.args.empty()) {
                std::vector<std::string> args;
                for (std::size_t a = 0; a < r.args.size(); ++a)
                    args.push_back(names.name(r.args[a]) + ": " + names.type(r.args[a]));
                out.append(static_cast<std::size_t>(indent), ' ');
                out += "^bb0(" + joined(args) + "):\n";
            }
            for (const auto& inner : r.ops) print_generic_op(inner, names, indent + 2, out);
            if (!g.terminator.empty()) {
                out.append(static_cast<std::size_t>(indent + 2), ' ');
                out += "\"" + g.terminator + "\"() : () -> ()\n";
            }
            out.append(static_cast<std::size_t>(indent), ' ');
            out += "}";
        }
        out += ")";
    }
    if (!g.attrs.empty()) {
        std::vector<std::string> attrs = g.attrs;
        std::sort(attrs.begin(), attrs.end(), [](const std::string& a, const std::string& b) {
            return a.substr(0, a.find(" = ")) < b.substr(0, b.find(" = "));
        });
        out += " {" + joined(attrs) + "}";
    }
    out += " : (" + joined(types) + ") -> " + (g.result_type.empty() ? "()" : g.result_type) + "\n";
}

} // namespace

std::string print_module(const Op& top, bool generic) {
    Namer names;
    for (const auto& r : top.regions) names.name_region(r, Counters{});
    std::string out;
    if (generic)
        print_generic_op(top, names, 0, out);
    else
        print_op(top, names, 0, out);
    return out;
}

} // namespace npusim::iron::detail::mlir
