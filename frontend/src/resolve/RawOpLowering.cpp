#include "resolve/RawOpLowering.hpp"
#include "resolve/RawOpState.hpp"

#include "npusim/model/AddressPattern.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/model/RegisterMap.hpp"

#include <fmt/format.h>

#include <array>

namespace npusim::iron::detail {

namespace {
using model::RegisterRef;
using model::TileCoord;
using model::TileKind;

} // namespace

RawOpLowering::RawOpLowering(ResolveContext& ctx) : s_(std::make_unique<State>()), ctx_(ctx) {}
RawOpLowering::~RawOpLowering() = default;

namespace {

// The tile and offset an operation writes: a tile-local offset with column and row, else an array
// address. An address outside the device is an error (it reaches no tile).
model::TileRegister locate(const ResolveContext& ctx, const RecordedRawOp& op, std::uint32_t address) {
    if (op.column || op.row) {
        const TileCoord t{op.column.value_or(0), op.row.value_or(0)};
        if (!ctx.dev.contains(t) || address >= model::RegisterMap::kTileSpace)
            throw DesignError(fmt::format("{}: tile {} offset {:#x} is outside the device {} ({} columns, {} rows, "
                                          "{:#x} bytes of registers per tile)",
                                          op.describe(), model::to_string(t), address, ctx.dev.name, ctx.dev.cols,
                                          ctx.dev.rows, model::RegisterMap::kTileSpace));
        return {t, address};
    }
    const auto tr = model::RegisterMap::split(ctx.dev, address);
    if (!tr)
        throw DesignError(fmt::format("{}: address {:#x} is outside the device {} (column {} row {}; it has {} "
                                      "columns and {} rows)",
                                      op.describe(), address, ctx.dev.name, address >> model::RegisterMap::kColumnShift,
                                      (address >> model::RegisterMap::kRowShift) & 0x1F, ctx.dev.cols, ctx.dev.rows));
    return *tr;
}

} // namespace

// The NetLock of lock `id` on `t`, added (initial value 0) when no design object declared it.
int raw_lock_at(ResolveContext& ctx, TileCoord t, int id) {
    for (std::size_t i = 0; i < ctx.net.locks.size(); ++i)
        if (ctx.net.locks[i].tile == t && ctx.net.locks[i].id == id) return static_cast<int>(i);
    return ctx.ledger.add_lock(t, fmt::format("lock_{}_{}_{}", t.col, t.row, id), 0,
                               {fmt::format("lock {} of {}", id, model::to_string(t)), "runtime sequence register"}, id);
}

namespace {

void set_lock(ResolveContext& ctx, int lock, int value, const std::string& who) {
    const auto& l = ctx.net.locks.at(static_cast<std::size_t>(lock));
    const int max = ctx.dev.resources(l.tile).lock_max_value;
    if (value < 0 || value > max)
        throw DesignError(fmt::format("{}: lock '{}' on {}: a lock value must be within 0..{} (the lock's state)", who,
                                      l.name, model::to_string(l.tile), max));
    model::RuntimeOp op;
    op.kind = model::RuntimeOp::Kind::SetLock;
    op.lock = lock;
    op.value = value;
    op.prov = {who, "register write"};
    ctx.net.sequence.push_back(std::move(op));
}

} // namespace

void RawOpLowering::lower(const RecordedRawOp& op) {
    using K = RecordedRawOp::Kind;
    const auto& map = model::RegisterMap::of(ctx_.dev);
    auto warn = [&](const std::string& what) { ctx_.net.warnings.push_back(what); };

    // One 32-bit register write (the words of a block write one by one).
    auto write_word = [&](model::TileRegister tr, std::uint32_t value, std::uint32_t mask) {
        const auto kind = ctx_.dev.kind_at(tr.tile);
        const auto reg = map.decode(ctx_.dev, kind, tr.offset);
        const auto address = model::RegisterMap::join(tr.tile, tr.offset);
        const auto not_simulated = [&](const std::string& why) {
            warn(fmt::format("{}: writes {} of {} tile {} (address {:#010x}), which npusim does not simulate{}: the "
                             "write has no effect in the simulation",
                             op.describe(), reg.name, model::tile_kind_name(kind), model::to_string(tr.tile), address, why));
        };
        switch (reg.kind) {
        case RegisterRef::Kind::LockValue: {
            if ((mask & 0x3Fu) != 0x3Fu) return not_simulated(" (a partial write of a lock's value)");
            set_lock(ctx_, raw_lock_at(ctx_, tr.tile, reg.index), static_cast<int>(value & mask), op.describe());
            return;
        }
        case RegisterRef::Kind::BdWord: {
            if (kind != TileKind::Shim)
                return not_simulated(" (a compute or mem tile's BDs come from its TileDma or ObjectFifo program)");
            auto& bd = s_->shim_bds[{tr.tile.col, reg.index}];
            auto& w = bd.words[static_cast<std::size_t>(reg.word)];
            w = (w & ~mask) | (value & mask);
            bd.written = true;
            return;
        }
        case RegisterRef::Kind::TaskQueue: {
            if (kind != TileKind::Shim)
                return not_simulated(" (a compute or mem tile's channels start from their TileDma or ObjectFifo program)");
            if (mask != 0xFFFFFFFFu) return not_simulated(" (a partial write of a task queue)");
            // Task_Queue: Start_BD_ID 3:0, Repeat_Count 23:16, Enable_Token_Issue 31 (AM025).
            RecordedRawOp push{K::PushQueue};
            push.col = tr.tile.col;
            push.row_i = tr.tile.row;
            push.direction = reg.dir == model::Direction::MM2S ? 1 : 0;
            push.channel = reg.channel;
            push.bd_id = static_cast<int>(value & 0xF);
            push.repeat_count = static_cast<int>((value >> 16) & 0xFF);
            push.issue_token = (value >> 31) != 0;
            return lower(push);
        }
        case RegisterRef::Kind::DmaCtrl: return not_simulated(" (channel control: controller id, pause, out-of-order)");
        case RegisterRef::Kind::Named:
        case RegisterRef::Kind::Unknown: return not_simulated("");
        }
    };

    switch (op.kind) {
    case K::Write32: return write_word(locate(ctx_, op, op.address), op.data.at(0), 0xFFFFFFFFu);
    case K::MaskWrite32: return write_word(locate(ctx_, op, op.address), op.data.at(0), op.mask);
    case K::BlockWrite:
        for (std::size_t i = 0; i < op.data.size(); ++i)
            write_word(locate(ctx_, op, op.address + 4 * static_cast<std::uint32_t>(i)), op.data[i], 0xFFFFFFFFu);
        return;
    case K::WriteBd: return write_bd(op);
    case K::AddressPatch: return patch(op);
    case K::PushQueue: return push(op);
    case K::Sync: return sync(op);
    case K::SetLock: {
        const auto it = ctx_.lock_of.find(op.lock->uid);
        if (it == ctx_.lock_of.end())
            throw DesignError(fmt::format("{}: lock '{}' is not part of the design; register it with "
                                          "Runtime::add_lock (or use it in a Worker or TileDma)",
                                          op.describe(), op.lock->name));
        return set_lock(ctx_, it->second, op.value, op.describe());
    }
    }
}

} // namespace npusim::iron::detail
