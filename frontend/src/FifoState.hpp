#pragma once
// The state behind ObjectFifo and its handles (npusim/frontend/ObjectFifo.hpp declares these types
// only): a fifo, its producer and consumer endpoints, and the links between fifos. Private to the
// frontend's sources (resolve and export read them) and to the tests that inspect them.
#include "npusim/frontend/ObjectFifo.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npusim::iron::detail {

enum class Role { Producer, Consumer };
/// Who drives an endpoint. MemTile: a producer endpoint on a mem tile that only sends the fifo's
/// init_values (IRON `of.prod().endpoint = ObjectFifoEndpoint(AnyMemTile)`).
enum class OwnerKind { None, Worker, Runtime, Link, MemTile };

struct EndpointState {
    FifoState* fifo = nullptr;
    Role role = Role::Producer;
    int index = 0; ///< consumer index (position in the fifo's consumer list)
    int uid = 0; ///< process-unique key used by core programs
    OwnerKind owner = OwnerKind::None;
    WorkerState* worker = nullptr;
    LinkState* link = nullptr;
    Tile tile; ///< requested tile for runtime (shim) endpoints
    std::optional<int> depth; ///< per-endpoint depth override
    StreamDims dims_from_stream; ///< consumer-side layout (S2MM BD dims)
    /// IRON prod(channel=)/cons(channel=) (the seed's Port.dma(n)): the DMA channel this end uses
    /// on its tile instead of first-free assignment (reserved before any auto-assignment).
    std::optional<int> channel;
    /// Port::stream(n) (upstream's `aie_stream` / `aie_stream_port` on the aie.objectfifo op): this
    /// end is the core's stream port n, with no L1 buffer and no DMA channel on its tile; the
    /// kernel moves each 32-bit word with put_ms (producer) / get_ss (consumer).
    std::optional<int> stream_port;
    std::string describe() const; ///< "fifo 'in' consumer 0"
};

struct FifoState {
    std::string name;
    TensorType obj_type;
    int depth = 2;
    StreamDims dims_to_stream;
    bool via_dma = false;
    /// Every object is sent this many times. Unset and 1 differ, as in mlir-aie: any set value
    /// makes the fifo use DMA (AIEObjectFifoStatefulTransform requiresDMAs) and is refused on shim
    /// producers (ObjectFifoCreateOp::verify).
    std::optional<int> repeat_count;
    int repeats() const { return repeat_count.value_or(1); }
    std::vector<std::vector<std::uint8_t>> init_values; ///< initial producer-side objects
    /// What a cons() handle given no dims gets (IRON dims_from_stream_per_cons): set on the
    /// sub-fifos of split() and forward().
    StreamDims default_dims_from_stream;
    std::optional<TensorType> consumer_obj_type; ///< consumer-side granularity
    PadDims pad_dimensions; ///< mem-tile MM2S padding
    std::int64_t pad_value = 0;
    int iter_count = 0; ///< mem-tile chain iterations (0: forever)
    /// No lock pair: the cores' acquire/release only rotate the buffer index (aie.objectfifo's
    /// `disable_synchronization`; AIEObjectFifoStatefulTransform createObjectFifoLocks returns none).
    bool disable_synchronization = false;
    /// aie.objectfifo.allocate: the tile whose memory holds the fifo's shared pool.
    std::optional<Tile> delegate_tile;
    std::unique_ptr<EndpointState> prod;
    std::vector<std::unique_ptr<EndpointState>> cons;
    std::shared_ptr<LinkState> link_from_cons; ///< link this fifo feeds (its consumer is the link)
    LinkState* link_to_prod = nullptr; ///< link that produces into this fifo
};

/// A link on a mem tile (or a compute tile for forward): forward (1 -> 1), split/distribute
/// (1 -> N, `offsets` into the input object), join (N -> 1, offsets into the output object).
struct LinkState {
    using Kind = LinkKind;
    Kind kind = Kind::Forward;
    Tile tile;
    std::vector<FifoState*> inputs;
    std::vector<std::shared_ptr<FifoState>> outputs;
    std::vector<std::int64_t> offsets; ///< elements of the parent object
};

/// Make `worker` (or the Runtime, kind Runtime) the owner of `ep`; an endpoint already owned by
/// another is a DesignError naming both (`who` is the new owner in the message).
void claim_endpoint(EndpointState* ep, OwnerKind kind, WorkerState* worker, const std::string& who);

// A default-constructed handle belongs to no fifo: using it is a DesignError, not a null dereference
// (`what` names the handle's member function in the message).
void require_handle(const EndpointState* ep, const char* what);

} // namespace npusim::iron::detail
