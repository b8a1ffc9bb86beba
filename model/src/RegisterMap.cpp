#include "npusim/model/RegisterMap.hpp"

#include <fmt/format.h>

#include <array>
#include <span>

namespace npusim::model {

namespace {

// Per tile kind, where its register groups start (AM025 / aie_registers_aie2.json at 3ca0193; the
// same offsets in AIETargetModel.cpp for AIE2 and, by inheritance, AIE2P).
struct KindLayout {
    std::uint32_t lock_base; ///< Lock0_value; LockN_value at lock_base + 0x10 * N
    std::uint32_t bd_base; ///< DMA_BD0_0; DMA_BD<n>_<w> at bd_base + 0x20 * n + 4 * w
    std::uint32_t ctrl_base; ///< DMA_S2MM_0_Ctrl; channel c at + 8 * c
    std::uint32_t mm2s_ctrl_shift; ///< DMA_MM2S_0_Ctrl - DMA_S2MM_0_Ctrl
};

// Compute tiles keep their DMA and locks in the memory module (offsets 0x1D000.., 0x1F000..),
// mem tiles at 0xA0000.. and 0xC0000.., shim tiles at 0x1D000.. and 0x14000..
constexpr KindLayout layout(TileKind k) {
    switch (k) {
    case TileKind::Compute: return {0x1F000, 0x1D000, 0x1DE00, 0x10};
    case TileKind::Mem: return {0xC0000, 0xA0000, 0xA0600, 0x30};
    case TileKind::Shim: return {0x14000, 0x1D000, 0x1D200, 0x10};
    }
    return {0, 0, 0, 0};
}

struct NamedRegister {
    std::uint32_t offset;
    const char* name;
};

// Registers a runtime sequence may write that npusim does not simulate, by name (AM025 register
// names, aie_registers_aie2.json at 3ca0193: modules core+memory, memory_tile, shim).
constexpr std::array kComputeNamed{
    NamedRegister{0x11000, "Performance_Control0"}, NamedRegister{0x14000, "Timer_Control (memory module)"},
    NamedRegister{0x14008, "Event_Generate (memory module)"}, NamedRegister{0x140D0, "Trace_Control0 (memory module)"},
    NamedRegister{0x31500, "Performance_Control0 (core module)"}, NamedRegister{0x32000, "Core_Control"},
    NamedRegister{0x32004, "Core_Status"}, NamedRegister{0x34000, "Timer_Control"},
    NamedRegister{0x34008, "Event_Generate"}, NamedRegister{0x340D0, "Trace_Control0"},
    NamedRegister{0x3F004, "Stream_Switch_Master_Config_DMA0"}, NamedRegister{0x40000, "Lock_Request"},
    NamedRegister{0x60000, "Module_Clock_Control"},
};
constexpr std::array kMemNamed{
    NamedRegister{0x91000, "Performance_Control0"}, NamedRegister{0x94000, "Timer_Control"},
    NamedRegister{0x94008, "Event_Generate"},       NamedRegister{0x940D0, "Trace_Control0"},
    NamedRegister{0xB0000, "Stream_Switch_Master_Config_DMA0"}, NamedRegister{0xD0000, "Lock_Request"},
    NamedRegister{0xFFF00, "Module_Clock_Control"},
};
constexpr std::array kShimNamed{
    NamedRegister{0x34000, "Timer_Control"},  NamedRegister{0x34008, "Event_Generate"},
    NamedRegister{0x340D0, "Trace_Control0"}, NamedRegister{0x3F030, "Stream_Switch_Master_Config_North0"},
    NamedRegister{0x40000, "Lock_Request"},
};

// Stream switch configuration spaces (AM025: Stream_Switch_Master_Config_* / Slave_Config_*).
struct Range {
    std::uint32_t first, last;
    const char* name;
};
constexpr Range kSwitchRange[] = {
    {0x3F000, 0x3FFFF, "stream switch configuration"}, // compute and shim tiles
    {0xB0000, 0xB0FFF, "stream switch configuration"}, // mem tiles
};

const char* dir_name(Direction d) { return d == Direction::MM2S ? "MM2S" : "S2MM"; }

} // namespace

const RegisterMap& RegisterMap::of(const DeviceSpec& dev) {
    static const RegisterMap aie2(Arch::AIE2), aie2p(Arch::AIE2P);
    return dev.arch == Arch::AIE2P ? aie2p : aie2;
}

std::optional<TileRegister> RegisterMap::split(const DeviceSpec& dev, std::uint64_t address) {
    const auto col = static_cast<int>(address >> kColumnShift);
    const auto row = static_cast<int>((address >> kRowShift) & 0x1F);
    const TileCoord t{col, row};
    if (!dev.contains(t)) return std::nullopt;
    return TileRegister{t, static_cast<std::uint32_t>(address & (kTileSpace - 1))};
}

std::uint32_t RegisterMap::join(TileCoord t, std::uint32_t offset) {
    return (static_cast<std::uint32_t>(t.col) << kColumnShift) | (static_cast<std::uint32_t>(t.row) << kRowShift) |
           offset;
}

std::uint32_t RegisterMap::lock_value(TileKind kind, int lock) const {
    return layout(kind).lock_base + 0x10u * static_cast<std::uint32_t>(lock);
}

std::uint32_t RegisterMap::bd_word(TileKind kind, int bd, int word) const {
    return layout(kind).bd_base + 0x20u * static_cast<std::uint32_t>(bd) + 4u * static_cast<std::uint32_t>(word);
}

std::uint32_t RegisterMap::dma_ctrl(TileKind kind, Direction dir, int channel) const {
    const auto l = layout(kind);
    return l.ctrl_base + 8u * static_cast<std::uint32_t>(channel) + (dir == Direction::MM2S ? l.mm2s_ctrl_shift : 0);
}

RegisterRef RegisterMap::decode(const DeviceSpec& dev, TileKind kind, std::uint32_t offset) const {
    RegisterRef r;
    const auto l = layout(kind);
    const auto& res = dev.resources(kind);
    if (offset >= l.lock_base && offset < l.lock_base + 0x10u * static_cast<std::uint32_t>(res.locks) &&
        (offset - l.lock_base) % 0x10 == 0) {
        r.kind = RegisterRef::Kind::LockValue;
        r.index = static_cast<int>((offset - l.lock_base) / 0x10);
        r.name = fmt::format("Lock{}_value", r.index);
        return r;
    }
    if (offset >= l.bd_base && offset < l.bd_base + 0x20u * static_cast<std::uint32_t>(res.bds) && offset % 4 == 0) {
        r.kind = RegisterRef::Kind::BdWord;
        r.index = static_cast<int>((offset - l.bd_base) / 0x20);
        r.word = static_cast<int>((offset - l.bd_base) % 0x20 / 4);
        r.name = fmt::format("DMA_BD{}_{}", r.index, r.word);
        return r;
    }
    for (const auto d : {Direction::S2MM, Direction::MM2S}) {
        const int channels = dev.dma_channels({0, kind == TileKind::Shim ? 0 : kind == TileKind::Mem ? 1 : 2}, d);
        for (int c = 0; c < channels; ++c) {
            if (offset == dma_ctrl(kind, d, c) || (offset == task_queue(kind, d, c))) {
                r.kind = offset == dma_ctrl(kind, d, c) ? RegisterRef::Kind::DmaCtrl : RegisterRef::Kind::TaskQueue;
                r.dir = d;
                r.channel = c;
                r.name = fmt::format("DMA_{}_{}_{}", dir_name(d), c,
                                     r.kind == RegisterRef::Kind::DmaCtrl ? "Ctrl" : "Task_Queue");
                return r;
            }
        }
    }
    auto named = [&](const auto& table) {
        for (const auto& n : table)
            if (n.offset == offset) {
                r.kind = RegisterRef::Kind::Named;
                r.name = n.name;
                return true;
            }
        return false;
    };
    if (named(kind == TileKind::Compute ? std::span<const NamedRegister>(kComputeNamed)
              : kind == TileKind::Mem   ? std::span<const NamedRegister>(kMemNamed)
                                        : std::span<const NamedRegister>(kShimNamed)))
        return r;
    for (const auto& range : kSwitchRange)
        if (offset >= range.first && offset <= range.last && (kind == TileKind::Mem) == (range.first == 0xB0000)) {
            r.kind = RegisterRef::Kind::Named;
            r.name = fmt::format("{} at offset {:#x}", range.name, offset);
            return r;
        }
    r.name = fmt::format("offset {:#x}", offset);
    return r;
}

ShimBdFields ShimBdFields::decode(const std::uint32_t (&w)[8]) {
    auto bits = [](std::uint32_t v, int hi, int lo) {
        return static_cast<int>((v >> lo) & ((1u << (hi - lo + 1)) - 1));
    };
    auto signed7 = [](int v) { return v >= 64 ? v - 128 : v; };
    ShimBdFields f;
    f.buffer_length = w[0];
    f.address_low = w[1] & ~3u;
    f.enable_packet = bits(w[2], 30, 30);
    f.out_of_order_id = bits(w[2], 29, 24);
    f.packet_id = bits(w[2], 23, 19);
    f.packet_type = bits(w[2], 18, 16);
    f.d0_wrap = bits(w[3], 29, 20);
    f.d0_step = bits(w[3], 19, 0);
    f.burst_length = bits(w[4], 31, 30);
    f.d1_wrap = bits(w[4], 29, 20);
    f.d1_step = bits(w[4], 19, 0);
    f.d2_step = bits(w[5], 19, 0);
    f.iteration_current = bits(w[6], 31, 26);
    f.iteration_wrap = bits(w[6], 25, 20);
    f.iteration_step = bits(w[6], 19, 0);
    f.next_bd = bits(w[7], 30, 27);
    f.use_next_bd = bits(w[7], 26, 26);
    f.valid_bd = bits(w[7], 25, 25);
    f.lock_rel_value = signed7(bits(w[7], 24, 18));
    f.lock_rel_id = bits(w[7], 16, 13);
    f.lock_acq_enable = bits(w[7], 12, 12);
    f.lock_acq_value = signed7(bits(w[7], 11, 5));
    f.lock_acq_id = bits(w[7], 3, 0);
    return f;
}

void ShimBdFields::encode(std::uint32_t (&w)[8]) const {
    auto u = [](int v, int width) { return static_cast<std::uint32_t>(v) & ((1u << width) - 1); };
    w[0] = buffer_length;
    w[1] = address_low & ~3u;
    w[2] = (u(enable_packet, 1) << 30) | (u(out_of_order_id, 6) << 24) | (u(packet_id, 5) << 19) |
           (u(packet_type, 3) << 16);
    w[3] = (u(d0_wrap, 10) << 20) | u(d0_step, 20);
    w[4] = (u(burst_length, 2) << 30) | (u(d1_wrap, 10) << 20) | u(d1_step, 20);
    w[5] = u(d2_step, 20);
    w[6] = (u(iteration_current, 6) << 26) | (u(iteration_wrap, 6) << 20) | u(iteration_step, 20);
    w[7] = (u(next_bd, 4) << 27) | (u(use_next_bd, 1) << 26) | (u(valid_bd, 1) << 25) | (u(lock_rel_value, 7) << 18) |
           (u(lock_rel_id, 4) << 13) | (u(lock_acq_enable, 1) << 12) | (u(lock_acq_value, 7) << 5) |
           u(lock_acq_id, 4);
}

} // namespace npusim::model
