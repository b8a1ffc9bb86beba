#pragma once
// RawOpLowering's state, shared by its two sources.
#include "resolve/RawOpLowering.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <tuple>

namespace npusim::iron::detail {

// What the shim BD registers and the channels' tokens hold so far, as the sequence writes them.
struct RawOpLowering::State {
    struct ShimBd {
        std::array<std::uint32_t, 8> words{};
        bool written = false;
        int arg = -1; ///< npu_address_patch: the runtime argument, -1: not patched
        std::int64_t arg_plus = 0;
    };
    std::map<std::pair<int, int>, ShimBd> shim_bds; ///< (column, BD id)
    /// Per shim channel: the last task pushed that issues a token, and tokens not yet synced.
    std::map<std::tuple<int, int, int>, std::pair<int, int>> tokens;
};


/// The NetLock of lock `id` on tile `t`, added (initial value 0) when no design object declared it.
int raw_lock_at(ResolveContext& ctx, model::TileCoord t, int id);

} // namespace npusim::iron::detail
