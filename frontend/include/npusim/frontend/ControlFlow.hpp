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
    virtual void record_loop(std::int64_t count, const std::function<void(std::int64_t)>& body) = 0;
};
} // namespace detail

/// `for i in range_(count)`: body(i) for i = 0..count-1; exported as one scf.for.
template <class Body>
void range_(std::int64_t count, Body&& body) {
    if (auto* rec = dynamic_cast<detail::LoopRecorder*>(model::CoreServices::current())) {
        rec->record_loop(count, [&](std::int64_t i) { body(i); });
        return;
    }
    for (std::int64_t i = 0; i < count; ++i) body(i);
}

} // namespace npusim::iron
