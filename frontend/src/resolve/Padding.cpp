#include "resolve/Padding.hpp"

#include "npusim/model/AddressPattern.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

namespace npusim::iron::detail {

std::uint32_t pack_pad_value(std::int64_t value, std::size_t elem_bytes) {
    if (value == 0) return 0;
    // npusim's element types have at most 4 bytes (model::DType), so util.py's refusal of wider
    // elements cannot arise.
    const unsigned bits = static_cast<unsigned>(elem_bytes * 8);
    const std::uint64_t mask = bits == 32 ? 0xFFFFFFFFull : ((std::uint64_t{1} << bits) - 1);
    const std::uint64_t v = static_cast<std::uint64_t>(value) & mask;
    std::uint64_t word = 0;
    for (unsigned shift = 0; shift < 32; shift += bits) word |= v << shift;
    return static_cast<std::uint32_t>(word);
}

std::uint64_t padded_bytes(const model::BufferDescriptor& bd) {
    std::uint64_t words = 1;
    for (std::size_t d = 0; d < bd.dims.size(); ++d) {
        const auto p = d < bd.pad.size() ? bd.pad[d] : model::PadDim{};
        words *= std::uint64_t{bd.dims[d].size} + p.before + p.after;
    }
    return words * 4;
}

std::vector<model::PadDim> pad_in_words(const PadDims& pad, std::int64_t eb, const std::string& who) {
    std::vector<model::PadDim> out;
    for (std::size_t d = 0; d < pad.size(); ++d) {
        auto [b, a] = pad[d];
        if (b < 0 || a < 0)
            throw DesignError(fmt::format("{}: pad_dimensions[{}] ({}, {}) is negative", who, d, b, a));
        if (d + 1 == pad.size()) {
            if ((b * eb) % 4)
                throw DesignError(fmt::format("{}: padding before {} x {} B: Inner-most padding-before count must "
                                              "result in padding in 32-bit words.",
                                              who, b, eb));
            if ((a * eb) % 4)
                throw DesignError(fmt::format("{}: padding after {} x {} B: Inner-most padding-after count must "
                                              "result in padding in 32-bit words.",
                                              who, a, eb));
            b = b * eb / 4;
            a = a * eb / 4;
        }
        out.push_back({static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(a)});
    }
    return out;
}

void check_padded_bd(const model::BufferDescriptor& bd, const model::NetBuffer& buf, const std::string& who) {
    const model::AddressPattern p(0, bd.dims);
    if (p.min_offset() + bd.offset_bytes < 0 || p.max_offset() + bd.offset_bytes >= buf.bytes)
        throw DesignError(fmt::format("{}: the padded BD reads offsets {}..{} from {} B of a {} B buffer", who,
                                      p.min_offset(), p.max_offset(), bd.offset_bytes, buf.bytes));
    const std::uint64_t padded = padded_bytes(bd);
    if (padded > bd.length_bytes)
        throw DesignError(fmt::format("{}: {} B with padding for a length of {} B: Data exceeds len after padding.",
                                      who, padded, bd.length_bytes));
    if (padded < bd.length_bytes)
        throw DesignError(fmt::format("{}: the padded pattern streams {} B but the BD's length is {} B; npusim models "
                                      "a padded BD whose padded pattern is its whole length",
                                      who, padded, bd.length_bytes));
}

void encode_padding(std::vector<model::BufferDescriptor>& bds, const FifoState& f, const std::vector<model::Dim>& dims,
                    const model::TileResources& res, model::TileKind kind, model::TileCoord tile) {
    if (f.pad_dimensions.empty()) return;
    if (!res.zero_padding)
        throw DesignError(fmt::format("fifo '{}': pad_dimensions need a mem tile link; {} tile {} cannot pad", f.name,
                                      model::tile_kind_name(kind), model::to_string(tile)));
    if (f.pad_dimensions.size() != dims.size())
        throw DesignError(fmt::format("fifo '{}': pad_dimensions has {} entries for {} dims_to_stream dimensions",
                                      f.name, f.pad_dimensions.size(), dims.size()));
    const std::int64_t feb = static_cast<std::int64_t>(model::dtype_bytes(f.obj_type.dtype));
    const std::string who = fmt::format("fifo '{}'", f.name);
    std::vector<model::PadDim> pad;
    const auto last = f.pad_dimensions.back();
    if ((last.first * feb) % 4 || (last.second * feb) % 4)
        throw DesignError(fmt::format("fifo '{}': innermost padding {}/{} elements is not a whole number of 32-bit "
                                      "words",
                                      f.name, last.first, last.second));
    pad = pad_in_words(f.pad_dimensions, feb, who);
    const std::uint32_t word = pack_pad_value(f.pad_value, static_cast<std::size_t>(feb));
    for (auto& bd : bds) {
        bd.pad = pad;
        bd.pad_word = word;
    }
}

void verify_pad_value(const FifoState& f, const model::DeviceSpec& dev) {
    if (f.pad_value == 0) return;
    if (f.pad_dimensions.empty())
        throw DesignError(fmt::format("fifo '{}': pad_value {}: `padValue` requires `padDimensions`", f.name,
                                      f.pad_value));
    if (!dev.mem.constant_pad_value)
        throw DesignError(fmt::format("fifo '{}': pad_value {} on {}: `padValue` requires the CONSTANT_PAD_VALUE "
                                      "register, unavailable on this target (its mem tiles pad with zeros)",
                                      f.name, f.pad_value, dev.name));
}

void encode_bd_padding(model::BufferDescriptor& bd, const Bd& b, std::int64_t eb, model::TileKind kind,
                       model::Direction dir, const std::string& who) {
    if (!b.pad_dimensions) return;
    if (b.sizes.empty())
        throw DesignError(fmt::format("{}: Padding requires n-d data layouts expressed as wrap(s) and stride(s).",
                                      who));
    if (kind != model::TileKind::Mem)
        throw DesignError(fmt::format("{}: Padding is only supported by memtile dma bds.", who));
    if (b.pad_dimensions->size() != b.sizes.size())
        throw DesignError(fmt::format("{}: {} padding entries for {} sizes: Mismatch number of dimensions between "
                                      "padding(s) and wrap(s) and stride(s).",
                                      who, b.pad_dimensions->size(), b.sizes.size()));
    // Padding is inserted by the MM2S (read) side of a mem-tile DMA only (AM020, memory tile DMA:
    // "zero-padding" on MM2S; docs/hardware-sources.md zero_padding).
    if (dir != model::Direction::MM2S)
        throw DesignError(fmt::format("{}: padding is inserted by a mem-tile MM2S channel only; an S2MM BD cannot pad",
                                      who));
    bd.pad = pad_in_words(*b.pad_dimensions, eb, who);
}

std::uint32_t channel_pad_word(const DmaChannel& ch, const model::TileResources& res, model::TileKind kind,
                               const std::string& who) {
    if (ch.pad_value == 0) return 0;
    std::set<std::size_t> sizes;
    for (const auto& b : ch.bds)
        if (b.pad_dimensions) sizes.insert(model::dtype_bytes(b.buffer.type().dtype));
    if (sizes.empty())
        throw DesignError(fmt::format("{}: DmaChannel.pad_value is set but no BD on the channel has pad_dimensions; a "
                                      "pad value needs a padded region.",
                                      who));
    if (sizes.size() > 1)
        throw DesignError(fmt::format("{}: DmaChannel.pad_value is shared by all padded BDs on the channel, but they "
                                      "have differing element sizes [{}].",
                                      who, fmt::join(sizes, ", ")));
    const std::uint32_t word = pack_pad_value(ch.pad_value, *sizes.begin());
    if (kind != model::TileKind::Mem)
        throw DesignError(fmt::format("{}: pad_value is only supported on memtile DMA channels", who));
    if (ch.direction != model::Direction::MM2S)
        throw DesignError(fmt::format("{}: pad_value is only supported on MM2S DMA channels", who));
    if (!res.constant_pad_value)
        throw DesignError(fmt::format("{}: pad_value requires the CONSTANT_PAD_VALUE register, unavailable on this "
                                      "target",
                                      who));
    return word;
}

} // namespace npusim::iron::detail
