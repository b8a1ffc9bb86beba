// Drivers of mm.cc's integer entry points (mlir-aie aie_kernels/aie2/mm.cc and aie2p/mm.cc at 3ca0193,
// the extern "C" block at the end: matmul_<in>_<out>, matmul_scalar_<in>_<out>, zero_<out>,
// zero_scalar_<out>, for DIM_M x DIM_K x DIM_N) against npusim's reference matmul (kernels_ref/src/
// matmul.cpp): C += A * B with the products summed in a 32-bit accumulator that wraps and is stored
// keeping the low bits (mm.cc sets no saturation mode). The vectorized kernels read A, B and write C
// in the blocked layout of their mmul shape (r, s, t) (the combos(X) table: AIE2 i8 4x8x8, i16 4x4x4;
// AIE2P i8 8x8x8, i16 4x4x8); the scalar ones are row-major, the reference's 1x1x1 blocks. The bf16
// combos are driven in KernelDriversMmBf16.cpp. mv.cc (aie2/mv.cc):
// matvec_scalar_i16_i32 (row-major A) and matvec_vectorized_i16_i32 (A transposed at 32-bit-word
// granularity, mv.cc:44-53), 32-bit sums that wrap, against npusim's reference (kernels_ref/src/
// matvec.cpp), and its zero fills.
#include "KernelDrivers.hpp"

#include "npusim/kernels/matmul.hpp"
#include "npusim/kernels/matvec.hpp"

#include <cstdint>
#include <cstring>
#include <fmt/format.h>

namespace npusim::kernel_check {

namespace {

template <class T>
std::vector<T> mm_ints(std::size_t n, std::uint32_t seed) {
    std::vector<T> v(n);
    for (auto& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = static_cast<T>(seed >> 8);
    }
    return v;
}

template <class T>
std::string mm_compare(const std::vector<T>& got, const std::vector<T>& want) {
    for (std::size_t i = 0; i < want.size(); ++i)
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0)
            return fmt::format("element {}: got {}, want {}", i, +got[i], +want[i]);
    return {};
}

template <class In, class Out>
using RefFn = void (*)(const In*, const In*, Out*, int, int, int, int, int, int);

template <class In, class Out>
void add_matmul(std::vector<Entry>& out, const BuildFacts& f, const char* suffix, RefFn<In, Out> ref, int r, int s,
                int t) {
    for (const bool vec : {true, false}) {
        const std::string name = fmt::format("matmul_{}{}", vec ? "" : "scalar_", suffix);
        out.push_back({name, [f, ref, vec, r, s, t](void* fn) {
                           const int m = f.dim_m, k = f.dim_k, n = f.dim_n;
                           const auto a = mm_ints<In>(static_cast<std::size_t>(m) * k, 31);
                           const auto b = mm_ints<In>(static_cast<std::size_t>(k) * n, 32);
                           auto c = mm_ints<Out>(static_cast<std::size_t>(m) * n, 33);
                           auto want = c;
                           reinterpret_cast<void (*)(In*, In*, Out*)>(fn)(const_cast<In*>(a.data()),
                                                                         const_cast<In*>(b.data()), c.data());
                           if (vec)
                               ref(a.data(), b.data(), want.data(), m, k, n, r, s, t);
                           else
                               ref(a.data(), b.data(), want.data(), m, k, n, 1, 1, 1);
                           return mm_compare(c, want);
                       }});
    }
}

template <class T>
void add_zero(std::vector<Entry>& out, const BuildFacts& f, const char* suffix) {
    for (const bool vec : {true, false})
        out.push_back({fmt::format("zero_{}{}", vec ? "" : "scalar_", suffix), [f](void* fn) {
                           auto c = mm_ints<T>(static_cast<std::size_t>(f.dim_m) * f.dim_n, 34);
                           reinterpret_cast<void (*)(T*)>(fn)(c.data());
                           return mm_compare(c, std::vector<T>(c.size(), T{}));
                       }});
}

} // namespace

void add_mm_kernels(std::vector<Entry>& out, const BuildFacts& facts) {
    BuildFacts f = facts;
    if (f.source == "mv.cc") { // c += A * b: an m x k by k x 1 product; its zero fills m values (mv.cc:137-177)
        f.dim_m = f.dim_m ? f.dim_m : 32;
        f.dim_k = f.dim_k ? f.dim_k : 32;
        f.dim_n = 1;
        for (const bool vec : {false, true})
            out.push_back({vec ? "matvec_vectorized_i16_i32" : "matvec_scalar_i16_i32", [f, vec](void* fn) {
                               const auto a = mm_ints<std::int16_t>(static_cast<std::size_t>(f.dim_m) * f.dim_k, 35);
                               const auto b = mm_ints<std::int16_t>(static_cast<std::size_t>(f.dim_k), 36);
                               auto c = mm_ints<std::int32_t>(static_cast<std::size_t>(f.dim_m), 37);
                               auto want = c;
                               reinterpret_cast<void (*)(std::int16_t*, std::int16_t*, std::int32_t*)>(fn)(
                                   const_cast<std::int16_t*>(a.data()), const_cast<std::int16_t*>(b.data()), c.data());
                               kernels::matvec_i16_i32(a.data(), b.data(), want.data(), f.dim_m, f.dim_k,
                                                       vec ? kernels::MatvecLayout::word_transposed
                                                           : kernels::MatvecLayout::row_major);
                               return mm_compare(c, want);
                           }});
        for (const char* name : {"zero_vectorized_i32", "zero_scalar_i32"})
            out.push_back({name, [f](void* fn) {
                               auto c = mm_ints<std::int32_t>(static_cast<std::size_t>(f.dim_m), 38);
                               reinterpret_cast<void (*)(std::int32_t*)>(fn)(c.data());
                               return mm_compare(c, std::vector<std::int32_t>(c.size(), 0));
                           }});
        return;
    }
    if (f.source != "mm.cc") return;
    f.dim_m = f.dim_m ? f.dim_m : 64;
    f.dim_k = f.dim_k ? f.dim_k : 64;
    f.dim_n = f.dim_n ? f.dim_n : 64;
    const bool p = f.aie2p;
    const int i8r = p ? 8 : 4, i16t = p ? 8 : 4;
    add_matmul<std::int8_t, std::int8_t>(out, f, "i8_i8", &kernels::matmul_i8_i8, i8r, 8, 8);
    add_matmul<std::int8_t, std::int16_t>(out, f, "i8_i16", &kernels::matmul_i8_i16, i8r, 8, 8);
    add_matmul<std::int8_t, std::int32_t>(out, f, "i8_i32", &kernels::matmul_i8_i32, i8r, 8, 8);
    add_matmul<std::int16_t, std::int16_t>(out, f, "i16_i16", &kernels::matmul_i16_i16, 4, 4, i16t);
    add_matmul<std::int16_t, std::int32_t>(out, f, "i16_i32", &kernels::matmul_i16_i32, 4, 4, i16t);
    add_zero<std::int8_t>(out, f, "i8");
    add_zero<std::int16_t>(out, f, "i16");
    add_zero<std::int32_t>(out, f, "i32");
    add_zero<float>(out, f, "f32");
}

} // namespace npusim::kernel_check
