// A kernel that aborts, fails an assert or writes far outside its view, through the CLI's run guards
// (tools/RunGuard.hpp): named as a kernel error, exit 2. Not in the sanitizer build, where
// AddressSanitizer reports these faults itself.
#include "tools/GuardFault.hpp"

#include <catch2/catch.hpp>

using npusim::test::guard_fault_cli;

TEST_CASE("a kernel that aborts or fails an assert is a kernel error naming its worker and kernel (exit 2)",
          "[cli][guard][crash]") {
    const auto a = guard_fault_cli({"run", "guard_fault", "--param", "how=3"});
    CHECK(a.code == 2);
    CHECK_THAT(a.err, Catch::Contains("npusim: kernel error: worker 'w' was running kernel 'faulty' (entered at cycle "));
    CHECK_THAT(a.err, Catch::Contains("and it crashed with SIGABRT (abort: a failed assert, a call to abort(), or "
                                      "the C library stopping on a corrupted heap)"));
    const auto s = guard_fault_cli({"run", "guard_fault", "--param", "how=4", "--what-if", "free-kernels"});
    CHECK(s.code == 2);
    CHECK_THAT(s.err, Catch::Contains("the kernel's own check")); // assert's own message comes first
    CHECK_THAT(s.err, Catch::Contains("worker 'w' was running kernel 'faulty'"));
    CHECK_THAT(s.err, Catch::Contains("crashed with SIGABRT"));
}

TEST_CASE("a kernel writing 64 KiB past its view faults in the kernel, which is named, with or without the memory "
          "check",
          "[cli][guard][crash][memory]") {
    for (bool check : {true, false}) {
        std::vector<std::string> args{"run", "guard_fault", "--param", "how=5"};
        if (!check) args.push_back("--no-memory-check");
        const auto r = guard_fault_cli(args);
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK_THAT(r.err,
                   Catch::Contains("npusim: kernel error: worker 'w' was running kernel 'faulty' (entered at cycle "));
        CHECK_THAT(r.err, Catch::Contains("crashed with SIGSEGV (invalid memory access) at an address far outside "
                                          "the tile memory it was given (beyond the guard zones the memory check "
                                          "watches)"));
    }
}
