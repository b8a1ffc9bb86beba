#include "npusim/hw/InstructionStream.hpp"

#include "npusim/model/BoundedFile.hpp"
#include "npusim/model/Error.hpp"

#include <filesystem>
#include <fmt/format.h>


namespace npusim::hw {

namespace {

std::string read_file(const std::string& path) {
    try {
        return model::read_bounded_file(path, InstructionStream::kMaxBytes);
    } catch (const model::BoundedFileError& e) {
        switch (e.kind()) {
        case model::BoundedFileError::Kind::Directory:
            throw DesignError(fmt::format("cannot read instruction file '{}': it is a directory", path));
        case model::BoundedFileError::Kind::Open:
            throw DesignError(fmt::format("cannot open instruction file '{}'", path));
        case model::BoundedFileError::Kind::Read:
            throw DesignError(fmt::format("cannot read instruction file '{}': {}", path, e.what()));
        case model::BoundedFileError::Kind::TooLarge:
            throw DesignError(fmt::format("instruction file '{}' is too large: {}", path, e.what()));
        }
        throw;
    }
}

// load_instr_binary: "File size is not a multiple of 4 bytes"; the words are little-endian.
std::vector<std::uint32_t> parse_binary(const std::string& path, const std::string& bytes) {
    if (bytes.size() % 4 != 0)
        throw DesignError(fmt::format(
            "instruction file '{}': {} bytes is not a whole number of 32-bit words (mlir-aie: \"File size is "
            "not a multiple of 4 bytes\")",
            path, bytes.size()));
    std::vector<std::uint32_t> words(bytes.size() / 4);
    for (std::size_t i = 0; i < words.size(); ++i) {
        std::uint32_t w = 0;
        for (int b = 3; b >= 0; --b)
            w = (w << 8) | static_cast<unsigned char>(bytes[i * 4 + static_cast<std::size_t>(b)]);
        words[i] = w;
    }
    return words;
}

bool is_hex_digit(char ch) { return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F'); }

// load_instr_sequence reads one hex word per line and throws "Unable to parse instruction file"
// on a line that does not start with one. We are stricter: the whole line (blanks around it aside)
// must be one word of at most 8 hex digits, with or without 0x, so a truncated or mangled file is
// reported instead of silently read as other words.
std::vector<std::uint32_t> parse_text(const std::string& path, const std::string& text) {
    std::vector<std::uint32_t> words;
    std::size_t pos = 0;
    std::size_t line_no = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        const auto first = line.find_first_not_of(" \t\r");
        const auto last = line.find_last_not_of(" \t\r");
        std::string word = first == std::string::npos ? std::string() : line.substr(first, last - first + 1);
        std::string digits = word;
        if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits = digits.substr(2);
        bool ok = !digits.empty() && digits.size() <= 8;
        for (char ch : digits) ok = ok && is_hex_digit(ch);
        if (!ok)
            throw DesignError(fmt::format("instruction file '{}' line {}: '{}' is not one 32-bit hex word (mlir-aie: "
                                          "\"Unable to parse instruction file\")",
                                          path, line_no, word));
        words.push_back(static_cast<std::uint32_t>(std::stoul(digits, nullptr, 16)));
    }
    return words;
}

} // namespace

InstructionStream::InstructionStream(std::string path, std::vector<std::uint32_t> words)
    : path_(std::move(path)), words_(std::move(words)) {}

InstructionStream::Form InstructionStream::form_for(const std::string& path) {
    return std::filesystem::path(path).extension() == ".txt" ? Form::Text : Form::Binary;
}

InstructionStream InstructionStream::load(const std::string& path) { return load(path, form_for(path)); }

InstructionStream InstructionStream::load(const std::string& path, Form form) {
    const std::string bytes = read_file(path);
    if (bytes.empty())
        throw DesignError(
            fmt::format("instruction file '{}' is empty: the NPU needs at least one instruction word", path));
    auto words = form == Form::Binary ? parse_binary(path, bytes) : parse_text(path, bytes);
    return InstructionStream(path, std::move(words));
}

} // namespace npusim::hw
