#pragma once
// An AIE2 semaphore lock: value 0..max, acquire-greater-equal (wait until >= v, subtract v),
// acquire-equal (wait until == v, no change), release (add v). Over- or underflow is a protocol
// violation (the hardware sets a sticky error bit and the design is broken).
#include "ProcessClock.hpp"

#include <string>
#include <systemc>

namespace npusim::sim {

class SimEngine;

class SemaphoreLock {
public:
    SemaphoreLock(SimEngine& eng, int index, std::string name, std::string where, int init, int max_value, int track);

    void acquire_ge(int v, ProcessClock& clk, ProcessState& ps, const std::string& who, std::uint64_t* stall = nullptr);
    void acquire_eq(int v, ProcessClock& clk, ProcessState& ps, const std::string& who, std::uint64_t* stall = nullptr);
    void release(int v, ProcessClock& clk, const std::string& who);
    void set(int v, ProcessClock& clk, const std::string& who);

    int value() const { return value_; }
    const std::string& name() const { return name_; }
    const std::string& where() const { return where_; }
    const std::string& last_releaser() const { return last_releaser_; }

private:
    void changed(std::uint64_t cycle);
    SimEngine& eng_;
    int index_;
    std::string name_;
    std::string where_;
    int value_;
    int max_;
    int track_;
    std::string last_releaser_;
    sc_core::sc_event event_;
};

} // namespace npusim::sim
