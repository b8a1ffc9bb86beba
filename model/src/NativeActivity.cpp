#include "npusim/model/NativeActivity.hpp"

#include <atomic>
#include <cstring>
#include <fmt/format.h>

namespace npusim::model {

namespace {
// One slot; written by the simulating thread, read by a watchdog. Each field is atomic; a reader
// may see a mix of two consecutive activities, which only matters for a report written while the
// code is still moving (the watchdog reports code that has stopped moving).
std::atomic<int> g_phase{0};
std::atomic<const char*> g_worker{nullptr};
std::atomic<std::size_t> g_worker_len{0};
std::atomic<const char*> g_kernel{nullptr};
std::atomic<std::size_t> g_kernel_len{0};
std::atomic<std::uint64_t> g_cycle{0};

// A kernel thread's own activity (NativeActivity::enter_thread).
struct ThreadSlot {
    bool active = false;
    const char* worker = nullptr;
    std::size_t worker_len = 0;
    const char* kernel = nullptr;
    std::size_t kernel_len = 0;
    std::uint64_t cycle = 0;
};
thread_local ThreadSlot t_slot;

void store(int phase, const char* w, std::size_t wl, const char* k, std::size_t kl, std::uint64_t c) noexcept {
    g_worker.store(w, std::memory_order_relaxed);
    g_worker_len.store(wl, std::memory_order_relaxed);
    g_kernel.store(k, std::memory_order_relaxed);
    g_kernel_len.store(kl, std::memory_order_relaxed);
    g_cycle.store(c, std::memory_order_relaxed);
    g_phase.store(phase, std::memory_order_release);
}
} // namespace

void NativeActivity::enter(Phase phase, std::string_view worker, std::string_view kernel,
                           std::uint64_t cycle) noexcept {
    store(static_cast<int>(phase), worker.data(), worker.size(), kernel.data(), kernel.size(), cycle);
}

void NativeActivity::leave() noexcept { store(0, nullptr, 0, nullptr, 0, 0); }

void NativeActivity::enter_thread(std::string_view worker, std::string_view kernel, std::uint64_t cycle) noexcept {
    t_slot = {true, worker.data(), worker.size(), kernel.data(), kernel.size(), cycle};
}

void NativeActivity::leave_thread() noexcept { t_slot = {}; }

std::string NativeActivity::describe() {
    const int phase = g_phase.load(std::memory_order_acquire);
    if (phase == 0) return {};
    const std::string worker(g_worker.load(std::memory_order_relaxed) ? g_worker.load() : "",
                             g_worker.load() ? g_worker_len.load() : 0);
    const char* k = g_kernel.load(std::memory_order_relaxed);
    const std::string kernel(k ? k : "", k ? g_kernel_len.load() : 0);
    const auto cycle = g_cycle.load(std::memory_order_relaxed);
    const std::string what = kernel.empty() ? "its body" : fmt::format("kernel '{}'", kernel);
    if (static_cast<Phase>(phase) == Phase::Trace)
        return fmt::format("worker '{}' is running {} in the resolve-time trace of its body", worker, what);
    return fmt::format("worker '{}' is running {} (entered at cycle {} of the simulation)", worker, what, cycle);
}

bool NativeActivity::describe_into(char* buf, std::size_t size) noexcept {
    if (size == 0) return false;
    const bool own = t_slot.active;
    const int phase = own ? static_cast<int>(Phase::Simulation) : g_phase.load(std::memory_order_acquire);
    if (phase == 0) return false;
    const char* worker = own ? t_slot.worker : g_worker.load();
    const std::size_t worker_len = own ? t_slot.worker_len : g_worker_len.load();
    const char* kernel = own ? t_slot.kernel : g_kernel.load();
    const std::size_t kernel_len = own ? t_slot.kernel_len : g_kernel_len.load();
    std::size_t at = 0;
    auto add = [&](const char* s, std::size_t n) {
        for (std::size_t i = 0; i < n && at + 1 < size; ++i) buf[at++] = s[i];
    };
    auto adds = [&](const char* s) { add(s, std::strlen(s)); };
    adds("worker '");
    if (worker) add(worker, worker_len);
    adds("' was running ");
    if (kernel) {
        adds("kernel '");
        add(kernel, kernel_len);
        adds("'");
    } else {
        adds("its body");
    }
    if (static_cast<Phase>(phase) == Phase::Trace) {
        adds(" in the resolve-time trace of its body");
    } else {
        char num[32];
        int n = 0;
        auto c = own ? t_slot.cycle : g_cycle.load();
        do {
            num[n++] = static_cast<char>('0' + c % 10);
            c /= 10;
        } while (c && n < 31);
        adds(" (entered at cycle ");
        while (n > 0) add(&num[--n], 1);
        adds(")");
    }
    buf[at] = 0;
    return true;
}

NativeActivityScope::NativeActivityScope(NativeActivity::Phase phase, std::string_view worker, std::string_view kernel,
                                         std::uint64_t cycle) noexcept
    : saved_{g_phase.load(),  g_worker.load(),     g_worker_len.load(),
             g_kernel.load(), g_kernel_len.load(), g_cycle.load()} {
    NativeActivity::enter(phase, worker, kernel, cycle);
}

NativeActivityScope::~NativeActivityScope() {
    store(saved_.phase, saved_.worker, saved_.worker_len, saved_.kernel, saved_.kernel_len, saved_.cycle);
}

} // namespace npusim::model
