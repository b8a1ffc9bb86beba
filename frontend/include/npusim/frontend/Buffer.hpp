#pragma once
// Buffer (IRON aie.iron.Buffer): a named tensor in a tile's memory that a worker body reads and
// writes directly (scratch data, accumulators, run-time parameters). A Buffer without a tile is
// placed on the tile of the worker that uses it; one with a tile must be reachable from that
// worker's core (own, west, north or south memory). In the runtime sequence `rtp[i] = v` (or
// write<T>(i, v)) records a run-time-parameter write. As in IRON only a Buffer declared with
// use_write_rtp gets one (npu_write_rtp, python/dialects/aie.py @ 3ca0193c L522-533); without it
// IRON emits a memref.store in the runtime sequence, which the NPU instruction translation skips
// (lib/Targets/AIETargetNPU.cpp L404-479 has no case for it), so the write never reaches the array:
// npusim drops it too and warns at resolve (an error with --werror).
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
    bool use_write_rtp = false; ///< IRON Buffer(use_write_rtp=True): sequence writes become RTP writes
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

    /// A buffer whose every element starts as `value` (IRON: a scalar initial_value splats).
    /// DesignError if T is not the type's element type.
    template <class T>
    static Buffer splat(TensorType type, std::string name, T value, std::optional<Tile> tile = std::nullopt) {
        if (dtype_of<T>() != type.dtype) throw_splat_type(name, type, model::dtype_name(dtype_of<T>()));
        std::vector<T> values(static_cast<std::size_t>(type.elements()), value);
        return with_values(std::move(type), std::move(name), values, std::move(tile));
    }
    /// IRON Buffer(use_write_rtp=True): writes from the runtime sequence are run-time-parameter
    /// writes (npu_write_rtp). Returns *this, so it chains after the constructor.
    Buffer& use_write_rtp(bool on = true) {
        state_->use_write_rtp = on;
        return *this;
    }
    bool writes_rtp() const { return state_->use_write_rtp; }

    /// In the runtime sequence: `rtp[i] = v`, v converted to the element type (an integer element
    /// must hold v exactly; bf16 rounds to nearest even).
    class Slot {
    public:
        template <class T>
        const Slot& operator=(T v) const requires std::is_arithmetic_v<T> {
            if constexpr (std::is_floating_point_v<T>)
                buffer_->write_converted(index_, static_cast<double>(v), 0, true);
            else
                buffer_->write_converted(index_, 0.0, static_cast<std::int64_t>(v), false);
            return *this;
        }

    private:
        friend class Buffer;
        Slot(const Buffer* b, std::int64_t i) : buffer_(b), index_(i) {}
        const Buffer* buffer_;
        std::int64_t index_;
    };
    Slot operator[](std::int64_t index) const { return Slot(this, index); }

    /// In a worker body: the buffer's contents in tile memory.
    Element view() const;
    template <class T>
    std::span<T> as() const {
        return view().as<T>();
    }
    /// In a worker body: value i (or (i, j, ...)) as T, IRON's `buf[i]` (exported as memref.load,
    /// or memref.store when the body assigns to it).
    template <class T, class... I>
    T& at(std::int64_t i, I... rest) const requires(std::is_integral_v<I>&&...) {
        return view().at<T>(i, rest...);
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
    [[noreturn]] static void throw_splat_type(const std::string& name, const TensorType& type, std::string_view given);
    void write_converted(std::int64_t index, double fvalue, std::int64_t ivalue, bool is_float) const;
    std::shared_ptr<detail::BufferState> state_;
};

} // namespace npusim::iron
