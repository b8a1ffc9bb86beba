#include "NpyHeader.hpp"

#include "npusim/harness/NpyFile.hpp"

#include <cstring>
#include <fmt/format.h>
#include <limits>

namespace npusim::harness::detail {

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& msg) {
    throw NpyError(fmt::format("'{}': {}", source, msg));
}

// A Python literal from the header dict: string, integer, True/False/None, tuple or list.
struct Value {
    enum class Kind { Str, Int, Bool, None, Tuple, List } kind = Kind::None;
    std::string str;
    std::int64_t i = 0;
    bool b = false;
    std::vector<Value> items;
    std::string text; // the literal as written
};

class HeaderParser {
public:
    HeaderParser(std::string_view s, const std::string& source) : s_(s), source_(source) {}

    std::vector<std::pair<std::string, Value>> dict() {
        std::vector<std::pair<std::string, Value>> out;
        ws();
        expect('{');
        for (;;) {
            ws();
            if (eat('}')) break;
            Value k = value();
            if (k.kind != Value::Kind::Str) bad(fmt::format("a key must be a string, got {}", k.text));
            ws();
            expect(':');
            Value v = value();
            out.emplace_back(k.str, std::move(v));
            ws();
            if (eat(',')) continue;
            ws();
            expect('}');
            break;
        }
        ws();
        if (p_ != s_.size()) bad(fmt::format("unexpected text after the dict: '{}'", s_.substr(p_)));
        return out;
    }

private:
    [[noreturn]] void bad(const std::string& what) const { fail(source_, "malformed .npy header: " + what); }
    void ws() {
        while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\n' || s_[p_] == '\r')) ++p_;
    }
    bool eat(char c) {
        if (p_ < s_.size() && s_[p_] == c) {
            ++p_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!eat(c))
            bad(p_ < s_.size() ? fmt::format("expected '{}' at offset {}, found '{}'", c, p_, s_[p_])
                               : fmt::format("expected '{}', the header ended", c));
    }
    Value value() {
        ws();
        if (p_ >= s_.size()) bad("the header ended inside the dict");
        const std::size_t start = p_;
        Value v;
        const char c = s_[p_];
        if (c == '\'' || c == '"') {
            ++p_;
            v.kind = Value::Kind::Str;
            while (p_ < s_.size() && s_[p_] != c) {
                if (s_[p_] == '\\' && p_ + 1 < s_.size()) ++p_;
                v.str += s_[p_++];
            }
            expect(c);
        } else if (c == '(' || c == '[') {
            // Bounded, so that a header of thousands of nested brackets is an error, not a stack
            // overflow (a shape is one tuple deep; a structured dtype a few levels).
            if (depth_ == kMaxNesting)
                bad(fmt::format("more than {} nested tuples or lists at offset {}", kMaxNesting, p_));
            const char close = c == '(' ? ')' : ']';
            ++p_;
            ++depth_;
            v.kind = c == '(' ? Value::Kind::Tuple : Value::Kind::List;
            for (;;) {
                ws();
                if (eat(close)) break;
                v.items.push_back(value());
                ws();
                if (eat(',')) continue;
                expect(close);
                break;
            }
            --depth_;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            v.kind = Value::Kind::Int;
            bool neg = eat('-');
            if (p_ >= s_.size() || s_[p_] < '0' || s_[p_] > '9') bad("a number without digits");
            std::int64_t n = 0;
            while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9') {
                if (n > (std::numeric_limits<std::int64_t>::max() - 9) / 10) bad("a number too large");
                n = n * 10 + (s_[p_++] - '0');
            }
            eat('L'); // Python 2 long suffix, as numpy still tolerates
            v.i = neg ? -n : n;
        } else {
            while (p_ < s_.size() && ((s_[p_] >= 'A' && s_[p_] <= 'Z') || (s_[p_] >= 'a' && s_[p_] <= 'z'))) ++p_;
            const auto word = s_.substr(start, p_ - start);
            if (word == "True" || word == "False") {
                v.kind = Value::Kind::Bool;
                v.b = word == "True";
            } else if (word == "None") {
                v.kind = Value::Kind::None;
            } else {
                bad(fmt::format("unexpected '{}' at offset {}", word.empty() ? s_.substr(p_, 1) : word, start));
            }
        }
        v.text = std::string(s_.substr(start, p_ - start));
        return v;
    }

    static constexpr int kMaxNesting = 32;
    std::string_view s_;
    std::size_t p_ = 0;
    int depth_ = 0;
    const std::string& source_;
};

std::string_view known_numpy_name(std::string_view d) {
    // Common dtypes npusim does not take, for a readable message.
    static constexpr std::pair<std::string_view, std::string_view> names[] = {
        {"i8", "int64"}, {"u8", "uint64"},    {"u2", "uint16"},      {"f8", "float64"}, {"f2", "float16"},
        {"b1", "bool"},  {"c8", "complex64"}, {"c16", "complex128"}, {"O", "object"},   {"i4", "int32"},
        {"i2", "int16"}, {"u4", "uint32"},    {"f4", "float32"}};
    if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) d.remove_prefix(1);
    for (const auto& [k, v] : names)
        if (k == d) return v;
    return {};
}

std::string unsupported_dtype(const std::string& descr) {
    const auto name = known_numpy_name(descr);
    return fmt::format(
        "unsupported dtype '{}'{}; npusim reads |i1 (int8), |u1 (uint8), <i2 (int16), <u2 (uint16), <i4 (int32), <u4 "
        "(uint32), <f4 (float32) and bfloat16 ('<V2' or 'bfloat16')",
        descr, name.empty() ? "" : fmt::format(" ({})", name));
}

