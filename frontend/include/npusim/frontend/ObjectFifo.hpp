#pragma once
// ObjectFifo and its handles (IRON aie.iron.ObjectFifo). A fifo carries objects of one tensor
// type from one producer endpoint to one or more consumer endpoints (several cons() handles =
// broadcast). Endpoints are owned by a Worker, the Runtime (shim DMA) or a link (forward).
#include "npusim/frontend/ScratchpadParameter.hpp"
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
/// (before, after) padding in elements per dimension, outermost first (pad_dimensions).
using PadDims = std::vector<std::pair<std::int64_t, std::int64_t>>;

namespace detail {
// The fifo's shared state, its endpoints and links: defined in the frontend's private
// FifoState.hpp (frontend/src), so a design does not recompile when resolve's bookkeeping changes.
struct FifoState;
struct EndpointState;
struct LinkState;
struct WorkerState;
/// What a link does: forward (1 -> 1), split/distribute (1 -> N), join (N -> 1).
enum class LinkKind { Forward, Split, Join };

int next_uid();
/// "of<N>" from a process-wide counter starting at 0, as IRON names a fifo given no name
/// (python/iron/dataflow/objectfifo.py: `f"of{next(ObjectFifo._of_index)}"`).
std::string next_fifo_name();
} // namespace detail

/// Options of fill()/drain() (IRON keyword arguments). Designated initializers must follow this
/// order: tap, wait, group, sizes, strides, offset, transfer_len, managed.
struct TransferOptions {
    std::optional<TensorAccessPattern> tap{};
    bool wait = false;
    /// IRON offset_parameter=: a ScratchpadParameter (i32) whose value, in elements of the host
    /// tensor, is added to the transfer's start when the task is configured (an "addr" parameter).
    std::optional<ScratchpadParameter> offset_parameter{};
    TaskGroup* group = nullptr;
    std::optional<std::vector<std::int64_t>> sizes{}; ///< alternative to tap
    std::optional<std::vector<std::int64_t>> strides{};
    std::optional<std::int64_t> offset{};
    std::optional<std::int64_t> transfer_len{};
    bool managed = true;
};

/// Options of split()/join() (IRON keyword arguments). Per-sub-fifo lists are empty or hold one
/// entry per sub-fifo. Designated initializers must follow this order: tile, depths, obj_types,
/// names, dims_to_stream, dims_from_stream, to_stream, from_stream, repeat_counts,
/// pad_dimensions, pad_value.
struct LinkOptions {
    Tile tile = AnyMemTile;
    std::vector<int> depths{};
    std::vector<TensorType> obj_types{};
    std::vector<std::string> names{};
    std::vector<StreamDims> dims_to_stream{}; ///< upstream name
    std::vector<StreamDims> dims_from_stream{}; ///< upstream name
    std::vector<StreamDims> to_stream{}; ///< the seed reference's names (give one of each pair)
    std::vector<StreamDims> from_stream{};
    std::vector<std::optional<int>> repeat_counts{}; ///< unset entries: no repeat_count
    std::vector<PadDims> pad_dimensions{}; ///< split only (mem-tile MM2S)
    /// split only: each sub-fifo's per-element pad value (IRON split(pad_value=[...]), a list).
    std::vector<std::int64_t> pad_value{};
};

