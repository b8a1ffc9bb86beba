#pragma once
// IRON's algorithm templates (mlir-aie python/iron/algorithms/): whole designs built from a function
// and a tensor type, returned as a Program (IRON returns the resolved module; call resolve() or run
// it with the harness). Same fifo names, depths, tile sizes, workers and runtime sequences as
// upstream:
//   transform / transform_binary        _transform.py _transform_gen: one worker; fifos in0[, in1],
//                                       out of tile_size elements (depth 2); fill every input, drain
//                                       out with wait.
//   transform_parallel[_binary]         _transform_parallel_gen: one worker per column (x channel) of
//                                       the device; fifos in{i}_{col}[_{chan}], out_{col}[_{chan}];
//                                       one disjoint contiguous range per worker, fills in one
//                                       TaskGroup, drains (wait) in a second.
//   for_each                            for_each.py: in-place; fifos in, out; fill and drain the same
//                                       tensor.
//   reduce                              reduce.py: the whole input in one kernel call,
//                                       kernel(in, out, input elements); fifos in, out.
// The function is either a Kernel (IRON's ExternalFunction path: called once per tile with
// (*input tiles, output tile, *params, tile_size)) or a C++ callable applied element by element
// in the core body (IRON's lambda path), e.g. transform(dev, [](auto x) { return x + 1; }, ty).
// Extra kernel parameters (IRON *params) are tensors, moved through their own fifo param{i} and
// given as runtime arguments after the output, or scalar constants; which one is decided by the
// kernel's arg_types, as upstream.
#include "npusim/frontend/ControlFlow.hpp"
#include "npusim/frontend/Kernel.hpp"
#include "npusim/frontend/Program.hpp"
#include "npusim/frontend/TensorType.hpp"
#include "npusim/model/Error.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace npusim::iron::algorithms {

/// transform's keyword arguments.
struct TransformOptions {
    std::int64_t tile_size = 16; ///< elements per tile (per fifo object)
    std::uint64_t trace_size = 0; ///< > 0: trace the worker(s), Program::enable_trace(trace_size)
};
/// transform_parallel's keyword arguments (field order as upstream's signature).
struct TransformParallelOptions {
    std::int64_t tile_size = 16;
    std::uint64_t trace_size = 0;
    int num_channels = 1; ///< shim DMA channels per column, 1 or 2
    bool pass_size_to_kernel = true; ///< append tile_size as the kernel's last argument
};
/// One extra kernel argument (IRON *params): a tensor type (moved through fifo param{i}) or a
/// scalar constant.
using Param = std::variant<TensorType, std::int64_t, double>;

namespace detail {
/// Applies a callable to one tile: out[j] = f(in_0[j], ...), element type fixed at design time.
using TileFn = std::function<void(std::span<const Element> ins, const Element& out)>;
/// Either path of a transform.
using Func = std::variant<Kernel, TileFn>;

/// As _transform.py's core body: for j in range_(n): elem_out[j] = func(elem_in[j], ...), each
/// value read and written with at<T> (memref.load / memref.store in the export, each access
/// core_element_access_cycles in the simulator).
template <class T, int Arity, class F>
void apply_tile(const F& f, std::span<const Element> ins, const Element& out) {
    range_(out.elements(), [&](std::int64_t j) {
        if constexpr (Arity == 1) {
            const T a = ins[0].at<T>(j);
            out.at<T>(j) = static_cast<T>(f(a));
        } else {
            const T a = ins[0].at<T>(j);
            const T b = ins[1].at<T>(j);
            out.at<T>(j) = static_cast<T>(f(a, b));
        }
    });
}

/// "transform: the function cannot be applied to i8 elements (1 argument)"
std::string fmt_function_error(const std::string& who, DType dtype, int arity);

template <class T, int Arity, class F>
TileFn tile_fn_for(const F& f, const std::string& who) {
    constexpr bool ok = Arity == 1 ? requires { static_cast<T>(f(std::declval<T>())); }
                                   : requires { static_cast<T>(f(std::declval<T>(), std::declval<T>())); };
                                   if constexpr (ok)
                                       return [f](std::span<const Element> ins, const Element& out) {
                                           apply_tile<T, Arity>(f, ins, out);
                                       };
                                   else
                                       throw DesignError(fmt_function_error(who, dtype_of<T>(), Arity));
}

/// The callable as a TileFn for tensors of `dtype`; a DesignError if it cannot take them.
template <int Arity, class F>
TileFn tile_fn(const F& f, DType dtype, const std::string& who) {
    switch (dtype) {
    case DType::i8: return tile_fn_for<std::int8_t, Arity>(f, who);
    case DType::u8: return tile_fn_for<std::uint8_t, Arity>(f, who);
    case DType::i16: return tile_fn_for<std::int16_t, Arity>(f, who);
    case DType::u16: return tile_fn_for<std::uint16_t, Arity>(f, who);
    case DType::i32: return tile_fn_for<std::int32_t, Arity>(f, who);
    case DType::u32: return tile_fn_for<std::uint32_t, Arity>(f, who);
    case DType::f32: return tile_fn_for<float, Arity>(f, who);
    case DType::bf16: return tile_fn_for<bfloat16, Arity>(f, who);
    case DType::bfp16ebs8: break; // blocks of 8 values have no per-element function
    }
    throw DesignError(who + ": unknown element type");
}

Program transform_gen(const model::DeviceSpec& dev, const std::string& who, Func func, int num_inputs,
                      const TensorType& tensor_ty, std::vector<Param> params, const TransformOptions& o);
Program transform_parallel_gen(const model::DeviceSpec& dev, const std::string& who, Func func, int num_inputs,
                               const TensorType& tensor_ty, std::vector<Param> params,
                               const TransformParallelOptions& o);
Program for_each_gen(const model::DeviceSpec& dev, Func func, const TensorType& tensor_ty, std::vector<Param> params,
                     std::int64_t tile_size);
} // namespace detail

