#include "Watchdog.hpp"

#include <chrono>

namespace npusim::tools {

Watchdog::Watchdog(double seconds, std::function<void()> on_fire) {
    const double wait = seconds < kMaxSeconds ? seconds : kMaxSeconds; // NaN too
    thread_ = std::thread([this, wait, fire = std::move(on_fire)] {
        std::unique_lock<std::mutex> lock(m_);
        const auto deadline =
            std::chrono::steady_clock::now() +
            std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(wait));
        if (!cv_.wait_until(lock, deadline, [this] { return cancelled_; })) {
            lock.unlock();
            fire();
        }
    });
}

Watchdog::~Watchdog() {
    {
        const std::lock_guard<std::mutex> lock(m_);
        cancelled_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

} // namespace npusim::tools