/// Options of forward(). C++ designated initializers must follow this declaration order:
/// tile, obj_type, depth, name, dims_to_stream, dims_from_stream, to_stream, from_stream,
/// repeat_count, pad_dimensions, pad_value.
struct ForwardOptions {
    Tile tile = AnyMemTile;
    std::optional<TensorType> obj_type{};
    std::optional<int> depth{};
    std::string name{};
    StreamDims dims_to_stream{};
    StreamDims dims_from_stream{};
    StreamDims to_stream{}; ///< seed names for the two above (give one of each pair)
    StreamDims from_stream{};
    std::optional<int> repeat_count{};
    PadDims pad_dimensions{};
    std::int64_t pad_value = 0;
    /// No locks: acquire and release only move the ring's index (upstream `disable_synchronization`,
    /// for a fifo whose ends run in one order anyway, e.g. a self-loop of one worker). Served on a
    /// fifo lowered to a shared-memory pool (docs/resolve.md step 4).
    bool disable_synchronization = false;
    /// Put the fifo's buffers in this tile's memory (upstream `delegate_tile`, the op
    /// `aie.objectfifo.allocate`): both cores must reach it. A pinned tile (col, row).
    std::optional<Tile> delegate_tile{};
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
    ObjectFifo forward(ForwardOptions opts) const;
    /// Distribute each object of this (consumer) fifo into sub-fifos through a link tile; offsets
    /// are in elements of this fifo's object. Sub-fifos are named "<name>_split<i>" by default.
    /// With one sub-fifo it is a forward, as in the toolchain (AIEOps.td:2239 isDistribute: more
    /// than one output): `split({0}, {.obj_types = {bigger}})` may change the object size.
    std::vector<ObjectFifo> split(std::vector<std::int64_t> offsets, LinkOptions opts = {}) const;
    /// Gather sub-fifos into each object of this (producer) fifo; "<name>_join<i>" by default.
    /// With one sub-fifo it is a forward (AIEOps.td:2238 isJoin: more than one input).
    std::vector<ObjectFifo> join(std::vector<std::int64_t> offsets, LinkOptions opts = {}) const;

    /// IRON `of.prod().endpoint = ObjectFifoEndpoint(tile)` for a mem tile: this producer handle
    /// is driven by no worker and no fill; the mem tile's DMA sends the fifo's init_values (each
    /// object repeat_count times) to its consumers. `tile` is AnyMemTile or a pinned mem tile;
    /// the fifo needs init_values (checked at resolve).
    void set_endpoint(Tile tile) const;

    const std::string& name() const;
    const TensorType& obj_type() const;
    int depth() const;
    bool is_producer() const;
    detail::EndpointState* endpoint() const { return ep_; }
    const std::shared_ptr<detail::FifoState>& fifo_state() const { return fifo_; }

private:
    Task transfer(const RuntimeData& data, TransferOptions opts, bool fill) const;
    std::vector<ObjectFifo> make_link(detail::LinkKind kind, std::vector<std::int64_t> offsets, LinkOptions opts) const;
    std::shared_ptr<detail::FifoState> fifo_;
    detail::EndpointState* ep_ = nullptr;
};

/// The seed reference's Port: where an ObjectFifo end attaches on its tile. Port::dma(n) pins DMA
/// channel n (the same as `.channel = n`); Port::stream(n) wires the end straight to the core's
/// stream port n (upstream ObjectFifo(aie_stream=(end, port)), python/iron/dataflow/objectfifo.py):
/// no L1 buffer on that end, the kernel writes each word with put_ms / reads it with get_ss.
struct Port {
    enum class Kind { Dma, Stream };
    Kind kind = Kind::Dma;
    int index = 0;
    static Port dma(int n) { return {Kind::Dma, n}; }
    static Port stream(int n) { return {Kind::Stream, n}; }
};

/// Options of prod() (IRON keyword arguments, in IRON's order). Designated initializers must
/// follow this order: depth, channel, tile, port — e.g. `of.prod({.depth = 3, .tile = Tile(0, 0)})`,
/// `of.prod({.port = Port::stream(0)})`.
struct ProdOptions {
    std::optional<int> depth{}; ///< buffers at the producer end (default: the fifo's depth)
    std::optional<int> channel{}; ///< pin the producer end's MM2S DMA channel (default: first free)
    std::optional<Tile> tile{}; ///< shim tile of a runtime (fill) endpoint
    std::optional<Port> port{}; ///< Port::dma(n) (= channel n) or Port::stream(n)
};

