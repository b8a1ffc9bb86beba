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
    if (tile && tile->pinned() && model::tile_kind_of_row(*tile->row) != model::TileKind::Compute)
        throw DesignError(fmt::format("buffer '{}': tile {} is not a compute tile", name, tile->str()));
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

namespace detail {
void record_buffer_write(BufferState* b, std::uint64_t offset, std::vector<std::uint8_t> bytes) {
    auto* rec = SequenceRecorder::current();
    if (!rec) throw DesignError(fmt::format("buffer '{}': write() called outside the runtime sequence", b->name));
    rec->buffer_writes.push_back({b, offset, std::move(bytes)});
    rec->ops.push_back({RecordedOp::Kind::WriteBuffer, static_cast<int>(rec->buffer_writes.size()) - 1});
}
} // namespace detail

} // namespace npusim::iron
