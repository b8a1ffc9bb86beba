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

// Sources (shared/reference/aie-architecture.md §1.2, read from mlir-aie AIETargetModel.h/.cpp):
//   memory: l.653 (compute 0x10000), l.724 (memtile 0x80000)    banks: l.726-728
//   locks: l.658-660; lock max value 0x3F: l.662                  BDs: l.667-669, split l.703-714
//   DMA channels: switchbox counts cpp l.881-1028, shim mux DMA=2 cpp l.1031-1068
//   BD dims getBDMaxDims l.670-673; length/wrap/step fields l.674-701; iteration 6 bit
//   (verifyStridesWraps); padding: DMABDOp::verify (mem tile MM2S only)
//   alignment: 256-bit core load/store bus (l.655), mem tile 4 B (l.273); stack 0x400 (l.263)
//   physical banks: UG1603 / AM020 (compute 8 x 8 KiB, mem tile 16 x 32 KiB)
constexpr TileResources kCompute{0x10000, 4, 8, 16, 63, 16, false, 2, 2, 3, 14, 8, 13, 6, false, 32, 0x400};
constexpr TileResources kMem{0x80000, 8, 16, 64, 63, 48, true, 6, 6, 4, 17, 10, 17, 6, true, 4, 0};
constexpr TileResources kShim{0, 0, 0, 16, 63, 16, false, 2, 2, 3, 32, 10, 20, 6, false, 4, 0};
// AIE-ML v2 mem tile (AM027, possibly AIE2P): 8 banks of 2K x 256 bit. The allocator view is the
// same AIE2TargetModel in mlir-aie, so only the physical bank count differs.
constexpr TileResources kMemAie2p{0x80000, 8, 8, 64, 63, 48, true, 6, 6, 4, 17, 10, 17, 6, true, 4, 0};

// Stream-switch ports (§1.3, getNumDestSwitchboxConnections / getNumSourceSwitchboxConnections):
//   compute masters N6 S4 E4 W4, slaves N4 S6 E4 W4; memtile masters N6 S4, slaves N4 S6 (no E/W);
//   shim masters N6 E4 W4, slaves N4 E4 W4.
constexpr SwitchPorts kComputePorts{6, 4, 4, 4, 4, 6, 4, 4};
constexpr SwitchPorts kMemPorts{6, 4, 0, 0, 4, 6, 0, 0};
constexpr SwitchPorts kShimPorts{6, 6, 4, 4, 4, 8, 4, 4};

DeviceSpec make(std::string name, std::string cls, Arch arch, int cols) {
    DeviceSpec d;
    d.name = std::move(name);
    d.iron_class = std::move(cls);
    d.arch = arch;
    d.cols = cols;
    d.rows = 6;                 // row 0 shim NOC, row 1 mem tile, rows 2-5 compute (h l.884-917)
    d.cascade_bits = 512;       // getAccumulatorCascadeSize (h l.654)
    d.task_queue_depth = 4;     // DmaQueueModel.h; AM020 "queue depth is four tasks per channel"
    d.max_repeat_count = 255;   // getMaxRepeatCount
    d.max_packet_id = 31;       // h l.627-628
    d.compute = kCompute;
    d.mem = arch == Arch::AIE2 ? kMem : kMemAie2p;
    d.shim = kShim;
    d.compute_ports = kComputePorts;
    d.mem_ports = kMemPorts;
    d.shim_ports = kShimPorts;
    return d;
}

std::vector<DeviceSpec> build_devices() {
    std::vector<DeviceSpec> v;
    // npu1 = VirtualizedNPU1TargetModel(4); npu1_Ncol = (N) (AIEDialect.cpp l.208-240)
    v.push_back(make("npu1", "NPU1", Arch::AIE2, 4));
    for (int n = 1; n <= 3; ++n)
        v.push_back(make(fmt::format("npu1_{}col", n), fmt::format("NPU1Col{}", n), Arch::AIE2, n));
    // npu2 = NPU2TargetModel (8 columns); npu2_Ncol = VirtualizedNPU2TargetModel(N)
    v.push_back(make("npu2", "NPU2", Arch::AIE2P, 8));
    for (int n = 1; n <= 7; ++n)
        v.push_back(make(fmt::format("npu2_{}col", n), fmt::format("NPU2Col{}", n), Arch::AIE2P, n));
    return v;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

} // namespace

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
    if (kind_at(mem_tile) != TileKind::Compute) return false;   // south mem tile excluded
    if (core == mem_tile) return true;
    if (mem_tile.row == core.row && mem_tile.col == core.col - 1) return true;   // West
    if (mem_tile.col == core.col && (mem_tile.row == core.row + 1 || mem_tile.row == core.row - 1))
        return true;                                                              // North, South
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
        pool_tile = consumer;   // share_direction = 1: producer directly east of the consumer
        return true;
    }
    return false;
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
