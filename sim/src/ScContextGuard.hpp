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

    /// After control comes back from SystemC (sc_start returned): tells AddressSanitizer that this
    /// thread runs on its own stack again. SystemC 2.3.4 announces each coroutine switch to ASan
    /// (__sanitizer_start_switch_fiber in sc_cor_pkg_qt::yield) but not the switch out of a
    /// process that ends (sc_cor_pkg_qt::abort) and gives the main coroutine an empty stack, so
    /// after a run ASan (and LeakSanitizer at exit) would still take a coroutine stack, since
    /// unmapped or reused, for the thread's stack. No-op without ASan.
    static void restore_thread_stack();
    ScContextGuard& operator=(const ScContextGuard&) = delete;

private:
    sc_core::sc_simcontext* ctx_;
};

} // namespace npusim::sim
