#include "export/LowLevelExporter.hpp"

#include "export/LoopIndex.hpp"
#include "export/MlirTypes.hpp"
#include "resolve/Padding.hpp"

#include "npusim/frontend/Flow.hpp"
#include "npusim/frontend/MlirExport.hpp"
#include "npusim/frontend/PacketFlow.hpp"
#include "npusim/frontend/Runtime.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace npusim::iron::detail::mlir {

namespace {

// AIEAttrs.td: WireBundle DMA = 1; DMAChannelDir S2MM = 0, MM2S = 1. Only DMA ports are modelled.
constexpr int kDmaBundle = 1;

int dir_value(model::Direction d) { return d == model::Direction::S2MM ? 0 : 1; }
const char* dir_name(model::Direction d) { return d == model::Direction::S2MM ? "S2MM" : "MM2S"; }

bool is_shim(const Tile& t) { return t.row && *t.row == 0; }

std::string list(const std::vector<std::int64_t>& v) { return fmt::format("[{}]", fmt::join(v, ", ")); }

// tile_dma.py _channel_pad_word: the channel's per-element pad_value packed into the 32-bit
// CONSTANT_PAD_VALUE word for the element type of its padded BDs (resolve has checked that they
// agree); 0 when the channel sets none.
std::uint32_t channel_pad_word(const DmaChannel& ch) {
    if (ch.pad_value == 0) return 0;
    for (const auto& bd : ch.bds)
        if (bd.pad_dimensions)
            return pack_pad_value(ch.pad_value, model::dtype_bytes(bd.buffer.state()->type.dtype));
    return 0;
}

} // namespace

LowLevelExporter::LowLevelExporter(const RuntimeState& rt, Region& device, ValueIds& ids, DeviceValues& values,
                                   std::function<int(const Tile&)> tile)
    : rt_(rt), device_(device), ids_(ids), values_(values), tile_(std::move(tile)) {}

void LowLevelExporter::emit_tiles() {
    for (const auto& f : rt_.flows) {
        tile_(f->src);
        tile_(f->dst);
    }
    for (const auto& f : rt_.packet_flows) {
        tile_(f->src);
        tile_(f->dst);
        for (const auto& d : f->opts.extra_dsts) tile_(d.tile);
    }
    for (const auto& td : rt_.tile_dmas) tile_(td->tile);
    for (const auto& l : rt_.locks) tile_(l->tile);
    for (const auto& sb : rt_.switchboxes) tile_(sb->tile);
}

// aie.switchbox(%t) { aie.connect<South : 1, DMA : 0> ... } (AIEOps.td SwitchboxOp, ShimMuxOp,
// ConnectOp: bundles as WireBundle enum values in the generic form); both yield an index and end
// in the aie.end the pretty form elides.
void LowLevelExporter::emit_switchboxes() {
    for (const auto& sb : rt_.switchboxes) {
        const char* name = sb->shim_mux ? "shim_mux" : "switchbox";
        const int tile = tile_(sb->tile);
        Op op;
        op.result = ids_.next();
        op.hint = name;
        op.text = {lit(fmt::format("aie.{}(", name)), ref(tile), lit(")")};
        op.regions.emplace_back();
        for (const auto& c : sb->connects) {
            Op k;
            k.text = {lit(fmt::format("aie.connect<{} : {}, {} : {}>", model::wire_bundle_name(c.src_bundle),
                                      c.src_channel, model::wire_bundle_name(c.dst_bundle), c.dst_channel))};
            k.gen = generic("aie.connect", {},
                            {fmt::format("dest_bundle = {} : i32", static_cast<int>(c.dst_bundle)),
                             fmt::format("dest_channel = {} : i32", c.dst_channel),
                             fmt::format("source_bundle = {} : i32", static_cast<int>(c.src_bundle)),
                             fmt::format("source_channel = {} : i32", c.src_channel)});
            op.regions.back().ops.push_back(std::move(k));
        }
        op.gen = generic(fmt::format("aie.{}", name), {tile}, {}, "index", "aie.end");
        device_.ops.push_back(std::move(op));
    }
}

