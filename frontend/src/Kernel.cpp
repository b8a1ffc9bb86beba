#include "npusim/frontend/Kernel.hpp"

#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Error.hpp"

#include <array>
#include <cmath>
#include <fmt/format.h>
#include <new>
#include <span>
#include <vector>

namespace npusim::iron {

std::string ArgType::str() const {
    return is_tensor ? tensor.str() : std::string(model::dtype_name(dtype)) + " scalar";
}

namespace cost {
CostModel bytes_per_cycle(double bpc, std::uint64_t overhead) {
    return [bpc, overhead](std::span<const KernelArg> args) {
        double bytes = 0;
        for (const auto& a : args)
            if (a.is_view) bytes += static_cast<double>(a.elements) * static_cast<double>(model::dtype_bytes(a.dtype));
        return overhead + static_cast<std::uint64_t>(std::ceil(bytes / bpc));
    };
}
CostModel fixed(std::uint64_t cycles) {
    return [cycles](std::span<const KernelArg>) { return cycles; };
}
} // namespace cost

Kernel::Kernel(std::string name, Invoker invoker, std::vector<ArgType> arg_types, CostModel cost_model,
               std::vector<std::size_t> pointee_bytes)
    : state_(std::make_shared<State>()) {
    state_->name = std::move(name);
    state_->invoker = std::move(invoker);
    state_->arg_types = std::move(arg_types);
    state_->cost = cost_model ? std::move(cost_model) : cost::bytes_per_cycle(32.0, 0);
    state_->pointee_bytes = std::move(pointee_bytes);
    const auto& pb = state_->pointee_bytes;
    if (!pb.empty()) {
        if (pb.size() != state_->arg_types.size())
            throw DesignError(fmt::format("kernel '{}': the native function takes {} arguments but {} argument types "
                                          "are declared",
                                          state_->name, pb.size(), state_->arg_types.size()));
        for (std::size_t i = 0; i < pb.size(); ++i) {
            const auto& t = state_->arg_types[i];
            if (t.is_tensor && pb[i] == 0)
                throw DesignError(fmt::format("kernel '{}': argument {} is declared {} but the native parameter is "
                                              "not a pointer",
                                              state_->name, i, t.str()));
            if (!t.is_tensor && pb[i] != 0)
                throw DesignError(fmt::format("kernel '{}': argument {} is declared a scalar but the native parameter "
                                              "is a pointer",
                                              state_->name, i));
            if (t.is_tensor && pb[i] != model::dtype_bytes(t.dtype))
                throw DesignError(fmt::format("kernel '{}': argument {} is declared {} ({} B elements) but the native "
                                              "pointer has {} B elements",
                                              state_->name, i, t.str(), model::dtype_bytes(t.dtype), pb[i]));
        }
    }
}

KernelArg Kernel::to_arg(const Element& e) {
    KernelArg a;
    a.is_view = true;
    a.data = e.data();
    a.dtype = e.type().dtype;
    a.elements = e.elements();
    a.source = &e.owner();
    return a;
}

std::uint64_t Kernel::cost(std::span<const KernelArg> args) const { return state_->cost(args); }

Kernel& Kernel::with_work(WorkModel work) {
    state_->work = std::move(work);
    return *this;
}

void Kernel::check(std::span<const KernelArg> args) const {
    const auto& types = state_->arg_types;
    if (args.size() != types.size())
        throw DesignError(
            fmt::format("kernel '{}' called with {} arguments, expects {}", state_->name, args.size(), types.size()));
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& t = types[i];
        const auto& a = args[i];
        if (t.is_tensor && !a.is_view)
            throw DesignError(
                fmt::format("kernel '{}' argument {}: expects a view of {}, got a scalar", state_->name, i, t.str()));
        if (!t.is_tensor && a.is_view)
            throw DesignError(fmt::format("kernel '{}' argument {}: expects a {} scalar, got a view of '{}'",
                                          state_->name, i, model::dtype_name(t.dtype), *a.source));
        if (t.is_tensor && (a.dtype != t.dtype || a.elements != t.elements))
            throw DesignError(fmt::format("kernel '{}' argument {}: expects {} ({} elements), got a view of '{}' with "
                                          "{} {} elements",
                                          state_->name, i, t.str(), t.tensor.elements(), *a.source, a.elements,
                                          model::dtype_name(a.dtype)));
    }
}

void Kernel::call(std::span<const KernelArg> args) const {
    check(args);
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError(fmt::format("kernel '{}' called outside a worker body", state_->name));
    // Only a body traced at resolve or export time can be a recorder: the dynamic_cast (a few
    // hundred instructions) stays off the simulated call's path.
    if (svc->tracing())
        if (auto* rec = dynamic_cast<detail::KernelCallRecorder*>(svc)) {
            rec->record_kernel_call(*this, args);
            return;
        }
    const std::uint64_t cycles = state_->cost(args);
    // The views, on the stack for the usual few arguments (a call is on the hot path).
    constexpr std::size_t kInlineViews = 8;
    union InlineViews { // not value-initialised: only the n filled below are read
        InlineViews() {}
        model::MemoryView v[kInlineViews];
    } inline_views;
    std::vector<model::MemoryView> many_views(args.size() > kInlineViews ? args.size() : 0);
    model::MemoryView* const out = many_views.empty() ? inline_views.v : many_views.data();
    std::size_t n = 0;
    for (const auto& a : args)
        if (a.is_view)
            new (&out[n++])
                model::MemoryView{a.data, static_cast<std::size_t>(a.elements) * model::dtype_bytes(a.dtype),
                                  a.source ? std::string_view(*a.source) : std::string_view("view")};
    const std::span<const model::MemoryView> views(out, n);
    const model::KernelWork work = state_->work ? state_->work(args) : model::KernelWork{};
    svc->kernel_call(
        state_->name, cycles, views, [&] { state_->invoker(args); }, work);
}

} // namespace npusim::iron
