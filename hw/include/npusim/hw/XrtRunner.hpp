#pragma once
// XrtRunner: one design on a real NPU through XRT, as mlir-aie's host programs run it
// (programming_examples/basic/passthrough_dmas/test.cpp, runtime_lib/test_lib/xrt_test_wrapper.h):
// xrt::device(0); the xclbin registered (XRT >= 2.15: register_xclbin and an xrt::hw_context; older
// XRT, such as Debian 12's 2.13: load_xclbin); the kernel whose name starts with `kernel_name`
// (MLIR_AIE); the BufferPlan's buffer objects; inputs synced to the device; warm-up runs, then
// timed runs (the time of kernel(...) and run.wait(), as the test programs take it); the outputs
// synced back after the last run. Built against XRT when CMake finds it (NPUSIM_HAVE_XRT);
// otherwise every run throws HardwareError(Unavailable).
#include "npusim/hw/BufferPlan.hpp"
#include "npusim/hw/InstructionStream.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::hw {

struct XrtRequest {
    /// The largest xclbin accepted: 256 MiB (an NPU design's xclbin is well under 10 MiB).
    static constexpr std::uint64_t kMaxXclbinBytes = std::uint64_t{256} << 20;
    /// Path of the xclbin: checked to be a readable, non-empty regular file of at most
    /// kMaxXclbinBytes before XRT is touched (XRT reads it whole).
    std::string xclbin;
    std::string kernel_name = "MLIR_AIE";
    unsigned device_index = 0;
    std::uint32_t warmup = 0;
    std::uint32_t iters = 1;
};

struct XrtResult {
    std::vector<std::vector<std::uint8_t>> outputs; ///< per runtime argument; empty unless read back
    std::vector<double> times_us; ///< per timed run
    std::string device_name; ///< as XRT names the device
};

class XrtRunner {
public:
    /// The XRT this npusim was built against ("2.13.0"), or "" without XRT.
    static std::string xrt_version();

    /// Runs the design: `inputs` holds one byte vector per runtime argument (used for the
    /// arguments the plan syncs to the device). Throws HardwareError: NoDevice when XRT opens no
    /// device, Unavailable without XRT, Failed when XRT fails later (its message quoted).
    static XrtResult run(const XrtRequest& req, const InstructionStream& insts, const BufferPlan& plan,
                         const std::vector<std::vector<std::uint8_t>>& inputs);
};

} // namespace npusim::hw
