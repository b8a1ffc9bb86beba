#pragma once
// RunOutcome: what one run of a design did, in a few fields every batch of runs reports the same
// way (`npusim depth` per configuration, `npusim sweep` per point): ran and matched, a mismatch,
// a deadlock, a limit, refused at resolve, another error, or (in a worker process) crashed or
// timed out. outcome_of() runs a design and classifies the result; encode/decode carry an outcome
// through a pipe or an MPI message.
#include "npusim/harness/DesignRunner.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace npusim::harness {

struct RunOutcome {
    enum class Status {
        Ok, ///< ran to the end and every output matched
        Mismatch, ///< ran to the end, an output differs from the reference
        Deadlock, ///< SimulationError::Kind::Deadlock
        Limit, ///< --max-cycles reached (or another hardware limit at run time)
        Refused, ///< resolve() (or the design's build) threw a DesignError
        Error, ///< another error (protocol violation, kernel error, ...)
        Crashed, ///< the worker process died (signal) without a result
        Timeout, ///< the worker process ran past its time limit and was killed
    };
    Status status = Status::Ok;
    std::uint64_t cycles = 0; ///< simulated cycles (Ok and Mismatch)
    std::string message; ///< why it did not run or did not match (first line of the error)
    bool ok() const { return status == Status::Ok; }
    /// "12345" for Ok; "deadlock", "limit", "mismatch", "refused: <message>", ... otherwise.
    std::string describe() const;
    friend bool operator==(const RunOutcome&, const RunOutcome&) = default;
};
/// "ok", "mismatch", "deadlock", "limit", "refused", "error", "crashed", "timeout".
const char* to_string(RunOutcome::Status s);

/// run_design(spec, device, params, opts) with its result or error as an outcome (never throws for
/// a design's or the simulator's error; the message is the error's first line, shortened).
RunOutcome outcome_of(const DesignSpec& spec, const std::string& device, const Params& params, const RunOptions& opts);

/// "status cycles length\n" then the message; decode() gives nullopt for anything else.
std::string encode(const RunOutcome& o);
std::optional<RunOutcome> decode(const std::string& s);

} // namespace npusim::harness
