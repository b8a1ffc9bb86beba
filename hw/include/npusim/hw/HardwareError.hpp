#pragma once
// HardwareError: the NPU run could not happen or failed in XRT. Its own exit code (6,
// model::ExitCode::Hardware): a design that simulates but has no device to run on is neither a
// design error nor a mismatch.
#include <stdexcept>
#include <string>

namespace npusim::hw {

class HardwareError : public std::runtime_error {
public:
    enum class Kind {
        NoDevice, ///< XRT finds no NPU (no device, no driver)
        Unavailable, ///< npusim was built without XRT
        Failed, ///< XRT failed: the xclbin, the kernel, a buffer or the run
    };
    HardwareError(Kind kind, const std::string& message);
    Kind kind() const noexcept { return kind_; }
    /// "no NPU device", "no XRT", "XRT error"
    static const char* kind_name(Kind k);

private:
    Kind kind_;
};

} // namespace npusim::hw
