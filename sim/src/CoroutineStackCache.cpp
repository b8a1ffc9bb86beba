#include "CoroutineStackCache.hpp"

#if !defined(__SANITIZE_ADDRESS__)
#define NPUSIM_STACK_CACHE 1
#endif

#if NPUSIM_STACK_CACHE
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <link.h>
#include <mutex>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>
#endif

namespace npusim::sim {

#if NPUSIM_STACK_CACHE
namespace {

// Raw system calls: these definitions replace libc's for everybody.
void* sys_mmap(void* addr, std::size_t len, int prot, int flags, int fd, off_t off) {
    return reinterpret_cast<void*>(::syscall(SYS_mmap, addr, len, prot, flags, fd, off));
}
int sys_munmap(void* addr, std::size_t len) { return static_cast<int>(::syscall(SYS_munmap, addr, len)); }
int sys_mprotect(void* addr, std::size_t len, int prot) {
    return static_cast<int>(::syscall(SYS_mprotect, addr, len, prot));
}

// Where libsystemc's code is: [begin, end) of its executable segments, found once.
struct CodeRange {
    std::uintptr_t begin = 0, end = 0;
};
int find_systemc(dl_phdr_info* info, std::size_t, void* out) {
    if (!info->dlpi_name || !std::strstr(info->dlpi_name, "libsystemc")) return 0;
    auto* r = static_cast<CodeRange*>(out);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
        const auto b = info->dlpi_addr + ph.p_vaddr;
        r->begin = r->begin ? std::min<std::uintptr_t>(r->begin, b) : b;
        r->end = std::max<std::uintptr_t>(r->end, b + ph.p_memsz);
    }
    return 1;
}

struct Block {
    void* base; ///< what libsystemc got: its stack, guard page included
    std::size_t len;
    void* map_base = nullptr; ///< the whole mapping: kGuardBytes of guard, then the stack
    std::size_t map_len = 0;
    std::uintptr_t none_begin = 0, none_end = 0; ///< the range protected PROT_NONE (the guard page)
};

class Cache {
public:
    static Cache& get() {
        static Cache* c = new Cache; // made on first use, never destroyed (calls come during exit too)
        return *c;
    }
    bool enabled() const { return enabled_; }
    /// libsystemc's stack calls come here (to widen the guard) even when caching is turned off.
    bool interposing() const { return interposing_; }
    bool from_systemc(const void* ret) const {
        const auto a = reinterpret_cast<std::uintptr_t>(ret);
        return a >= code_.begin && a < code_.end;
    }
    void* map(std::size_t len) {
        std::lock_guard lk(m_);
        for (std::size_t i = 0; enabled_ && i < free_.size(); ++i)
            if (free_[i].len == len) {
                live_.push_back(free_[i]);
                free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
                cached_ -= len;
                ++stats_.reuses;
                stats_.cached_bytes = cached_;
                return live_.back().base;
            }
        // The guard and the stack in one inaccessible mapping (not charged as memory), the stack
        // part then made read/write.
        const std::size_t guard = CoroutineStackCache::kGuardBytes;
        void* whole = sys_mmap(nullptr, guard + len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (whole == MAP_FAILED) return whole;
        void* p = static_cast<char*>(whole) + guard;
        if (sys_mprotect(p, len, PROT_READ | PROT_WRITE) != 0) {
            sys_munmap(whole, guard + len);
            return MAP_FAILED;
        }
        live_.push_back({p, len, whole, guard + len});
        ++stats_.maps;
        return p;
    }
    /// True if the block was one of ours (kept or unmapped here).
    bool unmap(void* addr, std::size_t len, int& result) {
        std::lock_guard lk(m_);
        const auto it =
            std::find_if(live_.begin(), live_.end(), [&](const Block& b) { return b.base == addr && b.len == len; });
        if (it == live_.end()) return false;
        const Block b = *it;
        live_.erase(it);
        if (enabled_ && cached_ + len <= CoroutineStackCache::kMaxCachedBytes) {
            free_.push_back(b);
            cached_ += len;
            ++stats_.keeps;
            result = 0;
        } else {
            result = sys_munmap(b.map_base, b.map_len);
            ++stats_.unmaps;
        }
        stats_.cached_bytes = cached_;
        return true;
    }
    /// True if the call was handled (skipped or made) here.
    bool protect(void* addr, std::size_t len, int prot, int& result) {
        std::lock_guard lk(m_);
        const auto a = reinterpret_cast<std::uintptr_t>(addr);
        for (auto& b : live_) {
            const auto base = reinterpret_cast<std::uintptr_t>(b.base);
            if (a < base || a + len > base + b.len) continue;
            if (prot == PROT_NONE) {
                if (b.none_begin == a && b.none_end == a + len) {
                    ++stats_.protects_skipped; // a reused block's guard page is still protected
                    result = 0;
                    return true;
                }
                if (b.none_begin != b.none_end) return false; // another range: let the kernel do it
                result = sys_mprotect(addr, len, prot);
                if (result == 0) b.none_begin = a, b.none_end = a + len;
                return true;
            }
            if (prot == (PROT_READ | PROT_WRITE) && b.none_begin == a && b.none_end == a + len) {
                // The guard page made writable before the unmap: it stays a guard in the cache.
                ++stats_.protects_skipped;
                result = 0;
                return true;
            }
            return false;
        }
        return false;
    }
    CoroutineStackCache::Stats stats() {
        std::lock_guard lk(m_);
        return stats_;
    }

private:
    Cache() {
        const char* off = std::getenv("NPUSIM_NO_STACK_CACHE");
        enabled_ = !(off && *off && std::strcmp(off, "0") != 0);
        dl_iterate_phdr(&find_systemc, &code_);
        interposing_ = code_.begin != code_.end;
        if (!interposing_) enabled_ = false; // SystemC linked statically: nothing to cache
    }
    bool enabled_ = false;
    bool interposing_ = false;
    CodeRange code_;
    std::mutex m_;
    std::vector<Block> live_, free_;
    std::size_t cached_ = 0;
    CoroutineStackCache::Stats stats_;
};

bool is_stack_map(void* addr, int prot, int flags, int fd, off_t off) {
    return addr == nullptr && prot == (PROT_READ | PROT_WRITE) && flags == (MAP_PRIVATE | MAP_ANONYMOUS) && fd == -1 &&
           off == 0;
}

} // namespace

CoroutineStackCache::Stats CoroutineStackCache::stats() { return Cache::get().stats(); }
bool CoroutineStackCache::active() { return Cache::get().enabled(); }

#else
CoroutineStackCache::Stats CoroutineStackCache::stats() { return {}; }
bool CoroutineStackCache::active() { return false; }
#endif

} // namespace npusim::sim

