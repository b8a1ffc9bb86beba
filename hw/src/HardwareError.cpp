#include "npusim/hw/HardwareError.hpp"

namespace npusim::hw {

HardwareError::HardwareError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}

const char* HardwareError::kind_name(Kind k) {
    switch (k) {
    case Kind::NoDevice: return "no NPU device";
    case Kind::Unavailable: return "no XRT";
    case Kind::Failed: return "XRT error";
    }
    return "XRT error";
}

} // namespace npusim::hw
