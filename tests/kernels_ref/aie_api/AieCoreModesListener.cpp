// Every AIE-API test starts with the core modes a core has after reset (rounding floor, no
// saturation), whatever the test before it set: a test that relies on the reset modes then passes in
// any order (`--order rand`), as a kernel on a freshly reset core would.
#include <aie_api/aie.hpp>

#define CATCH_CONFIG_EXTERNAL_INTERFACES // TestEventListenerBase (this file is kept out of unity batches)
#include <catch2/catch.hpp>

namespace {

struct AieResetCoreModesListener : Catch::TestEventListenerBase {
    using TestEventListenerBase::TestEventListenerBase;
    void testCaseStarting(Catch::TestCaseInfo const& info) override {
        npusim::aie_api::set_core_modes(npusim::aie_api::CoreModes{});
        TestEventListenerBase::testCaseStarting(info);
    }
};

} // namespace

CATCH_REGISTER_LISTENER(AieResetCoreModesListener)
