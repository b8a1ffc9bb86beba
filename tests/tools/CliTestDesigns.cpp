#include "CliTestDesigns.hpp"

#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/iron.hpp"
#include "support/Passthrough.hpp"

#include <cstdint>
#include <cstring>

namespace npusim::test {

// A design that deadlocks: the worker waits on a fifo the runtime never fills.
void register_test_designs() {
    static bool done = false;
    if (done) return;
    done = true;
    harness::DesignSpec s;
    s.name = "test_starved";
    s.description = "test: deadlocks";
    s.devices = {"npu1_1col"};
    s.build = [](const model::DeviceSpec& dev, const harness::Params&, const harness::BuildOptions&) {
        using namespace iron;
        const auto t = tensor<std::int32_t>({16});
        auto program = npusim::test::passthrough({.type = t,
                                                  .body = npusim::test::acquire_release,
                                                  .seq = [](RuntimeData, RuntimeData b, ObjectFifoHandle,
                                                            ObjectFifoHandle o) { o.drain(b, {.wait = true}); },
                                                  .host_elements = 16,
                                                  .spec = &dev,
                                                  .program = "test_starved",
                                                  .worker = {.name = "starving"}});
        return harness::DesignInstance(
            std::move(program), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor(DType::i32, {16})}},
            [](const harness::Tensors& x) {
                return harness::Tensors{{"b", x.at("a")}};
            },
            "test_starved");
    };
    harness::register_design(s);

    // A kernel that writes one word past its output view (the memory check).
    harness::DesignSpec ov;
    ov.name = "test_overrun";
    ov.description = "test: a kernel writes past its output";
    ov.devices = {"npu1_1col"};
    ov.build = [](const model::DeviceSpec& dev, const harness::Params&, const harness::BuildOptions&) {
        using namespace iron;
        Kernel over(
            "copy_over",
            [](std::span<const KernelArg> a) {
                const auto* x = reinterpret_cast<const std::int32_t*>(a[0].data);
                auto* y = reinterpret_cast<std::int32_t*>(a[1].data);
                for (int i = 0; i < 17; ++i) y[i] = x[i % 16] + 1;
            },
            {tensor<std::int32_t>({16}), tensor<std::int32_t>({16})}, cost::fixed(10));
        const auto t = tensor<std::int32_t>({16});
        auto program = npusim::test::passthrough({.type = t,
                                                  .body = npusim::test::kernel_body(over),
                                                  .host_elements = 16,
                                                  .spec = &dev,
                                                  .program = "test_overrun"});
        std::vector<std::int32_t> a(16);
        for (int i = 0; i < 16; ++i) a[static_cast<std::size_t>(i)] = i;
        return harness::DesignInstance(
            std::move(program), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor::from(t.shape, a)}},
            [t](const harness::Tensors& x) {
                auto v = x.at("a").values<std::int32_t>();
                for (auto& e : v) e += 1;
                return harness::Tensors{{"b", harness::Tensor::from(t.shape, v)}};
            },
            "test_overrun");
    };
    harness::register_design(ov);

    // Native code that never returns: a kernel that spins (param where=0) or a body that spins
    // before its first fifo call, i.e. already in the resolve-time trace (where=1).
    harness::DesignSpec sp;
    sp.name = "test_spin";
    sp.description = "test: native code that never returns";
    sp.devices = {"npu1_1col"};
    sp.params = {{"where", 0, "0: in a kernel, 1: in the body during the resolve-time trace"}};
    sp.build = [](const model::DeviceSpec& dev, const harness::Params& p, const harness::BuildOptions&) {
        using namespace iron;
        Kernel spin(
            "spin",
            [](std::span<const KernelArg>) {
                volatile bool forever = true;
                while (forever) {}
            },
            {tensor<std::int32_t>({16})}, cost::fixed(10));
        const bool in_body = p.at("where") == 1;
        const auto t = tensor<std::int32_t>({16});
        auto program = npusim::test::passthrough({.type = t,
                                                  .body =
                                                      [in_body, spin](ObjectFifoHandle i, ObjectFifoHandle o) {
                                                          volatile bool forever = in_body;
                                                          while (forever) {}
                                                          auto e = i.acquire(1);
                                                          auto f = o.acquire(1);
                                                          spin(f);
                                                          (void)e;
                                                          i.release(1);
                                                          o.release(1);
                                                      },
                                                  .host_elements = 16,
                                                  .spec = &dev,
                                                  .program = "test_spin",
                                                  .worker = {.name = "spinner"}});
        return harness::DesignInstance(
            std::move(program), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor(DType::i32, {16})}},
            [](const harness::Tensors& x) {
                return harness::Tensors{{"b", x.at("a")}};
            },
            "test_spin");
    };
    harness::register_design(sp);

    // A kernel with a 16 MiB local array, touched from its top down as a growing stack would be
    // (first=0), or first at its lowest byte, 12 MiB below the end of a 4 MiB stack (first=1): a
    // frame that skips a one-page guard and writes into whatever is mapped below.
    harness::DesignSpec st;
    st.name = "test_big_stack";
    st.description = "test: a kernel whose local array overflows the core stack";
    st.devices = {"npu1_1col"};
    st.params = {{"first", 0, "0: touch the array from its top down, 1: write its lowest byte first"}};
    st.build = [](const model::DeviceSpec& dev, const harness::Params& p, const harness::BuildOptions&) {
        using namespace iron;
        const bool bottom_first = p.at("first") == 1;
        Kernel big(
            "big_local",
            [bottom_first](std::span<const KernelArg> a) {
                constexpr std::size_t kBytes = 16u << 20;
                volatile char local[kBytes];
                if (bottom_first) local[0] = 1;
                for (std::size_t i = kBytes; i >= 4096; i -= 4096) local[i - 1] = 1;
                std::memcpy(a[0].data, const_cast<const char*>(&local[kBytes - 64]), 64);
            },
            {tensor<std::int32_t>({16})}, cost::fixed(10));
        const auto t = tensor<std::int32_t>({16});
        auto program = npusim::test::passthrough({.type = t,
                                                  .body =
                                                      [big](ObjectFifoHandle i, ObjectFifoHandle o) {
                                                          auto e = i.acquire(1);
                                                          auto f = o.acquire(1);
                                                          big(f);
                                                          (void)e;
                                                          i.release(1);
                                                          o.release(1);
                                                      },
                                                  .host_elements = 16,
                                                  .spec = &dev,
                                                  .program = "test_big_stack",
                                                  .worker = {.name = "deep"}});
        return harness::DesignInstance(
            std::move(program), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor(DType::i32, {16})}},
            [](const harness::Tensors& x) {
                return harness::Tensors{{"b", x.at("a")}};
            },
            "test_big_stack");
    };
    harness::register_design(st);

    // Six drains pushed before any await while a slow worker makes each object: the fifth push
    // finds the shim queue full (see tests/sim/TaskQueue_test.cpp).
    harness::DesignSpec q;
    q.name = "test_queue_flood";
    q.description = "test: overflows a shim task queue";
    q.devices = {"npu1_1col"};
    q.build = [](const model::DeviceSpec& dev, const harness::Params&, const harness::BuildOptions&) {
        using namespace iron;
        auto program = npusim::test::passthrough(
            {.type = tensor<std::int32_t>({64}),
             .body =
                 [](ObjectFifoHandle i, ObjectFifoHandle o) {
                     auto e = i.acquire(1);
                     auto f = o.acquire(1);
                     std::memcpy(f.data(), e.data(), 256);
                     add_cycles(100000);
                     i.release(1);
                     o.release(1);
                 },
             .seq =
                 [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                     i.fill(a);
                     for (int k = 0; k < 6; ++k)
                         o.drain(b, {.tap = TensorAccessPattern({384}, 64 * k, {64}, {1}), .wait = true});
                 },
             .host_elements = 384,
             .spec = &dev,
             .program = "test_queue_flood",
             .worker = {.name = "slow"}});
        const auto t = tensor<std::int32_t>({384});
        std::vector<std::int32_t> a(384);
        for (std::size_t k = 0; k < a.size(); ++k) a[k] = static_cast<std::int32_t>(k * 7);
        return harness::DesignInstance(
            std::move(program), {harness::ArgSpec::input("a", t), harness::ArgSpec::output("b", t)},
            {{"a", harness::Tensor::from({384}, a)}},
            [](const harness::Tensors& x) {
                return harness::Tensors{{"b", x.at("a")}};
            },
            "test_queue_flood");
    };
    harness::register_design(q);
}

} // namespace npusim::test
