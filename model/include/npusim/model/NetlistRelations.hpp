#pragma once
// Who acts on each netlist element, derived from the netlist alone: for each lock the actors that
// acquire it, release it or set it (with amounts), for each stream flow its producer and consumer
// channels, for each runtime task the shim channel that completes it. This is the data a wait-for
// graph stands on (process -> lock it waits on -> processes that could release it); the
// simulator's deadlock report reads it instead of rebuilding it from display strings.
#include "npusim/model/Netlist.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace npusim::model {

/// An active element of the array that can act on a lock: a core (its worker body), one BD of a
/// tile DMA channel, a shim task whose BD has lock fields, or the host's runtime sequence.
struct Actor {
    enum class Kind { Core, DmaBd, Runtime, ShimTask };
    Kind kind = Kind::Core;
    /// Core: Netlist::cores index; DmaBd: Netlist::channels index; Runtime: Netlist::sequence op
    /// index; ShimTask: Netlist::tasks index
    int index = -1;
    int bd = -1; ///< DmaBd: index into the channel's bds
    friend bool operator==(const Actor&, const Actor&) = default;
};

/// One way an actor acts on a lock. `amount` is the lock value moved per operation: per element
/// for a core ring (times the fifo's repeat count), per BD execution for a DMA BD, the value
/// written for a runtime set; -1 when the worker body chooses it at run time (barriers).
struct LockAction {
    Actor actor;
    int amount = 0;
    bool equal = false; ///< acquire-equal (no decrement) instead of acquire-greater-equal
    friend bool operator==(const LockAction&, const LockAction&) = default;
};

struct LockActors {
    std::vector<LockAction> acquirers;
    std::vector<LockAction> releasers;
    std::vector<LockAction> setters; ///< runtime-sequence set_lock
};

/// The two ends of a stream flow. A channel index is a Netlist::channels index, -1 for a shim
/// channel (shim channels have no BD program in the netlist; their tasks name them).
struct LinkEnds {
    StreamEndpoint producer;
    int producer_channel = -1;
    std::vector<StreamEndpoint> consumers;
    std::vector<int> consumer_channels;
};

/// For each lock (Netlist::locks index), who acquires, releases and sets it.
std::vector<LockActors> lock_actors(const Netlist& net);
/// One process acquires the lock and one process releases it (the BDs of one DMA channel are one
/// process), and nothing sets it: an ObjectFifo ring lock between a producer and a consumer. For such
/// a lock a release made ahead of simulated time can be taken by the acquirer at once, at the
/// release's time: no other release can come earlier (the releaser's later releases follow its own
/// time) and nobody else can take it (sim: SemaphoreLock::set_run_ahead).
bool one_acquirer_one_releaser(const LockActors& actors);
/// For each flow (Netlist::flows index), its producer and consumer channels.
std::vector<LinkEnds> link_ends(const Netlist& net);
/// The shim channel whose completion of `task` ends it (the channel it is queued on).
StreamEndpoint task_completer(const ShimTask& task);
/// task_completer of each runtime task (Netlist::tasks index).
std::vector<StreamEndpoint> task_completers(const Netlist& net);

/// The three relations of one netlist, computed once.
struct NetlistRelations {
    explicit NetlistRelations(const Netlist& net)
        : locks(lock_actors(net)), links(link_ends(net)), tasks(task_completers(net)) {}
    std::vector<LockActors> locks;
    std::vector<LinkEnds> links;
    std::vector<StreamEndpoint> tasks;
};

/// How reports name actors and channels.
std::string worker_label(std::string_view worker); ///< "worker 'w'"
std::string tile_dma_name(const StreamEndpoint& e); ///< "DMA (0,2) S2MM 0"
std::string shim_dma_name(const StreamEndpoint& e); ///< "shim DMA (0,0) MM2S 0"
/// "worker 'w'", "DMA (0,2) S2MM 0" (the channel, whichever of its BDs), "shim DMA (0,0) MM2S 0"
/// (the channel of a shim task), "runtime sequence".
std::string actor_name(const Netlist& net, const Actor& a);

} // namespace npusim::model
