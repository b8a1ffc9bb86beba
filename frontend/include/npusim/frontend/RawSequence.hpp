#pragma once
// Register-level runtime-sequence operations (mlir-aie python/dialects/aiex.py at 3ca0193:
// npu_write32 L53, npu_maskwrite32 L64, npu_sync L76, npu_address_patch L88, npu_push_queue L96,
// set_lock_value L457; npu_writebd and npu_blockwrite are the generated aiex op builders). Called
// inside a Runtime's sequence function, they are recorded in order with the other sequence
// operations and decoded at resolve with the device generation's register map
// (model/RegisterMap.hpp): a lock-value write sets the lock, the shim's BD words and task queues
// start tasks that npusim runs, npu_sync waits for a channel's token. A write to a register npusim
// does not simulate is kept as a warning naming it; an address outside the device is an error.
#include "npusim/frontend/Lock.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npusim::iron {

/// npu_writebd's fields, in IRON's keyword order; each is the hardware field (strides and
/// iteration size minus one, AM025 DMA_BD<n>_*).
struct NpuWriteBd {
    int bd_id = 0;
    std::int64_t buffer_length = 0; ///< 32-bit words
    std::int64_t buffer_offset = 0; ///< bytes
    int column = 0;
    int row = 0;
    int enable_packet = 0, out_of_order_id = 0, packet_id = 0, packet_type = 0;
    int d0_size = 0, d0_stride = 0, d0_zero_before = 0, d0_zero_after = 0;
    int d1_size = 0, d1_stride = 0, d1_zero_before = 0, d1_zero_after = 0;
    int d2_size = 0, d2_stride = 0, d2_zero_before = 0, d2_zero_after = 0;
    int iteration_current = 0, iteration_size = 0, iteration_stride = 0;
    int lock_acq_enable = 0, lock_acq_id = 0, lock_acq_val = 0;
    int lock_rel_id = 0, lock_rel_val = 0;
    int next_bd = 0, use_next_bd = 0, valid_bd = 1;
    int burst_length = 0;
};

/// aiex.npu_write32: write `value` at `address`, a tile-local offset when column and row are given,
/// else an array address ((col << 25) | (row << 20) | offset).
void npu_write32(std::uint32_t address, std::uint32_t value, std::optional<int> column = std::nullopt,
                 std::optional<int> row = std::nullopt);
/// aiex.npu_maskwrite32: the bits of `mask` take those of `value`.
void npu_maskwrite32(std::uint32_t address, std::uint32_t value, std::uint32_t mask,
                     std::optional<int> column = std::nullopt, std::optional<int> row = std::nullopt);
/// aiex.npu_blockwrite: consecutive words from `address`.
void npu_blockwrite(std::uint32_t address, std::vector<std::uint32_t> data, std::optional<int> column = std::nullopt,
                    std::optional<int> row = std::nullopt);
/// aiex.npu_writebd: all eight words of one BD.
void npu_writebd(const NpuWriteBd& bd);
/// aiex.npu_address_patch: the BD address register at `addr` (an array address) gets the host
/// address of runtime argument `arg_idx` plus `arg_plus` bytes.
void npu_address_patch(std::uint32_t addr, int arg_idx, std::int64_t arg_plus);
/// aiex.npu_push_queue: start BD `bd_id` on a channel (direction 0 = S2MM, 1 = MM2S).
void npu_push_queue(int column, int row, int direction, int channel, bool issue_token, int repeat_count, int bd_id);
/// aiex.npu_sync: wait for the next task-complete token of each channel of the column x row range.
void npu_sync(int column, int row, int direction, int channel, int column_num = 1, int row_num = 1);
/// aiex.set_lock_value (aiex.set_lock): set a Lock's value from the sequence.
void set_lock_value(const Lock& lock, int value);

namespace detail {
/// One recorded register-level operation.
struct RecordedRawOp {
    enum class Kind { Write32, MaskWrite32, BlockWrite, WriteBd, AddressPatch, PushQueue, Sync, SetLock } kind;
    std::uint32_t address = 0; ///< Write32 / MaskWrite32 / BlockWrite / AddressPatch
    std::optional<int> column, row; ///< Write32 / MaskWrite32 / BlockWrite: tile-local address
    std::vector<std::uint32_t> data; ///< Write32/MaskWrite32: {value}; BlockWrite: the words
    std::uint32_t mask = 0xFFFFFFFFu;
    NpuWriteBd bd{}; ///< WriteBd
    int arg_idx = -1; ///< AddressPatch
    std::int64_t arg_plus = 0;
    int col = 0, row_i = 0, direction = 0, channel = 0; ///< PushQueue / Sync
    bool issue_token = false;
    int repeat_count = 0, bd_id = 0;
    int column_num = 1, row_num = 1; ///< Sync
    std::shared_ptr<LockState> lock; ///< SetLock
    int value = 0; ///< SetLock
    /// "npu_write32(0xc0000, 1) on (0,1)"-style label for messages.
    std::string describe() const;
};
} // namespace detail

} // namespace npusim::iron
