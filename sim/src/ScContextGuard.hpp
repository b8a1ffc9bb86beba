#pragma once
// One SystemC simulation context per run: SystemC allows one elaboration per context, so each
// run (and each engine unit test) makes a fresh one.
#ifndef SC_INCLUDE_DYNAMIC_PROCESSES
#define SC_INCLUDE_DYNAMIC_PROCESSES
#endif
#include <systemc>

namespace npusim::sim {

/// Creates a fresh sc_simcontext and makes it current; deletes it on destruction.
class ScContextGuard {
public:
    ScContextGuard();
    ~ScContextGuard();
    ScContextGuard(const ScContextGuard&) = delete;
    ScContextGuard& operator=(const ScContextGuard&) = delete;

private:
    sc_core::sc_simcontext* ctx_;
};

} // namespace npusim::sim
