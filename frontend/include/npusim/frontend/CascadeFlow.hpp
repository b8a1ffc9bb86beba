#pragma once
// CascadeFlow (IRON aie.iron.dataflow.CascadeFlow, python/iron/dataflow/cascadeflow.py): a directed
// cascade connection from one Worker's core to another's. It only declares the edge; the bodies
// (or the kernels they call) move 512-bit words with cascade_put / cascade_get (put_mcd / get_scd
// in AIE-API kernels). As in IRON, constructing one registers it on its source worker
// (cascadeflow.py l.50-61), and Program::resolve() finds it by walking the Program's workers
// (program.py l.230-234); resolve checks the toolchain's rules (docs/resolve.md, "Cascades").
#include "npusim/frontend/Worker.hpp"

#include <memory>

namespace npusim::iron {

class CascadeFlow {
public:
    /// Register a cascade from `src`'s tile to `dst`'s tile.
    CascadeFlow(const Worker& src, const Worker& dst);

    const std::shared_ptr<detail::WorkerState>& src() const { return src_; }
    const std::shared_ptr<detail::WorkerState>& dst() const { return dst_; }

private:
    std::shared_ptr<detail::WorkerState> src_, dst_;
};

} // namespace npusim::iron
