#pragma once
// Binding a kernel built from AIE-API source (npusim::aie_kernels, or a user's own kernel compiled
// through kernels_ref/aie_api) to an iron::Kernel, exactly like a reference kernel, with the core's
// rounding and saturation modes kept per worker.
//
// On the hardware those modes live in each core's control register: a kernel sets them and they
// stay set, for that core only. The AIE-API host layer keeps them in one thread_local, and the
// simulator runs every core on one OS thread, so without care a kernel on one core would see the
// modes another core's kernel left. An aie_kernel() binding therefore installs the calling worker's
// modes before each call, saves them after it, and restores the thread's previous modes (also
// when the kernel throws). Each worker starts at the hardware reset modes (floor / none).
//
// The per-worker modes live in an AieCoreModes object. Every kernel bound with the same object
// shares them, as all kernels running on one core share its register: pass one AieCoreModes to all
// the aie_kernel() bindings of a design (omitted: the binding gets its own).
#include "npusim/frontend/Kernel.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace npusim::harness {

/// Rounding and saturation modes of each worker's core, by worker name.
class AieCoreModes;
std::shared_ptr<AieCoreModes> make_aie_core_modes();

/// Wrap `inner` so that each call runs with the calling worker's modes from `modes`.
iron::Kernel::Invoker with_aie_core_modes(iron::Kernel::Invoker inner, std::shared_ptr<AieCoreModes> modes);

/// aie_kernel("scale", &npusim::aie_kernels::vector_scalar_mul_i16, {...}, cost, modes): like the
/// iron::Kernel constructor for a native function, plus the per-worker core modes.
template <class R, class... P>
iron::Kernel aie_kernel(std::string name, R (*fn)(P...), std::vector<iron::ArgType> arg_types,
                        iron::CostModel cost_model = {}, std::shared_ptr<AieCoreModes> modes = nullptr) {
    static_assert((iron::detail::kernel_param_ok<P>() && ...),
                  "npusim::aie_kernel: parameters must be pointers or arithmetic");
    iron::Kernel::Invoker inner = [fn](std::span<const iron::KernelArg> a) {
        [&]<std::size_t... I>(std::index_sequence<I...>) { fn(iron::detail::convert_kernel_arg<P>(a[I])...); }
        (std::index_sequence_for<P...>{});
    };
    return iron::Kernel(
        std::move(name), with_aie_core_modes(std::move(inner), modes ? std::move(modes) : make_aie_core_modes()),
        std::move(arg_types), std::move(cost_model), std::vector<std::size_t>{iron::detail::pointee_bytes<P>()...});
}

} // namespace npusim::harness
