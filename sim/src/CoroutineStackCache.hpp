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
// Each stack it maps has kGuardBytes of inaccessible address space (PROT_NONE) below it, on top of
// SystemC's own guard page: a frame larger than what is left of the stack (a kernel's large local
// array) moves the stack pointer past the stack's end, and its first write must fault there rather
// than land silently in whatever is mapped below (another stack, a tile memory); the crash report
// then says the stack overflowed (tools/CrashReporter.cpp). The guard costs address space only.
// Not built with AddressSanitizer (its own mmap interceptors must see SystemC's stacks, and a reused
// stack would carry the last coroutine's poisoned frames). NPUSIM_NO_STACK_CACHE=1 in the
// environment turns the reuse off (every stack is mapped and unmapped, still with its guard).
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
    /// Inaccessible bytes below each coroutine stack (and each kernel-pool thread's stack).
    static constexpr std::size_t kGuardBytes = std::size_t{64} << 20;
};

} // namespace npusim::sim
