#pragma once
// The netlist: a configured NPU array as plain data. It is what resolve() produces from a design
// and what the simulator executes. It speaks only of hardware primitives (buffers at addresses,
// locks with initial values, BD chains per DMA channel, stream flows, core programs and the host
// runtime sequence); each element carries its provenance so reports can be phrased in design
// terms (fifo, worker, element index) without the simulator knowing what an ObjectFifo is.
#include "npusim/model/DType.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/TraceConfig.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace npusim::model {

/// Where a netlist element came from, in design terms.
struct Provenance {
    std::string object; ///< design object: fifo "in", worker "passthrough_worker", "runtime"
    std::string role; ///< "producer", "consumer", "consumer copy", "link", "fill", "drain", ...
    int element = -1; ///< element (ring position) index, -1 when not applicable
    std::string describe() const; ///< e.g. "fifo 'in' consumer copy, element 1"
};

/// A buffer in tile memory.
struct NetBuffer {
    std::string name; ///< toolchain-style name: in_cons_buff_0
    TileCoord tile;
    std::uint32_t address = 0; ///< byte offset in the tile's data memory
    std::uint32_t bytes = 0;
    Provenance prov;
    std::vector<std::uint8_t> init; ///< initial contents (empty = zero)
};

/// A semaphore lock (AIE2: value 0..63).
struct NetLock {
    std::string name; ///< in_cons_prod_lock_0
    TileCoord tile;
    int id = 0;
    int init = 0;
    Provenance prov;
};

/// One BD dimension: size and stride in 32-bit words. Lists are outermost first.
struct Dim {
    std::uint32_t size = 1;
    std::int64_t stride = 0;
    friend bool operator==(const Dim&, const Dim&) = default;
};

/// Padding of one BD dimension (mem-tile MM2S only).
struct PadDim {
    std::uint32_t before = 0;
    std::uint32_t after = 0;
    friend bool operator==(const PadDim&, const PadDim&) = default;
};

/// A buffer descriptor of a tile DMA channel (compute or mem tile).
struct BufferDescriptor {
    int bd_id = 0;
    int buffer = -1; ///< NetBuffer index
    std::uint32_t offset_bytes = 0; ///< into the buffer
    std::uint32_t length_bytes = 0; ///< bytes moved per execution of this BD
    std::vector<Dim> dims; ///< empty: linear
    int acquire_lock = -1; ///< NetLock index, -1: none
    int acquire_value = 0;
    bool acquire_equal = false; ///< acquire-equal (no decrement) instead of >=
    int release_lock = -1;
    int release_value = 0;
    int next = -1; ///< index of the next BD in this channel's list, -1: end
    int repeat = 0; ///< extra executions of this BD (MM2S repeat_count)
    std::vector<PadDim> pad; ///< MM2S padding per dim (same order as dims), in the
        ///< dim's units (32-bit words for the innermost dim)
    std::uint32_t pad_word = 0; ///< 32-bit pattern written for padding
    int packet_id = -1; ///< MM2S: >= 0 sends a packet (header word, then the data); -1: plain stream
    int packet_type = 0; ///< the header's 3-bit packet type
    Provenance prov;
};

/// The BD program of one DMA channel of a compute or mem tile.
struct DmaChannelProgram {
    TileCoord tile;
    Direction dir = Direction::S2MM;
    int channel = 0;
    std::vector<BufferDescriptor> bds;
    int start = 0; ///< index of the first BD
    int repeat_count = 0; ///< extra executions of a chain that ends (dma_start repeat_count)
    Provenance prov;
};

struct StreamEndpoint {
    TileCoord tile;
    Direction dir = Direction::MM2S;
    int channel = 0;
    friend bool operator==(const StreamEndpoint&, const StreamEndpoint&) = default;
};
std::string to_string(const StreamEndpoint& e); ///< "(0,2) MM2S 0"

