#pragma once
// Shared pieces of the matmul designs (E6 single core, E7 whole array): the dtype parameters and
// combinations IRON's examples offer, the mac dims of the aie::mmul shapes per architecture and
// input type, the kernel bindings, the mem-tile re-tiling patterns, the inputs and the golden
// reference.
#include "Design.hpp"
#include "npusim/harness/KernelLibraryLinalg.hpp"
#include "npusim/kernels/matmul.hpp"

#include <fmt/format.h>
#include <optional>

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::examples::matmul {

/// IRON's --dtype_in / --dtype_out choices (single_core.py, whole_array.py), in their order.
inline const std::vector<std::string> kDtypeInNames{"bf16", "i8", "i16"};
inline const std::vector<std::string> kDtypeOutNames{"bf16", "i8", "i16", "f32", "i32"};
/// The `dtype_in` / `dtype_out` ParamSpecs, defaulting to `in` / `out`.
ParamSpec dtype_in_param(DType in);
ParamSpec dtype_out_param(DType out);

/// What `npusim list` shows of the dtypes (its parameter list gives named values as indices):
/// "dtype_in=i16{bf16,i8,i16} dtype_out=i32{bf16,i8,i16,f32,i32}; combinations i8->i8/i16/i32, ...".
std::string dtype_note(DType in, DType out);

// The kernels, their mmul shapes and cost live in the built-in kernel library (IRON kernels.mm).
using Types = harness::iron_kernels::MmTypes;
using MacDims = harness::iron_kernels::MacDims;
using harness::iron_kernels::mac_dims;
using harness::iron_kernels::matmul_kernel;
using harness::iron_kernels::matmul_loop;
using harness::iron_kernels::with_mm_types;
using harness::iron_kernels::zero_kernel;
inline MacDims mac_dims_i16(model::Arch arch) { return mac_dims(arch, DType::i16); }

/// The design's dtype_in / dtype_out, which must be one of the combinations mm.cc builds
/// (i8->i8/i16/i32, i16->i16/i32, bf16->bf16/f32), else a DesignError listing them.
Types dtypes(const std::string& design, const Params& p);

/// The worker body both matmul designs run: `tiles` output tiles, each zeroed and then
/// accumulated over `ksteps` A/B tile pairs.
inline auto core_body(std::int64_t tiles, std::int64_t ksteps) {
    return [tiles, ksteps](iron::ObjectFifoHandle a, iron::ObjectFifoHandle b, iron::ObjectFifoHandle c,
                           iron::Kernel mm, iron::Kernel zero) {
        for (std::int64_t i = 0; i < tiles; ++i) {
            auto ec = c.acquire(1);
            zero(ec);
            for (std::int64_t j = 0; j < ksteps; ++j) {
                auto ea = a.acquire(1), eb = b.acquire(1);
                mm(ea, eb, ec);
                a.release(1);
                b.release(1);
            }
            c.release(1);
        }
    };
}

/// Mem-tile re-tiling of A (m x k) into r x s blocks, of row-major B (k x n) into s x t blocks,
/// and un-tiling of C (m x n) from r x t blocks (IRON a_dims, b_dims, c_dims).
iron::StreamDims a_dims(std::int64_t m, std::int64_t k, MacDims d);
iron::StreamDims b_dims(std::int64_t k, std::int64_t n, MacDims d);
iron::StreamDims c_dims(std::int64_t m, std::int64_t n, MacDims d);

/// A flat tensor of `count` elements of type t.
iron::TensorType flat(DType t, std::int64_t count);
/// A 2-D (rows x cols) tensor type of element type t.
iron::TensorType matrix(DType t, std::int64_t rows, std::int64_t cols);

/// Random inputs as IRON's examples draw them: integers in [min/4, max/4) (int8 [-32, 32), int16
/// [-8192, 8192)), bf16 uniform in [0, 4).
Tensor random_input(DType t, std::int64_t count, std::uint64_t seed);
std::vector<std::int16_t> random_i16(std::size_t n, std::uint64_t seed);

/// Golden C (M x N, flat, type ty.out): A @ B, for integers mod 2^32 (the low bits of the int64
/// sum; gemm_mod32, GemmMod32.hpp), then truncated to the output type (numpy astype); for bf16 in
/// double, then rounded to f32, and to bf16 to nearest even.
Tensor reference(const Tensor& A, const Tensor& B, std::int64_t M, std::int64_t K, std::int64_t N, Types ty);

/// The output's check: exact for integers; bf16 and f32 within rtol (see MatmulCommon.cpp).
ArgSpec output_spec(const iron::TensorType& C_ty, Types ty, std::int64_t K, std::int64_t k);

/// How the matmul sequences group their transfers: `rows` row blocks per task group (IRON's
/// tb_max_n_rows // 2 in whole_array.py L246-247, rows_per_block // 2 in single_core.py L141),
/// `in_flight` groups issued before the oldest is finished (2: IRON's ping-pong).
struct GroupPlan {
    std::int64_t rows, in_flight;
};
/// The largest plan, in IRON's order of preference (2 rows x 2 groups as IRON issues them, then
/// 1 row x 2 groups, IRON's c_col_maj choice tb_max_n_rows = 2, then 1 x 1), whose shim tasks fit
/// each channel's task queue and each shim tile's BD ids: `in_flight * rows * max(a, b) <=
/// task_queue_depth` and `in_flight * (rows * (a + b) + c) <= shim BDs`, with a, b the tasks of
/// one row block's A and B fill on one shim tile and c the tasks of one group's drain. A
/// DesignError when even one row block per group does not fit.
GroupPlan plan_groups(const model::DeviceSpec& dev, const std::string& design, std::int64_t a, std::int64_t b,
                      std::int64_t c);

} // namespace npusim::examples::matmul
