#include "export/SequenceExporter.hpp"

#include "export/MlirTypes.hpp"
#include "export/ModuleExporter.hpp"
#include "resolve/SequenceLowering.hpp"

#include "npusim/model/Error.hpp"

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
