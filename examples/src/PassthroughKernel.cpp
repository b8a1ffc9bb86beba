// E1 basic/passthrough_kernel: a worker copies each object of fifo `in` to fifo `out` with the
// passThroughLine kernel; the host fills `in` and drains `out`. Golden: out == in.
// Kernels: the reference passThroughLine (kernels_ref/) or, with KernelSet::aie, the AIE-API
// passThrough source (kernels_ref/aie/passThrough.cc), which needs lines of whole 512-bit vectors.
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/passthrough.hpp"

#include <npusim/aie_kernels.hpp>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

template <class T>
Kernel passthrough_kernel(void (*ref)(const T*, T*, std::int32_t), KernelSet ks, std::int64_t tile) {
    std::vector<ArgType> types{tensor<T>({tile}), tensor<T>({tile}), scalar<std::int32_t>()};
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::passThroughLine_cycles(static_cast<std::int32_t>(a[2].ivalue), static_cast<int>(sizeof(T)));
    };
    if (ks == KernelSet::aie) {
        void (*aie)(const T*, T*, std::int32_t) = &aie_kernels::passThroughLine;
        return aie_kernel("passThroughLine", aie, std::move(types), cost);
    }
    return Kernel("passThroughLine", ref, std::move(types), cost);
}

template <class T>
DesignInstance build(const model::DeviceSpec& dev, std::int64_t size, std::int64_t tile, const BuildOptions& o,
                     void (*fn)(const T*, T*, std::int32_t)) {
    const auto vec_ty = tensor<T>({size});
    const auto line_ty = tensor<T>({tile});
    ObjectFifo of_in(line_ty, "in", 2);
    ObjectFifo of_out(line_ty, "out", 2);
    Kernel k = passthrough_kernel<T>(fn, o.kernels, tile);
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

    auto reference = [](const Tensors& in) { return tensors("out", get(in, "in")); }; // golden: out == in
    return DesignInstance(
        Program(dev, rt, {w}, "passthrough_kernel"), {ArgSpec::input("in", vec_ty), ArgSpec::output("out", vec_ty)},
        tensors("in", Tensor::random_bits(vec_ty.dtype, vec_ty.shape, o.seed)), reference, "passthrough_kernel");
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
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        require_multiple("passthrough_kernel", p, "size", "tile");
        require_one_of("passthrough_kernel", p, "bits", {8, 16, 32});
        if (o.kernels == KernelSet::aie)
            require_vector_multiple("passthrough_kernel", p, "tile", 512 / p.at("bits"), "passThrough");
        switch (p.at("bits")) {
        case 16: return build<std::int16_t>(dev, p.at("size"), p.at("tile"), o, kernels::passThroughLine_i16);
        case 32: return build<std::int32_t>(dev, p.at("size"), p.at("tile"), o, kernels::passThroughLine_i32);
        default: return build<std::uint8_t>(dev, p.at("size"), p.at("tile"), o, kernels::passThroughLine_u8);
        }
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_passthrough_kernel, 10);

} // namespace npusim::examples
