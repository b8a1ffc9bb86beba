#pragma once
// checked_kernel: the kernel library's binding of a kernel whose every call first checks what its
// argument types cannot express (KernelLibraryConv3.cpp, KernelLibraryConvCascade.cpp).
#include "npusim/frontend/Kernel.hpp"
#include "npusim/harness/AieKernel.hpp"

#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace npusim::harness::iron_kernels::detail {

// A kernel whose every call first runs `pre` on its arguments (a check the argument types cannot
// express), then `fn`; with `aie`, under the calling worker's core modes (AieKernel.hpp).
template <class R, class... P>
inline iron::Kernel checked_kernel(std::string name, R (*fn)(P...), bool aie, std::vector<iron::ArgType> types, iron::CostModel cost,
                      std::function<void(std::span<const iron::KernelArg>)> pre) {
    iron::Kernel::Invoker inner = [fn, pre = std::move(pre)](std::span<const iron::KernelArg> a) {
        pre(a);
        [&]<std::size_t... I>(std::index_sequence<I...>) { fn(iron::detail::convert_kernel_arg<P>(a[I])...); }
        (std::index_sequence_for<P...>{});
    };
    if (aie) inner = with_aie_core_modes(std::move(inner), make_aie_core_modes());
    return iron::Kernel(std::move(name), std::move(inner), std::move(types), std::move(cost),
                  std::vector<std::size_t>{iron::detail::pointee_bytes<P>()...});
}

} // namespace npusim::harness::iron_kernels::detail
