#include "resolve/SequenceLowering.hpp"

#include "resolve/BdEncoding.hpp"
#include "resolve/RawOpLowering.hpp"
#include "resolve/ScratchpadLowering.hpp"
#include "resolve/StaticChecks.hpp"

#include "npusim/frontend/WorkerRuntimeBarrier.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace npusim::iron::detail {

namespace {

// One host tensor per runtime argument, named arg<i>.
void add_host_tensors(ResolveContext& ctx, const RuntimeState& rt) {
    for (std::size_t i = 0; i < rt.tensors.size(); ++i) {
        model::HostTensor h;
        h.name = fmt::format("arg{}", i);
        h.dtype = rt.tensors[i].dtype;
        h.shape = rt.tensors[i].shape;
        h.bytes = rt.tensors[i].bytes();
        if (h.bytes % 4 != 0)
            throw DesignError(
                fmt::format("runtime argument {} ({}) is {} B; host buffers must be a multiple of 4 bytes", i,
                            rt.tensors[i].str(), h.bytes));
        ctx.net.host_tensors.push_back(std::move(h));
    }
}

} // namespace

void record_sequence_function(const RuntimeState& rt, SequenceRecorder& rec, const std::string& design) {
    SequenceRecorder::set_current(&rec);
    // Where it stopped: after how many recorded operations (fill/drain starts, awaits, writes).
    auto where = [&] { return fmt::format("after {} recorded operation(s)", rec.ops.size()); };
    try {
        if (rt.run) rt.run();
        SequenceRecorder::set_current(nullptr);
    } catch (const DesignError&) {
        SequenceRecorder::set_current(nullptr);
        throw;
    } catch (const std::exception& e) {
        SequenceRecorder::set_current(nullptr);
        throw DesignError(fmt::format("design '{}': the runtime sequence threw while it was recorded ({}): {}", design,
                                      where(), e.what()));
    } catch (...) {
        SequenceRecorder::set_current(nullptr);
        throw DesignError(
            fmt::format("design '{}': the runtime sequence threw an unknown exception while it was recorded ({})",
                        design, where()));
    }
}

// Groups must be finished; strict task groups forbid mixing the default group with explicit ones.
void finish_task_groups(const RuntimeState& rt, SequenceRecorder& rec) {
    if (rt.strict_task_groups && rec.used_default && rec.used_explicit)
        throw DesignError("runtime sequence mixes the implicit default task group with explicit TaskGroups "
                          "(strict_task_groups); pass group= to every transfer or to none");
    if (!rec.open_groups.empty())
        throw DesignError(fmt::format("runtime sequence ended with TaskGroup {} not finished; call finish()",
                                      rec.open_groups.front()));
    rec.finish_group(0); // the implicit default group ends with the sequence
}

