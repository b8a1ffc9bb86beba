// E3 basic/vector_scalar_mul: out = in * factor, tile by tile. The factor arrives through its
// own fifo `param0` (i32[1]) and is held for a whole pass over the tensor.
// Golden: (a * factor) wrapped to the element type, computed in 64-bit then truncated.
// Kernels: the reference vector_scalar_mul (kernels_ref/) or, with KernelSet::aie, the AIE-API
// scale source (kernels_ref/aie/scale.cc), which works on whole 512-bit vectors.
// trace_size > 0 traces the worker as IRON's transform does (python/iron/algorithms/_transform.py
// @ 3ca0193c L168, L215-216: Worker(trace=1) and Program.enable_trace(trace_size)): `npusim run
// vector_scalar_mul --param trace_size=8192 --trace t.json --trace-format mlir-aie`.
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/vector_scalar_mul.hpp"

#include <npusim/aie_kernels.hpp>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

template <class T>
using ScaleFn = void (*)(const T*, T*, const std::int32_t*, std::int32_t);

template <class T>
ScaleFn<T> scale_fn(KernelSet ks) {
    if constexpr (sizeof(T) == 2)
        return ks == KernelSet::aie ? &aie_kernels::vector_scalar_mul_i16 : &kernels::vector_scalar_mul_i16;
    else
        return ks == KernelSet::aie ? &aie_kernels::vector_scalar_mul_i32 : &kernels::vector_scalar_mul_i32;
}

template <class T>
DesignInstance build(const model::DeviceSpec& dev, std::int64_t size, std::int64_t tile, std::int32_t factor,
                     std::int64_t trace_size, const BuildOptions& o) {
    const auto vec_ty = tensor<T>({size});
    const auto tile_ty = tensor<T>({tile});
    const auto scalar_ty = tensor<std::int32_t>({1});
    ObjectFifo of_in(tile_ty, "in0", 2);
    ObjectFifo of_out(tile_ty, "out", 2);
    ObjectFifo of_factor(scalar_ty, "param0", 2);
    constexpr bool is16 = sizeof(T) == 2;
    std::vector<ArgType> types{tile_ty, tile_ty, scalar_ty, scalar<std::int32_t>()};
    auto cost = [](std::span<const KernelArg> a) {
        const auto n = static_cast<std::int32_t>(a[3].ivalue);
        return is16 ? kernels::vector_scalar_mul_i16_cycles(n) : kernels::vector_scalar_mul_i32_cycles(n);
    };
    Kernel scale = o.kernels == KernelSet::aie
                       ? aie_kernel("vector_scalar_mul_vector", scale_fn<T>(o.kernels), types, cost)
                       : Kernel("vector_scalar_mul_vector", scale_fn<T>(o.kernels), types, cost);
    const std::int64_t tiles = size / tile;
    Worker w(
        [tiles, tile](ObjectFifoHandle in, ObjectFifoHandle out, ObjectFifoHandle f, Kernel k) {
            auto ef = f.acquire(1);
            for (std::int64_t i = 0; i < tiles; ++i) {
                auto ei = in.acquire(1);
                auto eo = out.acquire(1);
                k(ei, eo, ef, static_cast<std::int32_t>(tile));
                in.release(1);
                out.release(1);
            }
            f.release(1);
        },
        fn_args(of_in.cons(), of_out.prod(), of_factor.cons(), scale), {.name = "scale", .trace = trace_size > 0});
    Runtime rt(
        [](RuntimeData a, RuntimeData c, RuntimeData f, ObjectFifoHandle in, ObjectFifoHandle fac,
           ObjectFifoHandle out) {
            in.fill(a);
            fac.fill(f);
            out.drain(c, {.wait = true});
        },
        fn_args(vec_ty, vec_ty, scalar_ty, of_in.prod(), of_factor.prod(), of_out.cons()));

    std::mt19937_64 rng(o.seed);
    std::vector<T> a(static_cast<std::size_t>(size));
    for (auto& x : a) x = static_cast<T>(static_cast<std::int64_t>(rng() % 200) - 100 + (rng() % 4 == 0 ? 30000 : 0));
    auto reference = [shape = vec_ty.shape](const Tensors& in) {
        const auto x = get(in, "a").values<T>();
        const std::int64_t f = get(in, "factor").values<std::int32_t>()[0];
        std::vector<T> c(x.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            c[i] = static_cast<T>(static_cast<std::int64_t>(x[i]) * f); // numpy: (a.astype(int64) * f).astype(T)
        return tensors("c", Tensor::from(shape, c));
    };
    Program program(dev, rt, {w}, "vector_scalar_mul");
    if (trace_size > 0) program.enable_trace(static_cast<std::uint64_t>(trace_size));
    return DesignInstance(
        std::move(program),
        {ArgSpec::input("a", vec_ty), ArgSpec::output("c", vec_ty), ArgSpec::input("factor", scalar_ty)},
        tensors("a", Tensor::from(vec_ty.shape, a), "factor", Tensor::from<std::int32_t>({1}, {factor})), reference,
        "vector_scalar_mul");
}

} // namespace

DesignSpec make_vector_scalar_mul() {
    DesignSpec s;
    s.name = "vector_scalar_mul";
    s.description = "E3: out = in * factor with vector_scalar_mul (int16 or int32), factor via its own fifo";
    s.params = {{"size", 4096, "elements in the tensor"},
                {"tile", 1024, "elements per fifo object"},
                {"factor", 3, "the scalar factor (the generated input 'factor')"},
                {"bits", 16, "element width: 16 or 32"},
                {"trace_size", 0, "bytes of the trace buffer (IRON's trace_size; 0: no enable_trace)"}};
    s.devices = every_device();
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        require_multiple("vector_scalar_mul", p, "size", "tile");
        require_one_of("vector_scalar_mul", p, "bits", {16, 32});
        if (o.kernels == KernelSet::aie)
            require_vector_multiple("vector_scalar_mul", p, "tile", 512 / p.at("bits"), "scale");
        const auto f = static_cast<std::int32_t>(p.at("factor"));
        const auto trace = p.at("trace_size"); // as IRON's `if trace_size > 0`: 0 or less is no trace
        return p.at("bits") == 32 ? build<std::int32_t>(dev, p.at("size"), p.at("tile"), f, trace, o)
                                  : build<std::int16_t>(dev, p.at("size"), p.at("tile"), f, trace, o);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_vector_scalar_mul, 30);

} // namespace npusim::examples
