#include "Resolver.hpp"

#include "BodyTracer.hpp"
#include "StreamRouter.hpp"
#include "TileMemoryAllocator.hpp"
#include "npusim/model/AddressPattern.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <functional>

namespace npusim::iron::detail {

using model::Direction;
using model::TileCoord;
using model::TileKind;

namespace {
std::string tile_str(TileCoord t) { return model::to_string(t); }
} // namespace

Resolver::Resolver(const Program& program, const ResolveOptions& opts)
    : program_(program), opts_(opts), dev_(program.device()) {}

model::Netlist Resolver::run() {
    net_.device = &dev_;
    net_.design = program_.name();
    collect();
    trace_bodies();
    place_workers();
    place_links();
    for (auto* f : fifos_) lower_fifo(f);
    for (auto& l : links_) lower_link(l);
    allocate_memory();
    route_flows();
    record_sequence();
    return std::move(net_);
}

// ---------------------------------------------------------------------------------------------
// collect: workers in Program order, every fifo reachable from their handles, the runtime's
// handles and links; names must be unique.
void Resolver::collect() {
    std::set<WorkerState*> seen_workers;
    for (std::size_t i = 0; i < program_.workers().size(); ++i) {
        auto* w = program_.workers()[i].state().get();
        if (!seen_workers.insert(w).second) throw DesignError(fmt::format("worker '{}' is listed twice in the Program", w->name));
        if (w->name.empty()) w->name = fmt::format("worker_{}", i);
        workers_.push_back(w);
    }
    std::set<FifoState*> seen;
    std::function<void(FifoState*)> visit = [&](FifoState* f) {
        if (!seen.insert(f).second) return;
        fifos_.push_back(f);
        if (f->link_from_cons) {
            for (auto* in : f->link_from_cons->inputs) visit(in);
            for (auto& out : f->link_from_cons->outputs) visit(out.get());
        }
        if (f->link_to_prod) {
            for (auto* in : f->link_to_prod->inputs) visit(in);
        }
    };
    for (auto* w : workers_)
        for (auto* ep : w->endpoints) visit(ep->fifo);
    for (auto* ep : program_.runtime().state()->endpoints) visit(ep->fifo);
    std::sort(fifos_.begin(), fifos_.end(), [](auto* a, auto* b) { return a->name < b->name; });
    for (std::size_t i = 1; i < fifos_.size(); ++i)
        if (fifos_[i]->name == fifos_[i - 1]->name)
            throw DesignError(fmt::format("two different fifos are named '{}'; fifo names must be unique", fifos_[i]->name));
    std::set<WorkerState*> listed(workers_.begin(), workers_.end());
    for (auto* f : fifos_) {
        check_object(f);
        if (!f->prod || f->prod->owner == OwnerKind::None)
            throw DesignError(fmt::format("fifo '{}' has no producer: pass its prod() handle to a Worker or the Runtime", f->name));
        int consumers = 0;
        for (auto& c : f->cons)
            if (c->owner != OwnerKind::None) ++consumers;
        if (consumers == 0)
            throw DesignError(fmt::format("fifo '{}' has no consumer: pass a cons() handle to a Worker or the Runtime", f->name));
        auto check_worker = [&](EndpointState* ep) {
            if (ep->owner == OwnerKind::Worker && !listed.count(ep->worker))
                throw DesignError(fmt::format("{} belongs to worker '{}', which is not in the Program's workers",
                                              ep->describe(), ep->worker->name.empty() ? "<unnamed>" : ep->worker->name));
        };
        check_worker(f->prod.get());
        for (auto& c : f->cons) check_worker(c.get());
        if (f->link_from_cons && !links_.empty() && link_index_.count(f->link_from_cons.get())) continue;
        if (f->link_from_cons) {
            link_index_[f->link_from_cons.get()] = links_.size();
            links_.push_back(LinkPlan{f->link_from_cons.get(), {}, {}, {}});
        }
    }
}

void Resolver::check_object(FifoState* f) const {
    if (f->obj_type.bytes() % 4 != 0)
        throw DesignError(fmt::format("fifo '{}': object type {} is {} B; DMA transfers move whole 32-bit words, so an "
                                      "object must be a multiple of 4 bytes",
                                      f->name, f->obj_type.str(), f->obj_type.bytes()));
}

// ---------------------------------------------------------------------------------------------
// trace: run each body once against scratch memory to learn the largest acquire per port.
void Resolver::trace_bodies() {
    for (auto* w : workers_) {
        BodyTracer tracer(w->name, opts_.trace_op_budget);
        for (auto* ep : w->endpoints) {
            TracedPort p;
            p.describe = ep->describe();
            p.depth = ep->depth.value_or(ep->fifo->depth);
            p.elem_bytes = ep->fifo->obj_type.bytes();
            tracer.add_port(ep->uid, std::move(p));
        }
        for (const auto& b : w->buffers) tracer.add_buffer(b->uid, b->type.bytes());
        if (!w->body) throw DesignError(fmt::format("worker '{}' has no body", w->name));
        tracer.run(w->body);
        for (const auto& [key, port] : tracer.ports()) max_acquire_[key] = port.max_acquire;
    }
}

// ---------------------------------------------------------------------------------------------
// placement: pinned workers first, then unpinned ones on the first free compute tile, column by
// column (left to right), bottom to top within a column.
void Resolver::place_workers() {
    for (auto* w : workers_) {
        if (!w->opts.tile.pinned()) continue;
        const TileCoord t = w->opts.tile.coord();
        if (!dev_.contains(t) || dev_.kind_at(t) != TileKind::Compute)
            throw DesignError(fmt::format("worker '{}': tile {} is not a compute tile of {} ({} columns, compute rows 2-{})",
                                          w->name, tile_str(t), dev_.name, dev_.cols, dev_.rows - 1));
        if (!worker_tiles_.insert(t).second)
            throw DesignError(fmt::format("worker '{}': tile {} already runs another worker", w->name, tile_str(t)));
        worker_tile_[w] = t;
    }
    const auto compute = dev_.tiles_of(TileKind::Compute);
    for (auto* w : workers_) {
        if (w->opts.tile.pinned()) continue;
        auto it = std::find_if(compute.begin(), compute.end(), [&](TileCoord t) { return !worker_tiles_.count(t); });
        if (it == compute.end())
            throw DesignError(fmt::format("worker '{}': no free compute tile left on {} ({} compute tiles, {} workers)", w->name,
                                          dev_.name, compute.size(), workers_.size()));
        worker_tiles_.insert(*it);
        worker_tile_[w] = *it;
    }
    for (auto* w : workers_) {
        model::CoreProgram core;
        core.worker = w->name;
        core.tile = worker_tile_[w];
        core.body = w->body;
        core.while_true = w->opts.while_true;
        core.stack_bytes = w->opts.stack_size;
        worker_core_[w] = static_cast<int>(net_.cores.size());
        net_.cores.push_back(std::move(core));
    }
    // Buffers: on their tile, or on the tile of the worker using them; the core must reach them.
    for (auto* w : workers_) {
        const TileCoord wt = worker_tile_[w];
        for (const auto& b : w->buffers) {
            const TileCoord bt = b->tile && b->tile->pinned() ? b->tile->coord() : wt;
            if (!dev_.contains(bt) || dev_.kind_at(bt) != TileKind::Compute)
                throw DesignError(fmt::format("buffer '{}': tile {} is not a compute tile of {}", b->name, tile_str(bt), dev_.name));
            if (!dev_.core_can_access(wt, bt))
                throw DesignError(fmt::format("buffer '{}' on {} is not reachable from worker '{}' on {} (a core reaches its own, "
                                              "west, north and south memory)",
                                              b->name, tile_str(bt), w->name, tile_str(wt)));
            auto it = buffer_of_.find(b->uid);
            if (it == buffer_of_.end()) {
                const int idx = add_buffer(bt, b->name, b->type.bytes(), {b->name, "buffer"});
                net_.buffers[static_cast<std::size_t>(idx)].init = b->init;
                it = buffer_of_.emplace(b->uid, idx).first;
            }
            core_of(w).buffers.push_back({b->uid, it->second});
        }
    }
}

model::CoreProgram& Resolver::core_of(WorkerState* w) { return net_.cores[static_cast<std::size_t>(worker_core_.at(w))]; }

// Links go on their requested tile, or on the mem tile (or free compute tile) nearest to the
// column of the compute tiles they serve, with enough free DMA channels.
void Resolver::place_links() {
    // Channels the links placed so far will take on each tile (allocated later, in fifo order).
    std::map<TileCoord, std::pair<int, int>> reserved;
    for (auto& plan : links_) {
        auto* link = plan.link;
        const int need_in = static_cast<int>(link->inputs.size());
        const int need_out = static_cast<int>(link->outputs.size());
        const std::string who = fmt::format("link of fifo '{}'", link->inputs.front()->name);
        if (link->tile.pinned()) {
            const TileCoord t = link->tile.coord();
            if (!dev_.contains(t) || dev_.kind_at(t) == TileKind::Shim)
                throw DesignError(fmt::format("{}: tile {} is not a mem or compute tile of {}", who, tile_str(t), dev_.name));
            plan.tile = t;
            reserved[t].first += need_in;
            reserved[t].second += need_out;
            continue;
        }
        int col = -1;
        auto consider = [&](EndpointState* ep) {
            if (col < 0 && ep && ep->owner == OwnerKind::Worker) col = worker_tile_[ep->worker].col;
            if (col < 0 && ep && ep->owner == OwnerKind::Runtime && ep->tile.pinned()) col = ep->tile.coord().col;
        };
        for (auto* in : link->inputs) consider(in->prod.get());
        for (auto& out : link->outputs)
            for (auto& c : out->cons) consider(c.get());
        const TileKind kind = link->tile.kind.value_or(TileKind::Mem);
        std::vector<TileCoord> candidates = dev_.tiles_of(kind);
        if (col >= 0) {   // nearest to the column of the cores it serves
            std::stable_sort(candidates.begin(), candidates.end(),
                             [&](TileCoord a, TileCoord b) { return std::abs(a.col - col) < std::abs(b.col - col); });
        } else {          // only shim endpoints: the least loaded tile, so such links spread over columns
            auto load = [&](TileCoord t) {
                const auto& r = reserved[t];
                return static_cast<int>(use_[t].s2mm.size() + use_[t].mm2s.size()) + r.first + r.second;
            };
            std::stable_sort(candidates.begin(), candidates.end(), [&](TileCoord a, TileCoord b) { return load(a) < load(b); });
        }
        bool placed = false;
        for (auto t : candidates) {
            if (kind == TileKind::Compute && worker_tiles_.count(t)) continue;
            auto& r = reserved[t];
            const int used_in = static_cast<int>(use_[t].s2mm.size()) + r.first;
            const int used_out = static_cast<int>(use_[t].mm2s.size()) + r.second;
            if (used_in + need_in <= dev_.dma_channels(t, Direction::S2MM) &&
                used_out + need_out <= dev_.dma_channels(t, Direction::MM2S)) {
                plan.tile = t;
                placed = true;
                r.first += need_in;   // later links see these channels as taken
                r.second += need_out;
                break;
            }
        }
        if (!placed)
            throw DesignError(fmt::format("{}: no {} tile with {} free S2MM and {} free MM2S DMA channels on {}", who,
                                          model::tile_kind_name(kind), need_in, need_out, dev_.name));
        if (kind == TileKind::Compute) worker_tiles_.insert(plan.tile);
    }
}

// ---------------------------------------------------------------------------------------------
// resources

int Resolver::alloc_channel(TileCoord t, Direction d, const std::string& who) {
    auto& u = use_[t];
    auto& v = d == Direction::S2MM ? u.s2mm : u.mm2s;
    const int n = dev_.dma_channels(t, d);
    if (static_cast<int>(v.size()) >= n) {
        std::string users;
        for (const auto& s : v) users += (users.empty() ? "" : ", ") + s;
        throw DesignError(fmt::format("{} tile {}: {} needs a {} DMA channel but all {} are in use (by {})",
                                      model::tile_kind_name(dev_.kind_at(t)), tile_str(t), who, model::direction_name(d), n,
                                      users));
    }
    v.push_back(who);
    return static_cast<int>(v.size()) - 1;
}

int Resolver::add_lock(TileCoord t, const std::string& name, int init, model::Provenance prov) {
    auto& u = use_[t];
    const int max_locks = dev_.resources(t).locks;
    if (u.locks >= max_locks)
        throw DesignError(fmt::format("{} tile {}: {} needs a lock but all {} locks are in use",
                                      model::tile_kind_name(dev_.kind_at(t)), tile_str(t), prov.describe(), max_locks));
    if (init < 0 || init > dev_.resources(t).lock_max_value)
        throw DesignError(fmt::format("{}: lock '{}' initial value {} is outside 0..{}", prov.describe(), name, init,
                                      dev_.resources(t).lock_max_value));
    model::NetLock l;
    l.name = name;
    l.tile = t;
    l.id = u.locks++;
    l.init = init;
    l.prov = std::move(prov);
    net_.locks.push_back(std::move(l));
    return static_cast<int>(net_.locks.size()) - 1;
}

int Resolver::add_buffer(TileCoord t, const std::string& name, std::uint64_t bytes, model::Provenance prov) {
    model::NetBuffer b;
    b.name = name;
    b.tile = t;
    b.bytes = static_cast<std::uint32_t>(bytes);
    b.prov = std::move(prov);
    net_.buffers.push_back(std::move(b));
    const int idx = static_cast<int>(net_.buffers.size()) - 1;
    use_[t].buffers.push_back(idx);
    return idx;
}

void Resolver::add_channel(model::DmaChannelProgram ch, const std::string& who) {
    auto& u = use_[ch.tile];
    const auto [first, last] = dev_.bd_range(ch.tile, ch.channel);
    const int half = dev_.resources(ch.tile).bds_split_by_channel_parity ? ch.channel % 2 : 0;
    const int avail = last - first + 1 - u.bds[half];
    if (static_cast<int>(ch.bds.size()) > avail)
        throw DesignError(fmt::format("{} tile {}: {} needs {} BDs on {} channel {} but only {} of BDs {}-{} are free",
                                      model::tile_kind_name(dev_.kind_at(ch.tile)), tile_str(ch.tile), who, ch.bds.size(),
                                      model::direction_name(ch.dir), ch.channel, avail, first, last));
    const auto& res = dev_.resources(ch.tile);
    const std::uint64_t max_words = (std::uint64_t{1} << res.buffer_length_bits) - 1;
    for (auto& bd : ch.bds) {
        bd.bd_id = first + u.bds[half]++;
        if (bd.length_bytes / 4 > max_words)
            throw DesignError(fmt::format("{}: a BD of {} B ({} words) exceeds the {}-bit length field of a {} tile BD "
                                          "(max {} words)",
                                          bd.prov.describe(), bd.length_bytes, bd.length_bytes / 4, res.buffer_length_bits,
                                          model::tile_kind_name(dev_.kind_at(ch.tile)), max_words));
    }
    net_.channels.push_back(std::move(ch));
}

std::vector<model::Dim> Resolver::to_words(const StreamDims& dims, const TensorType& t, TileCoord tile,
                                           const std::string& who) const {
    std::vector<model::Dim> out;
    if (dims.empty()) return out;
    const auto& res = dev_.resources(tile);
    const char* kind = model::tile_kind_name(dev_.kind_at(tile));
    if (static_cast<int>(dims.size()) > res.bd_dims)
        throw DesignError(fmt::format("{}: {} dimensions but a {} tile BD supports {}", who, dims.size(), kind, res.bd_dims));
    const std::int64_t eb = static_cast<std::int64_t>(model::dtype_bytes(t.dtype));
    for (std::size_t i = 0; i < dims.size(); ++i) {
        auto [size, stride] = dims[i];
        const bool inner = i + 1 == dims.size();
        if (size < 1) throw DesignError(fmt::format("{}: dimension {} has size {}", who, i, size));
        model::Dim d;
        if (inner && eb != 4) {
            if (stride != 1)
                throw DesignError(fmt::format("{}: the innermost stride must be 1 for {}-byte elements (got {}); DMA "
                                              "address generation works on 32-bit words",
                                              who, eb, stride));
            if ((size * eb) % 4 != 0)
                throw DesignError(fmt::format("{}: innermost size {} x {} B is not a whole number of 32-bit words", who, size, eb));
            d = {static_cast<std::uint32_t>(size * eb / 4), 1};
        } else {
            if ((stride * eb) % 4 != 0)
                throw DesignError(fmt::format("{}: stride {} x {} B of dimension {} is not a whole number of 32-bit words",
                                              who, stride, eb, i));
            d = {static_cast<std::uint32_t>(size), stride * eb / 4};
        }
        const std::uint64_t max_size = (std::uint64_t{1} << res.wrap_bits) - 1;
        const std::int64_t max_stride = std::int64_t{1} << res.step_bits;
        if (d.size > max_size)
            throw DesignError(fmt::format("{}: dimension {} size {} exceeds the {}-bit size field of a {} tile BD (max {})", who, i,
                                          d.size, res.wrap_bits, kind, max_size));
        if (d.stride > max_stride || d.stride < 0)
            throw DesignError(fmt::format("{}: dimension {} stride {} words exceeds the {}-bit stride field of a {} tile BD "
                                          "(max {})",
                                          who, i, d.stride, res.step_bits, kind, max_stride));
        out.push_back(d);
    }
    return out;
}

model::BufferDescriptor Resolver::make_bd(int buffer, std::uint32_t len, std::vector<model::Dim> dims, int acq, int rel,
                                          model::Provenance prov) const {
    model::BufferDescriptor bd;
    bd.buffer = buffer;
    bd.length_bytes = len;
    bd.dims = std::move(dims);
    bd.acquire_lock = acq;
    bd.acquire_value = 1;
    bd.release_lock = rel;
    bd.release_value = 1;
    bd.prov = std::move(prov);
    return bd;
}

std::vector<model::BufferDescriptor> Resolver::ring_chain(const std::vector<int>& bufs, std::uint32_t len,
                                                          const std::vector<model::Dim>& dims, int acq, int rel,
                                                          const std::string& fifo, const std::string& role) const {
    std::vector<model::BufferDescriptor> bds;
    for (std::size_t k = 0; k < bufs.size(); ++k) {
        auto bd = make_bd(bufs[k], len, dims, acq, rel, {fifo, role, static_cast<int>(k)});
        bd.next = static_cast<int>((k + 1) % bufs.size());   // circular chain
        bds.push_back(std::move(bd));
    }
    if (!dims.empty()) {
        const model::AddressPattern p(0, dims);
        if (p.total_bytes() != len || p.min_offset() < 0 || p.max_offset() >= static_cast<std::int64_t>(len))
            throw DesignError(fmt::format("fifo '{}' {}: data layout moves {} B within offsets {}..{}, but the object is {} B",
                                          fifo, role, p.total_bytes(), p.min_offset(), p.max_offset(), len));
    }
    return bds;
}

// ---------------------------------------------------------------------------------------------
// depths (IRON ObjectFifo._get_depths + findObjectFifoSize)

std::vector<int> Resolver::side_depths(FifoState* f) {
    std::vector<int> d{f->prod->depth.value_or(f->depth)};
    for (auto& c : f->cons)
        if (c->owner != OwnerKind::None) d.push_back(c->depth.value_or(f->depth));
    return d;
}

int Resolver::side_depth(FifoState* f, EndpointState* ep, TileKind kind) {
    const auto all = side_depths(f);
    const bool uniform = std::all_of(all.begin(), all.end(), [&](int x) { return x == all[0]; });
    const int declared = ep->depth.value_or(f->depth);
    const int max_acq = max_acquire_.count(ep->uid) ? max_acquire_[ep->uid] : 0;
    if (!uniform) {   // a depth list is honoured verbatim
        if (ep->owner == OwnerKind::Worker && max_acq > declared)
            throw DesignError(fmt::format("worker '{}' acquires {} elements of {} whose depth is {}", ep->worker->name, max_acq,
                                          ep->describe(), declared));
        return declared;
    }
    if (kind == TileKind::Compute && ep->owner == OwnerKind::Worker && max_acq > 0) {
        if (max_acq == 1 && declared == 1) return 1;
        return max_acq + 1;   // compute-tile depth rule: largest acquire + 1
    }
    return declared;
}

// ---------------------------------------------------------------------------------------------
// tiles of endpoints

int Resolver::preferred_column(FifoState* f, EndpointState* self) {
    auto col_of = [&](EndpointState* ep) -> int {
        if (!ep || ep == self) return -1;
        if (ep->owner == OwnerKind::Worker) return worker_tile_[ep->worker].col;
        if (ep->owner == OwnerKind::Link) return links_[link_index_.at(ep->link)].tile.col;
        if (ep->owner == OwnerKind::Runtime && ep->tile.pinned()) return ep->tile.coord().col;
        return -1;
    };
    if (self->role == Role::Producer) {
        for (auto& c : f->cons)
            if (int col = col_of(c.get()); col >= 0) return col;
    } else if (int col = col_of(f->prod.get()); col >= 0) {
        return col;
    }
    return 0;
}

TileCoord Resolver::endpoint_tile(EndpointState* ep, Direction shim_dir, int preferred_col) {
    switch (ep->owner) {
    case OwnerKind::Worker: return worker_tile_.at(ep->worker);
    case OwnerKind::Link: return links_[link_index_.at(ep->link)].tile;
    case OwnerKind::Runtime: {
        if (ep->tile.pinned()) {
            const TileCoord t = ep->tile.coord();
            if (!dev_.contains(t) || dev_.kind_at(t) != TileKind::Shim)
                throw DesignError(fmt::format("{}: tile {} is not a shim tile of {}", ep->describe(), tile_str(t), dev_.name));
            return t;
        }
        auto shims = dev_.tiles_of(TileKind::Shim);
        std::stable_sort(shims.begin(), shims.end(), [&](TileCoord a, TileCoord b) {
            return std::abs(a.col - preferred_col) < std::abs(b.col - preferred_col);
        });
        for (auto t : shims) {
            const auto& u = use_[t];
            const auto used = shim_dir == Direction::S2MM ? u.s2mm.size() : u.mm2s.size();
            if (static_cast<int>(used) < dev_.dma_channels(t, shim_dir)) return t;
        }
        throw DesignError(fmt::format("{}: no shim tile of {} has a free {} DMA channel", ep->describe(), dev_.name,
                                      model::direction_name(shim_dir)));
    }
    case OwnerKind::None: break;
    }
    throw DesignError(fmt::format("{} is not used by any worker, the runtime or a link", ep->describe()));
}

// ---------------------------------------------------------------------------------------------
// lowering of one fifo

void Resolver::lower_fifo(FifoState* f) {
    EndpointState* P = f->prod.get();
    std::vector<EndpointState*> C;
    for (auto& c : f->cons)
        if (c->owner != OwnerKind::None) C.push_back(c.get());
    const std::uint32_t bytes = static_cast<std::uint32_t>(f->obj_type.bytes());

    const TileCoord tp = endpoint_tile(P, Direction::MM2S, preferred_column(f, P));
    // Shared-memory pool: one producer core and one consumer core that share memory.
    if (C.size() == 1 && P->owner == OwnerKind::Worker && C[0]->owner == OwnerKind::Worker && !f->via_dma &&
        f->dims_to_stream.empty() && C[0]->dims_from_stream.empty() && f->repeat_count == 1 && !f->consumer_obj_type) {
        const TileCoord tc = worker_tile_.at(C[0]->worker);
        TileCoord pool{};
        if (tp == tc || dev_.shares_memory(tp, tc, pool)) {
            if (tp == tc) pool = tp;
            const int depth = std::max(P->depth.value_or(f->depth), C[0]->depth.value_or(f->depth));
            for (auto* ep : {P, C[0]}) {
                const int m = max_acquire_.count(ep->uid) ? max_acquire_[ep->uid] : 0;
                if (m > depth)
                    throw DesignError(fmt::format("worker '{}' acquires {} elements of {} whose depth is {}", ep->worker->name,
                                                  m, ep->describe(), depth));
            }
            const int inits = static_cast<int>(f->init_values.size());
            std::vector<int> bufs;
            for (int k = 0; k < depth; ++k) {
                bufs.push_back(add_buffer(pool, fmt::format("{}_buff_{}", f->name, k), bytes, {f->name, "shared pool", k}));
                if (k < inits) net_.buffers[static_cast<std::size_t>(bufs.back())].init = f->init_values[static_cast<std::size_t>(k)];
            }
            const int prod_lock = add_lock(pool, f->name + "_prod_lock_0", depth - inits, {f->name, "shared pool prod_lock (free slots)"});
            const int cons_lock = add_lock(pool, f->name + "_cons_lock_0", inits, {f->name, "shared pool cons_lock (full slots)"});
            core_of(P->worker).rings.push_back({P->uid, bufs, prod_lock, cons_lock, 1, {f->name, "producer"}});
            core_of(C[0]->worker).rings.push_back({C[0]->uid, bufs, cons_lock, prod_lock, 1, {f->name, "consumer"}});
            return;
        }
    }

    // DMA case: producer side.
    model::Flow flow;
    flow.prov = {f->name, "stream"};
    const std::string prod_who = fmt::format("fifo '{}' (producer)", f->name);
    if (P->owner == OwnerKind::Worker) {
        const int depth = std::max(side_depth(f, P, dev_.kind_at(tp)), static_cast<int>(f->init_values.size()));
        const int R = f->repeat_count;
        const int inits = static_cast<int>(f->init_values.size());
        std::vector<int> bufs;
        for (int k = 0; k < depth; ++k) {
            bufs.push_back(add_buffer(tp, fmt::format("{}_buff_{}", f->name, k), bytes, {f->name, "producer", k}));
            if (k < inits) net_.buffers[static_cast<std::size_t>(bufs.back())].init = f->init_values[static_cast<std::size_t>(k)];
        }
        const int prod_lock = add_lock(tp, f->name + "_prod_lock_0", (depth - inits) * R, {f->name, "producer prod_lock (free slots)"});
        const int cons_lock = add_lock(tp, f->name + "_cons_lock_0", inits * R, {f->name, "producer cons_lock (full slots)"});
        core_of(P->worker).rings.push_back({P->uid, bufs, prod_lock, cons_lock, R, {f->name, "producer"}});
        model::DmaChannelProgram ch;
        ch.tile = tp;
        ch.dir = Direction::MM2S;
        ch.channel = alloc_channel(tp, Direction::MM2S, prod_who);
        ch.prov = {f->name, "producer MM2S"};
        ch.bds = ring_chain(bufs, bytes, to_words(f->dims_to_stream, f->obj_type, tp, fmt::format("fifo '{}' dims_to_stream", f->name)),
                            cons_lock, prod_lock, f->name, "producer MM2S");
        apply_repeat(ch.bds, R);
        flow.source = {tp, Direction::MM2S, ch.channel};
        add_channel(std::move(ch), prod_who);
    } else if (P->owner == OwnerKind::Runtime) {
        const int c = alloc_channel(tp, Direction::MM2S, prod_who);
        flow.source = {tp, Direction::MM2S, c};
        shim_alloc_[P->uid] = flow.source;
    } else {   // link output: the link lowers its BD chain
        auto& plan = links_[link_index_.at(P->link)];
        const int c = alloc_channel(tp, Direction::MM2S, prod_who);
        plan.mm2s_of[f] = c;
        flow.source = {tp, Direction::MM2S, c};
    }

    // Consumer sides.
    for (auto* ep : C) {
        const std::string cname = C.size() == 1 ? f->name + "_cons" : fmt::format("{}_{}_cons", f->name, ep->index);
        const TileCoord tc = endpoint_tile(ep, Direction::S2MM, tp.col);
        const std::string who = fmt::format("fifo '{}' (consumer {})", f->name, ep->index);
        if (ep->owner == OwnerKind::Worker) {
            const int depth = side_depth(f, ep, dev_.kind_at(tc));
            const TensorType& ctype = f->consumer_obj_type ? *f->consumer_obj_type : f->obj_type;
            const auto cbytes = static_cast<std::uint32_t>(ctype.bytes());
            std::vector<int> bufs;
            for (int k = 0; k < depth; ++k)
                bufs.push_back(add_buffer(tc, fmt::format("{}_buff_{}", cname, k), cbytes, {f->name, "consumer copy", k}));
            const int prod_lock = add_lock(tc, cname + "_prod_lock_0", depth, {f->name, "consumer copy prod_lock (free slots)"});
            const int cons_lock = add_lock(tc, cname + "_cons_lock_0", 0, {f->name, "consumer copy cons_lock (full slots)"});
            core_of(ep->worker).rings.push_back({ep->uid, bufs, cons_lock, prod_lock, 1, {f->name, fmt::format("consumer {}", ep->index)}});
            model::DmaChannelProgram ch;
            ch.tile = tc;
            ch.dir = Direction::S2MM;
            ch.channel = alloc_channel(tc, Direction::S2MM, who);
            ch.prov = {f->name, "consumer S2MM"};
            ch.bds = ring_chain(bufs, cbytes, to_words(ep->dims_from_stream, ctype, tc, fmt::format("fifo '{}' dims_from_stream", f->name)),
                                prod_lock, cons_lock, f->name, "consumer S2MM");
            flow.dests.push_back({tc, Direction::S2MM, ch.channel});
            add_channel(std::move(ch), who);
        } else if (ep->owner == OwnerKind::Runtime) {
            const int c = alloc_channel(tc, Direction::S2MM, who);
            flow.dests.push_back({tc, Direction::S2MM, c});
            shim_alloc_[ep->uid] = flow.dests.back();
        } else {
            auto& plan = links_[link_index_.at(ep->link)];
            const int c = alloc_channel(tc, Direction::S2MM, who);
            plan.s2mm_of[f] = c;
            flow.dests.push_back({tc, Direction::S2MM, c});
        }
    }
    net_.flows.push_back(std::move(flow));
}

// Links keep one buffer pool on the link tile (R4, R9): forward and split use the input's pool,
// join the output's. A split or join with n sub-fifos gets n lock pairs; the pool side walks n BDs
// per buffer (one per segment), each sub-fifo's channel walks one BD per buffer over its segment.
void Resolver::lower_link(LinkPlan& plan) {
    auto* link = plan.link;
    const TileCoord t = plan.tile;
    const bool join = link->kind == LinkState::Kind::Join;
    FifoState* owner = join ? link->outputs[0].get() : link->inputs[0];
    std::vector<FifoState*> subs;
    if (join) subs = link->inputs;
    else for (auto& o : link->outputs) subs.push_back(o.get());
    const std::size_t n = subs.size();
    EndpointState* owner_ep = nullptr;   // the owner fifo's endpoint on the link
    if (join) owner_ep = owner->prod.get();
    else
        for (auto& c : owner->cons)
            if (c->owner == OwnerKind::Link && c->link == link) owner_ep = c.get();
    const std::string pool = join ? owner->name : owner->name + "_cons";
    const int depth = side_depth(owner, owner_ep, dev_.kind_at(t));
    int R = 1, iters = owner->iter_count;
    for (auto* f : link->inputs) iters = std::max(iters, f->iter_count);
    for (auto& f : link->outputs) {
        R = std::max(R, f->repeat_count);
        iters = std::max(iters, f->iter_count);
    }
    const std::uint64_t eb = model::dtype_bytes(owner->obj_type.dtype);
    const std::uint32_t bytes = static_cast<std::uint32_t>(owner->obj_type.bytes());
    std::vector<int> bufs;
    for (int k = 0; k < depth; ++k)
        bufs.push_back(add_buffer(t, fmt::format("{}_buff_{}", pool, k), bytes, {owner->name, "link pool", k}));
    std::vector<int> prod_locks, cons_locks;
    for (std::size_t i = 0; i < n; ++i) {
        prod_locks.push_back(add_lock(t, fmt::format("{}_prod_lock_{}", pool, i), depth * R, {owner->name, "link prod_lock (free slots)"}));
        cons_locks.push_back(add_lock(t, fmt::format("{}_cons_lock_{}", pool, i), 0, {owner->name, "link cons_lock (full slots)"}));
    }
    auto seg_off = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<std::uint64_t>(link->offsets[i]) * eb); };
    auto seg_len = [&](std::size_t i) { return static_cast<std::uint32_t>(subs[i]->obj_type.bytes()); };
    auto finish_chain = [&](std::vector<model::BufferDescriptor>& bds) {
        if (iters > 0 && !bds.empty()) bds.back().next = -1;   // iter_count: the chain ends
    };
    // Dims and padding of the link's outputs go on the MM2S side; inputs' consumer dims on S2MM.
    auto out_dims = [&](FifoState* f) {
        return to_words(f->dims_to_stream, f->obj_type, t, fmt::format("fifo '{}' dims_to_stream", f->name));
    };
    auto in_dims = [&](FifoState* f) {
        for (auto& c : f->cons)
            if (c->owner == OwnerKind::Link && c->link == link)
                return to_words(c->dims_from_stream, f->obj_type, t, fmt::format("fifo '{}' dims_from_stream", f->name));
        return std::vector<model::Dim>{};
    };
    auto add_pad = [&](std::vector<model::BufferDescriptor>& bds, FifoState* f, const std::vector<model::Dim>& dims) {
        if (f->pad_dimensions.empty()) return;
        if (!dev_.resources(t).zero_padding)
            throw DesignError(fmt::format("fifo '{}': pad_dimensions need a mem tile link; {} tile {} cannot pad", f->name,
                                          model::tile_kind_name(dev_.kind_at(t)), tile_str(t)));
        if (f->pad_dimensions.size() != dims.size())
            throw DesignError(fmt::format("fifo '{}': pad_dimensions has {} entries for {} dims_to_stream dimensions", f->name,
                                          f->pad_dimensions.size(), dims.size()));
        const std::int64_t feb = static_cast<std::int64_t>(model::dtype_bytes(f->obj_type.dtype));
        std::vector<model::PadDim> pad;
        for (std::size_t d = 0; d < dims.size(); ++d) {
            auto [b, a] = f->pad_dimensions[d];
            if (d + 1 == dims.size()) {
                if ((b * feb) % 4 || (a * feb) % 4)
                    throw DesignError(fmt::format("fifo '{}': innermost padding {}/{} elements is not a whole number of 32-bit "
                                                  "words",
                                                  f->name, b, a));
                b = b * feb / 4;
                a = a * feb / 4;
            }
            pad.push_back({static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(a)});
        }
        std::uint32_t word = 0;
        for (std::int64_t k = 0; k < 4 / feb; ++k)
            word |= (static_cast<std::uint32_t>(f->pad_value) & ((feb == 4) ? 0xFFFFFFFFu : ((1u << (8 * feb)) - 1u))) << (8 * feb * k);
        for (auto& bd : bds) {
            bd.pad = pad;
            bd.pad_word = word;
        }
    };
    const std::string who = fmt::format("link of fifo '{}'", owner->name);
    // The pool side: one channel walking n segment BDs per buffer.
    {
        model::DmaChannelProgram ch;
        ch.tile = t;
        ch.dir = join ? Direction::MM2S : Direction::S2MM;
        ch.channel = join ? plan.mm2s_of.at(owner) : plan.s2mm_of.at(owner);
        ch.prov = {owner->name, join ? "link MM2S" : "link S2MM"};
        const auto dims = join ? out_dims(owner) : in_dims(owner);
        for (std::size_t k = 0; k < bufs.size(); ++k)
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint32_t off = n == 1 ? 0 : seg_off(i);
                const std::uint32_t len = n == 1 ? (join ? bytes : static_cast<std::uint32_t>(owner->obj_type.bytes())) : seg_len(i);
                auto bd = make_bd(bufs[k], len, dims, join ? cons_locks[i] : prod_locks[i], join ? prod_locks[i] : cons_locks[i],
                                  {owner->name, ch.prov.role, static_cast<int>(k)});
                bd.offset_bytes = off;
                if (!join) bd.acquire_value = bd.release_value = R;   // the input side moves R at a time
                bd.next = static_cast<int>((ch.bds.size() + 1) % (bufs.size() * n));
                ch.bds.push_back(std::move(bd));
            }
        check_chain_dims(ch.bds, owner->name, ch.prov.role);
        if (join) {
            add_pad(ch.bds, owner, dims);
            apply_repeat(ch.bds, R, /*allow_hw_repeat=*/false);
        }
        finish_chain(ch.bds);
        if (iters > 0) ch.repeat_count = iters - 1;
        add_channel(std::move(ch), who);
    }
    // The sub-fifo side: one channel per sub-fifo over its segment.
    for (std::size_t i = 0; i < n; ++i) {
        FifoState* f = subs[i];
        model::DmaChannelProgram ch;
        ch.tile = t;
        ch.dir = join ? Direction::S2MM : Direction::MM2S;
        ch.channel = join ? plan.s2mm_of.at(f) : plan.mm2s_of.at(f);
        ch.prov = {f->name, join ? "link S2MM" : "link MM2S"};
        const auto dims = join ? in_dims(f) : out_dims(f);
        for (std::size_t k = 0; k < bufs.size(); ++k) {
            auto bd = make_bd(bufs[k], seg_len(i), dims, join ? prod_locks[i] : cons_locks[i], join ? cons_locks[i] : prod_locks[i],
                              {f->name, ch.prov.role, static_cast<int>(k)});
            bd.offset_bytes = seg_off(i);
            bd.next = static_cast<int>((k + 1) % bufs.size());
            ch.bds.push_back(std::move(bd));
        }
        check_chain_dims(ch.bds, f->name, ch.prov.role);
        if (!join) {
            add_pad(ch.bds, f, dims);
            apply_repeat(ch.bds, f->repeat_count, /*allow_hw_repeat=*/n == 1 && bufs.size() == 1 && iters == 0);
        }
        finish_chain(ch.bds);
        if (iters > 0) ch.repeat_count = iters - 1;
        add_channel(std::move(ch), who);
    }
}

