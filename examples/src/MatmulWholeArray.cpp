// E7 basic/matrix_multiplication/whole_array (mlir-aie whole_array.py @ 3ca0193c): C (M x N,
// dtype_out) = A . B (dtype_in) on a 4-row x `cols` grid of cores (dtype_in/dtype_out as IRON's
// options: i16 -> i16 by default; i8 -> i8/i16/i32, i16 -> i16/i32, bf16 -> bf16/f32).
// cols is 1, 2, 4 or 8 as IRON's --n-aie-cols (L452; 5-7 also build, as _build_design accepts any
// cols >= 4 on NPU2; 3 does not: 4 // 3 = 1 A row per shim would leave row 3 without A).
// A goes through n_shim_mem_A = min(4, cols) mem tiles (L125-130): A_L3L2_i carries
// n_A_tiles_per_shim = 4 / cols (cols < 4, else 1) m x k tiles and is split on mem tile i into
// A_L2L1_r for rows r = i * n_A_tiles_per_shim + j (L153-173), each broadcast to every core of row
// r. Column fifo B_L3L2_c is forwarded through mem tile c into B_L2L1_c, broadcast to every core of
// column c; the four cores of column c each produce C_L1L2_c_r, joined on mem tile c into C_L2L3_c
// (un-tiled by c_dims) and drained by shim c (L175-212). Link tiles are pinned to those mem tiles
// (IRON leaves them to the placer).
// The runtime sequence (L298-342) issues, per half of tb_max_n_rows row blocks (2 row blocks of
// 4m rows), one C drain per column and per row block one A fill (columns < n_shim_mem_A) and one B
// fill per column, all in one TaskGroup; the first group holds two halves, then each half is
// finished as soon as it is issued. That keeps at most 4 tasks on a shim channel's queue and 10 of
// its 16 BD ids in use; where a fill's repeat is split into several tasks (N / (n cols) > 65,
// shim_task_count), the groups shrink to one row block (IRON's own tb_max_n_rows = 2) and then
// to one group in flight (matmul::plan_groups), so that no size runs out of BD ids or queue slots.
// M / (4m) must be even (IRON's _validate_shape_args, L489-495).
// Golden: (A @ B in int64).astype(dtype_out), or for bf16 (A @ B in double) rounded to dtype_out,
// within a stated rtol (matmul::output_spec).
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
                {"cols", 0, "core columns: 1, 2 or 4..8 as IRON's --n-aie-cols (0: every column of the device)"},
                matmul::dtype_in_param(DType::i16),
                matmul::dtype_out_param(DType::i16)};
    // IRON's whole_array picks NPU1ColN for --n-aie-cols N on npu1 (_device_for, L47-51) and the
    // whole npu2 for any N; here each device runs its own column count by default (cols=0).
    s.devices = {"npu1_1col", "npu1_2col", "npu1",      "npu2_1col", "npu2_2col",
                 "npu2_4col", "npu2_5col", "npu2_6col", "npu2_7col", "npu2"};
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string name = "matmul_whole_array";
        const std::int64_t rows = 4;
        const std::int64_t cols = p.at("cols") ? p.at("cols") : dev.cols;
        const std::int64_t M = p.at("M"), K = p.at("K"), N = p.at("N"), m = p.at("m"), k = p.at("k"), n = p.at("n");
        if (cols < 1 || cols > dev.cols || cols == 3)
            throw DesignError(fmt::format("design '{}': cols={} must be 1, 2 or 4..{} on {} (whole_array.py "
                                          "n_A_tiles_per_shim = 4 // cols must divide the 4 rows)",
                                          name, cols, dev.cols, dev.name));
        if (M % (m * rows) || K % k || N % (n * cols))
            throw DesignError(
                fmt::format("design '{}': M={} must be a multiple of 4m={}, K={} of k={}, N={} of n*cols={}", name, M,
                            m * rows, K, k, N, n * cols));
        if ((M / (m * rows)) % 2)
            throw DesignError(fmt::format("design '{}': M/m/4={} must be even (each drain covers 2 row blocks of "
                                          "4m rows: whole_array.py tb_n_rows = 2)",
                                          name, M / (m * rows)));
        const auto ty = matmul::dtypes(name, p);
        const auto d = matmul::mac_dims(dev.arch, ty.in);
        if (m % (2 * d.r) || k % d.s || n % (2 * d.t))
            throw DesignError(fmt::format("design '{}': m={} k={} n={} must be multiples of 2r={}, s={}, 2t={} on {}",
                                          name, m, k, n, 2 * d.r, d.s, 2 * d.t, dev.name));
        const auto a_ty = matmul::matrix(ty.in, m, k), b_ty = matmul::matrix(ty.in, k, n),
                   c_ty = matmul::matrix(ty.out, m, n);
        const std::int64_t n_shim_A = std::min(rows, cols); // n_shim_mem_A, L125-128
        const std::int64_t a_per_shim = cols < rows ? rows / cols : 1; // n_A_tiles_per_shim, L130
        std::vector<ObjectFifo> A_L3L2, A_L2L1, B_L3L2, B_L2L1, C_L2L3;
        std::vector<std::vector<ObjectFifo>> C_L1L2(static_cast<std::size_t>(cols));
        for (std::int64_t i = 0; i < n_shim_A; ++i) {
            A_L3L2.emplace_back(matmul::flat(ty.in, m * k * a_per_shim), fmt::format("A_L3L2_{}", i));
            LinkOptions split{.tile = Tile(static_cast<int>(i), 1)};
            std::vector<std::int64_t> offsets;
            for (std::int64_t j = 0; j < a_per_shim; ++j) {
                offsets.push_back(m * k * j);
                split.obj_types.push_back(a_ty);
                split.names.push_back(fmt::format("A_L2L1_{}", i * a_per_shim + j));
                split.dims_to_stream.push_back(matmul::a_dims(m, k, d));
            }
            for (auto& f : A_L3L2.back().cons().split(offsets, split)) A_L2L1.push_back(f);
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
        // Shim tasks per row block's A and B fill and per drain (one each unless a repeat is split),
        // and the task-group plan they fit (2 row blocks x 2 groups: IRON's tb_max_n_rows = 4).
        const std::int64_t row_blocks = M / (m * rows), col_tiles = N / (n * cols);
        auto a_tap = [=](std::int64_t tile) { // A_tiles[tile]: group_tiler((M, K), (m * n_A, k), (1, K / k))
            return TensorAccessPattern({M * K}, tile * m * a_per_shim * K, {col_tiles, K / k, m * a_per_shim, k},
                                       {0, k, K, 1});
        };
        auto b_tap = [=](std::int64_t col) { // B_tiles[col]: step_tiler((K, N), (k, n), steps (1, cols))
            return TensorAccessPattern({K * N}, col * n, {col_tiles, K / k, k, n}, {n * cols, k * N, N, 1});
        };
        auto c_tap = [=](std::int64_t row_base, std::int64_t n_rows, std::int64_t col) { // C_tiles, L285-291
            return TensorAccessPattern({M * N}, row_base * m * rows * N + col * n, {n_rows, col_tiles, m * rows, n},
                                       {m * rows * N, n * cols, N, 1});
        };
        const auto plan =
            matmul::plan_groups(dev, name, shim_task_count(a_tap(0), dev.shim), shim_task_count(b_tap(0), dev.shim),
                                shim_task_count(c_tap(0, 2, 0), dev.shim));
        Runtime rt(
            [=](RuntimeData A, RuntimeData B, RuntimeData C, std::vector<ObjectFifoHandle> ha,
                std::vector<ObjectFifoHandle> hb, std::vector<ObjectFifoHandle> hc) {
                // whole_array.py sequence(), L298-342: a half is tb_n_rows row blocks; the first group
                // holds plan.in_flight halves, every later one is finished as soon as it is issued.
                TaskGroup g;
                std::int64_t half = 0;
                for (std::int64_t row_base = 0; row_base < row_blocks; row_base += plan.rows, ++half) {
                    const std::int64_t n_rows = std::min(plan.rows, row_blocks - row_base);
                    for (std::int64_t c = 0; c < cols; ++c) {
                        hc[static_cast<std::size_t>(c)].drain(
                            C, {.tap = c_tap(row_base, n_rows, c), .wait = true, .group = &g});
                        for (std::int64_t tr = 0; tr < n_rows; ++tr) {
                            if (c < n_shim_A) // tile_offset = (row block * n_shim_mem_A + col), L322-330
                                ha[static_cast<std::size_t>(c)].fill(
                                    A, {.tap = a_tap((row_base + tr) * n_shim_A + c), .group = &g});
                            hb[static_cast<std::size_t>(c)].fill(B, {.tap = b_tap(c), .group = &g});
                        }
                    }
                    if (half + 1 >= plan.in_flight) { // L339-341: tb > 0 or pingpong > 0
                        g.finish();
                        g = TaskGroup();
                    }
                }
                g.finish();
            },
            fn_args(A_ty, B_ty, C_ty, a_in, b_in, c_out));
        auto reference = [M, K, N, ty](const Tensors& in) {
            return tensors("C", matmul::reference(get(in, "A"), get(in, "B"), M, K, N, ty)); // moved, not copied
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
