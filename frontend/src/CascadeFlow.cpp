#include "npusim/frontend/CascadeFlow.hpp"

namespace npusim::iron {

CascadeFlow::CascadeFlow(const Worker& src, const Worker& dst) : src_(src.state()), dst_(dst.state()) {
    // IRON: src._outgoing_cascades.append(self). A weak reference, so that two workers cascading
    // into each other (refused by resolve) do not keep each other alive.
    src_->outgoing_cascades.push_back(dst_);
}

} // namespace npusim::iron
