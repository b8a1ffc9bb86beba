#pragma once
// The NPU instruction stream aiecc.py writes next to the xclbin (--npu-insts-name): the words the
// host hands to the MLIR_AIE kernel in the instruction buffer (group_id 1). Two file forms exist,
// both read by mlir-aie's runtime_lib/test_lib/test_utils.cpp: a binary file of little-endian
// 32-bit words (load_instr_binary, "insts.bin") and a text file with one hex word per line
// (load_instr_sequence, "insts.txt").
#include <cstdint>
#include <string>
#include <vector>

namespace npusim::hw {

class InstructionStream {
public:
    enum class Form { Binary, Text };

    /// The form a file name implies: ".txt" is text, anything else binary (mlir-aie's examples
    /// name the binary form insts.bin and the text form insts.txt).
    static Form form_for(const std::string& path);

    /// The largest instruction file read: 64 MiB (a design's stream is a few KiB; the NPU's
    /// instruction buffer object is far smaller than this).
    static constexpr std::uint64_t kMaxBytes = std::uint64_t{64} << 20;

    /// Load and validate `path` in the form its name implies. Throws DesignError naming the file
    /// when it cannot be read, has more than kMaxBytes (checked before reading), is empty, has a size that is not a multiple of 4 bytes (binary) or a
    /// line that is not one hex word (text).
    static InstructionStream load(const std::string& path);
    static InstructionStream load(const std::string& path, Form form);

    const std::vector<std::uint32_t>& words() const noexcept { return words_; }
    std::size_t size() const noexcept { return words_.size(); }
    std::size_t size_bytes() const noexcept { return words_.size() * sizeof(std::uint32_t); }
    const std::string& path() const noexcept { return path_; }

private:
    InstructionStream(std::string path, std::vector<std::uint32_t> words);
    std::string path_;
    std::vector<std::uint32_t> words_;
};

} // namespace npusim::hw
