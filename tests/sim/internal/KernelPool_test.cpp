// KernelPool: kernel_threads = N runs N calls at once with N - 1 pool threads, the waiting thread
// running queued calls itself; every call runs exactly once, and wait() returns only when its own
// call is done.
#include "KernelPool.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
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
