// The instruction files aiecc.py writes, read as mlir-aie's runtime_lib/test_lib/test_utils.cpp
// reads them: load_instr_binary (little-endian u32 words; "File size is not a multiple of 4
// bytes") and load_instr_sequence (one hex word per line; "Unable to parse instruction file").
#include "npusim/hw/InstructionStream.hpp"
#include "npusim/model/Error.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

using npusim::DesignError;
using npusim::hw::InstructionStream;

namespace {

// The tests' scratch directory, removed at exit.
const std::filesystem::path& scratch_dir() {
    static const npusim::test::TempDir dir("npusim_hw_tests");
    return dir.path;
}

std::string scratch(const std::string& name, const std::string& bytes) {
    const auto path = (scratch_dir() / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

std::string message_of(const std::string& path) {
    try {
        (void)InstructionStream::load(path);
    } catch (const DesignError& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("insts binary file is little-endian 32-bit words", "[hw][insts]") {
    // Words 0x06030100 and 0xdeadbeef, least significant byte first.
    const std::string bytes("\x00\x01\x03\x06\xef\xbe\xad\xde", 8);
    const auto path = scratch("insts.bin", bytes);
    CHECK(InstructionStream::form_for(path) == InstructionStream::Form::Binary);
    const auto s = InstructionStream::load(path);
    REQUIRE(s.size() == 2);
    CHECK(s.words()[0] == 0x06030100u);
    CHECK(s.words()[1] == 0xdeadbeefu);
    CHECK(s.size_bytes() == 8);
    CHECK(s.path() == path);
}

TEST_CASE("insts text file is one hex word per line", "[hw][insts]") {
    const auto path = scratch("insts.txt", "06030100\n0xDEADBEEF\r\n  00000001 \n");
    CHECK(InstructionStream::form_for(path) == InstructionStream::Form::Text);
    const auto s = InstructionStream::load(path);
    REQUIRE(s.size() == 3);
    CHECK(s.words()[0] == 0x06030100u);
    CHECK(s.words()[1] == 0xdeadbeefu);
    CHECK(s.words()[2] == 1u);
    // The same text read as binary is 4-byte words of ASCII, when the form is forced.
    const auto four = scratch("four.txt", "abcd");
    CHECK(InstructionStream::load(four, InstructionStream::Form::Binary).words().at(0) == 0x64636261u);
}

TEST_CASE("insts binary file with a partial word is refused", "[hw][insts]") {
    const auto path = scratch("odd.bin", std::string("\x00\x01\x03\x06\x07", 5));
    CHECK(message_of(path) == "instruction file '" + path +
                                  "': 5 bytes is not a whole number of 32-bit words (mlir-aie: \"File size is not "
                                  "a multiple of 4 bytes\")");
}

TEST_CASE("insts text file with a bad line is refused naming the line", "[hw][insts]") {
    const auto bad_hex = scratch("bad.txt", "06030100\n0604zz05\n");
    CHECK(message_of(bad_hex) == "instruction file '" + bad_hex +
                                     "' line 2: '0604zz05' is not one 32-bit hex word (mlir-aie: \"Unable to parse "
                                     "instruction file\")");
    const auto too_long = scratch("long.txt", "106030100\n");
    CHECK(message_of(too_long) == "instruction file '" + too_long +
                                      "' line 1: '106030100' is not one 32-bit hex word (mlir-aie: \"Unable to "
                                      "parse instruction file\")");
    const auto blank = scratch("blank.txt", "06030100\n\n06030100\n");
    CHECK(message_of(blank) == "instruction file '" + blank +
                                   "' line 2: '' is not one 32-bit hex word (mlir-aie: \"Unable to parse "
                                   "instruction file\")");
    const auto two = scratch("two.txt", "0603 0100\n");
    CHECK(message_of(two) == "instruction file '" + two +
                                 "' line 1: '0603 0100' is not one 32-bit hex word (mlir-aie: \"Unable to parse "
                                 "instruction file\")");
}

TEST_CASE("insts file that is empty, missing or a directory is refused", "[hw][insts]") {
    const auto empty = scratch("empty.bin", "");
    CHECK(message_of(empty) ==
          "instruction file '" + empty + "' is empty: the NPU needs at least one instruction word");
    const auto empty_txt = scratch("empty.txt", "");
    CHECK(message_of(empty_txt) ==
          "instruction file '" + empty_txt + "' is empty: the NPU needs at least one instruction word");
    const auto& dir = scratch_dir();
    const auto missing = (dir / "none.bin").string();
    std::filesystem::remove(missing);
    CHECK(message_of(missing) == "cannot open instruction file '" + missing + "'");
    CHECK(message_of(dir.string()) == "cannot read instruction file '" + dir.string() + "': it is a directory");
}

TEST_CASE("an instruction file over 64 MiB is refused before it is read", "[hw][insts]") {
    CHECK(message_of("/dev/zero") == "instruction file '/dev/zero' is too large: it has more than the limit of 64 MiB");
    const auto path = scratch("huge.bin", "");
    std::filesystem::resize_file(path, std::uintmax_t{8} << 30); // sparse: no memory, no disk blocks
    CHECK(message_of(path) ==
          "instruction file '" + path + "' is too large: it has 8589934592 bytes, more than the limit of 64 MiB");
    std::remove(path.c_str());
}
