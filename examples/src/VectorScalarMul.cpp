// E3 basic/vector_scalar_mul: out = in * factor, tile by tile. The factor arrives through its
// own fifo `param0` (i32[1]) and is held for a whole pass over the tensor.
// Golden: (a * 3) wrapped to the element type, computed here in 64-bit then truncated.
#include "Designs.hpp"
#include "npusim/kernels/vector_scalar_mul.hpp"

namespace npusim::examples {

using namespace npusim::iron;

namespace {

template <class T>
DesignInstance build(const model::DeviceSpec& dev, std::int64_t size, std::int64_t tile, std::int32_t factor,
                     std::uint64_t seed) {
    const auto vec_ty = tensor<T>({size});
    const auto tile_ty = tensor<T>({tile});
    const auto scalar_ty = tensor<std::int32_t>({1});
    ObjectFifo of_in(tile_ty, "in0", 2);
    ObjectFifo of_out(tile_ty, "out", 2);
    ObjectFifo of_factor(scalar_ty, "param0", 2);
    constexpr bool is16 = sizeof(T) == 2;
    Kernel scale("vector_scalar_mul_vector", is16 ? reinterpret_cast<void (*)(const T*, T*, const std::int32_t*, std::int32_t)>(
                                                        &kernels::vector_scalar_mul_i16)
                                                  : reinterpret_cast<void (*)(const T*, T*, const std::int32_t*, std::int32_t)>(
                                                        &kernels::vector_scalar_mul_i32),
                 {tile_ty, tile_ty, scalar_ty, scalar<std::int32_t>()}, [](std::span<const KernelArg> a) {
                     const auto n = static_cast<std::int32_t>(a[3].ivalue);
                     return is16 ? kernels::vector_scalar_mul_i16_cycles(n) : kernels::vector_scalar_mul_i32_cycles(n);
                 });
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
        fn_args(of_in.cons(), of_out.prod(), of_factor.cons(), scale), {.name = "scale"});
    Runtime rt(
        [](RuntimeData a, RuntimeData c, RuntimeData f, ObjectFifoHandle in, ObjectFifoHandle fac, ObjectFifoHandle out) {
            in.fill(a);
            fac.fill(f);
            out.drain(c, {.wait = true});
        },
        fn_args(vec_ty, vec_ty, scalar_ty, of_in.prod(), of_factor.prod(), of_out.cons()));

    std::mt19937_64 rng(seed);
    std::vector<T> a(static_cast<std::size_t>(size));
    for (auto& x : a) x = static_cast<T>(static_cast<std::int64_t>(rng() % 200) - 100 + (rng() % 4 == 0 ? 30000 : 0));
    std::vector<T> want(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        want[i] = static_cast<T>(static_cast<std::int64_t>(a[i]) * factor);   // numpy: (a * f).astype(T)
    DesignInstance inst{Program(dev, rt, {w}, "vector_scalar_mul"),
                        {to_bytes(a), std::vector<std::uint8_t>(vec_ty.bytes()), to_bytes(std::vector<std::int32_t>{factor})},
                        {}};
    inst.check = [want](const std::vector<std::vector<std::uint8_t>>& host) {
        return std::vector<OutputCheck>{compare_exact<T>("c (arg 1)", host[1], want)};
    };
    return inst;
}

} // namespace

DesignSpec make_vector_scalar_mul() {
    DesignSpec s;
    s.name = "vector_scalar_mul";
    s.description = "E3: out = in * factor with vector_scalar_mul (int16 or int32), factor via its own fifo";
    s.params = {{"size", 4096, "elements in the tensor"},
                {"tile", 1024, "elements per fifo object"},
                {"factor", 3, "the scalar factor"},
                {"bits", 16, "element width: 16 or 32"}};
    s.devices = every_device();
    s.build = [](const model::DeviceSpec& dev, const Params& p, std::uint64_t seed) {
        require_multiple("vector_scalar_mul", p, "size", "tile");
        require_one_of("vector_scalar_mul", p, "bits", {16, 32});
        const auto f = static_cast<std::int32_t>(p.at("factor"));
        return p.at("bits") == 32 ? build<std::int32_t>(dev, p.at("size"), p.at("tile"), f, seed)
                                  : build<std::int16_t>(dev, p.at("size"), p.at("tile"), f, seed);
    };
    return s;
}

} // namespace npusim::examples
