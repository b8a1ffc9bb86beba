// NpyFile's limits on what a file can make it do: a header nested thousands deep (a recursion
// bound), a header length over 1 MiB, and data that does not match the header, checked from a
// regular file's size before reading (a sparse 8 GiB file costs nothing) and read no further than
// the header asks from a pipe.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/NpyFile.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace npusim;
using namespace npusim::harness;

namespace {

// A version 1.0 file's prefix and header, the dict padded as numpy pads it.
std::string npy_v1(const std::string& dict) {
    std::string h = std::string("\x93NUMPY\x01\x00", 8);
    const std::size_t total = ((10 + dict.size() + 1 + 63) / 64) * 64;
    const std::size_t hlen = total - 10;
    REQUIRE(hlen <= 0xFFFF);
    h += static_cast<char>(hlen & 0xFF);
    h += static_cast<char>(hlen >> 8);
    h += dict + std::string(hlen - dict.size() - 1, ' ') + '\n';
    return h;
}

std::string scratch(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / fmt::format("npusim_npy_limits_{}", ::getpid());
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

std::string npylim_write_file(const std::string& name, const std::string& content) {
    const auto path = scratch(name);
    std::ofstream(path, std::ios::binary) << content;
    return path;
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const NpyError& e) {
        return e.what();
    }
    return "(no error)";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

TEST_CASE("a header of 20,000 nested brackets is an error, not a stack overflow", "[npy]") {
    // A valid 40 KB version 1.0 header: the nesting is in the descr, as a structured dtype nests.
    const std::string dict = "{'descr': " + std::string(20000, '[') + std::string(20000, ']') +
                             ", 'fortran_order': False, 'shape': (4,), }";
    const std::string file = npy_v1(dict) + std::string(16, '\0');
    REQUIRE(file.size() > 40000);
    const std::string want = "malformed .npy header: more than 32 nested tuples or lists at offset 42";
    CHECK(error_of([&] { (void)NpyFile::parse(std::vector<std::uint8_t>(file.begin(), file.end()), "x.npy"); }) ==
          "'x.npy': " + want);
    const auto path = npylim_write_file("nested.npy", file);
    CHECK(error_of([&] { (void)NpyFile::read(path); }) == "'" + path + "': " + want);
    // 32 levels are read (and refused for what they are: a structured dtype).
    const std::string ok = "{'descr': " + std::string(32, '[') + std::string(32, ']') +
                           ", 'fortran_order': False, 'shape': (4,), }";
    CHECK(error_of([&] { (void)NpyFile::parse(std::vector<std::uint8_t>(ok.begin(), ok.end()), "y.npy"); })
              .find("nested") == std::string::npos);
}

TEST_CASE("a header longer than 1 MiB is refused before it is read", "[npy]") {
    std::string v2 = std::string("\x93NUMPY\x02\x00", 8);
    v2 += std::string("\x00\x00\x00\x80", 4); // 2 GiB of header
    const auto path = npylim_write_file("long_header.npy", v2);
    CHECK(error_of([&] { (void)NpyFile::read(path); }) ==
          "'" + path + "': the .npy header declares 2147483648 bytes, more than the limit of 1 MiB (the header of a "
                       "plain array has a few hundred)");
}

TEST_CASE("an 8 GiB sparse file is refused from its size, not read", "[npy]") {
    const auto path = npylim_write_file("sparse.npy", npy_v1("{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }"));
    std::filesystem::resize_file(path, std::uintmax_t{8} << 30); // sparse: no disk blocks, no memory
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(error_of([&] { (void)NpyFile::read(path); }) ==
          "'" + path + "': extra data: 8589934464 bytes after the header, dtype int32 shape (4,) needs 16");
    CHECK(seconds_since(t0) < 1.0);
}

TEST_CASE("an input file of another shape is refused from its header, before its data is read", "[npy]") {
    // A valid 8 GiB file (sparse): int32 (2147483648,). The argument takes int32 (1024,).
    const auto path =
        npylim_write_file("valid_8g.npy", npy_v1("{'descr': '<i4', 'fortran_order': False, 'shape': (2147483648,), }"));
    std::filesystem::resize_file(path, 64 + (std::uintmax_t{8} << 30));
    const auto t0 = std::chrono::steady_clock::now();
    const auto arg = ArgSpec::input("a", iron::TensorType(DType::i32, {1024}));
    CHECK(error_of([&] { (void)load_tensor_for(arg, path, "d"); }) ==
          "'" + path + "': shape (2147483648,) does not match input 'a' of design 'd', which has shape (1024,) (int32)");
    CHECK(seconds_since(t0) < 1.0);
}

TEST_CASE("from a pipe, no more is read than the header asks and one byte", "[npy]") {
    std::signal(SIGPIPE, SIG_IGN); // the writer below is left writing into a closed pipe
    const auto fifo = scratch("pipe.npy");
    std::remove(fifo.c_str());
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const std::string head = npy_v1("{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }");
    // As `cat header /dev/zero > pipe`: endless data after a 16-byte array.
    std::thread writer([&] {
        const int fd = ::open(fifo.c_str(), O_WRONLY);
        if (fd < 0) return;
        if (::write(fd, head.data(), head.size()) > 0) {
            const std::string zeros(1 << 16, '\0');
            for (int i = 0; i < 1024 && ::write(fd, zeros.data(), zeros.size()) > 0; ++i) {
            }
        }
        ::close(fd);
    });
    const auto msg = error_of([&] { (void)NpyFile::read(fifo); });
    writer.join();
    CHECK(msg == "'" + fifo + "': extra data: more than 16 bytes after the header, dtype int32 shape (4,) needs 16");
    std::remove(fifo.c_str());
}

TEST_CASE("/dev/zero is not a .npy file", "[npy]") {
    CHECK(error_of([] { (void)NpyFile::read("/dev/zero"); }) ==
          "'/dev/zero': not a .npy file (it does not start with the magic string \\x93NUMPY)");
}