/// Options of cons() (IRON keyword arguments, in IRON's order). Designated initializers must
/// follow this order: depth, dims_from_stream, channel, tile, port — e.g.
/// `of.cons({.depth = 3, .dims_from_stream = {{4, 16}, {16, 1}}})`.
struct ConsOptions {
    std::optional<int> depth{}; ///< buffers at this consumer end (default: the fifo's depth)
    StreamDims dims_from_stream{}; ///< consumer-side layout (default: the fifo's per-consumer dims)
    std::optional<int> channel{}; ///< pin this consumer end's S2MM DMA channel (default: first free)
    std::optional<Tile> tile{}; ///< shim tile of a runtime (drain) endpoint
    std::optional<Port> port{}; ///< Port::dma(n) (= channel n) or Port::stream(n)
};

/// Options of the ObjectFifo constructor. Designated initializers must follow this order:
/// dims_to_stream, to_stream, via_dma, repeat_count, init_values, consumer_obj_type,
/// pad_dimensions, pad_value, disable_synchronization, delegate_tile.
struct FifoOptions {
    StreamDims dims_to_stream{}; ///< upstream name
    StreamDims to_stream{}; ///< the seed reference's name for the same thing (give one)
    bool via_dma = false;
    std::optional<int> repeat_count{}; ///< unset: no repeat_count (differs from 1, see FifoState)
    /// Raw bytes of each initial object: one per object of the producer's depth
    /// ("`init_values` does not initialize all objects" otherwise).
    std::vector<std::vector<std::uint8_t>> init_values{};
    std::optional<TensorType> consumer_obj_type{};
    PadDims pad_dimensions{};
    std::int64_t pad_value = 0;
    /// No locks: acquire and release only move the ring's index (upstream `disable_synchronization`,
    /// for a fifo whose ends run in one order anyway, e.g. a self-loop of one worker). Served on a
    /// fifo lowered to a shared-memory pool (docs/resolve.md step 4).
    bool disable_synchronization = false;
    /// Put the fifo's buffers in this tile's memory (upstream `delegate_tile`, the op
    /// `aie.objectfifo.allocate`): both cores must reach it. A pinned tile (col, row).
    std::optional<Tile> delegate_tile{};
};

class ObjectFifo {
public:
    ObjectFifo(TensorType obj_type, std::string name, int depth = 2, FifoOptions opts = {});
    /// Without a name: IRON's generated "of<N>" (detail::next_fifo_name), used in messages and traces.
    explicit ObjectFifo(TensorType obj_type, int depth = 2, FifoOptions opts = {});
    ObjectFifo(TensorType obj_type, FifoOptions opts);

    /// The producer handle (one per fifo). `tile` pins the shim tile of a runtime endpoint.
    ObjectFifoHandle prod(std::optional<int> depth = std::nullopt, std::optional<Tile> tile = std::nullopt) const;
    /// prod() with IRON's keyword arguments: `of.prod({.channel = 1})`.
    ObjectFifoHandle prod(ProdOptions opts) const;
    /// A new consumer handle on every call (several = broadcast).
    ObjectFifoHandle cons(std::optional<int> depth = std::nullopt, std::optional<Tile> tile = std::nullopt,
                          StreamDims dims_from_stream = {}) const;
    /// cons() with IRON's keyword arguments: `of.cons({.dims_from_stream = dims})`.
    ObjectFifoHandle cons(ConsOptions opts) const;

    const std::string& name() const;
    const TensorType& obj_type() const;
    int depth() const;
    /// Mem-tile BD chains of this fifo run `n` times (1..256) instead of forever.
    void set_iter_count(int n) const;
    const std::shared_ptr<detail::FifoState>& state() const { return state_; }

private:
    friend class ObjectFifoHandle;
    explicit ObjectFifo(std::shared_ptr<detail::FifoState> s) : state_(std::move(s)) {}
    std::shared_ptr<detail::FifoState> state_;
};

} // namespace npusim::iron
