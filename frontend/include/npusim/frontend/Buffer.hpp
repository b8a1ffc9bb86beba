#pragma once
// Buffer (IRON aie.iron.Buffer): a named tensor in a tile's memory that a worker body reads and
// writes directly (scratch data, accumulators, run-time parameters). A Buffer without a tile is
// placed on the tile of the worker that uses it; one with a tile must be reachable from that
// worker's core (own, west, north or south memory). In the runtime sequence, write() records a
// run-time-parameter write (IRON: rtp[i] = v).
#include "npusim/frontend/Element.hpp"
#include "npusim/frontend/TensorType.hpp"
#include "npusim/frontend/Tile.hpp"

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npusim::iron {

namespace detail {
struct WorkerState;
struct BufferState {
    std::string name;
    TensorType type;
    std::vector<std::uint8_t> init; ///< initial contents (empty: zero)
    std::optional<Tile> tile;
    int uid = 0;
    std::vector<std::string> users; ///< names of the workers using it (for messages)
};
void record_buffer_write(BufferState* b, std::uint64_t offset, std::vector<std::uint8_t> bytes);
} // namespace detail

class Buffer {
public:
    Buffer(TensorType type, std::string name, std::vector<std::uint8_t> initial_bytes = {},
           std::optional<Tile> tile = std::nullopt);
    /// A buffer with typed initial values.
    template <class T>
    static Buffer with_values(TensorType type, std::string name, const std::vector<T>& values,
                              std::optional<Tile> tile = std::nullopt) {
        std::vector<std::uint8_t> b(values.size() * sizeof(T));
        if (!b.empty()) std::memcpy(b.data(), values.data(), b.size());
        return Buffer(std::move(type), std::move(name), std::move(b), std::move(tile));
    }

    /// In a worker body: the buffer's contents in tile memory.
    Element view() const;
    template <class T>
    std::span<T> as() const {
        return view().as<T>();
    }
    /// In the runtime sequence: write element `index` (a run-time parameter).
    template <class T>
    void write(std::int64_t index, T value) const {
        if (dtype_of<T>() != state_->type.dtype || index < 0 || index >= state_->type.elements())
            throw_bad_write(index, model::dtype_name(dtype_of<T>()));
        std::vector<std::uint8_t> b(sizeof(T));
        std::memcpy(b.data(), &value, sizeof(T));
        detail::record_buffer_write(state_.get(), static_cast<std::uint64_t>(index) * sizeof(T), std::move(b));
    }

    const std::string& name() const { return state_->name; }
    const TensorType& type() const { return state_->type; }
    const std::shared_ptr<detail::BufferState>& state() const { return state_; }

private:
    [[noreturn]] void throw_bad_write(std::int64_t index, std::string_view type) const;
    std::shared_ptr<detail::BufferState> state_;
};

} // namespace npusim::iron
