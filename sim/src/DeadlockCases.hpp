#pragma once
// DeadlockCases: the table of deadlock cases, the single place that names a deadlock. Each row is
// one case of docs/deadlocks.md: its id, its title, the function that decides whether the stopped
// run is that case, and the function that explains it in design terms with the usual fix. The
// rows are tried in order and the first that matches names the case, so a row may rely on the rows
// before it not matching (a finished worker that starves a cascade is a cascade case, not a
// finished_worker). Adding a case means adding a row (and its section in docs/deadlocks.md).
#include "CausalChain.hpp"
#include "StoppedRun.hpp"
#include "npusim/sim/Diagnosis.hpp"

#include <span>
#include <string>

namespace npusim::sim {

/// What a case looks at: the stopped run and its causal chain.
struct CaseFacts {
    CaseFacts(const StoppedRun& r, const CausalChain& c);
    const StoppedRun& run;
    const CausalChain& chain;
    const ProcessView* head = nullptr; ///< the chain's first process (the runtime sequence, usually)
    const ProcessView* terminal = nullptr; ///< the root cause the chain ends at, nullptr if none
};

struct DeadlockCase {
    const char* id; ///< "fill_less_than_consumed"
    const char* title; ///< "starvation: the sequence fills less than the design consumes"
    bool (*matches)(const CaseFacts&); ///< the run is this case (given that no earlier row matched)
    std::string (*explain)(const CaseFacts&); ///< what is wrong and the usual fix; called after matches
    /// When set, the title for these facts instead of `title` (a variant of the same case).
    const char* (*retitle)(const CaseFacts&) = nullptr;
};

/// Every case, in the order they are tried. The last row, "unknown", matches any run.
std::span<const DeadlockCase> deadlock_cases();

/// Names the case of a deadlock: sets d.case_id, d.case_title and d.case_explanation from the first
/// row of deadlock_cases() that matches.
void name_case(const StoppedRun& run, const CausalChain& chain, Diagnosis& d);

} // namespace npusim::sim
