#pragma once
// The host's runtime sequence, executed in order: start tasks (push onto a shim channel's task
// queue), await tasks (block until the completion token), free tasks, write buffers (RTP) and
// set locks (barriers). When it has run to the end, the simulation stops.
#include "ProcessClock.hpp"

namespace npusim::sim {

class SimEngine;

class RuntimeController {
public:
    explicit RuntimeController(SimEngine& eng);
    void spawn(std::size_t stack_bytes);
    ProcessState& state() { return ps_; }
    int waiting_task() const { return waiting_; }

private:
    void run();
    SimEngine& eng_;
    ProcessClock clk_;
    ProcessState ps_;
    int waiting_ = -1;
    int track_ = -1;
};

} // namespace npusim::sim