// flow.py _emit_shim_dma_alloc: MM2S on the source when it is a shim tile, else S2MM on the
// destination. Two flows naming one symbol (packets merged onto one shim channel) declare it once:
// a second aie.shim_dma_allocation of the symbol would redefine it.
void LowLevelExporter::shim_allocation(const std::string& symbol, const Tile& src, int src_channel, const Tile& dst,
                                       int dst_channel) {
    if (symbol.empty() || !shim_symbols_.insert(symbol).second) return;
    const bool from_shim = is_shim(src);
    const Tile& t = from_shim ? src : dst;
    const int channel = from_shim ? src_channel : dst_channel;
    const auto dir = from_shim ? model::Direction::MM2S : model::Direction::S2MM;
    const int tile = tile_(t);
    Op op;
    op.text = {lit(fmt::format("aie.shim_dma_allocation @{}(", symbol)), ref(tile),
               lit(fmt::format(", {}, {})", dir_name(dir), channel))};
    op.gen = generic("aie.shim_dma_allocation", {tile},
                     {fmt::format("sym_name = \"{}\"", symbol), fmt::format("channel_dir = {} : i32", dir_value(dir)),
                      fmt::format("channel_index = {} : i64", channel)});
    device_.ops.push_back(std::move(op));
}

void LowLevelExporter::emit_flows() {
    for (const auto& f : rt_.flows) {
        // aie.flow(%src, DMA : c, %dst, DMA : c)
        const int s = tile_(f->src), d = tile_(f->dst);
        Op op;
        op.text = {lit("aie.flow("), ref(s), lit(fmt::format(", DMA : {}, ", f->opts.src_channel)), ref(d),
                   lit(fmt::format(", DMA : {})", f->opts.dst_channel))};
        op.gen = generic("aie.flow", {s, d},
                         {fmt::format("source_bundle = {} : i32", kDmaBundle),
                          fmt::format("source_channel = {} : i32", f->opts.src_channel),
                          fmt::format("dest_bundle = {} : i32", kDmaBundle),
                          fmt::format("dest_channel = {} : i32", f->opts.dst_channel)});
        device_.ops.push_back(std::move(op));
        shim_allocation(f->opts.shim_symbol, f->src, f->opts.src_channel, f->dst, f->opts.dst_channel);
    }
    for (const auto& f : rt_.packet_flows) {
        // aie.packet_flow(id) { aie.packet_source<%t, DMA : c> aie.packet_dest<%t, DMA : c> ... }
        Op op;
        op.text = {lit(fmt::format("aie.packet_flow({})", f->pkt_id))};
        op.regions.emplace_back();
        auto end = [&](const char* name, const Tile& t, int channel) {
            const int tile = tile_(t);
            Op e;
            e.text = {lit(fmt::format("aie.{}<", name)), ref(tile), lit(fmt::format(", DMA : {}>", channel))};
            e.gen = generic(fmt::format("aie.{}", name), {tile},
                            {fmt::format("bundle = {} : i32", kDmaBundle), fmt::format("channel = {} : i32", channel)});
            op.regions.back().ops.push_back(std::move(e));
        };
        end("packet_source", f->src, f->opts.src_channel);
        end("packet_dest", f->dst, f->opts.dst_channel);
        for (const auto& x : f->opts.extra_dsts) end("packet_dest", x.tile, x.channel);
        std::vector<std::string> attrs{fmt::format("ID = {} : i8", f->pkt_id)};
        if (f->opts.keep_pkt_header) {
            op.tail = {lit(" {keep_pkt_header = true}")};
            attrs.push_back("keep_pkt_header = true");
        }
        // PacketFlowOp's region ends in aie.end (SingleBlockImplicitTerminator<"EndOp">).
        op.gen = generic("aie.packet_flow", {}, std::move(attrs), {}, "aie.end");
        device_.ops.push_back(std::move(op));
        shim_allocation(f->opts.shim_symbol, f->src, f->opts.src_channel, f->dst, f->opts.dst_channel);
    }
}

void LowLevelExporter::emit_lock(const LockState& l) {
    if (values_.hw_locks.count(&l)) return;
    const int tile = tile_(l.tile);
    Op op;
    op.result = values_.hw_locks[&l] = ids_.next();
    op.hint = l.name;
    std::vector<std::string> attrs{fmt::format("init = {} : i32", l.init), fmt::format("sym_name = \"{}\"", l.name)};
    op.text = {lit("aie.lock("), ref(tile),
               lit(fmt::format("{}) {{{}}}", l.lock_id ? fmt::format(", {}", *l.lock_id) : "", fmt::join(attrs, ", ")))};
    if (l.lock_id) attrs.push_back(fmt::format("lockID = {} : i32", *l.lock_id));
    op.gen = generic("aie.lock", {tile}, std::move(attrs), "index");
    device_.ops.push_back(std::move(op));
}

