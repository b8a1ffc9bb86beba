#pragma once
// Shared pieces of the matmul designs (E6 single core, E7 whole array): the mac dims of the
// aie::mmul shapes per architecture, the kernel bindings, the mem-tile re-tiling patterns and
// the golden reference.
#include "Design.hpp"

#include <fmt/format.h>
#include <optional>

#include <cstdint>
#include <vector>

namespace npusim::examples::matmul {

/// (r, s, t) of the i16 mmul the kernels library uses: AIE2 4x4x4, AIE2P 4x4x8.
struct MacDims {
    std::int64_t r, s, t;
};
MacDims mac_dims_i16(model::Arch arch);

/// C += A.B on an m x k block of A and a k x n block of B in the blocked r x s / s x t layout.
/// `ks` picks the reference kernels or the AIE-API mm/zero builds (each call then runs with this
/// kernel object's own rounding/saturation state: make one per worker).
iron::Kernel matmul_kernel(std::int64_t m, std::int64_t k, std::int64_t n, model::Arch arch, bool i32_out,
                           KernelSet ks = KernelSet::reference);
iron::Kernel zero_kernel(std::int64_t m, std::int64_t n, bool i32_out, KernelSet ks = KernelSet::reference);

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

/// Random int16 matrices in [-8192, 8192) (numpy: integers(min/4, max/4)).
std::vector<std::int16_t> random_i16(std::size_t n, std::uint64_t seed);
/// (A @ B) computed in int64, truncated to int32 or int16 (numpy astype).
std::vector<std::int64_t> reference(const std::vector<std::int16_t>& A, const std::vector<std::int16_t>& B,
                                    std::int64_t M, std::int64_t K, std::int64_t N);

} // namespace npusim::examples::matmul
