#include "resolve/BdEncoding.hpp"

#include "resolve/Padding.hpp"

#include "npusim/model/AddressPattern.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron::detail {

std::uint64_t max_wrap(const model::TileResources& res) { return (std::uint64_t{1} << res.wrap_bits) - 1; }
std::int64_t max_step(const model::TileResources& res) { return std::int64_t{1} << res.step_bits; }
std::uint64_t max_length_words(const model::TileResources& res) {
    return (std::uint64_t{1} << res.buffer_length_bits) - 1;
}
std::int64_t max_iterations(const model::TileResources& res) { return std::int64_t{1} << res.iteration_bits; }

bool wrap_fits(std::uint64_t size, const model::TileResources& res) { return size <= max_wrap(res); }
bool step_fits(std::int64_t stride, const model::TileResources& res) { return stride >= 0 && stride <= max_step(res); }

namespace {

// One design dimension in 32-bit words: the innermost dimension of sub-word elements becomes a
// run of words, every other stride is scaled to words.
model::Dim dim_in_words(std::int64_t size, std::int64_t stride, bool inner, std::int64_t eb, std::size_t i,
                        const std::string& who) {
    if (inner && eb != 4) {
        if (stride != 1)
            throw DesignError(fmt::format("{}: the innermost stride must be 1 for {}-byte elements (got {}); DMA "
                                          "address generation works on 32-bit words",
                                          who, eb, stride));
        if ((size * eb) % 4 != 0)
            throw DesignError(
                fmt::format("{}: innermost size {} x {} B is not a whole number of 32-bit words", who, size, eb));
        return {static_cast<std::uint32_t>(size * eb / 4), 1};
    }
    if ((stride * eb) % 4 != 0)
        throw DesignError(fmt::format("{}: stride {} x {} B of dimension {} is not a whole number of 32-bit words", who,
                                      stride, eb, i));
    return {static_cast<std::uint32_t>(size), stride * eb / 4};
}

void check_tile_dim_fields(const model::Dim& d, std::size_t i, const model::TileResources& res, const char* kind,
                           const std::string& who) {
    if (!wrap_fits(d.size, res))
        throw DesignError(fmt::format("{}: dimension {} size {} exceeds the {}-bit size field of a {} tile BD (max {})",
                                      who, i, d.size, res.wrap_bits, kind, max_wrap(res)));
    if (!step_fits(d.stride, res))
        throw DesignError(
            fmt::format("{}: dimension {} stride {} words exceeds the {}-bit stride field of a {} tile BD "
                        "(max {})",
                        who, i, d.stride, res.step_bits, kind, max_step(res)));
}

} // namespace

std::vector<model::Dim> to_words(const StreamDims& dims, const TensorType& t, const model::TileResources& res,
                                 model::TileKind tile_kind, const std::string& who) {
    std::vector<model::Dim> out;
    if (dims.empty()) return out;
    const char* kind = model::tile_kind_name(tile_kind);
    if (static_cast<int>(dims.size()) > res.bd_dims)
        throw DesignError(
            fmt::format("{}: {} dimensions but a {} tile BD supports {}", who, dims.size(), kind, res.bd_dims));
    const std::int64_t eb = static_cast<std::int64_t>(model::dtype_bytes(t.dtype));
    if (const auto [isize, istride] = dims.back();
        tile_kind != model::TileKind::Shim && eb < 4 && istride == 1 && isize >= 1 && isize * eb < 4) {
        // A sub-word innermost dimension narrower than one word (vector_reduce_max_memtile's
        // [(1, 2), (1, 1)] on bf16): mlir-aie's static BD lowering converts its size to words by
        // truncation (lib/Targets/AIERT.cpp:486-491 at 3ca0193: size * width / 4 as uint16), giving a
        // d0 wrap of 0, which the DMA's address generation reads as "no wrap": the BD then moves its
        // length linearly and the outer dimensions never advance. The DMABDOp verifier accepts it
        // (AIEDialect.cpp:2456-2465 only requires the innermost stride 1). npusim lowers it the same
        // way: a linear BD.
        return out;
    }
    for (std::size_t i = 0; i < dims.size(); ++i) {
        auto [size, stride] = dims[i];
        if (size < 1) throw DesignError(fmt::format("{}: dimension {} has size {}", who, i, size));
        const model::Dim d = dim_in_words(size, stride, i + 1 == dims.size(), eb, i, who);
        check_tile_dim_fields(d, i, res, kind, who);
        out.push_back(d);
    }
    return out;
}

void check_bd_length(const model::BufferDescriptor& bd, const model::TileResources& res, model::TileKind kind) {
    const std::uint64_t max_words = max_length_words(res);
    if (bd.length_bytes / 4 > max_words)
        throw DesignError(fmt::format("{}: a BD of {} B ({} words) exceeds the {}-bit length field of a {} tile BD "
                                      "(max {} words)",
                                      bd.prov.describe(), bd.length_bytes, bd.length_bytes / 4, res.buffer_length_bits,
                                      model::tile_kind_name(kind), max_words));
}

