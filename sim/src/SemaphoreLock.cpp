#include "SemaphoreLock.hpp"

#include "SimEngine.hpp"

#include <fmt/format.h>

namespace npusim::sim {

SemaphoreLock::SemaphoreLock(SimEngine& eng, int index, std::string name, std::string where, int init, int max_value,
                             int track)
    : eng_(eng), index_(index), name_(std::move(name)), where_(std::move(where)), value_(init), max_(max_value),
      track_(track) {}

void SemaphoreLock::changed(std::uint64_t cycle) {
    if (eng_.trace() && track_ >= 0) eng_.trace()->counter(track_, cycle, value_);
}

void SemaphoreLock::acquire_ge(int v, ProcessClock& clk, ProcessState& ps, const std::string& who, std::uint64_t* stall) {
    (void)who;
    const auto lat = eng_.timing().lock_acquire_cycles;
    if (value_ >= v) {
        value_ -= v;
        changed(clk.local_cycles());
        clk.pending += lat;
        return;
    }
    clk.sync();
    const auto start = now_cycles();
    ps.status = ProcessState::Status::WaitLock;
    ps.lock = index_;
    ps.want = v;
    ps.equal = false;
    while (value_ < v) clk.wait(event_);
    ps.status = ProcessState::Status::Running;
    value_ -= v;
    changed(now_cycles());
    if (stall) *stall += now_cycles() - start;
    clk.pending += lat;
}

void SemaphoreLock::acquire_eq(int v, ProcessClock& clk, ProcessState& ps, const std::string& who, std::uint64_t* stall) {
    (void)who;
    const auto lat = eng_.timing().lock_acquire_cycles;
    if (value_ == v) {
        clk.pending += lat;
        return;
    }
    clk.sync();
    const auto start = now_cycles();
    ps.status = ProcessState::Status::WaitLock;
    ps.lock = index_;
    ps.want = v;
    ps.equal = true;
    while (value_ != v) clk.wait(event_);
    ps.status = ProcessState::Status::Running;
    if (stall) *stall += now_cycles() - start;
    clk.pending += lat;
}

void SemaphoreLock::release(int v, ProcessClock& clk, const std::string& who) {
    clk.sync();
    if (value_ + v > max_)
        eng_.fail(SimulationError(
            SimulationError::Kind::Protocol,
            fmt::format("lock '{}' on {} overflows: value {} + release {} exceeds {} (released by {}); a release without "
                        "a matching acquire",
                        name_, where_, value_, v, max_, who)));
    value_ += v;
    last_releaser_ = who;
    changed(now_cycles());
    event_.notify();
    clk.pending += eng_.timing().lock_release_cycles;
}

void SemaphoreLock::set(int v, ProcessClock& clk, const std::string& who) {
    clk.sync();
    if (v < 0 || v > max_)
        eng_.fail(SimulationError(SimulationError::Kind::Protocol,
                                         fmt::format("lock '{}' on {}: set to {} outside 0..{} (by {})", name_, where_, v, max_, who)));
    value_ = v;
    last_releaser_ = who;
    changed(now_cycles());
    event_.notify();
}

} // namespace npusim::sim
