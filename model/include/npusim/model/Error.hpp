#pragma once
// The two error kinds of npusim (docs/errors.md). Both carry a message that names the design
// object involved; SimulationError also carries a kind, which the CLI maps to an exit code.
#include <stdexcept>
#include <string>

namespace npusim {

/// A design that cannot be built or resolved: a malformed design, a hardware limit exceeded,
/// a wrong tensor size. Thrown while building or resolving, before anything is simulated.
class DesignError : public std::runtime_error {
public:
    explicit DesignError(const std::string& what) : std::runtime_error(what) {}
};

/// Something that went wrong while simulating.
class SimulationError : public std::runtime_error {
public:
    enum class Kind {
        Deadlock, ///< the event queue emptied before the run finished
        Protocol, ///< release without acquire, wrong-size kernel view, ...
        Limit, ///< --max-cycles reached, a hardware queue overflowed
        Kernel, ///< a native kernel threw
        Mismatch, ///< output size mismatch
        Internal ///< a simulator invariant broke: a bug in npusim (sim/src/InvariantChecker.hpp)
    };
    SimulationError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
    Kind kind() const noexcept { return kind_; }

private:
    Kind kind_;
};

/// Exit codes of the CLI (docs/errors.md).
/// CLI exit codes (DESIGN.md; 6 is npusim's addition for the NPU backend: no device or an XRT
/// failure, docs/hardware.md).
enum class ExitCode : int { Ok = 0, Mismatch = 1, DesignOrUsage = 2, Deadlock = 3, Limit = 4, Internal = 5, Hardware = 6 };

inline ExitCode exit_code_for(SimulationError::Kind k) {
    switch (k) {
    case SimulationError::Kind::Deadlock: return ExitCode::Deadlock;
    case SimulationError::Kind::Limit: return ExitCode::Limit;
    case SimulationError::Kind::Mismatch: return ExitCode::Mismatch;
    case SimulationError::Kind::Internal: return ExitCode::Internal;
    case SimulationError::Kind::Protocol:
    case SimulationError::Kind::Kernel: return ExitCode::DesignOrUsage;
    }
    return ExitCode::DesignOrUsage;
}

} // namespace npusim
