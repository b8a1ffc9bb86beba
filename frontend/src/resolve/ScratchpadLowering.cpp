#include "resolve/ScratchpadLowering.hpp"

#include "npusim/frontend/Runtime.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::iron::detail {

namespace {

// "Scratchpad parameters depend on the full-ELF flow (aiecc --get-full-elf) and are not available
// on the Phoenix/Hawk Point architectures" (the IRON API reference); mlir-aie runs its scratchpad
// tests only on npu2 (test/npu-xrt/scratchpad_params/run.lit: REQUIRES: ryzen_ai_npu2).
void refuse_on_aie2(const ResolveContext& ctx, const ScratchpadParamState& p, const std::string& use) {
    if (ctx.dev.arch == model::Arch::AIE2P) return;
    throw DesignError(fmt::format("ScratchpadParameter '{}' ({}): scratchpad parameters need the full-ELF flow "
                                  "(aiecc --get-full-elf), which {} (AIE-ML: Phoenix/Hawk Point) does not have; "
                                  "use a Buffer with use_write_rtp and a WorkerRuntimeBarrier instead",
                                  p.name, use, ctx.dev.name));
}

} // namespace

void place_scratchpad_params(ResolveContext& ctx) {
    unsigned counter = 0; // allocateBuffers: one uniquing counter per device
    for (auto* w : ctx.workers) {
        const auto it = ctx.param_reads.find(w);
        if (it == ctx.param_reads.end() || it->second.empty()) continue;
        const model::TileCoord t = ctx.worker_tile.at(w);
        auto& core = ctx.core_of(w);
        for (auto* p : it->second) {
            refuse_on_aie2(ctx, *p, fmt::format("read by worker '{}'", w->name));
            std::string name;
            do {
                name = fmt::format("__param_{}_{}_{}_{}", p->name, t.col, t.row, counter++);
            } while (std::any_of(ctx.net.buffers.begin(), ctx.net.buffers.end(),
                                 [&](const model::NetBuffer& b) { return b.name == name; }));
            // 2 x i32: update_from_scratchpad writes a 48-bit value over [0] and [+4].
            const int buf = ctx.ledger.add_buffer(
                t, name, 8, {p->name, fmt::format("scratchpad parameter of worker '{}'", w->name)});
            core.params.push_back({p->uid, buf});
            ctx.param_buffers.emplace_back(p, buf);
        }
        // emitCorePreambles: a lock (no id: AIEAssignLockIDs gives the lowest free one) with value
        // 0, acquired (use_lock Acquire 1) at the top of the core body, before its loop.
        core.param_sync_lock =
            ctx.ledger.add_lock(t, fmt::format("__param_sync_lock_{}_{}", t.col, t.row), 0,
                                {w->name, fmt::format("scratchpad parameter sync of worker '{}'", w->name)});
        ctx.param_sync_locks.push_back(core.param_sync_lock);
    }
}

