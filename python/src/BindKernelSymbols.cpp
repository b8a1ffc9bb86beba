// Kernels named by their compiled symbol, `Kernel("name", "file.o", arg_types)` in an IRON design:
// npusim runs no core objects, so a symbol of an upstream kernel that npusim's library implements
// is bound here to the reference kernel and cost model the C++ twin of that design binds (for
// conv2dk1_i8 and the cascade kernels: the harness kernel library's factories, their one home). The
// kernels' compile-time sizes (upstream's -DDIM_m / -DDIM_n, the template N) are read from the
// argument types the design declares, which is where IRON's user writes them too.
//   row_wise_bias_add_f32_f32(in f32[m*n], bias f32[n], out f32[m*n])           E9, RowWiseBiasAdd
//   conv2dk1_i8(act i8[W*Ci], wts i8[Ci*Co], out i8[W*Co], W, Ci, Co, scale)    E14, Conv2d
//   eltwise_mul_add_bf16_vector(a bf16[1024], b bf16[1024], c bf16[1024], is_mul) E15, ScaleShift
//   matmul_scalar_cascade_{get_only,put_only,put_get}_i16_{i32,i16}(a i16(m, k), b i16(k, n), c (m, n)),
//   zero_{i32,i16}(c (m, n))                                                    E8, MatmulCascade
//     (the block sizes from the 2-D shapes IRON's cascade design declares)
//   rms_norm(in bf16[cols], out bf16[cols], cols)                               ml/norm op=rms, RmsNorm
//   matmul_vectorized_bfp16(a v8bfp16ebs8(m, k/8), b (n*k/8 blocks), c (m, n/8)),
//   zero_kernel(c v8bfp16ebs8(m, n/8))                                          aie2p/mm_bfp.cc, MatmulBfp16
// Anything else is None (kernel.py then raises NotImplementedError naming the call).
#include "Bindings.hpp"

#include "npusim/frontend/CascadeFlow.hpp"
#include "npusim/frontend/Kernel.hpp"
#include "npusim/harness/KernelLibraryBfp.hpp"
#include "npusim/harness/KernelLibraryConv.hpp"
#include "npusim/harness/KernelLibraryLinalg.hpp"
#include "npusim/harness/KernelLibraryMatvec.hpp"
#include "npusim/kernels/rms_norm.hpp"
#include "npusim/kernels/row_wise_bias_add.hpp"
#include "npusim/kernels/scale_shift.hpp"

#include <cmath>
#include <optional>

