// NpyFile: byte-exact headers as numpy.save writes them (the expected bytes below were produced by
// NumPy 1.24's np.save), round trips of every dtype, the bfloat16 descr variants, other format
// versions, and the error messages (each names the file).
#include "npusim/harness/NpyFile.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace npusim;
using namespace npusim::harness;
using npusim::test::bytes_of;

namespace {

std::string numpy_header(const std::string& dict) {
    // np.save pads the dict with spaces so that the 10-byte prefix + dict + '\n' is a multiple of 64.
    std::string h = std::string("\x93NUMPY\x01\x00", 8);
    const std::size_t total = ((10 + dict.size() + 1 + 63) / 64) * 64;
    const std::size_t hlen = total - 10;
    h += static_cast<char>(hlen & 0xFF);
    h += static_cast<char>(hlen >> 8);
    h += dict;
    h += std::string(hlen - dict.size() - 1, ' ');
    h += '\n';
    return h;
}

std::string write_file(const std::string& name, const std::string& content) {
    std::ofstream f(name, std::ios::binary);
    f << content;
    return name;
}

std::string parse_error(const std::string& content, const std::string& name = "t.npy") {
    const auto b = bytes_of(content);
    try {
        (void)NpyFile::parse(b, name);
    } catch (const NpyError& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("headers are byte for byte what numpy.save writes", "[npy]") {
    // np.save(f, np.zeros(4096, np.int32)): 10-byte prefix, header length 118 (b'v\x00'), 128 bytes in all.
    const std::string i32 = NpyFile::header(DType::i32, {4096});
    REQUIRE(i32.size() == 128);
    CHECK(i32.substr(0, 10) == std::string("\x93NUMPY\x01\x00v\x00", 10));
    CHECK(i32.substr(10, 60) == "{'descr': '<i4', 'fortran_order': False, 'shape': (4096,), }");
    CHECK(i32.substr(70) == std::string(57, ' ') + "\n");
    CHECK(i32 == numpy_header("{'descr': '<i4', 'fortran_order': False, 'shape': (4096,), }"));

    CHECK(NpyFile::header(DType::i16, {2, 3}) ==
          numpy_header("{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }"));
    CHECK(NpyFile::header(DType::i8, {5}) == numpy_header("{'descr': '|i1', 'fortran_order': False, 'shape': (5,), }"));
    CHECK(NpyFile::header(DType::u8, {7}) == numpy_header("{'descr': '|u1', 'fortran_order': False, 'shape': (7,), }"));
    CHECK(NpyFile::header(DType::f32, {}) == numpy_header("{'descr': '<f4', 'fortran_order': False, 'shape': (), }"));
    CHECK(NpyFile::header(DType::u32, {1}) ==
          numpy_header("{'descr': '<u4', 'fortran_order': False, 'shape': (1,), }"));
    CHECK(NpyFile::header(DType::u16, {2}) ==
          numpy_header("{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }"));
    CHECK(NpyFile::dtype_of_descr("<u2") == DType::u16);
    CHECK(NpyFile::header(DType::bf16, {3}) ==
          numpy_header("{'descr': '<V2', 'fortran_order': False, 'shape': (3,), }"));
    CHECK(NpyFile::header(DType::i16, {1, 2, 3, 4}) ==
          numpy_header("{'descr': '<i2', 'fortran_order': False, 'shape': (1, 2, 3, 4), }"));

    // Past one 128-byte block: numpy.lib.format writes 192 bytes (header length 182) for an int8
    // array of shape (3,)*31, and 128 for shape (10**12,).
    const std::vector<std::int64_t> many(31, 3);
    const std::string big = NpyFile::header(DType::i8, many);
    CHECK(big.size() == 192);
    CHECK(big[8] == static_cast<char>(182));
    CHECK(big[9] == 0);
    CHECK(NpyFile::header(DType::i8, {1000000000000}).size() == 128);
    CHECK(big.back() == '\n');

    for (const auto& [t, shape] : std::vector<std::pair<DType, std::vector<std::int64_t>>>{
             {DType::i32, {4096}},
             {DType::f32, {}},
             {DType::u8, {123456}},
             {DType::i16, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}}}) {
        const auto h = NpyFile::header(t, shape);
        INFO(h);
        CHECK(h.size() % 64 == 0);
        CHECK(h.back() == '\n');
        CHECK(h[6] == 1);
        CHECK(h[7] == 0);
        CHECK(static_cast<std::size_t>(static_cast<unsigned char>(h[8]) | (static_cast<unsigned char>(h[9]) << 8)) ==
              h.size() - 10);
    }
}

TEST_CASE("a whole small file matches numpy's bytes", "[npy]") {
    // np.save(f, np.array([[1, -2, 3], [4, 5, -32768]], np.int16))
    const auto t = Tensor::from<std::int16_t>({2, 3}, {1, -2, 3, 4, 5, -32768});
    const std::string want = numpy_header("{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }") +
                             std::string("\x01\x00\xfe\xff\x03\x00\x04\x00\x05\x00\x00\x80", 12);
    CHECK(NpyFile::serialize(t) == bytes_of(want));
    // np.save(f, np.array([1.5, -0.1], np.float32)): data bytes 00 00 c0 3f cd cc cc bd
    const auto f = NpyFile::serialize(Tensor::from<float>({2}, {1.5f, -0.1f}));
    CHECK(std::string(f.end() - 8, f.end()) == std::string("\x00\x00\xc0\x3f\xcd\xcc\xcc\xbd", 8));
}

TEST_CASE("round trips of every dtype and shape through a file", "[npy]") {
    const std::string path = "npusim_npy_roundtrip.npy";
    auto round = [&](const Tensor& t) {
        NpyFile::write(path, t);
        const Tensor r = NpyFile::read(path);
        CHECK(r.dtype == t.dtype);
        CHECK(r.shape == t.shape);
        CHECK(r.data == t.data);
    };
    round(Tensor::from<std::int8_t>({4}, {-128, -1, 0, 127}));
    round(Tensor::from<std::uint8_t>({2, 2}, {0, 1, 254, 255}));
    round(Tensor::from<std::int16_t>({3}, {-32768, 0, 32767}));
    round(Tensor::from<std::int32_t>({1}, {-2147483647 - 1}));
    round(Tensor::from<std::uint32_t>({2}, {0u, 4294967295u}));
    round(Tensor::from<float>({}, {3.25f}));
    round(Tensor::from<bfloat16>({2, 1}, {bfloat16(1.0f), bfloat16(-0.1f)}));
    round(Tensor(DType::i32, {0}));
    round(Tensor(DType::f32, {16, 16, 4}));
    std::remove(path.c_str());
}

TEST_CASE("bfloat16 is read from '<V2', '|V2' and 'bfloat16' descrs", "[npy]") {
    const std::string data("\x80\x3f\x00\xc0", 4); // 1.0, -2.0
    for (const char* d : {"'<V2'", "'|V2'", "'bfloat16'"}) {
        INFO(d);
        const auto t = NpyFile::parse(
            bytes_of(numpy_header(std::string("{'descr': ") + d + ", 'fortran_order': False, 'shape': (2,), }") + data),
            "bf.npy");
        REQUIRE(t.dtype == DType::bf16);
        CHECK(float(t.values<bfloat16>()[0]) == 1.0f);
        CHECK(float(t.values<bfloat16>()[1]) == -2.0f);
    }
    CHECK(NpyFile::descr(DType::bf16) == "<V2");
}

TEST_CASE("hand-written headers: other key orders, quotes, version 2.0 and 3.0, '<i1'", "[npy]") {
    // Keys in another order, double quotes, no trailing comma, no padding.
    std::string dict = "{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<i1\"}";
    std::string v1 =
        std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(dict.size()) + '\0' + dict + std::string("\x05\xfb", 2);
    auto t = NpyFile::parse(bytes_of(v1), "h.npy");
    CHECK(t.dtype == DType::i8);
    CHECK(t.values<std::int8_t>() == std::vector<std::int8_t>{5, -5});
    // Version 2.0: a 4-byte header length.
    dict = "{'descr': '<u4', 'fortran_order': False, 'shape': (1, 1), }\n";
    for (char major : {'\x02', '\x03'}) {
        std::string v2 = std::string("\x93NUMPY", 6) + major + '\0' + static_cast<char>(dict.size()) +
                         std::string(3, '\0') + dict + std::string("\x01\x02\x03\x04", 4);
        t = NpyFile::parse(bytes_of(v2), "v2.npy");
        CHECK(t.dtype == DType::u32);
        CHECK(t.shape == std::vector<std::int64_t>{1, 1});
        CHECK(t.values<std::uint32_t>()[0] == 0x04030201u);
    }
}

TEST_CASE("errors name the file and say what is wrong", "[npy]") {
    const std::string ok = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }";
    const std::string data(8, '\0');
    CHECK(parse_error("PK\x03\x04 not numpy", "x.npy") ==
          "'x.npy': not a .npy file (it does not start with the magic string \\x93NUMPY)");
    CHECK(parse_error(std::string("\x93NUMPY\x04\x00", 8) + "xx") ==
          "'t.npy': unsupported .npy format version 4.0 (npusim reads 1.0, 2.0 and 3.0)");
    CHECK(parse_error(numpy_header("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }") +
                      std::string(16, '\0')) == "'t.npy': unsupported dtype '<i8' (int64); npusim reads |i1 (int8), "
                                                "|u1 (uint8), <i2 (int16), <u2 (uint16), <i4 (int32), <u4 (uint32), "
                                                "<f4 (float32) and bfloat16 ('<V2' or 'bfloat16')");
    CHECK_THAT(
        parse_error(numpy_header("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }") + std::string(16, '\0')),
        Catch::StartsWith("'t.npy': unsupported dtype '<f8' (float64)"));
    CHECK(parse_error(numpy_header("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }") + data) ==
          "'t.npy': big-endian dtype '>i4' is not supported; save a little-endian array (arr.astype('<i4'))");
    CHECK(
        parse_error(numpy_header("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 1), }") + data) ==
        "'t.npy': Fortran-order arrays are not supported; save a C-order array (np.save(f, np.ascontiguousarray(a)))");
    CHECK_THAT(parse_error(numpy_header("{'descr': [('x', '<i4')], 'fortran_order': False, 'shape': (2,), }") + data),
               Catch::StartsWith("'t.npy': unsupported dtype [('x', '<i4')] (a structured dtype)"));
    CHECK(parse_error(numpy_header(ok) + std::string(4, '\0')) ==
          "'t.npy': truncated data: 4 bytes after the header, dtype int32 shape (2,) needs 8");
    CHECK(parse_error(numpy_header(ok) + std::string(12, '\0')) ==
          "'t.npy': extra data: 12 bytes after the header, dtype int32 shape (2,) needs 8");
    CHECK_THAT(parse_error(numpy_header(ok).substr(0, 40)), Catch::StartsWith("'t.npy': truncated .npy header"));
    CHECK_THAT(
        parse_error(numpy_header("{'descr': '<i4', 'shape': (2,), }") + data),
        Catch::StartsWith("'t.npy': malformed .npy header: it needs the keys 'descr', 'fortran_order' and 'shape'"));
    CHECK_THAT(parse_error(numpy_header("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), 'x': 1}") + data),
               Catch::Contains("unexpected key 'x'"));
    CHECK_THAT(parse_error(numpy_header("{'descr': '<i4' 'fortran_order': False}") + data),
               Catch::StartsWith("'t.npy': malformed .npy header: expected '}'"));
    CHECK_THAT(parse_error(numpy_header("{'descr': '<i4', 'fortran_order': False, 'shape': (-2,), }") + data),
               Catch::Contains("malformed .npy header: shape (-2,)"));

    CHECK_THROWS_WITH(NpyFile::read("/nonexistent/dir/a.npy"),
                      "cannot open '/nonexistent/dir/a.npy': No such file or directory");
    CHECK_THROWS_WITH(NpyFile::read("/tmp"), "cannot read '/tmp': it is a directory");
    CHECK_THROWS_WITH(NpyFile::write("/nonexistent/dir/a.npy", Tensor(DType::i32, {1})),
                      "cannot write '/nonexistent/dir/a.npy': No such file or directory");
    const auto path = write_file("npusim_npy_bad.npy", "hello");
    CHECK_THROWS_WITH(NpyFile::read(path),
                      "'npusim_npy_bad.npy': not a .npy file (it does not start with the magic string \\x93NUMPY)");
    std::remove(path.c_str());
}

TEST_CASE("bytes held elsewhere are written as a Tensor with them would be", "[npy]") {
    const std::string path = "npusim_npy_span.npy";
    const auto t = Tensor::from<std::int16_t>({2, 3}, {1, -2, 3, 4, 5, -32768});
    NpyFile::write(path, t.dtype, t.shape, t.data);
    std::ifstream f(path, std::ios::binary);
    const std::vector<std::uint8_t> written{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    CHECK(written == NpyFile::serialize(t));
    CHECK_THROWS_WITH(NpyFile::write(path, DType::i32, {2, 3}, t.data),
                      "cannot write 'npusim_npy_span.npy': 12 bytes given for int32 (2, 3), which takes 24");
    std::remove(path.c_str());
}
