// The built-in kernel library: mlir-aie python/iron/kernels/reduce.py (_reduce_kernel, reduce_max,
// compute_max), eltwise.py (_eltwise_bf16_kernel, passthrough, scale, relu), activation.py
// (bf16_exp, softmax: _LUT_FIXED_TILE, the aie2/aie2p source split of _create_lut_kernel) and _common.py
// (_require_fixed_tile_size, _dtype_to_bit_width, _min_dma_aligned_elems).
#include "npusim/harness/KernelLibrary.hpp"

#include "npusim/harness/AieKernel.hpp"
#include "npusim/kernels/activation_tanh.hpp"
#include "npusim/kernels/exp_bf16.hpp"
#include "npusim/kernels/library/reduce_add_min.hpp"
#include "npusim/kernels/passthrough.hpp"
#include "npusim/kernels/reduce_max.hpp"
#include "npusim/kernels/relu.hpp"
#include "npusim/kernels/scale_shift.hpp"
#include "npusim/kernels/softmax_lut.hpp"
#include "npusim/kernels/vector_scalar_mul.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>
#include <npusim/aie_kernels_library.hpp>

#include <fmt/format.h>

namespace npusim::harness::iron_kernels {

using iron::ArgType;
using iron::Kernel;
using iron::KernelArg;

namespace {

constexpr std::int64_t kEltwiseTile = 1024; // eltwise.py _ELTWISE_FIXED_TILE, _RELU_FIXED_TILE

// _common.py _min_dma_aligned_elems: the fewest elements filling 4 bytes
std::int64_t dma_aligned_elems(DType d) {
    const auto b = static_cast<std::int64_t>(model::dtype_bytes(d));
    return std::max<std::int64_t>(1, (4 + b - 1) / b);
}

void require_fixed_tile(const std::string& factory, std::int64_t tile_size, std::int64_t expected) {
    if (tile_size != expected)
        throw DesignError(fmt::format("{}() tile_size must be {} to match the hard-coded C++ loop bound, got {}.",
                                      factory, expected, tile_size));
}

void require_tile(const std::string& factory, std::int64_t tile_size) {
    if (tile_size < 1) throw DesignError(fmt::format("{}() tile_size must be >= 1, got {}", factory, tile_size));
}

std::int32_t n_of(std::span<const KernelArg> a, std::size_t i) { return static_cast<std::int32_t>(a[i].ivalue); }

template <class R, class... P>
Kernel bind(KernelSet ks, const std::string& name, R (*ref)(P...), R (*aie)(P...), std::vector<ArgType> types,
            iron::CostModel cost) {
    if (ks == KernelSet::aie) return aie_kernel(name, aie, std::move(types), std::move(cost));
    return Kernel(name, ref, std::move(types), std::move(cost));
}

Kernel reduce_kernel(const std::string& op, std::int64_t tile_size, DType dtype, bool vectorized, KernelSet ks) {
    require_tile("reduce_" + op, tile_size);
    if (dtype != DType::i32)
        throw DesignError(fmt::format("reduce_{}() dtype must be np.int32, got {}. Only the int32 variant is available "
                                      "in the installed aie_kernels.",
                                      op, model::dtype_name(dtype)));
    namespace lib = kernels::library;
    const bool add = op == "add";
    std::vector<ArgType> types{iron::tensor<std::int32_t>({tile_size}),
                               iron::tensor<std::int32_t>({dma_aligned_elems(DType::i32)}),
                               iron::scalar<std::int32_t>()};
    iron::CostModel cost =
        vectorized
            ? iron::CostModel([](std::span<const KernelArg> a) { return lib::reduce_vector_i32_cycles(n_of(a, 2)); })
            : iron::CostModel([](std::span<const KernelArg> a) { return lib::reduce_scalar_i32_cycles(n_of(a, 2)); });
    const std::string name = fmt::format("reduce_{}_{}", op, vectorized ? "vector" : "scalar");
    if (add)
        return vectorized ? bind(ks, name, &lib::reduce_add_vector_i32, &aie_kernels::reduce_add_vector, types, cost)
                          : bind(ks, name, &lib::reduce_add_scalar_i32, &aie_kernels::reduce_add_scalar, types, cost);
    return vectorized ? bind(ks, name, &lib::reduce_min_vector_i32, &aie_kernels::reduce_min_vector, types, cost)
                      : bind(ks, name, &lib::reduce_min_scalar_i32, &aie_kernels::reduce_min_scalar, types, cost);
}

// eltwise.py _eltwise_bf16_kernel: (a, b, c) over the fixed 1024-element tile
// (rounded to nearest, as npusim's AIE-API eltwise kernels select conv_even)
void add_ref(const bfloat16* a, const bfloat16* b, bfloat16* c) {
    kernels::eltwise_mul_add_bf16_nearest(a, b, c, 0, 1024);
}
void mul_ref(const bfloat16* a, const bfloat16* b, bfloat16* c) {
    kernels::eltwise_mul_add_bf16_nearest(a, b, c, 1, 1024);
}
void add_aie(const bfloat16* a, const bfloat16* b, bfloat16* c) { aie_kernels::eltwise_add_bf16_vector(a, b, c, 1024); }
void mul_aie(const bfloat16* a, const bfloat16* b, bfloat16* c) { aie_kernels::eltwise_mul_bf16_vector(a, b, c, 1024); }

Kernel eltwise_kernel(const std::string& op, std::int64_t tile_size, DType dtype, bool vectorized, KernelSet ks) {
    require_fixed_tile(op, tile_size, kEltwiseTile);
    if (dtype != DType::bf16)
        throw DesignError(fmt::format("{}() dtype must be bfloat16, got {}. Only the bf16 variant is available in the "
                                      "installed aie_kernels.",
                                      op, model::dtype_name(dtype)));
    const auto tile = iron::tensor<bfloat16>({kEltwiseTile});
    std::vector<ArgType> types{tile, tile, tile};
    iron::CostModel cost = [vectorized](std::span<const KernelArg>) {
        return vectorized ? kernels::eltwise_mul_add_bf16_cycles(1024)
                          : kernels::kScalarLoopCyclesPerElement * static_cast<std::uint64_t>(1024);
    };
    const std::string name = fmt::format("eltwise_{}_bf16_{}", op, vectorized ? "vector" : "scalar");
    const bool is_add = op == "add";
    // The scalar variants are plain C loops upstream (float arithmetic rounded to bf16), the same
    // values as the reference; only the vector variants are AIE-API code.
    const KernelSet set = vectorized ? ks : KernelSet::reference;
    return is_add ? bind(set, name, &add_ref, &add_aie, types, cost) : bind(set, name, &mul_ref, &mul_aie, types, cost);
}

} // namespace

Kernel reduce_add(std::int64_t tile_size, DType dtype, bool vectorized, KernelSet ks) {
    return reduce_kernel("add", tile_size, dtype, vectorized, ks);
}

Kernel reduce_min(std::int64_t tile_size, DType dtype, bool vectorized, KernelSet ks) {
    return reduce_kernel("min", tile_size, dtype, vectorized, ks);
}

Kernel reduce_max(std::int64_t tile_size, DType dtype, bool vectorized, KernelSet ks) {
    require_tile("reduce_max", tile_size);
    if (dtype != DType::i32 && dtype != DType::bf16)
        throw DesignError(
            fmt::format("reduce_max() dtype must be np.int32 or bfloat16, got {}", model::dtype_name(dtype)));
    const std::string name =
        fmt::format("reduce_max_{}{}", vectorized ? "vector" : "scalar", dtype == DType::bf16 ? "_bfloat16" : "");
    std::vector<ArgType> types{iron::TensorType{dtype, {tile_size}},
                               iron::TensorType{dtype, {dma_aligned_elems(dtype)}}, iron::scalar<std::int32_t>()};
    if (dtype == DType::i32) {
        if (vectorized)
            return bind(ks, name, &kernels::reduce_max_vector_i32, &aie_kernels::reduce_max_vector, types,
                        [](std::span<const KernelArg> a) { return kernels::reduce_max_vector_i32_cycles(n_of(a, 2)); });
        return bind(ks, name, &kernels::reduce_max_scalar_i32, &aie_kernels::reduce_max_scalar, types,
                    [](std::span<const KernelArg> a) { return kernels::reduce_max_scalar_cycles(n_of(a, 2)); });
    }
    if (vectorized)
        return bind(ks, name, &kernels::reduce_max_vector_bf16, &aie_kernels::reduce_max_vector_bfloat16, types,
                    [](std::span<const KernelArg> a) { return kernels::reduce_max_vector_bf16_cycles(n_of(a, 2)); });
    return bind(ks, name, &kernels::reduce_max_scalar_bf16, &aie_kernels::reduce_max_scalar_bfloat16, types,
                [](std::span<const KernelArg> a) { return kernels::reduce_max_scalar_cycles(n_of(a, 2)); });
}

Kernel compute_max(DType dtype, KernelSet ks) {
    if (dtype != DType::i32 && dtype != DType::bf16)
        throw DesignError(
            fmt::format("compute_max() dtype must be np.int32 or bfloat16, got {}", model::dtype_name(dtype)));
    const iron::TensorType one{dtype, {dma_aligned_elems(dtype)}};
    std::vector<ArgType> types{one, one, one};
    auto cost = [](std::span<const KernelArg>) { return kernels::compute_max_cycles(); };
    if (dtype == DType::i32)
        return bind(ks, "compute_max", &kernels::compute_max_i32, &aie_kernels::compute_max, types, cost);
    // upstream's compute_max_bfloat16 is a plain scalar compare; the reference computes the same
    return Kernel("compute_max_bfloat16", &kernels::compute_max_bf16, types, cost);
}

Kernel add(std::int64_t tile_size, DType dtype, bool vectorized, KernelSet ks) {
    return eltwise_kernel("add", tile_size, dtype, vectorized, ks);
}

Kernel mul(std::int64_t tile_size, DType dtype, bool vectorized, KernelSet ks) {
    return eltwise_kernel("mul", tile_size, dtype, vectorized, ks);
}

Kernel relu(std::int64_t tile_size, KernelSet ks) {
    require_fixed_tile("relu", tile_size, kEltwiseTile);
    const auto tile = iron::tensor<bfloat16>({kEltwiseTile});
    void (*ref)(const bfloat16*, bfloat16*) =
        +[](const bfloat16* in, bfloat16* out) { kernels::relu_bf16(in, out, 1024); };
    void (*aie)(const bfloat16*, bfloat16*) =
        +[](const bfloat16* in, bfloat16* out) { aie_kernels::bf16_relu(in, out, 1024); };
    return bind(ks, "bf16_relu", ref, aie, {tile, tile},
                [](std::span<const KernelArg>) { return kernels::relu_bf16_cycles(1024); });
}

Kernel bf16_exp(model::Arch arch, std::int64_t tile_size, KernelSet ks) {
    require_fixed_tile("bf16_exp", tile_size, kernels::kExpElements); // activation.py _LUT_FIXED_TILE
    const auto tile = iron::tensor<bfloat16>({kernels::kExpElements});
    using Fn = void (*)(const bfloat16*, bfloat16*);
    const bool aie2p = arch == model::Arch::AIE2P;
    const Fn ref = aie2p ? Fn(+[](const bfloat16* in, bfloat16* out) { kernels::exp_bf16_exp2(in, out, 1024); })
                         : Fn(+[](const bfloat16* in, bfloat16* out) { kernels::exp_bf16_lut(in, out, 1024); });
    const Fn aie = aie2p ? Fn(+[](const bfloat16* in, bfloat16* out) { aie_kernels::exp_bf16_aie2p(in, out, 1024); })
                         : Fn(+[](const bfloat16* in, bfloat16* out) { aie_kernels::exp_bf16_aie2(in, out, 1024); });
    return bind(ks, "exp_bf16_1024", ref, aie, {tile, tile},
                [](std::span<const KernelArg>) { return kernels::exp_bf16_cycles(1024); });
}

Kernel softmax(model::Arch arch, std::int64_t tile_size, KernelSet ks) {
    require_fixed_tile("softmax", tile_size, kernels::kSoftmaxElements); // activation.py _LUT_FIXED_TILE
    const auto tile = iron::tensor<bfloat16>({kernels::kSoftmaxElements});
    const std::vector<ArgType> types{tile, tile, iron::scalar<std::int32_t>()};
    if (arch == model::Arch::AIE2P)
        return bind(ks, "softmax_bf16", &kernels::softmax_exp2_bf16, &aie_kernels::softmax_bf16_aie2p, types,
                    [](std::span<const KernelArg> a) { return kernels::softmax_exp2_bf16_cycles(n_of(a, 2)); });
    return bind(ks, "softmax_bf16", &kernels::softmax_lut_bf16, &aie_kernels::softmax_bf16_aie2, types,
                [](std::span<const KernelArg> a) { return kernels::softmax_lut_bf16_cycles(n_of(a, 2)); });
}

// activation.py gelu / silu (_bf16_lut_factory, arg_arity 2) and swiglu (arg_arity 4): the
// generation's source (_create_lut_kernel), every argument the same bf16[1024] tile
Kernel gelu(model::Arch arch, std::int64_t tile_size, KernelSet ks) {
    require_fixed_tile("gelu", tile_size, kernels::kTanhActElements);
    const auto tile = iron::tensor<bfloat16>({kernels::kTanhActElements});
    using Fn = void (*)(const bfloat16*, bfloat16*);
    const bool p = arch == model::Arch::AIE2P;
    const Fn ref = p ? Fn(+[](const bfloat16* in, bfloat16* out) { kernels::gelu_bf16(in, out, 1024, true); })
                     : Fn(+[](const bfloat16* in, bfloat16* out) { kernels::gelu_bf16(in, out, 1024, false); });
    const Fn aie = p ? Fn(+[](const bfloat16* in, bfloat16* out) { aie_kernels::gelu_bf16_aie2p(in, out, 1024); })
                     : Fn(+[](const bfloat16* in, bfloat16* out) { aie_kernels::gelu_bf16_aie2(in, out, 1024); });
    return bind(ks, "gelu_bf16", ref, aie, {tile, tile},
                [p](std::span<const KernelArg>) { return kernels::gelu_bf16_cycles(1024, p); });
}

Kernel silu(model::Arch arch, std::int64_t tile_size, KernelSet ks) {
    require_fixed_tile("silu", tile_size, kernels::kTanhActElements);
    const auto tile = iron::tensor<bfloat16>({kernels::kTanhActElements});
    using Fn = void (*)(const bfloat16*, bfloat16*);
    const bool p = arch == model::Arch::AIE2P;
    const Fn ref = p ? Fn(+[](const bfloat16* in, bfloat16* out) { kernels::silu_bf16(in, out, 1024, true); })
                     : Fn(+[](const bfloat16* in, bfloat16* out) { kernels::silu_bf16(in, out, 1024, false); });
    const Fn aie = p ? Fn(+[](const bfloat16* in, bfloat16* out) { aie_kernels::silu_bf16_aie2p(in, out, 1024); })
                     : Fn(+[](const bfloat16* in, bfloat16* out) { aie_kernels::silu_bf16_aie2(in, out, 1024); });
    return bind(ks, "silu_bf16", ref, aie, {tile, tile},
                [p](std::span<const KernelArg>) { return kernels::silu_bf16_cycles(1024, p); });
}

Kernel swiglu(model::Arch arch, std::int64_t tile_size, KernelSet ks) {
    require_fixed_tile("swiglu", tile_size, kernels::kTanhActElements);
    const auto tile = iron::tensor<bfloat16>({kernels::kTanhActElements});
    using Fn = void (*)(const bfloat16*, const bfloat16*, const bfloat16*, bfloat16*);
    const bool p = arch == model::Arch::AIE2P;
    const Fn ref = p ? Fn(+[](const bfloat16* x, const bfloat16* w1, const bfloat16* w2, bfloat16* o) {
        kernels::swiglu_bf16(x, w1, w2, o, 1024, true);
    })
                     : Fn(+[](const bfloat16* x, const bfloat16* w1, const bfloat16* w2, bfloat16* o) {
                           kernels::swiglu_bf16(x, w1, w2, o, 1024, false);
                       });
    const Fn aie = p ? Fn(+[](const bfloat16* x, const bfloat16* w1, const bfloat16* w2, bfloat16* o) {
        aie_kernels::swiglu_bf16_aie2p(x, w1, w2, o, 1024);
    })
                     : Fn(+[](const bfloat16* x, const bfloat16* w1, const bfloat16* w2, bfloat16* o) {
                           aie_kernels::swiglu_bf16_aie2(x, w1, w2, o, 1024);
                       });
    return bind(ks, "swiglu_bf16", ref, aie, {tile, tile, tile, tile},
                [p](std::span<const KernelArg>) { return kernels::swiglu_bf16_cycles(1024, p); });
}

Kernel passthrough(std::int64_t tile_size, DType dtype, KernelSet ks) {
    require_tile("passthrough", tile_size);
    const iron::TensorType tile{dtype, {tile_size}};
    std::vector<ArgType> types{tile, tile, iron::scalar<std::int32_t>()};
    const int bytes = static_cast<int>(model::dtype_bytes(dtype));
    iron::CostModel cost = [bytes](std::span<const KernelArg> a) {
        return kernels::passThroughLine_cycles(n_of(a, 2), bytes);
    };
    using U8 = void (*)(const std::uint8_t*, std::uint8_t*, std::int32_t);
    using I16 = void (*)(const std::int16_t*, std::int16_t*, std::int32_t);
    using I32 = void (*)(const std::int32_t*, std::int32_t*, std::int32_t);
    switch (dtype) {
    case DType::u8:
        return bind(ks, "passThroughLine", &kernels::passThroughLine_u8, static_cast<U8>(&aie_kernels::passThroughLine),
                    types, cost);
    case DType::i16:
        return bind(ks, "passThroughLine", &kernels::passThroughLine_i16,
                    static_cast<I16>(&aie_kernels::passThroughLine), types, cost);
    case DType::i32:
        return bind(ks, "passThroughLine", &kernels::passThroughLine_i32,
                    static_cast<I32>(&aie_kernels::passThroughLine), types, cost);
    default:
        throw DesignError(fmt::format("passthrough: unsupported dtype {}. Use np.uint8, np.int16, or np.int32.",
                                      model::dtype_name(dtype)));
    }
}

Kernel scale(std::int64_t tile_size, DType dtype, bool vectorized, KernelSet ks) {
    require_tile("scale", tile_size);
    if (dtype != DType::i16 && dtype != DType::i32)
        throw DesignError(fmt::format("scale() dtype must be np.int16 or np.int32, got {}", model::dtype_name(dtype)));
    const iron::TensorType tile{dtype, {tile_size}};
    std::vector<ArgType> types{tile, tile, iron::tensor<std::int32_t>({1}), iron::scalar<std::int32_t>()};
    const std::string name = fmt::format("vector_scalar_mul_{}", vectorized ? "vector" : "scalar");
    if (dtype == DType::i16) {
        if (vectorized)
            return bind(ks, name, &kernels::vector_scalar_mul_i16, &aie_kernels::vector_scalar_mul_i16, types,
                        [](std::span<const KernelArg> a) { return kernels::vector_scalar_mul_i16_cycles(n_of(a, 3)); });
        return bind(
            ks, name, &kernels::vector_scalar_mul_scalar_i16, &aie_kernels::vector_scalar_mul_i16_scalar, types,
            [](std::span<const KernelArg> a) { return kernels::vector_scalar_mul_scalar_i16_cycles(n_of(a, 3)); });
    }
    if (vectorized)
        return bind(ks, name, &kernels::vector_scalar_mul_i32, &aie_kernels::vector_scalar_mul_i32, types,
                    [](std::span<const KernelArg> a) { return kernels::vector_scalar_mul_i32_cycles(n_of(a, 3)); });
    return bind(ks, name, &kernels::vector_scalar_mul_scalar_i32, &aie_kernels::vector_scalar_mul_i32_scalar, types,
                [](std::span<const KernelArg> a) { return kernels::vector_scalar_mul_scalar_i32_cycles(n_of(a, 3)); });
}

} // namespace npusim::harness::iron_kernels
