#undef NDEBUG // the assert kernel below must assert in a Release build too
#include "GuardFault.hpp"

#include "CliSupport.hpp"
#include "support/Passthrough.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/iron.hpp"

#include <cassert>
#include <cstdlib>
#include <cstring>

namespace npusim::test {
namespace {

// A 16 MiB local array touched from its top down, as a growing stack is: 0. A function of its own,
// so that only this case has the frame that needs --core-stack.
[[gnu::noinline]] int deep_stack() {
    constexpr std::size_t kBytes = 16u << 20;
    volatile char local[kBytes];
    for (std::size_t i = kBytes; i >= 4096; i -= 4096) local[i - 1] = 1;
    return local[kBytes - 1] - 1;
}

// guard_fault: in -> a worker -> out (i32[16] objects, one object), on npu1_1col, npu2 and npu1; its
// kernel (param how) misbehaves natively: 0 spins, 1 uses a 16 MiB local array (needs
// --core-stack), 2 calls exit(0), 3 calls abort(), 4 fails an assert, 5 writes 64 KiB past its
// view, 6 returns normally (the run passes), 7 spins on npu2 and returns normally elsewhere.
void register_fault_design() {
    static bool done = false;
    if (done) return;
    done = true;
    harness::DesignSpec s;
    s.name = "guard_fault";
    s.description = "test: a kernel that misbehaves natively";
    s.devices = {"npu1_1col", "npu2", "npu1"};
    s.params = {{"how", 6, "0 spin, 1 big stack, 2 exit(0), 3 abort, 4 assert, 5 wild write, 6 none, 7 spin on npu2"}};
    s.build = [](const model::DeviceSpec& dev, const harness::Params& p, const harness::BuildOptions&) {
        using namespace iron;
        const auto how = p.at("how") == 7 ? (dev.arch == model::Arch::AIE2P ? 0 : 6) : p.at("how");
        Kernel k(
            "faulty",
            [how](std::span<const KernelArg> a) {
                auto* y = reinterpret_cast<std::int32_t*>(a[1].data);
                std::memcpy(y, a[0].data, 64);
                switch (how) {
                case 0: {
                    volatile bool forever = true;
                    while (forever) {}
                    break;
                }
                case 1: y[0] += deep_stack(); break;
                case 2: std::exit(0);
                case 3: std::abort();
                case 4: {
                    volatile int zero = 0;
                    assert(zero == 1 && "the kernel's own check");
                    break;
                }
                case 5:
                    for (std::size_t i = 16; i < 16 + 16384; ++i) y[i] = 7; // 64 KiB past the view
                    break;
                default: break;
                }
            },
            {tensor<std::int32_t>({16}), tensor<std::int32_t>({16})}, cost::fixed(10));
        const auto t = tensor<std::int32_t>({16});
        return harness::DesignInstance(
            test::passthrough({.type = tensor<std::int32_t>({16}), .body = test::kernel_body(k),
                               .host_elements = 16, .spec = &dev, .program = "guard_fault"}), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor(DType::i32, {16})}},
            [](const harness::Tensors& x) {
                return harness::Tensors{{"b", x.at("a")}};
            },
            "guard_fault");
    };
    harness::register_design(s);
}

} // namespace

Out guard_fault_cli(std::vector<std::string> args) {
    register_fault_design();
    auto r = tools::run_cli_in_child(args);
    return {r.code, "", std::move(r.output)};
}


} // namespace npusim::test
