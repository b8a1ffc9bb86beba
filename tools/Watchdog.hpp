#pragma once
// Watchdog: a thread that acts when a wall-clock limit passes and nobody cancelled it - for code
// that cannot be stopped from inside (a worker body or kernel looping natively, during the
// simulation or the resolve-time trace). Destroying the watchdog cancels it.
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace npusim::tools {

class Watchdog {
public:
    /// The longest wait, ten years: a longer one (up to infinity) waits this long, as its deadline
    /// would overflow the clock (steady_clock counts nanoseconds in 64 bits, about 292 years).
    static constexpr double kMaxSeconds = 10 * 365.25 * 86400;
    /// Call `on_fire` after `seconds` (at most kMaxSeconds; NaN: kMaxSeconds) unless destroyed first. `on_fire` runs on the watchdog's
    /// thread while the main thread is stuck; it should end the process (std::_Exit).
    Watchdog(double seconds, std::function<void()> on_fire);
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

private:
    std::mutex m_;
    std::condition_variable cv_;
    bool cancelled_ = false;
    std::thread thread_;
};

} // namespace npusim::tools
