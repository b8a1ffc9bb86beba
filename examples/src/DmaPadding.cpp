// dma_padding (after mlir-aie programming_examples/basic/dma_padding): a transfer shim -> mem tile
// -> shim whose mem-tile MM2S pads every object with `before` elements in front and `after`
// elements behind, filled with `pad` (the per-element pad value; NPU1 has no pad value register
// and pads with zeros, so a non-zero `pad` there is refused as the toolchain refuses it). Five
// ways to write it, chosen by `api`:
//   forward  - in.cons().forward({.obj_type = padded, .dims_to_stream, .pad_dimensions, .pad_value})
//   split    - in.cons().split({0}, {.obj_types = {padded}, ..., .pad_value = {pad}}): a split with
//              one output is a forward
//   link     - the padded fifo built directly, then ObjectFifoLink(in.cons(), out.prod())
//   tile_dma - a pinned mem tile with a Buffer, two Locks and a TileDma whose MM2S Bd carries
//              pad_dimensions and whose DmaChannel carries pad_value, fed and drained by Flows
//   tile_dma_any - the same on AnyMemTile: the Buffer, the Locks, the TileDma and the Flows' ends
//              name one unplaced Tile, which the placer puts on one mem tile (aie-place-tiles'
//              placeNonCoreTileByCentroid; no core: column 0, AIEPlacer.cpp l.1238)
// In each the mem tile holds the input-sized object (the toolchain's buffer for a padded link,
// AIEObjectFifoStatefulTransform.cpp:957-963) and the output BD streams the padded object.
// `count` objects go through one after the other. Golden: c[k] = [pad]*before ++ a[k] ++ [pad]*after.
#include "Design.hpp"
#include "SymbolSequence.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

const std::vector<std::string> kApis{"forward", "split", "link", "tile_dma", "tile_dma_any"};
const std::vector<std::string> kDtypes{"i32", "i8"};

template <class T>
DesignInstance build_padding(const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
    const std::string design = "dma_padding";
    const auto real = p.at("real"), before = p.at("before"), after = p.at("after"), count = p.at("count");
    const auto pad = p.at("pad");
    const auto& api = kApis.at(static_cast<std::size_t>(p.at("api")));
    if (real <= 0 || before < 0 || after < 0 || count <= 0)
        throw DesignError(fmt::format("design '{}': real={} and count={} must be positive, before={} and after={} "
                                      "not negative",
                                      design, real, count, before, after));
    const auto region = before + real + after;
    const auto obj_ty = tensor<T>({real});
    const auto pad_ty = tensor<T>({region});
    const auto in_ty = tensor<T>({count * real});
    const auto out_ty = tensor<T>({count * region});
    const StreamDims dims{{real, 1}};
    const PadDims pads{{before, after}};

    std::vector<Worker> workers;
    auto passthrough = [&](const ObjectFifo& in, const ObjectFifo& out) {
        return Runtime(
            [](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle h) {
                i.fill(a);
                h.drain(c, {.wait = true});
            },
            fn_args(in_ty, out_ty, in.prod(), out.cons()));
    };
    std::optional<Runtime> rt;
    if (api == "forward") {
        ObjectFifo in(obj_ty, "in");
        ObjectFifo out = in.cons().forward({.obj_type = pad_ty,
                                            .name = "out",
                                            .dims_to_stream = dims,
                                            .pad_dimensions = pads,
                                            .pad_value = pad});
        rt = passthrough(in, out);
    } else if (api == "split") {
        ObjectFifo in(obj_ty, "in");
        auto outs = in.cons().split({0}, {.obj_types = {pad_ty},
                                          .names = {"out"},
                                          .dims_to_stream = {dims},
                                          .pad_dimensions = {pads},
                                          .pad_value = {pad}});
        rt = passthrough(in, outs.front());
    } else if (api == "link") {
        ObjectFifo in(obj_ty, "in");
        ObjectFifo out(pad_ty, "out", 2, {.dims_to_stream = dims, .pad_dimensions = pads, .pad_value = pad});
        ObjectFifoLink(in.cons(), out.prod());
        rt = passthrough(in, out);
    } else { // tile_dma, tile_dma_any
        const Tile shim(0, 0);
        const Tile mem = api == "tile_dma_any" ? AnyMemTile : Tile(0, 1);
        Buffer buf(obj_ty, "mem_buf", {}, mem);
        Lock prod(mem, std::nullopt, 1, "p"), cons(mem, std::nullopt, 0, "c");
        TileDma dma(mem,
                    {DmaChannel{.direction = DMAChannelDir::S2MM,
                                .channel = 0,
                                .bds = {Bd{.buffer = buf, .acquires = {{prod}}, .releases = {{cons}}}}},
                     DmaChannel{.direction = DMAChannelDir::MM2S,
                                .channel = 0,
                                .bds = {Bd{.buffer = buf,
                                           .length = region,
                                           .acquires = {{cons}},
                                           .releases = {{prod}},
                                           .sizes = {real},
                                           .strides = {1},
                                           .pad_dimensions = pads}},
                                .pad_value = pad}},
                    "mem_dma");
        rt.emplace(in_out_symbol_sequence, fn_args(in_ty, out_ty));
        rt->add_flow(Flow(shim, mem, {.shim_symbol = "in"}));
        rt->add_flow(Flow(mem, shim, {.shim_symbol = "out"}));
        rt->add_lock(prod);
        rt->add_lock(cons);
        rt->add_tile_dma(dma);
    }

    std::mt19937 gen(static_cast<std::uint32_t>(o.seed));
    std::uniform_int_distribution<int> dist(-100, 100);
    std::vector<T> a(static_cast<std::size_t>(count * real));
    for (auto& x : a) x = static_cast<T>(dist(gen));
    // The pad word holds the element's low bits (pack_pad_value): the same as converting to T.
    const T fill = static_cast<T>(pad);
    auto reference = [=, shape = out_ty.shape](const Tensors& t) {
        const auto x = get(t, "a").values<T>();
        std::vector<T> c;
        for (std::int64_t k = 0; k < count; ++k) {
            c.insert(c.end(), static_cast<std::size_t>(before), fill);
            c.insert(c.end(), x.begin() + k * real, x.begin() + (k + 1) * real);
            c.insert(c.end(), static_cast<std::size_t>(after), fill);
        }
        return tensors("c", Tensor::from(shape, c));
    };
    return DesignInstance(Program(dev, *rt, std::move(workers), design),
                          {ArgSpec::input("a", in_ty), ArgSpec::output("c", out_ty)},
                          tensors("a", Tensor::from(in_ty.shape, a)), reference, design);
}

} // namespace

DesignSpec make_dma_padding() {
    DesignSpec s;
    s.name = "dma_padding";
    s.description = "mem-tile MM2S padding: each object padded before/after with a pad value (npu2) or zeros";
    s.params = {{"api", 0, "how the design is written", kApis},
                {"dtype", 0, "element type", kDtypes},
                {"real", 8, "elements of each input object"},
                {"before", 4, "pad elements in front of each object"},
                {"after", 4, "pad elements behind each object"},
                {"count", 4, "objects moved"},
                {"pad", 0, "per-element pad value (non-zero needs npu2's CONSTANT_PAD_VALUE register)"}};
    s.devices = every_device();
    s.kernels_note = "no kernel: the mem tile's MM2S DMA inserts the padding";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        return p.at("dtype") == 0 ? build_padding<std::int32_t>(dev, p, o) : build_padding<std::int8_t>(dev, p, o);
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_dma_padding, 235);

} // namespace npusim::examples
