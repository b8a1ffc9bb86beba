#include "KernelPool.hpp"

#include "CoroutineStackCache.hpp"

#include "npusim/model/NativeActivity.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <memory>
#include <sched.h>
#include <thread>

namespace npusim::sim {

namespace {
inline void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
}
} // namespace

KernelPool::KernelPool(unsigned threads, std::size_t stack_bytes)
    : wanted_(std::max(1u, threads > 1 ? threads - 1 : 1)), stack_bytes_(stack_bytes),
      // Spinning pays only when every thread has a CPU: with more threads than CPUs a spinning
      // pool thread takes time from the simulating thread or from a thread with a call to run.
      spin_(wanted_ + 1 <= std::max(1u, std::thread::hardware_concurrency())) {}

void KernelPool::start() {
    started_ = true;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, stack_bytes_);
    // As the cores' stacks: a large inaccessible region below the stack, so that a kernel frame
    // larger than the stack faults there instead of writing into other memory.
    pthread_attr_setguardsize(&attr, CoroutineStackCache::kGuardBytes);
    for (unsigned i = 0; i < wanted_; ++i) {
        pthread_t t;
        if (pthread_create(&t, &attr, &KernelPool::thread_main, this) != 0) break;
        threads_.push_back(t);
    }
    pthread_attr_destroy(&attr);
}

KernelPool::~KernelPool() {
    {
        std::unique_lock lk(m_);
        done_.wait(lk, [&] { return queue_.empty() && running_ == 0; });
        stop_ = true;
    }
    wake_.notify_all();
    for (auto t : threads_) pthread_join(t, nullptr);
}

void* KernelPool::thread_main(void* self) {
    // The crash reporter's handler runs on the faulting thread: give this one its own signal stack.
    constexpr std::size_t alt_bytes = 1 << 16;
    const auto alt = std::make_unique<char[]>(alt_bytes);
    stack_t ss{};
    ss.ss_sp = alt.get();
    ss.ss_size = alt_bytes;
    ::sigaltstack(&ss, nullptr);
    static_cast<KernelPool*>(self)->work();
    ss.ss_flags = SS_DISABLE;
    ::sigaltstack(&ss, nullptr);
    return nullptr;
}

void KernelPool::work() {
    for (;;) {
        Task* t = nullptr;
        idle_spin();
        {
            std::unique_lock lk(m_);
            wake_.wait(lk, [&] { return stop_ || !queue_.empty(); });
            if (queue_.empty()) return;
            t = queue_.front();
            queue_.pop_front();
            queued_.store(queue_.size(), std::memory_order_relaxed);
            ++running_;
        }
        execute(*t);
        {
            const std::lock_guard lk(m_);
            t->done.store(true, std::memory_order_release);
            --running_;
        }
        done_.notify_all();
    }
}

void KernelPool::idle_spin() const {
    if (!spin_) return;
    const auto until = std::chrono::steady_clock::now() + kIdleSpin;
    while (queued_.load(std::memory_order_relaxed) == 0) {
        for (int i = 0; i < 16; ++i) spin_pause();
        if (std::chrono::steady_clock::now() >= until) return;
    }
}

void KernelPool::execute(Task& t) {
    const auto start = std::chrono::steady_clock::now();
    auto* const saved = model::CoreServices::current();
    model::CoreServices::set_current(t.services);
    model::NativeActivity::enter_thread(t.worker, t.kernel, t.cycle);
    try {
        (*t.run)();
    } catch (...) {
        t.error = std::current_exception();
    }
    model::NativeActivity::leave_thread();
    model::CoreServices::set_current(saved);
    t.nanos = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
}

void KernelPool::submit(Task& t) {
    if (!started_) start();
    if (threads_.empty()) { // the system refused every thread: run the call here
        execute(t);
        t.done.store(true, std::memory_order_release);
        return;
    }
    {
        const std::lock_guard lk(m_);
        t.done.store(false, std::memory_order_relaxed);
        t.error = nullptr;
        queue_.push_back(&t);
        queued_.store(queue_.size(), std::memory_order_relaxed);
    }
    wake_.notify_one();
}

void KernelPool::wait(Task& t) {
    // Until `t` is done, the waiting (simulating) thread works too: `t` itself if no pool thread
    // took it yet, else the oldest call still queued. Only when nothing is queued does it wait for
    // `t` on its pool thread. So `threads` calls run at once with threads - 1 pool threads.
    for (;;) {
        Task* help = nullptr;
        {
            const std::lock_guard lk(m_);
            if (t.done.load(std::memory_order_acquire)) return;
            const auto it = std::find(queue_.begin(), queue_.end(), &t);
            if (it != queue_.end()) {
                help = &t;
                queue_.erase(it);
            } else if (!queue_.empty()) {
                help = queue_.front();
                queue_.pop_front();
            }
            queued_.store(queue_.size(), std::memory_order_relaxed);
            if (help) ++running_;
        }
        if (!help) break;
        execute(*help);
        {
            const std::lock_guard lk(m_);
            help->done.store(true, std::memory_order_release);
            --running_;
        }
        done_.notify_all();
        if (help == &t) return;
    }
    // It runs on a pool thread: give the CPU to it for a while before sleeping on the condition.
    for (int i = 0; i < 50; ++i) {
        if (t.done.load(std::memory_order_acquire)) return;
        sched_yield();
    }
    std::unique_lock lk(m_);
    done_.wait(lk, [&] { return t.done.load(std::memory_order_acquire); });
}

void KernelPool::wait_all() {
    std::unique_lock lk(m_);
    done_.wait(lk, [&] { return queue_.empty() && running_ == 0; });
}

} // namespace npusim::sim
