// Bounded file reads: a regular file's size is checked before reading, anything else is read only
// up to the bound (so /dev/zero and sparse multi-gigabyte files are refused at once).
#include "npusim/model/BoundedFile.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/model/TimingParams.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace npusim;
using namespace npusim::model;

namespace {
// A sparse file of `bytes` (no disk blocks, no memory): what `truncate -s` makes.
std::string sparse_file(const std::string& name, std::uint64_t bytes) {
    const std::string path = fmt::format("/tmp/npusim_bounded_{}_{}", ::getpid(), name);
    std::ofstream(path).close();
    REQUIRE(::truncate(path.c_str(), static_cast<off_t>(bytes)) == 0);
    return path;
}
double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

TEST_CASE("a bounded read returns a file within the bound", "[model][file]") {
    const auto path = sparse_file("small", 100);
    CHECK(read_bounded_file(path, 100).size() == 100);
    CHECK_THROWS_WITH(read_bounded_file(path, 99), "it has 100 bytes, more than the limit of 99 B");
    std::remove(path.c_str());
}

TEST_CASE("a bounded read refuses a huge sparse file from its size, without reading it", "[model][file]") {
    const auto path = sparse_file("huge", std::uint64_t{8} << 30);
    const auto t0 = std::chrono::steady_clock::now();
    try {
        (void)read_bounded_file(path, 1 << 20);
        FAIL("no error");
    } catch (const BoundedFileError& e) {
        CHECK(e.kind() == BoundedFileError::Kind::TooLarge);
        CHECK(e.bytes() == std::uint64_t{8} << 30);
        CHECK(std::string(e.what()) == "it has 8589934592 bytes, more than the limit of 1 MiB");
    }
    CHECK(seconds_since(t0) < 1.0);
    std::remove(path.c_str());
}

TEST_CASE("a bounded read of /dev/zero stops after the bound", "[model][file]") {
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(read_bounded_file("/dev/zero", 4 << 20), "it has more than the limit of 4 MiB");
    CHECK(seconds_since(t0) < 5.0);
    BoundedFile f("/dev/zero");
    CHECK_FALSE(f.regular());
    CHECK(f.read(10) == std::string(10, '\0'));
    CHECK(f.more());
}

TEST_CASE("a bounded read names a directory, a missing file and a read error", "[model][file]") {
    CHECK_THROWS_WITH(read_bounded_file("/tmp", 10), "it is a directory");
    CHECK_THROWS_WITH(read_bounded_file("/nonexistent/x", 10), "No such file or directory");
    CHECK_THROWS_WITH(read_bounded_file("/proc/self/mem", 10), "Input/output error");
}

TEST_CASE("byte sizes read naturally", "[model][file]") {
    CHECK(byte_size_text(100) == "100 B");
    CHECK(byte_size_text(1024) == "1 KiB");
    CHECK(byte_size_text(1536 * 1024) == "1.5 MiB");
    CHECK(byte_size_text(std::uint64_t{12} << 30) == "12 GiB");
    CHECK(byte_size_text(std::uint64_t{8} << 30 | std::uint64_t{512} << 20) == "8.5 GiB");
}

TEST_CASE("a timing file is at most 1 MiB: /dev/zero and a large file are refused", "[model][timing]") {
    auto p = TimingParams::for_arch(Arch::AIE2);
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(p.apply_json_file("/dev/zero"),
                      "timing file '/dev/zero' is too large: it has more than the limit of 1 MiB (a timing file is a "
                      "JSON object of a few dozen parameters)");
    CHECK(seconds_since(t0) < 5.0);
    const auto path = sparse_file("timing.json", std::uint64_t{24} << 30);
    CHECK_THROWS_WITH(p.apply_json_file(path),
                      fmt::format("timing file '{}' is too large: it has 25769803776 bytes, more than the limit of "
                                  "1 MiB (a timing file is a JSON object of a few dozen parameters)",
                                  path));
    std::remove(path.c_str());
}
