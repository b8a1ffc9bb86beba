// E8 basic/matrix_multiplication/cascade (mlir-aie programming_examples/.../cascade/cascade.py):
// C (M x N, i32) = A (M x K, i16) . B (K x N, i16) on a 4-row x 4-column grid of cores where each
// column splits K over its four rows and adds the partial sums up a cascade chain: the worker on
// row 3 (tile (c,5)) puts its sums (put_only), rows 2 and 1 get, add and put (put_get), row 0
// (tile (c,2)) gets, adds and accumulates into C (get_only, after zeroing each C tile).
// CascadeFlows run north to south within each column (cascade.py L275-278); the kernels move one
// 512-bit word per output element (aie_kernels/aie2/cascade_mm.cc, scalar, row-major A and B).
// Data movement (cascade.py L104-172): A_L3L2_c (shim c -> mem tile c) is split into A_L2L1_c
// (4 columns: one m x k tile per object) and broadcast to the four cores of row c; B_L3L2_c
// (4k x n objects) is split on mem tile c into B_L2L1_c_r (k x n each) for the core of row r;
// C_L1L2_c from the row-0 core is forwarded through mem tile c (C_L2L3_c) to shim c. The kernels'
// mac dims are (1, 1, 1) (python/iron/kernels/linalg.py _CASCADE_MM_SCALAR_DIMS), so the mem-tile
// layouts a_dims, b_dims and the C dims are the identity (row-major) and are left out here.
// The runtime sequence (L324-349) walks the M/m row blocks in task groups of up to tb_max_n_rows
// row blocks: per group and column one C drain (wait) and, per row block, one A and one B fill.
// The worker on row r gets the k-tiles r, r + 4, ... of every A row block (A_taps with
// tile_group_steps (1, 4)) and the matching B rows (the r-th k x n piece of each 4k x n object).
// Parameters as cascade.py's defaults: M = K = N = 512, m = k = n = 32, i16 -> i32, 4 columns.
// --n-aie-cols 1 and 2 are built as cascade.py builds them: one A shim feeds n_A = 4 / cols rows
// (L92 n_A_tiles_per_shim), A_L3L2_c carries n_A m x k tiles per object and mem tile c splits it into
// A_L2L1_r for rows c n_A ... (L112-131); A_taps (L318-325) take (n_A m) x k tiles. Resolve then
// refuses them as the toolchain's placer does (SequentialPlacer::validateAndUpdateChannelUsage): mem
// tile c needs n_A (A split) + 4 (B split) + 1 (C forward) MM2S channels, more than its 6.
// Golden: (A @ B in int64).astype(int32) (cascade.py L439-440), exact.
#include "MatmulCommon.hpp"

#include "npusim/harness/KernelLibraryMatvec.hpp"

