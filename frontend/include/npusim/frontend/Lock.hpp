#pragma once
// Lock (IRON aie.iron.Lock, python/iron/lock.py): a named hardware semaphore lock on a tile, for
// hand-written designs that synchronise a worker and a TileDma themselves instead of through an
// ObjectFifo. `lock_id` empty lets resolve pick the lowest free id of the tile (aie-assign-lock-ids,
// AIEAssignLockIDs.cpp); an explicit id is kept. Inside a worker body acquire(v) is
// use_lock(AcquireGreaterEqual, v), acquire_exact(v) use_lock(Acquire, v) (wait until equal, no
// change) and release(v) use_lock(Release, v). The lock's tile must be pinned (Tile(col, row)).
#include "npusim/frontend/Tile.hpp"

#include <memory>
#include <optional>
#include <string>

namespace npusim::iron {

namespace detail {
struct LockState {
    int uid = 0;
    std::string name;
    Tile tile;
    std::optional<int> lock_id;
    int init = 0;
    bool default_name = false; ///< given no name: numbered per design at resolve ("lock_<k>")
};
} // namespace detail

class Lock {
public:
    /// IRON Lock(tile, lock_id=None, init=0, name=None). Without a name it is "lock_<k>", k
    /// counting the design's unnamed Locks in first-use order (numbered when the design resolves,
    /// so a name does not depend on what else the process built; "lock" until then).
    explicit Lock(Tile tile, std::optional<int> lock_id = std::nullopt, int init = 0, std::string name = {});

    /// In a worker body: wait until the lock's value is >= `value`, then subtract it.
    void acquire(int value = 1) const;
    /// In a worker body: wait until the lock's value equals `value` (the value is not changed).
    void acquire_exact(int value = 1) const;
    /// In a worker body: add `value` to the lock.
    void release(int value = 1) const;

    const std::string& name() const { return state_->name; }
    const Tile& tile() const { return state_->tile; }
    const std::shared_ptr<detail::LockState>& state() const { return state_; }

private:
    std::shared_ptr<detail::LockState> state_;
};

} // namespace npusim::iron
