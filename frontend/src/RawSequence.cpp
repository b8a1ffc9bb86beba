#include "npusim/frontend/RawSequence.hpp"

#include "npusim/frontend/Runtime.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron {

namespace {

detail::SequenceRecorder& recorder(const char* op) {
    auto* rec = detail::SequenceRecorder::current();
    if (!rec) throw DesignError(fmt::format("{} called outside the runtime sequence", op));
    return *rec;
}

void record(const char* op, detail::RecordedRawOp raw) {
    auto& rec = recorder(op);
    rec.ops.push_back({detail::RecordedOp::Kind::Raw, static_cast<int>(rec.raw_ops.size())});
    rec.raw_ops.push_back(std::move(raw));
}

std::string where(const std::optional<int>& col, const std::optional<int>& row) {
    return col && row ? fmt::format(" on ({},{})", *col, *row) : std::string();
}

} // namespace

std::string detail::RecordedRawOp::describe() const {
    switch (kind) {
    case Kind::Write32: return fmt::format("npu_write32({:#x}, {}){}", address, data.at(0), where(column, row));
    case Kind::MaskWrite32:
        return fmt::format("npu_maskwrite32({:#x}, {:#x}, mask {:#x}){}", address, data.at(0), mask,
                           where(column, row));
    case Kind::BlockWrite:
        return fmt::format("npu_blockwrite({:#x}, {} words){}", address, data.size(), where(column, row));
    case Kind::WriteBd: return fmt::format("npu_writebd(bd_id={}) on ({},{})", bd.bd_id, bd.column, bd.row);
    case Kind::AddressPatch: return fmt::format("npu_address_patch({:#x}, arg_idx={})", address, arg_idx);
    case Kind::PushQueue:
        return fmt::format("npu_push_queue(({},{}) {} {}, bd_id={})", col, row_i, direction ? "MM2S" : "S2MM",
                           channel, bd_id);
    case Kind::Sync:
        return fmt::format("npu_sync(({},{}) {} {})", col, row_i, direction ? "MM2S" : "S2MM", channel);
    case Kind::SetLock: return fmt::format("set_lock_value(lock '{}', {})", lock ? lock->name : "?", value);
    }
    return "?";
}

void npu_write32(std::uint32_t address, std::uint32_t value, std::optional<int> column, std::optional<int> row) {
    detail::RecordedRawOp r{detail::RecordedRawOp::Kind::Write32};
    r.address = address;
    r.column = column;
    r.row = row;
    r.data = {value};
    record("npu_write32", std::move(r));
}

void npu_maskwrite32(std::uint32_t address, std::uint32_t value, std::uint32_t mask, std::optional<int> column,
                     std::optional<int> row) {
    detail::RecordedRawOp r{detail::RecordedRawOp::Kind::MaskWrite32};
    r.address = address;
    r.column = column;
    r.row = row;
    r.data = {value};
    r.mask = mask;
    record("npu_maskwrite32", std::move(r));
}

void npu_blockwrite(std::uint32_t address, std::vector<std::uint32_t> data, std::optional<int> column,
                    std::optional<int> row) {
    detail::RecordedRawOp r{detail::RecordedRawOp::Kind::BlockWrite};
    r.address = address;
    r.column = column;
    r.row = row;
    r.data = std::move(data);
    record("npu_blockwrite", std::move(r));
}

void npu_writebd(const NpuWriteBd& bd) {
    detail::RecordedRawOp r{detail::RecordedRawOp::Kind::WriteBd};
    r.bd = bd;
    record("npu_writebd", std::move(r));
}

void npu_address_patch(std::uint32_t addr, int arg_idx, std::int64_t arg_plus) {
    detail::RecordedRawOp r{detail::RecordedRawOp::Kind::AddressPatch};
    r.address = addr;
    r.arg_idx = arg_idx;
    r.arg_plus = arg_plus;
    record("npu_address_patch", std::move(r));
}

void npu_push_queue(int column, int row, int direction, int channel, bool issue_token, int repeat_count, int bd_id) {
    detail::RecordedRawOp r{detail::RecordedRawOp::Kind::PushQueue};
    r.col = column;
    r.row_i = row;
    r.direction = direction;
    r.channel = channel;
    r.issue_token = issue_token;
    r.repeat_count = repeat_count;
    r.bd_id = bd_id;
    record("npu_push_queue", std::move(r));
}

void npu_sync(int column, int row, int direction, int channel, int column_num, int row_num) {
    detail::RecordedRawOp r{detail::RecordedRawOp::Kind::Sync};
    r.col = column;
    r.row_i = row;
    r.direction = direction;
    r.channel = channel;
    r.column_num = column_num;
    r.row_num = row_num;
    record("npu_sync", std::move(r));
}

void set_lock_value(const Lock& lock, int value) {
    detail::RecordedRawOp r{detail::RecordedRawOp::Kind::SetLock};
    r.lock = lock.state();
    r.value = value;
    record("set_lock_value", std::move(r));
}

} // namespace npusim::iron