/// transform(func, tensor_ty, *params, tile_size=16, trace_size=0) with a kernel:
/// func(in_tile, out_tile, *params, tile_size) per tile.
/// The options come before the params (IRON's keyword arguments after *params), so both read as
/// braced lists: transform(dev, k, ty, {.tile_size = 1024}, {tensor<int32_t>({1})}).
inline Program transform(const model::DeviceSpec& dev, const Kernel& func, const TensorType& tensor_ty,
                         TransformOptions o = {}, std::vector<Param> params = {}) {
    return detail::transform_gen(dev, "transform", func, 1, tensor_ty, std::move(params), o);
}
/// transform with a callable: out[j] = func(in[j]) in the core body.
template <class F>
requires(!std::is_convertible_v<F, Kernel>) Program
    transform(const model::DeviceSpec& dev, F func, const TensorType& tensor_ty, TransformOptions o = {}) {
    return detail::transform_gen(dev, "transform", detail::tile_fn<1>(func, tensor_ty.dtype, "transform"), 1, tensor_ty,
                                 {}, o);
}
/// transform_binary(func, tensor_ty, ...): two inputs in0, in1 of tensor_ty.
inline Program transform_binary(const model::DeviceSpec& dev, const Kernel& func, const TensorType& tensor_ty,
                                TransformOptions o = {}, std::vector<Param> params = {}) {
    return detail::transform_gen(dev, "transform_binary", func, 2, tensor_ty, std::move(params), o);
}
template <class F>
requires(!std::is_convertible_v<F, Kernel>) Program
    transform_binary(const model::DeviceSpec& dev, F func, const TensorType& tensor_ty, TransformOptions o = {}) {
    return detail::transform_gen(dev, "transform_binary", detail::tile_fn<2>(func, tensor_ty.dtype, "transform_binary"),
                                 2, tensor_ty, {}, o);
}
/// transform_parallel(func, tensor_ty, *params, tile_size, trace_size, num_channels, pass_size_to_kernel).
inline Program transform_parallel(const model::DeviceSpec& dev, const Kernel& func, const TensorType& tensor_ty,
                                  TransformParallelOptions o = {}, std::vector<Param> params = {}) {
    return detail::transform_parallel_gen(dev, "transform_parallel", func, 1, tensor_ty, std::move(params), o);
}
template <class F>
requires(!std::is_convertible_v<F, Kernel>) Program
    transform_parallel(const model::DeviceSpec& dev, F func, const TensorType& tensor_ty,
                       TransformParallelOptions o = {}) {
    return detail::transform_parallel_gen(dev, "transform_parallel",
                                          detail::tile_fn<1>(func, tensor_ty.dtype, "transform_parallel"), 1, tensor_ty,
                                          {}, o);
}
inline Program transform_parallel_binary(const model::DeviceSpec& dev, const Kernel& func, const TensorType& tensor_ty,
                                         TransformParallelOptions o = {}) {
    return detail::transform_parallel_gen(dev, "transform_parallel_binary", func, 2, tensor_ty, {}, o);
}
template <class F>
requires(!std::is_convertible_v<F, Kernel>) Program
    transform_parallel_binary(const model::DeviceSpec& dev, F func, const TensorType& tensor_ty,
                              TransformParallelOptions o = {}) {
    return detail::transform_parallel_gen(dev, "transform_parallel_binary",
                                          detail::tile_fn<2>(func, tensor_ty.dtype, "transform_parallel_binary"), 2,
                                          tensor_ty, {}, o);
}
/// for_each(func, tensor_ty, tile_size=16): in place, fill and drain the same tensor.
inline Program for_each(const model::DeviceSpec& dev, const Kernel& func, const TensorType& tensor_ty,
                        std::int64_t tile_size = 16, std::vector<Param> params = {}) {
    return detail::for_each_gen(dev, func, tensor_ty, std::move(params), tile_size);
}
template <class F>
requires(!std::is_convertible_v<F, Kernel>) Program
    for_each(const model::DeviceSpec& dev, F func, const TensorType& tensor_ty, std::int64_t tile_size = 16) {
    return detail::for_each_gen(dev, detail::tile_fn<1>(func, tensor_ty.dtype, "for_each"), tensor_ty, {}, tile_size);
}
/// reduce(func, input_ty, output_ty, trace_size=0): func(in, out, input elements) once per run.
/// Only a kernel: a reduction keeps accumulator state across the input (reduce.py).
Program reduce(const model::DeviceSpec& dev, const Kernel& func, const TensorType& input_ty,
               const TensorType& output_ty, std::uint64_t trace_size = 0);

} // namespace npusim::iron::algorithms