namespace {

void lower_buffer_write(ResolveContext& ctx, const RecordedBufferWrite& bw) {
    auto it = ctx.buffer_of.find(bw.buffer->uid);
    if (it == ctx.buffer_of.end())
        throw DesignError(
            fmt::format("buffer '{}' is written by the runtime sequence but no worker uses it", bw.buffer->name));
    // Without use_write_rtp IRON emits memref.store, which AIETargetNPU's translation of the
    // sequence skips (no case for it, AIETargetNPU.cpp L404-479): the write never reaches the array.
    if (!bw.buffer->use_write_rtp) {
        ctx.net.warnings.push_back(fmt::format(
            "buffer '{}': the runtime sequence writes {} B at offset {} but the Buffer is not use_write_rtp: IRON "
            "emits a memref.store there, which the NPU instruction translation skips, so the write never reaches "
            "the array (dropped here too); declare it with use_write_rtp()",
            bw.buffer->name, bw.bytes.size(), bw.offset));
        return;
    }
    model::RuntimeOp w;
    w.kind = model::RuntimeOp::Kind::WriteBuffer;
    w.buffer = it->second;
    w.offset_bytes = static_cast<std::uint32_t>(bw.offset);
    w.data = bw.bytes;
    w.prov = {bw.buffer->name, "runtime parameter write"};
    ctx.net.sequence.push_back(std::move(w));
}

// WorkerRuntimeBarrier.set(v): set_lock_value on each worker's lock of the barrier (worker.py
// L311-314), in the order the workers were resolved. A barrier no worker takes sets nothing, as
// IRON's loop over an empty lock list; that is almost certainly a mistake, so it is a warning.
void lower_barrier_set(ResolveContext& ctx, const RecordedBarrierSet& bs) {
    if (bs.value < 0 || bs.value > ctx.dev.resources(model::TileKind::Compute).lock_max_value)
        throw DesignError(fmt::format("{}.set({}): a barrier's value must be within 0..{} (the lock's state)",
                                      bs.barrier->name, bs.value,
                                      ctx.dev.resources(model::TileKind::Compute).lock_max_value));
    const auto it = ctx.barrier_locks.find(bs.barrier->uid);
    if (it == ctx.barrier_locks.end()) {
        ctx.net.warnings.push_back(fmt::format("{}.set({}) in the runtime sequence sets nothing: no worker takes the "
                                               "barrier in its fn_args (IRON sets no lock either)",
                                               bs.barrier->name, bs.value));
        return;
    }
    for (int lock : it->second) {
        model::RuntimeOp op;
        op.kind = model::RuntimeOp::Kind::SetLock;
        op.lock = lock;
        op.value = bs.value;
        op.prov = {bs.barrier->name, "barrier set"};
        ctx.net.sequence.push_back(std::move(op));
    }
}

// The shim channel of a transfer: its fifo endpoint's allocation, or the aie.shim_dma_allocation
// a Flow's shim_symbol made. An unknown symbol is AIEDmaToNpu's "couldn't find shim_dma_allocation
// op." (AIEDmaToNpu.cpp l.271).
model::StreamEndpoint shim_channel_of(const ResolveContext& ctx, const RecordedTransfer& tr) {
    if (!tr.endpoint) {
        const auto it = ctx.shim_symbols.find(tr.symbol);
        if (it == ctx.shim_symbols.end())
            throw DesignError(fmt::format("shim_dma_single_bd_task: no Flow or PacketFlow declares shim_symbol '{}': "
                                          "couldn't find shim_dma_allocation op.",
                                          tr.symbol));
        return it->second;
    }
    const auto it = ctx.shim_alloc.find(tr.endpoint->uid);
    if (it == ctx.shim_alloc.end())
        throw DesignError(fmt::format("{}: no shim DMA channel was allocated for it", tr.endpoint->describe()));
    return it->second;
}

// A fill or drain: a shim task on its endpoint's channel with one BD (id from the shim tile), or
// one task per chunk when aie-decompose-large-dma-bd splits its repeat (shim_repeat_chunks), as
// the npu_dma_memcpy_nd path lowers the pieces: a BD id, a queue push and a slot each, the token
// (when the transfer waits) only on the last.
// A task of chained BDs (shim_dma_bd_chain: dma_configure_task's BD blocks joined by next_bd): one
// task, one queue push, a BD id per BD (AIEAssignRuntimeSequenceBDIDs), each BD's outermost dim its
// iteration and its inner three dims what it moves per pass (AIEDMATasksToNPU.cpp L843-866; the
// lowering rejects a BD whose length is not its inner three dims', L868-889).
int lower_chain_task(ResolveContext& ctx, const SequenceRecorder& rec, const RecordedTransfer& tr,
                     const model::StreamEndpoint& alloc) {
    model::ShimTask task;
    task.id = static_cast<int>(ctx.net.tasks.size());
    task.tile = alloc.tile;
    task.dir = alloc.dir;
    task.channel = alloc.channel;
    task.issue_token = tr.wait;
    task.chain_passes = static_cast<std::uint32_t>(tr.chain_passes);
    task.prov = {tr.symbol, "shim_dma_bd_chain"};
    std::vector<std::pair<int, TensorAccessPattern>> bds{{tr.tensor, tr.tap}};
    bds.insert(bds.end(), tr.chain_rest.begin(), tr.chain_rest.end());
    for (std::size_t i = 0; i < bds.size(); ++i) {
        const auto& [tensor, tap] = bds[i];
        const auto& tt = rec.tensors[static_cast<std::size_t>(tensor)];
        const auto eb = static_cast<std::int64_t>(model::dtype_bytes(tt.dtype));
        const std::string who = fmt::format("shim_dma_bd_chain of {}, BD {} ({})", tr.label(), i, tap.str());
        model::ShimChainBd bd;
        bd.host_tensor = tensor;
        bd.offset_bytes = shim_task_offset(tap, eb, who);
        bd.dims = shim_task_dims(tap, eb, ctx.dev.shim, ctx.dev.max_repeat_count, who);
        bd.bd_id = ctx.ledger.take_shim_bd(task.tile, who);
        if (i == 0) {
            task.host_tensor = bd.host_tensor;
            task.offset_bytes = bd.offset_bytes;
            task.dims = bd.dims;
            task.bd_id = bd.bd_id;
        } else {
            task.chain.push_back(std::move(bd));
        }
    }
    ctx.net.tasks.push_back(std::move(task));
    return ctx.net.tasks.back().id;
}

std::vector<int> lower_transfer_start(ResolveContext& ctx, const SequenceRecorder& rec, const RecordedTransfer& tr) {
    const model::StreamEndpoint alloc = shim_channel_of(ctx, tr);
    if (tr.chain_passes > 0) return {lower_chain_task(ctx, rec, tr, alloc)};
    const auto& tt = rec.tensors[static_cast<std::size_t>(tr.tensor)];
    const std::int64_t eb = static_cast<std::int64_t>(model::dtype_bytes(tt.dtype));
    const char* what = tr.endpoint ? (tr.fill ? "fill" : "drain") : "shim_dma_single_bd_task";
    const std::string who = fmt::format("{} of {} ({})", what, tr.label(), tr.tap.str());
    if (tr.endpoint) check_transfer_whole_objects(ctx, tr, eb);
    const auto chunks = shim_repeat_chunks(tr.tap, ctx.dev.shim);
    std::vector<int> ids;
    for (std::size_t c = 0; c < chunks.size(); ++c) {
        model::ShimTask task;
        task.id = static_cast<int>(ctx.net.tasks.size());
        task.tile = alloc.tile;
        task.dir = alloc.dir;
        task.channel = alloc.channel;
        task.host_tensor = tr.tensor;
        // IRON's fill/drain are DMA tasks whose token is their wait flag (python/iron/runtime/
        // dmatask.py issue_token=self._wait; AIEDMATasksToNPU passes getIssueToken() to the queue
        // push). The "every S2MM issues a token" rule belongs to npu_dma_memcpy_nd (AIEDmaToNpu).
        task.issue_token = tr.wait && c + 1 == chunks.size();
        task.prov = {tr.endpoint ? tr.endpoint->fifo->name : tr.symbol, what};
        task.offset_bytes = shim_task_offset(chunks[c], eb, who);
        task.dims = shim_task_dims(chunks[c], eb, ctx.dev.shim, ctx.dev.max_repeat_count, who);
        task.bd_id = ctx.ledger.take_shim_bd(task.tile, who);
        if (tr.packet) {
            // DMABDOp::verify (AIEDialect.cpp) bounds the header fields; only an MM2S sends one.
            if (tr.packet->pkt_id < 0 || tr.packet->pkt_id > 31 || tr.packet->pkt_type < 0 || tr.packet->pkt_type > 7)
                throw DesignError(fmt::format("{}: packet (type {}, id {}) must have a type within 0..7 and an id "
                                              "within 0..31",
                                              who, tr.packet->pkt_type, tr.packet->pkt_id));
            if (task.dir != model::Direction::MM2S)
                throw DesignError(fmt::format("{}: a packet header is sent by an MM2S; {} receives", who,
                                              model::to_string(alloc)));
            task.packet_id = tr.packet->pkt_id;
            task.packet_type = tr.packet->pkt_type;
        }
        if (tr.offset_param) { // emitUpdateBdAddressFromOffsetParameter: func Mul by the element size
            task.offset_param = scratchpad_param_index(ctx, tr.offset_param.get());
            task.offset_param_scale = static_cast<std::uint32_t>(eb);
        }
        ctx.net.tasks.push_back(std::move(task));
        ids.push_back(ctx.net.tasks.back().id);
    }
    return ids;
}

// A shim MM2S that is a PacketFlow's source sends each task as one packet: a header the task
// carries must have an id one of those flows routes (as check_packet_sources asks of a TileDma's
// BDs); a task without one sends the header in its data.
void check_shim_packet_tasks(const ResolveContext& ctx) {
    for (const auto& task : ctx.net.tasks) {
        if (task.dir != model::Direction::MM2S) continue;
        const model::StreamEndpoint port{task.tile, task.dir, task.channel};
        std::vector<int> ids;
        for (const auto& pf : ctx.net.packet_flows)
            if (pf.source == port) ids.push_back(pf.packet_id);
        if (ids.empty()) continue;
        const auto who = fmt::format("task {} ({})", task.id, task.prov.describe());
        // A task without a header of its own sends its data as it is, the data's first word being
        // the packet's header (sim/src/PacketSwitch.hpp), checked when it is sent (a shim task
        // moves at least one word: its BD's buffer_length is not 0).
        if (task.packet_id < 0) continue;
        if (std::find(ids.begin(), ids.end(), task.packet_id) == ids.end())
            throw DesignError(fmt::format("{}: its packet id {} matches no PacketFlow from {} (ids {})", who,
                                          task.packet_id, model::to_string(port), fmt::join(ids, ", ")));
    }
}

// An await or free returns the task's shim BD id.
void lower_transfer_end(ResolveContext& ctx, const model::ShimTask& task) {
    ctx.ledger.free_shim_bd(task.tile, task.bd_id);
    for (const auto& bd : task.chain) ctx.ledger.free_shim_bd(task.tile, bd.bd_id);
}

} // namespace

