#pragma once
// ModuleExporter: builds the aie.device region in the order IRON's Program.resolve_program emits
// it (python/iron/program.py, HEAD 3ca0193c; iron-mlir-golden.md §0.1): logical tiles, objectfifos
// (name-sorted, each link group together with its aie.objectfifo.link; ModuleFifos.cpp), the
// low-level API's flows, locks and DMA buffers (LowLevelExporter), per worker its buffers and
// kernel declarations, per worker its barrier locks and core, cascade flows, the tile DMA
// programs, and the runtime sequence last (SequenceExporter).
#include "FifoState.hpp"
#include "export/BodyRecorder.hpp"
#include "export/MlirIr.hpp"

#include "npusim/frontend/MlirExport.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace npusim::iron::detail::mlir {

/// Values of the device region the runtime sequence refers to.
struct DeviceValues {
    std::map<const BufferState*, int> buffers;
    std::map<const BarrierState*, int> locks;
    std::map<const LockState*, int> hw_locks; ///< the low-level API's Locks
};

/// A Buffer's aie.buffer on `tile` (python/iron/buffer.py Buffer.resolve -> aie.py buffer):
/// sym_name, its memref type and, when it has one, its initial value.
Op buffer_op(int result, const BufferState& b, int tile);

class ModuleExporter {
public:
    ModuleExporter(const Program& program, const ExportOptions& opts);
    /// The whole module op (module { aie.device(...) { ... } }).
    Op build();

private:
    int tile_op(const std::string& kind, const Tile& t);
    int worker_tile(const WorkerState* w);
    /// A low-level object's tile: one logical tile per coordinate (a pinned worker's included), as
    /// one Tile object shared by them in IRON; an unpinned one gets its own.
    int coord_tile(const Tile& t);
    int endpoint_tile(const EndpointState* ep);
    void collect_fifos();
    void emit_tiles();
    void emit_fifos();
    void emit_fifo(const FifoState* f);
    void emit_link(const LinkState* l);
    void emit_buffers_and_kernels(std::vector<Region>& bodies);
    void emit_cores(std::vector<Region>& bodies);
    void emit_cascades();
    /// The ScratchpadParameters among the workers' fn_args, in worker and argument order.
    std::vector<const ScratchpadParamState*> declared_params() const;
    static Op param_decl(const ScratchpadParamState& p);
    std::string worker_name(std::size_t i) const;

    const Program& program_;
    const ExportOptions& opts_;
    ValueIds ids_;
    Region device_;
    DeviceValues values_;
    std::vector<FifoState*> fifos_; ///< name-sorted
    std::map<const WorkerState*, int> worker_tiles_;
    std::map<std::pair<int, int>, int> coord_tiles_;
    std::map<std::uint64_t, int> logical_tiles_; ///< an unplaced Tile's one aie.logical_tile (Tile::logical)
    std::set<const BufferState*> buffers_done_; ///< aie.buffer emitted
    std::map<const EndpointState*, int> endpoint_tiles_;
    std::map<const LinkState*, int> link_tiles_;
    std::map<const FifoState*, bool> emitted_;
    std::map<const LinkState*, bool> links_emitted_;
    std::vector<std::vector<CalledKernel>> kernels_; ///< per worker
};

} // namespace npusim::iron::detail::mlir
