#include "npusim/model/DeviceSpec.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace npusim::model {

const char* tile_kind_name(TileKind k) {
    switch (k) {
    case TileKind::Shim: return "shim";
    case TileKind::Mem: return "mem";
    case TileKind::Compute: return "compute";
    }
    return "?";
}
const char* arch_name(Arch a) { return a == Arch::AIE2 ? "AIE2" : "AIE2P"; }
const char* direction_name(Direction d) { return d == Direction::S2MM ? "S2MM" : "MM2S"; }
std::string to_string(TileCoord t) { return fmt::format("({},{})", t.col, t.row); }

namespace {

// The presets. Each number cites its upstream source by function name: mlir-aie
// include/aie/Dialect/AIE/IR/AIETargetModel.h (class AIE2TargetModel) and
// lib/Dialect/AIE/IR/AIETargetModel.cpp, or an AMD document (AM020 = AIE-ML architecture manual,
// AM027 = AIE-ML v2, UG1603 = AIE-ML kernel guide); docs/hardware-sources.md lists the file lines.
// A field left out of a designated initializer would silently be 0, so it is an error here.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wmissing-field-initializers"

// AIE2 (AIE-ML, NPU1) compute tile.
constexpr TileResources kAie2Compute{
    .memory_bytes = 64 * 1024, // getLocalMemorySize (0x10000)
    .alloc_banks = 4, // getNumBanks: allocator regions of 16 KiB
    .physical_banks = 8, // AM020 / UG1603: 8 banks of 512 x 128 bit
    .locks = 16, // getNumLocks
    .lock_max_value = 63, // getMaxLockValue (0x3F, 6-bit lock state)
    .bds = 16, // getNumBDs
    .bds_split_by_channel_parity = false, // only mem tiles split (getNumBDs / isBdChannelAccessible)
    .dma_s2mm_channels = 2, // getNumSourceSwitchboxConnections(DMA)
    .dma_mm2s_channels = 2, // getNumDestSwitchboxConnections(DMA)
    .bd_dims = 3, // getBDMaxDims
    .buffer_length_bits = 14, // BD buffer_length field (AIETargetModel.h)
    .wrap_bits = 8, // BD wrap (size) field
    .step_bits = 13, // BD step (stride) field (getDmaBdStepBits)
    .iteration_bits = 6, // AIEXDialect.cpp verifyStridesWraps (iteration wrap)
    .zero_padding = false, // AIEDialect.cpp DMABDOp::verify: mem tile MM2S only
    .constant_pad_value = false, // no padding at all
    .buffer_alignment = 32, // 256-bit core load/store bus (AIETargetModel.h)
    .default_stack_bytes = 0x400, // getDefaultCoreStackSize
};

// AIE2 mem tile.
constexpr TileResources kAie2Mem{
    .memory_bytes = 512 * 1024, // getMemTileSize (0x80000)
    .alloc_banks = 8, // getNumBanks: allocator regions of 64 KiB
    .physical_banks = 16, // AM020 / UG1603: 16 banks of 2K x 128 bit
    .locks = 64, // getNumLocks
    .lock_max_value = 63, // getMaxLockValue
    .bds = 48, // getNumBDs
    .bds_split_by_channel_parity = true, // isBdChannelAccessible: even channels 0-23, odd 24-47
    .dma_s2mm_channels = 6, // getNumSourceSwitchboxConnections(DMA)
    .dma_mm2s_channels = 6, // getNumDestSwitchboxConnections(DMA)
    .bd_dims = 4, // getBDMaxDims
    .buffer_length_bits = 17, // BD buffer_length field
    .wrap_bits = 10, // BD wrap field
    .step_bits = 17, // BD step field (getDmaBdStepBits)
    .iteration_bits = 6, // verifyStridesWraps
    .zero_padding = true, // DMABDOp::verify: MM2S padding on mem tiles
    // AIETargetModel.h:456 isMemTilePadValueSupported() is false on AIE2: the padding is zeros.
    .constant_pad_value = false,
    .buffer_alignment = 4, // mem tile buffers are 4-byte aligned (AIETargetModel.h)
    .default_stack_bytes = 0, // no core
};

// AIE2 shim NOC tile (no data memory: its DMA reads and writes host memory).
constexpr TileResources kAie2Shim{
    .memory_bytes = 0,
    .alloc_banks = 0,
    .physical_banks = 0,
    .locks = 16, // getNumLocks
    .lock_max_value = 63, // getMaxLockValue
    .bds = 16, // getNumBDs
    .bds_split_by_channel_parity = false,
    .dma_s2mm_channels = 2, // shim mux DMA connections (AIETargetModel.cpp)
    .dma_mm2s_channels = 2,
    .bd_dims = 3, // getBDMaxDims (plus the iteration dimension)
    .buffer_length_bits = 32, // BD buffer_length field
    .wrap_bits = 10, // BD wrap field
    .step_bits = 20, // BD step field (getDmaBdStepBits)
    .iteration_bits = 6, // verifyStridesWraps
    .zero_padding = false, // DMABDOp::verify: mem tile only
    .constant_pad_value = false,
    .buffer_alignment = 4, // BD addresses are 4-byte aligned
    .default_stack_bytes = 0, // no core
};

// Stream-switch ports toward the neighbours (AIETargetModel.cpp getNumDestSwitchboxConnections =
// masters, getNumSourceSwitchboxConnections = slaves); the same on AIE2 and AIE2P.
constexpr SwitchPorts kAie2ComputePorts{.north_out = 6,
                                        .south_out = 4,
                                        .east_out = 4,
                                        .west_out = 4,
                                        .north_in = 4,
                                        .south_in = 6,
                                        .east_in = 4,
                                        .west_in = 4};
// Mem tiles have no east/west stream ports.
constexpr SwitchPorts kAie2MemPorts{.north_out = 6,
                                    .south_out = 4,
                                    .east_out = 0,
                                    .west_out = 0,
                                    .north_in = 4,
                                    .south_in = 6,
                                    .east_in = 0,
                                    .west_in = 0};
// The shim's south ports lead to the shim mux (DMA, NOC), not to a tile.
constexpr SwitchPorts kAie2ShimPorts{.north_out = 6,
                                     .south_out = 6,
                                     .east_out = 4,
                                     .west_out = 4,
                                     .north_in = 4,
                                     .south_in = 8,
                                     .east_in = 4,
                                     .west_in = 4};

constexpr ArchPreset kAie2{
    .arch = Arch::AIE2,
    .rows = 6, // row 0 shim NOC, row 1 mem tile, rows 2-5 compute (AIETargetModel.h)
    .cascade_bits = 512, // getAccumulatorCascadeSize
    .task_queue_depth = 4, // AIEX/Utils/DmaQueueModel.h; AM020 "four tasks per channel"
    .max_repeat_count = 255, // getMaxRepeatCount (8-bit queue push field)
    .max_packet_id = 31, // AIETargetModel.h: 5-bit packet id
    .compute = kAie2Compute,
    .mem = kAie2Mem,
    .shim = kAie2Shim,
    .compute_ports = kAie2ComputePorts,
    .mem_ports = kAie2MemPorts,
    .shim_ports = kAie2ShimPorts,
};

// AIE2P (NPU2): mlir-aie's NPU2TargetModel derives from AIE2TargetModel and overrides none of
// these numbers, so every table is AIE2's except the mem tile's physical banks: AM027 (AIE-ML v2,
// possibly AIE2P) has 8 banks of 2K x 256 bit. The allocator view (alloc_banks) stays AIE2's. The
// mem tile's MM2S channels have the CONSTANT_PAD_VALUE register (AIETargetModel.h:926,
// BaseNPU2TargetModel::isMemTilePadValueSupported).
constexpr TileResources kAie2pMem = [] {
    TileResources r = kAie2Mem;
    r.physical_banks = 8;
    r.constant_pad_value = true;
    return r;
}();

constexpr ArchPreset kAie2p = [] {
    ArchPreset p = kAie2;
    p.arch = Arch::AIE2P;
    p.mem = kAie2pMem;
    return p;
}();

#pragma GCC diagnostic pop

DeviceSpec make_device(std::string name, std::string cls, const ArchPreset& p, int cols) {
    DeviceSpec d;
    d.name = std::move(name);
    d.iron_class = std::move(cls);
    d.arch = p.arch;
    d.cols = cols;
    d.rows = p.rows;
    d.cascade_bits = p.cascade_bits;
    d.task_queue_depth = p.task_queue_depth;
    d.max_repeat_count = p.max_repeat_count;
    d.max_packet_id = p.max_packet_id;
    d.compute = p.compute;
    d.mem = p.mem;
    d.shim = p.shim;
    d.compute_ports = p.compute_ports;
    d.mem_ports = p.mem_ports;
    d.shim_ports = p.shim_ports;
    return d;
}

std::vector<DeviceSpec> build_devices() {
    std::vector<DeviceSpec> v;
    // npu1 = VirtualizedNPU1TargetModel(4); npu1_Ncol = (N) (AIEDialect.cpp getTargetModel)
    v.push_back(make_device("npu1", "NPU1", kAie2, 4));
    for (int n = 1; n <= 3; ++n)
        v.push_back(make_device(fmt::format("npu1_{}col", n), fmt::format("NPU1Col{}", n), kAie2, n));
    // npu2 = NPU2TargetModel (8 columns); npu2_Ncol = VirtualizedNPU2TargetModel(N)
    v.push_back(make_device("npu2", "NPU2", kAie2p, 8));
    for (int n = 1; n <= 7; ++n)
        v.push_back(make_device(fmt::format("npu2_{}col", n), fmt::format("NPU2Col{}", n), kAie2p, n));
    return v;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

} // namespace

const ArchPreset& arch_preset(Arch arch) { return arch == Arch::AIE2 ? kAie2 : kAie2p; }

TileKind tile_kind_of_row(int row) {
    if (row == 0) return TileKind::Shim;
    if (row == 1) return TileKind::Mem;
    return TileKind::Compute;
}

TileKind DeviceSpec::kind_at(TileCoord t) const { return tile_kind_of_row(t.row); }

const TileResources& DeviceSpec::resources(TileKind k) const {
    switch (k) {
    case TileKind::Shim: return shim;
    case TileKind::Mem: return mem;
    case TileKind::Compute: return compute;
    }
    return compute;
}

const SwitchPorts& DeviceSpec::ports(TileKind k) const {
    switch (k) {
    case TileKind::Shim: return shim_ports;
    case TileKind::Mem: return mem_ports;
    case TileKind::Compute: return compute_ports;
    }
    return compute_ports;
}

int DeviceSpec::dma_channels(TileCoord t, Direction d) const {
    const auto& r = resources(t);
    return d == Direction::S2MM ? r.dma_s2mm_channels : r.dma_mm2s_channels;
}

int DeviceSpec::stream_capacity(TileCoord from, Port dir) const {
    TileCoord to = from;
    switch (dir) {
    case Port::North: to.row += 1; break;
    case Port::South: to.row -= 1; break;
    case Port::East: to.col += 1; break;
    case Port::West: to.col -= 1; break;
    }
    if (!contains(from) || !contains(to)) return 0;
    const auto& a = ports(kind_at(from));
    const auto& b = ports(kind_at(to));
    switch (dir) {
    case Port::North: return std::min(a.north_out, b.south_in);
    case Port::South: return std::min(a.south_out, b.north_in);
    case Port::East: return std::min(a.east_out, b.west_in);
    case Port::West: return std::min(a.west_out, b.east_in);
    }
    return 0;
}

std::pair<int, int> DeviceSpec::bd_range(TileCoord t, int channel) const {
    const auto& r = resources(t);
    if (!r.bds_split_by_channel_parity) return {0, r.bds - 1};
    int half = r.bds / 2;
    return channel % 2 == 0 ? std::pair{0, half - 1} : std::pair{half, r.bds - 1};
}

bool DeviceSpec::core_can_access(TileCoord core, TileCoord mem_tile) const {
    if (kind_at(core) != TileKind::Compute || !contains(mem_tile)) return false;
    if (kind_at(mem_tile) != TileKind::Compute) return false; // south mem tile excluded
    if (core == mem_tile) return true;
    if (mem_tile.row == core.row && mem_tile.col == core.col - 1) return true; // West
    if (mem_tile.col == core.col && (mem_tile.row == core.row + 1 || mem_tile.row == core.row - 1))
        return true; // North, South
    return false;
}

bool DeviceSpec::shares_memory(TileCoord producer, TileCoord consumer, TileCoord& pool_tile) const {
    if (kind_at(producer) != TileKind::Compute || kind_at(consumer) != TileKind::Compute) return false;
    // isSharedMemory (OFST l.517-548): prefer the producer's memory when the consumer reaches it.
    if (core_can_access(producer, producer) && core_can_access(consumer, producer)) {
        pool_tile = producer;
        return true;
    }
    if (core_can_access(producer, consumer) && core_can_access(consumer, consumer)) {
        pool_tile = consumer; // share_direction = 1: producer directly east of the consumer
        return true;
    }
    return false;
}

std::vector<TileCoord> DeviceSpec::mem_tile_neighbours(TileCoord m) const {
    std::vector<TileCoord> out;
    if (!contains(m) || kind_at(m) != TileKind::Mem) return out;
    for (TileCoord n : {TileCoord{m.col - 1, m.row}, TileCoord{m.col + 1, m.row}})
        if (contains(n) && kind_at(n) == TileKind::Mem) out.push_back(n);
    return out;
}

bool DeviceSpec::dma_can_access(TileCoord dma, TileCoord mem) const {
    if (dma == mem) return contains(dma);
    const auto n = mem_tile_neighbours(dma);
    return std::find(n.begin(), n.end(), mem) != n.end();
}

std::vector<TileCoord> DeviceSpec::tiles_of(TileKind k) const {
    std::vector<TileCoord> out;
    for (int c = 0; c < cols; ++c)
        for (int r = 0; r < rows; ++r)
            if (kind_at({c, r}) == k) out.push_back({c, r});
    return out;
}

const std::vector<DeviceSpec>& all_devices() {
    static const std::vector<DeviceSpec> devices = build_devices();
    return devices;
}

const DeviceSpec& device_by_name(const std::string& name) {
    const std::string key = lower(name);
    for (const auto& d : all_devices())
        if (d.name == key || lower(d.iron_class) == key) return d;
    std::string known;
    for (const auto& d : all_devices()) known += (known.empty() ? "" : ", ") + d.name;
    throw DesignError(fmt::format("unknown device '{}' (known devices: {})", name, known));
}

} // namespace npusim::model
