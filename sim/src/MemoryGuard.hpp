#pragma once
// MemoryGuard: finds writes that native code (a kernel, a worker body) makes outside the memory it
// was given. It copies the tile memories a core can reach, guard zones included, before the code
// runs and compares them after, skipping the allowed ranges: every changed byte of those tiles is
// found, whatever the size of the write (a word past a view into the neighbouring buffer, or a
// kilobyte into the guard zone). Reads are not seen; writes beyond a guard zone land in host memory
// the simulator cannot watch (docs/errors.md).
#include "TileMemory.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::sim {

class MemoryGuard {
public:
    /// Memory the code may write: [begin, end).
    struct Range {
        const std::uint8_t* begin = nullptr;
        const std::uint8_t* end = nullptr;
        std::string_view name; ///< "view 'in'", "fifo 'out' producer element 1", "Buffer 'acc'"
    };
    MemoryGuard(TileMemory& memory, std::vector<model::TileCoord> tiles);
    MemoryGuard(const MemoryGuard&) = delete; // copies_ point into copy_storage_
    MemoryGuard& operator=(const MemoryGuard&) = delete;
    MemoryGuard(MemoryGuard&&) = default; // a moved vector keeps its storage
    MemoryGuard& operator=(MemoryGuard&&) = default;
    /// Remember the contents of the watched tiles now.
    void snapshot();
    /// Remember the contents of `ranges` only (memory elsewhere is known to match).
    void refresh(std::span<const Range> ranges);
    /// After the core waited: remember what others wrote meanwhile (the TileMemory write log), or
    /// the whole tiles if the log no longer holds all of it. Memory elsewhere is known to match:
    /// nobody else writes tile memory without logging it, and the core's own writes were checked
    /// before it waited.
    void catch_up();
    /// The core wrote (or may have written) `ranges`, all allowed to it: log them for the guards
    /// of other cores that watch the same tiles.
    void publish(std::span<const Range> ranges);
    /// Another core's guard watches one of this guard's tiles (asked once every guard exists).
    bool shares_tiles();
    /// The first write outside `allowed` since the last snapshot, described in design terms (the
    /// buffer hit, and the nearest of `allowed` and `context` as the range likely overrun); an
    /// empty string when there is none.
    std::string check(std::span<const Range> allowed, std::span<const Range> context = {}) const;
    /// As check, looking only inside `within` (memory the code was not given, known unchanged
    /// elsewhere or to be checked later): the first write there since the last snapshot.
    std::string check_within(std::span<const Range> within, std::span<const Range> allowed,
                             std::span<const Range> context = {}) const;
    /// Compares made so far by check (each over the watched tiles outside the allowed ranges) and
    /// by check_within (each over its ranges only).
    std::uint64_t full_checks() const { return full_checks_; }
    std::uint64_t partial_checks() const { return partial_checks_; }
    const std::vector<model::TileCoord>& tiles() const { return tiles_; }

private:
    /// The first change of tile `i` in [from, to) against its copy, described; "" when none.
    std::string compare(std::size_t i, const std::uint8_t* from, const std::uint8_t* to, std::span<const Range> allowed,
                        std::span<const Range> context) const;
    std::string describe(std::size_t tile, const std::uint8_t* first, const std::uint8_t* last, std::size_t changed,
                         std::span<const Range> allowed, std::span<const Range> context) const;
    TileMemory& memory_;
    std::vector<model::TileCoord> tiles_;
    std::vector<TileMemory::Span> spans_;
    /// Each tile's copy starts at the same offset within a 64-byte line as the tile's span, so that
    /// the compares and copies between them read and write aligned vectors on both sides (a copy 16
    /// bytes out of phase made E1's checked run about 20 % slower; docs/performance.md).
    std::vector<std::vector<std::uint8_t>> copy_storage_;
    std::vector<std::uint8_t*> copies_;
    mutable std::vector<Range> inside_; ///< check: the allowed ranges inside one tile (kept to reuse its storage)
    std::uint64_t seen_ = 0; ///< TileMemory write log entries already applied
    int shares_ = -1; ///< shares_tiles(): -1 not asked yet
    mutable std::uint64_t full_checks_ = 0;
    mutable std::uint64_t partial_checks_ = 0;
};

} // namespace npusim::sim