void assign_scratchpad_params(ResolveContext& ctx, const SequenceRecorder& rec) {
    // Step 1: every aiex.scratchpad_parameter of the module: the workers' fn_args first, then the
    // ones only the sequence names (offset_parameter=), resolved after it (program.py).
    std::vector<ScratchpadParamState*> all;
    for (const auto& p : ctx.declared_params) all.push_back(p.get());
    for (const auto& tr : rec.transfers)
        if (tr.offset_param && std::find(all.begin(), all.end(), tr.offset_param.get()) == all.end())
            all.push_back(tr.offset_param.get());
    if (all.empty()) return;
    // Two objects with one name are one symbol twice: "redefinition of symbol".
    for (std::size_t i = 0; i < all.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (all[i]->name == all[j]->name)
                throw DesignError(fmt::format("ScratchpadParameter '{}' is declared by two different objects "
                                              "(redefinition of symbol named '{}'); share one object",
                                              all[i]->name, all[i]->name));
    if (all.size() > 32) {
        std::string names;
        for (const auto* p : all) names += (names.empty() ? "'" : ", '") + p->name + "'";
        throw DesignError(fmt::format("Module declares {} parameters but the scratchpad supports at most 32. The "
                                      "scratchpad is a single hardware resource shared by all PDIs loaded by a "
                                      "runtime sequence. (parameters: {})",
                                      all.size(), names));
    }
    // Step 2: the kind from the uses.
    for (auto* p : all) {
        bool core = false, addr = false;
        for (const auto& [w, reads] : ctx.param_reads) core |= std::find(reads.begin(), reads.end(), p) != reads.end();
        for (const auto& tr : rec.transfers) addr |= tr.offset_param.get() == p;
        if (addr) refuse_on_aie2(ctx, *p, "offset_parameter of a transfer");
        if (core && addr)
            throw DesignError(fmt::format("parameter '{}' is used both as an aiex.read_scratchpad_parameter source "
                                          "(core) and as a DMA offset_parameter (addr); a parameter must have a single "
                                          "kind",
                                          p->name));
        // Step 3b: an offset_parameter "must have type i32, got <type>."
        if (addr && p->dtype != DType::i32)
            throw DesignError(
                fmt::format("offset_parameter '{}' must have type i32, got {}.", p->name, model::dtype_name(p->dtype)));
        model::ScratchpadParam sp;
        sp.name = p->name;
        sp.dtype = p->dtype;
        sp.kind = addr ? model::ScratchpadParam::Kind::Addr : model::ScratchpadParam::Kind::Core;
        ctx.net.scratchpad_params.push_back(std::move(sp));
        ctx.param_index[p] = static_cast<int>(ctx.net.scratchpad_params.size()) - 1;
    }
}

bool needs_implicit_parameter_sync(const ResolveContext& ctx, const SequenceRecorder& rec) {
    for (const auto& op : rec.ops)
        if (op.kind == RecordedOp::Kind::SyncParameters) return false;
    if (!ctx.param_buffers.empty()) return true;
    return std::any_of(rec.transfers.begin(), rec.transfers.end(),
                       [](const RecordedTransfer& tr) { return tr.offset_param != nullptr; });
}

void lower_parameter_sync(ResolveContext& ctx) {
    // AIEXDialect.cpp NpuCreateScratchpadOp::verify: "only one 'aiex.npu.create_scratchpad' is
    // allowed per runtime sequence".
    if (ctx.param_synced)
        throw DesignError("sync_parameters() is called twice in the runtime sequence: only one "
                          "'aiex.npu.create_scratchpad' is allowed per runtime sequence");
    ctx.param_synced = true;
    // A design that declares no parameter has nothing to sync (no aiex.scratchpad_parameter: the
    // scratchpad size would be 0, "size must be greater than 0.").
    if (ctx.net.scratchpad_params.empty())
        throw DesignError("sync_parameters() in a design that declares no ScratchpadParameter (the scratchpad "
                          "would have size 0: 'aiex.npu.create_scratchpad' op size must be greater than 0.)");
    model::RuntimeOp create;
    create.kind = model::RuntimeOp::Kind::CreateScratchpad;
    create.prov = {"runtime", "parameter sync"};
    ctx.net.sequence.push_back(create);
    for (const auto& [p, buf] : ctx.param_buffers) {
        model::RuntimeOp zero; // npu.write32(0): zero the destination before the additive update
        zero.kind = model::RuntimeOp::Kind::WriteBuffer;
        zero.buffer = buf;
        zero.data.assign(4, 0);
        zero.prov = {p->name, "parameter sync"};
        ctx.net.sequence.push_back(std::move(zero));
        model::RuntimeOp upd;
        upd.kind = model::RuntimeOp::Kind::UpdateFromScratchpad;
        upd.buffer = buf;
        upd.value = scratchpad_param_index(ctx, p);
        upd.prov = {p->name, "parameter sync"};
        ctx.net.sequence.push_back(std::move(upd));
    }
    for (int lock : ctx.param_sync_locks) {
        model::RuntimeOp set;
        set.kind = model::RuntimeOp::Kind::SetLock;
        set.lock = lock;
        set.value = 1;
        set.prov = {"runtime", "parameter sync"};
        ctx.net.sequence.push_back(std::move(set));
    }
}

int scratchpad_param_index(const ResolveContext& ctx, const ScratchpadParamState* p) { return ctx.param_index.at(p); }

} // namespace npusim::iron::detail
