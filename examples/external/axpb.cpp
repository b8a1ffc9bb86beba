// axpb: out[i] = a * in[i] + b (int32, wrapping) on one compute tile: a user's design written outside
// the npusim tree against the installed headers, registered into the user's own CLI (my-npusim).
// Golden: the same formula computed here in plain C++ on the generated input.
#include <npusim/harness/DesignParams.hpp>
#include <npusim/harness/DesignRegistry.hpp>
#include <npusim/iron.hpp>

#include <cstdint>
#include <random>

namespace user_designs {

using namespace npusim::iron;
using namespace npusim::harness;

// The kernel: one line of `n` elements (its cost: one element per cycle, a guess for this example).
void axpb_line(const std::int32_t* in, std::int32_t* out, std::int32_t a, std::int32_t b, std::int32_t n) {
    for (std::int32_t i = 0; i < n; ++i)
        out[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(in[i]) +
                                           static_cast<std::uint32_t>(b));
}

DesignSpec make_axpb() {
    DesignSpec s;
    s.name = "axpb";
    s.description = "user design: out = a * in + b (int32) on one core";
    s.params = {
        {"size", 4096, "elements"}, {"tile", 1024, "elements per fifo object"}, {"a", 3, "scale"}, {"b", 1, "offset"}};
    s.devices = every_device();
    s.kernels_note = "one kernel, axpb_line, plain C++";
    s.build = [](const npusim::model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        require_multiple("axpb", p, "size", "tile");
        const std::int64_t size = p.at("size"), tile = p.at("tile");
        const auto a = static_cast<std::int32_t>(p.at("a")), b = static_cast<std::int32_t>(p.at("b"));
        const auto vec = tensor<std::int32_t>({size}), line = tensor<std::int32_t>({tile});
        ObjectFifo in(line, "in"), out(line, "out");
        Kernel k("axpb_line", axpb_line,
                 {line, line, scalar<std::int32_t>(), scalar<std::int32_t>(), scalar<std::int32_t>()},
                 [](std::span<const KernelArg> x) { return static_cast<std::uint64_t>(x[4].ivalue); });
        Worker w(
            [a, b, tile](ObjectFifoHandle i, ObjectFifoHandle o2, Kernel kern) {
                auto ei = i.acquire(1);
                auto eo = o2.acquire(1);
                kern(ei, eo, a, b, static_cast<std::int32_t>(tile));
                i.release(1);
                o2.release(1);
            },
            fn_args(in.cons(), out.prod(), k), {.name = "axpb"});
        Runtime rt(
            [](RuntimeData x, RuntimeData y, ObjectFifoHandle i, ObjectFifoHandle o2) {
                i.fill(x);
                o2.drain(y, {.wait = true});
            },
            fn_args(vec, vec, in.prod(), out.cons()));
        std::mt19937 rng(static_cast<std::uint32_t>(o.seed));
        std::vector<std::int32_t> input(static_cast<std::size_t>(size));
        for (auto& v : input) v = static_cast<std::int32_t>(rng());
        auto reference = [a, b, size](const Tensors& t) {
            const auto x = get(t, "in").values<std::int32_t>();
            std::vector<std::int32_t> y(static_cast<std::size_t>(size));
            for (std::size_t i = 0; i < y.size(); ++i)
                y[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(x[i]) +
                                                 static_cast<std::uint32_t>(b));
            return tensors("out", Tensor::from({size}, y));
        };
        return DesignInstance(Program(dev, rt, {w}, "axpb"), {ArgSpec::input("in", vec), ArgSpec::output("out", vec)},
                              tensors("in", Tensor::from({size}, input)), reference, "axpb");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_axpb, 1000);

} // namespace user_designs
