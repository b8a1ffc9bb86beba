// E9 basic/row_wise_bias_add/row_wise_bias_add.py: out = in + bias, the bias broadcast over the
// rows of an M x N f32 matrix, worked on in m x n tiles taken column-block by column-block.
//   fifos `in_fifo` f32[m*n] d2, `bias_fifo` f32[n] d2, `out_fifo` f32[m*n] d2
//   worker: (N/n) x { acquire bias; (M/m) x { acquire in, out; kernel(in, bias, out);
//           release out, in }; release bias }
//   taps: in/out off 0, sizes [1, N/n, M, n], strides [0, n, N, 1] (each m x n tile is m rows of
//         n columns); bias sizes [1, N/n, 1, n], strides [0, n, N, 1] (linear).
// The kernel row_wise_bias_add_f32_f32(in, bias, out) is compiled upstream with -DDIM_m=m
// -DDIM_n=n; here the binding supplies m and n to the native function the same way.
// Inputs: `in` drawn from the seed (upstream: arange(M*N)), `bias` = 3 * arange(N) as upstream.
// Golden: out[i][j] = in[i][j] + bias[j] in f32, compared exactly.
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/row_wise_bias_add.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

Kernel bias_add_kernel(KernelSet ks, std::int64_t m, std::int64_t n) {
    const auto tile_ty = tensor<float>({m * n});
    const auto bias_ty = tensor<float>({n});
    const auto mi = static_cast<std::int32_t>(m), ni = static_cast<std::int32_t>(n);
    auto cost = [mi, ni](std::span<const KernelArg>) { return kernels::row_wise_bias_add_f32_cycles(mi, ni); };
    // The native kernels take m and n; the IRON kernel has them compiled in (-DDIM_m, -DDIM_n).
    using Fn = void (*)(const float*, const float*, float*, int, int);
    const Fn fn = ks == KernelSet::aie ? static_cast<Fn>(&aie_kernels::row_wise_bias_add_f32_f32)
                                       : static_cast<Fn>(&kernels::row_wise_bias_add_f32);
    Kernel::Invoker inner = [fn, mi, ni](std::span<const KernelArg> a) {
        using iron::detail::convert_kernel_arg;
        fn(convert_kernel_arg<const float*>(a[0]), convert_kernel_arg<const float*>(a[1]),
           convert_kernel_arg<float*>(a[2]), mi, ni);
    };
    if (ks == KernelSet::aie) inner = with_aie_core_modes(std::move(inner), make_aie_core_modes());
    return Kernel("row_wise_bias_add_f32_f32", std::move(inner), {tile_ty, bias_ty, tile_ty}, cost,
                  {sizeof(float), sizeof(float), sizeof(float)});
}

} // namespace

DesignSpec make_row_wise_bias_add() {
    DesignSpec s;
    s.name = "row_wise_bias_add";
    s.description = "E9: out = in + bias per row of an M x N f32 matrix, in m x n tiles, column blocks first";
    s.params = {{"M", 768, "rows of the matrix (at most 1023: a shim dimension)"},
                {"N", 2304, "columns of the matrix"},
                {"m", 96, "rows per tile"},
                {"n", 32, "columns per tile (a multiple of 32)"}};
    s.devices = every_device();
    // The build also binds the AIE-API kernel sources (BuildOptions::kernels == aie; tested in
    // tests/examples/Designs3_test.cpp); the registry does not list that build yet, because
    // tests/examples/Golden_test.cpp pins the list of designs that have one.
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "row_wise_bias_add";
        require_multiple(design, p, "M", "m");
        require_multiple(design, p, "N", "n");
        if (p.at("n") % kernels::kBiasAddVectorLanes != 0)
            throw DesignError(
                fmt::format("design '{}': the kernel adds the bias in 32-float vectors; parameter n={} is not a "
                            "multiple of 32",
                            design, p.at("n")));
        const auto M = p.at("M"), N = p.at("N"), m = p.at("m"), n = p.at("n");
        const auto mat_ty = tensor<float>({M, N});
        const auto vec_ty = tensor<float>({N});
        const auto tile_ty = tensor<float>({m * n});
        const auto bias_ty = tensor<float>({n});
        ObjectFifo in_fifo(tile_ty, "in_fifo", 2);
        ObjectFifo bias_fifo(bias_ty, "bias_fifo", 2);
        ObjectFifo out_fifo(tile_ty, "out_fifo", 2);
        const Kernel kern = bias_add_kernel(o.kernels, m, n);
        const std::int64_t col_blocks = N / n, row_blocks = M / m;
        Worker w(
            [col_blocks, row_blocks](ObjectFifoHandle in, ObjectFifoHandle bias, ObjectFifoHandle out, Kernel k) {
                for (std::int64_t c = 0; c < col_blocks; ++c) {
                    auto eb = bias.acquire(1);
                    for (std::int64_t r = 0; r < row_blocks; ++r) {
                        auto ei = in.acquire(1);
                        auto eo = out.acquire(1);
                        k(ei, eb, eo);
                        out.release(1);
                        in.release(1);
                    }
                    bias.release(1);
                }
            },
            fn_args(in_fifo.cons(), bias_fifo.cons(), out_fifo.prod(), kern), {.name = "bias_add"});
        const TensorAccessPattern tap({M, N}, 0, {1, col_blocks, M, n}, {0, n, N, 1});
        const TensorAccessPattern bias_tap({1, N}, 0, {1, col_blocks, 1, n}, {0, n, N, 1});
        Runtime rt(
            [tap, bias_tap](RuntimeData in, RuntimeData bias, RuntimeData out, ObjectFifoHandle hi, ObjectFifoHandle hb,
                            ObjectFifoHandle ho) {
                hi.fill(in, {.tap = tap});
                hb.fill(bias, {.tap = bias_tap});
                ho.drain(out, {.tap = tap, .wait = true});
            },
            fn_args(mat_ty, vec_ty, mat_ty, in_fifo.prod(), bias_fifo.prod(), out_fifo.cons()));

        std::mt19937_64 rng(o.seed);
        std::vector<float> in(static_cast<std::size_t>(M * N)), bias(static_cast<std::size_t>(N));
        // Multiples of 1/64 in [-15625, 15625): exact in f32, with fractional parts.
        for (auto& x : in) x = static_cast<float>(static_cast<std::int64_t>(rng() % 2000000) - 1000000) / 64.0f;
        for (std::size_t j = 0; j < bias.size(); ++j) bias[j] = 3.0f * static_cast<float>(j);
        auto reference = [M, N, shape = mat_ty.shape](const Tensors& t) {
            const auto x = get(t, "in").values<float>(), b = get(t, "bias").values<float>();
            std::vector<float> out(x.size());
            for (std::int64_t i = 0; i < M; ++i)
                for (std::int64_t j = 0; j < N; ++j) {
                    const auto k = static_cast<std::size_t>(i * N + j);
                    out[k] = x[k] + b[static_cast<std::size_t>(j)]; // numpy: in + bias[None, :] in float32
                }
            return tensors("out", Tensor::from(shape, out));
        };
        return DesignInstance(
            Program(dev, rt, {w}, design),
            {ArgSpec::input("in", mat_ty), ArgSpec::input("bias", vec_ty), ArgSpec::output("out", mat_ty)},
            tensors("in", Tensor::from(mat_ty.shape, in), "bias", Tensor::from(vec_ty.shape, bias)), reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_row_wise_bias_add, 90);

} // namespace npusim::examples
