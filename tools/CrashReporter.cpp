#include "CrashReporter.hpp"

#include "ExitReport.hpp"

#include "npusim/model/NativeActivity.hpp"
#include "npusim/sim/MemoryFences.hpp"

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ucontext.h>
#include <unistd.h>

namespace npusim::tools {

namespace {

// The message, built without allocating (the handler may run on an exhausted stack or heap).
struct Text {
    char s[1024];
    std::size_t n = 0;
    void put(const char* t) {
        while (*t && n + 1 < sizeof s) s[n++] = *t++;
        s[n] = 0;
    }
};

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

// Whether the faulting address lies by the stack pointer: a function whose frame is larger than its
// stack (a large local array) moves the stack pointer past the stack's end, and its first write to
// a local there faults next to the stack pointer, in whatever lies below the stack - a guard page,
// nothing, or a memory fence of some tile memory, which must not be taken for a wild pointer.
bool near_stack_pointer(const siginfo_t* info, const void* context) {
#if defined(__x86_64__)
    const auto sp = static_cast<std::uintptr_t>(static_cast<const ucontext_t*>(context)->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
    const auto sp = static_cast<std::uintptr_t>(static_cast<const ucontext_t*>(context)->uc_mcontext.sp);
#else
    return false;
#endif
    const auto a = reinterpret_cast<std::uintptr_t>(info->si_addr);
    constexpr std::uintptr_t kNear = std::uintptr_t{1} << 20; // the locals around the stack pointer
    return a + kNear >= sp && a < sp + kNear;
}

// The handler each signal had before install() (the default action in the CLI; in a Python
// process, e.g. faulthandler's, which pytest enables).
struct sigaction previous[NSIG];

void on_fatal(int sig, siginfo_t* info, void* context) {
    char who[512];
    if (!model::NativeActivity::describe_into(who, sizeof who)) {
        // Not in design code: the simulator's own fault (or the host program's). The handler that
        // was there before takes it (default action: core dump, signal exit).
        ::sigaction(sig, &previous[sig], nullptr);
        std::raise(sig);
        return;
    }
    Text m;
    m.put(who);
    m.put(" and it crashed with ");
    m.put(signal_name(sig));
    if (sig == SIGSEGV && info && context && sim::in_memory_fence(info->si_addr) && !near_stack_pointer(info, context))
        m.put(" at an address far outside the tile memory it was given (beyond the guard zones the memory check "
              "watches): it wrote or read well past (or before) one of its views, e.g. with a wrong size or index.");
    else if (sig == SIGSEGV || sig == SIGBUS)
        m.put(". Most likely its stack overflowed (a large local array: each core runs on a host stack of "
            "SimOptions::core_stack_bytes, 4 MiB by default; raise it with --core-stack BYTES) or it wrote "
            "through a wild pointer.");
    // As run_cli reports an error: the error document with --json, the outputs not written named.
    exit_report::fatal_exit(2, "error", "kernel error", m.s);
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
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
        struct sigaction old {};
        ::sigaction(sig, &sa, &old);
        if (!(old.sa_flags & SA_SIGINFO) || old.sa_sigaction != on_fatal) previous[sig] = old;
    }
}

} // namespace npusim::tools
