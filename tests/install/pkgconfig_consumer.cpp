// A program built only from `pkg-config --cflags --libs npusim` against an installed npusim: a
// fifo forwarded through a mem tile copies 16 int32 from the host and back (tests/install).
#include <cstdio>
#include <npusim/iron.hpp>
#include <npusim/sim/Simulator.hpp>
int main() {
    using namespace npusim::iron;
    ObjectFifo in(tensor<std::int32_t>({16}), "in"), out(tensor<std::int32_t>({16}), "out");
    auto fwd = in.cons().forward();
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), in.prod(), fwd.cons()));
    auto net = Program("npu1_1col", rt, {}, "pc").resolve();
    std::vector<std::uint8_t> a(64);
    for (int i = 0; i < 64; ++i) a[i] = static_cast<std::uint8_t>(i);
    auto r = npusim::sim::simulate(net, {a, std::vector<std::uint8_t>(64)}, {});
    std::printf("%s\n", r.host[1] == a ? "copied" : "WRONG");
    return r.host[1] == a ? 0 : 1;
}
