// E10 basic/transposes/transposes.py --strategy dma: C = A^T with no compute. The whole M x K
// matrix is one object of fifo `of_in` (u32(M,K) d2), forwarded through an L1 buffer on a compute
// tile (`of_in.cons().forward(AnyComputeTile)` -> `of_in_fwd`). The shim reads A column-major
// (simple_tiler((M,K), tile_col_major=True): sizes [1,1,K,M], strides [0,0,1,K]); the drain is
// linear. Three runtime arguments as upstream, the middle one unused.
// The element must be 4 bytes: the shim's stride-1 granularity is one 32-bit word.
// Golden: c (K x M) = a.T, inputs drawn from the seed over the whole u32 range.
#include "Design.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_transpose_dma() {
    DesignSpec s;
    s.name = "transpose_dma";
    s.description = "E10: C = A^T by the shim DMA's access pattern, through a compute-tile forward, no compute";
    s.params = {{"M", 64, "rows of A (at most 1023: a shim dimension)"}, {"K", 64, "columns of A (at most 1023)"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: the shim DMA's column-major read does the transpose";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string design = "transpose_dma";
        const auto M = p.at("M"), K = p.at("K");
        if (M <= 0 || K <= 0)
            throw DesignError(fmt::format("design '{}': parameters M={} and K={} must be positive", design, M, K));
        const auto a_ty = tensor<std::uint32_t>({M, K});
        const auto c_ty = tensor<std::uint32_t>({K, M});
        ObjectFifo of_in(a_ty, "of_in", 2);
        ObjectFifo of_out = of_in.cons().forward(AnyComputeTile);
        const TensorAccessPattern tap_in({M, K}, 0, {1, 1, K, M}, {0, 0, 1, K});
        Runtime rt(
            [tap_in](RuntimeData a, RuntimeData, RuntimeData c, ObjectFifoHandle in, ObjectFifoHandle out) {
                in.fill(a, {.tap = tap_in});
                out.drain(c, {.wait = true});
            },
            fn_args(a_ty, a_ty, c_ty, of_in.prod(), of_out.cons()));
        std::mt19937_64 rng(o.seed);
        std::vector<std::uint32_t> a(static_cast<std::size_t>(M * K));
        for (auto& x : a) x = static_cast<std::uint32_t>(rng());
        auto reference = [M, K, shape = c_ty.shape](const Tensors& t) {
            const auto x = get(t, "a").values<std::uint32_t>();
            std::vector<std::uint32_t> c(x.size());
            for (std::int64_t i = 0; i < M; ++i)
                for (std::int64_t j = 0; j < K; ++j)
                    c[static_cast<std::size_t>(j * M + i)] = x[static_cast<std::size_t>(i * K + j)];
            return tensors("c", Tensor::from(shape, c));
        };
        return DesignInstance(Program(dev, rt, {}, design),
                              {ArgSpec::input("a", a_ty), ArgSpec::unused("b", a_ty), ArgSpec::output("c", c_ty)},
                              tensors("a", Tensor::from(a_ty.shape, a)), reference, design);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_transpose_dma, 100);

} // namespace npusim::examples
