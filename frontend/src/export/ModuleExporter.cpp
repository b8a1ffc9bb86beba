#include "export/ModuleExporter.hpp"

#include "export/BodyRecorder.hpp"
#include "export/LowLevelExporter.hpp"
#include "export/MlirTypes.hpp"
#include "export/SequenceExporter.hpp"
#include "resolve/DepthRule.hpp"

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

Op buffer_op(int result, const BufferState& b, int tile) {
    Op op;
    op.result = result;
    op.hint = b.name;
    const std::string type = mlir_memref_type(b.type);
    op.text = {lit("aie.buffer("), ref(tile),
               lit(fmt::format(") {{sym_name = \"{}\"}} : {} {}", b.name, type,
                               b.init.empty() ? "" : "= " + dense_literal(b.type, b.init)))};
    std::vector<std::string> attrs{fmt::format("sym_name = \"{}\"", b.name)};
    if (!b.init.empty()) attrs.push_back("initial_value = " + dense_literal(b.type, b.init) + " : " + type);
    op.gen = generic("aie.buffer", {tile}, std::move(attrs), type);
    return op;
}

int ModuleExporter::worker_tile(const WorkerState* w) {
    auto it = worker_tiles_.find(w);
    if (it != worker_tiles_.end()) return it->second;
    const Tile& t = w->opts.tile;
    if (t.pinned()) {
        auto c = coord_tiles_.find({*t.col, *t.row});
        if (c != coord_tiles_.end()) return worker_tiles_[w] = c->second;
        return worker_tiles_[w] = coord_tiles_[{*t.col, *t.row}] = tile_op("CoreTile", t);
    }
    // A Tile the user also gives low-level objects is one logical tile with the worker's; the
    // AnyComputeTile singleton is copied per worker (worker.py), so it is never shared.
    if (t.logical != AnyComputeTile.logical) {
        if (auto l = logical_tiles_.find(t.logical); l != logical_tiles_.end()) return worker_tiles_[w] = l->second;
        return worker_tiles_[w] = logical_tiles_[t.logical] = tile_op("CoreTile", t);
    }
    return worker_tiles_[w] = tile_op("CoreTile", t);
}

int ModuleExporter::coord_tile(const Tile& t) {
    static const std::map<TileKind, std::string> kinds{
        {TileKind::Compute, "CoreTile"}, {TileKind::Mem, "MemTile"}, {TileKind::Shim, "ShimNOCTile"}};
    if (!t.pinned()) { // one aie.logical_tile per Tile, as device.py resolve_tile
        auto l = logical_tiles_.find(t.logical);
        if (l != logical_tiles_.end()) return l->second;
        const TileKind kind = t.kind ? *t.kind : t.row ? model::tile_kind_of_row(*t.row) : TileKind::Compute;
        return logical_tiles_[t.logical] = tile_op(kinds.at(kind), t);
    }
    auto c = coord_tiles_.find({*t.col, *t.row});
    if (c != coord_tiles_.end()) return c->second;
    return coord_tiles_[{*t.col, *t.row}] = tile_op(kinds.at(program_.device().kind_at(t.coord())), t);
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

void ModuleExporter::emit_tiles() {
    // Workers first, in Program order, then each fifo's producer and consumers (and delegate tile) in
    // name order.
    for (const auto& w : program_.workers()) worker_tile(w.state().get());
    for (auto* f : fifos_) {
        endpoint_tile(f->prod.get());
        for (auto& c : f->cons) endpoint_tile(c.get());
        // program.py resolve_program: a fifo's delegate tile follows its endpoints' tiles.
        if (f->delegate_tile) coord_tile(*f->delegate_tile);
    }
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
        for (const auto& l : w->locks) rec.add_lock(l->uid, values_.hw_locks.at(l.get()));
        for (const auto* p : declared_params()) rec.add_param(p->uid, p->name, p->dtype);
        bodies.emplace_back();
        rec.record(w->body, bodies.back());
        kernels_.push_back(rec.kernels());
    }
    std::set<std::string> kernels_done;
    for (std::size_t i = 0; i < workers.size(); ++i) {
        const auto* w = workers[i].state().get();
        for (const auto& b : w->buffers) {
            if (!buffers_done_.insert(b.get()).second) continue;
            device_.ops.push_back(buffer_op(values_.buffers.at(b.get()), *b, worker_tile(w)));
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
    LowLevelExporter low(*program_.runtime().state(), device_, ids_, values_,
                         [this](const Tile& t) { return coord_tile(t); });
    collect_fifos();
    emit_tiles();
    low.emit_tiles();
    emit_fifos();
    low.emit_flows();
    std::vector<const LockState*> worker_locks;
    for (const auto& w : program_.workers())
        for (const auto& l : w.state()->locks) worker_locks.push_back(l.get());
    low.emit_locks(worker_locks);
    low.emit_dma_buffers(buffers_done_);
    low.emit_switchboxes();
    std::vector<Region> bodies;
    emit_buffers_and_kernels(bodies);
    emit_cores(bodies);
    emit_cascades();
    low.emit_tile_dmas();
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
