#pragma once
// NativeActivity: what native design code (a worker body or a kernel) the simulating thread is
// running right now, readable from another thread. SystemC runs every process of a run on one OS
// thread, so one slot describes the native code it runs; kernels handed to kernel threads have a
// per-thread slot of their own. A
// watchdog thread reads it when a wall-clock limit passes without the simulation returning, to say
// which body or kernel never returned (`npusim run --timeout`).
#include <cstdint>
#include <string>
#include <string_view>

namespace npusim::model {

class NativeActivity {
public:
    enum class Phase : int { None, Trace, Simulation };
    /// Native code starts: `worker`'s body (kernel empty) or its kernel `kernel`, at `cycle`. The
    /// views must stay valid until leave() (worker and kernel names live as long as the design).
    static void enter(Phase phase, std::string_view worker, std::string_view kernel, std::uint64_t cycle) noexcept;
    /// Back in the simulator (or the resolver).
    static void leave() noexcept;
    /// A kernel running on a kernel thread (SimOptions::kernel_threads) rather than on the
    /// simulating thread: recorded for this thread only, for describe_into() called on it (the
    /// crash report of a fault in that kernel). The slot above keeps the simulating thread's.
    static void enter_thread(std::string_view worker, std::string_view kernel, std::uint64_t cycle) noexcept;
    static void leave_thread() noexcept;
    /// "worker 'w' is running kernel 'k' (entered at cycle 1,234 of the simulation)", or "" when
    /// no native code runs.
    static std::string describe();
    /// describe() into `buf` without allocating (for a signal handler): false when no native code
    /// runs. On a kernel thread, describes that thread's kernel. Truncates to `size`.
    static bool describe_into(char* buf, std::size_t size) noexcept;
};

/// Enters on construction, restores the previous activity on destruction (a kernel inside a body).
class NativeActivityScope {
public:
    NativeActivityScope(NativeActivity::Phase phase, std::string_view worker, std::string_view kernel,
                        std::uint64_t cycle) noexcept;
    ~NativeActivityScope();
    NativeActivityScope(const NativeActivityScope&) = delete;
    NativeActivityScope& operator=(const NativeActivityScope&) = delete;

private:
    struct Saved {
        int phase;
        const char* worker;
        std::size_t worker_len;
        const char* kernel;
        std::size_t kernel_len;
        std::uint64_t cycle;
    } saved_;
};

} // namespace npusim::model