// repeat_count R on an MM2S chain (R8): one BD with a hardware repeat of R-1 when allowed (a
// single buffer, no split/join, no iter_count), otherwise every BD is duplicated R times.
void Resolver::apply_repeat(std::vector<model::BufferDescriptor>& bds, int R, bool allow_hw_repeat) const {
    if (R <= 1 || bds.empty()) return;
    if (allow_hw_repeat && bds.size() == 1) {
        bds[0].repeat = R - 1;
        return;
    }
    std::vector<model::BufferDescriptor> out;
    for (const auto& bd : bds)
        for (int r = 0; r < R; ++r) out.push_back(bd);
    for (std::size_t i = 0; i < out.size(); ++i) out[i].next = static_cast<int>((i + 1) % out.size());
    bds = std::move(out);
}

// Each BD's layout must move exactly its length within its buffer.
void Resolver::check_chain_dims(const std::vector<model::BufferDescriptor>& bds, const std::string& fifo,
                                const std::string& role) const {
    for (const auto& bd : bds) {
        if (bd.dims.empty()) continue;
        const model::AddressPattern p(0, bd.dims);
        const auto& buf = net_.buffers[static_cast<std::size_t>(bd.buffer)];
        if (p.total_bytes() != bd.length_bytes || p.min_offset() + bd.offset_bytes < 0 ||
            p.max_offset() + bd.offset_bytes >= buf.bytes)
            throw DesignError(fmt::format("fifo '{}' {}: data layout moves {} B within offsets {}..{} of a {} B segment at {} of "
                                          "a {} B buffer",
                                          fifo, role, p.total_bytes(), p.min_offset(), p.max_offset(), bd.length_bytes,
                                          bd.offset_bytes, buf.bytes));
    }
}

