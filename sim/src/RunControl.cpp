#include "RunControl.hpp"

#ifndef SC_INCLUDE_DYNAMIC_PROCESSES
#define SC_INCLUDE_DYNAMIC_PROCESSES
#endif
#include <systemc>

namespace npusim::sim {

void RunControl::record(SimulationError err) {
    if (!error_) error_ = std::move(err);
    sc_core::sc_pause();
}

void RunControl::fail(SimulationError err) {
    record(std::move(err));
    throw ProcessAbort{};
}

void RunControl::finish() {
    finished_ = true;
    sc_core::sc_pause();
}

} // namespace npusim::sim
