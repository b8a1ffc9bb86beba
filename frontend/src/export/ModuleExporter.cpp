#include "export/ModuleExporter.hpp"

#include "export/BodyRecorder.hpp"
#include "export/MlirTypes.hpp"
#include "export/SequenceExporter.hpp"
#include "resolve/DepthRule.hpp"
#include "resolve/Padding.hpp"

#include "npusim/frontend/Runtime.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <set>
#include <stdexcept>

namespace npusim::iron::detail::mlir {

namespace {

std::string dims_text(const StreamDims& dims) {
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i)
        s += fmt::format("{}<size = {}, stride = {}>", i ? ", " : "", dims[i].first, dims[i].second);
    return s + "]";
}

std::string offsets_text(const std::vector<std::int64_t>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

std::string objectfifo_type(const TensorType& t) { return "!aie.objectfifo<" + mlir_memref_type(t) + ">"; }

const char* alloc_text(AllocScheme s) { return alloc_scheme_name(s); }

// The generic form's enum values: AIETileType, AIEDevice and ObjectFifoPort are I32EnumAttrs
// (include/aie/Dialect/AIE/IR/AIEAttrs.td), printed as their case's integer.
int tile_type_value(const std::string& kind) {
    static const std::map<std::string, int> v{{"CoreTile", 0}, {"MemTile", 1}, {"ShimNOCTile", 2}};
    return v.at(kind);
}

// Every device npusim models is a case (model/ device list); another name is a bug here.
int device_value(const std::string& device) {
    static const std::map<std::string, int> v{
        {"xcvc1902", 1},   {"xcve2302", 2},   {"xcve2802", 3},   {"npu1", 4},       {"npu1_1col", 5},
        {"npu1_2col", 6},  {"npu1_3col", 7},  {"npu2", 8},       {"npu2_1col", 9},  {"npu2_2col", 10},
        {"npu2_3col", 11}, {"npu2_4col", 12}, {"npu2_5col", 13}, {"npu2_6col", 14}, {"npu2_7col", 15}};
    auto it = v.find(device);
    if (it == v.end())
        throw std::logic_error("MLIR export: device '" + device + "' is not a case of mlir-aie's AIEDevice enum");
    return it->second;
}

} // namespace

ModuleExporter::ModuleExporter(const Program& program, const ExportOptions& opts) : program_(program), opts_(opts) {}

std::string ModuleExporter::worker_name(std::size_t i) const {
    const auto& n = program_.workers()[i].state()->name;
    return n.empty() ? fmt::format("worker_{}", i) : n;
}

int ModuleExporter::tile_op(const std::string& kind, const Tile& t) {
    static const std::map<std::string, std::string> hints{
        {"CoreTile", "logical_core"}, {"MemTile", "logical_mem"}, {"ShimNOCTile", "logical_shim_noc"}};
    Op op;
    op.result = ids_.next();
    op.hint = hints.at(kind);
    std::string text = fmt::format("aie.logical_tile<{}>({}, {})", kind, t.col ? std::to_string(*t.col) : "?",
                                   t.row ? std::to_string(*t.row) : "?");
    if (t.allocation_scheme && *t.allocation_scheme != AllocScheme::Default)
        text += fmt::format(" {{allocation_scheme = \"{}\"}}", alloc_text(*t.allocation_scheme));
    op.text = {lit(text)};
    std::vector<std::string> attrs{fmt::format("tile_type = {} : i32", tile_type_value(kind))};
    if (t.col) attrs.push_back(fmt::format("col = {} : i32", *t.col));
    if (t.row) attrs.push_back(fmt::format("row = {} : i32", *t.row));
    if (t.allocation_scheme && *t.allocation_scheme != AllocScheme::Default)
        attrs.push_back(fmt::format("allocation_scheme = \"{}\"", alloc_text(*t.allocation_scheme)));
    op.gen = generic("aie.logical_tile", {}, std::move(attrs), "index");
    device_.ops.push_back(std::move(op));
    return device_.ops.back().result;
}

int ModuleExporter::worker_tile(const WorkerState* w) {
    auto it = worker_tiles_.find(w);
    if (it != worker_tiles_.end()) return it->second;
    return worker_tiles_[w] = tile_op("CoreTile", w->opts.tile);
}

int ModuleExporter::endpoint_tile(const EndpointState* ep) {
    switch (ep->owner) {
    case OwnerKind::Worker: return worker_tile(ep->worker);
    case OwnerKind::Link: {
        auto it = link_tiles_.find(ep->link);
        if (it != link_tiles_.end()) return it->second;
        return link_tiles_[ep->link] = tile_op("MemTile", ep->link->tile);
    }
    case OwnerKind::Runtime:
    case OwnerKind::MemTile:
    case OwnerKind::None: break;
    }
    auto it = endpoint_tiles_.find(ep);
    if (it != endpoint_tiles_.end()) return it->second;
    // A runtime endpoint gets a fresh ShimNOCTile each time (iron-mlir-golden.md §0.1, 2.).
    return endpoint_tiles_[ep] = tile_op(ep->owner == OwnerKind::MemTile ? "MemTile" : "ShimNOCTile", ep->tile);
}

void ModuleExporter::collect_fifos() {
    std::set<FifoState*> seen;
    std::vector<FifoState*> todo;
    auto add = [&](FifoState* f) {
        if (f && seen.insert(f).second) todo.push_back(f);
    };
    for (const auto& w : program_.workers())
        for (auto* ep : w.state()->endpoints) add(ep->fifo);
    for (auto* ep : program_.runtime().state()->endpoints) add(ep->fifo);
    while (!todo.empty()) {
        FifoState* f = todo.back();
        todo.pop_back();
        fifos_.push_back(f);
        for (LinkState* l : {f->link_from_cons.get(), f->link_to_prod}) {
            if (!l) continue;
            for (auto* in : l->inputs) add(in);
            for (auto& out : l->outputs) add(out.get());
        }
    }
    std::sort(fifos_.begin(), fifos_.end(), [](const FifoState* a, const FifoState* b) { return a->name < b->name; });
}

void ModuleExporter::emit_tiles() {
    // Workers first, in Program order, then each fifo's producer and consumers in name order.
    for (const auto& w : program_.workers()) worker_tile(w.state().get());
    for (auto* f : fifos_) {
        endpoint_tile(f->prod.get());
        for (auto& c : f->cons) endpoint_tile(c.get());
    }
}

void ModuleExporter::emit_fifo(const FifoState* f) {
    if (emitted_[f]) return;
    emitted_[f] = true;
    // python/iron/dataflow/objectfifo.py ObjectFifo.resolve -> aie.py object_fifo.
    const int prod_tile = endpoint_tile(f->prod.get());
    Text t{lit(fmt::format("aie.objectfifo @{}(", f->name)), ref(prod_tile)};
    std::vector<int> operands{prod_tile};
    std::vector<std::string> from_stream; // per consumer, for the generic form
    if (!f->dims_to_stream.empty()) t.push_back(lit(" dimensionsToStream " + dims_text(f->dims_to_stream)));
    t.push_back(lit(", {"));
    std::vector<int> depths{declared_depth(*f->prod)}; // every consumer, used or not (unlike declared_depths)
    for (std::size_t i = 0; i < f->cons.size(); ++i) {
        const auto* c = f->cons[i].get();
        if (i) t.push_back(lit(", "));
        t.push_back(ref(endpoint_tile(c)));
        operands.push_back(endpoint_tile(c));
        const StreamDims& from = c->dims_from_stream.empty() ? f->default_dims_from_stream : c->dims_from_stream;
        if (!from.empty()) t.push_back(lit(" dimensionsFromStream " + dims_text(from)));
        from_stream.push_back(dims_text(from));
        depths.push_back(declared_depth(*c));
    }
    std::string depth;
    if (std::all_of(depths.begin(), depths.end(), [&](int d) { return d == depths[0]; })) {
        depth = fmt::format("{} : i32", depths[0]);
    } else {
        for (std::size_t i = 0; i < depths.size(); ++i) depth += fmt::format("{}{} : i32", i ? ", " : "", depths[i]);
        depth = "[" + depth + "]";
    }
    std::vector<std::string> attrs; // sorted by name below, as MLIR prints attribute dictionaries
    // Port::stream ends: upstream's `aie_stream = end` (0 producer, 1 consumer, 2 both) and
    // `aie_stream_port` (ObjectFifoCreateOp::set_aie_stream, python/iron/dataflow/objectfifo.py;
    // printed as in test/objectFifo-stateful-transform/aie_stream/*.mlir).
    const EndpointState* stream_cons = nullptr;
    for (const auto& c : f->cons)
        if (c->stream_port) stream_cons = c.get();
    if (f->prod->stream_port || stream_cons) {
        const int end = f->prod->stream_port ? (stream_cons ? 2 : 0) : 1;
        const int port = f->prod->stream_port ? *f->prod->stream_port : *stream_cons->stream_port;
        attrs.push_back(fmt::format("aie_stream = {} : i32", end));
        attrs.push_back(fmt::format("aie_stream_port = {} : i32", port));
    }
    if (f->iter_count > 0) attrs.push_back(fmt::format("iter_count = {} : i32", f->iter_count));
    if (!f->pad_dimensions.empty()) {
        std::string p;
        for (std::size_t i = 0; i < f->pad_dimensions.size(); ++i)
            p += fmt::format("{}<const_pad_before = {}, const_pad_after = {}>", i ? ", " : "",
                             f->pad_dimensions[i].first, f->pad_dimensions[i].second);
        attrs.push_back("padDimensions = #aie<bd_pad_layout_array[" + p + "]>");
    }
    // objectfifo.py _get_object_fifo: the per-element pad_value packed into the register's 32-bit
    // word (pack_pad_value), e.g. 7 on i8 elements is 0x07070707.
    if (f->pad_value != 0)
        attrs.push_back(fmt::format(
            "padValue = {} : i32",
            static_cast<std::int32_t>(pack_pad_value(f->pad_value, model::dtype_bytes(f->obj_type.dtype)))));
    if (f->repeat_count) attrs.push_back(fmt::format("repeat_count = {} : i32", *f->repeat_count));
    if (f->via_dma) attrs.push_back("via_DMA = true");
    // prod(channel=)/cons(channel=) (Port::dma(n)): ObjectFifo.resolve stamps the producer's pin as
    // `prod_dma_channel` and, when any consumer is pinned, every consumer's channel (-1: auto-assign)
    // as `cons_dma_channels` (python/iron/dataflow/objectfifo.py ObjectFifo.resolve ->
    // python/dialects/aie.py set_prod_dma_channel / set_cons_dma_channels; ObjectFifoCreateOp's
    // $prod_dma_channel / $cons_dma_channels in AIEOps.td; printed as in
    // test/python/objFifo_iron_dma_channel_pin.py).
    if (f->prod->channel) attrs.push_back(fmt::format("prod_dma_channel = {} : i32", *f->prod->channel));
    if (std::any_of(f->cons.begin(), f->cons.end(), [](const auto& c) { return c->channel.has_value(); })) {
        std::vector<int> chans;
        for (const auto& c : f->cons) chans.push_back(c->channel.value_or(-1));
        attrs.push_back(fmt::format("cons_dma_channels = array<i32: {}>", fmt::join(chans, ", ")));
    }
    // MLIR prints an attribute dictionary sorted by name.
    std::sort(attrs.begin(), attrs.end(), [](const std::string& a, const std::string& b) {
        return a.substr(0, a.find(" = ")) < b.substr(0, b.find(" = "));
    });
    std::string text = fmt::format("}}, {})", depth);
    if (!attrs.empty()) {
        text += " {";
        for (std::size_t i = 0; i < attrs.size(); ++i) text += (i ? ", " : "") + attrs[i];
        text += "}";
    }
    text += " : " + objectfifo_type(f->obj_type);
    // ODS prints a space before each of the two trailing custom directives (consumer type, init
    // values), also when they print nothing (iron-mlir-golden.md §0.3).
    text += " ";
    if (f->consumer_obj_type) text += "-> " + objectfifo_type(*f->consumer_obj_type);
    text += " ";
    if (!f->init_values.empty()) {
        text += "= [";
        for (std::size_t i = 0; i < f->init_values.size(); ++i)
            text +=
                (i ? ", " : "") + dense_literal(f->obj_type, f->init_values[i]) + " : " + mlir_memref_type(f->obj_type);
        text += "]";
    }
    t.push_back(lit(text));
    // The generic form: ObjectFifoCreateOp's arguments (AIEOps.td) by name; the layouts, which the
    // custom directives print inline, are the #aie attributes they are.
    attrs.push_back(fmt::format("sym_name = \"{}\"", f->name));
    attrs.push_back("elemNumber = " + depth);
    attrs.push_back("elemType = " + objectfifo_type(f->obj_type));
    attrs.push_back("dimensionsToStream = #aie<bd_dim_layout_array" + dims_text(f->dims_to_stream) + ">");
    attrs.push_back("dimensionsFromStreamPerConsumer = #aie<bd_dim_layout_array_array[" +
                    fmt::format("{}", fmt::join(from_stream, ", ")) + "]>");
    if (f->consumer_obj_type) attrs.push_back("consumerElemType = " + objectfifo_type(*f->consumer_obj_type));
    if (!f->init_values.empty()) {
        std::vector<std::string> init;
        for (const auto& v : f->init_values)
            init.push_back(dense_literal(f->obj_type, v) + " : " + mlir_memref_type(f->obj_type));
        attrs.push_back(fmt::format("initValues = [{}]", fmt::join(init, ", ")));
    }
    Op op{-1, {}, std::move(t), {}, {}, generic("aie.objectfifo", std::move(operands), std::move(attrs))};
    device_.ops.push_back(std::move(op));
    for (const LinkState* l : {f->link_to_prod, f->link_from_cons.get()})
        if (l) emit_link(l);
}

void ModuleExporter::emit_link(const LinkState* l) {
    if (links_emitted_[l]) return;
    links_emitted_[l] = true;
    // ObjectFifoLink.resolve: the link's other fifos, then aie.objectfifo.link.
    for (auto* in : l->inputs) emit_fifo(in);
    for (auto& out : l->outputs) emit_fifo(out.get());
    std::string ins, outs;
    for (auto* in : l->inputs) ins += (ins.empty() ? "@" : ", @") + in->name;
    for (auto& out : l->outputs) outs += (outs.empty() ? "@" : ", @") + out->name;
    std::string src = "[]", dst = "[]";
    switch (l->kind) {
    case LinkState::Kind::Forward: dst = "[0]"; break; // forward() is split([0])
    case LinkState::Kind::Split: dst = offsets_text(l->offsets); break;
    case LinkState::Kind::Join: src = offsets_text(l->offsets); break;
    }
    device_.ops.push_back(Op{-1,
                             {},
                             {lit(fmt::format("aie.objectfifo.link [{}] -> [{}]({} {})", ins, outs, src, dst))},
                             {},
                             {},
                             generic("aie.objectfifo.link", {},
                                     {fmt::format("fifoIns = [{}]", ins), fmt::format("fifoOuts = [{}]", outs),
                                      "src_offsets = " + src, "dst_offsets = " + dst})});
}

void ModuleExporter::emit_fifos() {
    for (auto* f : fifos_) emit_fifo(f);
}

void ModuleExporter::emit_buffers_and_kernels(std::vector<Region>& bodies) {
    const auto& workers = program_.workers();
    // Values first: bodies refer to buffers and locks that are printed before them.
    for (const auto& w : workers)
        for (const auto& b : w.state()->buffers)
            if (!values_.buffers.count(b.get())) values_.buffers[b.get()] = ids_.next();
    std::map<const BarrierState*, const WorkerState*> barrier_owner;
    for (std::size_t i = 0; i < workers.size(); ++i)
        for (const auto& b : workers[i].state()->barriers) {
            auto [it, fresh] = barrier_owner.emplace(b.get(), workers[i].state().get());
            if (!fresh)
                throw DesignError(fmt::format(
                    "worker '{}': cannot export WorkerRuntimeBarrier '{}', which another worker also takes: IRON "
                    "gives each worker's barrier argument its own aie.lock and the export cannot tell which one "
                    "set() means",
                    worker_name(i), b->name));
            values_.locks[b.get()] = ids_.next();
        }
    for (std::size_t i = 0; i < workers.size(); ++i) {
        const auto* w = workers[i].state().get();
        BodyRecorder rec(worker_name(i), ids_);
        for (auto* ep : w->endpoints) {
            const bool producer = ep->role == Role::Producer;
            const TensorType elem =
                !producer && ep->fifo->consumer_obj_type ? *ep->fifo->consumer_obj_type : ep->fifo->obj_type;
            rec.add_port(ep->uid, RecordedPort{ep->fifo->name, producer, elem});
        }
        for (const auto& b : w->buffers) rec.add_buffer(b->uid, values_.buffers.at(b.get()), b->type, b->name);
        for (const auto& b : w->barriers) rec.add_lock(b->uid, values_.locks.at(b.get()));
        for (const auto* p : declared_params()) rec.add_param(p->uid, p->name, p->dtype);
        bodies.emplace_back();
        rec.record(w->body, bodies.back());
        kernels_.push_back(rec.kernels());
    }
    std::set<const BufferState*> buffers_done;
    std::set<std::string> kernels_done;
    for (std::size_t i = 0; i < workers.size(); ++i) {
        const auto* w = workers[i].state().get();
        for (const auto& b : w->buffers) {
            if (!buffers_done.insert(b.get()).second) continue;
            // python/iron/buffer.py Buffer.resolve -> aie.py buffer.
            Op op;
            op.result = values_.buffers.at(b.get());
            op.hint = b->name;
            op.text = {lit("aie.buffer("), ref(worker_tile(w)),
                       lit(fmt::format(") {{sym_name = \"{}\"}} : {} {}", b->name, mlir_memref_type(b->type),
                                       b->init.empty() ? "" : "= " + dense_literal(b->type, b->init)))};
            std::vector<std::string> attrs{fmt::format("sym_name = \"{}\"", b->name)};
            if (!b->init.empty())
                attrs.push_back("initial_value = " + dense_literal(b->type, b->init) + " : " +
                                mlir_memref_type(b->type));
            op.gen = generic("aie.buffer", {worker_tile(w)}, std::move(attrs), mlir_memref_type(b->type));
            device_.ops.push_back(std::move(op));
        }
        for (const auto& k : kernels_[i]) {
            if (!kernels_done.insert(k.name).second) continue;
            // python/iron/kernel.py Kernel.resolve: func.func private with link_with (#2922).
            std::string sig;
            for (std::size_t a = 0; a < k.types.size(); ++a)
                sig += (a ? ", " : "") +
                       (k.types[a].is_tensor ? mlir_memref_type(k.types[a].tensor) : element_type(k.types[a].dtype));
            auto obj = opts_.link_with.find(k.name);
            const std::string link = obj != opts_.link_with.end() ? obj->second : k.name + ".o";
            Op decl{
                -1,
                {},
                {lit(fmt::format("func.func private @{}({}) attributes {{link_with = \"{}\"}}", k.name, sig, link))},
                {},
                {},
                generic("func.func", {},
                        {fmt::format("function_type = ({}) -> ()", sig), fmt::format("link_with = \"{}\"", link),
                         fmt::format("sym_name = \"{}\"", k.name), "sym_visibility = \"private\""})};
            decl.gen.empty_region = true; // a declaration: its body region is empty
            device_.ops.push_back(std::move(decl));
        }
    }
    // An object file given for a kernel the design does not call would silently link nothing.
    for (const auto& [name, obj] : opts_.link_with)
        if (opts_.refuse_unknown_link_with && !kernels_done.count(name))
            throw DesignError(fmt::format("--link-with {}={}: the design calls no kernel '{}' (its kernels: {})", name,
                                          obj, name,
                                          kernels_done.empty() ? std::string("none")
                                                               : fmt::format("{}", fmt::join(kernels_done, ", "))));
}

void ModuleExporter::emit_cores(std::vector<Region>& bodies) {
    const auto& workers = program_.workers();
    for (std::size_t i = 0; i < workers.size(); ++i) {
        const auto* w = workers[i].state().get();
        for (const auto& b : w->barriers) // python/iron/worker.py Worker.resolve: lock(my_tile), no init
            device_.ops.push_back(Op{values_.locks.at(b.get()),
                                     {},
                                     {lit("aie.lock("), ref(worker_tile(w)), lit(")")},
                                     {},
                                     {},
                                     generic("aie.lock", {worker_tile(w)}, {}, "index")});
        Op core;
        core.result = ids_.next();
        core.text = {lit("aie.core("), ref(worker_tile(w)), lit(")")};
        Region r;
        auto constant = [&](std::int64_t v) {
            Op c;
            c.result = ids_.next();
            c.hint = fmt::format("c{}", v);
            c.text = {lit(fmt::format("arith.constant {} : index", v))};
            c.gen = generic("arith.constant", {}, {fmt::format("value = {} : index", v)}, "index");
            r.ops.push_back(std::move(c));
            return r.ops.back().result;
        };
        // Worker.resolve: for _ in range_(sys.maxsize if while_true else 1): core_fn(*fn_args).
        const int lo = constant(0);
        const int hi = constant(w->opts.while_true ? std::numeric_limits<std::int64_t>::max() : 1);
        const int step = constant(1);
        Op loop;
        loop.regions.push_back(std::move(bodies[i]));
        const int iv = ids_.next();
        loop.regions.back().args.push_back(iv);
        loop.regions.back().arg_types.push_back("index");
        loop.text = {lit("scf.for "), ref(iv), lit(" = "), ref(lo), lit(" to "), ref(hi), lit(" step "), ref(step)};
        loop.gen = generic("scf.for", {lo, hi, step}, {}, {}, "scf.yield");
        r.ops.push_back(std::move(loop));
        r.ops.push_back(Op{-1, {}, {lit("aie.end")}, {}, {}, generic("aie.end")});
        core.regions.push_back(std::move(r));
        // IRON passes stack_size only when given; its default is the target's 1024 bytes.
        core.gen = generic("aie.core", {worker_tile(w)}, {}, "index");
        if (w->opts.stack_size != 0x400) {
            core.tail = {lit(fmt::format(" {{stack_size = {} : i32}}", w->opts.stack_size))};
            core.gen.attrs.push_back(fmt::format("stack_size = {} : i32", w->opts.stack_size));
        }
        device_.ops.push_back(std::move(core));
    }
}

void ModuleExporter::emit_cascades() {
    // python/iron/program.py: cascade flows after all cores, from each worker's outgoing cascades.
    for (const auto& w : program_.workers())
        for (const auto& dst : w.state()->outgoing_cascades)
            if (auto d = dst.lock())
                device_.ops.push_back(
                    Op{-1,
                       {},
                       {lit("aie.cascade_flow("), ref(worker_tile(w.state().get())), lit(", "),
                        ref(worker_tile(d.get())), lit(")")},
                       {},
                       {},
                       generic("aie.cascade_flow", {worker_tile(w.state().get()), worker_tile(d.get())})});
}

// The low-level API (Runtime.add_flow / add_lock / add_tile_dma) would need aie.flow, aie.lock and
// aie.mem/aie.memtile_dma with hand-written aie.dma_bd chains, which the exporter does not write:
// such a design is refused rather than exported without them.
void ModuleExporter::refuse_low_level() const {
    const auto& rt = *program_.runtime().state();
    if (rt.flows.empty() && rt.packet_flows.empty() && rt.locks.empty() && rt.tile_dmas.empty()) return;
    std::vector<std::string> parts;
    if (!rt.flows.empty()) parts.push_back(fmt::format("{} Flow(s)", rt.flows.size()));
    if (!rt.packet_flows.empty()) parts.push_back(fmt::format("{} PacketFlow(s)", rt.packet_flows.size()));
    if (!rt.locks.empty()) parts.push_back(fmt::format("Lock '{}'", rt.locks.front()->name));
    if (!rt.tile_dmas.empty()) parts.push_back(fmt::format("TileDma '{}'", rt.tile_dmas.front()->name));
    throw DesignError(fmt::format("design '{}': cannot export the low-level API ({}): aie.flow, "
                                  "aie.packet_flow, aie.lock and hand-written aie.dma_bd chains are not exported",
                                  program_.name(), fmt::join(parts, ", ")));
}

std::vector<const ScratchpadParamState*> ModuleExporter::declared_params() const {
    std::vector<const ScratchpadParamState*> out;
    for (const auto& w : program_.workers())
        for (const auto& p : w.state()->params)
            if (std::find(out.begin(), out.end(), p.get()) == out.end()) out.push_back(p.get());
    return out;
}

// aiex.scratchpad_parameter @name : T (AIEX.td ScratchpadParameterOp: sym_name, type).
Op ModuleExporter::param_decl(const ScratchpadParamState& p) {
    const std::string ty = element_type(p.dtype);
    return Op{-1,
              {},
              {lit(fmt::format("aiex.scratchpad_parameter @{} : {}", p.name, ty))},
              {},
              {},
              generic("aiex.scratchpad_parameter", {}, {fmt::format("sym_name = \"{}\"", p.name), "type = " + ty})};
}

Op ModuleExporter::build() {
    if (program_.trace_options() && program_.trace_options()->trace_size > 0)
        throw DesignError(fmt::format("design '{}': cannot export enable_trace: the trace configuration IRON emits "
                                      "(aie.trace ops) is not exported; export the design without trace",
                                      program_.name()));
    const auto net = program_.resolve(opts_.resolve); // what the toolchain rejects is not exported
    refuse_low_level();
    collect_fifos();
    emit_tiles();
    emit_fifos();
    std::vector<Region> bodies;
    emit_buffers_and_kernels(bodies);
    emit_cores(bodies);
    emit_cascades();
    std::vector<const ScratchpadParamState*> offset_params;
    device_.ops.push_back(export_sequence(program_, values_, ids_, offset_params));
    Op device;
    device.text = {lit(fmt::format("aie.device({})", program_.device().name))};
    // DeviceOp's region ends in the aie.end its pretty form elides (SingleBlockImplicitTerminator).
    device.gen = generic("aie.device", {}, {fmt::format("device = {} : i32", device_value(program_.device().name))}, {},
                         "aie.end");
    device.regions.push_back(std::move(device_));
    Op module;
    module.text = {lit("module")};
    module.gen = generic("builtin.module");
    module.regions.emplace_back();
    // python/iron/program.py resolve_program: the ScratchpadParameters among the workers' fn_args
    // at module scope before the device, those only the sequence names (offset_parameter=) after it.
    const auto declared = declared_params();
    for (const auto* p : declared) module.regions.back().ops.push_back(param_decl(*p));
    module.regions.back().ops.push_back(std::move(device));
    for (const auto* p : offset_params)
        if (std::find(declared.begin(), declared.end(), p) == declared.end())
            module.regions.back().ops.push_back(param_decl(*p));
    return module;
}

} // namespace npusim::iron::detail::mlir

namespace npusim::iron {

std::string export_mlir(const Program& program, const ExportOptions& opts) {
    detail::mlir::ModuleExporter ex(program, opts);
    return detail::mlir::print_module(ex.build(), opts.generic);
}

} // namespace npusim::iron
