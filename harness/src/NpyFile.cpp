#include "npusim/harness/NpyFile.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <limits>

namespace npusim::harness {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;
constexpr std::size_t kAlign = 64; // numpy ARRAY_ALIGN
constexpr std::size_t kGrowthAxisMaxDigits = 21; // numpy GROWTH_AXIS_MAX_DIGITS

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
            const char close = c == '(' ? ')' : ']';
            ++p_;
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

    std::string_view s_;
    std::size_t p_ = 0;
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
        "unsupported dtype '{}'{}; npusim reads |i1 (int8), |u1 (uint8), <i2 (int16), <i4 (int32), <u4 (uint32), "
        "<f4 (float32) and bfloat16 ('<V2' or 'bfloat16')",
        descr, name.empty() ? "" : fmt::format(" ({})", name));
}

std::uint64_t read_le(std::span<const std::uint8_t> b, std::size_t at, std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(b[at + i]) << (8 * i);
    return v;
}

} // namespace

std::string NpyFile::descr(DType t) {
    switch (t) {
    case DType::i8: return "|i1";
    case DType::u8: return "|u1";
    case DType::i16: return "<i2";
    case DType::i32: return "<i4";
    case DType::u32: return "<u4";
    case DType::f32: return "<f4";
    case DType::bf16: return "<V2";
    }
    return "?";
}

std::optional<DType> NpyFile::dtype_of_descr(std::string_view d) {
    if (d == "|i1" || d == "<i1" || d == "i1") return DType::i8;
    if (d == "|u1" || d == "<u1" || d == "u1") return DType::u8;
    if (d == "<i2") return DType::i16;
    if (d == "<i4") return DType::i32;
    if (d == "<u4") return DType::u32;
    if (d == "<f4") return DType::f32;
    if (d == "<V2" || d == "|V2" || d == "V2" || d == "bfloat16") return DType::bf16;
    return std::nullopt;
}

std::string NpyFile::header(DType dtype, const std::vector<std::int64_t>& shape) {
    // numpy.lib.format._write_array_header: sorted keys, repr() values, a trailing ", }".
    std::string dict =
        fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr(dtype), shape_str(shape));
    if (!shape.empty()) dict += std::string(kGrowthAxisMaxDigits - std::to_string(shape[0]).size(), ' ');
    // _wrap_header: pad so that magic + version + length field + header (with '\n') is aligned.
    for (int version = 1; version <= 2; ++version) {
        const std::size_t len_field = version == 1 ? 2 : 4;
        const std::size_t hlen = dict.size() + 1;
        const std::size_t pad = kAlign - ((kMagicLen + 2 + len_field + hlen) % kAlign);
        const std::size_t total = hlen + pad;
        if (version == 1 && total > 0xFFFF) continue;
        std::string h(kMagic, kMagicLen);
        h += static_cast<char>(version);
        h += '\0';
        for (std::size_t i = 0; i < len_field; ++i) h += static_cast<char>((total >> (8 * i)) & 0xFF);
        h += dict;
        h += std::string(pad, ' ');
        h += '\n';
        return h;
    }
    throw NpyError(fmt::format("npy header of {} bytes is too large", dict.size()));
}

std::vector<std::uint8_t> NpyFile::serialize(const Tensor& t) {
    const std::string h = header(t.dtype, t.shape);
    std::vector<std::uint8_t> out(h.begin(), h.end());
    out.insert(out.end(), t.data.begin(), t.data.end());
    return out;
}

Tensor NpyFile::parse(std::span<const std::uint8_t> b, const std::string& source) {
    if (b.size() < kMagicLen + 2 || std::memcmp(b.data(), kMagic, kMagicLen) != 0)
        fail(source, "not a .npy file (it does not start with the magic string \\x93NUMPY)");
    const int major = b[kMagicLen], minor = b[kMagicLen + 1];
    if (major < 1 || major > 3 || minor != 0)
        fail(source,
             fmt::format("unsupported .npy format version {}.{} (npusim reads 1.0, 2.0 and 3.0)", major, minor));
    const std::size_t len_field = major == 1 ? 2 : 4;
    const std::size_t prefix = kMagicLen + 2 + len_field;
    if (b.size() < prefix) fail(source, "truncated .npy header");
    const std::uint64_t hlen = read_le(b, kMagicLen + 2, len_field);
    if (b.size() < prefix + hlen)
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
    const auto dtype = dtype_of_descr(d);
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
    const std::uint64_t want = elements * dtype_bytes(*dtype);
    const std::uint64_t have = b.size() - prefix - hlen;
    if (have != want)
        fail(source,
             fmt::format("{} data: {} bytes after the header, dtype {} shape {} needs {}",
                         have < want ? "truncated" : "extra", have, numpy_dtype_name(*dtype), shape_str(shape), want));
    const auto* data = b.data() + prefix + hlen;
    return Tensor(*dtype, std::move(shape), std::vector<std::uint8_t>(data, data + want));
}

Tensor NpyFile::read(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw NpyError(fmt::format("cannot read '{}': it is a directory", path));
    std::ifstream f(path, std::ios::binary);
    if (!f) throw NpyError(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
    std::vector<std::uint8_t> bytes;
    try {
        bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    } catch (const std::exception& e) { // the stream buffer reports a read error by throwing
        throw NpyError(fmt::format("cannot read '{}': {}", path, e.what()));
    }
    if (f.bad()) throw NpyError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
    return parse(bytes, path);
}

void NpyFile::write(const std::string& path, const Tensor& t) { write(path, t.dtype, t.shape, t.data); }

void NpyFile::write(const std::string& path, DType dtype, const std::vector<std::int64_t>& shape,
                    std::span<const std::uint8_t> data) {
    const auto want = static_cast<std::uint64_t>(shape_elements(shape)) * dtype_bytes(dtype);
    if (data.size() != want)
        throw NpyError(fmt::format("cannot write '{}': {} bytes given for {} {}, which takes {}", path, data.size(),
                                   numpy_dtype_name(dtype), shape_str(shape), want));
    // The header, then the data straight from where it is: no serialized copy of a large tensor.
    const std::string h = header(dtype, shape);
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) throw NpyError(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
    f.write(h.data(), static_cast<std::streamsize>(h.size()));
    f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
    f.close();
    if (!f) throw NpyError(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
}

bool is_plain_file_name(const std::string& name) {
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
           name.find('\0') == std::string::npos;
}

} // namespace npusim::harness
