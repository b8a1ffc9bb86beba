// A run-time compiled kernel's mutable statics are per worker, as each NPU core links its own copy of
// the kernel object (harness/src/WorkerLibraries.hpp): two workers calling a kernel that counts its
// calls in a static each count from 0.
#include "npusim/frontend/ExternalFunction.hpp"
#include "npusim/harness/KernelCompiler.hpp"
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;

namespace {

// NPUSIM_CACHE_DIR on a fresh folder for the test case's life.
struct StaticsCache {
    test::TempDir dir{"npusim_kstatics"};
    std::string saved;
    bool had = false;
    StaticsCache() {
        if (const char* v = std::getenv("NPUSIM_CACHE_DIR")) {
            had = true;
            saved = v;
        }
        ::setenv("NPUSIM_CACHE_DIR", dir.path.c_str(), 1);
    }
    ~StaticsCache() {
        if (had)
            ::setenv("NPUSIM_CACHE_DIR", saved.c_str(), 1);
        else
            ::unsetenv("NPUSIM_CACHE_DIR");
    }
};

constexpr const char* kCounter = "#include <cstdint>\n"
                                 "static int32_t calls = 0;\n"
                                 "extern \"C\" void count_calls(int32_t* out) {\n"
                                 "    for (int i = 0; i < 16; ++i) out[i] = calls * 100 + i;\n"
                                 "    ++calls;\n"
                                 "}\n";

} // namespace

TEST_CASE("a kernel's static variables are per worker, as each core has its own copy", "[harness][jit]") {
    StaticsCache cache;
    const auto tile = tensor<std::int32_t>({16});
    const auto host = tensor<std::int32_t>({64});
    ExternalFunction k("count_calls", {tile}, {.source_string = kCounter});
    ObjectFifo o0(tile, "o0"), o1(tile, "o1");
    auto body = [](ObjectFifoHandle o, ExternalFunction f) {
        for (int i = 0; i < 4; ++i) {
            auto e = o.acquire(1);
            f(e);
            o.release(1);
        }
    };
    Worker w0(body, fn_args(o0.prod(), k), {.name = "w0"});
    Worker w1(body, fn_args(o1.prod(), k), {.name = "w1"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle h0, ObjectFifoHandle h1) {
            h0.drain(a, {.wait = true});
            h1.drain(b, {.wait = true});
        },
        fn_args(host, host, o0.cons(), o1.cons()));
    const auto net = Program("npu2", rt, {w0, w1}).resolve();
    const auto r = sim::simulate(net, {std::vector<std::uint8_t>(256), std::vector<std::uint8_t>(256)}, {});
    for (int t = 0; t < 2; ++t) {
        std::vector<std::int32_t> out(64);
        std::memcpy(out.data(), r.host[t].data(), 256);
        for (int call = 0; call < 4; ++call)
            for (int i = 0; i < 16; ++i) {
                INFO("worker " << t << " call " << call << " lane " << i);
                REQUIRE(out[call * 16 + i] == call * 100 + i);
            }
    }
}
