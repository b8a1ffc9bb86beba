// E1 basic/passthrough_kernel: a worker copies each object of fifo `in` to fifo `out` with the
// passThroughLine kernel; the host fills `in` and drains `out`. Golden: out == in.
#include "Designs.hpp"
#include "npusim/kernels/passthrough.hpp"

namespace npusim::examples {

using namespace npusim::iron;

namespace {

template <class T>
Kernel passthrough_kernel(void (*fn)(const T*, T*, std::int32_t), std::int64_t tile) {
    return Kernel("passThroughLine", fn, {tensor<T>({tile}), tensor<T>({tile}), scalar<std::int32_t>()},
                  [](std::span<const KernelArg> a) {
                      return kernels::passThroughLine_cycles(static_cast<std::int32_t>(a[2].ivalue),
                                                             static_cast<int>(sizeof(T)));
                  });
}

template <class T>
DesignInstance build(const model::DeviceSpec& dev, std::int64_t size, std::int64_t tile, std::uint64_t seed,
                     void (*fn)(const T*, T*, std::int32_t)) {
    const auto vec_ty = tensor<T>({size});
    const auto line_ty = tensor<T>({tile});
    ObjectFifo of_in(line_ty, "in", 2);
    ObjectFifo of_out(line_ty, "out", 2);
    Kernel k = passthrough_kernel<T>(fn, tile);
    Worker w(
        [tile](ObjectFifoHandle in, ObjectFifoHandle out, Kernel kern) {
            auto eo = out.acquire(1);
            auto ei = in.acquire(1);
            kern(ei, eo, static_cast<std::int32_t>(tile));
            in.release(1);
            out.release(1);
        },
        fn_args(of_in.cons(), of_out.prod(), k), {.name = "passthrough"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle in, ObjectFifoHandle out) {
            in.fill(a);
            out.drain(b, {.wait = true});
        },
        fn_args(vec_ty, vec_ty, of_in.prod(), of_out.cons()));

    std::mt19937_64 rng(seed);
    std::vector<T> input(static_cast<std::size_t>(size));
    for (auto& x : input) x = static_cast<T>(rng());
    DesignInstance inst{Program(dev, rt, {w}, "passthrough_kernel"), {to_bytes(input), std::vector<std::uint8_t>(vec_ty.bytes())}, {}};
    inst.check = [input](const std::vector<std::vector<std::uint8_t>>& host) {
        return std::vector<OutputCheck>{compare_exact<T>("out (arg 1)", host[1], input)};   // golden: out == in
    };
    return inst;
}

} // namespace

DesignSpec make_passthrough_kernel() {
    DesignSpec s;
    s.name = "passthrough_kernel";
    s.description = "E1: a worker copies each line with passThroughLine (8/16/32-bit)";
    s.params = {{"size", 4096, "elements in the input and output tensors"},
                {"tile", 1024, "elements per fifo object (line)"},
                {"bits", 8, "element width: 8, 16 or 32"}};
    s.devices = every_device();
    s.build = [](const model::DeviceSpec& dev, const Params& p, std::uint64_t seed) {
        require_multiple("passthrough_kernel", p, "size", "tile");
        require_one_of("passthrough_kernel", p, "bits", {8, 16, 32});
        switch (p.at("bits")) {
        case 16: return build<std::int16_t>(dev, p.at("size"), p.at("tile"), seed, kernels::passThroughLine_i16);
        case 32: return build<std::int32_t>(dev, p.at("size"), p.at("tile"), seed, kernels::passThroughLine_i32);
        default: return build<std::uint8_t>(dev, p.at("size"), p.at("tile"), seed, kernels::passThroughLine_u8);
        }
    };
    return s;
}

} // namespace npusim::examples
