// Mem-tile MM2S padding (frontend/src/resolve/Padding.cpp) and the explicit ObjectFifoLink
// (frontend/src/ObjectFifoLink.cpp): each refusal with the toolchain's reason.
#include "Designs.hpp"

namespace npusim::errcat {

namespace {

// shim -> in -> (link on a mem tile) -> out -> shim, `out` made by `link` from in's consumer.
model::Netlist resolve_fwd(const std::function<ObjectFifo(const ObjectFifo&)>& link, const std::string& device = "npu2",
                           std::int64_t out_elems = 16) {
    ObjectFifo in(i32(16), "in");
    ObjectFifo out = link(in);
    return resolve(Program(device, Runtime(fill_drain, fn_args(i32(16), i32(out_elems), in.prod(), out.cons())), {}));
}

// A mem tile whose S2MM 0 fills `buf` (i32[8]) from the shim and whose channel `tx` sends it back.
model::Netlist resolve_mem(DmaChannel tx, const std::string& device = "npu2", Tile tile = kMem) {
    Lock p(tile, std::nullopt, 1, "p"), c(tile, std::nullopt, 0, "c");
    Buffer buf(i32(8), "buf", {}, tile);
    for (auto& b : tx.bds) {
        b.buffer = buf;
        b.acquires = {{c}};
        b.releases = {{p}};
    }
    Runtime rt([](RuntimeData, RuntimeData) {}, fn_args(i32(8), i32(16)));
    rt.add_flow(Flow(kShim, tile, {.shim_symbol = "in"}));
    rt.add_flow(Flow(tile, kShim, {.src_channel = tx.channel, .shim_symbol = "out"}));
    rt.add_lock(p);
    rt.add_lock(c);
    rt.add_tile_dma(TileDma(tile,
                            {DmaChannel{.direction = DMAChannelDir::S2MM,
                                        .channel = 0,
                                        .bds = {Bd{.buffer = buf, .acquires = {{p}}, .releases = {{c}}}}},
                             tx},
                            "mem_dma"));
    return resolve(Program(device, rt, {}, "pad"));
}

// The padded MM2S Bd of resolve_mem: 8 elements padded 4 before and 4 after.
Bd padded_bd(PadDims pad = {{4, 4}}, std::vector<std::int64_t> sizes = {8}, std::int64_t length = 16) {
    return Bd{.buffer = Buffer(i32(8), "unused"),
              .length = length,
              .sizes = sizes,
              .strides = std::vector<std::int64_t>(sizes.size(), 1),
              .pad_dimensions = std::move(pad)};
}
DmaChannel mm2s(std::vector<Bd> bds, std::int64_t pad_value = 0) {
    return DmaChannel{.direction = DMAChannelDir::MM2S, .channel = 0, .bds = std::move(bds), .pad_value = pad_value};
}
} // namespace

void add_padding(Catalog& c) {
    c.component("Padding and ObjectFifoLink",
                "Mem-tile MM2S padding (`pad_dimensions`, `pad_value`) of fifos and TileDma Bds "
                "(`frontend/src/resolve/Padding.cpp`), and the explicit `ObjectFifoLink` "
                "(`frontend/src/ObjectFifoLink.cpp`).");
    c.site("frontend/src/resolve/Padding.cpp");
    NPUSIM_ERROR(c, "pad.value_register", kDesign,
                 "fifo 'out': pad_value 7 on npu1_1col: `padValue` requires the CONSTANT_PAD_VALUE register, "
                 "unavailable on this target (its mem tiles pad with zeros)",
                 resolve_fwd(
                     [](const ObjectFifo& in) {
                         return in.cons().forward({.obj_type = i32(24),
                                                   .name = "out",
                                                   .dims_to_stream = {{16, 1}},
                                                   .pad_dimensions = {{4, 4}},
                                                   .pad_value = 7});
                     },
                     "npu1_1col", 24));
    NPUSIM_ERROR(c, "pad.value_needs_dims", kDesign, "fifo 'out': pad_value 7: `padValue` requires `padDimensions`",
                 resolve_fwd([](const ObjectFifo& in) { return in.cons().forward({.name = "out", .pad_value = 7}); }));
    NPUSIM_ERROR(c, "pad.exceeds_len", kDesign,
                 "fifo 'out' link MM2S: 96 B with padding for a length of 64 B: Data exceeds len after padding.",
                 resolve_fwd([](const ObjectFifo& in) {
                     return in.cons().forward({.name = "out", .dims_to_stream = {{16, 1}}, .pad_dimensions = {{4, 4}}});
                 }));
    NPUSIM_ERROR(c, "pad.short_of_len", kDesign,
                 "fifo 'out' link MM2S: the padded pattern streams 96 B but the BD's length is 128 B; npusim models a "
                 "padded BD whose padded pattern is its whole length",
                 resolve_fwd(
                     [](const ObjectFifo& in) {
                         return in.cons().forward({.obj_type = i32(32),
                                                   .name = "out",
                                                   .dims_to_stream = {{16, 1}},
                                                   .pad_dimensions = {{4, 4}}});
                     },
                     "npu2", 32));
    NPUSIM_ERROR(c, "pad.negative", kDesign, "fifo 'out': pad_dimensions[0] (-1, 4) is negative",
                 resolve_fwd([](const ObjectFifo& in) {
                     return in.cons().forward({.name = "out", .dims_to_stream = {{16, 1}}, .pad_dimensions = {{-1, 4}}});
                 }));
    NPUSIM_ERROR(c, "pad.padded_reads_outside", kDesign,
                 "fifo 'out' link MM2S: the padded BD reads offsets 0..127 from 0 B of a 64 B buffer",
                 resolve_fwd(
                     [](const ObjectFifo& in) {
                         return in.cons().forward({.obj_type = i32(40),
                                                   .name = "out",
                                                   .dims_to_stream = {{32, 1}},
                                                   .pad_dimensions = {{4, 4}}});
                     },
                     "npu2", 40));

    // TileDma Bds and DmaChannels.
    NPUSIM_ERROR(c, "pad.bd_needs_dims", kDesign,
                 "TileDma 'mem_dma' MM2S channel 0 Bd 0: Padding requires n-d data layouts expressed as wrap(s) and "
                 "stride(s).",
                 resolve_mem(mm2s({padded_bd({{4, 4}}, {}, 8)})));
    NPUSIM_ERROR(c, "pad.bd_mem_tile_only", kDesign,
                 "TileDma 'mem_dma' MM2S channel 0 Bd 0: Padding is only supported by memtile dma bds.",
                 resolve_mem(mm2s({padded_bd()}), "npu2", kCore));
    NPUSIM_ERROR(c, "pad.bd_dims_mismatch", kDesign,
                 "TileDma 'mem_dma' MM2S channel 0 Bd 0: 2 padding entries for 1 sizes: Mismatch number of dimensions "
                 "between padding(s) and wrap(s) and stride(s).",
                 resolve_mem(mm2s({padded_bd({{0, 0}, {4, 4}})})));
    NPUSIM_ERROR(c, "pad.bd_inner_before", kDesign,
                 "TileDma 'mem_dma' MM2S channel 0 Bd 0: padding before 1 x 1 B: Inner-most padding-before count must "
                 "result in padding in 32-bit words.",
                 Bd b = padded_bd({{1, 3}}, {32}, 36); b.buffer = Buffer(tensor<std::int8_t>({32}), "b8", {}, kMem);
                 Lock p(kMem, std::nullopt, 1, "p"); Lock k(kMem, std::nullopt, 0, "k");
                 Runtime rt([](RuntimeData) {}, fn_args(i32(8))); rt.add_flow(Flow(kMem, kShim, {.shim_symbol = "out"}));
                 rt.add_tile_dma(TileDma(kMem, {mm2s({b})}, "mem_dma")); resolve(Program("npu2", rt, {}, "pad")));
    NPUSIM_ERROR(c, "pad.bd_inner_after", kDesign,
                 "TileDma 'mem_dma' MM2S channel 0 Bd 0: padding after 3 x 1 B: Inner-most padding-after count must "
                 "result in padding in 32-bit words.",
                 Bd b = padded_bd({{4, 3}}, {32}, 40); b.buffer = Buffer(tensor<std::int8_t>({32}), "b8", {}, kMem);
                 Runtime rt([](RuntimeData) {}, fn_args(i32(8))); rt.add_flow(Flow(kMem, kShim, {.shim_symbol = "out"}));
                 rt.add_tile_dma(TileDma(kMem, {mm2s({b})}, "mem_dma")); resolve(Program("npu2", rt, {}, "pad")));
    NPUSIM_ERROR(c, "pad.bd_s2mm", kDesign,
                 "TileDma 'mem_dma' S2MM channel 1 Bd 0: padding is inserted by a mem-tile MM2S channel only; an S2MM "
                 "BD cannot pad",
                 resolve_mem(DmaChannel{.direction = DMAChannelDir::S2MM, .channel = 1, .bds = {padded_bd()}}));
    NPUSIM_ERROR(c, "pad.bd_exceeds_len", kDesign,
                 "TileDma 'mem_dma' MM2S channel 0 Bd 0: 64 B with padding for a length of 32 B: Data exceeds len "
                 "after padding.",
                 resolve_mem(mm2s({padded_bd({{4, 4}}, {8}, 8)})));
    NPUSIM_ERROR(c, "pad.channel_no_padded_bd", kDesign,
                 "TileDma 'mem_dma' MM2S channel 0: DmaChannel.pad_value is set but no BD on the channel has "
                 "pad_dimensions; a pad value needs a padded region.",
                 resolve_mem(mm2s({Bd{.buffer = Buffer(i32(8), "unused")}}, 5)));
    NPUSIM_ERROR(c, "pad.channel_element_sizes", kDesign,
                 "TileDma 'mem_dma' MM2S channel 0: DmaChannel.pad_value is shared by all padded BDs on the channel, "
                 "but they have differing element sizes [1, 4].",
                 Bd b8 = padded_bd({{4, 4}}, {32}, 40); b8.buffer = Buffer(tensor<std::int8_t>({32}), "b8", {}, kMem);
                 Bd b32 = padded_bd(); b32.buffer = Buffer(i32(8), "b32", {}, kMem);
                 Runtime rt([](RuntimeData) {}, fn_args(i32(8))); rt.add_flow(Flow(kMem, kShim, {.shim_symbol = "out"}));
                 rt.add_tile_dma(TileDma(kMem, {mm2s({b8, b32}, 5)}, "mem_dma"));
                 resolve(Program("npu2", rt, {}, "pad")));
    NPUSIM_ERROR(c, "pad.channel_not_memtile", kDesign,
                 "TileDma 'mem_dma' MM2S channel 0: pad_value is only supported on memtile DMA channels",
                 resolve_mem(mm2s({padded_bd()}, 5), "npu2", kCore));
    NPUSIM_ERROR(c, "pad.channel_s2mm", kDesign,
                 "TileDma 'mem_dma' S2MM channel 1: pad_value is only supported on MM2S DMA channels",
                 resolve_mem(DmaChannel{
                     .direction = DMAChannelDir::S2MM, .channel = 1, .bds = {padded_bd()}, .pad_value = 5}));
    NPUSIM_ERROR(c, "pad.channel_register", kDesign,
                 "TileDma 'mem_dma' MM2S channel 0: pad_value requires the CONSTANT_PAD_VALUE register, unavailable on "
                 "this target",
                 resolve_mem(mm2s({padded_bd()}, 5), "npu1_1col"));

    // split/join with one sub-fifo, and ObjectFifoLink.
    c.site("frontend/src/ObjectFifoLink.cpp");
    NPUSIM_ERROR(c, "link.one_sub_offset", kDesign,
                 "fifo 'in': split() with one sub-fifo is a 1-to-1 link (a distribute needs more than one sub-fifo), "
                 "which moves whole objects and ignores offsets: offset 4 must be 0",
                 ObjectFifo in(i32(16), "in");
                 in.cons().split({4}));
    NPUSIM_ERROR(c, "link.explicit_no_source", kDesign, "ObjectFifoLink: An ObjectFifoLink must have at least one source",
                 ObjectFifo out(i32(16), "out");
                 ObjectFifoLink(std::vector<F>{}, std::vector<F>{out.prod()}));
    NPUSIM_ERROR(c, "link.explicit_no_destination", kDesign,
                 "ObjectFifoLink: An ObjectFifoLink must have at least one destination", ObjectFifo in(i32(16), "in");
                 ObjectFifoLink(std::vector<F>{in.cons()}, std::vector<F>{}));
    NPUSIM_ERROR(c, "link.explicit_many_to_many", kDesign,
                 "ObjectFifoLink: An ObjectFifoLink may only have > 1 of either sources or destinations, but not both",
                 ObjectFifo a(i32(8), "a"), b(i32(8), "b"), x(i32(8), "x"), y(i32(8), "y");
                 ObjectFifoLink(std::vector<F>{a.cons(), b.cons()}, std::vector<F>{x.prod(), y.prod()}));
    NPUSIM_ERROR(c, "link.explicit_src_offsets", kDesign,
                 "ObjectFifoLink: The number of source offsets does not match the number of sources",
                 ObjectFifo a(i32(8), "a"), b(i32(8), "b"), out(i32(16), "out");
                 ObjectFifoLink(std::vector<F>{a.cons(), b.cons()}, std::vector<F>{out.prod()}, AnyMemTile, {0}));
    NPUSIM_ERROR(c, "link.explicit_dst_offsets", kDesign,
                 "ObjectFifoLink: The number of destination offsets does not match the number of destinations",
                 ObjectFifo in(i32(16), "in"), x(i32(8), "x"), y(i32(8), "y");
                 ObjectFifoLink(std::vector<F>{in.cons()}, std::vector<F>{x.prod(), y.prod()}, AnyMemTile, {}, {0}));
    NPUSIM_ERROR(c, "link.explicit_shim", kDesign, "ObjectFifoLink: a shim tile cannot be a link tile",
                 ObjectFifo in(i32(16), "in"), out(i32(16), "out");
                 ObjectFifoLink(in.cons(), out.prod(), AnyShimTile));
    NPUSIM_ERROR(c, "link.explicit_empty_handle", kDesign,
                 "ObjectFifoLink: source 0 is an empty handle (default-constructed)", ObjectFifo out(i32(16), "out");
                 ObjectFifoLink(ObjectFifoHandle(), out.prod()));
    NPUSIM_ERROR(c, "link.explicit_role", kDesign,
                 "ObjectFifoLink: destination 0 is fifo 'out' consumer 0; a link's sources are consumer handles and "
                 "its destinations producer handles",
                 ObjectFifo in(i32(16), "in"), out(i32(16), "out");
                 ObjectFifoLink(in.cons(), out.cons()));
    NPUSIM_ERROR(c, "link.explicit_used", kDesign,
                 "ObjectFifoLink: destination 0: fifo 'out' producer is already used elsewhere",
                 ObjectFifo in(i32(16), "in"), out(i32(16), "out"); auto p = out.prod();
                 Worker w([](F) {}, fn_args(p)); ObjectFifoLink(in.cons(), p));
    NPUSIM_ERROR(c, "link.explicit_feeds_twice", kDesign,
                 "ObjectFifoLink: source 0: fifo 'in' already feeds a link",
                 ObjectFifo in(i32(16), "in"), x(i32(16), "x"), y(i32(16), "y");
                 ObjectFifoLink(in.cons(), x.prod()); ObjectFifoLink(in.cons(), y.prod()));
    NPUSIM_ERROR(c, "link.explicit_forward_offsets", kDesign,
                 "ObjectFifoLink of fifo 'in': all offsets should be empty if there is no join or distribute",
                 ObjectFifo in(i32(16), "in"), out(i32(16), "out");
                 ObjectFifoLink(std::vector<F>{in.cons()}, std::vector<F>{out.prod()}, AnyMemTile, {0}, {0}));
    NPUSIM_ERROR(c, "link.explicit_forward_offset", kDesign,
                 "ObjectFifoLink of fifo 'in': a 1-to-1 link moves whole objects and ignores offsets: offset 2 must "
                 "be 0",
                 ObjectFifo in(i32(16), "in"), out(i32(16), "out");
                 ObjectFifoLink(std::vector<F>{in.cons()}, std::vector<F>{out.prod()}, AnyMemTile, {}, {2}));
    NPUSIM_ERROR(c, "link.explicit_offsets_needed", kDesign,
                 "ObjectFifoLink of fifo 'in': number of provided dst offsets must be equal to the number of output "
                 "objectFifos",
                 ObjectFifo in(i32(16), "in"), x(i32(8), "x"), y(i32(8), "y");
                 ObjectFifoLink(std::vector<F>{in.cons()}, std::vector<F>{x.prod(), y.prod()}));
}

} // namespace npusim::errcat