std::uint64_t read_le(std::span<const std::uint8_t> b, std::size_t at, std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(b[at + i]) << (8 * i);
    return v;
}

} // namespace

std::string unsupported_npy_dtype(const std::string& descr) { return unsupported_dtype(descr); }

std::uint64_t npy_header_end(std::span<const std::uint8_t> b, const std::string& source) {
    if (b.size() < kNpyMagicLen + 2 || std::memcmp(b.data(), kNpyMagic, kNpyMagicLen) != 0)
        fail(source, "not a .npy file (it does not start with the magic string \\x93NUMPY)");
    const int major = b[kNpyMagicLen], minor = b[kNpyMagicLen + 1];
    if (major < 1 || major > 3 || minor != 0)
        fail(source,
             fmt::format("unsupported .npy format version {}.{} (npusim reads 1.0, 2.0 and 3.0)", major, minor));
    const std::size_t len_field = major == 1 ? 2 : 4;
    const std::size_t prefix = kNpyMagicLen + 2 + len_field;
    if (b.size() < prefix) fail(source, "truncated .npy header");
    const std::uint64_t hlen = read_le(b, kNpyMagicLen + 2, len_field);
    if (hlen > kMaxNpyHeaderBytes)
        fail(source, fmt::format("the .npy header declares {} bytes, more than the limit of {} (the header of a "
                                 "plain array has a few hundred)",
                                 hlen, model::byte_size_text(kMaxNpyHeaderBytes)));
    return prefix + hlen;
}

NpyHeader parse_npy_header(std::span<const std::uint8_t> b, const std::string& source) {
    const std::uint64_t end = npy_header_end(b, source);
    const std::size_t prefix = b[kNpyMagicLen] == 1 ? kNpyMagicLen + 4 : kNpyMagicLen + 6;
    const std::uint64_t hlen = end - prefix;
    if (b.size() < end)
        fail(source, fmt::format("truncated .npy header: it declares {} bytes, the file has {} after the prefix", hlen,
                                 b.size() - prefix));
    const std::string_view text(reinterpret_cast<const char*>(b.data() + prefix), static_cast<std::size_t>(hlen));
    const auto dict = HeaderParser(text, source).dict();
    const Value* descr_v = nullptr;
    const Value* fortran_v = nullptr;
    const Value* shape_v = nullptr;
    for (const auto& [k, v] : dict) {
        if (k == "descr")
            descr_v = &v;
        else if (k == "fortran_order")
            fortran_v = &v;
        else if (k == "shape")
            shape_v = &v;
        else
            fail(source, fmt::format("malformed .npy header: unexpected key '{}'", k));
    }
    if (!descr_v || !fortran_v || !shape_v)
        fail(source,
             fmt::format("malformed .npy header: it needs the keys 'descr', 'fortran_order' and 'shape', has: {}",
                         text));
    if (descr_v->kind != Value::Kind::Str)
        fail(source,
             fmt::format("unsupported dtype {} (a structured dtype); npusim reads plain arrays", descr_v->text));
    const std::string& d = descr_v->str;
    const auto dtype = NpyFile::dtype_of_descr(d);
    if (!dtype) {
        if (!d.empty() && d[0] == '>' && !known_numpy_name(d).empty())
            fail(source,
                 fmt::format("big-endian dtype '{}' is not supported; save a little-endian array (arr.astype('<{}'))",
                             d, d.substr(1)));
        fail(source, unsupported_dtype(d));
    }
    if (fortran_v->kind != Value::Kind::Bool)
        fail(source, fmt::format("malformed .npy header: fortran_order is {}", fortran_v->text));
    if (fortran_v->b)
        fail(source,
             "Fortran-order arrays are not supported; save a C-order array (np.save(f, np.ascontiguousarray(a)))");
    if (shape_v->kind != Value::Kind::Tuple)
        fail(source, fmt::format("malformed .npy header: shape is {}", shape_v->text));
    std::vector<std::int64_t> shape;
    std::uint64_t elements = 1;
    for (const auto& dim : shape_v->items) {
        if (dim.kind != Value::Kind::Int || dim.i < 0)
            fail(source, fmt::format("malformed .npy header: shape {}", shape_v->text));
        shape.push_back(dim.i);
        if (dim.i != 0 && elements > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(dim.i))
            fail(source, fmt::format("shape {} is too large", shape_v->text));
        elements *= static_cast<std::uint64_t>(dim.i);
    }
    if (elements > std::numeric_limits<std::uint64_t>::max() / dtype_bytes(*dtype))
        fail(source, fmt::format("shape {} is too large", shape_v->text));
    return {*dtype, std::move(shape), end, elements * dtype_bytes(*dtype)};
}

void check_npy_data_size(const NpyHeader& h, std::uint64_t have, bool more, const std::string& source) {
    if (have == h.data_bytes && !more) return;
    const bool truncated = have < h.data_bytes;
    fail(source, fmt::format("{} data: {}{} bytes after the header, dtype {} shape {} needs {}",
                             truncated ? "truncated" : "extra", more ? "more than " : "", have,
                             numpy_dtype_name(h.dtype), shape_str(h.shape), h.data_bytes));
}

} // namespace npusim::harness::detail
