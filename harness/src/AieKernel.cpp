#include "npusim/harness/AieKernel.hpp"

#include "npusim/model/CoreServices.hpp"

#include <aie_api/aie.hpp>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string_view>

namespace npusim::harness {

class AieCoreModes {
public:
    /// Kernels of different workers may run at once on kernel threads (SimOptions::kernel_threads):
    /// the lookup locks; a worker's own entry (a map node, stable) is used by one call at a time.
    npusim::aie_api::CoreModes& of(std::string_view worker) {
        const std::lock_guard lock(m_);
        auto it = modes_.find(worker);
        if (it == modes_.end()) it = modes_.emplace(std::string(worker), npusim::aie_api::CoreModes{}).first;
        return it->second;
    }

private:
    std::mutex m_;
    std::map<std::string, npusim::aie_api::CoreModes, std::less<>> modes_;
};

namespace {
// The AIE-API layer's cascade intrinsics (put_mcd / get_scd_*) reach the core running the kernel.
void cascade_put_hook(const void* word) {
    auto* svc = model::CoreServices::current();
    if (!svc) throw std::logic_error("put_mcd called outside a worker's kernel call");
    svc->cascade_put(word);
}
void cascade_get_hook(void* word) {
    auto* svc = model::CoreServices::current();
    if (!svc) throw std::logic_error("get_scd called outside a worker's kernel call");
    svc->cascade_get(word);
}
// Its stream-port intrinsics (put_ms / get_ss) reach the core's stream ports.
void stream_put_hook(std::uint32_t word) {
    auto* svc = model::CoreServices::current();
    if (!svc) throw std::logic_error("put_ms called outside a worker's kernel call");
    svc->stream_put(word);
}
std::uint32_t stream_get_hook() {
    auto* svc = model::CoreServices::current();
    if (!svc) throw std::logic_error("get_ss called outside a worker's kernel call");
    return svc->stream_get();
}
} // namespace

std::shared_ptr<AieCoreModes> make_aie_core_modes() { return std::make_shared<AieCoreModes>(); }

iron::Kernel::Invoker with_aie_core_modes(iron::Kernel::Invoker inner, std::shared_ptr<AieCoreModes> modes) {
    if (!modes) modes = make_aie_core_modes();
    npusim::aie_api::set_cascade_hooks(&cascade_put_hook, &cascade_get_hook);
    npusim::aie_api::set_stream_hooks(&stream_put_hook, &stream_get_hook);
    return [inner = std::move(inner), modes = std::move(modes)](std::span<const iron::KernelArg> args) {
        const auto* svc = model::CoreServices::current();
        auto& mine = modes->of(svc ? svc->worker() : std::string_view{});
        const npusim::aie_api::ScopedCoreModes scope(mine); // restores the thread's modes on exit
        inner(args);
        mine = npusim::aie_api::get_core_modes();
    };
}

} // namespace npusim::harness
