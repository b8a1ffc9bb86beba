#include "npusim/harness/NpyFile.hpp"

#include "NpyHeader.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <algorithm>

namespace npusim::harness {

namespace {

constexpr std::size_t kAlign = 64; // numpy ARRAY_ALIGN
constexpr std::size_t kGrowthAxisMaxDigits = 21; // numpy GROWTH_AXIS_MAX_DIGITS

} // namespace

std::string NpyFile::descr(DType t) {
    switch (t) {
    case DType::i8: return "|i1";
    case DType::u8: return "|u1";
    case DType::i16: return "<i2";
    case DType::u16: return "<u2";
    case DType::i32: return "<i4";
    case DType::u32: return "<u4";
    case DType::f32: return "<f4";
    case DType::bf16: return "<V2";
    case DType::bfp16ebs8: return "|V9"; // a 9-byte block, as raw bytes (numpy has no bfp16 type)
    }
    return "?";
}

std::optional<DType> NpyFile::dtype_of_descr(std::string_view d) {
    if (d == "|i1" || d == "<i1" || d == "i1") return DType::i8;
    if (d == "|u1" || d == "<u1" || d == "u1") return DType::u8;
    if (d == "<i2") return DType::i16;
    if (d == "<u2") return DType::u16;
    if (d == "<i4") return DType::i32;
    if (d == "<u4") return DType::u32;
    if (d == "<f4") return DType::f32;
    if (d == "<V2" || d == "|V2" || d == "V2" || d == "bfloat16") return DType::bf16;
    if (d == "|V9" || d == "<V9" || d == "V9") return DType::bfp16ebs8;
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
        const std::size_t pad = kAlign - ((detail::kNpyMagicLen + 2 + len_field + hlen) % kAlign);
        const std::size_t total = hlen + pad;
        if (version == 1 && total > 0xFFFF) continue;
        std::string h(detail::kNpyMagic, detail::kNpyMagicLen);
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
    auto h = detail::parse_npy_header(b, source);
    detail::check_npy_data_size(h, b.size() - h.data_offset, false, source);
    const auto* data = b.data() + h.data_offset;
    return Tensor(h.dtype, std::move(h.shape), std::vector<std::uint8_t>(data, data + h.data_bytes));
}

Tensor NpyFile::read(const std::string& path, const HeaderCheck& check) {
    using model::BoundedFileError;
    try {
        model::BoundedFile f(path);
        // The header first (its length is in the first bytes), then what it says the data needs:
        // compared with a regular file's size before the data is read; read up to that and one
        // byte more from anything else (a pipe, a device), so that a file never costs more
        // memory than its header asks for.
        std::vector<std::uint8_t> head = f.read_bytes(detail::kNpyPrefixMax);
        const std::uint64_t end = detail::npy_header_end(head, path);
        if (end > head.size()) {
            const auto rest = f.read_bytes(end - head.size());
            head.insert(head.end(), rest.begin(), rest.end());
        }
        auto h = detail::parse_npy_header(head, path);
        if (check) check(h.dtype, h.shape);
        const std::uint64_t already = head.size() - end; // data bytes read with the prefix (a tiny header)
        if (f.regular()) detail::check_npy_data_size(h, f.size() - end, false, path);
        std::vector<std::uint8_t> data(head.begin() + static_cast<std::ptrdiff_t>(end), head.end());
        if (already < h.data_bytes) {
            if (f.regular()) {
                data.resize(static_cast<std::size_t>(h.data_bytes));
                const auto rest = f.read_bytes(h.data_bytes - already);
                std::copy(rest.begin(), rest.end(), data.begin() + static_cast<std::ptrdiff_t>(already));
                data.resize(static_cast<std::size_t>(already + rest.size()));
            } else {
                const auto rest = f.read_bytes(h.data_bytes - already);
                data.insert(data.end(), rest.begin(), rest.end());
            }
        }
        detail::check_npy_data_size(h, data.size(), data.size() >= h.data_bytes && f.more(), path);
        return Tensor(h.dtype, std::move(h.shape), std::move(data));
    } catch (const BoundedFileError& e) {
        switch (e.kind()) {
        case BoundedFileError::Kind::Directory:
            throw NpyError(fmt::format("cannot read '{}': it is a directory", path));
        case BoundedFileError::Kind::Open: throw NpyError(fmt::format("cannot open '{}': {}", path, e.what()));
        case BoundedFileError::Kind::Read:
        case BoundedFileError::Kind::TooLarge: throw NpyError(fmt::format("cannot read '{}': {}", path, e.what()));
        }
        throw;
    }
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
