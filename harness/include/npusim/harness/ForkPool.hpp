#pragma once
// ForkPool: runs tasks 0..n-1 in forked worker processes, at most `jobs` at a time, each child
// computing one RunOutcome and writing it back through a pipe. A child that crashes becomes a
// Crashed outcome, one that runs past the time limit is killed and becomes a Timeout: a batch of
// runs never hangs or dies with one of them. Used by DepthAnalysis and Sweep.
#include "npusim/harness/RunOutcome.hpp"

#include <cstddef>
#include <functional>

namespace npusim::harness {

class ForkPool {
public:
    /// jobs 0: the machine's hardware threads.
    explicit ForkPool(unsigned jobs = 0, double timeout_seconds = 600);
    unsigned jobs() const { return jobs_; }

    /// task(i) runs in a child (its stdout goes to /dev/null; crash handlers are the defaults);
    /// done(i, outcome, wall seconds of the child) runs in this process as each child ends, in the
    /// order they end. If done() throws, the remaining children are killed and the exception
    /// propagates.
    void run(std::size_t n, const std::function<RunOutcome(std::size_t)>& task,
             const std::function<void(std::size_t, const RunOutcome&, double)>& done) const;

private:
    unsigned jobs_;
    double timeout_seconds_;
};

} // namespace npusim::harness
