#pragma once
// ModuleExporter: builds the aie.device region in the order IRON's Program.resolve_program emits
// it (python/iron/program.py, HEAD 3ca0193c; iron-mlir-golden.md §0.1): logical tiles, objectfifos
// (name-sorted, each link group together with its aie.objectfifo.link), per worker its buffers
// and kernel declarations, per worker its barrier locks and core, cascade flows, and the runtime
// sequence last (SequenceExporter).
#include "FifoState.hpp"
#include "export/BodyRecorder.hpp"
#include "export/MlirIr.hpp"

#include "npusim/frontend/MlirExport.hpp"

#include <map>
#include <string>
#include <vector>

namespace npusim::iron::detail::mlir {

/// Values of the device region the runtime sequence refers to.
struct DeviceValues {
    std::map<const BufferState*, int> buffers;
    std::map<const BarrierState*, int> locks;
};

class ModuleExporter {
public:
    ModuleExporter(const Program& program, const ExportOptions& opts);
    /// The whole module op (module { aie.device(...) { ... } }).
    Op build();

private:
    int tile_op(const std::string& kind, const Tile& t);
    int worker_tile(const WorkerState* w);
    int endpoint_tile(const EndpointState* ep);
    void collect_fifos();
    void emit_tiles();
    void emit_fifos();
    void emit_fifo(const FifoState* f);
    void emit_link(const LinkState* l);
    void emit_buffers_and_kernels(std::vector<Region>& bodies);
    void emit_cores(std::vector<Region>& bodies);
    void emit_cascades();
    void refuse_low_level() const;
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
    std::map<const EndpointState*, int> endpoint_tiles_;
    std::map<const LinkState*, int> link_tiles_;
    std::map<const FifoState*, bool> emitted_;
    std::map<const LinkState*, bool> links_emitted_;
    std::vector<std::vector<CalledKernel>> kernels_; ///< per worker
};

} // namespace npusim::iron::detail::mlir