model::BufferDescriptor make_bd(int buffer, std::uint32_t len, std::vector<model::Dim> dims, int acq, int rel,
                                model::Provenance prov) {
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

void check_layout_fits_object(const std::vector<model::Dim>& dims, std::uint32_t len, const std::string& fifo,
                              const std::string& role) {
    if (dims.empty()) return;
    const model::AddressPattern p(0, dims);
    if (p.total_bytes() != len || p.min_offset() < 0 || p.max_offset() >= static_cast<std::int64_t>(len))
        throw DesignError(
            fmt::format("fifo '{}' {}: data layout moves {} B within offsets {}..{}, but the object is {} B", fifo,
                        role, p.total_bytes(), p.min_offset(), p.max_offset(), len));
}

void check_layout_fits_segment(const std::vector<model::BufferDescriptor>& bds,
                               const std::vector<model::NetBuffer>& buffers, const std::string& fifo,
                               const std::string& role) {
    for (const auto& bd : bds) {
        if (bd.dims.empty()) continue;
        const auto& buf = buffers[static_cast<std::size_t>(bd.buffer)];
        if (!bd.pad.empty()) {
            check_padded_bd(bd, buf, fmt::format("fifo '{}' {}", fifo, role));
            continue;
        }
        const model::AddressPattern p(0, bd.dims);
        if (p.total_bytes() != bd.length_bytes || p.min_offset() + bd.offset_bytes < 0 ||
            p.max_offset() + bd.offset_bytes >= buf.bytes)
            throw DesignError(
                fmt::format("fifo '{}' {}: data layout moves {} B within offsets {}..{} of a {} B segment at {} of "
                            "a {} B buffer",
                            fifo, role, p.total_bytes(), p.min_offset(), p.max_offset(), bd.length_bytes,
                            bd.offset_bytes, buf.bytes));
    }
}

std::uint64_t shim_task_offset(const TensorAccessPattern& tap, std::int64_t eb, const std::string& who) {
    if ((tap.offset() * eb) % 4 != 0)
        throw DesignError(fmt::format("{}: offset {} x {} B is not 4-byte aligned", who, tap.offset(), eb));
    return static_cast<std::uint64_t>(tap.offset() * eb);
}

namespace {

// AIEX verifyStridesWraps checks the hardware size 3 (the outermost size minus one, BdLowering.h
// encodeHardwareStridesWraps) against 1 << iteration_bits: an outermost size of up to 65 passes.
void check_shim_repeat(std::int64_t repeat_size, const model::TileResources& shim, int max_repeat_count,
                       const std::string& who) {
    if (repeat_size - 1 > max_iterations(shim))
        throw DesignError(fmt::format("{}: Size 3 exceeds the [1:{}] range. (the outermost (repeat) size {} is more "
                                      "than {} + 1; AIEX verifyStridesWraps. aie-decompose-large-dma-bd splits only "
                                      "transfers whose inner dimensions are not contiguous)",
                                      who, max_iterations(shim), repeat_size, max_iterations(shim)));
    if (repeat_size - 1 > max_repeat_count)
        throw DesignError(fmt::format("{}: repeat count {} exceeds {}", who, repeat_size - 1, max_repeat_count));
}

void check_shim_dim_fields(const std::vector<model::Dim>& dims, const model::TileResources& shim,
                           const std::string& who) {
    if (!wrap_fits(dims[3].size, shim) || !wrap_fits(dims[2].size, shim))
        throw DesignError(fmt::format("{}: d0 size {} / d1 size {} words exceed {} ({}-bit size field of a shim BD)",
                                      who, dims[3].size, dims[2].size, max_wrap(shim), shim.wrap_bits));
    for (const auto& d : dims)
        if (!step_fits(d.stride, shim))
            throw DesignError(fmt::format("{}: stride {} words exceeds the {}-bit stride field of a shim BD", who,
                                          d.stride, shim.step_bits));
}

} // namespace

std::vector<TensorAccessPattern> shim_repeat_chunks(const TensorAccessPattern& tap, const model::TileResources& shim) {
    if (shim_task_count(tap, shim) == 1) return {tap};
    const std::int64_t R = tap.sizes()[0];
    const std::int64_t chunk = max_iterations(shim);
    std::vector<TensorAccessPattern> out;
    std::vector<std::int64_t> sizes(tap.sizes().begin(), tap.sizes().end());
    const std::vector<std::int64_t> strides(tap.strides().begin(), tap.strides().end());
    for (std::int64_t done = 0; done < R; done += chunk) {
        sizes[0] = std::min(chunk, R - done);
        out.emplace_back(tap.tensor_dims(), tap.offset() + done * strides[0], sizes, strides);
    }
    return out;
}

std::vector<model::Dim> shim_task_dims(const TensorAccessPattern& tap, std::int64_t eb,
                                       const model::TileResources& shim, int max_repeat_count, const std::string& who) {
    const auto& s = tap.sizes();
    const auto& st = tap.strides();
    // Linear mode: the d0..d2 part is one contiguous run -> only buffer_length is used.
    const bool contiguous = shim_inner_contiguous(tap);
    check_shim_repeat(s[0], shim, max_repeat_count, who);
    if (eb != 4 && st[3] != 1)
        throw DesignError(fmt::format("{}: the innermost stride must be 1 for {}-byte elements", who, eb));
    auto words = [&](std::int64_t elems, const char* field) {
        if ((elems * eb) % 4 != 0)
            throw DesignError(
                fmt::format("{}: {} {} x {} B is not a whole number of 32-bit words", who, field, elems, eb));
        return elems * eb / 4;
    };
    std::vector<model::Dim> dims(4);
    dims[0] = {static_cast<std::uint32_t>(s[0]), words(st[0], "stride")};
    if (contiguous) {
        dims[1] = {1, 0};
        dims[2] = {1, 0};
        dims[3] = {static_cast<std::uint32_t>(words(s[1] * s[2] * s[3], "length")), 1};
        return dims;
    }
    dims[1] = {static_cast<std::uint32_t>(s[1]), words(st[1], "stride")};
    dims[2] = {static_cast<std::uint32_t>(s[2]), words(st[2], "stride")};
    dims[3] = eb == 4 ? model::Dim{static_cast<std::uint32_t>(s[3]), st[3]}
                      : model::Dim{static_cast<std::uint32_t>(words(s[3], "innermost size")), 1};
    check_shim_dim_fields(dims, shim, who);
    return dims;
}

} // namespace npusim::iron::detail