namespace npusim::examples {

using namespace npusim::iron;

namespace {

constexpr std::int64_t kRows = 4; // n_aie_rows, L68

struct CascadeKernels {
    Kernel get_only, put_only, put_get, zero;
};

// The built-in library's cascade_mm kernels (harness/KernelLibraryMatvec.hpp). C is zeroed with the
// matmul designs' vectorized zero_<out>; cascade.py:80 binds cascade_mm's .zero (zero_scalar_<out>),
// which the library's cascade_mm also returns.
CascadeKernels cascade_kernels(std::int64_t m, std::int64_t k, std::int64_t n, DType out, KernelSet ks) {
    auto c = harness::iron_kernels::cascade_mm(m, k, n, DType::i16, out, ks);
    return {std::move(c.get_only), std::move(c.put_only), std::move(c.put_get), matmul::zero_kernel(m, n, out, ks)};
}

} // namespace

DesignSpec make_matmul_cascade() {
    DesignSpec s;
    s.name = "matmul_cascade";
    s.description = "E8: matmul on a 4 x 4 core grid, K split over each column's rows and summed up a cascade chain "
                    "(CascadeFlow, put_mcd / get_scd); i16 -> i32 or i16";
    s.params = {{"M", 512, "rows of A and C"},
                {"K", 512, "columns of A, rows of B"},
                {"N", 512, "columns of B and C"},
                {"m", 32, "tile rows per core"},
                {"k", 32, "tile depth"},
                {"n", 32, "tile columns per core"},
                {"cols", 4, "core columns (IRON's --n-aie-cols: 1, 2 or 4; only 4 fits a mem tile's channels)"},
                // cascade_mm.cc's combinations with i16 input (bf16 is not built here)
                {"dtype_out", 1, "element type of C", {"i16", "i32"}}};
    s.devices = {"npu1", "npu2"};
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string name = "matmul_cascade";
        const std::int64_t cols = p.at("cols");
        const std::int64_t M = p.at("M"), K = p.at("K"), N = p.at("N"), m = p.at("m"), k = p.at("k"), n = p.at("n");
        if (cols != 1 && cols != 2 && cols != 4) // n_A_tiles_per_shim = 4 // cols must split the 4 rows
            throw DesignError(fmt::format("design '{}': cols={} is not supported: 1, 2 or 4 columns (each A shim "
                                          "feeds 4 / cols rows)",
                                          name, cols));
        if (M % m || K % (k * kRows) || N % (n * cols)) // cascade.py L84-86
            throw DesignError(fmt::format("design '{}': M={} must be a multiple of m={}, K={} of 4k={}, N={} of "
                                          "n*cols={}",
                                          name, M, m, K, k * kRows, N, n * cols));
        const DType out = p.at("dtype_out") == 0 ? DType::i16 : DType::i32;
        const auto ck = cascade_kernels(m, k, n, out, o.kernels);
        const auto a_l1 = matmul::matrix(DType::i16, m, k), b_l1 = matmul::matrix(DType::i16, k, n),
                   c_l1 = matmul::matrix(out, m, n);
        // A: A_L3L2_c -> mem tile c -> A_L2L1_c, broadcast to row c (n_A_tiles_per_shim = 1).
        std::vector<ObjectFifo> A_L3L2, B_L3L2, C_L1L2;
        std::vector<ObjectFifo> A_L2L1;
        std::vector<std::vector<ObjectFifo>> B_L2L1(static_cast<std::size_t>(kRows));
        std::vector<ObjectFifo> C_L2L3;
        const std::int64_t n_a = kRows / cols; // n_A_tiles_per_shim, L92
        for (std::int64_t c = 0; c < cols; ++c) {
            const Tile mem(static_cast<int>(c), 1);
            A_L3L2.emplace_back(matmul::flat(DType::i16, m * k * n_a), fmt::format("A_L3L2_{}", c), 2);
            // Rows c * n_a ...: the j-th m x k tile of the regrouped object (see the header).
            std::vector<std::int64_t> a_offsets;
            LinkOptions a_split{.tile = mem};
            for (std::int64_t j = 0; j < n_a; ++j) { // rows c n_a ... (c + 1) n_a - 1
                a_offsets.push_back(j * m * k);
                a_split.obj_types.push_back(a_l1);
                a_split.names.push_back(fmt::format("A_L2L1_{}", c * n_a + j));
            }
            for (auto& f : A_L3L2.back().cons().split(a_offsets, a_split)) A_L2L1.push_back(f);
            B_L3L2.emplace_back(matmul::flat(DType::i16, k * n * kRows), fmt::format("B_L3L2_{}", c), 2);
            std::vector<std::int64_t> offsets;
            LinkOptions split{.tile = mem};
            for (std::int64_t r = 0; r < kRows; ++r) {
                offsets.push_back(k * n * r);
                split.obj_types.push_back(b_l1);
                split.names.push_back(fmt::format("B_L2L1_{}_{}", c, r));
            }
            auto bs = B_L3L2.back().cons().split(offsets, split);
            for (std::int64_t r = 0; r < kRows; ++r)
                B_L2L1[static_cast<std::size_t>(r)].push_back(bs[static_cast<std::size_t>(r)]);
            C_L1L2.emplace_back(c_l1, fmt::format("C_L1L2_{}", c), 2);
            C_L2L3.push_back(C_L1L2.back().cons().forward(
                {.tile = mem, .obj_type = matmul::flat(out, m * n), .depth = 2, .name = fmt::format("C_L2L3_{}", c)}));
        }
        const std::int64_t tiles_per_core = (M / m) * (N / n) / (kRows * cols); // n_tiles_per_core, L89
        const std::int64_t ksteps = K / k / kRows;
        auto row0 = [tiles_per_core, ksteps](ObjectFifoHandle a, ObjectFifoHandle b, ObjectFifoHandle c, Kernel zero,
                                             Kernel get_only) {
            for (std::int64_t t = 0; t < tiles_per_core; ++t) {
                auto ec = c.acquire(1);
                zero(ec);
                for (std::int64_t j = 0; j < ksteps; ++j) {
                    auto ea = a.acquire(1), eb = b.acquire(1);
                    get_only(ea, eb, ec);
                    a.release(1);
                    b.release(1);
                }
                c.release(1);
            }
        };
        auto row_put = [tiles_per_core, ksteps](ObjectFifoHandle a, ObjectFifoHandle b, Buffer c_buf, Kernel put) {
            for (std::int64_t t = 0; t < tiles_per_core; ++t)
                for (std::int64_t j = 0; j < ksteps; ++j) {
                    auto ea = a.acquire(1), eb = b.acquire(1);
                    put(ea, eb, c_buf.view());
                    a.release(1);
                    b.release(1);
                }
        };
        // workers[r][c] on tile (c, 2 + r), built column by column as cascade.py L220-269.
        std::vector<std::vector<Worker>> grid(static_cast<std::size_t>(kRows));
        std::vector<Worker> flat_workers;
        for (std::int64_t c = 0; c < cols; ++c) {
            const auto ci = static_cast<std::size_t>(c);
            for (std::int64_t r = 0; r < kRows; ++r) {
                const auto ri = static_cast<std::size_t>(r);
                const Tile tile(static_cast<int>(c), static_cast<int>(2 + r));
                const std::string wname = fmt::format("cascade_{}_{}", r, c);
                if (r == 0) {
                    grid[ri].emplace_back(
                        row0,
                        fn_args(A_L2L1[ri].cons(), B_L2L1[ri][ci].cons(), C_L1L2[ci].prod(), ck.zero, ck.get_only),
                        WorkerOptions{.tile = tile, .name = wname});
                } else {
                    Buffer c_buf(matmul::flat(out, m * n), fmt::format("C_scratch_{}_{}", c, r));
                    grid[ri].emplace_back(row_put,
                                          fn_args(A_L2L1[ri].cons(), B_L2L1[ri][ci].cons(), c_buf,
                                                  r == kRows - 1 ? ck.put_only : ck.put_get),
                                          WorkerOptions{.tile = tile, .name = wname});
                }
            }
        }
        for (std::int64_t c = 0; c < cols; ++c) // row 3 -> row 2 -> row 1 -> row 0, L276-278
            for (std::int64_t r = kRows - 1; r > 0; --r)
                CascadeFlow(grid[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)],
                            grid[static_cast<std::size_t>(r - 1)][static_cast<std::size_t>(c)]);
        for (const auto& row : grid) flat_workers.insert(flat_workers.end(), row.begin(), row.end());

