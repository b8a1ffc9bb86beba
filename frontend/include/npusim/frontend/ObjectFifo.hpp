#pragma once
// ObjectFifo and its handles (IRON aie.iron.ObjectFifo). A fifo carries objects of one tensor
// type from one producer endpoint to one or more consumer endpoints (several cons() handles =
// broadcast). Endpoints are owned by a Worker, the Runtime (shim DMA) or a link (forward).
#include "npusim/frontend/Element.hpp"
#include "npusim/frontend/TensorAccessPattern.hpp"
#include "npusim/frontend/TensorType.hpp"
#include "npusim/frontend/Tile.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npusim::iron {

class ObjectFifo;
class ObjectFifoHandle;
class TaskGroup;
class Task;
struct RuntimeData;

/// (size, stride) pairs in elements, outermost first (dims_to_stream / to_stream).
using StreamDims = std::vector<std::pair<std::int64_t, std::int64_t>>;

namespace detail {
struct FifoState;
struct WorkerState;
struct LinkState;

enum class Role { Producer, Consumer };
enum class OwnerKind { None, Worker, Runtime, Link };

struct EndpointState {
    FifoState* fifo = nullptr;
    Role role = Role::Producer;
    int index = 0;                    ///< consumer index (position in the fifo's consumer list)
    int uid = 0;                      ///< process-unique key used by core programs
    OwnerKind owner = OwnerKind::None;
    WorkerState* worker = nullptr;
    LinkState* link = nullptr;
    Tile tile;                        ///< requested tile for runtime (shim) endpoints
    std::optional<int> depth;         ///< per-endpoint depth override
    StreamDims dims_from_stream;      ///< consumer-side layout (S2MM BD dims)
    std::string describe() const;     ///< "fifo 'in' consumer 0"
};

struct FifoState {
    std::string name;
    TensorType obj_type;
    int depth = 2;
    StreamDims dims_to_stream;
    bool via_dma = false;
    std::unique_ptr<EndpointState> prod;
    std::vector<std::unique_ptr<EndpointState>> cons;
    std::shared_ptr<LinkState> link_from_cons;   ///< link this fifo feeds (its consumer is the link)
    LinkState* link_to_prod = nullptr;           ///< link that produces into this fifo
};

/// A memtile (or compute-tile) link: forward now; split/join extend it.
struct LinkState {
    Tile tile;
    std::vector<FifoState*> inputs;
    std::vector<std::shared_ptr<FifoState>> outputs;
};

int next_uid();
} // namespace detail

/// Options of fill()/drain() (IRON keyword arguments).
struct TransferOptions {
    std::optional<TensorAccessPattern> tap;
    bool wait = false;
    TaskGroup* group = nullptr;
    std::optional<std::vector<std::int64_t>> sizes;     ///< alternative to tap
    std::optional<std::vector<std::int64_t>> strides;
    std::optional<std::int64_t> offset;
    std::optional<std::int64_t> transfer_len;
    bool managed = true;
};

class ObjectFifoHandle {
public:
    ObjectFifoHandle() = default;
    ObjectFifoHandle(std::shared_ptr<detail::FifoState> f, detail::EndpointState* e) : fifo_(std::move(f)), ep_(e) {}

    // ---- in a worker body ----
    /// Acquire n objects (cumulative: only the objects not already held are waited for).
    ElementGroup acquire(int n = 1) const;
    /// Release n held objects.
    void release(int n = 1) const;

    // ---- in the runtime sequence ----
    /// Host -> array transfer into this (producer) endpoint.
    Task fill(const RuntimeData& src, TransferOptions opts = {}) const;
    /// Array -> host transfer from this (consumer) endpoint.
    Task drain(const RuntimeData& dst, TransferOptions opts = {}) const;

    // ---- design time ----
    /// Copy the fifo through a link tile (a mem tile by default): returns the new fifo
    /// "<name>_fwd" (or `name`) whose producer is the link. Only on consumer handles.
    ObjectFifo forward(Tile tile = AnyMemTile, std::optional<TensorType> obj_type = std::nullopt,
                       std::optional<int> depth = std::nullopt, std::string name = "") const;

    const std::string& name() const;
    const TensorType& obj_type() const;
    int depth() const;
    bool is_producer() const;
    detail::EndpointState* endpoint() const { return ep_; }
    const std::shared_ptr<detail::FifoState>& fifo_state() const { return fifo_; }

private:
    Task transfer(const RuntimeData& data, TransferOptions opts, bool fill) const;
    std::shared_ptr<detail::FifoState> fifo_;
    detail::EndpointState* ep_ = nullptr;
};

struct FifoOptions {
    StreamDims dims_to_stream;   ///< also accepted as to_stream
    bool via_dma = false;
};

class ObjectFifo {
public:
    ObjectFifo(TensorType obj_type, std::string name, int depth = 2, FifoOptions opts = {});

    /// The producer handle (one per fifo). `tile` pins the shim tile of a runtime endpoint.
    ObjectFifoHandle prod(std::optional<int> depth = std::nullopt, std::optional<Tile> tile = std::nullopt) const;
    /// A new consumer handle on every call (several = broadcast).
    ObjectFifoHandle cons(std::optional<int> depth = std::nullopt, std::optional<Tile> tile = std::nullopt,
                          StreamDims dims_from_stream = {}) const;

    const std::string& name() const { return state_->name; }
    const TensorType& obj_type() const { return state_->obj_type; }
    int depth() const { return state_->depth; }
    const std::shared_ptr<detail::FifoState>& state() const { return state_; }

private:
    friend class ObjectFifoHandle;
    explicit ObjectFifo(std::shared_ptr<detail::FifoState> s) : state_(std::move(s)) {}
    std::shared_ptr<detail::FifoState> state_;
};

} // namespace npusim::iron
