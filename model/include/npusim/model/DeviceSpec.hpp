#pragma once
// Device tables of the AMD NPUs npusim models. The numbers live once, in one preset per tile kind
// per architecture generation (DeviceSpec.cpp); every device is built from its generation's presets.
// docs/hardware-sources.md gives the upstream source (mlir-aie, AM020, AM027, UG1603) of each number.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npusim::model {

enum class TileKind : std::uint8_t { Shim, Mem, Compute };
enum class Arch : std::uint8_t { AIE2, AIE2P };
enum class Direction : std::uint8_t { S2MM, MM2S }; ///< S2MM = stream to memory (input)
enum class Port : std::uint8_t { North, South, East, West };

const char* tile_kind_name(TileKind k);
const char* arch_name(Arch a);
const char* direction_name(Direction d);

struct TileCoord {
    int col = 0;
    int row = 0;
    friend bool operator==(TileCoord, TileCoord) = default;
    friend auto operator<=>(TileCoord, TileCoord) = default;
};
std::string to_string(TileCoord t); ///< "(col,row)"

/// The tile kind of a row on every NPU device: row 0 shim tiles, row 1 mem tiles, rows 2+
/// compute tiles (mlir-aie AIETargetModel: isShimNOCTile / isMemTile / isCoreTile for NPU targets).
/// The one place that rule lives.
TileKind tile_kind_of_row(int row);

/// Resources of one tile kind.
struct TileResources {
    std::uint32_t memory_bytes; ///< data memory (0 on shim tiles)
    int alloc_banks; ///< allocator regions ("banks" of mlir-aie's getNumBanks)
    int physical_banks; ///< physical SRAM banks (UG1603/AM020)
    int locks; ///< number of semaphore locks
    int lock_max_value; ///< 6-bit lock state: 63
    int bds; ///< buffer descriptors
    bool bds_split_by_channel_parity; ///< mem tile: even channels BD 0-23, odd channels 24-47
    int dma_s2mm_channels;
    int dma_mm2s_channels;
    int bd_dims; ///< N-D address-generation dimensions (excl. iteration)
    int buffer_length_bits; ///< BD length field, in 32-bit words
    int wrap_bits; ///< BD size ("wrap") field width
    int step_bits; ///< BD stride ("step") field width
    int iteration_bits; ///< iteration (repeat) dimension wrap field width
    bool zero_padding; ///< MM2S zero padding supported (mem tile)
    /// A CONSTANT_PAD_VALUE register per MM2S channel: padding may insert a non-zero word.
    bool constant_pad_value;
    std::uint32_t buffer_alignment; ///< allocator alignment in bytes
    std::uint32_t default_stack_bytes; ///< default core stack (compute only)

    friend bool operator==(const TileResources&, const TileResources&) = default;
};

/// Stream-switch port counts between neighbouring tiles of one kind (masters = data leaving).
struct SwitchPorts {
    int north_out, south_out, east_out, west_out; ///< masters toward each neighbour
    int north_in, south_in, east_in, west_in; ///< slaves from each neighbour

    friend bool operator==(const SwitchPorts&, const SwitchPorts&) = default;
};

/// What every device of one architecture generation shares: the array-wide limits and one preset
/// per tile kind (tile resources and stream-switch ports). Devices differ only in name and columns.
struct ArchPreset {
    Arch arch;
    int rows; ///< row 0 shim, row 1 mem, rows 2.. compute (tile_kind_of_row)
    int cascade_bits;
    int task_queue_depth;
    int max_repeat_count;
    int max_packet_id;
    TileResources compute;
    TileResources mem;
    TileResources shim;
    SwitchPorts compute_ports;
    SwitchPorts mem_ports;
    SwitchPorts shim_ports;
};
/// The presets of a generation: AIE2 = NPU1 (AIE-ML), AIE2P = NPU2.
const ArchPreset& arch_preset(Arch arch);

/// A concrete device: geometry, tile kinds per row and per-kind resources.
struct DeviceSpec {
    std::string name; ///< canonical name: npu1, npu1_1col, ..., npu2_7col
    std::string iron_class; ///< IRON device class: NPU1, NPU1Col1, ..., NPU2Col7
    Arch arch;
    int cols;
    int rows;
    int cascade_bits; ///< accumulator cascade width (512)
    int task_queue_depth; ///< shim DMA task queue per channel (4)
    int max_repeat_count; ///< queue push repeat_count field (255)
    int max_packet_id; ///< 31
    TileResources compute;
    TileResources mem;
    TileResources shim;
    SwitchPorts compute_ports;
    SwitchPorts mem_ports;
    SwitchPorts shim_ports;

    TileKind kind_at(TileCoord t) const;
    bool contains(TileCoord t) const { return t.col >= 0 && t.col < cols && t.row >= 0 && t.row < rows; }
    const TileResources& resources(TileKind k) const;
    const TileResources& resources(TileCoord t) const { return resources(kind_at(t)); }
    const SwitchPorts& ports(TileKind k) const;
    int dma_channels(TileCoord t, Direction d) const;
    /// Number of stream connections from tile `from` to its neighbour in direction `dir`
    /// (0 when there is no such neighbour or the tile kind has no such port).
    int stream_capacity(TileCoord from, Port dir) const;
    /// Range [first,last] of BD ids a DMA channel of this tile may use.
    std::pair<int, int> bd_range(TileCoord t, int channel) const;

    /// AIE2 memory affinity: can the core of `core` read and write the memory of `mem`?
    /// Own tile, West (col-1), North (row+1), South (row-1, unless it is a mem tile).
    bool core_can_access(TileCoord core, TileCoord mem) const;
    /// Where an ObjectFifo shared between two compute cores would put its pool, if they share
    /// memory at all (isSharedMemory): the producer tile, or the consumer tile when only the
    /// producer reaches the consumer's memory. Empty when they do not share.
    bool shares_memory(TileCoord producer, TileCoord consumer, TileCoord& pool_tile) const;
    /// The mem tiles whose memory a mem tile's DMA also addresses: its west and east neighbours
    /// in the same row (AM020: a mem tile DMA reaches the memory of its left and right
    /// neighbours; AIETargetModel.cpp isLegalMemAffinity for a mem tile, l.817-820). West first.
    std::vector<TileCoord> mem_tile_neighbours(TileCoord mem_tile) const;
    /// Can the DMA of tile `dma` read and write the memory of tile `mem`: its own, or for a mem
    /// tile that of a mem_tile_neighbours tile.
    bool dma_can_access(TileCoord dma, TileCoord mem) const;

    std::vector<TileCoord> tiles_of(TileKind k) const; ///< column-major, bottom to top
};

/// Look a device up by name (case-insensitive; also accepts the IRON class names).
/// Throws DesignError listing the known names.
const DeviceSpec& device_by_name(const std::string& name);
/// All known devices, in a stable order.
const std::vector<DeviceSpec>& all_devices();

} // namespace npusim::model
