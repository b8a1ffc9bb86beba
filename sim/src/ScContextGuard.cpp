#include "ScContextGuard.hpp"

#include "CoroutineStackCache.hpp"

#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace npusim::sim {

ScContextGuard::ScContextGuard() {
    (void)CoroutineStackCache::active(); // SystemC's stacks come from the cache (and it is linked in)
    // No banner, no "simulation stopped" notes: npusim's output is its own.
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    ctx_ = new sc_core::sc_simcontext();
    sc_core::sc_curr_simcontext = ctx_;
    sc_core::sc_default_global_context = ctx_;
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    sc_core::sc_set_stop_mode(sc_core::SC_STOP_IMMEDIATE);
    // One time unit per cycle (cycles_to_time, now_cycles); fixed before any time is made.
    sc_core::sc_set_time_resolution(1, sc_core::SC_NS);
    (void)sc_core::sc_time::from_value(1); // marks it fixed, as cycles_to_time does not
}

ScContextGuard::~ScContextGuard() {
    // The context stays current while it is deleted: deleting a method process asks SystemC for
    // the current process (sc_process_b::delete_process), and with no current context SystemC
    // makes a new one there, which nobody deletes (LeakSanitizer: two contexts per run leaked once
    // the DMA channels became methods).
    delete ctx_;
    sc_core::sc_curr_simcontext = nullptr;
    sc_core::sc_default_global_context = nullptr;
    restore_thread_stack();
}

void ScContextGuard::restore_thread_stack() {
#if defined(__SANITIZE_ADDRESS__)
    struct Range {
        void* bottom = nullptr;
        std::size_t size = 0;
    };
    // The calling thread's own stack, as glibc reports it (for the main thread: [stack] in
    // /proc/self/maps and RLIMIT_STACK, what ASan records at start), read once per thread.
    thread_local const Range stack = [] {
        Range r;
        pthread_attr_t attr;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &r.bottom, &r.size) != 0) r = Range{};
            pthread_attr_destroy(&attr);
        }
        return r;
    }();
    if (!stack.bottom) return;
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, stack.bottom, stack.size);
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

} // namespace npusim::sim

// libsystemc references sc_main from its own main(); npusim has its own main() and never calls
// SystemC's, so this definition only satisfies the linker. It lives here because every
// user of SystemC in npusim makes a context.
int sc_main(int, char**) { return 0; }