#if NPUSIM_STACK_CACHE
// The interposed calls (see the header). Only libsystemc's calls are looked at; the rest pass.
extern "C" {
void* mmap(void* addr, std::size_t len, int prot, int flags, int fd, off_t off) noexcept {
    using npusim::sim::Cache;
    const void* ret = __builtin_return_address(0);
    if (npusim::sim::is_stack_map(addr, prot, flags, fd, off)) {
        auto& c = Cache::get();
        if (c.interposing() && c.from_systemc(ret)) return c.map(len);
    }
    return npusim::sim::sys_mmap(addr, len, prot, flags, fd, off);
}
int munmap(void* addr, std::size_t len) noexcept {
    using npusim::sim::Cache;
    const void* ret = __builtin_return_address(0);
    auto& c = Cache::get();
    int result = 0;
    if (c.interposing() && c.from_systemc(ret) && c.unmap(addr, len, result)) return result;
    return npusim::sim::sys_munmap(addr, len);
}
int mprotect(void* addr, std::size_t len, int prot) noexcept {
    using npusim::sim::Cache;
    const void* ret = __builtin_return_address(0);
    auto& c = Cache::get();
    int result = 0;
    if (c.interposing() && c.from_systemc(ret) && c.protect(addr, len, prot, result)) return result;
    return npusim::sim::sys_mprotect(addr, len, prot);
}
}
#endif
