#include "export/SequenceExporter.hpp"

#include "export/MlirTypes.hpp"
#include "export/ModuleExporter.hpp"
#include "resolve/SequenceLowering.hpp"

#include "npusim/model/Error.hpp"
#include "npusim/model/RegisterMap.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

namespace npusim::iron::detail::mlir {

namespace {

std::string list(const std::array<std::int64_t, 4>& v) {
    return fmt::format("[{}, {}, {}, {}]", v[0], v[1], v[2], v[3]);
}

std::string i64_array(const std::array<std::int64_t, 4>& v) {
    return fmt::format("array<i64: {}, {}, {}, {}>", v[0], v[1], v[2], v[3]);
}

// shim_dma_single_bd_task (python/aiex.py): 4-D sizes/strides, repeat_count = sizes[0] - 1,
// len = prod(sizes[1:]), issue_token = wait; outer dimensions of size 1 before the first larger one get
// stride 0 (RuntimeData.default_tap cleans the simple tiler's strides, iron-mlir-golden.md §0.5).
Op transfer_op(const RecordedTransfer& tr, int tensor_arg, const TensorType& tensor, int id) {
    auto sizes = tr.tap.sizes();
    auto strides = tr.tap.strides();
    for (std::size_t d = 0; d < 3 && sizes[d] == 1; ++d) strides[d] = 0;
    const std::int64_t len = sizes[1] * sizes[2] * sizes[3];
    Op bd;
    bd.text = {lit("aie.dma_bd("), ref(tensor_arg),
               lit(fmt::format(" : {} offset = {} len = {} sizes = {} strides = {})", mlir_memref_type(tensor),
                               tr.tap.offset(), len, list(sizes), list(strides)))};
    // DMABDOp (AIEOps.td): operands buffer, offset, len, sizes, strides (AttrSizedOperandSegments);
    // constant offset/len/sizes/strides are its static_* attributes.
    bd.gen =
        generic("aie.dma_bd", {tensor_arg},
                {"operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>",
                 fmt::format("static_offset = {} : i32", tr.tap.offset()), fmt::format("static_len = {} : i32", len),
                 "static_sizes = " + i64_array(sizes), "static_strides = " + i64_array(strides)});
    Op task;
    task.result = id;
    // A fifo's task names the fifo; shim_dma_single_bd_task names a Flow's shim_symbol (its
    // aie.shim_dma_allocation).
    const std::string& alloc = tr.endpoint ? tr.endpoint->fifo->name : tr.symbol;
    task.text = {lit(fmt::format("aiex.dma_configure_task_for @{}", alloc))};
    task.gen =
        generic("aiex.dma_configure_task_for", {}, {fmt::format("alloc = @{}", alloc)}, "index");
    task.regions.emplace_back();
    task.regions.back().ops.push_back(std::move(bd));
    task.regions.back().ops.push_back(Op{-1, {}, {lit("aie.end")}, {}, {}, generic("aie.end")});
    // DMABDOp's offset_parameter (AIEOps.td): the parameter whose value, in elements, the
    // lowering adds to the BD's address (python/iron/runtime/dmatask.py offset_parameter=).
    if (tr.offset_param) {
        const std::string attr = fmt::format("offset_parameter = @{}", tr.offset_param->name);
        task.regions.back().ops.front().tail = {lit(" {" + attr + "}")};
        task.regions.back().ops.front().gen.attrs.push_back(attr);
    }
    std::vector<std::string> attrs;
    if (tr.wait) attrs.push_back("issue_token = true");
    if (sizes[0] > 1) attrs.push_back(fmt::format("repeat_count = {} : i32", sizes[0] - 1));
    for (const auto& a : attrs) task.gen.attrs.push_back(a);
    if (!attrs.empty()) {
        std::string t = " {";
        for (std::size_t i = 0; i < attrs.size(); ++i) t += (i ? ", " : "") + attrs[i];
        task.tail = {lit(t + "}")};
    }
    return task;
}

// The register-level ops as IRON's aiex builders emit them (AIEX.td at 3ca0193: npu.write32 L807,
// npu.maskwrite32 L913, npu.sync L977, npu.address_patch L1006, npu.writebd L1196, npu.push_queue
// L779). A block write is exported word by word as npu.write32 (the same register writes; IRON's
// npu.blockwrite takes a memref.global this exporter does not emit); set_lock_value as the
// aiex.set_lock on the module's aie.lock (or, for a lock the module does not declare, the
// npu.write32 of its value register that aie-lower-set-lock makes of it, AIELowerSetLock.cpp
// L37-66, so that lock needs its tile and id).
template <class Constant>
void export_raw_op(const RecordedRawOp& r, const Program& program, const DeviceValues& values, Region& body,
                   Constant&& constant) {
    using K = RecordedRawOp::Kind;
    auto push = [&](const std::string& name, std::vector<int> operands, std::vector<std::string> attrs,
                    const std::string& pretty_tail) {
        Text t{lit(name + "(")};
        for (std::size_t i = 0; i < operands.size(); ++i) {
            if (i) t.push_back(lit(", "));
            t.push_back(ref(operands[i]));
        }
        std::string a;
        for (std::size_t i = 0; i < attrs.size(); ++i) a += (i ? ", " : "") + attrs[i];
        t.push_back(lit(")" + (a.empty() ? std::string() : " {" + a + "}") + pretty_tail));
        body.ops.push_back(Op{-1, {}, std::move(t), {}, {}, generic(name, std::move(operands), std::move(attrs))});
    };
    auto i32 = [&](std::int64_t v) { return constant(static_cast<std::int32_t>(v), "i32"); };
    auto tile_attrs = [](const std::optional<int>& c, const std::optional<int>& row) {
        std::vector<std::string> a;
        if (c) a.push_back(fmt::format("column = {} : i32", *c));
        if (row) a.push_back(fmt::format("row = {} : i32", *row));
        return a;
    };
    auto write32 = [&](std::uint32_t address, std::uint32_t value, const std::optional<int>& c,
                       const std::optional<int>& row) {
        push("aiex.npu.write32", {i32(address), i32(value)}, tile_attrs(c, row), " : i32, i32");
    };
    switch (r.kind) {
    case K::Write32: return write32(r.address, r.data.at(0), r.column, r.row);
    case K::BlockWrite:
        for (std::size_t i = 0; i < r.data.size(); ++i)
            write32(r.address + 4 * static_cast<std::uint32_t>(i), r.data[i], r.column, r.row);
        return;
    case K::MaskWrite32:
        return push("aiex.npu.maskwrite32", {i32(r.address), i32(r.data.at(0)), i32(r.mask)},
                    tile_attrs(r.column, r.row), " : i32, i32, i32");
    case K::WriteBd: {
        const auto& b = r.bd;
        std::vector<std::string> a;
        auto f = [&](const char* n, std::int64_t v) { a.push_back(fmt::format("{} = {} : i32", n, v)); };
        f("bd_id", b.bd_id), f("buffer_length", b.buffer_length), f("buffer_offset", b.buffer_offset);
        f("burst_length", b.burst_length), f("column", b.column), f("d0_size", b.d0_size), f("d0_stride", b.d0_stride);
        f("d0_zero_after", b.d0_zero_after), f("d0_zero_before", b.d0_zero_before), f("d1_size", b.d1_size);
        f("d1_stride", b.d1_stride), f("d1_zero_after", b.d1_zero_after), f("d1_zero_before", b.d1_zero_before);
        f("d2_size", b.d2_size), f("d2_stride", b.d2_stride), f("d2_zero_after", b.d2_zero_after);
        f("d2_zero_before", b.d2_zero_before), f("enable_packet", b.enable_packet);
        f("iteration_current", b.iteration_current), f("iteration_size", b.iteration_size);
        f("iteration_stride", b.iteration_stride), f("lock_acq_enable", b.lock_acq_enable);
        f("lock_acq_id", b.lock_acq_id), f("lock_acq_val", b.lock_acq_val), f("lock_rel_id", b.lock_rel_id);
        f("lock_rel_val", b.lock_rel_val), f("next_bd", b.next_bd), f("out_of_order_id", b.out_of_order_id);
        f("packet_id", b.packet_id), f("packet_type", b.packet_type), f("row", b.row);
        f("use_next_bd", b.use_next_bd), f("valid_bd", b.valid_bd);
        std::string text = "aiex.npu.writebd {";
        for (std::size_t i = 0; i < a.size(); ++i) text += (i ? ", " : "") + a[i];
        body.ops.push_back(Op{-1, {}, {lit(text + "}")}, {}, {}, generic("aiex.npu.writebd", {}, std::move(a))});
        return;
    }
    case K::AddressPatch: {
        const int plus = i32(r.arg_plus);
        std::vector<std::string> a{fmt::format("addr = {} : ui32", r.address), fmt::format("arg_idx = {} : i32", r.arg_idx)};
        body.ops.push_back(Op{-1,
                              {},
                              {lit("aiex.npu.address_patch("), ref(plus),
                               lit(fmt::format(" : i32) {{addr = {} : ui32, arg_idx = {} : i32}}", r.address, r.arg_idx))},
                              {},
                              {},
                              generic("aiex.npu.address_patch", {plus}, {a[0], a[1], "operandSegmentSizes = array<i32: 0, 1>"})});
        return;
    }
    case K::PushQueue: {
        const int bd = i32(r.bd_id), rep = i32(r.repeat_count);
        const char* dir = r.direction ? "MM2S" : "S2MM";
        std::vector<std::string> a{fmt::format("channel = {} : i32", r.channel), fmt::format("column = {} : i32", r.col),
                                   fmt::format("direction = 1 : i32"), fmt::format("issue_token = {}", r.issue_token),
                                   fmt::format("row = {} : i32", r.row_i)};
        a[2] = fmt::format("direction = {} : i32", r.direction);
        body.ops.push_back(Op{-1,
                              {},
                              {lit(fmt::format("aiex.npu.push_queue({}, {}, {} : {}) bd_id ", r.col, r.row_i, dir,
                                               r.channel)),
                               ref(bd), lit(" repeat "), ref(rep),
                               lit(fmt::format(" {{issue_token = {}}} : i32, i32", r.issue_token))},
                              {},
                              {},
                              generic("aiex.npu.push_queue", {rep, bd}, std::move(a))});
        return;
    }
    case K::Sync:
        return push("aiex.npu.sync",
                    {i32(r.col), i32(r.row_i), i32(r.direction), i32(r.channel), i32(r.column_num), i32(r.row_num)}, {},
                    " : i32, i32, i32, i32, i32, i32");
    case K::SetLock: {
        const auto& l = *r.lock;
        // A Lock of the module (aie.lock): aiex.set_lock on it, as IRON's set_lock_value emits it.
        if (const auto it = values.hw_locks.find(&l); it != values.hw_locks.end()) {
            body.ops.push_back(Op{-1,
                                  {},
                                  {lit("aiex.set_lock("), ref(it->second), lit(fmt::format(", {})", r.value))},
                                  {},
                                  {},
                                  generic("aiex.set_lock", {it->second}, {fmt::format("value = {} : i32", r.value)})});
            return;
        }
        if (!l.lock_id || !l.tile.col || !l.tile.row)
            throw DesignError(fmt::format("design '{}': cannot export {}: the lock needs a pinned tile and a lock_id "
                                          "(aie-lower-set-lock writes the lock's value register)",
                                          program.name(), r.describe()));
        const model::TileCoord t{*l.tile.col, *l.tile.row};
        const auto& dev = program.device();
        const auto offset = model::RegisterMap::of(dev).lock_value(dev.kind_at(t), *l.lock_id);
        return write32(offset, static_cast<std::uint32_t>(r.value), t.col, t.row);
    }
    }
}

} // namespace

Op export_sequence(const Program& program, const DeviceValues& values, ValueIds& ids,
                   std::vector<const ScratchpadParamState*>& offset_params) {
    const auto& rt = *program.runtime().state();
    SequenceRecorder rec;
    rec.tensors = rt.tensors;
    record_sequence_function(rt, rec, program.name());
    finish_task_groups(rt, rec);
    Op seq;
    seq.regions.emplace_back();
    Region& body = seq.regions.back();
    seq.text = {lit("aie.runtime_sequence(")};
    seq.gen = generic("aie.runtime_sequence"); // NoTerminator
    for (std::size_t i = 0; i < rt.tensors.size(); ++i) {
        const int a = ids.next();
        body.args.push_back(a);
        body.arg_types.push_back(mlir_memref_type(rt.tensors[i]));
        if (i) seq.text.push_back(lit(", "));
        seq.text.push_back(ref(a));
        seq.text.push_back(lit(": " + mlir_memref_type(rt.tensors[i])));
    }
    seq.text.push_back(lit(")"));
    std::vector<int> task_value(rec.transfers.size(), -1);
    auto constant = [&](std::int64_t v, const std::string& type) {
        Op c;
        c.result = ids.next();
        c.hint = type == "index" ? fmt::format("c{}", v) : fmt::format("c{}_{}", v, type);
        c.text = {lit(fmt::format("arith.constant {} : {}", v, type))};
        c.gen = generic("arith.constant", {}, {fmt::format("value = {} : {}", v, type)}, type);
        body.ops.push_back(std::move(c));
        return body.ops.back().result;
    };
    for (const auto& op : rec.ops) {
        switch (op.kind) {
        case RecordedOp::Kind::Start: {
            const auto& tr = rec.transfers[static_cast<std::size_t>(op.transfer)];
            // A task of chained BDs (or one BD whose outermost dim is an iteration, or repeated)
            // has no form in the single-BD task this exporter writes.
            if (tr.chain_passes > 0 && (!tr.chain_rest.empty() || tr.chain_passes > 1 || tr.tap.sizes()[0] > 1))
                throw DesignError(fmt::format("shim_dma_bd_chain('{}'): cannot export a task of {} chained BD(s) run "
                                              "{} time(s): the export writes single-BD tasks only",
                                              tr.symbol, tr.chain_rest.size() + 1, tr.chain_passes));
            if (tr.offset_param && std::find(offset_params.begin(), offset_params.end(), tr.offset_param.get()) ==
                                       offset_params.end())
                offset_params.push_back(tr.offset_param.get());
            const int t = task_value[static_cast<std::size_t>(op.transfer)] = ids.next();
            body.ops.push_back(transfer_op(tr, body.args[static_cast<std::size_t>(tr.tensor)],
                                           rt.tensors[static_cast<std::size_t>(tr.tensor)], t));
            body.ops.push_back(Op{
                -1, {}, {lit("aiex.dma_start_task("), ref(t), lit(")")}, {}, {}, generic("aiex.dma_start_task", {t})});
            break;
        }
        case RecordedOp::Kind::Await:
        case RecordedOp::Kind::Free: {
            const std::string what = op.kind == RecordedOp::Kind::Await ? "aiex.dma_await_task" : "aiex.dma_free_task";
            const int t = task_value[static_cast<std::size_t>(op.transfer)];
            body.ops.push_back(Op{-1, {}, {lit(what + "("), ref(t), lit(")")}, {}, {}, generic(what, {t})});
            break;
        }
        case RecordedOp::Kind::WriteBuffer: {
            const auto& w = rec.buffer_writes[static_cast<std::size_t>(op.transfer)];
            const auto& type = w.buffer->type;
            if (type.dtype != DType::i32 || w.offset % 4 != 0 || w.bytes.size() % 4 != 0)
                throw DesignError(fmt::format("buffer '{}': cannot export a runtime-sequence write of {} B at offset "
                                              "{} into {}: IRON writes whole i32 elements (rtp_buf[i] = v)",
                                              w.buffer->name, w.bytes.size(), w.offset, type.str()));
            auto it = values.buffers.find(w.buffer);
            if (it == values.buffers.end())
                throw DesignError(fmt::format("buffer '{}' is written by the runtime sequence but no worker uses it",
                                              w.buffer->name));
            for (std::size_t j = 0; j < w.bytes.size(); j += 4) {
                std::int32_t v;
                std::memcpy(&v, w.bytes.data() + j, 4);
                const std::uint64_t index = w.offset / 4 + j / 4;
                if (w.buffer->use_write_rtp) { // Buffer.__setitem__ -> aiex.npu.rtp_write
                    const int c = constant(v, "i32");
                    body.ops.push_back(Op{-1,
                                          {},
                                          {lit(fmt::format("aiex.npu.rtp_write(@{}, {}, ", w.buffer->name, index)),
                                           ref(c), lit(") : i32")},
                                          {},
                                          {},
                                          generic("aiex.npu.rtp_write", {c},
                                                  {fmt::format("buffer = @{}", w.buffer->name),
                                                   fmt::format("index = {} : ui32", index)})});
                } else { // without use_write_rtp: memref.store (index constant first, then the value)
                    const int i = constant(static_cast<std::int64_t>(index), "index");
                    const int c = constant(v, "i32");
                    body.ops.push_back(Op{-1,
                                          {},
                                          {lit("memref.store "), ref(c), lit(", "), ref(it->second), lit("["), ref(i),
                                           lit("] : " + mlir_memref_type(type))},
                                          {},
                                          {},
                                          generic("memref.store", {c, it->second, i})});
                }
            }
            break;
        }
        case RecordedOp::Kind::SyncParameters: // python/iron/runtime/runtime.py sync_parameters()
            body.ops.push_back(Op{-1,
                                  {},
                                  {lit("aiex.sync_scratchpad_parameters_from_host")},
                                  {},
                                  {},
                                  generic("aiex.sync_scratchpad_parameters_from_host")});
            break;
        case RecordedOp::Kind::Raw:
            export_raw_op(rec.raw_ops[static_cast<std::size_t>(op.transfer)], program, values, body, constant);
            break;
        case RecordedOp::Kind::SetBarrier: {
            const auto& s = rec.barrier_sets[static_cast<std::size_t>(op.transfer)];
            auto it = values.locks.find(s.barrier);
            if (it == values.locks.end())
                throw DesignError(fmt::format("WorkerRuntimeBarrier '{}' is set by the runtime sequence but no worker "
                                              "takes it",
                                              s.barrier->name));
            body.ops.push_back(Op{-1,
                                  {},
                                  {lit("aiex.set_lock("), ref(it->second), lit(fmt::format(", {})", s.value))},
                                  {},
                                  {},
                                  generic("aiex.set_lock", {it->second}, {fmt::format("value = {} : i32", s.value)})});
            break;
        }
        }
    }
    return seq;
}

} // namespace npusim::iron::detail::mlir