/// A circuit-switched stream flow from one MM2S channel to one or more S2MM channels
/// (several destinations = broadcast of the same source port).
struct Flow {
    StreamEndpoint source;
    std::vector<StreamEndpoint> dests;
    std::vector<std::vector<TileCoord>> paths; ///< per destination: tiles traversed, source first
    Provenance prov;
    /// The source is a core's stream port (Core:<source.channel>; an aie_stream producer end), not
    /// an MM2S DMA channel: the core of that tile puts the words (CoreProgram::stream_out).
    bool from_core = false;
    /// The destination is a core's stream port (Core:<dests[0].channel>; an aie_stream consumer
    /// end), not an S2MM DMA channel: the core gets the words (CoreProgram::stream_in).
    bool to_core = false;
    /// The paths are the user's own switchbox connections (aie.switchbox / aie.connect, followed hop
    /// by hop at resolve), not a route the router chose: the router keeps them as they are.
    bool pinned_route = false;
    int switch_hops(std::size_t dest) const { return static_cast<int>(paths.at(dest).size()); }
};

/// A packet-switched flow (aie.packet_flow): packets with header id `packet_id` sent by the MM2S
/// channel `source` reach every S2MM channel of `dests`. Unlike circuit flows, packet flows share
/// switch connections and destination ports: packets from several sources merge, each whole (from
/// its header to TLAST), arbitrated round-robin.
struct PacketFlowRoute {
    int packet_id = 0;
    StreamEndpoint source;
    std::vector<StreamEndpoint> dests;
    bool keep_pkt_header = false; ///< the destinations also write the header word
    std::vector<std::vector<TileCoord>> paths; ///< per destination: tiles traversed, source first
    Provenance prov;
};

/// The 32-bit header word an MM2S BD emits before a packet (AM025 stream switch packet header):
/// packet id in bits 4:0, packet type in bits 14:12, source row in bits 20:16, source column in
/// bits 27:21, and bit 31 the odd parity of bits 30:0.
std::uint32_t packet_header(int packet_id, int packet_type, TileCoord source);

/// The ring of buffers a core walks for one (fifo, port): what the toolchain lowers a core's
/// acquire/release into (held-count and rotating index, dynamic lowering).
struct CoreRing {
    int key = -1; ///< endpoint key used by the core body's calls
    std::vector<int> buffers; ///< NetBuffer indices, in rotation order
    int acquire_lock = -1; ///< acquired (>=) by acquire(n)
    int release_lock = -1; ///< released by release(n)
    int repeat = 1; ///< lock values are multiplied by the fifo's repeat_count
    Provenance prov;
};

/// A plain buffer a core body reads and writes directly (IRON Buffer).
struct CoreBufferRef {
    int key = -1;
    int buffer = -1;
};

/// A lock a core body waits on / releases: a WorkerRuntimeBarrier's lock, or a hand-written
/// Lock passed in its fn_args (`user_lock`).
struct CoreLockRef {
    int key = -1;
    int lock = -1;
    bool user_lock = false;
    /// What the body does to it, as resolve's trace of one iteration saw (a user lock; a barrier
    /// is both waited on and released): only these make the core an acquirer or a releaser of it.
    bool acquires = true;
    bool releases = true;
};

/// The program of one compute core: the worker body (run natively) and the hardware it touches.
struct CoreProgram {
    std::string worker; ///< worker name
    TileCoord tile;
    std::function<void()> body; ///< one iteration of the worker body
    bool while_true = true; ///< repeat the body forever
    std::uint32_t stack_bytes = 0x400;
    std::vector<CoreRing> rings;
    std::vector<CoreBufferRef> buffers;
    std::vector<CoreLockRef> locks;
    int cascade_in = -1; ///< Netlist::cascades index of the cascade this core gets from (-1: none)
    int cascade_out = -1; ///< Netlist::cascades index of the cascade this core puts to (-1: none)
    int stream_out = -1; ///< Netlist::flows index this core's output stream port feeds (-1: none)
    int stream_in = -1; ///< Netlist::flows index whose words this core's input stream port gets (-1: none)
    /// ScratchpadParameters the body reads: key (the parameter) -> its __param_ buffer on this tile.
    std::vector<CoreBufferRef> params;
    /// The parameter-sync lock (aie-lower-scratchpad-parameters): the core acquires it (== 1) once,
    /// before its body first runs; the sequence's parameter sync sets it. -1: none.
    int param_sync_lock = -1;
};

/// Bytes of one cascade word: 512 bits on AIE2 and AIE2P (mlir-aie AIETargetModel
/// getAccumulatorCascadeSize; PutCascadeOp/GetCascadeOp::verify, AIEDialect.cpp l.1285-1317).
inline constexpr std::size_t kCascadeWordBytes = 64;

