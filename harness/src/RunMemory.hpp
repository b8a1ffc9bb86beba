#pragma once
// The host memory of one run (run_design): the limit it may use (given, or host_memory_limit()),
// the estimate it is checked against, and the error a std::bad_alloc becomes.
#include "npusim/harness/HostMemory.hpp"

#include <cstdint>
#include <string>

namespace npusim::harness::detail {

class RunMemory {
public:
    /// `run` names the run in messages: "design 'x' (M=512 ...) on npu1". `given_bytes` (0: none)
    /// is RunOptions::host_memory_bytes, used instead of the machine's limit.
    RunMemory(std::string run, std::uint64_t given_bytes);

    /// A run's peak resident memory is at most about 2x the bytes of its runtime arguments (1.5x
    /// for a copy such as E1: the simulator's host tensors and the expected outputs; 2x where the
    /// design's input generation or reference holds a second copy of a tensor;
    /// docs/performance.md); the estimate is 3x, plus `extra` (what more invocations keep).
    /// DesignError when it is more than the limit.
    void check(std::uint64_t arg_bytes, std::uint64_t extra = 0, std::uint64_t invocations = 1) const;
    /// The DesignError a std::bad_alloc `while` (doing what) becomes.
    [[noreturn]] void out_of_memory(const std::string& while_doing) const;

    const HostMemoryLimit& limit() const noexcept { return limit_; }

private:
    std::string run_;
    HostMemoryLimit limit_;
};

} // namespace npusim::harness::detail
