#include "npusim/model/CoreServices.hpp"

namespace npusim::model {

namespace {
thread_local CoreServices* g_current = nullptr;
}

CoreServices* CoreServices::current() noexcept { return g_current; }
void CoreServices::set_current(CoreServices* s) noexcept { g_current = s; }

} // namespace npusim::model
