#include "MemoryFences.hpp"

#include <atomic>
#include <cstdint>

namespace npusim::sim {

namespace {

// A fixed table of [begin, end) address ranges; a slot whose begin is 0 is free. Beyond its size
// fences are simply not registered (a fault there is reported as any other invalid access).
constexpr std::size_t kSlots = 1024;
struct Slot {
    std::atomic<std::uintptr_t> begin{0};
    std::atomic<std::uintptr_t> end{0};
};
Slot g_slots[kSlots];

} // namespace

bool in_memory_fence(const void* addr) noexcept {
    const auto a = reinterpret_cast<std::uintptr_t>(addr);
    for (auto& s : g_slots) {
        const auto b = s.begin.load(std::memory_order_acquire);
        if (b != 0 && a >= b && a < s.end.load(std::memory_order_acquire)) return true;
    }
    return false;
}

void add_memory_fence(const void* begin, std::size_t bytes) noexcept {
    const auto b = reinterpret_cast<std::uintptr_t>(begin);
    for (auto& s : g_slots) {
        std::uintptr_t free = 0; // a free slot's end is 0 too: no range until end is set
        if (s.begin.compare_exchange_strong(free, b, std::memory_order_acq_rel)) {
            s.end.store(b + bytes, std::memory_order_release);
            return;
        }
    }
}

void remove_memory_fence(const void* begin) noexcept {
    const auto b = reinterpret_cast<std::uintptr_t>(begin);
    for (auto& s : g_slots) {
        std::uintptr_t expected = b;
        if (s.begin.load(std::memory_order_acquire) != b) continue;
        s.end.store(0, std::memory_order_release);
        if (s.begin.compare_exchange_strong(expected, 0, std::memory_order_acq_rel)) return;
    }
}

} // namespace npusim::sim
