#include "ScContextGuard.hpp"

#include <cstdlib>

namespace npusim::sim {

ScContextGuard::ScContextGuard() {
    // No banner, no "simulation stopped" notes: npusim's output is its own.
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    ctx_ = new sc_core::sc_simcontext();
    sc_core::sc_curr_simcontext = ctx_;
    sc_core::sc_default_global_context = ctx_;
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    sc_core::sc_set_stop_mode(sc_core::SC_STOP_IMMEDIATE);
}

ScContextGuard::~ScContextGuard() {
    sc_core::sc_curr_simcontext = nullptr;
    sc_core::sc_default_global_context = nullptr;
    delete ctx_;
}

} // namespace npusim::sim

// libsystemc references sc_main from its own main(); npusim has its own main() and never calls
// SystemC's, so this definition only satisfies the linker. It lives here because every
// user of SystemC in npusim makes a context.
int sc_main(int, char**) { return 0; }
