#pragma once
// TileDma (IRON aie.iron.TileDma, python/iron/dataflow/tile_dma.py): the hand-written DMA program
// of one compute or mem tile - per DmaChannel a chain of Bds, each with its explicit lock acquire
// and release (aie.mem / aie.memtile_dma with aie.dma_start, aie.use_lock, aie.dma_bd,
// aie.next_bd). Register it with Runtime::add_tile_dma. Sizes, strides, offset and length are in
// elements of the Bd's buffer, as in IRON; resolve turns them into 32-bit-word BD fields and checks
// them like ObjectFifo lowering does.
//
// Designated initializers follow declaration order (C++): Bd{.buffer, .offset, .length, .acquires,
// .releases, .next, .sizes, .strides, .packet, .pad_dimensions}; DmaChannel{.direction, .channel,
// .bds, .pad_value}.
//
// Padding (mem-tile MM2S only): a Bd's pad_dimensions give (before, after) counts per dimension of
// its sizes/strides, outermost first, in elements (the innermost must come to whole 32-bit words);
// its length then counts the padded result (IRON Bd(length=padded, sizes=..., pad_dimensions=...)).
// The channel's pad_value is the per-element fill of every padded Bd on it (one CONSTANT_PAD_VALUE
// register per channel, NPU2 only; NPU1 pads with zeros).
#include "npusim/frontend/Buffer.hpp"
#include "npusim/frontend/Lock.hpp"
#include "npusim/frontend/Tile.hpp"
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npusim::iron {

/// IRON DMAChannelDir: S2MM (stream to memory) or MM2S (memory to stream).
using DMAChannelDir = model::Direction;

/// aie.use_lock(lock, AcquireGreaterEqual | Acquire, value) at the start of a BD.
struct Acquire {
    Lock lock;
    int value = 1;
    bool greater_equal = true; ///< false: acquire-equal (exact)
};

/// aie.use_lock(lock, Release, value) at the end of a BD.
struct Release {
    Lock lock;
    int value = 1;
};

/// IRON Bd(packet=(pkt_type, pkt_id)) (aie.dma_bd_packet): an MM2S BD with it sends one packet -
/// a header word carrying the id and type, then the BD's data, ended by TLAST. The BD verifier
/// bounds both fields (AIEDialect.cpp DMABDOp::verify).
struct BdPacket {
    int pkt_type = 0; ///< 3 bits
    int pkt_id = 0; ///< 5 bits
};

/// One buffer descriptor of a DmaChannel's chain (IRON Bd).
struct Bd {
    static constexpr int self = -2; ///< next: loop to this BD (IRON next="self", the default)
    static constexpr int none = -1; ///< next: end the chain here (IRON next=None)

    Buffer buffer;
    std::int64_t offset = 0; ///< elements
    std::optional<std::int64_t> length; ///< elements; default: the whole buffer
    std::vector<Acquire> acquires; ///< at most one (the BD has one acquire field)
    std::vector<Release> releases; ///< at most one (the BD has one release field)
    int next = self; ///< self, none, or the index of a BD of this channel
    std::vector<std::int64_t> sizes; ///< outermost first, elements
    std::vector<std::int64_t> strides; ///< outermost first, elements
    std::optional<BdPacket> packet; ///< MM2S into a PacketFlow: the header this BD emits
    /// (before, after) padding per dimension of sizes/strides, outermost first, in elements.
    std::optional<std::vector<std::pair<std::int64_t, std::int64_t>>> pad_dimensions;
};

/// One DMA channel of the tile with its BD chain (IRON DmaChannel).
struct DmaChannel {
    DMAChannelDir direction = DMAChannelDir::S2MM;
    int channel = 0;
    std::vector<Bd> bds;
    std::int64_t pad_value = 0; ///< per-element fill of the channel's padded Bds (mem-tile MM2S, NPU2)
};

namespace detail {
struct TileDmaState {
    int uid = 0;
    Tile tile;
    std::vector<DmaChannel> channels;
    std::string name; ///< "tile_dma_<k>" (numbered per design at resolve) unless named
    bool default_name = false;
};
} // namespace detail

class TileDma {
public:
    /// IRON TileDma(tile, channels); `name` only labels reports.
    TileDma(Tile tile, std::vector<DmaChannel> channels, std::string name = {});
    const std::string& name() const { return state_->name; }
    const std::shared_ptr<detail::TileDmaState>& state() const { return state_; }

private:
    std::shared_ptr<detail::TileDmaState> state_;
};

} // namespace npusim::iron