/// A cascade connection (aie.cascade_flow, lowered to aie.configure_cascade on both tiles): the
/// core of `src_core` puts 512-bit words that the core of `dst_core` gets, in order.
struct CascadeConnection {
    int src_core = -1, dst_core = -1; ///< Netlist::cores indices
    TileCoord src, dst;
    std::string src_worker, dst_worker;
    /// "cascade from worker 'a' on (0,3) to worker 'b' on (0,2)"
    std::string describe() const;
};

/// A tensor of the host, bound to a runtime-sequence argument (XRT buffer object).
struct HostTensor {
    std::string name;
    DType dtype = DType::i32;
    std::vector<std::int64_t> shape;
    std::uint64_t bytes = 0;
};

/// A single-BD shim DMA task of the runtime sequence (fill or drain). dims are in 32-bit words,
/// outermost first, 4 entries: dims[0] is the iteration/repeat dimension.
/// A BD after the first of a shim task's chain (its predecessor's next_bd): the host tensor and
/// pattern it moves. dims as ShimTask::dims, dims[0] being the BD's iteration (size, stride).
struct ShimChainBd {
    int bd_id = 0;
    int host_tensor = -1;
    std::uint64_t offset_bytes = 0;
    std::vector<Dim> dims;
};

struct ShimTask {
    int id = 0;
    TileCoord tile;
    Direction dir = Direction::MM2S;
    int channel = 0;
    int bd_id = 0;
    int host_tensor = -1;
    std::uint64_t offset_bytes = 0;
    std::vector<Dim> dims;
    bool issue_token = false; ///< completion token: the fill/drain's wait flag (IRON dmatask.py)
    /// offset_parameter: a Netlist::scratchpad_params index whose value times offset_param_scale
    /// bytes is added to offset_bytes when the task is configured (-1: none).
    int offset_param = -1;
    std::uint32_t offset_param_scale = 0; ///< bytes per unit of the parameter (the tensor's element size)
    /// A shim BD's own lock fields (npu_writebd lock_acq_* / lock_rel_*, AM025 DMA_BD<n>_7): a lock
    /// of the shim tile acquired before the transfer and released after it. -1: none.
    int acquire_lock = -1;
    int acquire_value = 0;
    bool acquire_equal = false; ///< acquire-equal (no decrement) instead of >=
    int release_lock = -1;
    int release_value = 0;
    int packet_id = -1; ///< MM2S: >= 0 sends each task's data as one packet with this header id
    int packet_type = 0;
    /// 0: a single-BD task, dims[0] its repeat (fill/drain, shim_dma_single_bd_task). > 0: a task
    /// of chained BDs (dma_configure_task's BD blocks joined by next_bd; npu_writebd with
    /// use_next_bd): this BD, then `chain` in order, the whole chain run chain_passes times (the
    /// queue push's repeat_count + 1). Each BD moves its inner three dims once per pass, at its
    /// offset plus (pass mod dims[0].size) x dims[0].stride words: the BD's iteration
    /// (AIEDMATasksToNPU.cpp L843-866: the outermost dim is the BD's iteration, the task's
    /// repeat_count repeats the chain). ShimChainSteps walks it.
    std::uint32_t chain_passes = 0;
    std::vector<ShimChainBd> chain;
    Provenance prov; ///< fifo name, "fill"/"drain"
    std::uint64_t bytes() const; ///< total bytes moved (product of sizes * 4; a chain's every step)
};

/// One instruction of the host runtime sequence, in program order.
struct RuntimeOp {
    /// CreateScratchpad: the host's scratchpad words become the state table (npu.create_scratchpad).
    /// UpdateFromScratchpad: buffer word 0 (with the carry into bits 32..47 of word 1) += state
    /// table entry `value`, the low 2 bits cleared (npu.update_from_scratchpad, Incr).
    enum class Kind { StartTask, AwaitTask, FreeTask, WriteBuffer, SetLock, CreateScratchpad, UpdateFromScratchpad };
    Kind kind = Kind::StartTask;
    int task = -1; ///< ShimTask index (Start/Await/Free)
    int buffer = -1; ///< NetBuffer (WriteBuffer)
    std::uint32_t offset_bytes = 0; ///< WriteBuffer
    std::vector<std::uint8_t> data; ///< WriteBuffer
    int lock = -1; ///< SetLock
    int value = 0; ///< SetLock: the value; UpdateFromScratchpad: the state-table index
    Provenance prov;
};

