#pragma once
// Kernel: a native function bound to a name, argument types and a cost model. Called inside a
// worker body with element views and scalars, it checks every argument against its declared
// type, runs the native function on tile memory, and charges the cost model's cycles to the core.
#include "npusim/frontend/Element.hpp"
#include "npusim/frontend/TensorType.hpp"
#include "npusim/model/CoreServices.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace npusim::iron {

/// One declared kernel argument: a tensor (pointer) or a scalar.
struct ArgType {
    bool is_tensor = true;
    TensorType tensor;
    DType dtype = DType::i32;
    std::int64_t elements = 0; ///< tensor.elements(), for the check on every call
    ArgType(const TensorType& t) : is_tensor(true), tensor(t), dtype(t.dtype), elements(t.elements()) {} // NOLINT
    ArgType(const ScalarType& s) : is_tensor(false), dtype(s.dtype) {} // NOLINT
    std::string str() const;
};

/// One actual argument of a kernel call.
struct KernelArg {
    bool is_view = false;
    std::byte* data = nullptr;
    DType dtype = DType::i32;
    std::int64_t elements = 0;
    const std::string* source = nullptr; ///< fifo / buffer name of a view
    std::int64_t ivalue = 0;
    double fvalue = 0;
    bool is_float = false;
};

/// Cycles a call costs, from its arguments.
using CostModel = std::function<std::uint64_t(std::span<const KernelArg>)>;
/// What a call computes, from its arguments (model::KernelWork: MACs and the matrix unit's peak),
/// for the run summary's achieved MACs per cycle against peak.
using WorkModel = std::function<model::KernelWork(std::span<const KernelArg>)>;

class Kernel;
namespace detail {
/// Implemented by the services of a body being exported: records a kernel call (with its scalar
/// arguments, which model::CoreServices::kernel_call does not see) instead of running it.
class KernelCallRecorder {
public:
    virtual ~KernelCallRecorder() = default;
    virtual void record_kernel_call(const Kernel& kernel, std::span<const KernelArg> args) = 0;
};
} // namespace detail

namespace cost {
/// overhead + ceil(bytes of all view arguments / bytes_per_cycle)
CostModel bytes_per_cycle(double bytes_per_cycle, std::uint64_t overhead = 0);
/// a fixed number of cycles
CostModel fixed(std::uint64_t cycles);
} // namespace cost

namespace detail {
template <class P>
P convert_kernel_arg(const KernelArg& a) {
    if constexpr (std::is_pointer_v<P>) {
        return reinterpret_cast<P>(a.data);
    } else if constexpr (std::is_floating_point_v<P>) {
        return static_cast<P>(a.is_float ? a.fvalue : static_cast<double>(a.ivalue));
    } else {
        return static_cast<P>(a.is_float ? static_cast<std::int64_t>(a.fvalue) : a.ivalue);
    }
}
template <class P>
constexpr bool kernel_param_ok() {
    if constexpr (std::is_pointer_v<P>)
        return true;
    else
        return std::is_arithmetic_v<P>;
}
template <class P>
constexpr std::size_t pointee_bytes() {
    if constexpr (std::is_pointer_v<P>)
        return sizeof(std::remove_pointer_t<P>);
    else
        return 0;
}
} // namespace detail

class Kernel {
public:
    using Invoker = std::function<void(std::span<const KernelArg>)>;

    /// Bind a native function. Its pointer parameters receive views, its arithmetic parameters
    /// receive scalars; `arg_types` declares what each argument must be.
    template <class R, class... P>
    Kernel(std::string name, R (*fn)(P...), std::vector<ArgType> arg_types, CostModel cost_model = {})
        : Kernel(std::move(name), make_invoker(fn), std::move(arg_types), std::move(cost_model),
                 std::vector<std::size_t>{detail::pointee_bytes<P>()...}) {
        static_assert((detail::kernel_param_ok<P>() && ...),
                      "npusim::Kernel: parameters must be pointers or arithmetic");
    }
    /// Bind any callable taking std::span<const KernelArg> (for kernels written against views).
    Kernel(std::string name, Invoker invoker, std::vector<ArgType> arg_types, CostModel cost_model,
           std::vector<std::size_t> pointee_bytes = {});

    /// Call inside a worker body: kernel(in_elem, out_elem, 1024).
    template <class... A>
    void operator()(A&&... args) const {
        const std::array<KernelArg, sizeof...(A)> v{to_arg(std::forward<A>(args))...};
        call(std::span<const KernelArg>(v.data(), v.size()));
    }

    const std::string& name() const { return state_->name; }
    const std::vector<ArgType>& arg_types() const { return state_->arg_types; }
    /// Cycles the cost model gives for these arguments (plus nothing else).
    std::uint64_t cost(std::span<const KernelArg> args) const;
    /// Declare what each call computes (a matmul's MACs and its unit's peak). Copies of this
    /// Kernel share the declaration. Without it a call declares no MACs.
    Kernel& with_work(WorkModel work);

    /// Call with an argument list built at run time (the algorithms templates, whose argument
    /// count depends on the design); the same checks as operator(). arg() makes each argument.
    void call_args(std::span<const KernelArg> args) const { call(args); }
    static KernelArg arg(const Element& e) { return to_arg(e); }
    static KernelArg arg(std::int64_t v) { return to_arg(v); }
    static KernelArg arg(double v) { return to_arg(v); }

private:
    struct State {
        std::string name;
        Invoker invoker;
        std::vector<ArgType> arg_types;
        CostModel cost;
        WorkModel work;
        std::vector<std::size_t> pointee_bytes;
    };
    template <class R, class... P>
    static Invoker make_invoker(R (*fn)(P...)) {
        return [fn](std::span<const KernelArg> a) {
            [&]<std::size_t... I>(std::index_sequence<I...>) { fn(detail::convert_kernel_arg<P>(a[I])...); }
            (std::index_sequence_for<P...>{});
        };
    }
    static KernelArg to_arg(const Element& e);
    static KernelArg to_arg(const ElementGroup& g) { return to_arg(g.single()); }
    template <class T>
    static KernelArg to_arg(T v) requires std::is_arithmetic_v<std::remove_cvref_t<T>> {
        KernelArg a;
        if constexpr (std::is_floating_point_v<std::remove_cvref_t<T>>) {
            a.is_float = true;
            a.fvalue = static_cast<double>(v);
        } else {
            a.ivalue = static_cast<std::int64_t>(v);
        }
        return a;
    }
    void call(std::span<const KernelArg> args) const;
    void check(std::span<const KernelArg> args) const;
    std::shared_ptr<State> state_;
};

} // namespace npusim::iron
