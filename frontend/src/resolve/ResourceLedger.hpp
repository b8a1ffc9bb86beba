#pragma once
// ResourceLedger: what each tile has handed out so far — DMA channels (with their owners), locks,
// BD ids (per id range) and buffers — and the shim BD ids the runtime sequence holds. Every
// "out of <resource>" DesignError of resolve is raised here (see docs/resolve.md, step 7).
#include "FifoState.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Netlist.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npusim::iron::detail {

/// One tile's allocations.
struct TileUse {
    std::vector<std::string> s2mm; ///< owner of each S2MM channel by channel number ("": free)
    std::vector<std::string> mm2s;
    std::set<int> lock_ids; ///< lock ids taken (explicit ones and allocated ones)
    int bds[2] = {0, 0}; ///< BDs used in each id range (even/odd channel halves)
    std::vector<int> buffers; ///< NetBuffer indices placed on the tile, in creation order
    std::vector<bool> shim_bd_busy; ///< shim tiles: BD ids held by unfinished runtime tasks
};

class ResourceLedger {
public:
    ResourceLedger(const model::DeviceSpec& dev, model::Netlist& net);

    /// Lowest free channel of direction `d` on `t`, now owned by `who`; with `pin`, that channel
    /// (already reserved by `who` through reserve_channel, or free).
    int alloc_channel(model::TileCoord t, model::Direction d, const std::string& who,
                      std::optional<int> pin = std::nullopt);
    /// A user-pinned channel (IRON prod/cons channel=), taken before any first-free assignment as
    /// AIEObjectFifoStatefulTransform reservePinnedChannels does; DesignError with its wording
    /// when the channel does not exist on the tile or is taken.
    void reserve_channel(model::TileCoord t, model::Direction d, int channel, const std::string& who);
    /// Whether channel `channel` of direction `d` exists on `t` and is free.
    bool channel_free(model::TileCoord t, model::Direction d, int channel);
    /// Channel `ch` of direction `d` on `t`, claimed by `who` (a hand-written TileDma channel or a
    /// Flow's shim end): DesignError if the tile has no such channel or another owner holds it.
    void claim_channel(model::TileCoord t, model::Direction d, int ch, const std::string& who);
    /// Channels of direction `d` allocated on `t` so far.
    int channels_used(model::TileCoord t, model::Direction d);
    /// A lock on `t`: at `id` when given (AIEAssignLockIDs keeps explicit ids: "lock assigned
    /// invalid id (maximum is N)", "is assigned to the same lock (id) as another op."), else the
    /// lowest free id; its initial value must fit the lock (0..lock_max_value).
    int add_lock(model::TileCoord t, const std::string& name, int init, model::Provenance prov,
                 std::optional<int> id = std::nullopt);
    /// A buffer on `t` (its address is assigned later by the memory pass).
    int add_buffer(model::TileCoord t, const std::string& name, std::uint64_t bytes, model::Provenance prov);
    /// Buffer `idx` is an element of an ObjectFifo's pool (RingBuilder::buffers): the buffers a
    /// full mem tile may place on a neighbour (spill_mem_tile_buffers).
    void mark_fifo_element(int idx) { fifo_elements_.push_back(idx); }
    const std::vector<int>& fifo_elements() const { return fifo_elements_; }
    /// Move buffer `idx` (not yet given an address) to tile `to`.
    void move_buffer(int idx, model::TileCoord to);
    /// Give every BD of `ch` an id from its channel's id range and add the channel to the netlist.
    void add_channel(model::DmaChannelProgram ch, const std::string& who);
    /// A free BD id of shim tile `t` for a runtime task (`who` names the task in the error).
    int take_shim_bd(model::TileCoord t, const std::string& who);
    /// Return a shim BD id (await or free of its task).
    void free_shim_bd(model::TileCoord t, int id);

    /// Every tile touched so far, in coordinate order.
    const std::map<model::TileCoord, TileUse>& tiles() const { return use_; }

private:
    TileUse& use(model::TileCoord t) { return use_[t]; }
    const model::DeviceSpec& dev_;
    model::Netlist& net_;
    std::map<model::TileCoord, TileUse> use_;
    std::vector<int> fifo_elements_;
};

} // namespace npusim::iron::detail