void LowLevelExporter::emit_locks(const std::vector<const LockState*>& worker_locks) {
    for (const auto& l : rt_.locks) emit_lock(*l);
    for (const auto* l : worker_locks) emit_lock(*l);
    for (const auto& td : rt_.tile_dmas)
        for (const auto& ch : td->channels)
            for (const auto& bd : ch.bds) {
                for (const auto& a : bd.acquires) emit_lock(*a.lock.state());
                for (const auto& r : bd.releases) emit_lock(*r.lock.state());
            }
}

void LowLevelExporter::emit_dma_buffers(std::set<const BufferState*>& done) {
    for (const auto& td : rt_.tile_dmas)
        for (const auto& ch : td->channels)
            for (const auto& bd : ch.bds) {
                const BufferState* b = bd.buffer.state().get();
                if (!done.insert(b).second) continue;
                // program.py: a TileDma's Buffer without a tile is placed on the program's tile.
                const int tile = tile_(b->tile ? *b->tile : td->tile);
                const int result =
                    values_.buffers.count(b) ? values_.buffers.at(b) : (values_.buffers[b] = ids_.next());
                device_.ops.push_back(buffer_op(result, *b, tile));
            }
}

int LowLevelExporter::constant_i32(Region& r, int value) {
    r.ops.push_back(constant_op(ids_.next(), value, "i32"));
    return r.ops.back().result;
}

void LowLevelExporter::use_lock(Region& r, const LockState& l, const char* action, int action_value, int value) {
    const int v = constant_i32(r, value);
    const int lock = values_.hw_locks.at(&l);
    Op op;
    op.text = {lit("aie.use_lock("), ref(lock), lit(fmt::format(", {}, ", action)), ref(v), lit(")")};
    op.gen = generic("aie.use_lock", {lock, v}, {fmt::format("action = {} : i32", action_value)});
    r.ops.push_back(std::move(op));
}

