#pragma once
// Runs random designs (RandomDesign) through resolve and simulate under a cycle and a wall-clock
// limit, and sorts each case's ending. Every case must end in success, a DesignError or a
// SimulationError; a well-formed case that succeeds must give exactly its expected output. Anything
// else is a bug in npusim: an exception of another type, a broken simulator invariant (Internal),
// wrong data. (A crash or a sanitizer report ends the process; the seed printed before each case
// with --verbose, or the case id of the summary, reproduces it.)
#include "Entropy.hpp"
#include "RandomDesign.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace npusim::fuzz {

enum class Ending {
    Success, ///< ran; a well-formed case's outputs matched
    DesignError, ///< refused by the API or resolve
    Deadlock,
    Limit,
    Protocol,
    Kernel,
    SizeMismatch,
    // bugs:
    WrongData, ///< a well-formed case ran but its output differs
    Internal, ///< a simulator invariant broke
    Unexpected, ///< an exception that is neither DesignError nor SimulationError
    MissedFault, ///< a planted fault that must stop the run (fault_caught_by) went unnoticed
};
constexpr int kEndings = 11;
/// Whether `e` is an ending that fault `f` of plan `p` may lead to (None: every ending).
bool fault_caught_by(const Plan& p, Fault f, Ending e);
const char* ending_name(Ending e);
inline bool is_bug(Ending e) {
    return e == Ending::WrongData || e == Ending::Internal || e == Ending::Unexpected || e == Ending::MissedFault;
}

struct CaseResult {
    Ending ending = Ending::Success;
    bool well_formed = false;
    std::string message;
    std::uint64_t cycles = 0;
};

struct FuzzLimits {
    std::uint64_t max_cycles = 50'000'000;
    double wall_seconds = 30;
};

class FuzzRunner {
public:
    explicit FuzzRunner(FuzzLimits limits = {}) : limits_(limits) {}
    /// Plan, build, resolve and simulate one case. `tamper` (tests) may change the built design,
    /// e.g. its expected outputs, before it runs.
    CaseResult run(const Plan& plan, std::uint64_t seed, const std::function<void(BuiltDesign&)>& tamper = {}) const;

    /// Tallies over many cases.
    struct Tally {
        std::array<std::uint64_t, kEndings> count{};
        std::array<std::uint64_t, kEndings> well_formed{};
        std::map<std::string, std::uint64_t> faults_seen; ///< planted fault -> cases
        std::uint64_t cases = 0;
        std::uint64_t bugs() const;
    };
    void add(Tally& t, const Plan& p, const CaseResult& r) const;

private:
    FuzzLimits limits_;
};

} // namespace npusim::fuzz
