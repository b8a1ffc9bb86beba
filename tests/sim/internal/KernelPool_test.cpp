// KernelPool: kernel_threads = N runs N calls at once with N - 1 pool threads, the waiting thread
// running queued calls itself; every call runs exactly once, and wait() returns only when its own
// call is done.
#include "KernelPool.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <functional>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace npusim::sim;

TEST_CASE("the kernel pool runs N calls at once with N - 1 threads and the waiting thread helping",
          "[sim][kernel-pool]") {
    constexpr int calls = 16;
    std::mutex m;
    std::set<std::thread::id> threads; // every thread that ran a call
    std::atomic<int> ran[calls] = {};
    std::atomic<int> running{0}, most{0};
    std::vector<std::function<void()>> work;
    for (int i = 0; i < calls; ++i)
        work.emplace_back([&, i] {
            const int now = ++running;
            for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {}
            {
                const std::lock_guard lk(m);
                threads.insert(std::this_thread::get_id());
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            ++ran[i];
            --running;
        });
    std::vector<KernelPool::Task> tasks(calls);
    {
        KernelPool pool(2, 1 << 20); // one pool thread
        for (int i = 0; i < calls; ++i) {
            tasks[static_cast<std::size_t>(i)].run = &work[static_cast<std::size_t>(i)];
            pool.submit(tasks[static_cast<std::size_t>(i)]);
        }
        pool.wait(tasks[0]);
        CHECK(tasks[0].done.load());
        CHECK(ran[0] == 1);
        for (auto& t : tasks) pool.wait(t);
        for (int i = 0; i < calls; ++i) CHECK(ran[i] == 1);
    }
    // The waiting thread ran calls too (the first wait found the queue full), and never more than
    // two ran at once: one pool thread plus the waiter.
    CHECK(threads.count(std::this_thread::get_id()) == 1);
    CHECK(threads.size() == 2);
    CHECK(most.load() <= 2);
    CHECK(most.load() == 2);
}

// An idle pool thread watches the queue for KernelPool::kIdleSpin (100 us) and then sleeps: a
// pool left idle for 300 ms costs the process about 100 us of CPU, not 300 ms. (A spin without
// its time bound fails this: the process's CPU time then grows with the wall time.)
TEST_CASE("an idle kernel pool thread spins briefly and then sleeps", "[sim][kernel-pool]") {
    const auto cpu_now = [] {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
    };
    std::function<void()> nothing = [] {};
    KernelPool pool(2, 1 << 20);
    CHECK(pool.spins() == (std::thread::hardware_concurrency() >= 2));
    // More threads than CPUs: none of them spins (a spinning thread would take a CPU from one
    // with work).
    CHECK_FALSE(KernelPool(std::thread::hardware_concurrency() + 2, 1 << 20).spins());
    KernelPool::Task t;
    t.run = &nothing;
    pool.submit(t); // starts the pool thread
    pool.wait(t);
    const auto cpu0 = cpu_now();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const auto cpu = cpu_now() - cpu0;
    CHECK(std::chrono::duration_cast<std::chrono::milliseconds>(cpu).count() < 60);
    // ... and a call handed over later still runs.
    KernelPool::Task u;
    int runs = 0;
    std::function<void()> count = [&] { ++runs; };
    u.run = &count;
    pool.submit(u);
    pool.wait(u);
    CHECK(runs == 1);
}
