// E7 basic/matrix_multiplication/whole_array: C (M x N, dtype_out) = A . B (dtype_in) on a 4-row x
// `cols` grid of cores (dtype_in/dtype_out as IRON's options: i16 -> i16 by default; i8 ->
// i8/i16/i32, i16 -> i16/i32, bf16 -> bf16/f32). Row fifo A_L3L2_r is split through mem tile r into A_L2L1_r, broadcast to every
// core of row r; column fifo B_L3L2_c is forwarded through mem tile c into B_L2L1_c, broadcast to
// every core of column c; the four cores of column c each produce C_L1L2_c_r, joined on mem tile c
// into C_L2L3_c (un-tiled by c_dims) and drained by shim c. Link tiles are pinned to those mem
// tiles (IRON leaves them to the placer). Golden: (A @ B in int64).astype(dtype_out), or for bf16
// (A @ B in double) rounded to dtype_out, within a stated rtol (matmul::output_spec).
#include "MatmulCommon.hpp"

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_matmul_whole_array() {
    DesignSpec s;
    s.name = "matmul_whole_array";
    s.description = "E7: matmul on a 4 x cols core grid, broadcast A rows and B columns, joined C per column; " +
                    matmul::dtype_note(DType::i16, DType::i16);
    s.params = {{"M", 512, "rows of A and C"},
                {"K", 512, "columns of A, rows of B"},
                {"N", 512, "columns of B and C"},
                {"m", 64, "tile rows per core"},
                {"k", 64, "tile depth"},
                {"n", 32, "tile columns per core"},
                {"cols", 0, "core columns (0: every column of the device)"},
                matmul::dtype_in_param(DType::i16),
                matmul::dtype_out_param(DType::i16)};
    s.devices = {"npu1", "npu2", "npu2_4col", "npu2_5col", "npu2_6col", "npu2_7col"};
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string name = "matmul_whole_array";
        const std::int64_t rows = 4;
        const std::int64_t cols = p.at("cols") ? p.at("cols") : dev.cols;
        const std::int64_t M = p.at("M"), K = p.at("K"), N = p.at("N"), m = p.at("m"), k = p.at("k"), n = p.at("n");
        if (cols < rows || cols > dev.cols)
            throw DesignError(
                fmt::format("design '{}': cols={} must be within {}..{} on {} (row fifos use mem tiles 0-3)", name,
                            cols, rows, dev.cols, dev.name));
        if (M % (m * rows) || K % k || N % (n * cols))
            throw DesignError(
                fmt::format("design '{}': M={} must be a multiple of 4m={}, K={} of k={}, N={} of n*cols={}", name, M,
                            m * rows, K, k, N, n * cols));
        const auto ty = matmul::dtypes(name, p);
        const auto d = matmul::mac_dims(dev.arch, ty.in);
        if (m % (2 * d.r) || k % d.s || n % (2 * d.t))
            throw DesignError(fmt::format("design '{}': m={} k={} n={} must be multiples of 2r={}, s={}, 2t={} on {}",
                                          name, m, k, n, 2 * d.r, d.s, 2 * d.t, dev.name));
        const auto a_ty = matmul::matrix(ty.in, m, k), b_ty = matmul::matrix(ty.in, k, n),
                   c_ty = matmul::matrix(ty.out, m, n);
        std::vector<ObjectFifo> A_L3L2, A_L2L1, B_L3L2, B_L2L1, C_L2L3;
        std::vector<std::vector<ObjectFifo>> C_L1L2(static_cast<std::size_t>(cols));
        for (std::int64_t r = 0; r < rows; ++r) {
            A_L3L2.emplace_back(matmul::flat(ty.in, m * k), fmt::format("A_L3L2_{}", r));
            A_L2L1.push_back(A_L3L2.back().cons().split({0}, {.tile = Tile(static_cast<int>(r), 1),
                                                              .obj_types = {a_ty},
                                                              .names = {fmt::format("A_L2L1_{}", r)},
                                                              .dims_to_stream = {matmul::a_dims(m, k, d)}})[0]);
        }
        std::vector<std::int64_t> c_offsets;
        for (std::int64_t r = 0; r < rows; ++r) c_offsets.push_back(r * m * n);
        for (std::int64_t c = 0; c < cols; ++c) {
            B_L3L2.emplace_back(matmul::flat(ty.in, k * n), fmt::format("B_L3L2_{}", c));
            B_L2L1.push_back(B_L3L2.back().cons().forward({.tile = Tile(static_cast<int>(c), 1),
                                                           .obj_type = b_ty,
                                                           .name = fmt::format("B_L2L1_{}", c),
                                                           .dims_to_stream = matmul::b_dims(k, n, d)}));
            C_L2L3.emplace_back(matmul::flat(ty.out, m * n * rows), fmt::format("C_L2L3_{}", c), 2,
                                FifoOptions{.dims_to_stream = matmul::c_dims(m, n, d)});
            std::vector<std::string> names;
            for (std::int64_t r = 0; r < rows; ++r) names.push_back(fmt::format("C_L1L2_{}_{}", c, r));
            C_L1L2[static_cast<std::size_t>(c)] =
                C_L2L3.back().prod().join(c_offsets, {.tile = Tile(static_cast<int>(c), 1),
                                                      .depths = std::vector<int>(4, 2),
                                                      .obj_types = std::vector<TensorType>(4, c_ty),
                                                      .names = names});
        }
        const std::int64_t tiles = (M / (m * rows)) * (N / (n * cols)), ksteps = K / k;
        std::vector<Worker> workers;
        for (std::int64_t c = 0; c < cols; ++c) // column-major: worker (r, c) lands on tile (c, 2 + r)
            for (std::int64_t r = 0; r < rows; ++r)
                workers.emplace_back(matmul::core_body(tiles, ksteps),
                                     // one kernel object per worker: each core has its own AIE-API mode state
                                     fn_args(A_L2L1[static_cast<std::size_t>(r)].cons(),
                                             B_L2L1[static_cast<std::size_t>(c)].cons(),
                                             C_L1L2[static_cast<std::size_t>(c)][static_cast<std::size_t>(r)].prod(),
                                             matmul::matmul_kernel(m, k, n, dev.arch, ty, o.kernels),
                                             matmul::zero_kernel(m, n, ty.out, o.kernels)),
                                     WorkerOptions{.stack_size = 0xD00, .name = fmt::format("mm_{}_{}", r, c)});
        std::vector<ObjectFifoHandle> a_in, b_in, c_out;
        for (auto& f : A_L3L2) a_in.push_back(f.prod());
        for (auto& f : B_L3L2) b_in.push_back(f.prod());
        for (auto& f : C_L2L3) c_out.push_back(f.cons());
        const auto A_ty = matmul::flat(ty.in, M * K), B_ty = matmul::flat(ty.in, K * N),
                   C_ty = matmul::flat(ty.out, M * N);
        Runtime rt(
            [=](RuntimeData A, RuntimeData B, RuntimeData C, std::vector<ObjectFifoHandle> ha,
                std::vector<ObjectFifoHandle> hb, std::vector<ObjectFifoHandle> hc) {
                TaskGroup g;
                const std::int64_t tile_rows = M / (m * rows), col_tiles = N / (n * cols);
                for (std::int64_t c = 0; c < cols; ++c) {
                    hc[static_cast<std::size_t>(c)].drain(
                        C, {.tap = TensorAccessPattern({M * N}, c * n, {tile_rows, col_tiles, m * rows, n},
                                                       {m * rows * N, n * cols, N, 1}),
                            .wait = true,
                            .group = &g});
                    for (std::int64_t tr = 0; tr < tile_rows; ++tr) {
                        if (c < rows) // row block tr*4 + c of A, each k-tile, repeated for the column tiles
                            ha[static_cast<std::size_t>(c)].fill(
                                A, {.tap = TensorAccessPattern({M * K}, (tr * rows + c) * m * K,
                                                               {col_tiles, K / k, m, k}, {0, k, K, 1}),
                                    .group = &g});
                        hb[static_cast<std::size_t>(c)].fill(
                            B, {.tap = TensorAccessPattern({K * N}, c * n, {col_tiles, K / k, k, n},
                                                           {n * cols, k * N, N, 1}),
                                .group = &g});
                    }
                }
                g.finish();
            },
            fn_args(A_ty, B_ty, C_ty, a_in, b_in, c_out));
        auto reference = [M, K, N, ty](const Tensors& in) {
            return Tensors{{"C", matmul::reference(get(in, "A"), get(in, "B"), M, K, N, ty)}};
        };
        return DesignInstance(
            Program(dev, rt, workers, name),
            {ArgSpec::input("A", A_ty), ArgSpec::input("B", B_ty), matmul::output_spec(C_ty, ty, K, k)},
            {{"A", matmul::random_input(ty.in, M * K, o.seed)}, {"B", matmul::random_input(ty.in, K * N, o.seed + 1)}},
            reference, name);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_matmul_whole_array, 60);

} // namespace npusim::examples
