// libFuzzer target (clang -fsanitize=fuzzer): each input is a byte string the random-design
// generator takes its choices from (ByteEntropy). A case that ends in a bug (wrong data, a broken
// invariant, an unexpected exception) aborts, so libFuzzer keeps the input as a crash; sanitizer
// reports and crashes are caught by libFuzzer itself. Build: cmake -DNPUSIM_FUZZER=ON with
// CMAKE_CXX_COMPILER=clang++ (docs/fuzzing.md).
#include "FuzzRunner.hpp"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace npusim::fuzz;
    ByteEntropy e(data, size);
    const Plan plan = make_plan(e, 0);
    static const FuzzRunner runner(FuzzLimits{5'000'000, 10});
    const auto r = runner.run(plan, size);
    if (is_bug(r.ending)) {
        std::fprintf(stderr, "npusim bug: %s\n%s\n%s\n", ending_name(r.ending), plan.describe().c_str(),
                     r.message.c_str());
        std::abort();
    }
    return 0;
}