Op LowLevelExporter::tile_dma(const TileDmaState& td) {
    // tile_dma.py's block layout: ^bb0 starts channel 0; per channel its BD blocks, then the block
    // that starts the next channel (the last one holds aie.end).
    std::vector<int> head, chain;
    std::vector<std::vector<int>> bd_blocks;
    int next = 1;
    for (const auto& ch : td.channels) {
        bd_blocks.emplace_back();
        for (std::size_t i = 0; i < ch.bds.size(); ++i) bd_blocks.back().push_back(next++);
        head.push_back(bd_blocks.back().empty() ? next : bd_blocks.back().front());
        chain.push_back(next++);
    }
    const bool memtile = td.tile.pinned() ? model::tile_kind_of_row(*td.tile.row) == model::TileKind::Mem
                                          : td.tile.kind == model::TileKind::Mem;
    const int tile = tile_(td.tile);
    Op mem;
    mem.result = ids_.next();
    mem.hint = td.tile.pinned() ? fmt::format("{}_{}_{}", memtile ? "memtile_dma" : "mem", *td.tile.col, *td.tile.row)
                                : std::string(memtile ? "memtile_dma" : "mem");
    const std::string name = memtile ? "aie.memtile_dma" : "aie.mem";
    mem.text = {lit(name + "("), ref(tile), lit(")")};
    mem.gen = generic(name, {tile}, {}, "index");
    mem.regions.emplace_back();
    Region& r = mem.regions.back();
    auto bb = [](int n) { return fmt::format("^bb{}", n); };
    auto start = [&](std::size_t i) {
        const auto& ch = td.channels[i];
        Op op;
        op.result = ids_.next();
        op.text = {lit(fmt::format("aie.dma_start({}, {}, {}, {})", dir_name(ch.direction), ch.channel, bb(head[i]),
                                   bb(chain[i])))};
        std::vector<std::string> attrs{fmt::format("channel_dir = {} : i32", dir_value(ch.direction)),
                                       fmt::format("channel_index = {} : i32", ch.channel)};
        // DMAStartOp's pad_value (default 0, not printed then): the word tile_dma.py passes.
        if (const std::uint32_t word = channel_pad_word(ch); word != 0) {
            const std::string pad = fmt::format("pad_value = {} : i32", static_cast<std::int32_t>(word));
            op.text.push_back(lit(" {" + pad + "}"));
            attrs.push_back(pad);
        }
        op.gen = generic("aie.dma_start", {}, std::move(attrs), "i1");
        op.gen.successors = {bb(head[i]), bb(chain[i])};
        r.ops.push_back(std::move(op));
    };
    auto end = [&] { r.ops.push_back(Op{-1, {}, {lit("aie.end")}, {}, {}, generic("aie.end")}); };
    if (td.channels.empty()) end();
    for (std::size_t i = 0; i < td.channels.size(); ++i) {
        if (i) r.ops.push_back(Op::block(bb(chain[i - 1])));
        start(i);
        const auto& ch = td.channels[i];
        for (std::size_t k = 0; k < ch.bds.size(); ++k) {
            const Bd& bd = ch.bds[k];
            r.ops.push_back(Op::block(bb(bd_blocks[i][k])));
            for (const auto& a : bd.acquires)
                use_lock(r, *a.lock.state(), a.greater_equal ? "AcquireGreaterEqual" : "Acquire",
                         a.greater_equal ? 2 : 0, a.value);
            if (bd.packet) { // a distinct op before the BD (tile_dma.py: the backends read only it)
                Op p;
                p.text = {lit(fmt::format("aie.dma_bd_packet({}, {})", bd.packet->pkt_type, bd.packet->pkt_id))};
                p.gen = generic("aie.dma_bd_packet", {},
                                {fmt::format("packet_type = {} : i32", bd.packet->pkt_type),
                                 fmt::format("packet_id = {} : i32", bd.packet->pkt_id)});
                r.ops.push_back(std::move(p));
            }
            const BufferState* b = bd.buffer.state().get();
            const int buf = values_.buffers.at(b);
            std::string args;
            std::vector<std::string> attrs{"operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>"};
            if (bd.offset) {
                args += fmt::format(" offset = {}", bd.offset);
                attrs.push_back(fmt::format("static_offset = {} : i32", bd.offset));
            }
            if (bd.length) {
                args += fmt::format(" len = {}", *bd.length);
                attrs.push_back(fmt::format("static_len = {} : i32", *bd.length));
            }
            if (!bd.sizes.empty()) {
                args += fmt::format(" sizes = {} strides = {}", list(bd.sizes), list(bd.strides));
                attrs.push_back(fmt::format("static_sizes = array<i64: {}>", fmt::join(bd.sizes, ", ")));
                attrs.push_back(fmt::format("static_strides = array<i64: {}>", fmt::join(bd.strides, ", ")));
            }
            // DMABDOp's `pad` clause (AIEOps.td: `( `pad` $pad_dimensions^ )?`), as tile_dma.py passes
            // Bd.pad_dimensions to dma_bd.
            if (bd.pad_dimensions) {
                args += fmt::format(" pad [{}]", pad_layouts(*bd.pad_dimensions));
                attrs.push_back(fmt::format("pad_dimensions = #aie<bd_pad_layout_array[{}]>",
                                            pad_layouts(*bd.pad_dimensions)));
            }
            Op d;
            d.text = {lit("aie.dma_bd("), ref(buf), lit(fmt::format(" : {}{})", mlir_memref_type(b->type), args))};
            d.gen = generic("aie.dma_bd", {buf}, std::move(attrs));
            r.ops.push_back(std::move(d));
            for (const auto& rel : bd.releases) use_lock(r, *rel.lock.state(), "Release", 1, rel.value);
            if (bd.next == Bd::none) { // the chain ends: the block ends the region's program
                end();
                continue;
            }
            const int target = bd_blocks[i][bd.next == Bd::self ? k : static_cast<std::size_t>(bd.next)];
            Op n;
            n.text = {lit("aie.next_bd " + bb(target))};
            n.gen = generic("aie.next_bd");
            n.gen.successors = {bb(target)};
            r.ops.push_back(std::move(n));
        }
    }
    if (!td.channels.empty()) {
        r.ops.push_back(Op::block(bb(chain.back())));
        end();
    }
    return mem;
}

void LowLevelExporter::emit_tile_dmas() {
    for (const auto& td : rt_.tile_dmas) device_.ops.push_back(tile_dma(*td));
}

} // namespace npusim::iron::detail::mlir