/// A ScratchpadParameter as aie-lower-scratchpad-parameters assigns it: its state-table index is
/// its position in Netlist::scratchpad_params.
struct ScratchpadParam {
    enum class Kind { Core, Addr };
    std::string name;
    DType dtype = DType::i32;
    Kind kind = Kind::Core; ///< read by cores, or a DMA offset_parameter
};

/// How a fifo endpoint holds its objects once lowered.
enum class FifoEndHolding {
    OwnCopy, ///< its own ring on its tile (a DMA copy; a mem-tile producer's init_values ring)
    SharedPool, ///< the producer of a shared-memory pool both cores reach (no DMA)
    LinkPool, ///< the link's pool in the link tile (the side of the link whose copy the pool is)
    SharesProducerPool, ///< the consumer of a shared-memory pool: no buffers of its own
    SharesLinkPool, ///< a link's sub-fifo side in the link tile: uses the link's pool
    Runtime, ///< filled or drained by the runtime sequence: host memory, no tile buffers
    StreamPort, ///< the core's stream port (Port::stream, aie_stream): no buffers, no DMA channel
};
/// "own copy", "shared pool", "link pool", "shares the producer's pool", "shares the link pool",
/// "runtime (host memory)", "core stream port".
const char* fifo_end_holding_name(FifoEndHolding h);

/// A fifo endpoint as lowered: its tile, how it holds its objects and how many buffers it got -
/// what `npusim depth` lists and varies. Plain data, filled by resolve() in lowering order.
struct FifoEndpointInfo {
    std::string fifo;
    int consumer = -1; ///< -1: the producer end, else the consumer's index in the fifo
    std::string end; ///< "producer", "consumer 0"
    FifoEndHolding holding = FifoEndHolding::OwnCopy;
    /// SharesProducerPool / SharesLinkPool: the endpoint that holds the buffers ("fifo 'a' consumer 0").
    std::string pool_owner;
    TileCoord tile;
    int declared = 0; ///< the depth the design declared for this end
    int depth = 0; ///< buffers it got (the depth rule's result, or an override); 0 without buffers
    std::uint32_t object_bytes = 0; ///< bytes of one of its objects (its buffers' size)
    bool overridden = false; ///< its depth came from a depth override
    /// It has buffers of its own, so its depth can be chosen (OwnCopy, SharedPool, LinkPool).
    bool owns_buffers() const;
    std::string describe() const; ///< "fifo 'in' consumer 0"
};

/// The whole configured array.
struct Netlist {
    const DeviceSpec* device = nullptr;
    std::string design; ///< design name, for reports
    std::vector<NetBuffer> buffers;
    std::vector<NetLock> locks;
    std::vector<DmaChannelProgram> channels;
    std::vector<Flow> flows;
    std::vector<PacketFlowRoute> packet_flows; ///< aie.packet_flow routes, in design order
    std::vector<CoreProgram> cores;
    std::vector<CascadeConnection> cascades; ///< in Program order of their source workers
    std::vector<HostTensor> host_tensors;
    std::vector<ShimTask> tasks;
    std::vector<RuntimeOp> sequence;
    /// ScratchpadParameters of the design, by state-table index (the params.txt aiecc writes).
    std::vector<ScratchpadParam> scratchpad_params;
    /// Warnings of the lowering, as the toolchain emits them (e.g. the allocator's fallback from
    /// bank-aware to basic-sequential); shown with the run's warnings.
    std::vector<std::string> warnings;
    /// Every used fifo endpoint, in lowering order: how it holds its objects, its depth.
    std::vector<FifoEndpointInfo> fifo_ends;
    /// What the design asked its trace units to record (Program::enable_trace); disabled without.
    TraceConfig trace;

    /// Tiles that hold anything (buffers, locks, channels, cores, flow endpoints), sorted.
    std::vector<TileCoord> tiles_used() const;
    /// Human-readable dump of the whole netlist (for `npusim run --netlist` and debugging).
    std::string dump() const;
};

} // namespace npusim::model
