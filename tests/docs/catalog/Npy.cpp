// The harness's .npy files (harness/src/NpyFile.cpp, NpyHeader.cpp): `--input`, `--expect`,
// `--save-outputs`. Part of the harness's entries (add_harness calls add_npy in its place).
#include "Designs.hpp"

#include "npusim/harness/NpyFile.hpp"

namespace npusim::errcat {

using harness::Tensor;

namespace {
/// .npy bytes: the magic string, version 1.0, and this header (padded as numpy does not need).
std::vector<std::uint8_t> npy(const std::string& header, std::size_t data_bytes = 0, int major = 1) {
    std::string s = "\x93NUMPY";
    s += static_cast<char>(major);
    s += '\0';
    s += static_cast<char>(header.size() & 0xFF);
    s += static_cast<char>(header.size() >> 8);
    if (major > 1) s += std::string(2, '\0');
    s += header;
    s += std::string(data_bytes, '\0');
    return {s.begin(), s.end()};
}
} // namespace

void add_npy(Catalog& c) {
    c.component("Harness: .npy files",
                "Reading and writing NumPy .npy files (`harness/src/NpyFile.cpp`, the header in `NpyHeader.cpp`): `--input`, `--expect`, "
                "`--save-outputs`. `npy(header, data bytes, major version)` makes the bytes of a file.");
    c.site("harness/src/NpyFile.cpp");
    using harness::NpyFile;
    NPUSIM_ERROR(c, "npy.magic", kFile, "'x.npy': not a .npy file (it does not start with the magic string \\x93NUMPY)",
                 NpyFile::parse(std::vector<std::uint8_t>{'P', 'K', 3, 4, 0, 0, 0, 0}, "x.npy"));
    NPUSIM_ERROR(c, "npy.version", kFile,
                 "'x.npy': unsupported .npy format version 4.0 (npusim reads 1.0, 2.0 and 3.0)",
                 NpyFile::parse(npy("{}", 0, 4), "x.npy"));
    NPUSIM_ERROR(c, "npy.truncated_prefix", kFile, "'x.npy': truncated .npy header", auto b = npy(""); b.resize(9);
                 NpyFile::parse(b, "x.npy"));
    NPUSIM_ERROR(c, "npy.truncated_header", kFile,
                 "'x.npy': truncated .npy header: it declares 57 bytes, the file has 10 after the prefix",
                 auto b = npy("{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }");
                 b.resize(20); NpyFile::parse(b, "x.npy"));
    NPUSIM_ERROR(c, "npy.header_limit", kFile,
                 "'x.npy': the .npy header declares 2147483648 bytes, more than the limit of 1 MiB (the header of a "
                 "plain array has a few hundred)",
                 auto b = npy("", 0, 2); b[11] = 0x80; NpyFile::parse(b, "x.npy"));
    NPUSIM_ERROR(c, "npy.nesting", kFile,
                 "'x.npy': malformed .npy header: more than 32 nested tuples or lists at offset 42",
                 NpyFile::parse(npy("{'descr': " + std::string(20000, '[') + std::string(20000, ']') + "}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.key_not_string", kFile, "'x.npy': malformed .npy header: a key must be a string, got 1",
                 NpyFile::parse(npy("{1: 2}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.text_after_dict", kFile, "'x.npy': malformed .npy header: unexpected text after the dict: 'x'",
                 NpyFile::parse(npy("{} x"), "x.npy"));
    NPUSIM_ERROR(c, "npy.expected_char", kFile, "'x.npy': malformed .npy header: expected ':' at offset 9, found '''",
                 NpyFile::parse(npy("{'descr' '<i4'}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.header_ended", kFile, "'x.npy': malformed .npy header: expected '}', the header ended",
                 NpyFile::parse(npy("{'descr': '<i4'"), "x.npy"));
    NPUSIM_ERROR(c, "npy.ended_inside_dict", kFile, "'x.npy': malformed .npy header: the header ended inside the dict",
                 NpyFile::parse(npy("{'descr':"), "x.npy"));
    NPUSIM_ERROR(c, "npy.number_without_digits", kFile, "'x.npy': malformed .npy header: a number without digits",
                 NpyFile::parse(npy("{'shape': (-,)}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.number_too_large", kFile, "'x.npy': malformed .npy header: a number too large",
                 NpyFile::parse(npy("{'shape': (99999999999999999999,)}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.unexpected_word", kFile, "'x.npy': malformed .npy header: unexpected 'Maybe' at offset 18",
                 NpyFile::parse(npy("{'fortran_order': Maybe}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.unexpected_key", kFile, "'x.npy': malformed .npy header: unexpected key 'order'",
                 NpyFile::parse(npy("{'descr': '<i4', 'fortran_order': False, 'shape': (4,), 'order': 'C'}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.missing_key", kFile,
                 "'x.npy': malformed .npy header: it needs the keys 'descr', 'fortran_order' and 'shape', has: "
                 "{'descr': '<i4', 'shape': (4,)}",
                 NpyFile::parse(npy("{'descr': '<i4', 'shape': (4,)}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.structured_dtype", kFile,
                 "'x.npy': unsupported dtype [('x', '<i4')] (a structured dtype); npusim reads plain arrays",
                 NpyFile::parse(npy("{'descr': [('x', '<i4')], 'fortran_order': False, 'shape': (4,)}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.big_endian", kFile,
                 "'x.npy': big-endian dtype '>i4' is not supported; save a little-endian array (arr.astype('<i4'))",
                 NpyFile::parse(npy("{'descr': '>i4', 'fortran_order': False, 'shape': (4,)}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.unsupported_dtype", kFile,
                 "'x.npy': unsupported dtype '<f8' (float64); npusim reads |i1 (int8), |u1 (uint8), <i2 (int16), <u2 "
                 "(uint16), <i4 (int32), <u4 (uint32), <f4 (float32) and bfloat16 ('<V2' or 'bfloat16')",
                 NpyFile::parse(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4,)}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.fortran_order_value", kFile, "'x.npy': malformed .npy header: fortran_order is 0",
                 NpyFile::parse(npy("{'descr': '<i4', 'fortran_order': 0, 'shape': (4,)}"), "x.npy"));
    NPUSIM_ERROR(
        c, "npy.fortran_order", kFile,
        "'x.npy': Fortran-order arrays are not supported; save a C-order array (np.save(f, np.ascontiguousarray(a)))",
        NpyFile::parse(npy("{'descr': '<i4', 'fortran_order': True, 'shape': (4,)}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.shape_not_tuple", kFile, "'x.npy': malformed .npy header: shape is [4]",
                 NpyFile::parse(npy("{'descr': '<i4', 'fortran_order': False, 'shape': [4]}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.shape_entry", kFile, "'x.npy': malformed .npy header: shape (-4,)",
                 NpyFile::parse(npy("{'descr': '<i4', 'fortran_order': False, 'shape': (-4,)}"), "x.npy"));
    NPUSIM_ERROR(
        c, "npy.shape_too_large", kFile, "'x.npy': shape (4294967296, 4294967296,) is too large",
        NpyFile::parse(npy("{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296,)}"), "x.npy"));
    NPUSIM_ERROR(c, "npy.data_size", kFile,
                 "'x.npy': truncated data: 12 bytes after the header, dtype int32 shape (4,) needs 16",
                 NpyFile::parse(npy("{'descr': '<i4', 'fortran_order': False, 'shape': (4,)}", 12), "x.npy"));
    NPUSIM_ERROR(c, "npy.read_directory", kFile, "cannot read '$TMP': it is a directory", NpyFile::read(ctx.tmp));
    NPUSIM_ERROR(c, "npy.open", kFile, "cannot open '$TMP/none.npy': No such file or directory",
                 NpyFile::read(ctx.tmp + "/none.npy"));
    NPUSIM_ERROR(c, "npy.read", kFile, "cannot read '/proc/self/mem': <...>Input/output error",
                 NpyFile::read("/proc/self/mem"));
    NPUSIM_ERROR(c, "npy.write_size", kFile, "cannot write '$TMP/x.npy': 3 bytes given for int32 (4,), which takes 16",
                 NpyFile::write(ctx.tmp + "/x.npy", DType::i32, {4}, std::vector<std::uint8_t>(3)));
    NPUSIM_ERROR(c, "npy.write_open", kFile, "cannot write '$TMP/no/x.npy': No such file or directory",
                 NpyFile::write(ctx.tmp + "/no/x.npy", Tensor(DType::i32, {4})));
    NPUSIM_ERROR(c, "npy.write", kFile, "cannot write '/dev/full': No space left on device",
                 NpyFile::write("/dev/full", Tensor(DType::i32, {4})));
    c.internal("npy.header_too_large", "npy header of 4294967296 bytes is too large",
               "Version 2.0 headers hold up to 4 GiB; the header of a dtype and a shape of at most 32 dimensions "
               "is a few hundred bytes.");
}

} // namespace npusim::errcat
