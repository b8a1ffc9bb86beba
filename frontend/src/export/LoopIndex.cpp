#include "export/LoopIndex.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <vector>

namespace npusim::iron::detail::mlir {

namespace {

struct Pair {
    int a = -1, b = -1;
    std::int64_t va = 0, vb = 0;
};

// Index constants at the same place of the two traces whose values differ.
void collect(const Region& a, const Region& b, const IndexConstants& k, std::vector<Pair>& out) {
    const std::size_t n = std::min(a.ops.size(), b.ops.size());
    for (std::size_t i = 0; i < n; ++i) {
        const Op& x = a.ops[i];
        const Op& y = b.ops[i];
        const auto kx = k.find(x.result), ky = k.find(y.result);
        if (x.result >= 0 && y.result >= 0 && kx != k.end() && ky != k.end() && kx->second != ky->second)
            out.push_back({x.result, y.result, kx->second, ky->second});
        for (std::size_t r = 0; r < std::min(x.regions.size(), y.regions.size()); ++r)
            collect(x.regions[r], y.regions[r], k, out);
    }
}

void replace_refs(Region& r, int from, int to) {
    for (auto& op : r.ops) {
        for (auto& p : op.text)
            if (p.value == from) p.value = to;
        for (auto& p : op.tail)
            if (p.value == from) p.value = to;
        for (auto& o : op.gen.operands)
            if (o == from) o = to;
        for (auto& nested : op.regions) replace_refs(nested, from, to);
    }
}

Op index_binop(const char* name, int result, int lhs, int rhs) {
    Op op;
    op.result = result;
    op.text = {lit(std::string(name) + " "), ref(lhs), lit(", "), ref(rhs), lit(" : index")};
    op.gen = generic(name, {lhs, rhs}, {}, "index");
    return op;
}

Op index_cast_op(int result, int from, const std::string& type) {
    Op op;
    op.result = result;
    op.text = {lit("arith.index_cast "), ref(from), lit(" : index to " + type)};
    op.gen = generic("arith.index_cast", {from}, {}, type);
    return op;
}

// Replaces the constant defining `id` (somewhere under `r`) by coef * iv + off; a constant of
// another integer type (`cast_type` not empty) by that index value cast to its type.
bool rewrite(Region& r, Region& root, int id, int iv, std::int64_t coef, std::int64_t off, IndexConstants& k,
             ValueIds& ids, const std::string& cast_type) {
    for (std::size_t i = 0; i < r.ops.size(); ++i) {
        if (r.ops[i].result != id) {
            for (auto& nested : r.ops[i].regions)
                if (rewrite(nested, root, id, iv, coef, off, k, ids, cast_type)) return true;
            continue;
        }
        k.erase(id);
        r.ops.erase(r.ops.begin() + static_cast<std::ptrdiff_t>(i));
        if (coef == 1 && off == 0 && cast_type.empty()) {
            replace_refs(root, id, iv); // buf[i]: the index itself
            return true;
        }
        std::vector<Op> ops;
        // The index value: `id` itself, or (cast) a new value the cast then reads.
        const int index_id = cast_type.empty() ? id : ids.next();
        int base = iv;
        if (coef != 1) { // j * n: arith.muli %j, %c_n
            const int cc = ids.next();
            ops.push_back(constant_op(cc, coef, "index"));
            base = off == 0 ? index_id : ids.next();
            ops.push_back(index_binop("arith.muli", base, iv, cc));
        }
        if (off != 0) { // offset + i: the offset stays a constant an enclosing loop may bind
            const int co = ids.next();
            ops.push_back(constant_op(co, off, "index"));
            k[co] = off;
            ops.push_back(index_binop("arith.addi", index_id, co, base));
        }
        if (!cast_type.empty()) ops.push_back(index_cast_op(id, coef == 1 && off == 0 ? iv : index_id, cast_type));
        r.ops.insert(r.ops.begin() + static_cast<std::ptrdiff_t>(i), ops.begin(), ops.end());
        return true;
    }
    return false;
}

void sign(const Region& r, std::map<int, int>& num, std::string& s, const IndexConstants* k) {
    auto v = [&](int id) {
        auto it = num.find(id);
        return it != num.end() ? fmt::format("v{}", it->second) : fmt::format("o{}", id);
    };
    for (int a : r.args) num.emplace(a, static_cast<int>(num.size()));
    s += "(";
    for (int a : r.args) s += v(a) + " ";
    s += ")\n";
    for (const auto& op : r.ops) {
        if (op.result >= 0) {
            num.emplace(op.result, static_cast<int>(num.size()));
            s += v(op.result) + "=";
            if (k && k->count(op.result)) {
                s += "index constant\n";
                continue;
            }
        }
        // scf.for names its index (its region's argument) in its own text.
        for (const auto& nested : op.regions)
            for (int a : nested.args) num.emplace(a, static_cast<int>(num.size()));
        for (const auto& p : op.text) s += p.value >= 0 ? v(p.value) : p.text;
        for (const auto& nested : op.regions) {
            s += "{";
            sign(nested, num, s, k);
            s += "}";
        }
        for (const auto& p : op.tail) s += p.value >= 0 ? v(p.value) : p.text;
        s += "\n";
    }
}

} // namespace

Op constant_op(int id, std::int64_t v, const std::string& type) {
    Op op;
    op.result = id;
    op.hint = type == "index" ? fmt::format("c{}", v) : fmt::format("c{}_{}", v, type);
    op.text = {lit(fmt::format("arith.constant {} : {}", v, type))};
    op.gen = generic("arith.constant", {}, {fmt::format("value = {} : {}", v, type)}, type);
    return op;
}

void bind_loop_index(LoopTrace a, LoopTrace b, const LoopTrace* check, IndexConstants& consts, ValueIds& ids,
                     const std::function<void(const std::string&)>& refuse, CastTypes* casts) {
    std::vector<Pair> pairs, third;
    collect(*a.region, *b.region, consts, pairs);
    std::map<int, std::int64_t> at_check; // index constants of `a` whose value differs in `check`
    if (check) {
        collect(*a.region, *check->region, consts, third);
        for (const Pair& p : third) at_check[p.a] = p.vb;
    }
    // A kernel's integer argument (a cast constant) or an element index, for the messages.
    auto what = [&](int id) {
        return casts && casts->count(id) ? std::pair<const char*, const char*>{"a kernel's integer argument", "a value"}
                                         : std::pair<const char*, const char*>{"an element index", "an index"};
    };
    auto off_line = [&](int id, std::int64_t va, std::int64_t vb, std::int64_t vc) {
        const auto [noun, kind] = what(id);
        refuse(fmt::format("{} is {}, {} and {} where the loop index is {}, {} and {} (only {} of the form coef * "
                           "i + offset has ops in the export)",
                           noun, va, vb, vc, a.value, b.value, check ? check->value : 0, kind));
    };
    for (const Pair& p : third) // differs in the third trace only: not a line through the first two
        if (std::none_of(pairs.begin(), pairs.end(), [&](const Pair& q) { return q.a == p.a; }))
            off_line(p.a, p.va, p.va, p.vb);
    const std::int64_t dt = b.value - a.value;
    for (const Pair& p : pairs) {
        const std::int64_t d = p.vb - p.va;
        if (dt == 0 || d % dt != 0) {
            const auto [noun, kind] = what(p.a);
            refuse(fmt::format("{} goes from {} to {} while the loop index goes from {} to {} (only {} of the form "
                               "coef * i + offset has ops in the export)",
                               noun, p.va, p.vb, a.value, b.value, kind));
        }
        const std::int64_t coef = d / dt;
        const std::int64_t off = p.va - coef * a.value;
        if (check) {
            const auto c = at_check.find(p.a);
            const std::int64_t vc = c != at_check.end() ? c->second : p.va;
            if (vc != coef * check->value + off) off_line(p.a, p.va, p.vb, vc);
        }
        std::string cast_type;
        if (casts) {
            if (const auto t = casts->find(p.a); t != casts->end()) cast_type = t->second;
            casts->erase(p.a);
            casts->erase(p.b);
        }
        rewrite(*a.region, *a.region, p.a, a.iv, coef, off, consts, ids, cast_type);
        rewrite(*b.region, *b.region, p.b, b.iv, coef, off, consts, ids, cast_type);
    }
}

std::string region_signature(const Region& r, const IndexConstants* index_constants) {
    std::map<int, int> num;
    std::string s;
    sign(r, num, s, index_constants);
    return s;
}

} // namespace npusim::iron::detail::mlir