namespace npusim::python {

namespace {

using iron::ArgType;
using iron::Kernel;
using iron::KernelArg;

bool scalars_from(const std::vector<ArgType>& types, std::size_t first) {
    for (std::size_t i = first; i < types.size(); ++i)
        if (types[i].is_tensor) return false;
    return true;
}

/// The first `count` arguments are tensors of element type t.
bool all_of_dtype(const std::vector<ArgType>& types, std::size_t count, DType t) {
    if (types.size() < count) return false;
    for (std::size_t i = 0; i < count; ++i)
        if (!types[i].is_tensor || types[i].dtype != t) return false;
    return true;
}

std::optional<Kernel> row_wise_bias_add(const std::vector<ArgType>& types) {
    if (types.size() != 3 || !all_of_dtype(types, 3, DType::f32)) return std::nullopt;
    const auto mn = types[0].elements, n = types[1].elements;
    if (n <= 0 || mn % n != 0 || types[2].elements != mn) return std::nullopt;
    const auto mi = static_cast<std::int32_t>(mn / n), ni = static_cast<std::int32_t>(n);
    Kernel::Invoker inner = [mi, ni](std::span<const KernelArg> a) {
        using iron::detail::convert_kernel_arg;
        kernels::row_wise_bias_add_f32(convert_kernel_arg<const float*>(a[0]), convert_kernel_arg<const float*>(a[1]),
                                       convert_kernel_arg<float*>(a[2]), mi, ni);
    };
    return Kernel("row_wise_bias_add_f32_f32", std::move(inner), types,
                  [mi, ni](std::span<const KernelArg>) { return kernels::row_wise_bias_add_f32_cycles(mi, ni); },
                  {sizeof(float), sizeof(float), sizeof(float)});
}

// The library's conv2dk1_i8 (harness/KernelLibraryConv.hpp, the kernel the C++ twin binds); its sizes
// from the declared tiles: W*Ci, Ci*Co and W*Co elements give Ci = sqrt(W*Ci * Ci*Co / (W*Co)).
std::optional<Kernel> conv2dk1_i8(const std::vector<ArgType>& types) {
    if (types.size() != 7 || !all_of_dtype(types, 3, DType::i8) || !scalars_from(types, 3)) return std::nullopt;
    const std::int64_t wci = types[0].elements, cico = types[1].elements, wco = types[2].elements;
    if (wci <= 0 || cico <= 0 || wco <= 0 || (wci * cico) % wco != 0) return std::nullopt;
    const std::int64_t sq = (wci * cico) / wco;
    std::int64_t ci = static_cast<std::int64_t>(std::sqrt(static_cast<double>(sq)) + 0.5);
    if (ci <= 0 || ci * ci != sq || wci % ci != 0 || cico % ci != 0) return std::nullopt;
    return harness::iron_kernels::conv2dk1_i8(wci / ci, ci, cico / ci);
}

std::optional<Kernel> eltwise_mul_add_bf16(const std::vector<ArgType>& types) {
    if (types.size() != 4 || !all_of_dtype(types, 3, DType::bf16) || !scalars_from(types, 3)) return std::nullopt;
    // the kernel's template N is 1024 (scale_shift.cc); a tile of another size is not this kernel
    for (std::size_t i = 0; i < 3; ++i)
        if (types[i].elements != kernels::kScaleShiftElements) return std::nullopt;
    void (*fn)(const bfloat16*, const bfloat16*, bfloat16*, std::int32_t) =
        +[](const bfloat16* a, const bfloat16* b, bfloat16* c, std::int32_t is_mul) {
            kernels::eltwise_mul_add_bf16(a, b, c, is_mul, kernels::kScaleShiftElements);
        };
    return Kernel("eltwise_mul_add_bf16_vector", fn, types, [](std::span<const KernelArg>) {
        return kernels::eltwise_mul_add_bf16_cycles(kernels::kScaleShiftElements);
    });
}

// aie2p/rms_norm.cc's extern "C" rms_norm(in, out, cols): one row of bf16, its length passed at run
// time; the reference kernel and cost model the C++ twin binds (examples/src/RmsNorm.cpp). The kernel
// reduces one 16-lane vector at a time, so a row that is not whole vectors is not this kernel.
std::optional<Kernel> rms_norm_symbol(const std::vector<ArgType>& types) {
    if (types.size() != 3 || !all_of_dtype(types, 2, DType::bf16) || !scalars_from(types, 2)) return std::nullopt;
    if (types[0].elements != types[1].elements || types[0].elements % kernels::kRmsNormLanes != 0)
        return std::nullopt;
    return Kernel("rms_norm", &kernels::rms_norm_bf16, types, [](std::span<const KernelArg> a) {
        return kernels::rms_norm_bf16_cycles(static_cast<std::int32_t>(a[2].ivalue));
    });
}

/// The dimensions of a 2-D tensor argument, or nothing.
std::optional<std::pair<std::int64_t, std::int64_t>> matrix_dims(const ArgType& t) {
    if (!t.is_tensor || t.tensor.shape.size() != 2) return std::nullopt;
    return std::pair{t.tensor.shape[0], t.tensor.shape[1]};
}

std::optional<Kernel> cascade_kernel(const std::string& name, const std::vector<ArgType>& types) {
    const std::string prefix = "matmul_scalar_cascade_";
    for (const char* out_name : {"i32", "i16"}) {
        const DType out = std::string(out_name) == "i32" ? DType::i32 : DType::i16;
        if (name == std::string("zero_") + out_name) {
            const auto c = types.size() == 1 ? matrix_dims(types[0]) : std::nullopt;
            if (!c || types[0].dtype != out) return std::nullopt;
            return harness::iron_kernels::zero_kernel(c->first, c->second, out);
        }
        for (const char* role : {"get_only", "put_only", "put_get"}) {
            if (name != prefix + role + "_i16_" + out_name) continue;
            if (types.size() != 3) return std::nullopt;
            const auto a = matrix_dims(types[0]), b = matrix_dims(types[1]), c = matrix_dims(types[2]);
            if (!a || !b || !c || types[0].dtype != DType::i16 || types[1].dtype != DType::i16 ||
                types[2].dtype != out || a->second != b->first || a->first != c->first || b->second != c->second)
                return std::nullopt;
            // the library's cascade_mm kernels (harness/KernelLibraryMatvec.hpp), as the C++ twin binds
            auto ks = harness::iron_kernels::cascade_mm(a->first, a->second, b->second, DType::i16, out);
            const std::string r = role;
            return r == "get_only" ? ks.get_only : r == "put_only" ? ks.put_only : ks.put_get;
        }
    }
    return std::nullopt;
}

// aie2p/mm_bfp.cc's extern "C" matmul_vectorized_bfp16 and zero_kernel (l.182-205 at 3ca0193) on block
// tiles: the sizes from the 2-D shapes (m rows of k/8 blocks for A, m rows of n/8 for C; B holds n * k/8
// blocks, declared (n, k/8) or, as upstream's single_core.py does, (k, n/8)), the kernel's 2x2 loop
// needing m and n multiples of 16 and k of 8 (l.183-185). The library kernels the matmul_bfp16 design
// binds (harness/KernelLibraryBfp.hpp).
std::optional<Kernel> mm_bfp_symbol(const std::string& name, const std::vector<ArgType>& types) {
    if (name == "zero_kernel") {
        const auto c = types.size() == 1 ? matrix_dims(types[0]) : std::nullopt;
        if (!c || types[0].dtype != DType::bfp16ebs8 || c->first % 16 || (c->second * 8) % 16) return std::nullopt;
        return harness::iron_kernels::bfp16_zero(c->first, c->second * 8, harness::KernelSet::reference, name);
    }
    if (name != "matmul_vectorized_bfp16" || types.size() != 3 || !all_of_dtype(types, 3, DType::bfp16ebs8))
        return std::nullopt;
    const auto a = matrix_dims(types[0]), c = matrix_dims(types[2]);
    if (!a || !c || a->first != c->first) return std::nullopt;
    const std::int64_t m = a->first, k = a->second * 8, n = c->second * 8;
    if (m % 16 || n % 16 || types[1].elements != n * k / 8) return std::nullopt;
    return harness::iron_kernels::bfp16_matmul(m, k, n, harness::KernelSet::reference, name);
}

std::optional<Kernel> symbol_kernel(const std::string& name, const std::vector<ArgType>& types) {
    if (auto k = mm_bfp_symbol(name, types)) return k;
    if (auto k = cascade_kernel(name, types)) return k;
    if (name == "row_wise_bias_add_f32_f32") return row_wise_bias_add(types);
    if (name == "conv2dk1_i8") return conv2dk1_i8(types);
    if (name == "eltwise_mul_add_bf16_vector") return eltwise_mul_add_bf16(types);
    if (name == "rms_norm") return rms_norm_symbol(types);
    return std::nullopt;
}

} // namespace

void bind_kernel_symbols(py::module_& m) {
    m.def(
        "symbol_kernel",
        [](const std::string& name, const py::list& types) -> std::optional<Kernel> {
            std::vector<ArgType> ts;
            for (const auto& t : types) {
                if (py::isinstance<iron::TensorType>(t))
                    ts.emplace_back(t.cast<iron::TensorType>());
                else
                    ts.emplace_back(t.cast<iron::ScalarType>());
            }
            return symbol_kernel(name, ts);
        },
        py::arg("name"), py::arg("arg_types"),
        "The kernel of npusim's library a compiled core object's symbol names (Kernel('name', 'x.o', types)), "
        "with the sizes its argument types give, or None.");
}

} // namespace npusim::python
