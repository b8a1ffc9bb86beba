#pragma once
// BufferPlan: the buffer objects a host program hands the MLIR_AIE kernel, as mlir-aie's test
// programs allocate them (programming_examples/*/test.cpp, runtime_lib/test_lib/xrt_test_wrapper.h):
// the instruction stream in a cacheable BO at the kernel's group_id(1), then one host-only BO per
// runtime-sequence argument, in argument order, at group_id(3 + i); the run is
// kernel(opcode 3, bo_instr, instruction words, bo_0, bo_1, ...). Inputs are synced to the device
// before the run, outputs read back after it. Plain C++: no XRT here.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npusim::hw {

/// One runtime-sequence argument as the host sees it.
struct HostArg {
    enum class Role { input, output, inout, unused };
    std::string name;
    Role role = Role::input;
    std::uint64_t bytes = 0;
};

/// One buffer object of the plan.
struct PlannedBo {
    std::string name; ///< "instructions" or the argument's name
    int group_id = 0; ///< the kernel argument whose memory bank it uses (kernel.group_id(n))
    std::uint64_t bytes = 0;
    bool cacheable = false; ///< XCL_BO_FLAGS_CACHEABLE (instructions); else XRT_BO_FLAGS_HOST_ONLY
    bool to_device = false; ///< synced to the device before the run (instructions, inputs, inouts)
    bool from_device = false; ///< synced back after the run (outputs, inouts)
    int arg = -1; ///< index of the runtime argument; -1 for the instructions
};

class BufferPlan {
public:
    /// The kernel opcode mlir-aie's hosts pass first (3: run the instruction stream).
    static constexpr unsigned kOpcode = 3;
    static constexpr int kInstructionGroup = 1;
    static constexpr int kFirstDataGroup = 3;

    /// Throws DesignError for an empty instruction stream or an argument of 0 bytes (XRT cannot
    /// allocate an empty buffer object), naming the design and the argument.
    BufferPlan(const std::string& design, std::size_t instruction_words, const std::vector<HostArg>& args);

    /// Instructions first, then the arguments in order.
    const std::vector<PlannedBo>& bos() const noexcept { return bos_; }
    std::size_t instruction_words() const noexcept { return instruction_words_; }
    /// The kernel call as the host writes it: "kernel(3, bo_instr, 18, bo_in, bo_out)".
    std::string kernel_call() const;
    /// An aligned table: group_id, name, bytes, flags, sync direction.
    std::string table() const;

private:
    std::vector<PlannedBo> bos_;
    std::size_t instruction_words_ = 0;
};

} // namespace npusim::hw
