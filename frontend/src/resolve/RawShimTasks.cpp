// The shim side of RawOpLowering: npu_writebd fills a shim BD's eight registers,
// npu_address_patch points its address at a runtime argument, a task-queue push (npu_push_queue or
// a write of DMA_<dir>_<ch>_Task_Queue) starts it as a shim task, npu_sync waits for a channel's
// token. The BD's fields are read back from its registers when it is pushed (AM025 DMA_BD<n>_0..7).
#include "resolve/RawOpLowering.hpp"
#include "resolve/RawOpState.hpp"

#include "npusim/model/AddressPattern.hpp"
#include "npusim/model/Error.hpp"
#include "npusim/model/RegisterMap.hpp"

#include <fmt/format.h>
#include <set>

namespace npusim::iron::detail {

namespace {
using model::TileCoord;
using model::TileKind;

const char* dir_name(int d) { return d ? "MM2S" : "S2MM"; }

bool has_flow_at(const model::Netlist& net, const model::StreamEndpoint& e) {
    for (const auto& f : net.flows) {
        if (f.source == e) return true;
        for (const auto& d : f.dests)
            if (d == e) return true;
    }
    for (const auto& f : net.packet_flows) {
        if (f.source == e) return true;
        for (const auto& d : f.dests)
            if (d == e) return true;
    }
    return false;
}


// AIEXDialect.cpp at 3ca0193, NpuWriteBdOp::verify L758-780 and NpuPushQueueOp::verify L727-740:
// the toolchain's messages for out-of-range fields.
void check_bd_id(const ResolveContext& ctx, TileCoord t, int bd, const std::string& who) {
    if (bd < 0 || bd > ctx.dev.resources(t).bds)
        throw DesignError(fmt::format("{}: BD ID exceeds the maximum ID. (tile ({},{}) has BDs 0..{})", who, t.col,
                                      t.row, ctx.dev.resources(t).bds - 1));
}

} // namespace

void RawOpLowering::write_bd(const RecordedRawOp& op) {
    const auto& b = op.bd;
    const TileCoord t{b.column, b.row};
    const auto who = op.describe();
    if (!ctx_.dev.contains(t))
        throw DesignError(fmt::format("{}: tile ({},{}) is outside the device {}", who, t.col, t.row, ctx_.dev.name));
    check_bd_id(ctx_, t, b.bd_id, who);
    if (b.packet_id > 31 || b.packet_id < 0)
        throw DesignError(fmt::format("{}: Packet ID exceeds the maximum supported by 5 bits.", who));
    if (b.packet_type > 7 || b.packet_type < 0)
        throw DesignError(fmt::format("{}: Packet Type exceeds the maximum supported by 3 bits.", who));
    if (ctx_.dev.kind_at(t) != TileKind::Shim) {
        ctx_.net.warnings.push_back(fmt::format(
            "{}: writes the BD registers of {} tile ({},{}), which npusim does not simulate (a compute or mem tile's "
            "BDs come from its TileDma or ObjectFifo program): the write has no effect in the simulation",
            who, model::tile_kind_name(ctx_.dev.kind_at(t)), t.col, t.row));
        return;
    }
    // A shim BD has no zero padding (AM025: the shim's DMA_BD registers have no D*_Zero fields;
    // padding is a mem-tile MM2S feature).
    if (b.d0_zero_before || b.d0_zero_after || b.d1_zero_before || b.d1_zero_after || b.d2_zero_before ||
        b.d2_zero_after)
        throw DesignError(fmt::format("{}: a shim BD cannot pad (zero_before / zero_after are mem-tile BD fields)", who));
    model::ShimBdFields f;
    f.buffer_length = static_cast<std::uint32_t>(b.buffer_length);
    f.address_low = static_cast<std::uint32_t>(b.buffer_offset);
    f.enable_packet = b.enable_packet;
    f.out_of_order_id = b.out_of_order_id;
    f.packet_id = b.packet_id;
    f.packet_type = b.packet_type;
    f.d0_wrap = b.d0_size;
    f.d0_step = b.d0_stride;
    f.d1_wrap = b.d1_size;
    f.d1_step = b.d1_stride;
    f.d2_step = b.d2_stride;
    f.burst_length = b.burst_length;
    f.iteration_current = b.iteration_current;
    f.iteration_wrap = b.iteration_size;
    f.iteration_step = b.iteration_stride;
    f.next_bd = b.next_bd;
    f.use_next_bd = b.use_next_bd;
    f.valid_bd = b.valid_bd;
    f.lock_rel_value = b.lock_rel_val;
    f.lock_rel_id = b.lock_rel_id;
    f.lock_acq_enable = b.lock_acq_enable;
    f.lock_acq_value = b.lock_acq_val;
    f.lock_acq_id = b.lock_acq_id;
    std::uint32_t words[8];
    f.encode(words);
    const auto& map = model::RegisterMap::of(ctx_.dev);
    for (int w = 0; w < 8; ++w) {
        RecordedRawOp wr{RecordedRawOp::Kind::Write32};
        wr.address = map.bd_word(TileKind::Shim, b.bd_id, w);
        wr.column = t.col;
        wr.row = t.row;
        wr.data = {words[w]};
        lower(wr);
    }
}

void RawOpLowering::patch(const RecordedRawOp& op) {
    const auto who = op.describe();
    const auto tr = model::RegisterMap::split(ctx_.dev, op.address);
    if (!tr)
        throw DesignError(fmt::format("{}: address {:#x} is outside the device {}", who, op.address, ctx_.dev.name));
    const auto kind = ctx_.dev.kind_at(tr->tile);
    const auto reg = model::RegisterMap::of(ctx_.dev).decode(ctx_.dev, kind, tr->offset);
    if (kind != TileKind::Shim || reg.kind != model::RegisterRef::Kind::BdWord || reg.word != 1)
        throw DesignError(fmt::format("{}: patches {} of {} tile ({},{}), not a shim BD's address word "
                                      "(DMA_BD<n>_1 of a shim tile)",
                                      who, reg.name, model::tile_kind_name(kind), tr->tile.col, tr->tile.row));
    if (op.arg_idx < 0 || static_cast<std::size_t>(op.arg_idx) >= ctx_.net.host_tensors.size())
        throw DesignError(fmt::format("{}: the runtime sequence has {} argument(s), no argument {}", who,
                                      ctx_.net.host_tensors.size(), op.arg_idx));
    if (op.arg_plus < 0 || op.arg_plus % 4 != 0)
        throw DesignError(fmt::format("{}: arg_plus {} must be a non-negative multiple of 4 bytes", who, op.arg_plus));
    auto& bd = s_->shim_bds[{tr->tile.col, reg.index}];
    bd.arg = op.arg_idx;
    bd.arg_plus = op.arg_plus;
}

void RawOpLowering::push(const RecordedRawOp& op) {
    const TileCoord t{op.col, op.row_i};
    const auto who = op.describe();
    if (!ctx_.dev.contains(t))
        throw DesignError(fmt::format("{}: tile ({},{}) is outside the device {}", who, t.col, t.row, ctx_.dev.name));
    check_bd_id(ctx_, t, op.bd_id, who);
    if (op.repeat_count < 0 || op.repeat_count > 255)
        throw DesignError(fmt::format("{}: Repeat count exceeds the [0:255] range.", who));
    const auto dir = op.direction ? model::Direction::MM2S : model::Direction::S2MM;
    if (ctx_.dev.kind_at(t) != TileKind::Shim) {
        ctx_.net.warnings.push_back(
            fmt::format("{}: pushes onto a task queue of {} tile ({},{}), which npusim does not simulate (its channels "
                        "run their TileDma or ObjectFifo program from the start): the push has no effect",
                        who, model::tile_kind_name(ctx_.dev.kind_at(t)), t.col, t.row));
        return;
    }
    if (op.channel < 0 || op.channel >= ctx_.dev.dma_channels(t, dir))
        throw DesignError(fmt::format("{}: shim tile ({},{}) has {} {} channel(s)", who, t.col, t.row,
                                      ctx_.dev.dma_channels(t, dir), dir_name(op.direction)));
    const model::StreamEndpoint ep{t, dir, op.channel};
    if (!has_flow_at(ctx_.net, ep))
        throw DesignError(fmt::format("{}: no Flow or PacketFlow has an end at {}: the task's data has nowhere to go",
                                      who, model::to_string(ep)));
    const auto it = s_->shim_bds.find({t.col, op.bd_id});
    if (it == s_->shim_bds.end() || !it->second.written)
        throw DesignError(fmt::format("{}: BD {} of shim tile ({},{}) was never written (npu_writebd)", who,
                                      op.bd_id, t.col, t.row));
    // A BD of the task: written, valid and patched (the first one, or one its chain reaches).
    auto fields_of = [&](int bd_num) {
        const auto bit = s_->shim_bds.find({t.col, bd_num});
        if (bit == s_->shim_bds.end() || !bit->second.written)
            throw DesignError(fmt::format("{}: BD {} of shim tile ({},{}) was never written (npu_writebd)", who,
                                          bd_num, t.col, t.row));
        std::uint32_t words[8];
        std::copy(bit->second.words.begin(), bit->second.words.end(), words);
        const auto bf = model::ShimBdFields::decode(words);
        if (!bf.valid_bd)
            throw DesignError(fmt::format("{}: BD {} of shim tile ({},{}) is not valid (valid_bd=0)", who, bd_num,
                                          t.col, t.row));
        if (bit->second.arg < 0)
            throw DesignError(fmt::format("{}: BD {} of shim tile ({},{}) has no host address: patch its DMA_BD{}_1 "
                                          "with npu_address_patch before pushing it",
                                          who, bd_num, t.col, t.row, bd_num));
        return std::make_pair(bf, bit->second);
    };
    const auto [f, bd] = fields_of(op.bd_id);
    // Dimensions: D0 and D1 wrap/step, D2 takes the rest of buffer_length; steps are stride - 1
    // (AM025): the three dims one run of the BD moves.
    auto inner_dims = [&](const model::ShimBdFields& bf, int bd_num) {
        const std::uint32_t len = bf.buffer_length;
        if (len == 0) throw DesignError(fmt::format("{}: BD {} has buffer_length 0", who, bd_num));
        if (bf.d0_wrap == 0 && bf.d1_wrap == 0) return std::vector<model::Dim>{{1, 0}, {1, 0}, {len, 1}};
        const std::uint32_t d0 = std::max(1, bf.d0_wrap), d1 = std::max(1, bf.d1_wrap);
        if (len % (d0 * d1) != 0)
            throw DesignError(fmt::format("{}: buffer_length {} is not a multiple of d0_size x d1_size ({} x {})", who,
                                          len, d0, d1));
        return std::vector<model::Dim>{{len / (d0 * d1), bf.d2_step + 1}, {d1, bf.d1_step + 1}, {d0, bf.d0_step + 1}};
    };
    // The bytes a BD reaches over all its iterations stay inside its runtime argument.
    auto check_bounds = [&](const std::vector<model::Dim>& dims, std::uint64_t offset, int arg, int bd_num) {
        const auto& host = ctx_.net.host_tensors.at(static_cast<std::size_t>(arg));
        const model::AddressPattern pat(static_cast<std::int64_t>(offset), dims);
        if (pat.min_offset() < 0 || pat.max_offset() >= static_cast<std::int64_t>(host.bytes))
            throw DesignError(fmt::format("{}: BD {} moves bytes {}..{} of runtime argument {} ({} B)", who, bd_num,
                                          pat.min_offset(), pat.max_offset(), arg, host.bytes));
    };
    model::ShimTask task;
    task.id = static_cast<int>(ctx_.net.tasks.size());
    task.tile = t;
    task.dir = dir;
    task.channel = op.channel;
    task.bd_id = op.bd_id;
    task.host_tensor = bd.arg;
    task.offset_bytes = static_cast<std::uint64_t>(bd.arg_plus);
    task.issue_token = op.issue_token;
    task.prov = {fmt::format("shim BD {} of ({},{})", op.bd_id, t.col, t.row), "npu_push_queue"};
    const int reps = op.repeat_count + 1;
    if (f.use_next_bd) {
        // A chain (use_next_bd, AM025 DMA_BD<n>_7): the channel runs BD after BD until one without
        // use_next_bd, the whole chain repeat_count + 1 times, each BD's address advanced by its
        // iteration step once per pass (wrapping at its iteration size); a chain that loops back
        // would never end. The shim's BD lock and packet fields are modelled per task, not per BD
        // of a chain.
        auto iteration = [](const model::ShimBdFields& bf) {
            return bf.iteration_wrap > 0
                       ? model::Dim{static_cast<std::uint32_t>(bf.iteration_wrap + 1), bf.iteration_step + 1}
                       : model::Dim{1, 0};
        };
        auto no_fields = [&](const model::ShimBdFields& bf, int bd_num) {
            if (bf.lock_acq_enable || bf.lock_rel_value != 0 || bf.enable_packet)
                throw DesignError(fmt::format("{}: BD {} of the chain from BD {} has lock or packet fields: npusim "
                                              "models them on single-BD shim tasks only",
                                              who, bd_num, op.bd_id));
        };
        no_fields(f, op.bd_id);
        task.chain_passes = static_cast<std::uint32_t>(reps);
        task.dims = inner_dims(f, op.bd_id);
        task.dims.insert(task.dims.begin(), iteration(f));
        check_bounds(task.dims, task.offset_bytes, bd.arg, op.bd_id);
        std::set<int> seen{op.bd_id};
        for (int next = f.next_bd, from = op.bd_id;;) {
            if (!seen.insert(next).second)
                throw DesignError(fmt::format("{}: BD {} chains back to BD {} (use_next_bd): the task would never "
                                              "end",
                                              who, from, next));
            check_bd_id(ctx_, t, next, who);
            const auto [nf, nbd] = fields_of(next);
            no_fields(nf, next);
            model::ShimChainBd link;
            link.bd_id = next;
            link.host_tensor = nbd.arg;
            link.offset_bytes = static_cast<std::uint64_t>(nbd.arg_plus);
            link.dims = inner_dims(nf, next);
            link.dims.insert(link.dims.begin(), iteration(nf));
            check_bounds(link.dims, link.offset_bytes, nbd.arg, next);
            task.chain.push_back(std::move(link));
            if (!nf.use_next_bd) break;
            from = next;
            next = nf.next_bd;
        }
        ctx_.net.tasks.push_back(std::move(task));
    } else {
        // A task with repeat_count runs the BD repeat_count + 1 times, each iteration moving the
        // address by the iteration step (wrap = iterations - 1).
        if (f.iteration_wrap > 0 && reps > f.iteration_wrap + 1)
            throw DesignError(fmt::format("{}: repeat_count {} runs BD {} past its {} iterations (the iteration wraps): "
                                          "not modelled",
                                          who, op.repeat_count, op.bd_id, f.iteration_wrap + 1));
        task.dims = inner_dims(f, op.bd_id);
        task.dims.insert(task.dims.begin(),
                         model::Dim{static_cast<std::uint32_t>(reps), f.iteration_wrap > 0 ? f.iteration_step + 1 : 0});
        check_bounds(task.dims, task.offset_bytes, bd.arg, op.bd_id);
        // The BD's locks are the shim tile's: Lock_Acq_Value < 0 acquires >= -value (and subtracts
        // it), >= 0 waits until the lock equals it (AIEDMATasksToNPU.cpp L476-480 negates the value of an
        // AcquireGreaterEqual); the release adds Lock_Rel_Value.
        if (f.lock_acq_enable) {
            task.acquire_lock = raw_lock_at(ctx_, t, f.lock_acq_id);
            task.acquire_equal = f.lock_acq_value >= 0;
            task.acquire_value = f.lock_acq_value >= 0 ? f.lock_acq_value : -f.lock_acq_value;
        }
        if (f.lock_rel_value != 0) {
            task.release_lock = raw_lock_at(ctx_, t, f.lock_rel_id);
            task.release_value = f.lock_rel_value;
        }
        if (f.enable_packet) {
            if (dir != model::Direction::MM2S)
                throw DesignError(fmt::format("{}: BD {} enables a packet header on an S2MM channel", who, op.bd_id));
            task.packet_id = f.packet_id;
            task.packet_type = f.packet_type;
        }
        ctx_.net.tasks.push_back(std::move(task));
    }
    if (op.issue_token) {
        auto& tk = s_->tokens[{t.col, op.direction, op.channel}];
        tk.first = static_cast<int>(ctx_.net.tasks.size()) - 1;
        ++tk.second;
    }
    model::RuntimeOp rop;
    rop.kind = model::RuntimeOp::Kind::StartTask;
    rop.task = static_cast<int>(ctx_.net.tasks.size()) - 1;
    rop.prov = ctx_.net.tasks.back().prov;
    ctx_.net.sequence.push_back(std::move(rop));
}

void RawOpLowering::sync(const RecordedRawOp& op) {
    const auto who = op.describe();
    for (int c = op.col; c < op.col + std::max(1, op.column_num); ++c)
        for (int r = op.row_i; r < op.row_i + std::max(1, op.row_num); ++r) {
            const TileCoord t{c, r};
            if (!ctx_.dev.contains(t))
                throw DesignError(
                    fmt::format("{}: tile ({},{}) is outside the device {}", who, t.col, t.row, ctx_.dev.name));
            if (ctx_.dev.kind_at(t) != TileKind::Shim)
                throw DesignError(fmt::format("{}: syncs on {} tile ({},{}), whose task queues npusim does not "
                                              "simulate: the sync would never see a token",
                                              who, model::tile_kind_name(ctx_.dev.kind_at(t)), t.col, t.row));
            const auto it = s_->tokens.find({c, op.direction, op.channel});
            if (it == s_->tokens.end() || it->second.second == 0)
                throw DesignError(fmt::format("{}: no task pushed on shim ({},{}) {} {} issues a token that this sync "
                                              "has not had: it would wait forever (push with issue_token=true)",
                                              who, c, r, dir_name(op.direction), op.channel));
            --it->second.second;
            model::RuntimeOp rop;
            rop.kind = model::RuntimeOp::Kind::AwaitTask;
            rop.task = it->second.first;
            rop.prov = ctx_.net.tasks.at(static_cast<std::size_t>(rop.task)).prov;
            ctx_.net.sequence.push_back(std::move(rop));
        }
}

} // namespace npusim::iron::detail
