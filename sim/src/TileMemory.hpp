#pragma once
// The data memories of the tiles of a run, created on first use. Each is surrounded by a guard
// zone of kGuardBytes filled with a known pattern, so that a native kernel or body writing a little
// before or past a tile's memory writes into the guard (where MemoryGuard finds it) rather than
// into the simulator's own heap. Beyond the guard zones lie kFenceBytes of inaccessible pages on
// each side (each tile is a mapping of its own): a write further out (a kernel writing 64 KiB past
// its view) faults at once in the code that makes it - the crash reporter names its worker and
// kernel - instead of corrupting the heap, which would break the report of the memory check.
#include "npusim/model/Netlist.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace npusim::sim {

/// Bytes of tile memory a run backs for `tile`: the end of the highest netlist buffer on it (at
/// least 4). Every access is within a buffer (BD patterns are bounds-checked, core rings and
/// buffers point at buffer bases), so an array of mostly empty 512 KiB mem tiles does not cost
/// its full size in zeroed pages.
std::uint32_t tile_memory_extent(const std::vector<model::NetBuffer>& buffers, model::TileCoord tile);

class TileMemory {
public:
    static constexpr std::uint32_t kGuardBytes = 4096; ///< before and after each tile's memory
    static constexpr std::uint8_t kGuardPattern = 0xA5;
    static constexpr std::size_t kFenceBytes = std::size_t{1} << 20; ///< inaccessible, beyond each guard zone

    explicit TileMemory(const std::vector<model::NetBuffer>& buffers) : buffers_(buffers) {}
    /// The zero-initialised memory of `tile` (tile_memory_extent bytes).
    std::uint8_t* of(model::TileCoord tile);
    /// The first byte of netlist buffer `buffer`.
    std::uint8_t* buffer(int buffer);
    /// The memory of `tile` with its guard zones: kGuardBytes + extent + kGuardBytes bytes.
    struct Span {
        std::uint8_t* base = nullptr; ///< first guard byte
        std::size_t bytes = 0;
    };
    Span with_guards(model::TileCoord tile);
    std::uint32_t extent(model::TileCoord tile) {
        return static_cast<std::uint32_t>(with_guards(tile).bytes) - 2 * kGuardBytes;
    }
    const std::vector<model::NetBuffer>& buffers() const { return buffers_; }

    /// The write log, for the MemoryGuards (the memory check): writes to a tile's memory that a
    /// guard watching it did not make itself. DMA channels and the runtime sequence log what they
    /// write, and each core its own objects and Buffers, for the other cores that reach them. A
    /// guard whose core waited copies those ranges (MemoryGuard::catch_up) instead of all of its
    /// tiles. Only writes to a tile that some other guard watches are kept.
    struct Write {
        const std::uint8_t* begin;
        const std::uint8_t* end;
        const void* by; ///< the guard whose core wrote it; nullptr: a DMA or the runtime sequence
    };
    /// `guard` watches `tile` from now on.
    void watch(model::TileCoord tile, const void* guard) { watchers_[tile].push_back(guard); }
    /// A guard other than `guard` watches `tile`.
    bool watched_by_other(model::TileCoord tile, const void* guard) const;
    /// Log a write of [begin, end) into `tile`'s memory by `by`.
    void note_write(model::TileCoord tile, const std::uint8_t* begin, const std::uint8_t* end,
                    const void* by = nullptr) {
        if (!watchers_.empty()) log_write(tile, begin, end, by);
    }
    /// Entries [log_begin(), log_end()) are kept (indices count every entry ever logged).
    std::uint64_t log_begin() const { return log_base_; }
    std::uint64_t log_end() const { return log_base_ + log_.size(); }
    const Write& logged(std::uint64_t i) const { return log_[static_cast<std::size_t>(i - log_base_)]; }
    /// Entries kept at most; older ones are dropped, and a guard that had not seen them copies all
    /// of its tiles instead.
    static constexpr std::size_t kLogCapacity = 1024;

private:
    void log_write(model::TileCoord tile, const std::uint8_t* begin, const std::uint8_t* end, const void* by);
    /// One tile's memory and guard zones, mapped between two fences of inaccessible pages.
    class Block {
    public:
        explicit Block(std::size_t bytes);
        ~Block();
        Block(Block&& o) noexcept;
        Block(const Block&) = delete;
        Block& operator=(const Block&) = delete;
        Block& operator=(Block&&) = delete;
        std::uint8_t* data() const { return data_; }
        std::size_t size() const { return size_; }

    private:
        void* map_ = nullptr;
        std::size_t map_bytes_ = 0;
        std::uint8_t* data_ = nullptr; ///< `size_` accessible bytes ending at the back fence
        std::size_t size_ = 0;
    };
    const std::vector<model::NetBuffer>& buffers_;
    std::map<model::TileCoord, Block> memory_;
    std::map<model::TileCoord, std::vector<const void*>> watchers_;
    std::vector<Write> log_;
    std::uint64_t log_base_ = 0;
};

} // namespace npusim::sim
