#pragma once
// KernelPool: OS threads that run native kernel calls while the simulation thread carries on
// with other processes (SimOptions::kernel_threads). A core submits a call, waits in SystemC
// until the call's modelled end, and then joins it (CoreProcess::kernel_call); the pool only
// runs the native code and hands back what it threw. Its threads have the core processes' host
// stack size (SimOptions::core_stack_bytes) and an alternate signal stack each, so a kernel that
// overflows or faults on a pool thread is reported like one on a core's coroutine stack.
#include "npusim/model/CoreServices.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <pthread.h>
#include <string_view>
#include <vector>

namespace npusim::sim {

/// A kernel's host time, for the pool's choice (SimOptions::kernel_pool_min_nanos). A call on the
/// simulating thread is timed when it is the kernel's first or follows kRetimeEvery - 1 untimed
/// ones (two clock reads cost about as much as a short kernel's whole call); a pooled call always
/// is (the pool times it anyway).
struct KernelTiming {
    static constexpr std::uint32_t kRetimeEvery = 32;
    std::string_view kernel;
    std::uint64_t nanos = 0; ///< its last timed call
    std::uint32_t untimed = 0; ///< calls on the simulating thread since then
};

class KernelPool {
public:
    /// One kernel call handed to the pool. It lives with the core that submitted it, which joins
    /// it (wait) before the call's memory is used again or its stack frame is left.
    struct Task {
        const std::function<void()>* run = nullptr;
        model::CoreServices* services = nullptr; ///< CoreServices::current() while it runs
        std::string_view worker; ///< for the crash report (NativeActivity)
        std::string_view kernel;
        std::uint64_t cycle = 0;
        std::exception_ptr error; ///< what run threw
        std::uint64_t nanos = 0; ///< its native wall time
        std::atomic<bool> done{false};
    };

    /// `threads` calls at once: threads - 1 OS threads (at least 1) of `stack_bytes` host stack
    /// each, started at the first submit (a run whose calls all stay on the simulating thread
    /// starts none), and the thread that waits (wait() runs queued calls). If the system refuses
    /// them all, submit runs each call itself.
    KernelPool(unsigned threads, std::size_t stack_bytes);
    /// Finishes every submitted task, then ends the threads.
    ~KernelPool();
    KernelPool(const KernelPool&) = delete;
    KernelPool& operator=(const KernelPool&) = delete;

    /// Hand `t` over (or run it now if no thread could be started).
    void submit(Task& t);
    /// Block until `t` is done, running queued tasks meanwhile: `t` itself if no thread has started
    /// it (no hand-back latency), else the oldest queued one; with nothing queued, wait for `t`,
    /// spinning briefly first.
    void wait(Task& t);
    /// Block until no submitted task is running or queued.
    void wait_all();
    /// Whether idle pool threads spin before sleeping (idle_spin): only when the pool's threads
    /// and the waiting thread together are no more than the CPUs (hardware_concurrency).
    bool spins() const { return spin_; }

private:
    static void* thread_main(void* self);
    static void execute(Task& t);
    void start();
    unsigned wanted_;
    std::size_t stack_bytes_;
    bool spin_;
    bool started_ = false;
    void work();
    /// An idle pool thread watches the queue for kIdleSpin before it sleeps on the condition
    /// variable: a call handed over within that time starts without a futex wake-up (tens of
    /// microseconds, often more than the gap between two calls). Measured in docs/performance.md.
    void idle_spin() const;
    static constexpr std::chrono::microseconds kIdleSpin{100};
    std::mutex m_;
    std::condition_variable wake_; ///< a task was queued or the pool stops
    std::condition_variable done_; ///< a task finished
    std::deque<Task*> queue_;
    std::atomic<std::size_t> queued_{0}; ///< queue_.size(), read without the lock by idle threads
    std::size_t running_ = 0;
    bool stop_ = false;
    std::vector<pthread_t> threads_;
};

} // namespace npusim::sim
