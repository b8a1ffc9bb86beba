#include "CrashReporter.hpp"

#include "npusim/model/NativeActivity.hpp"
#include "npusim/sim/MemoryFences.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace npusim::tools {

namespace {

void put(const char* s) {
    std::size_t n = std::strlen(s);
    while (n > 0) {
        const auto w = ::write(2, s, n);
        if (w <= 0) return;
        s += w;
        n -= static_cast<std::size_t>(w);
    }
}

const char* signal_name(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic error, e.g. an integer division by zero)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (abort: a failed assert, a call to abort(), or the C library stopping on a corrupted heap)";
    }
    return "a fatal signal";
}

void on_fatal(int sig, siginfo_t* info, void*) {
    char who[512];
    if (!model::NativeActivity::describe_into(who, sizeof who)) {
        // Not in design code: the simulator's own fault. Default action (core dump, signal exit).
        std::signal(sig, SIG_DFL);
        std::raise(sig);
        return;
    }
    put("npusim: kernel error: ");
    put(who);
    put(" and it crashed with ");
    put(signal_name(sig));
    if (sig == SIGSEGV && info && sim::in_memory_fence(info->si_addr))
        put(" at an address far outside the tile memory it was given (beyond the guard zones the memory check "
            "watches): it wrote or read well past (or before) one of its views, e.g. with a wrong size or index.");
    else if (sig == SIGSEGV || sig == SIGBUS)
        put(". Most likely its stack overflowed (a large local array: each core runs on a host stack of "
            "SimOptions::core_stack_bytes, 4 MiB by default; raise it with --core-stack BYTES) or it wrote "
            "through a wild pointer.");
    put("\n");
    ::_exit(2);
}

} // namespace

void CrashReporter::install() {
#if defined(__SANITIZE_ADDRESS__)
    return; // AddressSanitizer's own handler reports these faults, with more detail
#endif
    static char alt_stack[1 << 16];
    static bool stack_set = false;
    if (!stack_set) {
        stack_t ss{};
        ss.ss_sp = alt_stack;
        ss.ss_size = sizeof alt_stack;
        ::sigaltstack(&ss, nullptr);
        stack_set = true;
    }
    struct sigaction sa {};
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &sa, nullptr);
}

} // namespace npusim::tools
