// ModuleExporter, the objectfifos: which fifos the design has, and each aie.objectfifo with its
// attributes and aie.objectfifo.link (python/iron/dataflow/objectfifo.py ObjectFifo.resolve).
#include "export/ModuleExporter.hpp"

#include "export/MlirTypes.hpp"
#include "resolve/DepthRule.hpp"
#include "resolve/Padding.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>

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

} // namespace

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
        attrs.push_back("padDimensions = #aie<bd_pad_layout_array[" + pad_layouts(f->pad_dimensions) + "]>");
    }
    // objectfifo.py _get_object_fifo: the per-element pad_value packed into the register's 32-bit
    // word (pack_pad_value), e.g. 7 on i8 elements is 0x07070707.
    if (f->pad_value != 0)
        attrs.push_back(fmt::format(
            "padValue = {} : i32",
            static_cast<std::int32_t>(pack_pad_value(f->pad_value, model::dtype_bytes(f->obj_type.dtype)))));
    if (f->repeat_count) attrs.push_back(fmt::format("repeat_count = {} : i32", *f->repeat_count));
    if (f->via_dma) attrs.push_back("via_DMA = true");
    // objectfifo.py ObjectFifo.resolve passes `disable_synchronization=... or None`: the attribute
    // only when set, printed as test/objectFifo-stateful-transform/debug_features/*.mlir give it.
    if (f->disable_synchronization) attrs.push_back("disable_synchronization = true");
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
    // delegate_tile: ObjectFifo.resolve calls op.allocate(delegate) right after the op (before its
    // links), `aie.objectfifo.allocate @of(%tile)` (AIEOps.td ObjectFifoAllocateOp's format, as
    // test/python/objFifo.py prints it).
    if (f->delegate_tile) {
        const int tile = coord_tile(*f->delegate_tile);
        device_.ops.push_back(Op{-1,
                                 {},
                                 {lit(fmt::format("aie.objectfifo.allocate @{}(", f->name)), ref(tile), lit(")")},
                                 {},
                                 {},
                                 generic("aie.objectfifo.allocate", {tile}, {"objFifo_name = @" + f->name})});
    }
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


} // namespace npusim::iron::detail::mlir
