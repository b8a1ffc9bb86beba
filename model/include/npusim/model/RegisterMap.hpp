#pragma once
// The array's register address map, per architecture generation: where the registers npusim
// simulates sit in a tile's address space (lock values, DMA buffer descriptors, DMA channel control
// and task queues), and the names of the others, so a raw register write of the runtime sequence
// (npu_write32, npu_maskwrite32, npu_blockwrite) can be decoded or named.
//
// Sources: AM025 (AIE-ML, AIE2) and AM027 (AIE-ML v2, AIE2P) register references, as the
// toolchain's register database holds them (mlir-aie lib/Dialect/AIE/Util/aie_registers_aie2.json
// at 3ca0193), and the toolchain's target model, which places AIE2P's registers where AIE2's are
// (lib/Dialect/AIE/IR/AIETargetModel.cpp at 3ca0193: getDmaBdAddress L825-847,
// getDmaControlAddress L856-878, getLocalLockAddress L1169-1188; BaseNPU2TargetModel derives from
// AIE2TargetModel, include/aie/Dialect/AIE/IR/AIETargetModel.h L898). An array address is
// (column << 25) | (row << 20) | offset (AIE2TargetModel getColumnShift / getRowShift).
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace npusim::model {

/// One register (or register field group) of a tile, decoded from its offset.
struct RegisterRef {
    enum class Kind {
        LockValue, ///< LockN_value: writing it sets the lock's value
        BdWord, ///< DMA_BD<bd>_<word>
        DmaCtrl, ///< DMA_<dir>_<ch>_Ctrl
        TaskQueue, ///< DMA_<dir>_<ch>_Task_Queue: writing it starts a task
        Named, ///< a register npusim knows by name but does not simulate
        Unknown, ///< in the tile's space, not in npusim's map
    };
    Kind kind = Kind::Unknown;
    int index = -1; ///< LockValue: lock id; BdWord: BD id
    int word = -1; ///< BdWord: word 0..7
    Direction dir = Direction::S2MM; ///< DmaCtrl / TaskQueue
    int channel = -1; ///< DmaCtrl / TaskQueue
    std::string name; ///< "Lock0_value", "DMA_BD1_7", "Core_Control", or "offset 0x..."
};

/// A tile and an offset in its register space.
struct TileRegister {
    TileCoord tile;
    std::uint32_t offset = 0;
};

class RegisterMap {
public:
    static constexpr int kColumnShift = 25;
    static constexpr int kRowShift = 20;
    static constexpr std::uint32_t kTileSpace = 1u << kRowShift; ///< bytes of one tile's space

    /// The map of a device's generation.
    static const RegisterMap& of(const DeviceSpec& dev);

    /// The tile and offset of an array address; nullopt when its column or row is outside `dev`.
    static std::optional<TileRegister> split(const DeviceSpec& dev, std::uint64_t address);
    static std::uint32_t join(TileCoord t, std::uint32_t offset);

    /// What the register at `offset` of a tile of kind `kind` is (the device's lock and BD counts
    /// bound the ranges).
    RegisterRef decode(const DeviceSpec& dev, TileKind kind, std::uint32_t offset) const;

    std::uint32_t lock_value(TileKind kind, int lock) const;
    std::uint32_t bd_word(TileKind kind, int bd, int word) const;
    std::uint32_t dma_ctrl(TileKind kind, Direction dir, int channel) const;
    std::uint32_t task_queue(TileKind kind, Direction dir, int channel) const { return dma_ctrl(kind, dir, channel) + 4; }

    Arch arch() const { return arch_; }

private:
    explicit RegisterMap(Arch a) : arch_(a) {}
    Arch arch_;
};

/// The fields of a shim DMA buffer descriptor (AM025 DMA_BD<n>_0..7 of the shim tile, the layout
/// AIEDMATasksToNPU.cpp L649-671 writes), decoded from or encoded to its eight words.
struct ShimBdFields {
    std::uint32_t buffer_length = 0; ///< 32-bit words
    std::uint32_t address_low = 0; ///< bytes (bits 31:2)
    int enable_packet = 0, out_of_order_id = 0, packet_id = 0, packet_type = 0;
    int d0_wrap = 0, d0_step = 0, d1_wrap = 0, d1_step = 0, d2_step = 0; ///< steps: stride - 1
    int burst_length = 0;
    int iteration_current = 0, iteration_wrap = 0, iteration_step = 0; ///< wrap: size - 1
    int next_bd = 0, use_next_bd = 0, valid_bd = 0;
    int lock_rel_value = 0, lock_rel_id = 0; ///< release value: signed 7 bits
    int lock_acq_enable = 0, lock_acq_value = 0, lock_acq_id = 0; ///< acquire value: signed 7 bits
    static ShimBdFields decode(const std::uint32_t (&words)[8]);
    void encode(std::uint32_t (&words)[8]) const;
};

} // namespace npusim::model
