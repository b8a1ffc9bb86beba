// stream_port_passthrough: a worker acquires each line of fifo `in` and its kernel puts every
// 32-bit word on the core's output stream port (put_ms); fifo `out`'s producer end is that port
// (Port::stream(0), upstream ObjectFifo(aie_stream=(0, 0)) as programming_examples/ml/magika/
// group2.py uses it), so `out` has no buffer on the worker's tile and no MM2S channel: the flow
// runs Core:0 -> the shim's S2MM channel, and the host drains it. Golden: out == in.
// Kernels: the reference build puts each word through the core's services directly; the AIE-API
// build is kernels_ref/aie/passThroughStream.cc (put_ms through the host layer's stream hooks).
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/model/CoreServices.hpp"

#include <npusim/aie_kernels.hpp>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

// The reference kernel: the same words in the same order as the AIE-API one.
void pass_through_stream_ref(const std::int32_t* in, std::int32_t n) {
    auto* svc = model::CoreServices::current();
    if (!svc) throw std::logic_error("passThroughStream called outside a worker's kernel call");
    for (std::int32_t i = 0; i < n; ++i) svc->stream_put(static_cast<std::uint32_t>(in[i]));
}

DesignInstance build(const model::DeviceSpec& dev, std::int64_t size, std::int64_t tile, const BuildOptions& o) {
    const auto vec_ty = tensor<std::int32_t>({size});
    const auto line_ty = tensor<std::int32_t>({tile});
    ObjectFifo of_in(line_ty, "in", 2);
    ObjectFifo of_out(line_ty, "out", 2);
    std::vector<ArgType> types{tensor<std::int32_t>({tile}), scalar<std::int32_t>()};
    // The words' time is the stream's (one 32-bit word per cycle at the core port, waiting while
    // the receiver has no room); the kernel adds only its call overhead.
    auto cost = [](std::span<const KernelArg>) { return std::uint64_t{0}; };
    Kernel k = o.kernels == KernelSet::aie
                   ? aie_kernel("passThroughStream", &aie_kernels::passThroughStream, types, cost)
                   : Kernel("passThroughStream", &pass_through_stream_ref, types, cost);
    Worker w(
        [tile](ObjectFifoHandle in, ObjectFifoHandle, Kernel kern) {
            auto ei = in.acquire(1);
            kern(ei, static_cast<std::int32_t>(tile));
            in.release(1);
        },
        fn_args(of_in.cons(), of_out.prod({.port = Port::stream(0)}), k), {.name = "stream_passthrough"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, ObjectFifoHandle in, ObjectFifoHandle out) {
            in.fill(a);
            out.drain(b, {.wait = true});
        },
        fn_args(vec_ty, vec_ty, of_in.prod(), of_out.cons()));

    std::mt19937_64 rng(o.seed);
    std::vector<std::int32_t> input(static_cast<std::size_t>(size));
    for (auto& x : input) x = static_cast<std::int32_t>(rng());
    auto reference = [](const Tensors& in) { return tensors("out", get(in, "in")); }; // golden: out == in
    return DesignInstance(Program(dev, rt, {w}, "stream_port_passthrough"),
                          {ArgSpec::input("in", vec_ty), ArgSpec::output("out", vec_ty)},
                          tensors("in", Tensor::from(vec_ty.shape, input)), reference, "stream_port_passthrough");
}

} // namespace

DesignSpec make_stream_port_passthrough() {
    DesignSpec s;
    s.name = "stream_port_passthrough";
    s.description = "a kernel puts each word on the core's stream port (Port::stream, aie_stream) to the host";
    s.params = {{"size", 4096, "int32 elements in the input and output tensors"},
                {"tile", 1024, "elements per fifo object (line)"}};
    s.devices = every_device();
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        require_multiple("stream_port_passthrough", p, "size", "tile");
        return build(dev, p.at("size"), p.at("tile"), o);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_stream_port_passthrough, 225);

} // namespace npusim::examples