void lower_sequence(ResolveContext& ctx) {
    auto rt = ctx.program.runtime().state();
    SequenceRecorder rec;
    rec.tensors = rt->tensors;
    add_host_tensors(ctx, *rt);
    record_sequence_function(*rt, rec, ctx.net.design);
    finish_task_groups(*rt, rec);
    assign_scratchpad_params(ctx, rec);
    if (needs_implicit_parameter_sync(ctx, rec)) lower_parameter_sync(ctx);

    std::map<int, std::vector<int>> tasks_of; // transfer -> its tasks (several when decomposed)
    auto emit = [&](model::RuntimeOp::Kind kind, int task) {
        model::RuntimeOp rop;
        rop.kind = kind;
        rop.task = task;
        rop.prov = ctx.net.tasks[static_cast<std::size_t>(task)].prov;
        ctx.net.sequence.push_back(std::move(rop));
    };
    RawOpLowering raw(ctx);
    for (const auto& op : rec.ops) {
        if (op.kind == RecordedOp::Kind::Raw) {
            raw.lower(rec.raw_ops[static_cast<std::size_t>(op.transfer)]);
            continue;
        }
        if (op.kind == RecordedOp::Kind::WriteBuffer) {
            lower_buffer_write(ctx, rec.buffer_writes[static_cast<std::size_t>(op.transfer)]);
            continue;
        }
        if (op.kind == RecordedOp::Kind::SyncParameters) {
            lower_parameter_sync(ctx);
            continue;
        }
        if (op.kind == RecordedOp::Kind::SetBarrier) {
            lower_barrier_set(ctx, rec.barrier_sets[static_cast<std::size_t>(op.transfer)]);
            continue;
        }
        if (op.kind == RecordedOp::Kind::Start) {
            auto& ids = tasks_of[op.transfer] =
                lower_transfer_start(ctx, rec, rec.transfers[static_cast<std::size_t>(op.transfer)]);
            for (int t : ids) emit(model::RuntimeOp::Kind::StartTask, t);
        } else if (op.kind == RecordedOp::Kind::Await) {
            // One sync, for the token of the last piece; it returns every piece's BD id.
            const auto& ids = tasks_of.at(op.transfer);
            emit(model::RuntimeOp::Kind::AwaitTask, ids.back());
            for (int t : ids) lower_transfer_end(ctx, ctx.net.tasks[static_cast<std::size_t>(t)]);
        } else {
            for (int t : tasks_of.at(op.transfer)) {
                emit(model::RuntimeOp::Kind::FreeTask, t);
                lower_transfer_end(ctx, ctx.net.tasks[static_cast<std::size_t>(t)]);
            }
        }
    }
    check_shim_packet_tasks(ctx);
}

} // namespace npusim::iron::detail