        // TAPs (cascade.py L284-316), in elements of the flat tensors.
        const std::int64_t col_tiles = N / n / cols, k_groups = K / k / kRows;
        // cascade.py's A_taps: tile group mb * cols + c of (n_A m) x k tiles, k-tiles g, g + 4, ...,
        // repeated per n-tile. With 4 columns: rows of block mb, k-tiles c, c + 4, ...
        auto a_tap = [=](std::int64_t mb, std::int64_t c) {
            const std::int64_t idx = mb * cols + c;
            return TensorAccessPattern({M * K}, idx / kRows * n_a * m * K + idx % kRows * k,
                                       {col_tiles, k_groups, n_a * m, k}, {0, kRows * k, K, 1});
        };
        auto b_tap = [=](std::int64_t c) { // n-tiles c, c+cols, ...; each: all of K in 4k x n pieces
            return TensorAccessPattern({K * N}, c * n, {col_tiles, k_groups, kRows * k, n},
                                       {n * cols, kRows * k * N, N, 1});
        };
        auto c_tap = [=](std::int64_t mb0, std::int64_t rows, std::int64_t c) {
            return TensorAccessPattern({M * N}, mb0 * m * N + c * n, {rows, col_tiles, m, n}, {m * N, n * cols, N, 1});
        };
        std::vector<ObjectFifoHandle> a_in, b_in, c_out;
        for (std::int64_t c = 0; c < cols; ++c) {
            const Tile shim(static_cast<int>(c), 0);
            a_in.push_back(A_L3L2[static_cast<std::size_t>(c)].prod({.tile = shim}));
            b_in.push_back(B_L3L2[static_cast<std::size_t>(c)].prod({.tile = shim}));
            c_out.push_back(C_L2L3[static_cast<std::size_t>(c)].cons({.tile = shim}));
        }
        const auto A_ty = matmul::flat(DType::i16, M * K), B_ty = matmul::flat(DType::i16, K * N),
                   C_ty = matmul::flat(out, M * N);
        // cascade.py L282: tb_max_n_rows = 5, five A (and B) fills per shim channel in one task
        // group, column after column. A fill cannot complete before the cores consume it, and they
        // need the other columns' fills, which come later: the fifth push finds the channel running
        // the first and four in its queue, which is full but does not overflow (docs/resolve.md,
        // "Runtime sequence and shim queues").
        const std::int64_t tb_max_rows = 5;
        Runtime rt(
            [=](RuntimeData A, RuntimeData B, RuntimeData C, std::vector<ObjectFifoHandle> ha,
                std::vector<ObjectFifoHandle> hb, std::vector<ObjectFifoHandle> hc) {
                for (std::int64_t tb = 0; tb * tb_max_rows < M / m; ++tb) { // L326-349
                    const std::int64_t tb_rows = std::min(tb_max_rows, M / m - tb * tb_max_rows);
                    TaskGroup g;
                    for (std::int64_t c = 0; c < cols; ++c) {
                        const auto ci = static_cast<std::size_t>(c);
                        hc[ci].drain(C, {.tap = c_tap(tb * tb_max_rows, tb_rows, c), .wait = true, .group = &g});
                        for (std::int64_t tr = 0; tr < tb_rows; ++tr) {
                            ha[ci].fill(A, {.tap = a_tap(tb * tb_max_rows + tr, c), .group = &g});
                            hb[ci].fill(B, {.tap = b_tap(c), .group = &g});
                        }
                    }
                    g.finish();
                }
            },
            fn_args(A_ty, B_ty, C_ty, a_in, b_in, c_out));
        const matmul::Types ty{DType::i16, out};
        auto reference = [M, K, N, ty](const Tensors& in) {
            return tensors("C", matmul::reference(get(in, "A"), get(in, "B"), M, K, N, ty)); // moved, not copied
        };
        return DesignInstance(
            Program(dev, rt, flat_workers, name),
            {ArgSpec::input("A", A_ty), ArgSpec::input("B", B_ty), matmul::output_spec(C_ty, ty, K, k)},
            {{"A", matmul::random_input(DType::i16, M * K, o.seed)},
             {"B", matmul::random_input(DType::i16, K * N, o.seed + 1)}},
            reference, name);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_matmul_cascade, 65);

} // namespace npusim::examples
