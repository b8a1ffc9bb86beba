#include "npusim/frontend/Buffer.hpp"

#include "npusim/frontend/Runtime.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron {

Buffer::Buffer(TensorType type, std::string name, std::vector<std::uint8_t> initial_bytes, std::optional<Tile> tile)
    : state_(std::make_shared<detail::BufferState>()) {
    if (name.empty()) throw DesignError("Buffer: a name is required");
    if (type.elements() < 1) throw DesignError(fmt::format("buffer '{}': type {} has no elements", name, type.str()));
    if (!initial_bytes.empty() && initial_bytes.size() != type.bytes())
        throw DesignError(fmt::format("buffer '{}': initial value has {} B, the type {} has {} B", name,
                                      initial_bytes.size(), type.str(), type.bytes()));
    // aie.buffer lives in a compute or mem tile's data memory (a mem-tile Buffer serves a TileDma,
    // IRON programming_examples/basic/packet_switch); a worker's Buffer must be on a compute tile
    // its core reaches (place_buffers).
    if (tile && tile->pinned() && model::tile_kind_of_row(*tile->row) == model::TileKind::Shim)
        throw DesignError(
            fmt::format("buffer '{}': tile {} is a shim tile, which has no data memory", name, tile->str()));
    state_->name = std::move(name);
    state_->type = std::move(type);
    state_->init = std::move(initial_bytes);
    state_->tile = std::move(tile);
    state_->uid = detail::next_uid();
}

Element Buffer::view() const {
    auto* svc = model::CoreServices::current();
    if (!svc) throw DesignError(fmt::format("buffer '{}': view() called outside a worker body", state_->name));
    return Element(svc->buffer(state_->uid), &state_->type, &state_->name);
}

void Buffer::throw_bad_write(std::int64_t index, std::string_view type) const {
    throw DesignError(fmt::format("buffer '{}' ({}): write of a {} value at index {} does not fit", state_->name,
                                  state_->type.str(), type, index));
}

void Buffer::throw_splat_type(const std::string& name, const TensorType& type, std::string_view given) {
    throw DesignError(fmt::format("buffer '{}': a {} initial value cannot fill the type {}", name, given, type.str()));
}

void Buffer::write_converted(std::int64_t index, double fvalue, std::int64_t ivalue, bool is_float) const {
    const auto& t = state_->type;
    if (index < 0 || index >= t.elements())
        throw DesignError(fmt::format("buffer '{}' ({}): rtp[{}] is outside its {} elements", state_->name, t.str(),
                                      index, t.elements()));
    auto integral = [&](std::int64_t lo, std::int64_t hi) {
        const double v = is_float ? fvalue : static_cast<double>(ivalue);
        if (v != static_cast<double>(static_cast<std::int64_t>(v)) || v < static_cast<double>(lo) ||
            v > static_cast<double>(hi))
            throw DesignError(fmt::format(
                "buffer '{}' ({}): rtp[{}] = {} does not fit a {} element", state_->name, t.str(), index,
                is_float ? fmt::format("{:g}", fvalue) : std::to_string(ivalue), model::dtype_name(t.dtype)));
        return static_cast<std::int64_t>(v);
    };
    const double f = is_float ? fvalue : static_cast<double>(ivalue);
    switch (t.dtype) {
    case DType::i8: write<std::int8_t>(index, static_cast<std::int8_t>(integral(-128, 127))); break;
    case DType::u8: write<std::uint8_t>(index, static_cast<std::uint8_t>(integral(0, 255))); break;
    case DType::i16: write<std::int16_t>(index, static_cast<std::int16_t>(integral(-32768, 32767))); break;
    case DType::u16: write<std::uint16_t>(index, static_cast<std::uint16_t>(integral(0, 65535))); break;
    case DType::i32: write<std::int32_t>(index, static_cast<std::int32_t>(integral(INT32_MIN, INT32_MAX))); break;
    case DType::u32: write<std::uint32_t>(index, static_cast<std::uint32_t>(integral(0, UINT32_MAX))); break;
    case DType::f32: write<float>(index, static_cast<float>(f)); break;
    case DType::bf16: write<bfloat16>(index, bfloat16(static_cast<float>(f))); break;
    case DType::bfp16ebs8:
        throw DesignError(fmt::format("buffer '{}' ({}): rtp[{}] = ...: a v8bfp16ebs8 block (8 values sharing one "
                                      "exponent) has no scalar value to set",
                                      state_->name, t.str(), index));
    }
}

namespace detail {
void record_buffer_write(BufferState* b, std::uint64_t offset, std::vector<std::uint8_t> bytes) {
    auto* rec = SequenceRecorder::current();
    if (!rec) throw DesignError(fmt::format("buffer '{}': write() called outside the runtime sequence", b->name));
    rec->buffer_writes.push_back({b, offset, std::move(bytes)});
    rec->ops.push_back({RecordedOp::Kind::WriteBuffer, static_cast<int>(rec->buffer_writes.size()) - 1});
}
} // namespace detail

} // namespace npusim::iron
