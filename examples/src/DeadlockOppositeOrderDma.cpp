// deadlock_opposite_order_dma: deadlock_opposite_order with the server three rows away, so both
// fifos go over DMA (a producer copy and a consumer copy each, joined by streams). The cycle now
// runs through two DMA channel pairs and their streams. Case: lock_cycle.
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

DesignInstance opposite_order_design(const model::DeviceSpec& dev, Tile server_tile, std::uint64_t seed,
                                     const std::string& name);

DesignSpec make_deadlock_opposite_order_dma() {
    auto s = catalog_spec("deadlock_opposite_order_dma",
                          "hangs: client and server take a request/reply fifo pair in opposite orders (over DMA)");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        return opposite_order_design(dev, Tile(0, 5), o.seed, "deadlock_opposite_order_dma");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_opposite_order_dma, 530);

} // namespace npusim::examples
