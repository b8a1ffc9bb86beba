#pragma once
// CoroutineStackCache: keeps the stacks of SystemC's coroutines across runs.
//
// SystemC 2.3.4 (QuickThreads) gives every thread process its own stack: sc_cor_pkg_qt::create
// maps it (mmap of the stack size, read/write, private anonymous) and protects its lowest page
// (sc_cor_qt::stack_protect: mprotect PROT_NONE); ~sc_cor_qt unprotects it (mprotect read/write)
// and unmaps it. A run makes one process per DMA channel, core and runtime sequence, so a small
// design paid four system calls and a page fault per touched stack page per process per run: about
// 40% of an in-process run of E1 at 4 KiB (docs/performance.md). SystemC has no hook for its
// stack allocator, so npusim defines mmap, munmap and mprotect itself (the executable's definitions
// come before libc's for every shared library, as an LD_PRELOAD library's would):
// - a call from libsystemc that maps a stack (no address hint, read/write, private anonymous, no
//   file) takes a cached block of the same size if there is one;
// - libsystemc unmapping a block it got that way returns it to the cache, pages and guard page
//   as they are (at most kMaxCachedBytes are kept; beyond, blocks are really unmapped);
// - libsystemc's mprotect on a cached block is skipped when the pages already have that
//   protection (the guard page stays PROT_NONE while the block is cached; making it read/write
//   again just before the unmap is skipped too);
// - every other call, from anywhere, goes to the kernel unchanged (a raw system call).
// Not built with AddressSanitizer (its own mmap interceptors must see SystemC's stacks, and a reused
// stack would carry the last coroutine's poisoned frames). NPUSIM_NO_STACK_CACHE=1 in the
// environment turns it off (every call goes to the kernel).
#include <cstddef>
#include <cstdint>

namespace npusim::sim {

class CoroutineStackCache {
public:
    /// Counters since the process started (all zero when the cache is not built or turned off).
    struct Stats {
        std::uint64_t maps = 0; ///< libsystemc stack maps that went to the kernel
        std::uint64_t reuses = 0; ///< ... and those served from the cache
        std::uint64_t unmaps = 0; ///< libsystemc unmaps that went to the kernel
        std::uint64_t keeps = 0; ///< ... and those that returned the block to the cache
        std::uint64_t protects_skipped = 0; ///< libsystemc mprotect calls skipped
        std::size_t cached_bytes = 0; ///< bytes of free blocks held now
    };
    static Stats stats();
    /// Whether the cache is compiled in and not turned off.
    static bool active();
    static constexpr std::size_t kMaxCachedBytes = std::size_t{512} << 20;
};

} // namespace npusim::sim
