// E6 basic/matrix_multiplication/single_core: C (M x N, dtype_out) = A (M x K, dtype_in) . B (K x N)
// on one core (dtype_in/dtype_out as IRON's --dtype_in/--dtype_out: i16 -> i32 by default; i8 ->
// i8/i16/i32, i16 -> i16/i32, bf16 -> bf16/f32), m x k x n tiles. A and B are re-tiled into r x s / s x t blocks on mem tiles (memA,
// memB), the core accumulates C += A.B in the blocked layout, and outC un-tiles C on its way out.
// The sequence runs M/m/2 task groups of two row blocks each, finishing a group only after the
// next one has been issued (ping-pong; smaller groups where a large N splits the fills into
// several shim tasks, matmul::plan_groups). Golden: (A @ B in int64).astype(dtype_out), or for bf16
// (A @ B in double) rounded to dtype_out, within a stated rtol (matmul::output_spec).
#include "MatmulCommon.hpp"

namespace npusim::examples {

using namespace npusim::iron;

DesignSpec make_matmul_single_core() {
    DesignSpec s;
    s.name = "matmul_single_core";
    s.description = "E6: matmul on one core, mem-tile re-tiling, ping-pong task groups; " +
                    matmul::dtype_note(DType::i16, DType::i32);
    s.params = {{"M", 512, "rows of A and C"},
                {"K", 512, "columns of A, rows of B"},
                {"N", 512, "columns of B and C"},
                {"m", 32, "tile rows"},
                {"k", 32, "tile depth"},
                {"n", 32, "tile columns"},
                matmul::dtype_in_param(DType::i16),
                matmul::dtype_out_param(DType::i32)};
    s.devices = every_device();
    s.kernel_sets = {KernelSet::reference, KernelSet::aie};
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::string name = "matmul_single_core";
        require_multiple(name, p, "M", "m");
        require_multiple(name, p, "K", "k");
        require_multiple(name, p, "N", "n");
        const std::int64_t M = p.at("M"), K = p.at("K"), N = p.at("N"), m = p.at("m"), k = p.at("k"), n = p.at("n");
        const auto ty = matmul::dtypes(name, p);
        const auto d = matmul::mac_dims(dev.arch, ty.in);
        if (m % (2 * d.r) || k % d.s || n % (2 * d.t))
            throw DesignError(fmt::format("design '{}': m={} k={} n={} must be multiples of 2r={}, s={}, 2t={} on {}",
                                          name, m, k, n, 2 * d.r, d.s, 2 * d.t, dev.name));
        if ((M / m) % 2)
            throw DesignError(
                fmt::format("design '{}': M/m={} must be even (two row blocks per task group)", name, M / m));
        ObjectFifo inA(matmul::matrix(ty.in, m, k), "inA"), inB(matmul::matrix(ty.in, k, n), "inB"),
            memC(matmul::matrix(ty.out, m, n), "memC");
        auto memA = inA.cons().forward({.name = "memA", .dims_to_stream = matmul::a_dims(m, k, d)});
        auto memB = inB.cons().forward({.name = "memB", .dims_to_stream = matmul::b_dims(k, n, d)});
        auto outC = memC.cons().forward({.name = "outC", .dims_to_stream = matmul::c_dims(m, n, d)});
        const std::int64_t tiles = (M / m) * (N / n), ksteps = K / k;
        Worker w(matmul::core_body(tiles, ksteps),
                 fn_args(memA.cons(), memB.cons(), memC.prod(), matmul::matmul_kernel(m, k, n, dev.arch, ty, o.kernels),
                         matmul::zero_kernel(m, n, ty.out, o.kernels)),
                 {.stack_size = 0xD00, .name = "matmul"});
        const auto A_ty = matmul::flat(ty.in, M * K), B_ty = matmul::flat(ty.in, K * N),
                   C_ty = matmul::flat(ty.out, M * N);
        // single_core.py sequence() (L163-184): groups of rows_per_block // 2 = 2 row blocks, each
        // group finished only after the next one has been issued (ping-pong). Where a fill's repeat
        // is split into several shim tasks (N / n > 64), groups shrink to one row block and then to
        // one group in flight, so that the shim's BD ids and task queues suffice
        // (matmul::plan_groups).
        auto a_tap = [=](std::int64_t row) { // row block of A, each k-tile, repeated for the N/n column blocks
            return TensorAccessPattern({M * K}, row * m * K, {N / n, K / k, m, k}, {0, k, K, 1});
        };
        const auto b_tap = // all of B, column-block major
            TensorAccessPattern({K * N}, 0, {N / n, K / k, k, n}, {n, k * N, N, 1});
        auto c_tap = [=](std::int64_t row, std::int64_t n_rows) {
            return TensorAccessPattern({M * N}, row * m * N, {n_rows, N / n, m, n}, {m * N, n, N, 1});
        };
        const auto plan = matmul::plan_groups(dev, name, shim_task_count(a_tap(0), dev.shim),
                                              shim_task_count(b_tap, dev.shim), shim_task_count(c_tap(0, 2), dev.shim));
        Runtime rt(
            [=](RuntimeData A, RuntimeData B, RuntimeData C, ObjectFifoHandle ha, ObjectFifoHandle hb,
                ObjectFifoHandle hc) {
                std::optional<TaskGroup> prev;
                for (std::int64_t row = 0; row < M / m; row += plan.rows) {
                    TaskGroup g;
                    for (std::int64_t r = 0; r < plan.rows; ++r) {
                        ha.fill(A, {.tap = a_tap(row + r), .group = &g});
                        hb.fill(B, {.tap = b_tap, .group = &g});
                    }
                    hc.drain(C, {.tap = c_tap(row, plan.rows), .wait = true, .group = &g});
                    if (plan.in_flight == 1) {
                        g.finish();
                        continue;
                    }
                    if (prev) prev->finish(); // ping-pong: finish the previous group once this one is issued
                    prev = g;
                }
                if (prev) prev->finish();
            },
            fn_args(A_ty, B_ty, C_ty, inA.prod(), inB.prod(), outC.cons()));
        auto reference = [M, K, N, ty](const Tensors& in) {
            return tensors("C", matmul::reference(get(in, "A"), get(in, "B"), M, K, N, ty)); // moved, not copied
        };
        return DesignInstance(
            Program(dev, rt, {w}, name),
            {ArgSpec::input("A", A_ty), ArgSpec::input("B", B_ty), matmul::output_spec(C_ty, ty, K, k)},
            {{"A", matmul::random_input(ty.in, M * K, o.seed)}, {"B", matmul::random_input(ty.in, K * N, o.seed + 1)}},
            reference, name);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_matmul_single_core, 50);

} // namespace npusim::examples
