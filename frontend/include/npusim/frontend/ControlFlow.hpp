#pragma once
// Control-flow helpers for worker bodies, as IRON's range_ (python/helpers/dialects/scf.py _for,
// re-exported by python/iron/worker.py as range_): in simulation and in resolve's body trace the
// loop simply runs; the MLIR exporter records it once as an scf.for. A plain C++ loop in a body
// unrolls in the export, as a Python loop does in IRON.
#include "npusim/model/CoreServices.hpp"

#include <cstdint>
#include <functional>

namespace npusim::iron {

namespace detail {
/// Implemented by the services of a body being exported: records a loop instead of running it.
class LoopRecorder {
public:
    virtual ~LoopRecorder() = default;
    /// `scf.for %i = start to stop step step`, its region traced by calling body once (twice when
    /// it runs at least twice, to check the region does not depend on the index).
    virtual void record_loop(std::int64_t start, std::int64_t stop, std::int64_t step,
                             const std::function<void(std::int64_t)>& body) = 0;
};
[[noreturn]] void throw_bad_range_step(std::int64_t step);
} // namespace detail

/// `for i in range_(start, stop, step)`: body(i) for i = start, start+step, ... < stop; exported as
/// one scf.for. The step must be positive (scf.for's verifier: "constant step operand must be
/// positive"); an empty range runs nothing (and still exports its region, as IRON traces it).
template <class Body>
void range_(std::int64_t start, std::int64_t stop, std::int64_t step, Body&& body) {
    if (step <= 0) detail::throw_bad_range_step(step);
    if (auto* rec = dynamic_cast<detail::LoopRecorder*>(model::CoreServices::current())) {
        rec->record_loop(start, stop, step, [&](std::int64_t i) { body(i); });
        return;
    }
    for (std::int64_t i = start; i < stop; i += step) {
        body(i);
        if (stop - i <= step) break; // no overflow past INT64_MAX
    }
}
/// `for i in range_(start, stop)`.
template <class Body>
void range_(std::int64_t start, std::int64_t stop, Body&& body) {
    range_(start, stop, 1, std::forward<Body>(body));
}
/// `for i in range_(count)`: body(i) for i = 0..count-1.
template <class Body>
void range_(std::int64_t count, Body&& body) {
    range_(0, count, 1, std::forward<Body>(body));
}

} // namespace npusim::iron
