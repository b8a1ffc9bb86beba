#pragma once
// Worker (IRON aie.iron.Worker): a core body run on a compute tile. The body receives its
// fn_args positionally, like IRON's core_fn(*fn_args); fifo handles among the arguments get the
// worker as their endpoint.
#include "npusim/frontend/Buffer.hpp"
#include "npusim/frontend/Lock.hpp"
#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/frontend/ScratchpadParameter.hpp"
#include "npusim/frontend/Tile.hpp"
#include "npusim/frontend/WorkerRuntimeBarrier.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace npusim::iron {

/// The positional arguments of a worker body or runtime sequence.
template <class... A>
auto fn_args(A&&... a) {
    return std::make_tuple(std::forward<A>(a)...);
}

/// Options of Worker (IRON keyword arguments). Designated initializers must follow this order:
/// tile, while_true, stack_size, name, trace — e.g. `{.tile = Tile(0, 2), .name = "w"}`.
struct WorkerOptions {
    Tile tile = AnyComputeTile;
    bool while_true = true; ///< run the body forever (IRON default)
    std::uint32_t stack_size = 0x400; ///< core stack reserved in tile memory (default 1 KiB)
    std::string name{}; ///< for reports; default "worker_<i>" in Program order
    /// IRON Worker(trace=...): traced when Program::enable_trace is given no worker list.
    bool trace = false;
};

class Worker;
namespace detail {
struct WorkerState {
    std::string name;
    WorkerOptions opts;
    std::function<void()> body;
    std::vector<EndpointState*> endpoints;
    std::vector<std::shared_ptr<BufferState>> buffers;
    std::vector<std::shared_ptr<BarrierState>> barriers;
    std::vector<std::shared_ptr<LockState>> locks; ///< hand-written Locks among the fn_args
    /// ScratchpadParameters among the fn_args, in argument order (they declare the parameter;
    /// python/iron/program.py resolves them before the device)
    std::vector<std::shared_ptr<ScratchpadParamState>> params;
    /// CascadeFlows whose source is this worker, in construction order (IRON Worker
    /// _outgoing_cascades, python/iron/worker.py l.121-124): each names its destination worker.
    std::vector<std::weak_ptr<WorkerState>> outgoing_cascades;
};
void validate_worker_tile(const WorkerOptions& o);

template <class Owner, class T>
void register_arg(Owner& owner, const T& arg) {
    if constexpr (std::is_same_v<T, ObjectFifoHandle>) {
        owner.add_endpoint(arg.endpoint());
    } else if constexpr (std::is_same_v<T, Buffer>) {
        owner.add_buffer(arg.state());
    } else if constexpr (std::is_same_v<T, WorkerRuntimeBarrier>) {
        owner.add_barrier(arg.state());
    } else if constexpr (std::is_same_v<T, Lock>) {
        owner.add_lock(arg.state());
    } else if constexpr (std::is_same_v<T, ScratchpadParameter>) {
        owner.add_param(arg.state());
    } else if constexpr (std::is_same_v<T, ObjectFifo>) {
        owner.reject_fifo(arg.name());
    } else if constexpr (requires {
                             arg.begin();
                             arg.end();
                             typename T::value_type;
                         }) {
        if constexpr (!std::is_arithmetic_v<typename T::value_type>)
            for (const auto& x : arg) register_arg(owner, x);
    }
}
} // namespace detail

class Worker {
public:
    template <class Body, class... Args>
    Worker(Body body, std::tuple<Args...> args, WorkerOptions opts = {})
        : state_(std::make_shared<detail::WorkerState>()) {
        state_->opts = std::move(opts);
        state_->name = state_->opts.name;
        detail::validate_worker_tile(state_->opts);
        std::apply([&](const auto&... a) { (detail::register_arg(*this, a), ...); }, args);
        state_->body = [body = std::move(body), args = std::move(args)]() mutable { std::apply(body, args); };
    }
    template <class Body>
    explicit Worker(Body body, WorkerOptions opts = {}) : Worker(std::move(body), std::tuple<>{}, std::move(opts)) {}

    /// IRON Worker.grid(rows, cols, factory): a rows x cols grid of workers, factory(r, c) making
    /// each (python/iron/worker.py @ 3ca0193c L180-205), so ws[r][c] replaces index arithmetic.
    template <class Factory>
    static std::vector<std::vector<Worker>> grid(int rows, int cols, Factory factory) {
        std::vector<std::vector<Worker>> g(static_cast<std::size_t>(std::max(rows, 0)));
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) g[static_cast<std::size_t>(r)].push_back(factory(r, c));
        return g;
    }

    const std::shared_ptr<detail::WorkerState>& state() const { return state_; }
    const std::string& name() const { return state_->name; }

    // used by detail::register_arg
    void add_endpoint(detail::EndpointState* ep);
    void add_buffer(const std::shared_ptr<detail::BufferState>& b);
    void add_barrier(const std::shared_ptr<detail::BarrierState>& b);
    void add_lock(const std::shared_ptr<detail::LockState>& l);
    void add_param(const std::shared_ptr<detail::ScratchpadParamState>& p);
    void reject_fifo(const std::string& fifo) const;

private:
    std::shared_ptr<detail::WorkerState> state_;
};

/// Charge `cycles` of core time for work a body does itself (outside kernels).
void add_cycles(std::uint64_t cycles);

/// Put one 512-bit cascade word (64 bytes at `word`) to the worker's cascade output (aie.put_cascade);
/// blocks while the cascade FIFO is full. Only inside a worker body (or a kernel it calls).
void cascade_put(const void* word);
/// Get one 512-bit cascade word from the worker's cascade input into `word` (aie.get_cascade);
/// blocks while the cascade FIFO is empty.
void cascade_get(void* word);

} // namespace npusim::iron
