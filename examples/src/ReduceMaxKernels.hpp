#pragma once
// The three reduce_max kernels of E5 (aie_kernels/aie2/reduce_max.cc), bound as IRON binds them:
//   reduce_max_vector(in: i32[n], out: i32[1], n: i32)
//   reduce_max_scalar(in: i32[n], out: i32[1], n: i32)
//   compute_max(a: i32[1], b: i32[1], out: i32[1])
// Either the reference kernels (kernels_ref/) or, with KernelSet::aie, the AIE-API sources
// (kernels_ref/aie/reduce_max.cc); the cost model is the reference's *_cycles functions in both.
#include "Design.hpp"
#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/reduce_max.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <fmt/format.h>
#include <memory>
#include <stdexcept>

namespace npusim::examples::reduce_max {

/// The three kernels of one design; with KernelSet::aie they share one set of core modes.
struct Kernels {
    iron::Kernel vector; ///< reduce_max_vector
    iron::Kernel scalar; ///< reduce_max_scalar
    iron::Kernel combine; ///< compute_max
};

/// `vector_n` / `scalar_n`: the element counts of the tensors the vector and scalar kernels read.
inline Kernels bind(KernelSet ks, std::int64_t vector_n, std::int64_t scalar_n) {
    using namespace npusim::iron;
    const auto one = tensor<std::int32_t>({1});
    std::vector<ArgType> vec_types{tensor<std::int32_t>({vector_n}), one, scalar<std::int32_t>()};
    std::vector<ArgType> sca_types{tensor<std::int32_t>({scalar_n}), one, scalar<std::int32_t>()};
    std::vector<ArgType> max_types{one, one, one};
    auto vec_cost = [](std::span<const KernelArg> a) {
        return kernels::reduce_max_vector_i32_cycles(static_cast<std::int32_t>(a[2].ivalue));
    };
    auto sca_cost = [](std::span<const KernelArg> a) {
        return kernels::reduce_max_scalar_cycles(static_cast<std::int32_t>(a[2].ivalue));
    };
    auto max_cost = [](std::span<const KernelArg>) { return kernels::compute_max_cycles(); };
    if (ks == KernelSet::aie) {
        auto modes = make_aie_core_modes();
        return {aie_kernel("reduce_max_vector", &aie_kernels::reduce_max_vector, std::move(vec_types), vec_cost, modes),
                aie_kernel("reduce_max_scalar", &aie_kernels::reduce_max_scalar, std::move(sca_types), sca_cost, modes),
                aie_kernel("compute_max", &aie_kernels::compute_max, std::move(max_types), max_cost, modes)};
    }
    return {Kernel("reduce_max_vector", &kernels::reduce_max_vector_i32, std::move(vec_types), vec_cost),
            Kernel("reduce_max_scalar", &kernels::reduce_max_scalar_i32, std::move(sca_types), sca_cost),
            Kernel("compute_max", &kernels::compute_max_i32, std::move(max_types), max_cost)};
}

/// reduce_max_vector's preconditions on `n` elements per call (n % 16 == 0, n / 16 >= 8), as a
/// DesignError naming the design and the parameter the count comes from.
inline void require_vector_count(const std::string& design, const std::string& what, std::int64_t n) {
    if (n <= 0 || n % kernels::kReduceMaxLanesI32 != 0 ||
        n / kernels::kReduceMaxLanesI32 < kernels::kReduceMaxMinIterations)
        throw DesignError(
            fmt::format("design '{}': reduce_max_vector reads whole 16 x i32 vectors, at least {} of them; {} = {} "
                        "is not a multiple of 16 of at least {}",
                        design, kernels::kReduceMaxMinIterations, what, n,
                        kernels::kReduceMaxLanesI32 * kernels::kReduceMaxMinIterations));
}

/// Inputs in [-1000, 1000), as the upstream test draws them.
inline std::vector<std::int32_t> random_input(std::uint64_t seed, std::int64_t n) {
    std::mt19937_64 rng(seed);
    std::vector<std::int32_t> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = static_cast<std::int32_t>(rng() % 2000) - 1000;
    return v;
}

/// Golden: out = [in.max()] (numpy), from the input tensor called "in".
inline Tensors golden(const Tensors& in) {
    const auto x = get(in, "in").values<std::int32_t>();
    if (x.empty()) throw std::invalid_argument("reduce_max of an empty tensor");
    std::int32_t m = x[0];
    for (auto v : x) m = v > m ? v : m;
    return tensors("out", Tensor::from<std::int32_t>({1}, {m}));
}

} // namespace npusim::examples::reduce_max