// ---------------------------------------------------------------------------------------------

void Resolver::allocate_memory() {
    for (auto& [tile, u] : use_) {
        if (u.buffers.empty() && dev_.kind_at(tile) != TileKind::Compute) continue;
        if (dev_.kind_at(tile) == TileKind::Shim) continue;
        std::uint32_t stack = 0;
        for (const auto& core : net_.cores)
            if (core.tile == tile) stack = core.stack_bytes;
        if (u.buffers.empty() && stack == 0) continue;
        TileMemoryAllocator alloc(tile, dev_.resources(tile), stack, opts_.alloc_scheme == AllocScheme::BankAware);
        alloc.allocate(net_.buffers, u.buffers);
    }
}

void Resolver::route_flows() {
    StreamRouter router(dev_);
    for (auto& f : net_.flows) router.route(f);
}

// ---------------------------------------------------------------------------------------------
// runtime sequence: run the sequence function once, recording transfers; turn each into a
// single-BD shim task with the BD dims of its access pattern.

void Resolver::record_sequence() {
    auto rt = program_.runtime().state();
    SequenceRecorder rec;
    rec.tensors = rt->tensors;
    for (std::size_t i = 0; i < rt->tensors.size(); ++i) {
        model::HostTensor h;
        h.name = fmt::format("arg{}", i);
        h.dtype = rt->tensors[i].dtype;
        h.shape = rt->tensors[i].shape;
        h.bytes = rt->tensors[i].bytes();
        if (h.bytes % 4 != 0)
            throw DesignError(fmt::format("runtime argument {} ({}) is {} B; host buffers must be a multiple of 4 bytes", i,
                                          rt->tensors[i].str(), h.bytes));
        net_.host_tensors.push_back(std::move(h));
    }
    SequenceRecorder::set_current(&rec);
    try {
        if (rt->run) rt->run();
        SequenceRecorder::set_current(nullptr);
    } catch (...) {
        SequenceRecorder::set_current(nullptr);
        throw;
    }
    if (rt->strict_task_groups && rec.used_default && rec.used_explicit)
        throw DesignError("runtime sequence mixes the implicit default task group with explicit TaskGroups "
                          "(strict_task_groups); pass group= to every transfer or to none");
    if (!rec.open_groups.empty())
        throw DesignError(fmt::format("runtime sequence ended with TaskGroup {} not finished; call finish()", rec.open_groups.front()));
    rec.finish_group(0);   // the implicit default group ends with the sequence

    std::map<TileCoord, std::vector<bool>> bd_busy;
    std::map<int, int> task_of;   // transfer -> task index
    for (const auto& op : rec.ops) {
        if (op.kind == RecordedOp::Kind::WriteBuffer) {
            const auto& bw = rec.buffer_writes[static_cast<std::size_t>(op.transfer)];
            auto it = buffer_of_.find(bw.buffer->uid);
            if (it == buffer_of_.end())
                throw DesignError(fmt::format("buffer '{}' is written by the runtime sequence but no worker uses it", bw.buffer->name));
            model::RuntimeOp w;
            w.kind = model::RuntimeOp::Kind::WriteBuffer;
            w.buffer = it->second;
            w.offset_bytes = static_cast<std::uint32_t>(bw.offset);
            w.data = bw.bytes;
            w.prov = {bw.buffer->name, "runtime parameter write"};
            net_.sequence.push_back(std::move(w));
            continue;
        }
        const auto& tr = rec.transfers[static_cast<std::size_t>(op.transfer)];
        model::RuntimeOp rop;
        if (op.kind == RecordedOp::Kind::Start) {
            auto it = shim_alloc_.find(tr.endpoint->uid);
            if (it == shim_alloc_.end())
                throw DesignError(fmt::format("{}: no shim DMA channel was allocated for it", tr.endpoint->describe()));
            const auto& tt = rec.tensors[static_cast<std::size_t>(tr.tensor)];
            const std::int64_t eb = static_cast<std::int64_t>(model::dtype_bytes(tt.dtype));
            const char* what = tr.fill ? "fill" : "drain";
            const std::string who = fmt::format("{} of fifo '{}' ({})", what, tr.endpoint->fifo->name, tr.tap.str());
            model::ShimTask task;
            task.id = static_cast<int>(net_.tasks.size());
            task.tile = it->second.tile;
            task.dir = it->second.dir;
            task.channel = it->second.channel;
            task.host_tensor = tr.tensor;
            task.issue_token = tr.wait || !tr.fill;   // S2MM always issues a token
            task.prov = {tr.endpoint->fifo->name, what};
            if ((tr.tap.offset() * eb) % 4 != 0)
                throw DesignError(fmt::format("{}: offset {} x {} B is not 4-byte aligned", who, tr.tap.offset(), eb));
            task.offset_bytes = static_cast<std::uint64_t>(tr.tap.offset() * eb);
            const auto& s = tr.tap.sizes();
            const auto& st = tr.tap.strides();
            const auto& shim = dev_.shim;
            // Linear mode: the d0..d2 part is one contiguous run -> only buffer_length is used.
            const bool contiguous = st[3] == 1 && (s[2] == 1 || st[2] == s[3]) && (s[1] == 1 || st[1] == s[2] * s[3]);
            if (s[0] > (1 << shim.iteration_bits))
                throw DesignError(fmt::format("{}: the outermost (repeat) size {} exceeds {} ({}-bit iteration field)", who,
                                              s[0], 1 << shim.iteration_bits, shim.iteration_bits));
            if (s[0] - 1 > dev_.max_repeat_count)
                throw DesignError(fmt::format("{}: repeat count {} exceeds {}", who, s[0] - 1, dev_.max_repeat_count));
            if (eb != 4 && st[3] != 1)
                throw DesignError(fmt::format("{}: the innermost stride must be 1 for {}-byte elements", who, eb));
            std::vector<model::Dim> dims(4);
            auto words = [&](std::int64_t elems, const char* field) {
                if ((elems * eb) % 4 != 0)
                    throw DesignError(fmt::format("{}: {} {} x {} B is not a whole number of 32-bit words", who, field, elems, eb));
                return elems * eb / 4;
            };
            dims[0] = {static_cast<std::uint32_t>(s[0]), words(st[0], "stride")};
            if (contiguous) {
                dims[1] = {1, 0};
                dims[2] = {1, 0};
                dims[3] = {static_cast<std::uint32_t>(words(s[1] * s[2] * s[3], "length")), 1};
            } else {
                dims[1] = {static_cast<std::uint32_t>(s[1]), words(st[1], "stride")};
                dims[2] = {static_cast<std::uint32_t>(s[2]), words(st[2], "stride")};
                dims[3] = eb == 4 ? model::Dim{static_cast<std::uint32_t>(s[3]), st[3]}
                                  : model::Dim{static_cast<std::uint32_t>(words(s[3], "innermost size")), 1};
                const std::uint32_t max_wrap = (1u << shim.wrap_bits) - 1;
                if (dims[3].size > max_wrap || dims[2].size > max_wrap)
                    throw DesignError(fmt::format("{}: d0 size {} / d1 size {} words exceed {} ({}-bit size field of a shim BD)",
                                                  who, dims[3].size, dims[2].size, max_wrap, shim.wrap_bits));
                for (int k = 0; k < 4; ++k)
                    if (dims[static_cast<std::size_t>(k)].stride > (std::int64_t{1} << shim.step_bits) ||
                        dims[static_cast<std::size_t>(k)].stride < 0)
                        throw DesignError(fmt::format("{}: stride {} words exceeds the {}-bit stride field of a shim BD", who,
                                                      dims[static_cast<std::size_t>(k)].stride, shim.step_bits));
            }
            task.dims = dims;
            // BD id from the shim tile's 16 (returned by await/free).
            auto& busy = bd_busy[task.tile];
            busy.resize(static_cast<std::size_t>(shim.bds), false);
            auto free_bd = std::find(busy.begin(), busy.end(), false);
            if (free_bd == busy.end())
                throw DesignError(fmt::format("{}: shim tile {} has no free BD id (all {} are held by unfinished tasks; finish a "
                                              "TaskGroup or free tasks first)",
                                              who, tile_str(task.tile), shim.bds));
            *free_bd = true;
            task.bd_id = static_cast<int>(free_bd - busy.begin());
            task_of[op.transfer] = task.id;
            net_.tasks.push_back(std::move(task));
            rop.kind = model::RuntimeOp::Kind::StartTask;
            rop.task = net_.tasks.back().id;
        } else {
            const int task = task_of.at(op.transfer);
            auto& busy = bd_busy[net_.tasks[static_cast<std::size_t>(task)].tile];
            const auto bd = static_cast<std::size_t>(net_.tasks[static_cast<std::size_t>(task)].bd_id);
            rop.kind = op.kind == RecordedOp::Kind::Await ? model::RuntimeOp::Kind::AwaitTask : model::RuntimeOp::Kind::FreeTask;
            rop.task = task;
            if (bd < busy.size()) busy[bd] = false;
        }
        rop.prov = net_.tasks[static_cast<std::size_t>(rop.task)].prov;
        net_.sequence.push_back(std::move(rop));
    }
}

} // namespace npusim::iron::detail
