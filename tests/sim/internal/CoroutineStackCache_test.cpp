// CoroutineStackCache: SystemC's coroutine stacks are mapped once and reused by later runs in the
// same process (no mmap, munmap or guard-page mprotect per process per run), their guard page still
// protected; with AddressSanitizer the cache is not built and SystemC maps its stacks itself.
#include "CoroutineStackCache.hpp"
#include "ScContextGuard.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using npusim::sim::CoroutineStackCache;
using npusim::sim::ScContextGuard;

namespace {
// One "run": a fresh context with `n` thread processes of `stack` bytes that each touch their
// stack and wait once. Returns the lowest stack address seen (for the guard-page probe).
std::uintptr_t run_threads(int n, std::size_t stack, int& ran) {
    ScContextGuard ctx;
    std::uintptr_t low = ~std::uintptr_t{0};
    for (int i = 0; i < n; ++i) {
        sc_core::sc_spawn_options o;
        o.set_stack_size(static_cast<int>(stack));
        sc_core::sc_spawn(
            [&] {
                volatile char buf[4096];
                buf[0] = 1;
                low = std::min(low, reinterpret_cast<std::uintptr_t>(&buf[0]));
                sc_core::wait(sc_core::sc_time::from_value(1000));
                ++ran;
            },
            sc_core::sc_gen_unique_name("t"), &o);
    }
    sc_core::sc_start();
    ScContextGuard::restore_thread_stack();
    return low;
}

// The mappings of this process (/proc/self/maps): [begin, end) and permissions.
struct Mapping {
    std::uintptr_t begin = 0, end = 0;
    std::string perms;
};
std::vector<Mapping> mappings() {
    std::vector<Mapping> out;
    std::ifstream in("/proc/self/maps");
    std::string line;
    while (std::getline(in, line)) {
        Mapping m;
        char perms[8] = {};
        unsigned long b = 0, e = 0;
        if (std::sscanf(line.c_str(), "%lx-%lx %7s", &b, &e, perms) == 3) {
            m.begin = b, m.end = e, m.perms = perms;
            out.push_back(m);
        }
    }
    return out;
}
} // namespace

TEST_CASE("SystemC's coroutine stacks are reused by later runs, guard pages kept", "[sim][stack-cache]") {
    constexpr std::size_t stack = 256 << 10;
    int ran = 0;
    run_threads(3, stack, ran); // fills the cache with three stacks of this size (if it was empty)
    const auto before = CoroutineStackCache::stats();
    run_threads(3, stack, ran);
    run_threads(3, stack, ran);
    const auto after = CoroutineStackCache::stats();
    CHECK(ran == 9);
    if (!CoroutineStackCache::active()) {
        // Built with AddressSanitizer (or NPUSIM_NO_STACK_CACHE set): SystemC maps its own stacks.
        CHECK(after.reuses == 0);
        CHECK(after.keeps == 0);
        return;
    }
    CHECK(after.maps == before.maps); // no new stack was mapped ...
    CHECK(after.reuses - before.reuses >= 6); // ... each came from the cache
    CHECK(after.keeps - before.keeps >= 6); // and went back to it
    CHECK(after.unmaps == before.unmaps);
    CHECK(after.protects_skipped - before.protects_skipped >= 12); // guard page: on at create, off at delete
    CHECK(after.cached_bytes >= 3 * stack);
    CHECK(after.cached_bytes <= CoroutineStackCache::kMaxCachedBytes);
}

TEST_CASE("a reused coroutine stack still has its guard page below it", "[sim][stack-cache]") {
    if (!CoroutineStackCache::active()) return; // the sanitizer build maps stacks through ASan
    constexpr std::size_t stack = 256 << 10;
    int ran = 0;
    run_threads(1, stack, ran);
    const auto low = run_threads(1, stack, ran); // a reused block (now back in the cache)
    REQUIRE(ran == 2);
    // The frame lies in a read/write mapping; right below that mapping is SystemC's guard page,
    // inaccessible (its own mapping, "---p"), as when the stack was first made.
    const auto maps = mappings();
    const auto frame =
        std::find_if(maps.begin(), maps.end(), [&](const Mapping& m) { return low >= m.begin && low < m.end; });
    REQUIRE(frame != maps.end());
    CHECK(frame->perms.substr(0, 2) == "rw");
    const auto guard = std::find_if(maps.begin(), maps.end(), [&](const Mapping& m) { return m.end == frame->begin; });
    REQUIRE(guard != maps.end());
    CHECK(guard->perms.substr(0, 3) == "---");
    CHECK(guard->end - guard->begin >= 4096);
}

TEST_CASE("a coroutine stack has kGuardBytes of inaccessible address space below it, not one page",
          "[sim][stack-cache]") {
    if (!CoroutineStackCache::active()) return; // the sanitizer build maps stacks through ASan
    constexpr std::size_t stack = 256 << 10;
    int ran = 0;
    const auto low = run_threads(1, stack, ran);
    REQUIRE(ran == 1);
    // Below the frame's read/write mapping: SystemC's guard page and the cache's guard, inaccessible
    // ("---p", one or two adjacent mappings), at least kGuardBytes, so a frame that overshoots the
    // stack by less than that faults instead of writing into memory mapped below.
    const auto maps = mappings();
    const auto frame =
        std::find_if(maps.begin(), maps.end(), [&](const Mapping& m) { return low >= m.begin && low < m.end; });
    REQUIRE(frame != maps.end());
    std::uintptr_t bottom = frame->begin, guarded = 0;
    for (;;) {
        const auto below =
            std::find_if(maps.begin(), maps.end(), [&](const Mapping& m) { return m.end == bottom; });
        if (below == maps.end() || below->perms.substr(0, 3) != "---") break;
        guarded += below->end - below->begin;
        bottom = below->begin;
    }
    CHECK(guarded >= CoroutineStackCache::kGuardBytes);
}
